"""`kiai record` and `kiai replay` played: games recorded as they are played (kiai.inputs.play_plan
checks the API's arguments first), and records checked against the engine: each replayed, fed its
random outcomes and decisions, and compared (reports.records.replay), to a Replay."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from kiai.errors import KiaiError
from kiai.outputs import atomic_write, claim
from kiai.reports.playing.summary import kiai_version
from kiai.reports.records.game import RecordError, write
from kiai.reports.records.replay import damaged, dumps, first_divergence, open_text, read, replayed
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run import games
from kiai.strategies.run.warm import warm_engine
from kiai.words import plural


def records(config, seed: int, indices, p, as_lines: bool = False) -> Iterator[dict] | Iterator[str]:
    """The records of games `indices` of `seed` with `config`, made as they are iterated (each as
    its JSON line with `as_lines`), told to `p` (a kiai.Progress); the engine is compiled (or
    loaded) before this returns."""
    warm_engine(config, note=p.note)
    made = _recorded(config, seed, indices, p)
    return (dumps(rec) for rec in made) if as_lines else made


def record(config, seed: int, indices, p, out=None, force: bool = False) -> list[dict] | Path:
    """The records of games `indices` of `seed` with `config` as a list, told to `p`; with `out` (a
    .jsonl or .jsonl.gz file, replaced with `force`) written there instead, one JSON object per
    line as they are played, under the file's claim, and its path returned."""
    warm_engine(config, note=p.note)
    if out is None:
        return list(_recorded(config, seed, indices, p))
    out = Path(out)

    def write_records(tmp):  # this run's temporary file beside `out`, moved onto it once complete
        with open_text(tmp, "wt", gz=out.name.lower().endswith(".gz")) as sink:
            for rec in _recorded(config, seed, indices, p):
                sink.write(dumps(rec) + "\n")

    with claim(out, replace=force):  # from the first game to the last line: a second run refuses
        atomic_write(out, write_records)
    return out


def _recorded(config, seed: int, indices, p) -> Iterator[dict]:
    version = kiai_version()
    with p:
        p.start("recording", len(indices))
        for i in indices:
            row, rows = games.record_game(config, seed, i)
            yield write(config, seed, i, row, rows, version)
            p.advance(1)


def replay(sources: list, comps: dict, p) -> Replay:
    """Check records (`sources`: record files or records, as kiai.inputs.play_plan.replay_plan
    gives them) against the engine, each with the component data its SHA-256 names in `comps`,
    told to `p` (a kiai.Progress): a Replay, the games verified or the first divergence (the replay
    stops there)."""
    version = kiai_version()
    # every record replays with `reference` on the one engine: compiled once, before the clock starts
    warm_engine(GameConfig(("kyuzo", "kanbei"), strategy="reference"), note=p.note)
    checked = 0
    start = time.perf_counter()
    p.start("replaying", None)
    for k, source in enumerate(sources, 1):
        lines = [(f"record {k}", source)] if isinstance(source, dict) else (
            (f"{source}, line {line}", rec) for line, rec in read(Path(source)))
        try:
            for where, rec in lines:
                sha = rec.get("components_sha256")
                if not isinstance(sha, str):
                    raise KiaiError(f"{where}: field 'components_sha256' is missing or not a str")
                if sha not in comps:
                    raise KiaiError(f"{where}: made with component data {str(sha)[:12]}..., which is not at hand; "
                                    "pass its file with --components")
                diff = first_divergence(rec, replayed(rec, comps[sha], where, version))
                if diff is not None:
                    damaged(rec, where)  # a field of the wrong kind is refused, not a divergence
                    part, field, recorded, again = diff
                    return Replay(checked, time.perf_counter() - start, {
                        "where": where, "game": rec["game"], "seed": rec["seed"], "part": part, "field": field,
                        "recorded": recorded, "replayed": again})  # fmt: skip
                checked += 1
                p.advance(1)
        except RecordError as e:
            raise KiaiError(str(e))
    if checked == 0:
        raise KiaiError(f"no records in {', '.join(str(f) for f in sources)}")
    return Replay(checked, time.perf_counter() - start)


class Replay:
    """Records checked against the engine (kiai.replay): `games` verified, in `seconds`, and the
    first `divergence` (None when every record replayed exactly): where (file and line), game,
    seed, part, field, and the recorded and replayed values. str() is the line `kiai replay`
    prints."""

    def __init__(self, games: int, seconds: float, divergence: dict | None = None):
        self.games, self.seconds, self.divergence = games, seconds, divergence

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        if self.ok:
            return f"{plural(self.games, 'game')} verified ({self.seconds:.1f} s)"
        d = self.divergence
        return (f"{d['where']} (game {d['game']} of seed {d['seed']}): diverges at {d['part']}, "
                f"field {d['field']}: recorded {d['recorded']!r}, replayed {d['replayed']!r}")

    def __repr__(self) -> str:
        return f"<Replay: {self}>"
