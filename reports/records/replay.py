"""Game records read and played again: `read` lists a records file's records, `replay_inputs` turns
a record back into what the engine needs to play it again (its configuration, its random outcomes
as elements, its decisions), `replayed` plays it, and `first_divergence` compares a record with its
replay (`kiai replay`). The record itself is reports.records.game's."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

from kiai.reports.records.game import FORMAT, RecordError, write
from kiai.reports.records.schema import checked
from kiai.simcore.codes import BOSS, LIEUTENANT, PLUNDERER, SAMURAI
from kiai.simcore.questions import Q_ABSENT, QUESTIONS
from kiai.states import check


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
            damaged(rec, where)
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
            damaged(rec, where)  # the schema names the field
            raise RecordError(f"{where}, event {k} ({kind}): a field is missing or of the wrong kind") from None
    return setup, values, decisions


def damaged(rec: dict, where: str) -> None:
    """Refuse `rec` if the record schema does (a StateError naming `where` and the field). A record
    that replays is not checked: the schema's check of a whole game takes longer than its replay,
    so it is made where a record fails with no field to name, or diverges: to say which field of a
    damaged record is wrong, and to tell it from a record the engine plays otherwise."""
    check(rec, checked(), where, "record")


def replayed(rec: dict, comp, where: str, version: str) -> dict:
    """The record the engine writes when it plays `rec` again: the record's table, readings and
    first player, its random outcomes and its decisions (`reference` stands in for the strategy:
    it is asked nothing while the record's decisions last). Bad fields are RecordErrors, or
    StateErrors naming the field where the schema refuses the record (damaged)."""
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run.config import GameConfig
    from kiai.strategies.run.games import record_game

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
        damaged(rec, where)
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
