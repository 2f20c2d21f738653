"""Hand-built positions for tests and for checking a rule by hand (R-16a).

A Position starts from a freshly set-up game (the kernel plays zero turns) and lets the caller
place cards anywhere; every card not placed is out of play, so all cards stay accounted for.
`play` then continues the game from that position with the kernel, optionally with forced
decisions and forced random outcomes, and returns the resulting GameRun.

The positions are records of the engine's state (simcore.state); the run layer plays them.
"""

from __future__ import annotations

import numpy as np

from kiai.simcore.codes import SYMBOLS


class Position:
    def __init__(self, config, seed: int = 0):
        from kiai.strategies.run.games import run_one

        self.config = config
        base = run_one(config, seed, 0, trace=False, check=False, stop_after_turns=0)
        self.pub = np.array([base.pub]).view(np.recarray)
        self.hid = np.array([base.hid]).view(np.recarray)
        self._clear()

    # ---------------------------------------------------------------- internals
    @property
    def p(self):
        return self.pub[0]

    @property
    def h(self):
        return self.hid[0]

    def _clear(self):
        p = self.p
        nc = int(p.n_cards)
        for s in range(self.n):
            p.line_n[s] = 0
            p.total[s] = 0
            p.defence[s] = -1
        p.raider_n = p.intruder_n = p.discard_n = p.known_n = 0
        p.unseen[:nc] = 0
        p.out_of_play[:nc] = 1

    def _take(self, c):
        if not 0 <= c < int(self.p.n_cards):
            raise ValueError(f"no card #{c}")
        if self.p.out_of_play[c] != 1:
            raise ValueError(f"card #{c} is placed twice")
        self.p.out_of_play[c] = 0

    @property
    def n(self) -> int:
        return int(self.p.n)

    # ---------------------------------------------------------------- zones
    def raider(self, cards_top_first):
        """The raider stack, top card first."""
        cards = list(cards_top_first)
        for i, c in enumerate(reversed(cards)):
            self._take(c)
            self.h.raider[i] = c
            self.p.unseen[c] = 1
        self.p.raider_n = len(cards)
        return self

    def intruder(self, cards_top_first):
        cards = list(cards_top_first)
        for i, c in enumerate(reversed(cards)):
            self._take(c)
            self.h.intruder[i] = c
            self.p.unseen[c] = 1
        self.p.intruder_n = len(cards)
        return self

    def discard(self, cards_bottom_first):
        for c in cards_bottom_first:
            self._take(c)
            self.p.discard[self.p.discard_n] = c
            self.p.discard_n += 1
        return self

    def line(self, seat, cards_oldest_first):
        p = self.p
        for c in cards_oldest_first:
            self._take(c)
            p.line[seat, p.line_n[seat]] = c
            p.line_n[seat] += 1
            p.total[seat] += p.value[c]
        return self

    def defence(self, seat, cards):
        p = self.p
        for c in cards:
            sym = int(p.symbol[c])
            if sym == 0:
                raise ValueError(f"card #{c} has no symbol and cannot defend")
            if p.defence[seat, sym - 1] >= 0:
                raise ValueError(f"seat {seat} already defends a {SYMBOLS[sym]}")
            self._take(c)
            p.defence[seat, sym - 1] = c
        return self

    # ---------------------------------------------------------------- boards and village
    def wound(self, seat, state):
        """0 human, 1 human+token, 2 animal, 3 animal+token."""
        p = self.p
        p.wound[seat] = state
        p.kiai[seat] = p.kiai_value[p.samurai[seat], 1 if state >= 2 else 0]
        return self

    def passed(self, *seats):
        for s in seats:
            self.p.passed[s] = 1
        return self

    def token(self, owner, holder):
        self.p.holder[owner] = holder
        return self

    def village(self, barricades=None, farmsteads=None, families=None):
        p = self.p
        if barricades is not None:
            p.barricades = barricades
        if farmsteads is not None:
            p.farmsteads = farmsteads
            self._count_backs()
        if families is not None:
            p.families = families
            p.family_mask = (1 << families) - 1
        return self

    def farm_backs(self, backs_of_standing):
        """Backs (codes.FB_*) of the standing farmsteads, in token order."""
        for i, back in enumerate(backs_of_standing):
            self.h.farm_alive[i] = i
            self.h.farm_back[i] = back
        self._count_backs()
        return self

    def _count_backs(self):
        """The public multiset of the standing farmsteads' backs (R-12), from the tokens."""
        p, h = self.p, self.h
        p.backs_left[:] = 0
        for i in range(int(p.farmsteads)):
            p.backs_left[h.farm_back[h.farm_alive[i]]] += 1

    def turn(self, seat, round_=1):
        """Whose turn comes next, and which round it is."""
        self.p.acting = seat
        self.p.round_no = round_
        return self

    def known(self, k):
        """The top k raider cards are public (as after Katsushiro's Kiai)."""
        p = self.p
        p.known_n = k
        top = int(p.raider_n) - 1
        for i in range(k):
            p.known[i] = self.h.raider[top - i]
        return self

    # ---------------------------------------------------------------- play
    def play(self, *, turns=None, round_end=False, decisions=(), randoms=(), seed=0,
             trace=True, scramble=False, config=None):
        from kiai.strategies.run.games import run_one

        return run_one(
            config or self.config, seed, 0, trace=trace, check=True, scramble=scramble,
            forced_random=randoms, forced_decisions=decisions, state_=(self.pub, self.hid),
            stop_after_turns=turns, stop_after_round_end=round_end,
        )  # fmt: skip


