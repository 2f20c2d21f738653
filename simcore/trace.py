"""Turn a game's event log (simcore.events EV_* rows) into plain words."""

from __future__ import annotations

from simcore import events as L
from simcore.codes import FAMILY_BONUSES, FARMSTEAD_BACKS, OUTCOMES, PENALTIES, SYMBOLS, WOUND_STATES
from simcore.components import Components

_ROUND_END = ("the raider stack is empty", "every samurai has passed", "", "the round stalled (R-9b)")
_KIAI = ("declines", "activates Kiai (no effect)", "activates Kiai with its effect")


class Describer:
    def __init__(self, samurai: tuple[str, ...], comp: Components):
        self.samurai = samurai
        self.comp = comp

    def who(self, s: int) -> str:
        return self.samurai[s].capitalize() if 0 <= s < len(self.samurai) else f"seat {s}"

    def card(self, c: int) -> str:
        if c < 0:
            return "-"
        comp = self.comp
        sym = SYMBOLS[comp.card_symbol[c]]
        pens = [PENALTIES[p] for p in comp.card_pen[c] if p]
        bits = [f"{comp.card_value[c]}"]
        if sym != "none":
            bits.append(sym)
        if pens:
            bits.append("/".join(pens))
        if comp.card_flame[c]:
            bits.append("flame")
        return f"[{' '.join(bits)} #{c}]"

    def event(self, row) -> str:  # noqa: C901 - one branch per event kind
        code, _rnd, a, b, c, d = (int(x) for x in row[:6])
        w, k = self.who, self.card
        if code == L.EV_SETUP:
            return f"Setup: {a} samurai, {b} barricades, raider stack of {c} plunderers."
        if code == L.EV_ROUND_START:
            return f"Round starts: {w(a)} plays first; the raider stack holds {b} cards."
        if code == L.EV_TURN:
            return f"-- {w(a)}'s turn"
        if code == L.EV_ABSENT:
            names = [n for i, n in enumerate(("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo")) if b >> i & 1]
            return f"   {w(a)} uses the absent support tokens of {', '.join(names)}."
        if code == L.EV_PENALTY:
            return f"   Battle penalty of {k(b)}: {PENALTIES[c]}."
        if code == L.EV_PEN_IGNORED:
            return f"   {w(a)} ignores the {PENALTIES[c]} penalty of {k(b)} (R-4)."
        if code == L.EV_PEN_UNABLE:
            return f"   The {PENALTIES[b]} penalty cannot be applied: {w(a)} takes a wound instead (R-5)."
        if code == L.EV_PASS:
            why = ("", " (forced: above his Kiai)", " (forced: must pass)", " (the raider stack is empty, V-3)")[b]
            return f"   {w(a)} passes{why}."
        if code == L.EV_FIGHT:
            return f"   {w(a)} fights."
        if code == L.EV_FIGHT_AGAIN:
            return f"   {w(a)} fights again (Kikuchiyo's talent)."
        if code == L.EV_SUPPORT:
            return f"   {w(a)} supports {w(b)}; the top raider card {k(c)} goes unseen to the intruder stack."
        if code == L.EV_REVEAL:
            return f"   {w(a)} reveals {k(b)}."
        if code == L.EV_REDRAW:
            return f"   {w(a)} puts {k(b)} under the raider stack (Katsushiro's talent)."
        if code == L.EV_KYUZO_DISCARD:
            return f"   {w(a)} discards {k(b)}, matching a value in his line (Kyuzo's talent)."
        if code == L.EV_GIVE:
            return f"   {w(a)} gives {k(c)} to {w(b)}."
        if code == L.EV_CONFRONT:
            return f"   {w(a)} confronts {k(b)}: total {c} against Kiai {d}."
        if code == L.EV_DEFEND:
            return f"   {w(a)} defends with {k(b)}."
        if code == L.EV_OVERCOME:
            return f"   {w(a)} is overcome ({b} > {c})."
        if code == L.EV_BARR_LOST:
            return f"   A barricade falls ({a} left)."
        if code == L.EV_BARR_ADDED:
            return f"   A barricade is added ({a} now)."
        if code == L.EV_FARM_LOST:
            back = f"; its back: {FARMSTEAD_BACKS[a]}" if a >= 0 else ""
            return f"   A farmstead is destroyed ({b} left{back})."
        if code == L.EV_FAMILY_LOST:
            return f"   A family is lost: {FAMILY_BONUSES[self.comp.family_bonuses[a]]} ({b} left)."
        if code == L.EV_WOUND:
            return f"   {w(a)} is wounded: now {WOUND_STATES[b]}."
        if code == L.EV_HEAL:
            return f"   {w(a)} loses his wound token: now {WOUND_STATES[b]}."
        if code == L.EV_KIAI:
            return f"   {w(a)} {_KIAI[b]}."
        if code == L.EV_TRIGGER_SKIPPED:
            return f"   {w(a)} reaches his Kiai but does not activate it."
        if code == L.EV_KIAI_SHED:
            return f"   {w(a)} sheds his first card {k(b)}: total {c}."
        if code == L.EV_DAISUKE:
            return f"   Daisuke's Kiai takes {k(c)} from {w(a)} and gives it to {w(b)}."
        if code == L.EV_KIKU:
            return f"   Kikuchiyo's Kiai discards {k(b)} from {w(a)}'s line."
        if code == L.EV_KYUZO_TOKEN:
            return f"   Kyuzo's Kiai: {w(a)} hands his support token to {w(b)}."
        if code == L.EV_TOP_TO_DISCARD:
            return f"   Gorobei's Kiai discards the top raider card {k(a)}."
        if code == L.EV_INTRUDER_TO_DISCARD:
            return f"   The top intruder card {k(a)} goes to the discard pile."
        if code == L.EV_KATSU:
            cards = ", ".join(k(x) for x in (b, c, d)[:a])
            return f"   Katsushiro's Kiai shows the top {a} raider cards, now in order: {cards}."
        if code == L.EV_PEN_DRAW:
            return f"   {w(a)} must draw and confront {k(b)} (penalty draw, no talent)."
        if code == L.EV_TO_INTRUDER:
            return f"   The top raider card {k(a)} goes unseen to the intruder stack."
        if code == L.EV_DISCARD_TO_RAIDER:
            return f"   {k(a)} is taken from the discard pile and shuffled into the raider stack."
        if code == L.EV_LOSE_DEFENCE:
            return f"   {w(a)} discards {k(b)} from his defence side."
        if code == L.EV_ROUND_END:
            return f"Round ends: {_ROUND_END[a]}. Last active: {w(b)}."
        if code == L.EV_EOR_STEP:
            return (
                "",
                "End of round, step 1: a wound for each samurai without a hat.",
                "Step 2: a farmstead for each samurai without a farm.",
                "Step 3: a family for each samurai without a doll, then family bonuses.",
                "Step 4: the intruder stack is revealed.",
            )[a]
        if code == L.EV_FLAME:
            return f"   Intruder {k(a)}" + (" shows flames." if b else ": no flames.")
        if code == L.EV_BONUS:
            tgt = f" (drawn: {w(c)})" if c >= 0 else ""
            return f"   Family bonus {FAMILY_BONUSES[b]}{tgt}."
        if code == L.EV_TOKEN_RETURN:
            return f"   {w(a)}'s support token returns from {w(b)}."
        if code == L.EV_STALL:
            return "   The round has run 1,000 turns: everyone still in passes (R-9b)."
        if code == L.EV_GAME_END:
            return f"Game over: {OUTCOMES[a]}."
        return f"   (event {code}: {a} {b} {c} {d})"


def describe(events, samurai: tuple[str, ...], comp: Components) -> list[str]:
    d = Describer(samurai, comp)
    lines = []
    current = 0
    for row in events:
        rnd = int(row[1])
        if rnd != current:
            lines.append(f"\n=== Round {rnd} ===")
            current = rnd
        lines.append(d.event(row))
    return lines
