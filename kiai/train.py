"""Training kiai's learned players through the API (`kiai train learned|value|ship`): learned's
model by expert iteration (training.learned), the values selfplay and judge play by, learned by
self-play (training.value), and a value shipped as its family's own (training.ship). Training
needs PyTorch (the extra kiai[train]); each run's folder gets every step as it finishes, so that a
killed run resumes when called again with the same arguments.

`stages` is what hears a run's stages as they go: an object with stage(description, total,
unit='games'), advance(k=1) and note(line) (training.learned.Stages; the command shows bars).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from kiai.inputs.checks import fail, items_of, once
from kiai.inputs.configs import parse_levels, parse_samurai
from kiai.inputs.counts import check_seed, check_size, check_threads
from kiai.outputs import claim
from kiai.inputs.paths import check_output_folder
from kiai.inputs.players import parse_params
from kiai.simcore.components import ComponentsError, load_components
from kiai.simcore.config import ConfigError
from kiai.strategies.nets import modelfile as M
from kiai.strategies.nets.modelfile import AFTER, ModelError, load, other_components, other_data_error
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import set_threads
from kiai.words import said_params

# training's own modules are imported by the functions that use them: training.figures brings pandas


def _need_torch(what: str) -> None:
    try:
        import torch  # noqa: F401
    except ImportError:
        fail(f"{what} needs PyTorch: install the training extra, pip install -e '.[train]'")


def parse_table(text: str) -> tuple[tuple[str, ...], str]:
    """'kanbei,heihachi,kikuchiyo:normal' as (seating, level)."""
    seating, sep, level = text.rpartition(":")
    if not sep or not seating or not level:
        fail(f"--eval must be SEATING:LEVEL (e.g. kanbei,heihachi,kikuchiyo:normal), got '{text}'")
    return parse_samurai(seating, "--eval"), level.strip().lower()


def learned(folder="kiai-train", *, iterations: int = 2, games: int = 30_000, tables: int = 300, samples: int = 16,
            hidden: int = 16, epochs: int = 10, fits: int = 1, select_games: int = 40_000, members: int = 1,
            eval_games: int = 4000, teacher_games: int = 300, eval_tables=None, seed: int = 0, components=None,
            threads: int | None = None, stages=None, command: str = "kiai.train.learned (Python)",
            note=None) -> dict:
    """Train the model of `learned` by expert iteration into `folder`, as `kiai train learned` (its
    options say what each argument does; eval_tables: 'SEATING:LEVEL' texts). Returns the run's
    `history`, `best` iteration (None: none gained over keeper), the training report's `paths`,
    the `threads` played on and the `seconds` taken."""
    from kiai.training import figures as R
    from kiai.training import learned as T

    folder = Path(folder)
    check_seed(seed)
    check_threads(threads, note)
    try:
        comp = load_components(components)
        evals = [parse_table(t) for t in items_of(eval_tables, "--eval")] if eval_tables else list(T.EVAL_TABLES)
        once([f"{','.join(seating)}:{level}" for seating, level in evals], "--eval")
        for seating, level in evals:
            GameConfig(seating, level, "keeper", components=comp)  # a bad table fails here, before any work
        settings = T.Settings(iterations=iterations, games=games, tables=tables, samples=samples, hidden=hidden,
                              epochs=epochs, fits=fits, select_games=select_games, eval_games=eval_games,
                              teacher_games=teacher_games, seed=seed, members=members,
                              components_sha256=comp.sha256, eval_tables=[[list(s), lv] for s, lv in evals])
        settings.check()
        used = set_threads(threads)
    except (ConfigError, ComponentsError, T.TrainError) as e:
        fail(str(e))
    if folder.exists() and not folder.is_dir():
        fail(f"FOLDER {folder} is a file; give a folder")
    # the run's folder, checked the way every output is, before any game is played
    check_output_folder(folder, "FOLDER")
    _need_torch("kiai train")  # after the arguments: a bad one is told before PyTorch is asked for
    start = time.perf_counter()
    with claim(folder, "FOLDER", folder=True):  # a second run on the folder refuses before its first game
        try:
            done = T.train(T.Folder(folder), settings, comp, stages or T.Stages(), command=command)
        except (T.TrainError, ConfigError) as e:
            fail(str(e))
        paths = R.write(folder)
    return {"history": done["history"], "best": done["best"], "paths": paths, "threads": used,
            "seconds": time.perf_counter() - start}


def value(folder="kiai-value", *, player: str = "judge", iterations: int = 3, tables: int = 300, games: int = 800,
          keep: float = 0.1, lam: float = 0.7, samples: int = 2, explore: float = 0.05, base: str = "keeper",
          weigh: str = "action+cards+second-fight", samurai: str | None = None, size: int | None = None,
          hold_out: int = 0, difficulty: str | None = None, h1: int | None = None, h2: int | None = None,
          epochs: int = 6, edge: float = 0.0, start_from=None, teacher: str | None = None, share: float = 0.5,
          loss: str = "share", temperature: float = 0.05, anchor: float = 0.1, teacher_samples: int = 0,
          eval_games: int = 300, seed: int = 0, deal_seed: int | None = None, components=None,
          threads: int | None = None, stages=None, command: str = "kiai.train.value (Python)", note=None) -> dict:
    """Learn by self-play the value that `selfplay` or `judge` (player) plays by, into `folder`, as
    `kiai train value` (its options say what each argument does; lam is --lambda, start_from
    --start; loss, temperature and anchor: training.within). Returns the `last` value file written
    and the `seconds` taken; evaluations(folder) gives each iteration's win rates."""
    from kiai.training import value as V

    folder = Path(folder)
    check_seed(seed)
    if deal_seed is not None:
        check_seed(deal_seed, "--deal-seed")
    check_threads(threads, note)
    if player not in V.PLAYERS:
        fail(f"--player must be one of {', '.join(V.PLAYERS)}, got {player!r}")
    kind = M.AFTER if player == "selfplay" else M.TABLE
    if teacher and player == "selfplay" and start_from is None and size is not None and difficulty is not None:
        start_from = M.family_path(size, difficulty.strip().lower())  # the family's shipped value, if kiai ships one
    begin, h1, h2 = _start(start_from, kind, teacher, h1, h2)
    settings = V.ValueSettings(iterations=iterations, tables=tables, games=games, keep=keep, lam=lam,
                               samples=samples, h1=kind.max_h1 if h1 is None else h1,
                               h2=kind.max_h2 if h2 is None else h2, epochs=epochs, seed=seed, edge=edge,
                               start=begin.sha256 if begin else "", eval_games=eval_games, player=player,
                               explore=explore, base=base, questions=_weighed(weigh), hold_out=hold_out,
                               deal_seed=deal_seed, teacher=teacher or "", share=share, loss=loss, tau=temperature,
                               anchor=anchor, teacher_samples=teacher_samples)
    try:
        comp = load_components(components)
    except ComponentsError as e:
        fail(str(e))
    settings = _where(settings, samurai, size, difficulty, comp)
    try:
        settings.check()
    except V.TrainError as e:
        fail(str(e))
    if folder.exists() and not folder.is_dir():
        fail(f"FOLDER {folder} is a file; give a folder")
    check_output_folder(folder, "FOLDER")
    _need_torch("kiai train value")
    used = set_threads(threads)
    start = time.perf_counter()
    from kiai.training import figures as R

    with claim(folder, "FOLDER", folder=True):  # a second run on the folder refuses before its first game
        try:
            iterate = None
            if settings.teacher:
                from kiai.training import teacher as T

                iterate = T.train
            last = V.train_value(folder, settings, comp, stages, command=command, threads=used, start=start_from,
                                 iterate=iterate)  # fmt: skip
        except V.TrainError as e:
            fail(str(e))
        R.write(folder, value=True)
    return {"last": last, "seconds": time.perf_counter() - start}


