"""Turn a game's event log (simcore.events EV_* rows) into plain words, for `kiai trace`.

This is the text for people; `kiai record` writes the same game as JSON for programs. The
component files and the engine name penalties, farmstead backs, family bonuses and wound states by
code names (simcore.codes); WORDS holds the plain words for each, defined once. The village line
printed after every turn is rebuilt from the events alone (setup numbers, then every barricade,
farmstead, family, wound and heal event), so the engine and its event log stay as they are.
"""

from __future__ import annotations

import textwrap

from kiai.simcore import events as L
from kiai.simcore.codes import FAMILY_BONUSES, FARMSTEAD_BACKS, OUTCOMES, PENALTIES, SYMBOLS, WOUND_STATES
from kiai.simcore.components import Components

# code name -> (short words: inside a card's brackets and on the village line,
#               long words: in the sentences of the trace)
WORDS: dict[str, tuple[str, str]] = {
    # battle penalties (codes.PENALTIES)
    "none": ("none", "no penalty"),
    "barricade": ("barricade", "a barricade falls"),
    "wound": ("wound", "the samurai is wounded"),
    "intruder": ("intruder", "the top raider card goes face down onto the intruder stack"),
    "no_defend": ("no defending", "no defending this turn"),
    "no_support": ("no support", "no supporting this turn"),
    "left_draws": ("left draws", "the left neighbour draws and confronts a card"),
    "right_draws": ("right draws", "the right neighbour draws and confronts a card"),
    "must_pass": ("must pass", "the samurai must pass this turn"),
    "discard_to_raider": ("discard back", "a random discarded card is shuffled back into the raider stack"),
    "no_talent": ("no talent", "no talent this turn"),
    "lose_defence": ("lose defence", "the samurai discards a card from his defence side"),
    # farmstead backs (codes.FARMSTEAD_BACKS), read at Hard and Heroic
    "lose_family": ("lose family", "a family is lost"),
    "lose_farmstead": ("lose farmstead", "another farmstead is destroyed"),
    "lose_barricade": ("lose barricade", "a barricade falls"),
    "random_wound": ("random wound", "a samurai drawn at random is wounded"),
    # family bonuses (codes.FAMILY_BONUSES), at the end of a round
    "heal_random": ("heal", "a samurai drawn at random heals a wound token"),
    "add_barricade": ("add barricade", "a barricade is added"),
    "intruder_to_discard": ("discard intruder", "the top intruder card is discarded"),
    # wound states (codes.WOUND_STATES)
    "human": ("ok", "human side, no wound token"),
    "human+token": ("wounded", "human side, with a wound token"),
    "animal": ("animal", "animal side, no wound token"),
    "animal+token": ("wounded animal", "animal side, with a wound token"),
    "dead": ("dead", "dead"),
    # outcomes (codes.OUTCOMES)
    "win": ("win", "the samurai win"),
    "death": ("death", "a samurai has died"),
    "farmsteads": ("farmsteads", "every farmstead is destroyed"),
    "families": ("families", "every family is lost"),
}


def outcome_words(outcome: int) -> str:
    """A game's outcome (codes.OUTCOMES) in words."""
    return _long(OUTCOMES[outcome])


def _short(name: str) -> str:
    return WORDS[name][0]


def _long(name: str) -> str:
    return WORDS[name][1]


def _legend() -> list[str]:
    pens = "; ".join(f"{_short(p)} = {_long(p)}" for p in PENALTIES[1:])
    ok, hurt, animal, hurt_animal, dead = (_short(s) for s in WOUND_STATES)
    text = [
        "Legend. A card is [value symbol, penalties, flame, #id]: its value (1 to 6); its defence "
        "symbol, hat, farm or doll (left out if it has none); the battle penalties it inflicts as "
        "the last card of a combat line; \"flame\" if it destroys a barricade when revealed among "
        "the intruders at the end of the round; #id, the card's number (as in `kiai record`).",
        f"Penalties: {pens}.",
        "The village line, after every turn and after the end-of-round steps: the barricades, "
        f"farmsteads and families left; each samurai {ok}, {hurt} ({_long('human+token')}), "
        f"{animal}, {hurt_animal} ({_long('animal+token')}) or {dead}.",
    ]
    return [line for para in text for line in textwrap.wrap(para, 100, subsequent_indent="  ")]


LEGEND = _legend()

_ROUND_END = ("the raider stack is empty", "every samurai has passed", "", "the round stalled (R-9b)")
_KIAI = ("declines", "activates Kiai (no effect)", "activates Kiai with its effect")
_WOUNDED = (
    "",
    "is wounded (human side, with a wound token)",
    "is wounded and turns animal",
    "is wounded (animal side, with a wound token)",
    "is wounded a fourth time and dies",
)


def _count(n, one: str, many: str) -> str:
    return f"? {many}" if n is None else f"{n} {one if n == 1 else many}"