def seat_view(run, seat: int) -> dict:
    """A seat's public state after a run, for assertions."""
    p = run.pub
    n = int(p.line_n[seat])
    return {
        "line": [int(x) for x in p.line[seat, :n]],
        "total": int(p.total[seat]),
        "kiai": int(p.kiai[seat]),
        "wound": int(p.wound[seat]),
        "passed": bool(p.passed[seat]),
        "defence": [int(x) for x in p.defence[seat]],
        "holder": int(p.holder[seat]),
    }


def village_view(run) -> dict:
    p = run.pub
    return {
        "barricades": int(p.barricades),
        "farmsteads": int(p.farmsteads),
        "families": int(p.families),
        "raider_n": int(p.raider_n),
        "intruder_n": int(p.intruder_n),
        "discard": [int(x) for x in p.discard[: int(p.discard_n)]],
        "round": int(p.round_no),
        "game_over": bool(p.game_over),
        "outcome": int(p.outcome),
    }


def raider_top_first(run) -> list[int]:
    n = int(run.pub.raider_n)
    return [int(run.hid.raider[i]) for i in range(n - 1, -1, -1)]


def intruder_top_first(run) -> list[int]:
    n = int(run.pub.intruder_n)
    return [int(run.hid.intruder[i]) for i in range(n - 1, -1, -1)]


def find_card(comp, *, value=None, symbol=None, penalties=None, flames=None, rank=None, exclude=()):
    """The first card id matching every given property (symbol/penalty by name)."""
    from kiai.simcore.codes import PENALTIES, RANKS

    for c in range(comp.n_cards()):
        if c in exclude:
            continue
        if value is not None and comp.card_value[c] != value:
            continue
        if symbol is not None and SYMBOLS[comp.card_symbol[c]] != symbol:
            continue
        if penalties is not None:
            names = [PENALTIES[p] for p in comp.card_pen[c] if p]
            if names != list(penalties):
                continue
        if flames is not None and bool(comp.card_flame[c]) != flames:
            continue
        if rank is not None and RANKS[comp.card_rank[c]] != rank:
            continue
        return c
    raise LookupError("no such card")


__all__ = ["Position", "seat_view", "village_view", "raider_top_first", "intruder_top_first", "find_card"]
