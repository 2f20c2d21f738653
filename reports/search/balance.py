"""A level that evens out the team sizes (`kiai balance`): for each team size, the setting of the
level's knobs that brings a player's win rate closest to a target. The whole search is here: the
settings (Space), the cross-entropy method and the race (Search), and each team size played and
verified (Runner, run), here or on a cluster's Pool (reports.playing.pool); reports.search.balance_run
runs it and keeps its state, reports.search.balance_page writes what it found, and
reports.search.balance_words says a setting in plain words.

The knobs are what a level's table in the component file sets (simcore.components.Level):
extra barricades, plunderers per samurai, the lieutenants and bosses added (their offset, so one
step is one card), farmstead penalties and family bonuses. A Space holds the values each may take
for one team size, all that the deck and the barricade tokens allow; a setting is one value per
knob (KNOBS order).

The search (Search) is the cross-entropy method over those values, one categorical distribution
per knob, every candidate playing the same deals (game indices 0..deals-1 of each line-up); from
the best setting it then steps to a better neighbour (a knob one value up or down) while there is
one, and the best few settings are raced on doubling deals, keeping the better half each round. A
setting's score is its distance to the target plus STEP_SHARE of the target per step away from
the printed level, so that of two settings about as close the simpler one wins. How a setting is played is
the caller's (`play`, and `play_many` for the settings of one step at once: a generation, a round of
the race, a setting's neighbours, which a cluster plays together), which keeps the search testable on
a constructed case without games.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from kiai.reports.search.balance_words import in_words, knob_text

KNOBS = ("extra_barricades", "plunderers_per_samurai", "lieutenants", "bosses", "farmstead_penalties", "family_bonuses")
# the cost of a step away from the printed level, as a share of the target: at a 10% target, a setting of
# three steps must come 1 point closer than one of one step; ties go to the simpler setting
STEP_SHARE = 0.05
FLOOR = 0.02  # no value of a knob falls below this probability, so one generation cannot end the search
SMOOTH = 0.7  # the weight of the elites' frequencies in each new distribution
ELITE = 0.25  # the share of a generation that refits the distributions
RACE = 8  # settings raced after the search; each round plays them on as many games again and keeps half
POLISH = 5  # steps from the best setting to a better neighbour after the cross-entropy method, at most

Setting = tuple  # one value per knob, in KNOBS order
# (setting, first, last) -> (wins, games): the setting played on game indices first..last-1 (of each line-up)
Play = Callable[[Setting, int, int], tuple[int, int]]
# [(setting, first, last), ...] -> [(wins, games), ...]: several Play calls at once (on a cluster, together)
PlayMany = Callable[[list], list]


@dataclass(frozen=True)
class Space:
    """The settings a search may try for `n` samurai at level `base`: each knob's values (counts
    for barricades, plunderers per samurai, lieutenants and bosses; booleans for the switches)."""

    n: int
    base: object  # simcore.components.Level
    values: tuple  # per knob, a tuple of its values

    @property
    def printed(self) -> Setting:
        b, n = self.base, self.n
        return (b.extra_barricades, b.plunderers_per_samurai, b.lieutenants(n), b.bosses(n), b.farmstead_penalties,
                b.family_bonuses)

    @property
    def size(self) -> int:
        return math.prod(len(v) for v in self.values)

    def steps(self, s: Setting) -> int:
        """How far s is from the printed level: a barricade, a plunderer per samurai, a lieutenant or
        boss, a switch: one step each."""
        return sum(abs(int(a) - int(b)) for a, b in zip(s, self.printed))

    def level(self, s: Setting, name: str, like: str | None = None):
        """The level (simcore.components.Level) of setting s, named `name`: lieutenants and bosses
        keep the printed level's per-samurai count and move its offset."""
        b = self.base
        return dataclasses.replace(
            b, name=name, like=like, extra_barricades=int(s[0]), plunderers_per_samurai=int(s[1]),
            lieutenants_offset=int(s[2]) - b.lieutenants_per_samurai * self.n,
            bosses_offset=int(s[3]) - b.bosses_per_samurai * self.n, farmstead_penalties=bool(s[4]),
            family_bonuses=bool(s[5]))  # fmt: skip