class Village:
    """The village and the samurai's wounds as the events leave them: the setup event gives the
    barricades (farmsteads, families and unhurt samurai come from the components); every later
    event that changes one carries its new value. Unknown values (a log that starts from a
    prepared position, without a setup event) show as '?'."""

    def __init__(self, n_seats: int, comp: Components):
        self.comp = comp
        self.barricades = self.farmsteads = self.families = None
        self.wound: list[int | None] = [None] * n_seats

    def update(self, code: int, a: int, b: int) -> None:
        if code == L.EV_SETUP:
            self.barricades = b
            self.farmsteads = len(self.comp.farm_backs)
            self.families = len(self.comp.family_bonuses)
            self.wound = [0] * len(self.wound)
        elif code in (L.EV_BARR_LOST, L.EV_BARR_ADDED):
            self.barricades = a
        elif code == L.EV_FARM_LOST:
            self.farmsteads = b
        elif code == L.EV_FAMILY_LOST:
            self.families = b
        elif code in (L.EV_WOUND, L.EV_HEAL) and 0 <= a < len(self.wound):
            self.wound[a] = b

    def line(self, who) -> str:
        village = ", ".join((_count(self.barricades, "barricade", "barricades"),
                             _count(self.farmsteads, "farmstead", "farmsteads"),
                             _count(self.families, "family", "families")))
        seats = ", ".join(f"{who(s)} {'?' if st is None else _short(WOUND_STATES[st])}"
                          for s, st in enumerate(self.wound))
        return f"  village: {village} | {seats}"


class Describer:
    def __init__(self, samurai: tuple[str, ...], comp: Components):
        self.samurai = samurai
        self.comp = comp

    def who(self, s: int) -> str:
        return self.samurai[s].capitalize() if 0 <= s < len(self.samurai) else f"seat {s}"

    def card(self, c: int) -> str:
        """[value symbol, penalties..., flame, #id], in short words (LEGEND explains them)."""
        if c < 0:
            return "-"
        comp = self.comp
        sym = SYMBOLS[comp.card_symbol[c]]
        bits = [f"{comp.card_value[c]}" + (f" {sym}" if sym != "none" else "")]
        bits += [_short(PENALTIES[p]) for p in comp.card_pen[c] if p]
        if comp.card_flame[c]:
            bits.append("flame")
        return f"[{', '.join(bits)}, #{c}]"

    # long: one branch per event kind, in simcore.events' order
    def event(self, row) -> str:  # noqa: C901 - one branch per event kind
        """One event as a line of text. One branch per event kind, in the order simcore.events
        lists them (some hundred lines): a list that reads as the table of events it mirrors."""
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
            return f"   Battle penalty of {k(b)}: {_long(PENALTIES[c])}."
        if code == L.EV_PEN_IGNORED:
            return f"   {w(a)} ignores the \"{_short(PENALTIES[c])}\" penalty of {k(b)} (R-4)."
        if code == L.EV_PEN_UNABLE:
            pen = _short(PENALTIES[b])
            return f"   The \"{pen}\" penalty cannot be carried out: {w(a)} takes a wound instead (R-5)."
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
            back = f"; its back: {_long(FARMSTEAD_BACKS[a])}" if a >= 0 else ""
            return f"   A farmstead is destroyed ({b} left){back}."
        if code == L.EV_FAMILY_LOST:
            bonus = _short(FAMILY_BONUSES[self.comp.family_bonuses[a]])
            return f"   A family is lost ({b} left), and with it its bonus \"{bonus}\"."
        if code == L.EV_WOUND:
            return f"   {w(a)} {_WOUNDED[b] if 0 < b < len(_WOUNDED) else 'is wounded'}."
        if code == L.EV_HEAL:
            return f"   {w(a)} heals his wound token ({_long(WOUND_STATES[b])})."
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
            return f"   Intruder {k(a)}" + (" shows flames: a barricade burns." if b else ": no flames.")
        if code == L.EV_BONUS:
            tgt = f" (drawn: {w(c)})" if c >= 0 else ""
            return f"   Family bonus: {_long(FAMILY_BONUSES[b])}{tgt}."
        if code == L.EV_TOKEN_RETURN:
            return f"   {w(a)}'s support token returns from {w(b)}."
        if code == L.EV_STALL:
            return "   The round has run 1,000 turns: everyone still in passes (R-9b)."
        if code == L.EV_GAME_END:
            return f"Game over: {_long(OUTCOMES[a])}."
        return f"   (event {code}: {a} {b} {c} {d})"


# events that close a turn (or the end-of-round steps): the village line goes before them
_CLOSERS = (L.EV_TURN, L.EV_ROUND_END, L.EV_GAME_END)


def describe(events, samurai: tuple[str, ...], comp: Components) -> list[str]:
    """The log in words: one line an event, a round header at each new round, and a village line
    after every turn and after each round's end-of-round steps (LEGEND explains the notation)."""
    d = Describer(samurai, comp)
    village = Village(len(samurai), comp)
    lines = []
    current = 0
    open_ = False  # a turn, or end-of-round steps, awaiting its village line
    for row in events:
        code, rnd = int(row[0]), int(row[1])
        if open_ and (rnd != current or code in _CLOSERS):
            lines.append(village.line(d.who))
            open_ = False
        if rnd != current:
            lines.append(f"\n=== Round {rnd} ===")
            current = rnd
        village.update(code, int(row[2]), int(row[3]))
        lines.append(d.event(row))
        if code in (L.EV_TURN, L.EV_EOR_STEP):
            open_ = True
    if open_:
        lines.append(village.line(d.who))
    return lines
