"""House levels and corrected components with kiai's models (issue 50): a model is judged on the
component data its inputs read, not on the file's bytes; a house level plays its official family's
models; other cards play marked (--strict refuses them); data the inputs cannot hold is refused;
component files compared on the same deals; the balance search finds a planted answer."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from kiai.simcore.components import ComponentsError, default_components_path, load_components
from kiai.strategies.registry import get
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games
from conftest import one_line_error, run

pytestmark = pytest.mark.usefixtures("engine")

TEXT = default_components_path().read_text(encoding="utf-8")
STORED = json.loads((Path(__file__).parent / "data" / "digests.json").read_text())
SEED = 20261123  # tests/test_digests.py's
HOUSE = """
[difficulty.myeasy]
extra_barricades = 6
plunderers_per_samurai = 6
lieutenants = { per_samurai = 1, offset = -1 }
bosses = { per_samurai = 1, offset = -1 }
farmstead_penalties = false
family_bonuses = true

[difficulty.normal-4]
like = "normal"
extra_barricades = 3
plunderers_per_samurai = 7
lieutenants = { per_samurai = 1, offset = 0 }
bosses = { per_samurai = 1, offset = -1 }
farmstead_penalties = false
family_bonuses = true
"""
# the first doll plunderer of value 1 (no penalty) printed as a 2
CARD = '{ rank = "plunderer", value = 1, symbol = "doll", penalties = [], flames = false, count = 1 }'


def _file(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def noted(tmp_path_factory) -> Path:
    """The default component file with a comment line and two house levels."""
    return _file(tmp_path_factory.mktemp("house"), "noted.toml", TEXT + "\n# my note\n" + HOUSE)


def _model_cases() -> list[str]:
    """The stored digests of the strategies that play a shipped model (learned's, selfplay's
    values, judge's value)."""
    def plays_one(name):
        return name == "judge" or GameConfig(("kyuzo", "kikuchiyo"), "easy", name).uses_model

    return sorted(k for k in STORED["games"] if plays_one(k.split("|")[0]))


@pytest.mark.parametrize("key", _model_cases())
def test_a_comment_and_a_house_level_leave_every_model_playing_as_before(noted, key):
    """The stored games (tests/test_digests.py), bit for bit, under a copy of the component file
    with a comment and house levels: the models still play the official levels as before."""
    strategy, lineup, level, absent, games = key.split("|")
    s = get(strategy)
    params = {"samples": 2} if s.planner and "samples" in [p.name for p in s.params] and s.name != "foresight" else {}
    config = GameConfig(tuple(lineup.split(",")), level, strategy, params=params, absent_tokens=absent,
                        components=load_components(noted))
    assert config.components.sha256 != load_components().sha256
    rows = run_games(config, int(games), seed=SEED)
    assert hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest() == STORED["games"][key]
    if config.uses_model:
        assert "mark" not in config.describe()["model"]


def test_the_data_a_model_reads_is_not_the_files_bytes(noted, tmp_path):
    """Comments, house levels and the order of the cards leave the data's hash as it is; a changed
    card, Kiai value, family bonus order or official switch changes it."""
    own = load_components().data_sha256
    lines = TEXT.splitlines(keepends=True)
    cards = [i for i, line in enumerate(lines) if line.lstrip().startswith("{ rank =")]
    shuffled = list(lines)
    shuffled[cards[0]], shuffled[cards[-1]] = lines[cards[-1]], lines[cards[0]]
    assert load_components(noted).data_sha256 == own
    assert load_components(_file(tmp_path, "shuffled.toml", "".join(shuffled))).data_sha256 == own
    fams = '["heal_random", "add_barricade", "intruder_to_discard"]'
    for old, new in ((CARD, CARD.replace("value = 1", "value = 2")), ("kyuzo      = { human = 9,", "kyuzo      = { human = 10,"),
                     (fams, '["add_barricade", "heal_random", "intruder_to_discard"]'),
                     ("extra_barricades = 2\nplunderers_per_samurai = 7\nlieutenants = { per_samurai = 1, offset = 0 }\n"
                      "bosses = { per_samurai = 1, offset = 0 }\nfarmstead_penalties = false",
                      "extra_barricades = 2\nplunderers_per_samurai = 7\nlieutenants = { per_samurai = 1, offset = 0 }\n"
                      "bosses = { per_samurai = 1, offset = 0 }\nfarmstead_penalties = true")):
        assert old in TEXT, old
        assert load_components(_file(tmp_path, "changed.toml", TEXT.replace(old, new, 1))).data_sha256 != own, new


def test_a_house_level_plays_its_official_familys_models(noted, capsys):
    """like = "normal" plays normal's value; without `like`, the nearest official level by its
    settings (myeasy: easy's, three barricades away); one note line says so."""
    comp = load_components(noted)
    assert comp.family_level("normal-4") == "normal" and comp.family_level("myeasy") == "easy"
    four = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    d = GameConfig(four, "normal-4", components=comp).describe()
    assert Path(d["model"]["path"]).name == "selfplay-4-normal.npz" and d["model"]["family_level"] == "normal"
    assert "mark" not in d["model"]
    code, out, err = run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-d", "myeasy", "-n", 20, "--components", noted)
    assert code == 0 and "family value 2 samurai easy" in out
    assert [line for line in err.splitlines() if line.startswith("note:")] == [
        "note: house level myeasy is played with the models of easy (the nearest by its settings)"]
    code, _, err = run(capsys, "simulate", "-s", ",".join(four), "-d", "normal-4", "-n", 20, "--components", noted)
    assert code == 0 and 'house level normal-4 is played with the models of normal (its table says like = "normal")' in err


def test_like_names_an_official_level_of_a_house_level(tmp_path):
    for text, words in ((TEXT + HOUSE.replace('like = "normal"', 'like = "nightmare"'), "official level for like"),
                        (TEXT + HOUSE.replace('like = "normal"', "like = 3"), "official level for like"),
                        (TEXT.replace("[difficulty.easy]\n", '[difficulty.easy]\nlike = "normal"\n'),
                         "like is for a house level")):
        with pytest.raises(ComponentsError, match=words):
            load_components(_file(tmp_path, "bad.toml", text))


def test_a_changed_card_plays_marked_and_strict_refuses_it(tmp_path, capsys):
    """A card printed otherwise: selfplay plays it with one warning line, the result says 'model
    trained on other components' and records both data hashes; --strict refuses it in one line,
    before any game."""
    assert CARD in TEXT
    changed = _file(tmp_path, "card.toml", TEXT.replace(CARD, CARD.replace("value = 1", "value = 2"), 1))
    code, out, err = run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", 20, "--components", changed)
    assert code == 0 and "(model trained on other components)" in out.splitlines()[1]
    assert sum(line.startswith("warning:") for line in err.splitlines()) == 1
    code, out, _ = run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", 20, "--components", changed,
                       "--json")
    d = json.loads(out)
    assert d["components_data_sha256"] == load_components(changed).data_sha256
    assert d["model"]["components_data_sha256"] == load_components().data_sha256
    assert d["model"]["mark"] == "model trained on other components"
    one_line_error(*run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-d", "easy", "-n", 20, "--components", changed,
                        "--strict"), "made for other component data", "--strict refuses it")
    code, out, _ = run(capsys, "simulate", "-s", "kyuzo,kikuchiyo", "-n", 20, "--components", changed, "--strict",
                       "--strategy", "keeper")  # no model, nothing to refuse
    assert code == 0


