"""Game records (`kiai record`, `kiai replay`, reports.records): every game replays, an edited
record is caught at the event edited, bad input is refused in one line."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from kiai.reports.records.game import write
from kiai.reports.records.replay import first_divergence, replayed
from kiai.simcore.codes import LEVELS, SAMURAI
from kiai.simcore.readings import READINGS
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import record_game
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")


def _replayed(rec: dict, config: GameConfig) -> dict:
    return replayed(rec, config.components, "test", "test")


def _matrix(count: int, strategy: str, seed: int = 3):
    """Configurations over 2 to 7 samurai, every level, absent tokens on and off, every reading."""
    rng = random.Random(seed)
    for k in range(count):
        n = 2 + k % 6
        rules = {r.name: r.values[(k // (1 + i)) % 2] for i, r in enumerate(READINGS)}
        yield k, GameConfig(tuple(rng.sample(SAMURAI, n)), LEVELS[k % 4], strategy, rules=rules,
                            absent_tokens=("on", "off")[k % 2] if n < 7 else "off")


@pytest.mark.parametrize("strategy, count", [("random", 240), ("keeper", 24)])
def test_every_recorded_game_replays(strategy, count):
    for k, config in _matrix(count, strategy):
        row, rows = record_game(config, 11, k)
        rec = json.loads(json.dumps(write(config, 11, k, row, rows, "test")))  # as read from a file
        assert first_divergence(rec, _replayed(rec, config)) is None, (k, config.samurai, config.rules)


def test_a_record_holds_the_setup_every_decision_and_the_result():
    config = GameConfig(("kanbei", "heihachi", "kikuchiyo"), "hard", "keeper")
    row, rows = record_game(config, 0, 5)
    rec = write(config, 0, 5, row, rows, "test")
    comp = config.components
    kinds = {e["e"] for e in rec["events"]}
    assert {"turn", "decision", "draw", "state", "round_start", "end_step"} <= kinds
    setup = rec["setup"]
    assert setup["barricades"] == 3 + 1 and len(setup["farmstead_backs"]) == 6
    assert len(setup["raider_stack"]) == 7 * 3 and all(comp.card_rank[c] == 0 for c in setup["raider_stack"])
    states = [e for e in rec["events"] if e["e"] == "state"]
    turns = [e for e in rec["events"] if e["e"] == "turn"]
    assert len(states) >= len(turns)  # one after each turn, one after each end-of-round step
    for e in states:  # 66 cards accounted for: lines, sides, stacks, the rest out of play
        placed = sum(len(s["line"]) + sum(c is not None for c in s["defence"]) for s in e["seats"])
        assert placed + sum(e["stacks"].values()) <= comp.n_cards()
    assert rec["result"]["outcome"] in ("win", "loss") and rec["result"]["round"] == row[1]
    for e in rec["events"]:
        if e["e"] == "decision" and e["question"] != "absent_tokens":
            assert e["choice"] in e["options"]


def _records(samurai: tuple[str, ...], level: str, seed: int, games: range):
    config = GameConfig(samurai, level, "random")
    for k in games:
        yield write(config, seed, k, *record_game(config, seed, k), "test")


def test_an_overcome_names_the_barricade_or_farmstead_it_destroyed():
    """R-8: `cost` is what the overcome destroyed, a farmstead once no barricade is left (its
    draw, a random event, comes between the overcome and farmstead_destroyed)."""
    farmsteads = 0
    for rec in _records(("kyuzo", "kikuchiyo"), "easy", 7, range(100, 130)):  # game 112 has one
        ev, barricades = rec["events"], rec["setup"]["barricades"]
        for i, e in enumerate(ev):
            barricades = {"state": e.get("barricades"), "barricade_lost": e.get("left"),
                          "barricade_added": e.get("now")}.get(e["e"], barricades)
            if e["e"] == "overcome":
                after = next(x["e"] for x in ev[i + 1:] if x["e"] != "random")
                want = ("barricade", "barricade_lost") if barricades else ("farmstead", "farmstead_destroyed")
                assert (e["cost"], after) == want, (rec["game"], i)
                farmsteads += not barricades
    assert farmsteads


def test_family_bonus_c_writes_the_intruder_card_it_discards():
    """Section 9 step 3: bonus C sends the top intruder card to the discard pile, written as
    intruder_to_discard after its family_bonus; step 4 then reveals only the cards under it."""
    seen = named = 0
    for rec in _records(("kyuzo", "kikuchiyo"), "easy", 3, range(20)):  # game 17 names its card
        intruder: list = []  # top last; None: a card the record has not shown (section 9)
        raider = 0
        ev = rec["events"]
        for i, e in enumerate(ev):
            if e["e"] == "state":
                raider = e["stacks"]["raider"]
                assert len(intruder) == e["stacks"]["intruder"], (rec["game"], i)
            elif e["e"] in ("support", "to_intruder"):
                intruder.append(e["card"])
            elif e["e"] == "round_end" and e["why"] != "stack_empty":
                intruder += [None] * raider  # the raider stack goes, unseen, onto the intruder stack
            elif e["e"] in ("intruder_to_discard", "intruder_revealed"):
                assert intruder.pop() in (e["card"], None), (rec["game"], i)
            elif e["e"] == "family_bonus" and e["bonus"] == "intruder_to_discard" and intruder:
                assert ev[i + 1]["e"] == "intruder_to_discard", (rec["game"], i)
                assert intruder[-1] in (ev[i + 1]["card"], None), (rec["game"], i)
                seen += 1
                named += intruder[-1] is not None
    assert seen and named


def _record_file(capsys, tmp_path, *extra) -> Path:
    out = tmp_path / "games.jsonl"
    code, _, err = run(capsys, "record", "-n", 3, "--strategy", "keeper", "--seed", 9, "--out", out, *extra)
    assert code == 0, err
    return out


def _rewrite(path: Path, edit) -> Path:
    recs = [json.loads(x) for x in path.read_text().splitlines()]
    edit(recs[1])
    edited = path.with_name("edited.jsonl")
    edited.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return edited


def test_record_then_replay_through_the_cli(capsys, tmp_path):
    out = _record_file(capsys, tmp_path, "--rule", "heal=wounded", "--rule", "end-kiai=on")
    code, text, _ = run(capsys, "replay", out)
    assert code == 0 and text.startswith("3 games verified")
    rec = json.loads(out.read_text().splitlines()[0])
    assert rec["rules"]["heal"] == "wounded" and rec["strategy"] == "keeper" and rec["seed"] == 9


def test_one_game_gzipped_is_the_game_trace_plays(capsys, tmp_path):
    out = tmp_path / "one.jsonl.gz"
    assert run(capsys, "record", "-i", 17, "--strategy", "reference", "--out", out)[0] == 0
    (rec,) = [json.loads(x) for x in gzip.open(out, "rt")]
    assert rec["game"] == 17
    code, trace, _ = run(capsys, "trace", "-i", 17, "--strategy", "reference")
    assert code == 0
    draws = [e["card"] for e in rec["events"] if e["e"] == "draw"]
    assert trace.count("reveals") == len(draws) and f"#{draws[0]}]" in trace
    assert run(capsys, "replay", out)[1].startswith("1 game verified")


def test_a_moved_card_is_caught_where_it_is_first_met(capsys, tmp_path):
    out = _record_file(capsys, tmp_path)
    rec = json.loads(out.read_text().splitlines()[1])
    top = rec["setup"]["raider_stack"][0]
    first = next(k for k, e in enumerate(rec["events"]) if e.get("card") == top)

    def move(r):
        s = r["setup"]["raider_stack"]
        s[0], s[5] = s[5], s[0]

    code, text, _ = run(capsys, "replay", _rewrite(out, move))
    assert code == 1
    assert f"diverges at event {first} " in text and "field card" in text and f"recorded {top}" in text


def test_a_removed_wound_is_caught_at_its_event(capsys, tmp_path):
    out = _record_file(capsys, tmp_path)
    rec = json.loads(out.read_text().splitlines()[1])
    k = next(k for k, e in enumerate(rec["events"]) if e["e"] == "wound")
    code, text, _ = run(capsys, "replay", _rewrite(out, lambda r: r["events"].pop(k)))
    assert code == 1 and f"diverges at event {k} (wound), field e" in text


def test_an_edited_state_is_caught(capsys, tmp_path):
    out = _record_file(capsys, tmp_path)
    rec = json.loads(out.read_text().splitlines()[1])
    k = next(k for k, e in enumerate(rec["events"]) if e["e"] == "state" and e["seats"][1]["total"] > 0)

    def edit(r):
        r["events"][k]["seats"][1]["total"] += 1

    code, text, _ = run(capsys, "replay", _rewrite(out, edit))
    assert code == 1 and f"event {k} (state), field seats[1].total" in text


def test_records_of_other_components_need_their_file(capsys, tmp_path):
    from kiai.simcore.components import default_components_path

    comp = tmp_path / "house.toml"
    comp.write_text(default_components_path().read_text() + "\n# a house copy\n")
    out = _record_file(capsys, tmp_path, "--components", comp)
    code, _, err = run(capsys, "replay", out)
    assert code == 2 and "pass its file with --components" in err and len(err.strip().splitlines()) == 1
    assert run(capsys, "replay", out, "--components", comp)[1].startswith("3 games verified")


@pytest.mark.parametrize("line, message", [
    ("", "no records in"),
    ("{not json", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object"),
    ('{"components_sha256": "x"}', "not at hand"),
])
def test_a_corrupt_record_is_refused_in_one_line(capsys, tmp_path, line, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line + "\n")
    code, _, err = run(capsys, "replay", bad)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("edit, message", [
    (lambda r: r["rules"].update(heal="sometimes"), "rule heal must be any or wounded"),
    (lambda r: r["setup"].update(first_player=9), "first seat 9 is not a seat of 4 samurai"),
    (lambda r: r.pop("seed"), "seed and game must be given"),
])
def test_a_record_with_bad_fields_is_refused(capsys, tmp_path, edit, message):
    out = _record_file(capsys, tmp_path)
    code, _, err = run(capsys, "replay", _rewrite(out, edit))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, message", [
    (["-n", 2, "-i", 3], "not both"),
    (["--out", "games.json"], "must end in .jsonl or .jsonl.gz"),
    (["--rule", "heal=sometimes"], "rule heal must be any or wounded"),
    (["--rule", "nap=on"], "unknown rule 'nap'"),
])
def test_bad_record_options_exit_2(capsys, argv, message):
    code, _, err = run(capsys, "record", *argv)
    assert code == 2 and message in err


def test_the_schema_in_docs_is_current_and_records_meet_it():
    """docs/record.schema.json is reports.records.schema.schema() (python -m kiai.reports.records.schema writes it)."""
    import jsonschema

    from kiai.reports.records.schema import schema

    path = Path(__file__).resolve().parent.parent / "docs" / "record.schema.json"
    assert json.loads(path.read_text()) == json.loads(json.dumps(schema()))
    validator = jsonschema.Draft202012Validator(schema())
    for k, config in _matrix(12, "keeper", seed=5):
        row, rows = record_game(config, 2, k)
        rec = json.loads(json.dumps(write(config, 2, k, row, rows, "test")))
        errors = [e.message for e in validator.iter_errors(rec)]
        assert not errors, errors[:1]
    rec["events"][3]["e"] = "teleport"
    assert not validator.is_valid(rec)


def test_a_planners_game_records_only_the_game_played():
    """The lookahead's rollouts play on copies and record nothing into the game's record."""
    config = GameConfig(("kanbei", "heihachi", "kikuchiyo"), "easy", "lookahead", params={"samples": 2})
    row, rows = record_game(config, 4, 1)
    rec = json.loads(json.dumps(write(config, 4, 1, row, rows, "test")))
    assert first_divergence(rec, _replayed(rec, config)) is None
    assert sum(e["e"] == "turn" for e in rec["events"]) == row[11]  # simcore.results O_TURNS


def test_a_learned_record_names_its_model():
    from kiai.strategies.learned import load_model as load

    config = GameConfig(("kanbei", "heihachi", "kikuchiyo"), "easy", "learned")
    row, rows = record_game(config, 0, 0)
    rec = write(config, 0, 0, row, rows, "test")
    assert rec["model_sha256"] == load(None).sha256
    assert "model_sha256" not in write(GameConfig(("kanbei", "heihachi"), "easy", "keeper"), 0, 0,
                                       *record_game(GameConfig(("kanbei", "heihachi"), "easy", "keeper"), 0, 0), "t")