def _start(start_from, kind, teacher, h1, h2):
    """--start read and checked (None: none), and the widths a teacher's fit takes from it."""
    try:
        begin = M.load(start_from, kind) if start_from is not None else None
    except M.ModelError as e:
        fail(f"--start: {e}")
    if teacher and begin is not None:  # a teacher's fit starts from --start's weights: its widths
        widths = (begin.arrays["b1"].shape[0], begin.arrays["b2"].shape[0])
        if (h1 or widths[0], h2 or widths[1]) != widths:
            fail(f"--h1 and --h2: --teacher fits from --start's weights, of {widths[0]} and {widths[1]} units")
        h1, h2 = widths
    return begin, h1, h2


def _where(settings, samurai, size, difficulty, comp):
    """The settings with the one table (--samurai) or the family (--size) at --difficulty, checked."""
    if ((samurai is None) and (size is None)) != (difficulty is None):
        fail("--difficulty goes with --samurai (one table) or --size (a family): give both, or neither")
    if difficulty is None:
        return settings
    levels = parse_levels(difficulty, comp)
    if len(levels) != 1:
        fail(f"--difficulty names one level for {'--samurai' if samurai else '--size'}'s "
             f"{'table' if samurai else 'family'}")
    if samurai is not None:
        seating = parse_samurai(samurai)
        try:
            GameConfig(seating, levels[0], components=comp)
        except ConfigError as e:
            fail(str(e))
        settings = replace(settings, table=f"{','.join(seating)}@{levels[0]}")
    if size is not None:  # with --samurai too: settings.check() refuses the pair
        check_size(size)
        settings = replace(settings, family=f"{size}@{levels[0]}")
    return settings


