"""What kiai.simulate, kiai.compare and kiai.replay return."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


class Simulation:
    """The summary of a batch of games of one configuration (kiai.simulate).

    Its fields are those of `kiai simulate --json` (games, wins, win_rate, ci95, outcomes,
    lost_in_round, grades, mean_barricades_left, seed, samurai, strategy, params, seconds,
    threads...), read as attributes; ci_low and ci_high are the ends of ci95. to_dict() gives
    them all, to_frame() the one-row table of `kiai simulate --out` (the schema of a sweep's
    table), and str() the text `kiai simulate` prints. `config` is the configuration played; `out`
    the table file kiai.simulate claimed for write_table(), or None."""

    def __init__(self, summary: dict, config, out=None, held=None):
        self._summary = summary
        self.config = config
        self.out = out
        self._held = held  # the claim on `out` (kiai.outputs.hold), let go once the table is written

    def __getattr__(self, name: str):
        summary = self.__dict__.get("_summary", {})
        if name in summary:
            return summary[name]
        raise AttributeError(f"{type(self).__name__!r} has no field {name!r} (fields: {', '.join(summary)})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._summary))

    @property
    def ci_low(self) -> float:
        return self._summary["ci95"][0]

    @property
    def ci_high(self) -> float:
        return self._summary["ci95"][1]

    def to_dict(self) -> dict:
        """Every field, as `kiai simulate --json` prints them."""
        return copy.deepcopy(self._summary)

    def to_frame(self) -> pd.DataFrame:
        """The result as a one-row table with the columns and types of a sweep's table."""
        from kiai.reports.playing.tables import row_from_summary, to_frame

        return to_frame([row_from_summary(self._summary, self.config)])

    def write_table(self, path=None) -> None:
        """Write to_frame() to `path` (default: `out`; .parquet, else CSV), as `kiai simulate
        --out` does: whole or not at all (kiai.outputs.write_held), under the file's claim."""
        from pathlib import Path

        from kiai.outputs import write_held

        if path is None and self.out is None:
            raise TypeError("write_table() needs a path: kiai.simulate was given no out")
        path, df = Path(path if path is not None else self.out), self.to_frame()
        parquet = path.suffix.lower() == ".parquet"
        if write_held(path, lambda tmp: df.to_parquet(tmp, index=False) if parquet else df.to_csv(tmp, index=False),
                      self._held):
            self._held = None

    def __str__(self) -> str:
        from kiai.reports.playing.summary import format_summary

        return format_summary(self._summary)

    def __repr__(self) -> str:
        s = self._summary
        return (f"<Simulation {','.join(s['samurai'])} at {s['difficulty']}, strategy {s['strategy']}: "
                f"win rate {100 * s['win_rate']:.3f}% [{100 * s['ci95'][0]:.3f}%, {100 * s['ci95'][1]:.3f}%] "
                f"over {s['games']:,} games>")  # fmt: skip


class Comparison:
    """Arms played on the same games, with paired tests (kiai.compare).

    `mode` is 'seatings' (every seating of a line-up, each tested against the best), 'strategies',
    'rules' or 'components' (every pair of arms tested). `arms` lists the arms best first and `pairs` the
    paired tests of every pair (empty for seatings, whose arms carry their test against the
    best); both as `kiai compare --json` gives them, and to_json() gives that whole. to_frame()
    is the arms as a table; `summaries` are the arms' summaries (as kiai.simulate's to_dict()),
    best first; `seconds` and `threads` say how long the games took, on how many threads."""

    def __init__(self, mode: str, played: list[dict], games: int, seed: int, seconds: float, threads: int,
                 *, typed: str | None = None, reading: str | None = None):
        from kiai.reports.search import compare as C

        self.mode, self.games, self.seed, self.seconds, self.threads = mode, games, seed, seconds, threads
        self.typed, self.reading = typed, reading  # the seating as given (seatings); the reading compared (rules)
        if mode == "seatings":
            self._json = C.seatings_report(played, typed, seed)
            self.arms, self.pairs = self._json, []
        elif mode == "strategies":
            self._json = C.strategies_report(played, games, seed)
            self.arms, self.pairs = self._json["strategies"], self._json["pairs"]
        elif mode == "components":
            self._json = C.components_report(played, games, seed)
            self.arms, self.pairs = self._json["files"], self._json["pairs"]
        else:
            self._json = C.rules_report(played, reading, games, seed)
            self.arms, self.pairs = self._json["readings"], self._json["pairs"]
        self.summaries = [p["summary"] for p in C.by_win_rate(played)]

    def to_json(self) -> list | dict:
        """What `kiai compare --json` prints (json.dumps of it is that line): for seatings a list,
        best first, else one object with the arms and the pairs."""
        return copy.deepcopy(self._json)

    def to_frame(self) -> pd.DataFrame:
        """One row per arm, best first: its fields, with each interval as two columns (ci_low and
        ci_high; diff_ci_low and diff_ci_high) and a seating's discordant games as won_only_here and
        won_only_by_best."""
        import pandas as pd

        rows = []
        for arm in self.arms:
            row = {}
            for key, value in arm.items():
                if key == "ci95":
                    row["ci_low"], row["ci_high"] = value
                elif key == "diff_ci":
                    row["diff_ci_low"], row["diff_ci_high"] = value
                elif key == "discordant":
                    row["won_only_here"], row["won_only_by_best"] = value
                else:
                    row[key] = value
            rows.append(row)
        return pd.DataFrame(rows)

    def __str__(self) -> str:
        """The text `kiai compare` prints (kiai.compare_text)."""
        from kiai.compare_text import text

        return text(self)

    def __repr__(self) -> str:
        best = self.arms[0]
        label = best.get("seating") or best.get("strategy") or best.get("label")
        return (f"<Comparison of {len(self.arms)} {self.mode} over {self.games:,} games: best {label} "
                f"{100 * best['win_rate']:.3f}%>")


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
        from kiai.words import plural

        if self.ok:
            return f"{plural(self.games, 'game')} verified ({self.seconds:.1f} s)"
        d = self.divergence
        return (f"{d['where']} (game {d['game']} of seed {d['seed']}): diverges at {d['part']}, "
                f"field {d['field']}: recorded {d['recorded']!r}, replayed {d['replayed']!r}")

    def __repr__(self) -> str:
        return f"<Replay: {self}>"
