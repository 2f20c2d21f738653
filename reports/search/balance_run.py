"""`kiai balance` run: from a request checked (kiai.levels) to the files written, with the state a
resumed run reads back. The search itself, each team size's settings played and the winner verified
on fresh deals, is reports.search.balance's; what is written (a component file with one house level
per team size, the page that says what changed, and the figures as JSON) is reports.search.balance_page's.

Every setting played is kept in a state file as it is played, so a run cut short (Ctrl-C, or a
cluster that fails mid-run) continues where it stopped (resume): the search draws the same settings
again and finds them played. With `workers` or `scheduler` the games play on a Dask cluster
(reports.playing.pool), with the same figures.

    result = play(request, comp, out, State(out / STATE, key, played), progress, threads,
                  workers=None, scheduler=None)  # a Balance
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from kiai.errors import KiaiError
from kiai.reports.files import atomic_write
from kiai.reports.search import balance as B
from kiai.reports.search import balance_page
from kiai.states import StateError, check, field_name, load_json

STATE = "balance-state.json"
WHAT = "balance state"
_COUNT = {"type": "integer", "minimum": 0}
# the state file as State.put writes it: the run's key and, for each result played, [wins, games]
STATE_SCHEMA = {"type": "object", "required": ["key", "played"], "properties": {
    "key": {"type": "object"},
    "played": {"type": "object", "additionalProperties": {
        "type": "array", "prefixItems": [_COUNT, _COUNT], "minItems": 2, "maxItems": 2}}}}


class State:
    """The settings played so far, by team size, setting and deals, kept in a JSON file rewritten
    (atomically) after each: what a resumed run reads back instead of playing again."""

    def __init__(self, path: Path | None, key: dict, played: dict | None = None):
        self.path, self.key, self.played = path, key, played or {}

    @classmethod
    def read(cls, path: Path) -> tuple[dict, dict]:
        """The run's key and what it played, checked (kiai.states): a damaged file is a StateError
        naming it and the field."""
        doc = check(load_json(path.read_bytes(), path, WHAT), STATE_SCHEMA, path, WHAT)
        for what, (wins, games) in doc["played"].items():
            if wins > games:
                raise StateError(f"{path}: damaged {WHAT}: {field_name(['played', what, 0])} is {wins} wins "
                                 f"of {games} games")
        return doc["key"], doc["played"]

    def get(self, what: str) -> list | None:
        return self.played.get(what)

    def put(self, what: str, value: list) -> None:
        self.played[what] = value
        if self.path is not None:
            text = json.dumps({"key": self.key, "played": self.played})
            atomic_write(self.path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


class Balance:
    """What kiai.balance found: `figures` (balance.json: the request, the target, per team size
    the setting, its rate before and after with intervals, and what changed), `page` (the text
    `kiai balance` prints, balance.md), `written` ({file name: path})."""

    def __init__(self, figures: dict, page: str, written: dict):
        self.figures, self.page, self.written = figures, page, written

    @property
    def sizes(self) -> list[dict]:
        return copy.deepcopy(self.figures["sizes"])

    def to_json(self) -> dict:
        return copy.deepcopy(self.figures)

    def __str__(self) -> str:
        return self.page

    def __repr__(self) -> str:
        sizes = ", ".join(f"{s['n']}: {100 * s['after']['rate']:.1f}%" for s in self.figures["sizes"])
        return f"<Balance of {self.figures['request']['level']}: {sizes}>"


def play(request: B.Request, comp, out: Path, state: State, p, threads: int | None, *,
         workers: int | None = None, scheduler: str | None = None) -> Balance:
    """Play the request (the input checked: kiai.levels) on `threads` threads (per Dask worker on a
    cluster: a local one of `workers`, or the running one at `scheduler`), told to `p` (a
    kiai.Progress), write what it found in the folder `out`, and say so: a Balance. A scheduler
    that cannot be reached is a KiaiError before any game; a cluster that fails mid-run one too,
    saying that --resume continues from what the state file keeps."""
    from kiai.reports.playing.pool import open_pool
    from kiai.reports.playing.tables import SweepError
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import threads_for
    from kiai.strategies.run.warm import warm_engine

    local = workers is None and scheduler is None
    with threads_for(threads if local else None) as used:
        first = GameConfig(("kyuzo", "kikuchiyo", "heihachi", "daisuke")[: max(2, min(request.sizes))],
                           request.level, request.strategy, dict(request.params), components=comp)  # fmt: skip
        warm_engine(first, note=p.note)
        try:
            pool = open_pool(workers, scheduler, threads, [first])  # every worker warmed with the strategy
        except SweepError as e:
            raise KiaiError(str(e)) from None
        out.mkdir(exist_ok=True)
        with pool:
            if state.played:
                p.note(f"resume: {len(state.played)} results played before are read back from {state.path}")
            p.start("games", None, threads=used if local else None, workers=pool.workers or None)
            try:
                figures = B.run(request, comp, state=state, note=p.note, on_games=p.advance, pool=pool)
            except KeyboardInterrupt:
                p.note(f"interrupted: what was played is kept in {state.path}; run the same command with --resume "
                       f"to continue")
                raise
            except SweepError as e:  # the cluster failed mid-run (ClusterFailed), or a worker's engine
                raise KiaiError(f"{e}; what was played is kept in {state.path}: run the same command with "
                                "--resume to continue") from None
    written = balance_page.write(out, figures, comp)
    return Balance(figures, balance_page.page(figures, comp), {k: str(v) for k, v in written.items()})
