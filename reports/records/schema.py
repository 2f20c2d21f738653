"""The JSON Schema of a game record (docs/record.schema.json; a test keeps it current):
python -m kiai.reports.records.schema > docs/record.schema.json"""

from __future__ import annotations

import functools
import json

from kiai.reports.records.game import FORMAT, KIAI_USES, PASS_WHY, PLAIN, RANDOM, ROUND_END_WHY
from kiai.simcore.codes import FAMILY_BONUSES, FARMSTEAD_BACKS, OUTCOMES, PENALTIES, SAMURAI, WOUND_STATES
from kiai.simcore.questions import QUESTIONS


_INT = {"type": "integer"}
_SEAT = {"type": "integer", "minimum": 0, "maximum": 6, "description": "a seat, 0 first, clockwise (R-2)"}
_CARD = {"type": "integer", "minimum": 0, "description": "a card: its index in the component file's raider cards"}
_NULLABLE_CARD = {"type": ["integer", "null"], "minimum": 0}
_ENUMS = {  # (event, field) or field -> the values a string field takes
    "penalty": PENALTIES[1:],
    "state": WOUND_STATES,
    ("pass", "why"): PASS_WHY,
    ("round_end", "why"): ROUND_END_WHY,
    "use": KIAI_USES[1:],
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


@functools.cache
def checked() -> dict:
    """schema() as kiai checks a record it reads back (kiai.states.check): each event against the
    schema of its kind, as its "e" names it, so that a damaged event is named by its field (a oneOf
    over every kind names none)."""
    whole, events = schema(), _event_schemas()
    kinds = [e["properties"]["e"]["const"] for e in events]
    item = {"type": "object", "required": ["e"], "properties": {"e": {"enum": kinds}}, "allOf": [
        {"if": {"properties": {"e": {"const": k}}, "required": ["e"]}, "then": e} for k, e in zip(kinds, events)]}
    return {**whole, "properties": {**whole["properties"], "events": {"type": "array", "items": item}}}


if __name__ == "__main__":  # python -m kiai.reports.records.schema > docs/record.schema.json
    print(json.dumps(schema(), indent=1))
