"""Game records: one JSON object per game, that outside tools can read and kiai can check.

A record (docs/records.md; its JSON Schema is docs/record.schema.json, reports.records.schema)
gives how the game was made, its setup, every event in order of play (decisions and random
outcomes as results among them, the public state after each turn and end-of-round step) and its
result. `write` makes one from a recorded game's event rows (simcore.events,
strategies.run.games.record_game); reports.records.replay reads records and plays them again.

Card ids index the component file's raider cards in the file's order; seats are numbered from 0
clockwise (R-2); a stack is listed top card first.
"""

from __future__ import annotations

from kiai.simcore import events as L
from kiai.simcore.codes import FAMILY_BONUSES, FARMSTEAD_BACKS, OUTCOMES, PENALTIES, SAMURAI, WOUND_STATES
from kiai.simcore.questions import Q_ABSENT, QUESTIONS

FORMAT = 1  # the record format's version: a change that old readers would misread raises it


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message is one line."""


def _pen(p):
    return PENALTIES[p]


def _wound(w):
    return WOUND_STATES[w]


def _card(c):
    return None if c < 0 else c


PASS_WHY = ("chosen", "above_kiai", "must_pass", "empty_stack")
ROUND_END_WHY = ("stack_empty", "all_passed", "stopped", "stalled")
KIAI_USES = ("declined", "plain", "effect")

# engine event code -> (record event name, [(field, converter or None)] for arguments a, b, c, d)
PLAIN = {
    L.EV_ROUND_START: ("round_start", [("first", None), ("raiders", None)]),
    L.EV_TURN: ("turn", [("seat", None)]),
    L.EV_ABSENT: ("absent_tokens", [("seat", None), ("samurai", lambda m: [SAMURAI[i] for i in range(7) if m >> i & 1])]),
    L.EV_PENALTY: ("penalty", [("seat", None), ("card", None), ("penalty", _pen)]),
    L.EV_PEN_IGNORED: ("penalty_ignored", [("seat", None), ("card", None), ("penalty", _pen)]),
    L.EV_PEN_UNABLE: ("penalty_wound", [("seat", None), ("penalty", _pen)]),
    L.EV_PASS: ("pass", [("seat", None), ("why", lambda k: PASS_WHY[k])]),
    L.EV_FIGHT: ("fight", [("seat", None)]),
    L.EV_FIGHT_AGAIN: ("fight_again", [("seat", None)]),
    L.EV_SUPPORT: ("support", [("seat", None), ("to", None), ("card", None)]),
    L.EV_TOKEN_RETURN: ("token_return", [("owner", None), ("from", None)]),
    L.EV_REVEAL: ("draw", [("seat", None), ("card", None)]),
    L.EV_REDRAW: ("talent_redraw", [("seat", None), ("card", None)]),
    L.EV_KYUZO_DISCARD: ("talent_discard", [("seat", None), ("card", None)]),
    L.EV_GIVE: ("talent_give", [("seat", None), ("to", None), ("card", None)]),
    L.EV_CONFRONT: ("confront", [("seat", None), ("card", None), ("total", None), ("kiai", None)]),
    L.EV_DEFEND: ("defend", [("seat", None), ("card", None)]),
    L.EV_OVERCOME: ("overcome", [("seat", None), ("total", None), ("kiai", None)]),
    L.EV_BARR_LOST: ("barricade_lost", [("left", None)]),
    L.EV_BARR_ADDED: ("barricade_added", [("now", None)]),
    L.EV_FARM_LOST: ("farmstead_destroyed", [("back", lambda b: None if b < 0 else FARMSTEAD_BACKS[b]), ("left", None)]),
    L.EV_FAMILY_LOST: ("family_lost", [("family", None), ("left", None)]),
    L.EV_WOUND: ("wound", [("seat", None), ("state", _wound)]),
    L.EV_HEAL: ("heal", [("seat", None), ("state", _wound)]),
    L.EV_KIAI: ("kiai", [("seat", None), ("use", lambda k: KIAI_USES[k])]),
    L.EV_TRIGGER_SKIPPED: ("kiai_declined", [("seat", None)]),
    L.EV_KIAI_SHED: ("kiai_discard", [("seat", None), ("card", None), ("total", None)]),
    L.EV_DAISUKE: ("daisuke_effect", [("from", None), ("to", None), ("card", None)]),
    L.EV_KIKU: ("kikuchiyo_effect", [("seat", None), ("card", None)]),
    L.EV_KYUZO_TOKEN: ("kyuzo_effect", [("giver", None), ("receiver", None)]),
    L.EV_TOP_TO_DISCARD: ("gorobei_effect", [("card", None)]),
    L.EV_INTRUDER_TO_DISCARD: ("intruder_to_discard", [("card", None)]),
    L.EV_PEN_DRAW: ("penalty_draw", [("seat", None), ("card", None)]),
    L.EV_TO_INTRUDER: ("to_intruder", [("card", None)]),
    L.EV_DISCARD_TO_RAIDER: ("discard_to_raider", [("card", None)]),
    L.EV_LOSE_DEFENCE: ("defence_lost", [("seat", None), ("card", None)]),
    L.EV_ROUND_END: ("round_end", [("why", lambda k: ROUND_END_WHY[k]), ("last_active", None)]),
    L.EV_EOR_STEP: ("end_step", [("step", None)]),
    L.EV_FLAME: ("intruder_revealed", [("card", None), ("flame", bool)]),
    L.EV_BONUS: ("family_bonus", [("family", None), ("bonus", lambda b: FAMILY_BONUSES[b]), ("seat", _card)]),
    L.EV_STALL: ("stall", []),
}
RANDOM = ("farmstead", "family", "wound", "heal", "discard")  # simcore.events RND_*
_ARGS = {  # a question's arguments worth recording (simcore.questions)
    "ignore_penalty": (("card", None), ("penalty", _pen)),
    "boss_order": (("card", None),),
    "lose_defence": (("card", None),),
    "card": (("card", None),),
    "place": (("card", None),),
    "katsushiro": (("cards", None),),
}


def _bits(m: int) -> list[int]:
    return [k for k in range(63) if m >> k & 1]


def _cards(rows, i: int, n: int) -> tuple[list[int], int]:
    """n cards from the EV_CARDS rows from rows[i]; returns them and the next row."""
    out: list[int] = []
    while len(out) < n:
        out.extend(int(x) for x in rows[i, 2:8])
        i += 1
    return out[:n], i


def _events(rows, n: int) -> tuple[list, list[int] | None]:
    """Record events from event rows; the first round's stack goes to the setup."""
    ev: list[dict] = []
    first_stack = None
    i = 0
    total = len(rows)
    while i < total:
        r = rows[i]
        code = int(r[0])
        i += 1
        if code in PLAIN:
            name, fields = PLAIN[code]
            e = {"e": name}
            for k, (field, conv) in enumerate(fields):
                v = int(r[2 + k])
                e[field] = conv(v) if conv else v
            if name == "overcome":  # with what it cost: the next event
                j = i  # a farmstead's loss follows its draw, the random event of the token
                while j < total and int(rows[j, 0]) == L.EV_RANDOM:
                    j += 1
                nxt = int(rows[j, 0]) if j < total else 0
                e["cost"] = {L.EV_BARR_LOST: "barricade", L.EV_FARM_LOST: "farmstead"}.get(nxt)
            elif name == "wound" and e["state"] == "animal":
                e["side"] = "animal"
            ev.append(e)
        elif code == L.EV_KATSU:
            k = int(r[2])
            ev.append({"e": "katsushiro_effect", "order": [int(x) for x in r[3 : 3 + k]]})
        elif code == L.EV_DECISION:
            q, seat, a, b, legal, c = (int(x) for x in r[2:8])
            qn = QUESTIONS[q]
            e = {"e": "decision", "seat": seat, "question": qn}
            for (field, conv), v in zip(_ARGS.get(qn, ()), (a, b)):
                e[field] = conv(v) if conv else v
            if q == Q_ABSENT:
                e["options"] = [SAMURAI[k] for k in _bits(legal)]
                e["choice"] = [SAMURAI[k] for k in _bits(c)]
            else:
                e["options"] = _bits(legal)
                e["choice"] = c
            ev.append(e)
        elif code == L.EV_RANDOM:
            ev.append({"e": "random", "what": RANDOM[int(r[2])], "result": int(r[3])})
        elif code == L.EV_STACK:
            cards, i = _cards(rows, i, int(r[3]))
            if first_stack is None:
                first_stack = cards
            else:
                ev.append({"e": "stack", "what": ("round", "boss")[int(r[2])], "round": int(r[1]), "cards": cards})
        elif code == L.EV_STATE:
            state = {"e": "state", "barricades": int(r[2]), "farmsteads": int(r[3]), "families": int(r[4]),
                     "stacks": {"raider": int(r[5]), "intruder": int(r[6]), "discard": int(r[7])}, "seats": []}
            for _ in range(n):
                seat, sr = rows[i], rows[i + 1]
                line, i = _cards(rows, i + 2, int(sr[6]))
                state["seats"].append({
                    "line": line, "defence": [_card(int(x)) for x in sr[3:6]], "total": int(seat[3]),
                    "kiai": int(seat[4]), "wound": _wound(int(seat[5])), "passed": bool(seat[6]),
                    "token_with": int(seat[7]),
                })  # fmt: skip
            ev.append(state)
        elif code in (L.EV_SETUP, L.EV_GAME_END):
            pass  # in the setup and the result
        else:
            raise RecordError(f"event code {code} has no record form")
    return ev, first_stack


