"""kiai.balance: a level that evens out the team sizes (`kiai balance`, docs/house-levels.md).

Every input is checked here before any game is played (a KiaiError with the command's one line),
then one call plays it (reports.search.balance_run.play): the search is reports.search.balance's, what
it writes reports.search.balance_page's.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from kiai.inputs.checks import check_cluster, check_flag, check_path, fail, items_of, text_of, whole
from kiai.inputs.configs import load_components, parse_counts
from kiai.inputs.counts import check_seed, check_threads
from kiai.outputs import claim
from kiai.inputs.paths import check_output_folder
from kiai.inputs.players import resolve_strategy
from kiai.progress import reporter
from kiai.reports.search.balance import Request
from kiai.reports.search.balance_run import STATE, Balance, State, play
from kiai.states import StateError

if TYPE_CHECKING:
    from kiai.progress import Progress

MAX_GAMES = 10_000_000  # a setting's games in the search, and each arm's of the verification


def parse_target(value, level_sizes: list[int]) -> tuple[int | None, float | None]:
    """--target: a team size (2 to 7, a whole number) whose printed level's win rate is the target,
    or a win rate (0.07, or 7%)."""
    text = str(value).strip()
    try:
        number = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        fail(f"--target expects a team size (2 to 7) or a win rate (0.07 or 7%), got {value!r}")
    if not math.isfinite(number):
        fail(f"--target expects a team size (2 to 7) or a win rate (0.07 or 7%), got {text}")
    if not text.endswith("%") and number == int(number) and number >= 1:
        if not 2 <= number <= 7:
            fail(f"--target: a team size is 2 to 7, got {text}")
        if int(number) in level_sizes:
            fail(f"--target {int(number)} is a team size --players balances; leave it out of --players")
        return int(number), None
    if not 0 < number < 1:
        fail(f"--target: a win rate is between 0 and 1 (or 0% and 100%), got {text}")
    return None, number


def _check_out(out, resume: bool, force: bool, key: dict):
    """--out: the folder written; the state a resumed run reads back (None: start afresh). What the
    folder holds is read before anything is written in it, a probe file included."""
    out = Path(out)
    state = out / STATE
    held = out.is_dir() and (state.exists() or any((out / name).exists() for name in ("components.toml", "balance.md")))
    played = None
    if held and not (resume or force):
        fail(f"--out {out} holds a balance run; --resume continues it, --force starts afresh")
    if held and resume and not force and state.exists():
        try:
            known, played = State.read(state)
        except StateError as e:  # damaged: it names the file and the field
            fail(f"--resume: cannot read {e}; --force starts afresh")
        except OSError as e:
            fail(f"--resume: cannot read {state} ({e.strerror or e}); --force starts afresh")
        if known != key:
            changed = sorted(k for k in set(known) | set(key) if known.get(k) != key.get(k))
            fail(f"--resume: {out} holds a run of other settings ({', '.join(changed)}); give the same, or --force")
    check_output_folder(out)
    return played


def balance(level: str = "normal", players=None, target=4, *, lineups: int = 4, games: int = 2000,
            generations: int = 6, candidates: int = 16, verify: int = 20_000, seed: int = 0,
            strategy: str | None = None, params=None, components=None, out="kiai-balance", resume: bool = False,
            force: bool = False, threads: int | None = None, workers: int | None = None,
            scheduler: str | None = None, progress: bool | Progress = False) -> Balance:
    """For each team size of `players` (default: 2 to 7 but the target's), the setting of `level`'s
    knobs that brings the strategy's win rate (kiai's default player) closest to `target`: a team
    size (the printed level's rate there) or a win rate. `lineups` line-ups per team size;
    `games` games each setting plays in the search (split over the line-ups, the same deals for
    every setting), `generations` of `candidates` settings; `verify` fresh games for the winner,
    the printed level and the target each.
    Writes components.toml (one house level per team size), balance.md and balance.json to `out`;
    `resume` continues a run cut short there, `force` replaces one. `workers` plays on a local Dask
    cluster of so many worker processes, `scheduler` on a running one (tcp://host:8786), with the
    same figures (docs/clusters.md); a cluster that fails mid-run is a KiaiError, and `resume`
    continues from what was played. Returns a Balance."""
    from kiai.simcore.components import ComponentsError
    from kiai.simcore.config import ConfigError
    from kiai.simcore.version import kiai_version
    from kiai.strategies.run.config import GameConfig

    with reporter(progress) as p:
        comp = load_components(components)
        if not isinstance(level, str) or level.lower() not in comp.levels:
            fail(f"--difficulty: unknown level {level!r} (known: {', '.join(comp.levels)})")
        level = level.lower()
        sizes = parse_counts(text_of(players, "--players")) if players is not None else None
        target_size, target_rate = parse_target(target, sizes or [])
        sizes = sizes or [n for n in range(2, 8) if n != target_size]
        numbers = {"--lineups": (lineups, 1, 35), "--games": (games, 1, MAX_GAMES), "--generations": (generations, 1, 50),
                   "--candidates": (candidates, 2, 200), "--verify": (verify, 1, MAX_GAMES)}
        for option, (value, lo, hi) in numbers.items():
            if not lo <= whole(value, option) <= hi:
                fail(f"{option} must be {lo} to {hi:,}, got {value}")
        seed = check_seed(seed)
        check_threads(threads, p.note)
        check_cluster(workers, scheduler)
        name, overrides = resolve_strategy(strategy, items_of(params, "--param"), None)
        request = Request(level, tuple(sizes), target_size, target_rate, lineups, games, generations, candidates, verify,
                          seed, name, overrides)  # fmt: skip
        for n in sorted(set(sizes) | {target_size} - {None}):
            house = request.house(n)
            if house in comp.levels:
                fail(f"--components {comp.path} holds a level {house!r} already; balance writes it")
            try:
                GameConfig(("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo")[:n], level,
                           name, dict(overrides), components=comp)  # the printed level plays at this size
            except (ConfigError, ComponentsError) as e:
                fail(f"{n} samurai at {level}: {e}")
        key = {**json.loads(json.dumps(request.__dict__)), "components_sha256": comp.sha256,
               "kiai_version": kiai_version(), "engine": _engine()}
        if check_path(out, "--out") is None:
            fail("--out expects a folder name, got None")
        _check_out(out, check_flag(resume, "--resume"), check_flag(force, "--force"), key)
        out = Path(out)
        with claim(out, folder=True):  # from before the first game to the page: a second run refuses
            played = _check_out(out, resume, force, key)  # again, now that the folder is this run's
            return play(request, comp, out, State(out / STATE, key, played), p, threads, workers=workers,
                        scheduler=scheduler)


def _engine() -> str:
    from kiai.simcore.sources import source_hash

    return source_hash()


__all__ = ["Balance", "balance", "parse_target"]
