"""Game records: one JSON object per game, that outside tools can read and kiai can check.

A record (docs/records.md; its JSON Schema is docs/record.schema.json) gives how the game was
made, its setup, every event in order of play (decisions and random outcomes as results among
them, the public state after each turn and end-of-round step) and its result. `write` makes one
from a recorded game's event rows (simcore.events, strategies.playing.record_game); `replay_inputs`
turns a record back into what the engine needs to play it again (its configuration, its random
outcomes as elements, its decisions); `first_divergence` compares a record with its replay.

Card ids index the component file's raider cards in the file's order; seats are numbered from 0
clockwise (R-2); a stack is listed top card first.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from kiai.simcore import events as L
from kiai.simcore.codes import (
    BOSS,
    FAMILY_BONUSES,
    FARMSTEAD_BACKS,
    LIEUTENANT,
    OUTCOMES,
    PENALTIES,
    PLUNDERER,
    SAMURAI,
    WOUND_STATES,
)
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


_PASS = ("chosen", "above_kiai", "must_pass", "empty_stack")
_ROUND_END = ("stack_empty", "all_passed", "stopped", "stalled")
_KIAI = ("declined", "plain", "effect")

# engine event code -> (record event name, [(field, converter or None)] for arguments a, b, c, d)
PLAIN = {
    L.EV_ROUND_START: ("round_start", [("first", None), ("raiders", None)]),
    L.EV_TURN: ("turn", [("seat", None)]),
    L.EV_ABSENT: ("absent_tokens", [("seat", None), ("samurai", lambda m: [SAMURAI[i] for i in range(7) if m >> i & 1])]),
    L.EV_PENALTY: ("penalty", [("seat", None), ("card", None), ("penalty", _pen)]),
    L.EV_PEN_IGNORED: ("penalty_ignored", [("seat", None), ("card", None), ("penalty", _pen)]),
    L.EV_PEN_UNABLE: ("penalty_wound", [("seat", None), ("penalty", _pen)]),
    L.EV_PASS: ("pass", [("seat", None), ("why", lambda k: _PASS[k])]),
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
    L.EV_KIAI: ("kiai", [("seat", None), ("use", lambda k: _KIAI[k])]),
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
    L.EV_ROUND_END: ("round_end", [("why", lambda k: _ROUND_END[k]), ("last_active", None)]),
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
    """The record of game `game` of `seed` under `config` (strategies.game_config.GameConfig), from its
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


# ------------------------------------------------------------------ reading and replaying