def test_a_deck_the_models_cannot_read_is_refused(tmp_path, capsys):
    fams = 'families = ["heal_random", "add_barricade", "intruder_to_discard"]'
    four = _file(tmp_path, "four.toml", TEXT.replace(fams, fams[:-1] + ', "heal_random"]'))
    for strategy in ("selfplay", "learned"):
        one_line_error(*run(capsys, "simulate", "-n", 10, "--components", four, "--strategy", strategy),
                       "4 family tokens", "read 3 at most", "--strategy keeper")
    assert run(capsys, "simulate", "-n", 10, "--components", four, "--strategy", "keeper")[0] == 0


def test_compare_components_plays_each_file_on_the_same_deals(noted, tmp_path, capsys):
    """`kiai compare --components` gives each file the games `kiai simulate` gives it on the same
    indices; a copy with a comment wins the same games as the default (no discordant game)."""
    changed = _file(tmp_path, "card.toml", TEXT.replace(CARD, CARD.replace("value = 1", "value = 2"), 1))
    s, n = "kyuzo,kikuchiyo,heihachi", 300
    code, out, _ = run(capsys, "compare", "--components", f"default,{noted},{changed}", "-s", s, "-d", "normal",
                       "-n", n, "--json")
    assert code == 0
    j = json.loads(out)
    assert j["mode"] == "components" and len(j["files"]) == 3 and len(j["pairs"]) == 3
    wins = {r["label"]: r["wins"] for r in j["files"]}
    for label, path in (("default", None), (str(noted), noted), (str(changed), changed)):
        alone = run(capsys, "simulate", "-s", s, "-d", "normal", "-n", n, "--json",
                    *(("--components", path) if path else ()))
        assert json.loads(alone[1])["wins"] == wins[label]
    same = next(p for p in j["pairs"] if {p["a"], p["b"]} == {"default", str(noted)})
    assert same["discordant"] == [0, 0] and same["diff"] == 0
    marked = {r["label"]: r["mark"] for r in j["files"]}
    assert marked == {"default": None, str(noted): None, str(changed): "model trained on other components"}
    code, out, _ = run(capsys, "compare", "--components", f"default,{changed}", "-s", s, "-d", "normal", "-n", 50)
    assert code == 0 and out.startswith("component files on kyuzo,kikuchiyo,heihachi (seat 0 first) at normal")
    assert "p (Holm)" in out