def _weighed(text: str) -> int:
    """--weigh's names as selfplay's `weigh` bit-sum (one line, exit 2, for another word)."""
    from kiai.strategies.selfplay import STRATEGY

    try:
        return STRATEGY.params[STRATEGY.index("weigh")].value_of(text, "selfplay")
    except ValueError as e:
        fail(f"--weigh: {e}")


def evaluations(folder) -> list[str]:
    """Each evaluated iteration's win rates on the evaluation deals of a value's run, and the new
    value's p-values, as the lines `kiai train value` prints (none before the first evaluation)."""
    from kiai.training import figures as R

    _, rows = R.value_tables(Path(folder))
    if rows.empty:
        return []
    player = R.run_player(Path(folder))
    lines = [f"win rates on the evaluation deals ({player} over each iteration's value, p: McNemar against it):"]
    for _, r in rows.iterrows():
        parts = [f"{player} {100 * r['new_win_rate']:.1f}%"]
        for arm in R.VALUE_ARMS[1:]:
            parts.append(f"{arm} {100 * r[f'{arm}_win_rate']:.1f}% (p {r[f'new_vs_{arm}_p']:.2g})")
        lines.append(f"  iteration {int(r['iteration'])}: " + ", ".join(parts))
    return lines


def ship(file, *, size: int | None = None, difficulty: str | None = None, play=None, why: str = "",
         to=None) -> str:
    """Make a value file that `kiai train value --player selfplay` wrote the value `selfplay` plays
    on its family's tables (size samurai at difficulty, by default its header's), as `kiai train
    ship`: copied into the shipped values (or the folder `to`), playing `play` ({'base': 1} or
    ['base=1']; `why` says how they were chosen). Returns the line the command prints."""
    from kiai.training.ship import ship as shipped

    comp = load_components()
    try:
        model = load(file, AFTER, comp)
        if other_components(model, comp):  # kiai ships values of its own component data only
            raise other_data_error(model, comp)
    except ModelError as e:
        fail(str(e))
    k, _, lv = model.header.get("settings", {}).get("family", "").partition("@")
    size = size if size is not None else (int(k) if k else None)
    if size is None or (difficulty is None and not lv):
        fail(f"value file {file}: its header names no family; give --size and --difficulty")
    check_size(size)
    levels = parse_levels(difficulty or lv, comp)
    if len(levels) != 1:
        fail("--difficulty names one level")
    params = parse_params(items_of(play, "--play")) if play else {}
    if params and not why.strip():
        fail("--play needs --why: say how the parameters were chosen (the header keeps it)")
    to = Path(to) if to is not None else None
    if to is not None and to.exists() and not to.is_dir():
        fail(f"--to {to} is a file, not a folder")
    if to is not None and not to.is_dir():
        fail(f"--to {to}: no such folder")
    try:
        dest, old = shipped(model, f"{size}@{levels[0]}", params, why.strip(), to)
    except ModelError as e:
        fail(str(e))
    what = f"replaces {old.sha256[:12]}" if old is not None else "the family's first value"
    plays = said_params(params)
    return f"{dest}: selfplay's value of {size}@{levels[0]} ({what}{'; plays ' + plays if plays else ''})"
