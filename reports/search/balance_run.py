"""`kiai balance` played: the target, each team size's search (reports.search.balance) on shared deals,
the winner verified on fresh deals, and what is written: a component file with one house level per
team size, the page that says what changed, and the figures as JSON.

Each team size plays a few line-ups (drawn with the seed, each seated in its own order); a
setting's win rate pools them. The search plays game indices 0, 1, ... of the seed on every line-up;
the verification plays FRESH onwards, which the search never plays, the printed level and the
winner on the same deals, and the target (a team size's printed level) too. Every setting played
is kept in a state file as it is played, so a run cut short (Ctrl-C) continues where it stopped
(resume): the search draws the same settings again and finds them played.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from kiai.reports.search import balance as B
from kiai.reports.files import atomic_write
from kiai.states import StateError, check, field_name, load_json

FRESH = 10**9  # the verification's first game index: the search never plays so far
STATE = "balance-state.json"
WHAT = "balance state"
_COUNT = {"type": "integer", "minimum": 0}
# the state file as State.put writes it: the run's key and, for each result played, [wins, games]
STATE_SCHEMA = {"type": "object", "required": ["key", "played"], "properties": {
    "key": {"type": "object"},
    "played": {"type": "object", "additionalProperties": {
        "type": "array", "prefixItems": [_COUNT, _COUNT], "minItems": 2, "maxItems": 2}}}}


@dataclass(frozen=True)
class Request:
    """What a balance run is asked: the level, the team sizes, the target (a team size or a win
    rate), the line-ups per size, the games each setting plays in the search, generations and
    settings per generation, the games of each arm of the verification (games are split evenly
    over a size's line-ups: each plays as many deals), the seed, the strategy and its parameters."""

    level: str
    sizes: tuple[int, ...]
    target_size: int | None
    target_rate: float | None
    lineups: int = 4
    games: int = 2000
    generations: int = 6
    candidates: int = 16
    verify: int = 20_000
    seed: int = 0
    strategy: str = "selfplay"
    params: dict = field(default_factory=dict)

    def house(self, n: int) -> str:
        """The name of the house level for n samurai."""
        return f"{self.level}-{n}"


def deals(games: int, lineups: int) -> int:
    """The deals each of `lineups` line-ups plays for `games` games in all (at least)."""
    return -(-games // lineups)


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


class Runner:
    """Plays a request's games: `comp` the component data, `lineups[n]` the seatings of each team
    size, `state` what was played before, `on_games` told of every block of games played."""

    def __init__(self, request: Request, comp, lineups: dict, state: State,
                 on_games: Callable[[int], None] | None = None):
        self.r, self.comp, self.lineups, self.state, self.on_games = request, comp, lineups, state, on_games
        self.variants: dict = {}

    def variant(self, sp: B.Space, s: B.Setting):
        """The component data with setting s as the house level of sp's team size."""
        key = (sp.n, s)
        if key not in self.variants:
            from kiai.simcore.components import with_levels

            level = sp.level(s, self.r.house(sp.n), self.comp.family_level(self.r.level))
            self.variants[key] = with_levels(self.comp, [level])[0]
        return self.variants[key]

    def tables(self, n: int, level: str, comp) -> list:
        from kiai.strategies.game_config import GameConfig

        return [GameConfig(seating, level, self.r.strategy, dict(self.r.params), components=comp)
                for seating in self.lineups[n]]

    def games(self, what: str, configs: list, first: int, last: int) -> tuple[int, int]:
        """Wins and games of configs on indices first..last-1 each (read back from the state
        where it holds them)."""
        from kiai.reports.playing.play import play_range

        held = self.state.get(what)
        if held is None:
            tallies = [play_range(c, self.r.seed, first, last - first, self.on_games) for c in configs]
            held = [sum(t.wins for t in tallies), sum(t.games for t in tallies)]
            self.state.put(what, held)
        return int(held[0]), int(held[1])

    def play(self, sp: B.Space) -> B.Play:
        """The search's Play for team size sp.n: a setting on game indices first..last-1 of every line-up."""
        def play(s: B.Setting, first: int, last: int) -> tuple[int, int]:
            what = f"{sp.n}|{json.dumps(list(s))}|{first}|{last}"
            return self.games(what, self.tables(sp.n, self.r.house(sp.n), self.variant(sp, s)), first, last)

        return play

    def printed(self, n: int, first: int, last: int) -> tuple[int, int]:
        """The printed level's wins and games for n samurai on indices first..last-1."""
        return self.games(f"{n}|printed|{first}|{last}", self.tables(n, self.r.level, self.comp), first, last)

    def target(self) -> dict:
        """The target: a win rate, or the printed level's at the target team size on fresh deals."""
        r = self.r
        if r.target_rate is not None:
            return {"rate": r.target_rate, "size": None}
        wins, games = self.printed(r.target_size, FRESH, FRESH + deals(r.verify, len(self.lineups[r.target_size])))
        return {"size": r.target_size, **rate(wins, games)}

    def size(self, n: int, target: dict, note: Callable[[str], None]) -> dict:
        """Team size n: the search, then the printed level and the winner on fresh deals."""
        r = self.r
        sp = B.space(self.comp, r.level, n)
        k = len(self.lineups[n])
        search = B.Search(sp, self.play(sp), target["rate"], deals=deals(r.games, k),
                          rng=np.random.default_rng([r.seed, n]), note=note)  # fmt: skip
        best = search.run(r.generations, r.candidates, B.knob_text)
        fresh = FRESH + deals(r.verify, k)
        before = rate(*self.printed(n, FRESH, fresh))
        after = rate(*self.play(sp)(best, FRESH, fresh))
        level = sp.level(best, r.house(n), self.comp.family_level(r.level))
        out = {"n": n, "level": level.name, "setting": dict(zip(B.KNOBS, best)), "knobs": level.knobs(),
               "steps": sp.steps(best), "changes": B.in_words(sp, best), "before": before, "after": after,
               "space": sp.size,
               "lineups": [",".join(s) for s in self.lineups[n]]}  # fmt: skip
        out.update(versus(after, target))
        rates = [w / g for w, g, _ in search.played.values()]
        # on the search's deals, the settings tried won from ... to ...: whether any came to either side of the target
        out["tried"] = {"settings": len(rates), "lowest": min(rates), "highest": max(rates),
                        "both_sides": min(rates) <= target["rate"] <= max(rates)}  # fmt: skip
        note(f"{n} samurai: verified on {after['games']:,} fresh games: {100 * after['rate']:.1f}% "
             f"[{100 * after['ci95'][0]:.1f}%, {100 * after['ci95'][1]:.1f}%], printed {r.level} "
             f"{100 * before['rate']:.1f}%: {out['changes']}")  # fmt: skip
        return out


def rate(wins: int, games: int) -> dict:
    from kiai.simcore.stats import proportion_ci

    lo, hi, method = proportion_ci(wins, games)
    return {"wins": int(wins), "games": int(games), "rate": wins / games, "ci95": [lo, hi], "ci_method": method}


def versus(after: dict, target: dict) -> dict:
    """How far the verified rate is from the target: the difference with its 95% interval
    (Newcombe's, the target measured; else the verified rate's own interval less the target), and
    whether the interval holds 0: the target reached."""
    if target.get("size") is None:
        lo, hi = (x - target["rate"] for x in after["ci95"])
        diff = after["rate"] - target["rate"]
    else:
        from kiai.reports.page.advice import difference

        diff, lo, hi = difference(after["wins"], after["games"], target["wins"], target["games"])
    return {"vs_target": diff, "vs_target_ci95": [lo, hi], "reached": bool(lo <= 0 <= hi)}


def run(request: Request, comp, *, state: State, note: Callable[[str], None],
        on_games: Callable[[int], None] | None = None) -> dict:
    """The whole run: the target, then each team size; the figures as balance.json holds them."""
    from kiai.simcore.seatings import sample_lineups

    sizes = sorted(set(request.sizes) | ({request.target_size} if request.target_size else set()))
    lineups = {n: sample_lineups(n, request.lineups, request.seed) for n in sizes}
    runner = Runner(request, comp, lineups, state, on_games)
    target = runner.target()
    if target["size"] is not None:
        note(f"target: {request.level} with {target['size']} samurai wins {100 * target['rate']:.1f}% "
             f"[{100 * target['ci95'][0]:.1f}%, {100 * target['ci95'][1]:.1f}%] on {target['games']:,} games")
    results = [runner.size(n, target, note) for n in sorted(request.sizes)]
    return {"request": asdict(request), "target": target, "sizes": results,
            "components_sha256": comp.sha256, "components": comp.path}
