"""The Python API, used as a notebook would: through `import kiai` alone.

Where a test says the API gives what a command prints, it runs the command too (cli.main, in
this process) and compares the two.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

import kiai
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

TEAM = ["kyuzo", "heihachi", "daisuke"]
NOT_A_TABLE = str(Path(tempfile.gettempdir()) / "kiai-test-not-a-results-table.csv")  # written by the test
TIMING = ("seconds", "games_per_second", "threads")  # how the games were played, not what they gave


def untimed(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMING}


def cli_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# -------------------------------------------------------------------------------------- simulate


def test_simulate_gives_the_fields_of_simulate_json(capsys):
    result = kiai.simulate(TEAM, level="easy", games=600, seed=3, strategy="reference", params={"T": 4},
                           rules={"heal": "wounded"})  # fmt: skip
    printed = cli_json(capsys, "simulate", "-s", ",".join(TEAM), "-d", "easy", "-n", 600, "--seed", 3,
                       "--strategy", "reference", "--param", "T=4", "--rule", "heal=wounded")  # fmt: skip
    assert list(result.to_dict()) == list(printed)
    assert untimed(result.to_dict()) == untimed(printed)
    assert result.win_rate == printed["win_rate"] and result.outcomes == printed["outcomes"]
    assert (result.ci_low, result.ci_high) == tuple(printed["ci95"])
    assert result.params == {"T": 4} and result.rules["heal"] == "wounded" and result.games == 600
    assert set(printed) <= set(dir(result))
    assert str(result).splitlines()[0].startswith("kyuzo, heihachi, daisuke at easy, strategy reference")
    assert "win rate" in str(result) and "95% CI" in str(result)
    with pytest.raises(AttributeError, match="no field"):
        result.no_such_field  # noqa: B018


def test_a_line_up_is_a_list_or_the_commands_text():
    as_list = kiai.simulate(TEAM, level="easy", games=300, strategy="reference")
    as_text = kiai.simulate("kyuzo,heihachi,daisuke", level="easy", games=300, strategy="reference")
    assert untimed(as_list.to_dict()) == untimed(as_text.to_dict())


def test_to_frame_is_the_row_a_sweep_writes():
    import pandas.testing

    from kiai.reports.playing.racing import deal_seed

    # a sweep's seating plays the deals of its own seed, drawn from the sweep's and the seating
    table = kiai.sweep("easy", lineups=[TEAM], strategies="reference", games=500, seed=2)
    row = kiai.simulate(TEAM, level="easy", games=500, seed=deal_seed(2, table["seating"][0]),
                        strategy="reference").to_frame()
    assert list(row.columns) == list(table.columns) and list(row.dtypes) == list(table.dtypes)
    pandas.testing.assert_frame_equal(row, table)


def test_progress_is_told_every_game_and_notes_go_to_a_progress():
    seen = []
    kiai.simulate(TEAM, games=700, strategy="reference", progress=seen.append)
    assert sum(seen) == 700 and len(seen) > 1  # in parts, as they are played

    class Told(kiai.Progress):
        def __init__(self):
            self.started, self.games, self.entered = [], 0, 0

        def __enter__(self):
            self.entered += 1
            return self

        def start(self, what, total, **about):
            self.started.append((what, total))

        def advance(self, n):
            self.games += n

    told = Told()
    kiai.simulate(TEAM, games=300, strategy="reference", progress=told)
    assert told.entered == 1 and told.started == [("games", 300)] and told.games == 300


def test_threads_apply_to_the_call_alone():
    import numba

    from kiai.strategies.run.games import set_threads

    numba_before, kiai_before = numba.get_num_threads(), set_threads(None)
    result = kiai.simulate(TEAM, games=200, strategy="reference", threads=1)
    assert result.threads == 1
    assert numba.get_num_threads() == numba_before and set_threads(None) == kiai_before
    assert kiai.simulate(TEAM, games=200, strategy="reference").threads == kiai_before


# ----------------------------------------------------------------------------------------- sweep


def test_sweep_is_the_table_kiai_sweep_writes(capsys, tmp_path):
    import pandas as pd
    import pandas.testing

    table = kiai.sweep(levels=["easy", "normal"], players=[2, 3], sample=1, strategies=["reference", "random"],
                       params={"T": [3, 4]}, games=200, seed=1)  # fmt: skip
    assert isinstance(table, pd.DataFrame)
    # 2 levels x 2 sizes x 1 line-up x (reference at T=3, T=4, and random)
    assert len(table) == 12 and table["games"].eq(200).all()
    by_level = table.groupby("difficulty")["win_rate"].mean()
    assert list(by_level.index) == ["easy", "normal"] and by_level["easy"] > by_level["normal"]
    out = tmp_path / "s.parquet"
    code, _, err = run(capsys, "sweep", "--out", out, "-d", "easy,normal", "--players", "2,3", "--lineups", "sample:1",
                       "--strategy", "reference,random", "--param", "T=3,4", "-n", 200, "--seed", 1)  # fmt: skip
    assert code == 0, err
    pandas.testing.assert_frame_equal(table, pd.read_parquet(out), check_dtype=False)


def test_sweep_writes_and_resumes_its_table(tmp_path):
    out = tmp_path / "t.parquet"
    asked = dict(lineups=["kyuzo,heihachi", ["daisuke", "gorobei", "kanbei"]], strategies="reference", games=300)
    first = kiai.sweep(**asked, out=out, csv=True)
    assert out.is_file() and out.with_suffix(".csv").is_file() and len(first) == 2
    played = []
    again = kiai.sweep(**asked, out=out, resume=True, progress=played.append)
    assert played == [] and again.equals(first)  # every configuration was finished: none is played again
    with pytest.raises(kiai.KiaiError, match="exists; use --resume"):
        kiai.sweep(**asked, out=out)


# --------------------------------------------------------------------------------------- compare


def test_compare_seatings_is_compare_json(capsys):
    comparison = kiai.compare(["kyuzo", "heihachi", "daisuke", "gorobei"], level="easy", games=300,
                              strategy="reference")  # fmt: skip
    printed = cli_json(capsys, "compare", "--lineup", "kyuzo,heihachi,daisuke,gorobei", "-d", "easy", "-n", 300,
                       "--strategy", "reference")  # fmt: skip
    assert comparison.mode == "seatings" and comparison.to_json() == printed
    assert len(comparison.arms) == 6 and comparison.pairs == []
    frame = comparison.to_frame()
    assert list(frame["seating"]) == [e["seating"] for e in printed]
    assert {"win_rate", "ci_low", "ci_high", "p_holm", "won_only_here", "won_only_by_best"} <= set(frame.columns)


def test_compare_strategies_and_readings_are_compare_json(capsys):
    comparison = kiai.compare(TEAM, level="easy", games=300, strategies=["reference", "random", "keeper"],
                              params={"reference": {"T": 4}})  # fmt: skip
    printed = cli_json(capsys, "compare", "-s", ",".join(TEAM), "-d", "easy", "-n", 300, "--strategies",
                       "reference,random,keeper", "--param", "reference.T=4")  # fmt: skip
    assert comparison.mode == "strategies" and comparison.to_json() == printed
    assert len(comparison.pairs) == 3 and comparison.arms[0]["win_rate"] >= comparison.arms[-1]["win_rate"]
    assert next(a for a in comparison.arms if a["strategy"] == "reference")["params"] == {"T": 4}

    readings = kiai.compare(TEAM, level="easy", games=300, strategy="reference",
                            readings={"heal": ["any", "wounded"]})  # fmt: skip
    printed = cli_json(capsys, "compare", "-s", ",".join(TEAM), "-d", "easy", "-n", 300, "--strategy", "reference",
                       "--rules", "heal=any,wounded")  # fmt: skip
    assert readings.mode == "rules" and readings.to_json() == printed


# -------------------------------------------------------------------------------- record, replay


def test_record_and_replay_round_trip(tmp_path):
    records = kiai.record(TEAM[:2], games=3, seed=5, strategy="reference")
    assert [r["game"] for r in records] == [0, 1, 2] and all(r["seed"] == 5 for r in records)
    path = kiai.record(TEAM[:2], games=3, seed=5, strategy="reference", out=tmp_path / "r.jsonl.gz")
    assert path == tmp_path / "r.jsonl.gz" and not list(tmp_path.glob("*.part"))
    checked = kiai.replay(path)
    assert checked.ok and checked.games == 3 and str(checked).startswith("3 games verified")
    assert kiai.replay(records).games == 3
    assert next(iter(kiai.records(TEAM[:2], game_index=2, seed=5, strategy="reference"))) == records[2]

    records[1]["result"]["families"] += 1  # a record that says something else than the game
    wrong = kiai.replay(records)
    assert not wrong.ok and wrong.games == 1
    assert wrong.divergence["game"] == 1 and wrong.divergence["where"] == "record 2"
    assert "diverges at" in str(wrong)


# ------------------------------------------------------------------------------------ strategies


def test_strategies_lists_them_and_marks_the_default(capsys):
    listed = kiai.strategies()
    assert listed == cli_json(capsys, "strategies")
    defaults = [s["name"] for s in listed if s["default"]]
    assert len(defaults) == 1 and "reference" in [s["name"] for s in listed]
    # the same name is still the package of the players
    assert kiai.strategies.registry.DEFAULT == defaults[0]
    assert "strategies" in kiai.__all__ and "simulate" in dir(kiai)


# ---------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize("call, argv", [
    (lambda: kiai.simulate(["kyuzo", "bob"]), ["simulate", "-s", "kyuzo,bob"]),
    (lambda: kiai.simulate(TEAM, level="nightmare"), ["simulate", "-s", ",".join(TEAM), "-d", "nightmare"]),
    (lambda: kiai.simulate(TEAM, games=0), ["simulate", "-s", ",".join(TEAM), "-n", "0"]),
    (lambda: kiai.simulate(TEAM, games=10**9), ["simulate", "-s", ",".join(TEAM), "-n", str(10**9)]),
    (lambda: kiai.simulate(TEAM, params={"T": "x"}, strategy="reference"),
     ["simulate", "--strategy", "reference", "--param", "T=x"]),
    (lambda: kiai.sweep(players=8), ["sweep", "--out", "{tmp}/s.parquet", "--players", "8"]),
    (lambda: kiai.sweep(lineups=["kyuzo,heihachi"], players=2),
     ["sweep", "--out", "{tmp}/s.parquet", "--lineup", "kyuzo,heihachi", "--players", "2"]),
    (lambda: kiai.compare(["kyuzo", "heihachi"]), ["compare", "--lineup", "kyuzo,heihachi"]),
    (lambda: kiai.compare(TEAM, strategies="reference,nope"), ["compare", "--strategies", "reference,nope"]),
    (lambda: kiai.record(TEAM, games=2, game_index=1), ["record", "-n", "2", "-i", "1"]),
    (lambda: kiai.sweep(preset="ladder", results="t.parquet"),
     ["sweep", "--out", "{tmp}/s.parquet", "--preset", "ladder", "--from", "t.parquet"]),
    (lambda: kiai.sweep(preset="advice"), ["sweep", "--out", "{tmp}/s.parquet", "--preset", "advice"]),
    (lambda: kiai.sweep(preset="advice", results="/no/such.parquet"),
     ["sweep", "--out", "{tmp}/s.parquet", "--preset", "advice", "--from", "/no/such.parquet"]),
    (lambda: kiai.sweep(preset="advice", results=NOT_A_TABLE),
     ["sweep", "--out", "{tmp}/s.parquet", "--preset", "advice", "--from", NOT_A_TABLE]),
    (lambda: kiai.sweep(preset="agreement"), ["sweep", "--out", "{tmp}/s.parquet", "--preset", "agreement"]),
    (lambda: kiai.sweep(preset="agreement", results=NOT_A_TABLE),
     ["sweep", "--out", "{tmp}/s.parquet", "--preset", "agreement", "--from", NOT_A_TABLE]),
])  # fmt: skip
def test_bad_input_raises_kiai_error_with_the_commands_message(capsys, tmp_path, call, argv):
    Path(NOT_A_TABLE).write_text("a,b\n1,2\n")
    with pytest.raises(kiai.KiaiError) as raised:
        call()
    assert isinstance(raised.value, ValueError)
    code, out, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and err == f"kiai: error: {raised.value}\n"


def test_a_value_of_the_wrong_kind_is_a_kiai_error():
    with pytest.raises(kiai.KiaiError, match="--games must be a whole number"):
        kiai.simulate(TEAM, games="many")
    with pytest.raises(kiai.KiaiError, match="progress must be"):
        kiai.simulate(TEAM, games=10, progress="yes")


# -------------------------------------------------------------------------------------- no clash


def test_a_folder_with_its_own_packages_of_those_names_does_not_shadow_kiai(tmp_path):
    for name in ("reports", "cli", "strategies", "simcore"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('the notebook folder\\'s own {name}')\n")
    code = textwrap.dedent("""
        import kiai
        result = kiai.simulate(["kyuzo", "kikuchiyo"], games=200)
        print(result.games, 0 <= result.win_rate <= 1)
        import reports  # the folder's own package is the one `import reports` finds
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.stdout.split() == ["200", "True"], done.stderr
    assert "the notebook folder's own reports" in done.stderr  # and it would have failed had kiai used it


def test_docs_api_describes_every_kiai_module_the_commands_use():
    """docs/api.md names each module of kiai/ that a command (cli/) imports: the commands use the
    API and nothing of kiai's that the API's page leaves out."""
    import ast

    root = Path(__file__).resolve().parent.parent
    used = set()
    for path in (root / "cli").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "kiai":  # from kiai import api
                used.update(f"kiai.{a.name}" for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kiai."):
                used.add(node.module)
            elif isinstance(node, ast.Import):
                used.update(a.name for a in node.names if a.name.startswith("kiai."))
    below = ("kiai.cli", "kiai.simcore", "kiai.strategies", "kiai.training", "kiai.reports")
    used = {m for m in used if not m.startswith(below) and ((root / (m.replace(".", "/") + ".py")).exists()
                                                             or (root / m.replace(".", "/") / "__init__.py").exists())}
    assert {"kiai.api", "kiai.progress", "kiai.inputs.checks"} <= used
    page = (root / "docs" / "api.md").read_text(encoding="utf-8")
    missing = sorted(m for m in used if f"`{m}" not in page and f"{m}." not in page)
    assert not missing, f"docs/api.md does not describe {missing}, which the commands use"
