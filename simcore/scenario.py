"""Hand-built positions for tests and for checking a rule by hand (R-16a).

A Position starts from a freshly set-up game (the kernel plays zero turns) and lets the caller
place cards anywhere; every card not placed is out of play, so all cards stay accounted for.
`play` then continues the game from that position with the kernel, optionally with forced
decisions and forced random outcomes, and returns the resulting GameRun.
"""

from __future__ import annotations

from simcore import layout as L
from simcore.api import GameConfig, GameRun, run_one
from simcore.codes import CARD_CAP, SYMBOLS


class Position:
    def __init__(self, config: GameConfig, seed: int = 0):
        self.config = config
        base = run_one(config, seed, 0, trace=False, check=False, stop_after_turns=0)
        self.P = base.P.copy()
        self.H = base.H.copy()
        self._clear()

    # ---------------------------------------------------------------- internals
    def _clear(self):
        P = self.P
        nc = int(P[L.N_CARDS])
        for s in range(self.n):
            b = self._b(s)
            P[b + L.S_LINE_N] = 0
            P[b + L.S_TOTAL] = 0
            P[b + L.S_DEF : b + L.S_DEF + 3] = -1
        P[L.RAIDER_N] = P[L.INTRUDER_N] = P[L.DISCARD_N] = P[L.KNOWN_N] = 0
        P[L.UNSEEN : L.UNSEEN + nc] = 0
        P[L.OUTP : L.OUTP + nc] = 1

    def _b(self, s):
        return L.SEAT0 + s * L.SEAT_STRIDE

    def _take(self, c):
        if not 0 <= c < int(self.P[L.N_CARDS]):
            raise ValueError(f"no card #{c}")
        if self.P[L.OUTP + c] != 1:
            raise ValueError(f"card #{c} is placed twice")
        self.P[L.OUTP + c] = 0

    @property
    def n(self) -> int:
        return int(self.P[L.N])

    # ---------------------------------------------------------------- zones
    def raider(self, cards_top_first):
        """The raider stack, top card first."""
        cards = list(cards_top_first)
        for i, c in enumerate(reversed(cards)):
            self._take(c)
            self.H[L.RAIDER + i] = c
            self.P[L.UNSEEN + c] = 1
        self.P[L.RAIDER_N] = len(cards)
        return self

    def intruder(self, cards_top_first):
        cards = list(cards_top_first)
        for i, c in enumerate(reversed(cards)):
            self._take(c)
            self.H[L.INTRUDER + i] = c
            self.P[L.UNSEEN + c] = 1
        self.P[L.INTRUDER_N] = len(cards)
        return self

    def discard(self, cards_bottom_first):
        for c in cards_bottom_first:
            self._take(c)
            self.P[L.DISCARD + self.P[L.DISCARD_N]] = c
            self.P[L.DISCARD_N] += 1
        return self

    def line(self, seat, cards_oldest_first):
        b = self._b(seat)
        for c in cards_oldest_first:
            self._take(c)
            self.P[L.LINES + seat * CARD_CAP + self.P[b + L.S_LINE_N]] = c
            self.P[b + L.S_LINE_N] += 1
            self.P[b + L.S_TOTAL] += self.P[L.C_VALUE + c]
        return self

    def defence(self, seat, cards):
        b = self._b(seat)
        for c in cards:
            sym = int(self.P[L.C_SYM + c])
            if sym == 0:
                raise ValueError(f"card #{c} has no symbol and cannot defend")
            if self.P[b + L.S_DEF + sym - 1] >= 0:
                raise ValueError(f"seat {seat} already defends a {SYMBOLS[sym]}")
            self._take(c)
            self.P[b + L.S_DEF + sym - 1] = c
        return self

    # ---------------------------------------------------------------- boards and village
    def wound(self, seat, state):
        """0 human, 1 human+token, 2 animal, 3 animal+token."""
        b = self._b(seat)
        self.P[b + L.S_WOUND] = state
        sam = int(self.P[b + L.S_SAM])
        self.P[b + L.S_KIAI] = self.P[L.KIAI_TAB + 2 * sam + (1 if state >= 2 else 0)]
        return self

    def passed(self, *seats):
        for s in seats:
            self.P[self._b(s) + L.S_PASSED] = 1
        return self

    def token(self, owner, holder):
        self.P[self._b(owner) + L.S_HOLDER] = holder
        return self

    def village(self, barricades=None, farmsteads=None, families=None):
        P = self.P
        if barricades is not None:
            P[L.BARR] = barricades
        if farmsteads is not None:
            P[L.FARMS] = farmsteads
        if families is not None:
            P[L.FAMS] = families
            P[L.FAM_MASK] = (1 << families) - 1
        return self

    def farm_backs(self, backs_of_standing):
        """Backs (codes.FB_*) of the standing farmsteads, in token order."""
        for i, back in enumerate(backs_of_standing):
            self.H[L.FARM_ALIVE + i] = i
            self.H[L.FARM_BACK + i] = back
        return self

    def turn(self, seat, round_=1):
        """Whose turn comes next, and which round it is."""
        self.P[L.ACTING] = seat
        self.P[L.ROUND] = round_
        return self

    def known(self, k):
        """The top k raider cards are public (as after Katsushiro's Kiai)."""
        self.P[L.KNOWN_N] = k
        top = int(self.P[L.RAIDER_N]) - 1
        for i in range(k):
            self.P[L.KNOWN + i] = self.H[L.RAIDER + top - i]
        return self

    # ---------------------------------------------------------------- play
    def play(self, *, turns=None, round_end=False, decisions=(), randoms=(), seed=0,
             trace=True, scramble=False, config: GameConfig | None = None) -> GameRun:
        return run_one(
            config or self.config, seed, 0, trace=trace, check=True, scramble=scramble,
            forced_random=randoms, forced_decisions=decisions, state=(self.P, self.H),
            stop_after_turns=turns, stop_after_round_end=round_end,
        )  # fmt: skip


