"""One schema step for every state file kiai reads back: checked, or refused in one line that names
the file and the field.

Below every layer, as kiai/errors.py is: the sweep's metadata (reports), the balance state
(reports), the bracket table (kiai), the game records (reports) and the model headers
(strategies) are all read through check(). A state file is kiai's own output, but a user may
edit it, a disk may damage it, and another version may have written it: each is checked against
a JSON Schema (jsonschema, Draft 2020-12) before any of it is used, so a damaged one is one line
(KiaiError, exit 2), never a TypeError deep inside a run.

A table's columns are checked the same way, as the JSON document {column: type name}
(columns_doc), so that a column of strings where integers belong is named like a bad field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from kiai.errors import KiaiError


class StateError(KiaiError):
    """A state file that is not what kiai wrote: one line naming the file and the field."""


_VALIDATORS: dict = {}  # id(schema) -> its validator


def _validator(schema: Mapping):
    # jsonschema on the first check, not at import: `kiai simulate` reads no state file
    from jsonschema import Draft202012Validator

    key = id(schema)
    v = _VALIDATORS.get(key)
    if v is None or v.schema is not schema:
        Draft202012Validator.check_schema(schema)
        v = _VALIDATORS[key] = Draft202012Validator(schema)
    return v


def field_name(path) -> str:
    """A JSON path as a field: keys joined by '.', indices in brackets (the document itself: '(top)')."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


def _said(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def check(doc, schema: Mapping, source, what: str = "state"):
    """Return `doc` if it matches `schema`, else raise StateError naming `source` (the file), the
    failing field (jsonschema's best match) and what was found."""
    from jsonschema.exceptions import best_match

    e = best_match(_validator(schema).iter_errors(doc))
    if e is None:
        return doc
    path = list(e.absolute_path)
    if e.validator == "required":  # named as the field that is missing, not the object that lacks it
        missing = [k for k in e.validator_value if not (isinstance(e.instance, dict) and k in e.instance)]
        raise StateError(f"{source}: damaged {what}: {field_name([*path, missing[0]])} is missing")
    field = f"{field_name(path)} " if path else ""  # the document itself: no field to name
    raise StateError(f"{source}: damaged {what}: {field}{_expected(e)}, found {_said(e.instance)}")


def _expected(e) -> str:
    if e.validator == "type":
        kinds = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        return "must be " + " or ".join(_TYPE_WORDS.get(k, k) for k in kinds)
    if e.validator == "enum":
        values = ", ".join(map(str, e.validator_value))
        return "must be one of " + (values if len(values) <= 60 else values[:60].rsplit(", ", 1)[0] + ", ...")
    if e.validator == "const":
        return f"must be {_said(e.validator_value)}"
    if e.validator in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        word = {"minimum": "at least", "exclusiveMinimum": "above", "maximum": "at most", "exclusiveMaximum": "below"}
        return f"must be {word[e.validator]} {e.validator_value}"
    if e.validator in ("minItems", "maxItems"):
        return f"must list {'at least' if e.validator == 'minItems' else 'at most'} {e.validator_value} items"
    return e.message.replace(repr(e.instance), "it").replace(_said(e.instance), "it")[:80]


_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "true or false", "null": "null"}


def load_json(raw, source, what: str = "state"):
    """json.loads, a broken document refused in one line naming `source`."""
    try:
        return json.loads(raw)
    except (ValueError, TypeError) as e:
        raise StateError(f"{source}: damaged {what}: not JSON ({str(e).splitlines()[0]})") from None


def columns_doc(arrow_schema) -> dict:
    """A table's columns as {name: type}, for check(): 'integer', 'number', 'string', 'boolean',
    or the Arrow type's own name."""
    import pyarrow.types as pt  # pyarrow only where a table is checked

    def kind(t) -> str:
        if pt.is_integer(t):
            return "integer"
        if pt.is_floating(t):
            return "number"
        if pt.is_string(t) or pt.is_large_string(t) or pt.is_dictionary(t):
            return "string"
        if pt.is_boolean(t):
            return "boolean"
        return str(t)

    return {f.name: kind(f.type) for f in arrow_schema}


def columns_schema(columns: Mapping[str, str | tuple[str, ...]]) -> dict:
    """The schema of columns_doc for a table that must have these columns, of these kinds (a
    number column takes integers too)."""
    def allowed(kind):
        kinds = (kind,) if isinstance(kind, str) else tuple(kind)
        if "number" in kinds:
            kinds = (*kinds, "integer")
        return {"enum": list(dict.fromkeys(kinds))}

    return {"type": "object", "properties": {c: allowed(k) for c, k in columns.items()}, "required": list(columns)}


__all__ = ["StateError", "check", "columns_doc", "columns_schema", "field_name", "load_json"]