def open_text(path: Path, mode: str = "rt", gz: bool | None = None):
    """A .jsonl or .jsonl.gz file as text (`gz`: compressed, whatever the name)."""
    if str(path).lower().endswith(".gz") if gz is None else gz:
        return gzip.open(path, mode, encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def read(path: Path) -> Iterator[tuple[int, dict]]:
    """(line number, record) for each line of a records file; a line that is not a JSON object
    is a RecordError naming it."""
    try:
        with open_text(path) as f:
            for k, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise RecordError(f"{path}, line {k}: not valid JSON ({e.msg}, column {e.colno})") from None
                except RecursionError:  # a record is a few levels deep; this is no record
                    raise RecordError(f"{path}, line {k}: JSON nested too deeply for a record") from None
                if not isinstance(rec, dict):
                    raise RecordError(f"{path}, line {k}: a record is a JSON object")
                yield k, rec
    except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: cannot read it ({getattr(e, 'strerror', None) or e})") from None


def _need(rec: dict, key: str, kind, where: str):
    v = rec.get(key)
    if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
        raise RecordError(f"{where}: field '{key}' is missing or not a {getattr(kind, '__name__', kind)}")
    return v


def _stack_values(cards: list[int], picks: list[int]) -> list[int]:
    """The random outcomes, as elements, that make the engine build a stack listed top first:
    the cards drawn into it (lieutenants, bosses) and then, position by position from the top
    down, the card each step of the shuffle puts there (simcore.rng.shuffle_range)."""
    bottom_first = cards[::-1]
    return picks + [bottom_first[i] for i in range(len(bottom_first) - 1, 0, -1)]


def replay_inputs(rec: dict, comp, where: str) -> tuple[dict, list[int], list[int]]:
    """What replaying a record needs: the table's fields, its random outcomes as elements and its
    decisions, in order of play."""
    setup = _need(rec, "setup", dict, where)
    events = _need(rec, "events", list, where)
    stack = _need(setup, "raider_stack", list, where + ", setup")
    first = _need(setup, "first_player", int, where + ", setup")
    ranks = comp.card_rank
    if not all(isinstance(c, int) and 0 <= c < len(ranks) for c in stack):
        raise RecordError(f"{where}: setup.raider_stack must list card ids 0..{len(ranks) - 1}")
    # round 1 is a shuffle of every plunderer whose first cards (R-17: with the doll check, the
    # first block that passes) are the stack; the others leave the game, in an order that is moot
    others = [c for c in range(len(ranks)) if ranks[c] == PLUNDERER and c not in set(stack)]
    values = _stack_values(others[::-1] + stack, [])
    decisions: list[int] = []
    for k, e in enumerate(events):
        if not isinstance(e, dict) or not isinstance(e.get("e"), str):
            raise RecordError(f"{where}, event {k}: an event is an object with a string 'e'")
        kind = e["e"]
        try:
            if kind == "random":
                values.append(int(e["result"]))
            elif kind == "stack":
                cards = [int(c) for c in e["cards"]]
                if any(not 0 <= c < len(ranks) for c in cards):
                    raise ValueError
                picks = []
                if e["what"] == "round":
                    rank = LIEUTENANT if e["round"] == 2 else BOSS
                    picks = [c for c in cards if ranks[c] == rank]
                values += _stack_values(cards, picks)
            elif kind == "decision":
                if e["question"] == QUESTIONS[Q_ABSENT]:
                    decisions.append(sum(1 << SAMURAI.index(s) for s in e["choice"]))
                elif len(e["options"]) > 1:
                    decisions.append(int(e["choice"]))
        except (KeyError, TypeError, ValueError, OverflowError):
            raise RecordError(f"{where}, event {k} ({kind}): a field is missing or of the wrong kind") from None
    return setup, values, decisions


def replayed(rec: dict, comp, where: str, version: str) -> dict:
    """The record the engine writes when it plays `rec` again: the record's table, readings and
    first player, its random outcomes and its decisions (`reference` stands in for the strategy:
    it is asked nothing while the record's decisions last). Bad fields are RecordErrors."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.game_config import GameConfig
    from kiai.strategies.playing import record_game

    if rec.get("record") != FORMAT or isinstance(rec.get("record"), bool):
        raise RecordError(f"{where}: field 'record' is {rec.get('record')!r}; kiai replays records of format {FORMAT}")
    for key in ("seed", "game"):  # 64-bit words of the engine (simcore.rng), given as whole numbers
        v = rec.get(key)
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError(f"{where}: seed and game must be given as whole numbers; '{key}' is {v!r}")
        if not 0 <= v <= 2**63 - 1:
            raise RecordError(f"{where}: field '{key}' must be in 0..2**63-1, got {v}")
    setup, values, decisions = replay_inputs(rec, comp, where)
    try:
        config = GameConfig(tuple(rec["samurai"]), rec["level"], "reference",
                            absent_tokens="on" if rec["absent_tokens"] else "off", components=comp,
                            first_seat=setup["first_player"], rules=rec.get("rules") or {})
        seed, game = int(rec["seed"]), int(rec["game"])
    except ConfigError as e:
        raise RecordError(f"{where}: {e}") from None
    except (KeyError, TypeError, ValueError, AttributeError):
        raise RecordError(f"{where}: samurai, level, absent_tokens, rules, seed and game must be given") from None
    row, rows = record_game(config, seed, game, forced_random=values, forced_decisions=decisions)
    return write(config, seed, game, row, rows, version)


def first_divergence(recorded: dict, replayed: dict) -> tuple[str, str, object, object] | None:
    """Where a record and its replay first differ: (where, field, recorded, replayed), or None."""
    for part in ("setup",):
        a, b = recorded.get(part), replayed[part]
        if a != b:
            field = next((k for k in b if not isinstance(a, dict) or a.get(k) != b[k]), part)
            return (part, field, None if not isinstance(a, dict) else a.get(field), b.get(field))
    ra, rb = recorded.get("events"), replayed["events"]
    for k in range(max(len(ra), len(rb))):
        a = ra[k] if k < len(ra) else None
        b = rb[k] if k < len(rb) else None
        if a != b:
            if a is None or b is None or not isinstance(a, dict):
                return (f"event {k}", "e", None if a is None else a.get("e") if isinstance(a, dict) else a,
                        None if b is None else b.get("e"))
            field = _first_field(a, b)
            return (f"event {k} ({b.get('e')})", field, _get(a, field), _get(b, field))
    a, b = recorded.get("result"), replayed["result"]
    if a != b:
        field = _first_field(a if isinstance(a, dict) else {}, b)
        return ("result", field, _get(a, field) if isinstance(a, dict) else a, _get(b, field))
    return None


def _first_field(a: dict, b: dict, prefix: str = "") -> str:
    """The first (dotted) field where two events differ, in the order the replay writes them."""
    for key in list(b) + [k for k in a if k not in b]:
        va, vb = a.get(key), b.get(key)
        if va == vb:
            continue
        if isinstance(va, dict) and isinstance(vb, dict):
            return _first_field(va, vb, f"{prefix}{key}.")
        if isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
            for i, (x, y) in enumerate(zip(va, vb)):
                if x != y:
                    if isinstance(x, dict) and isinstance(y, dict):
                        return _first_field(x, y, f"{prefix}{key}[{i}].")
                    return f"{prefix}{key}[{i}]"
        return f"{prefix}{key}"
    return prefix.rstrip(".")


def _get(obj, dotted: str):
    for part in dotted.replace("]", "").replace("[", ".").split("."):
        if not part:
            continue
        if isinstance(obj, list):
            obj = obj[int(part)] if part.isdigit() and int(part) < len(obj) else None
        elif isinstance(obj, dict):
            obj = obj.get(part)
        else:
            return None
    return obj


def dumps(rec: dict) -> str:
    return json.dumps(rec, separators=(",", ":"))


__all__ = ["FORMAT", "RecordError", "dumps", "first_divergence", "open_text", "read", "replay_inputs", "replayed",
           "write"]


# ------------------------------------------------------------------ the JSON Schema (docs/record.schema.json)

_INT = {"type": "integer"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 6, "description": "a seat, 0 first, clockwise (R-2)"}
_CARD = {"type": "integer", "minimum": 0, "description": "a card: its index in the component file's raider cards"}
_NULLABLE_CARD = {"type": ["integer", "null"], "minimum": 0}
_ENUMS = {  # (event, field) or field -> the values a string field takes
    "penalty": PENALTIES[1:],
    "state": WOUND_STATES,
    ("pass", "why"): _PASS,
    ("round_end", "why"): _ROUND_END,
    "use": _KIAI[1:],
    "bonus": FAMILY_BONUSES,
    "cost": ("barricade", "farmstead", None),
    "back": (*FARMSTEAD_BACKS, None),
    "side": ("animal",),
}
_SEAT_FIELDS = {"seat", "to", "from", "owner", "giver", "receiver", "first", "last_active"}


def _field_schema(event: str, field: str) -> dict:
    enum = _ENUMS.get((event, field), _ENUMS.get(field))
    if enum is not None:
        return {"enum": list(enum)}
    if event == "family_bonus" and field == "seat":
        return {"type": ["integer", "null"], "description": "the samurai drawn for bonus A, else null"}
    if field == "card":
        return _CARD
    if field in _SEAT_FIELDS:
        return _SEAT
    if field == "flame":
        return {"type": "boolean"}
    if field == "samurai":
        return {"type": "array", "items": {"enum": list(SAMURAI)}}
    return _INT


def _event(name: str, props: dict, required=None) -> dict:
    return {"type": "object", "properties": {"e": {"const": name}, **props},
            "required": ["e", *(props if required is None else required)], "additionalProperties": False}


def _event_schemas() -> list[dict]:
    """The JSON Schema of each kind of event a record lists."""
    events = []
    for name, fields in PLAIN.values():
        props = {f: _field_schema(name, f) for f, _ in fields}
        extra = {"overcome": {"cost": _field_schema(name, "cost")}, "wound": {"side": _field_schema(name, "side")}}
        events.append(_event(name, {**props, **extra.get(name, {})}, required=list(props)))
    events += [
        _event("katsushiro_effect", {"order": {"type": "array", "items": _CARD, "maxItems": 3,
                                               "description": "the cards looked at, in their new order, top first"}}),
        _event("decision", {
            "seat": _SEAT, "question": {"enum": list(QUESTIONS.values())},
            "card": _CARD, "penalty": {"enum": list(PENALTIES[1:])}, "cards": _INT,
            "options": {"type": "array", "items": {"type": ["integer", "string"]},
                        "description": "the legal answers (docs/records.md: their codes per question)"},
            "choice": {"type": ["integer", "array"], "description": "the answer given"},
        }, required=["seat", "question", "options", "choice"]),
        _event("random", {"what": {"enum": list(RANDOM)}, "result": {
            "type": "integer", "description": "the token, family, seat or card drawn"}}),
        _event("stack", {"what": {"enum": ["round", "boss"]}, "round": {"type": "integer", "minimum": 2, "maximum": 3},
                         "cards": {"type": "array", "items": _CARD, "description": "the new raider stack, top first"}},
               required=["what", "round", "cards"]),
        _event("state", {
            "barricades": _INT, "farmsteads": _INT, "families": _INT,
            "stacks": {"type": "object", "properties": {k: _INT for k in ("raider", "intruder", "discard")},
                       "required": ["raider", "intruder", "discard"], "additionalProperties": False},
            "seats": {"type": "array", "minItems": 2, "maxItems": 7, "items": {
                "type": "object", "additionalProperties": False,
                "required": ["line", "defence", "total", "kiai", "wound", "passed", "token_with"],
                "properties": {
                    "line": {"type": "array", "items": _CARD, "description": "combat line, oldest card first"},
                    "defence": {"type": "array", "items": _NULLABLE_CARD, "minItems": 3, "maxItems": 3,
                                "description": "defence side: the hat, farm and doll cards (null: none)"},
                    "total": _INT, "kiai": {"type": "integer", "description": "his Kiai value now (side)"},
                    "wound": {"enum": list(WOUND_STATES)}, "passed": {"type": "boolean"},
                    "token_with": {**_SEAT, "description": "the seat holding his support token"},
                }}},
        }),
    ]
    return events


def schema() -> dict:
    """The JSON Schema of a record (written to docs/record.schema.json; a test keeps it current)."""
    events = _event_schemas()
    names = lambda seq: {"enum": list(seq)}  # noqa: E731
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://kiai.invalid/record.schema.json",
        "title": "kiai game record",
        "description": "One game of Samurai Spirit as kiai played it: one such object per line of a .jsonl file "
                       "(docs/records.md). Card ids index the component file's raider cards, in the file's "
                       "order; seats count from 0 clockwise; stacks are listed top card first.",
        "type": "object",
        "required": ["record", "kiai", "components_sha256", "level", "samurai", "strategy", "params", "seed",
                     "game", "rules", "absent_tokens", "setup", "events", "result"],
        "properties": {
            "record": {"const": FORMAT},
            "kiai": {"type": "string"},
            "components_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "level": {"type": "string"},
            "samurai": {"type": "array", "items": names(SAMURAI), "minItems": 2, "maxItems": 7},
            "strategy": {"type": "string"},
            "params": {"type": "object", "additionalProperties": {"type": "number"}},
            "model_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                             "description": "the model file a learned strategy played (kiai train learned)"},
            "seed": {"type": "integer", "minimum": 0},
            "game": {"type": "integer", "minimum": 0},
            "rules": {"type": "object", "description": "every rule reading (docs/rules.md section 14, `kiai rules`)",
                      "additionalProperties": {"type": "string"}},
            "absent_tokens": {"type": "boolean"},
            "setup": {"type": "object", "additionalProperties": False, "required": [
                "barricades", "farmsteads", "farmstead_backs", "families", "raider_stack", "first_player"],
                "properties": {
                    "barricades": _INT, "farmsteads": _INT,
                    "farmstead_backs": {"type": "array", "items": names(FARMSTEAD_BACKS),
                                        "description": "the back of each farmstead token, by token number"},
                    "families": {"type": "array", "items": names(FAMILY_BONUSES),
                                 "description": "each family's bonus, by family number"},
                    "raider_stack": {"type": "array", "items": _CARD, "description": "round 1's stack, top first"},
                    "first_player": _SEAT,
                }},
            "events": {"type": "array", "items": {"oneOf": events}},
            "result": {"type": "object", "additionalProperties": False, "required": [
                "outcome", "cause", "round", "score", "barricades", "farmsteads", "families"], "properties": {
                "outcome": {"enum": ["win", "loss"]}, "cause": {"enum": [*OUTCOMES[1:], None]},
                "round": {"type": "integer", "minimum": 1, "maximum": 3}, "score": {"type": ["integer", "null"]},
                "barricades": _INT, "farmsteads": _INT, "families": _INT}},
        },
    }


if __name__ == "__main__":  # python -m kiai.reports.records.game > docs/record.schema.json
    print(json.dumps(schema(), indent=1))