def test_compare_components_plays_a_house_level_against_the_printed_one(noted, capsys):
    """FILE@LEVEL plays that file's level: a house level against the printed one, same deals."""
    s, n = "kyuzo,kikuchiyo,heihachi,daisuke", 200
    code, out, _ = run(capsys, "compare", "--components", f"default,{noted}@normal-4", "-s", s, "-d", "normal",
                       "-n", n, "--json")
    j = json.loads(out)
    levels = {r["label"]: (r["difficulty"], r["wins"]) for r in j["files"]}
    alone = run(capsys, "simulate", "-s", s, "-d", "normal-4", "--components", noted, "-n", n, "--json")
    assert code == 0 and levels[f"{noted}@normal-4"] == ("normal-4", json.loads(alone[1])["wins"])
    assert levels["default"][0] == "normal"


def test_the_report_compares_other_component_files_and_shows_its_own_elsewhere(tmp_path):
    """Rows of another component file go to the House rules section, paired with the report's own
    file's rows of the same configurations; the other sections count the own file's games only."""
    import pandas as pd

    from kiai.reports.page import house
    from kiai.reports.page.report import write_report
    from test_reports_report import LINEUPS, _row, _table

    own = _table(cheater=False)
    other = pd.DataFrame([{**_row("normal", lineup, wins=(100 - 10 * n + 7 * k) // 2), "components_sha256": "cd" * 32}
                          for n, lineups in LINEUPS.items() for k, lineup in enumerate(lineups)])
    df = pd.concat([own, other], ignore_index=True)
    assert house.main_components(df) == "ab" * 32 and house.of_main(df).sum() == len(own)
    files = house.compare_files(df, names={"cd" * 32: "mine.toml"})
    assert set(files["file"]) == {"mine.toml"} and set(files["difficulty"]) == {"normal"}
    three = files[files["n_samurai"] == 3].iloc[0]
    part = own[(own["difficulty"] == "normal") & (own["n_samurai"] == 3)]
    assert three["wins_main"] == part["wins"].sum() and three["wins_file"] == (part["wins"] // 2).sum()
    write_report(df, tmp_path / "with", components={"cd" * 32: "mine.toml"})
    write_report(own, tmp_path / "without")
    with_md = (tmp_path / "with" / "report.md").read_text()
    assert "### Other component files" in with_md and "| mine.toml | normal | 3 |" in with_md
    assert "Other component files" not in (tmp_path / "without" / "report.md").read_text()
    tables = sorted(p.name for p in (tmp_path / "without").glob("*.csv"))
    assert tables and sorted(p.name for p in (tmp_path / "with").glob("*.csv")) == sorted(tables + ["component_files.csv"])
    for name in tables:  # the other sections: the own file's games alone
        assert (tmp_path / "with" / name).read_text() == (tmp_path / "without" / name).read_text(), name