def write(config, seed: int, game: int, row, rows, version: str) -> dict:
    """The record of game `game` of `seed` under `config` (strategies.run.config.GameConfig), from its
    results row and recorded event rows."""
    from kiai.simcore.results import OUT_NAMES

    comp = config.components
    res = {k: int(v) for k, v in zip(OUT_NAMES, row)}
    ev, stack = _events(rows, config.n)
    setup = next(r for r in rows if int(r[0]) == L.EV_SETUP)
    out = {
        "record": FORMAT,
        "kiai": version,
        "components_sha256": comp.sha256,
        "level": config.difficulty,
        "samurai": list(config.samurai),
        "strategy": config.strategy,
        "params": config.param_dict(),
        **({"model_sha256": config.describe()["model"]["sha256"]} if config.uses_model else {}),
        "seed": seed,
        "game": game,
        "rules": dict(config.rules),
        "absent_tokens": config.absent_on,
        "setup": {
            "barricades": int(setup[3]),
            "farmsteads": len(comp.farm_backs),
            "farmstead_backs": [FARMSTEAD_BACKS[b] for b in comp.farm_backs],
            "families": [FAMILY_BONUSES[b] for b in comp.family_bonuses],
            "raider_stack": stack,
            "first_player": res["first_seat"],
        },
        "events": ev,
        "result": {
            "outcome": "win" if res["outcome"] == 0 else "loss",
            "cause": None if res["outcome"] == 0 else OUTCOMES[res["outcome"]],
            "round": res["end_round"],
            "score": res["score"] if res["outcome"] == 0 else None,
            "barricades": res["barricades"],
            "farmsteads": res["farmsteads"],
            "families": res["families"],
        },
    }
    return out