def space(comp, level: str, n: int) -> Space:
    """Every setting of `level`'s knobs for n samurai that the component data can set up:
    barricades within the tokens, cards within the deck, offsets within the component file's
    range (-7 to 7)."""
    from kiai.simcore import codes

    b = comp.level(level)
    deck = np.bincount(comp.card_rank, minlength=len(codes.RANKS))

    def counts(per: int, held: int) -> tuple:
        return tuple(c for c in range(0, held + 1) if -7 <= c - per * n <= 7)

    values = (tuple(range(max(-n, -7), min(comp.barricade_tokens - n, 10) + 1)),
              tuple(range(1, min(20, int(deck[codes.PLUNDERER]) // n) + 1)),
              counts(b.lieutenants_per_samurai, int(deck[codes.LIEUTENANT])),
              counts(b.bosses_per_samurai, int(deck[codes.BOSS])), (False, True), (False, True))  # fmt: skip
    return Space(n, b, values)


def score(wins: int, games: int, target: float, steps: int) -> float:
    """Distance of a win rate to the target, plus STEP_SHARE of the target per step away from the
    printed level."""
    return abs(wins / games - target) + STEP_SHARE * target * steps


class Search:
    """The cross-entropy method over a Space, then racing (run). Every setting plays the same
    deals: game indices 0..deals-1 (of each line-up the caller's `play` plays); `played` maps each
    setting tried to its (wins, games, deals). With `play_many`, the settings a step needs (a
    generation, a round of the race, a setting's neighbours) are played in one call, in the order
    `play` would have played them."""

    def __init__(self, sp: Space, play: Play, target: float, *, deals: int, rng: np.random.Generator,
                 note: Callable[[str], None] | None = None, play_many: PlayMany | None = None):
        self.sp, self.play, self.target, self.deals, self.rng = sp, play, target, deals, rng
        self.play_many = play_many
        self.note = note or (lambda line: None)
        self.played: dict[Setting, tuple[int, int, int]] = {}
        # at first a knob's value is drawn the likelier the nearer it is to the printed one (half as
        # likely a step further), so that the first generations look around the printed level
        self.probs = []
        for values, printed in zip(sp.values, sp.printed):
            w = np.array([0.5 ** abs(int(v) - int(printed)) for v in values]) + 0.1 / len(values)
            self.probs.append(w / w.sum())

    def scored(self, s: Setting, deals: int | None = None) -> float:
        w, g, _ = self.played[s] if deals is None else self.result(s, deals)
        return score(w, g, self.target, self.sp.steps(s))

    def result(self, s: Setting, deals: int) -> tuple[int, int, int]:
        """s played on game indices 0..deals-1 (those beyond what it played so far, played now)."""
        w, g, d = self.played.get(s, (0, 0, 0))
        if d < deals:
            more, k = self.play(s, d, deals)
            w, g, d = w + more, g + k, deals
            self.played[s] = (w, g, d)
        return w, g, d

    def ensure(self, settings: list[Setting], deals: int) -> None:
        """Each of settings played on indices 0..deals-1: those short of it, in one play_many call."""
        short = [s for s in dict.fromkeys(settings) if self.played.get(s, (0, 0, 0))[2] < deals]
        if self.play_many is None:
            for s in short:
                self.result(s, deals)
            return
        for s, (w, g) in zip(short, self.play_many([(s, self.played.get(s, (0, 0, 0))[2], deals) for s in short])):
            w0, g0, _ = self.played.get(s, (0, 0, 0))
            self.played[s] = (w0 + w, g0 + g, deals)

    def draw(self, k: int, first: Setting | None = None) -> list[Setting]:
        """k distinct settings drawn from the distributions (`first` among them)."""
        out = [first] if first is not None else []
        for _ in range(50 * k):
            if len(out) >= min(k, self.sp.size):
                break
            s = tuple(v[self.rng.choice(len(v), p=p)] for v, p in zip(self.sp.values, self.probs))
            if s not in out:
                out.append(s)
        return out

    def refit(self, elites: list[Setting]) -> None:
        for i, values in enumerate(self.sp.values):
            freq = np.array([sum(s[i] == v for s in elites) for v in values], float) / len(elites)
            p = SMOOTH * freq + (1 - SMOOTH) * self.probs[i]
            p = np.maximum(p, FLOOR)
            self.probs[i] = p / p.sum()

    def generation(self, g: int, k: int) -> list[Setting]:
        """One generation: k settings drawn (the printed one first, in the first), each played on
        the search's deals, and the distributions refitted to the best ELITE of them."""
        drawn = self.draw(k, self.sp.printed if g == 0 else None)
        self.ensure(drawn, self.deals)
        ranked = sorted(drawn, key=self.scored)
        self.refit(ranked[: max(2, math.ceil(ELITE * len(ranked)))])
        return ranked

    def race(self, pool: list[Setting], rounds: int) -> list[Setting]:
        """Successive halving: each round the pool plays as many games again (the same deals for
        all: the next indices), and the better half by score stays. Returns the survivors, best
        first."""
        deals = self.deals
        for _ in range(rounds):
            if len(pool) < 2:
                break
            deals *= 2
            self.note(f"{self.sp.n} samurai: racing {len(pool)} settings on {deals:,} deals of each line-up")
            self.ensure(pool, deals)
            pool = sorted(pool, key=lambda s: self.scored(s, deals))[: max(1, len(pool) // 2)]
        return pool

    def neighbours(self, s: Setting) -> list[Setting]:
        """The settings one step from s: a knob's next value up or down."""
        out = []
        for i, values in enumerate(self.sp.values):
            j = values.index(s[i])
            out += [s[:i] + (values[k],) + s[i + 1:] for k in (j - 1, j + 1) if 0 <= k < len(values)]
        return out

    def polish(self, moves: int = POLISH) -> Setting:
        """From the best setting so far, step to the best of its neighbours while that scores
        better, at most `moves` times; returns where it stops. Each comparison plays twice the
        search's deals, so that a setting that was lucky on them does not hold the search."""
        deals = 2 * self.deals
        best = min(self.played, key=self.scored)
        for _ in range(moves):
            self.ensure([*self.neighbours(best), best], deals)
            step = min(self.neighbours(best), key=lambda s: self.scored(s, deals))
            if self.scored(step, deals) >= self.scored(best, deals):
                break
            best = step
        return best

    def run(self, generations: int, candidates: int, describe: Callable[[Setting], str] = str) -> Setting:
        """The search: `generations` of `candidates` settings, the best polished one step at a
        time, then RACE of the best of them raced until one is left; returns it."""
        for g in range(generations):
            ranked = self.generation(g, candidates)
            w, n, _ = self.played[ranked[0]]
            self.note(f"{self.sp.n} samurai: generation {g + 1}/{generations}: {len(self.played)} of "
                      f"{self.sp.size:,} settings played; best {100 * w / n:.1f}% "
                      f"(target {100 * self.target:.1f}%): {describe(ranked[0])}")  # fmt: skip
        best = self.polish()
        w, n, _ = self.played[best]
        self.note(f"{self.sp.n} samurai: its neighbours tried, {len(self.played)} settings played; best "
                  f"{100 * w / n:.1f}%: {describe(best)}")  # fmt: skip
        pool = sorted(self.played, key=self.scored)[:RACE]
        return self.race(pool, max(0, math.ceil(math.log2(len(pool)))))[0]


# ----------------------------------------------------------------------------------- the run

# Each team size plays a few line-ups (drawn with the seed, each seated in its own order); a
# setting's win rate pools them. The search plays game indices 0, 1, ... of the seed on every line-up;
# the verification plays FRESH onwards, which the search never plays, the printed level and the
# winner on the same deals, and the target (a team size's printed level) too.

FRESH = 10**9  # the verification's first game index: the search never plays so far


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


def tally(config, seed: int, first: int, count: int) -> tuple[int, int]:
    """A task of a cluster's Pool: the wins and games of config on indices first..first+count-1."""
    from kiai.reports.playing.play import play_range

    t = play_range(config, seed, first, count)
    return t.wins, t.games


class Runner:
    """Plays a request's games: `comp` the component data, `lineups[n]` the seatings of each team
    size, `state` what was played before (reports.search.balance_run.State), `on_games` told of every
    block of games played, `pool` where they play (reports.playing.pool; None, or a Pool of no workers: here)."""

    def __init__(self, request: Request, comp, lineups: dict, state,
                 on_games: Callable[[int], None] | None = None, pool=None):
        self.r, self.comp, self.lineups, self.state, self.on_games = request, comp, lineups, state, on_games
        self.pool = pool if pool is not None and pool.workers else None
        self.variants: dict = {}

    def variant(self, sp: Space, s: Setting):
        """The component data with setting s as the house level of sp's team size."""
        key = (sp.n, s)
        if key not in self.variants:
            from kiai.simcore.components import with_levels

            level = sp.level(s, self.r.house(sp.n), self.comp.family_level(self.r.level))
            self.variants[key] = with_levels(self.comp, [level])[0]
        return self.variants[key]

    def tables(self, n: int, level: str, comp) -> list:
        from kiai.strategies.run.config import GameConfig

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

    def many(self, items: list) -> list[tuple[int, int]]:
        """games(*item) for each (what, configs, first, last) of items: here one after the other; on
        a cluster every configuration of them a task, all at once, each result kept in the state as
        soon as its configurations are all in (a run cut short keeps what finished)."""
        if self.pool is None:
            return [self.games(*item) for item in items]
        todo = {what: (configs, first, last) for what, configs, first, last in items if self.state.get(what) is None}
        calls, owner, sums = [], [], {what: [0, 0, len(c)] for what, (c, _, _) in todo.items()}
        for what, (configs, first, last) in todo.items():
            calls += [(c, self.r.seed, first, last - first) for c in configs]
            owner += [what] * len(configs)

        def done(i: int, result) -> None:
            part = sums[owner[i]]
            part[0], part[1], part[2] = part[0] + result[0], part[1] + result[1], part[2] - 1
            if self.on_games is not None:
                self.on_games(result[1])
            if part[2] == 0:
                self.state.put(owner[i], part[:2])

        if calls:
            self.pool.map(tally, calls, on_done=done)
        return [self.games(*item) for item in items]  # all in the state now

    def setting(self, sp: Space, s: Setting, first: int, last: int) -> tuple:
        """games()'s arguments for setting s of team size sp.n on indices first..last-1."""
        what = f"{sp.n}|{json.dumps(list(s))}|{first}|{last}"
        return what, self.tables(sp.n, self.r.house(sp.n), self.variant(sp, s)), first, last

    def play(self, sp: Space) -> Play:
        """The search's Play for team size sp.n: a setting on game indices first..last-1 of every line-up."""
        return lambda s, first, last: self.games(*self.setting(sp, s, first, last))

    def play_many(self, sp: Space) -> PlayMany | None:
        """The search's PlayMany on a cluster (None here, where the search plays one setting at a time)."""
        if self.pool is None:
            return None
        return lambda plays: self.many([self.setting(sp, s, first, last) for s, first, last in plays])

    def printed(self, n: int, first: int, last: int) -> tuple:
        """games()'s arguments for the printed level for n samurai on indices first..last-1."""
        return f"{n}|printed|{first}|{last}", self.tables(n, self.r.level, self.comp), first, last

    def target(self) -> dict:
        """The target: a win rate, or the printed level's at the target team size on fresh deals."""
        r = self.r
        if r.target_rate is not None:
            return {"rate": r.target_rate, "size": None}
        fresh = FRESH + deals(r.verify, len(self.lineups[r.target_size]))
        wins, games = self.games(*self.printed(r.target_size, FRESH, fresh))
        return {"size": r.target_size, **rate(wins, games)}

    def size(self, n: int, target: dict, note: Callable[[str], None]) -> dict:
        """Team size n: the search, then the printed level and the winner on fresh deals."""
        r = self.r
        sp = space(self.comp, r.level, n)
        k = len(self.lineups[n])
        search = Search(sp, self.play(sp), target["rate"], deals=deals(r.games, k),
                        rng=np.random.default_rng([r.seed, n]), note=note, play_many=self.play_many(sp))  # fmt: skip
        best = search.run(r.generations, r.candidates, knob_text)
        fresh = FRESH + deals(r.verify, k)
        verified = self.many([self.printed(n, FRESH, fresh), self.setting(sp, best, FRESH, fresh)])  # played together
        before, after = (rate(*x) for x in verified)
        level = sp.level(best, r.house(n), self.comp.family_level(r.level))
        out = {"n": n, "level": level.name, "setting": dict(zip(KNOBS, best)), "knobs": level.knobs(),
               "steps": sp.steps(best), "changes": in_words(sp, best), "before": before, "after": after,
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
        from kiai.reports.findings.advice import difference

        diff, lo, hi = difference(after["wins"], after["games"], target["wins"], target["games"])
    return {"vs_target": diff, "vs_target_ci95": [lo, hi], "reached": bool(lo <= 0 <= hi)}


def run(request: Request, comp, *, state, note: Callable[[str], None],
        on_games: Callable[[int], None] | None = None, pool=None) -> dict:
    """The whole run: the target, then each team size; the figures as balance.json holds them.
    `pool` (reports.playing.pool) plays the games, here or on a cluster, with the same figures."""
    from kiai.simcore.seatings import sample_lineups

    sizes = sorted(set(request.sizes) | ({request.target_size} if request.target_size else set()))
    lineups = {n: sample_lineups(n, request.lineups, request.seed) for n in sizes}
    runner = Runner(request, comp, lineups, state, on_games, pool)
    target = runner.target()
    if target["size"] is not None:
        note(f"target: {request.level} with {target['size']} samurai wins {100 * target['rate']:.1f}% "
             f"[{100 * target['ci95'][0]:.1f}%, {100 * target['ci95'][1]:.1f}%] on {target['games']:,} games")
    results = [runner.size(n, target, note) for n in sorted(request.sizes)]
    return {"request": asdict(request), "target": target, "sizes": results,
            "components_sha256": comp.sha256, "components": comp.path}