def seat_view(run: GameRun, seat: int) -> dict:
    """A seat's public state after a run, for assertions."""
    P = run.P
    b = L.SEAT0 + seat * L.SEAT_STRIDE
    n = int(P[b + L.S_LINE_N])
    return {
        "line": [int(x) for x in P[L.LINES + seat * CARD_CAP : L.LINES + seat * CARD_CAP + n]],
        "total": int(P[b + L.S_TOTAL]),
        "kiai": int(P[b + L.S_KIAI]),
        "wound": int(P[b + L.S_WOUND]),
        "passed": bool(P[b + L.S_PASSED]),
        "defence": [int(x) for x in P[b + L.S_DEF : b + L.S_DEF + 3]],
        "holder": int(P[b + L.S_HOLDER]),
    }


def village_view(run: GameRun) -> dict:
    P = run.P
    return {
        "barricades": int(P[L.BARR]),
        "farmsteads": int(P[L.FARMS]),
        "families": int(P[L.FAMS]),
        "raider_n": int(P[L.RAIDER_N]),
        "intruder_n": int(P[L.INTRUDER_N]),
        "discard": [int(x) for x in P[L.DISCARD : L.DISCARD + int(P[L.DISCARD_N])]],
        "round": int(P[L.ROUND]),
        "game_over": bool(P[L.GAME_OVER]),
        "outcome": int(P[L.OUTCOME]),
    }


def raider_top_first(run: GameRun) -> list[int]:
    n = int(run.P[L.RAIDER_N])
    return [int(run.H[L.RAIDER + i]) for i in range(n - 1, -1, -1)]


def intruder_top_first(run: GameRun) -> list[int]:
    n = int(run.P[L.INTRUDER_N])
    return [int(run.H[L.INTRUDER + i]) for i in range(n - 1, -1, -1)]


def find_card(comp, *, value=None, symbol=None, penalties=None, flames=None, rank=None, exclude=()):
    """The first card id matching every given property (symbol/penalty by name)."""
    from simcore.codes import PENALTIES, RANKS

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
