"""Component data file loading and validation (docs/rules.md R-1, §1, §10)."""

import hashlib
import os
import re
import tomllib

import numpy as np
import pytest

from kiai.simcore import codes
from kiai.simcore.components import ComponentsError, default_components_path, load_components

DEFAULT = default_components_path()
TEXT = DEFAULT.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def comp():
    return load_components()


def write(tmp_path, text, name="bad.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def sub(old, new, count=1):
    """An edit of the default text; fails loudly if the default no longer contains `old`."""

    def edit(text):
        assert old in text, old
        return text.replace(old, new, count)

    return edit


def cut(start, end=None):
    """Remove the default text from `start` up to (not including) `end`, or to the end."""

    def edit(text):
        i = text.index(start)
        j = text.index(end, i) if end else len(text)
        return text[:i] + text[j:]

    return edit


def raiders_block(new):
    def edit(text):
        return re.sub(r"raiders = \[.*?\n\]", new, text, count=1, flags=re.S)

    return edit


# --- the default file -----------------------------------------------------------------------


def test_default_loads(comp):
    assert comp.path == str(DEFAULT.resolve())
    assert comp.sha256 == hashlib.sha256(DEFAULT.read_bytes()).hexdigest()
    assert comp.n_cards() == 66
    counts = np.bincount(comp.card_rank, minlength=3)
    assert counts.tolist() == [52, 7, 7]
    for arr in (comp.card_rank, comp.card_value, comp.card_symbol, comp.card_pen, comp.card_flame,
                comp.kiai, comp.farm_backs, comp.family_bonuses):
        assert arr.dtype == np.int32
        assert not arr.flags.writeable
    assert comp.card_pen.shape == (66, 2)
    assert comp.kiai.shape == (7, 2)
    assert comp.barricade_tokens == 10


def test_default_matches_file(comp):
    doc = tomllib.loads(TEXT)
    raiders = [r for r in doc["raiders"] for _ in range(r["count"])]
    for i, r in enumerate(raiders):
        assert codes.RANKS[comp.card_rank[i]] == r["rank"]
        assert comp.card_value[i] == r["value"]
        assert codes.SYMBOLS[comp.card_symbol[i]] == r["symbol"]
        pens = [codes.PENALTIES[p] for p in comp.card_pen[i] if p != codes.PEN_NONE]
        assert pens == r["penalties"]
        assert comp.card_flame[i] == int(r["flames"])
    for sid, name in enumerate(codes.SAMURAI):
        assert comp.kiai[sid].tolist() == [doc["samurai"][name]["human"], doc["samurai"][name]["animal"]]
    assert comp.kiai[codes.KIKUCHIYO].tolist() == [10, 13]
    assert [codes.FARMSTEAD_BACKS[b] for b in comp.farm_backs] == doc["farmsteads"]
    assert [codes.FAMILY_BONUSES[b] for b in comp.family_bonuses] == doc["families"]
    # Boss penalties keep the order written in the file (R-6 lets the strategy reorder).
    last = comp.card_pen[-1].tolist()
    assert last == [codes.PEN_WOUND, codes.PEN_NO_TALENT]


@pytest.mark.parametrize(
    "level, extra, plunderers, fewer, farm_pen, fam_bonus",
    [
        ("easy", 3, 6, 1, False, True),
        ("normal", 2, 7, 0, False, True),
        ("hard", 1, 7, 0, True, True),
        ("heroic", 0, 7, 0, True, False),
    ],
)
def test_levels_match_rules_section_10(comp, level, extra, plunderers, fewer, farm_pen, fam_bonus):
    lv = comp.levels[level]
    assert lv.name == level
    for n in range(2, 8):
        assert lv.barricades(n) == n + extra
        assert lv.plunderers(n) == plunderers * n
        assert lv.lieutenants(n) == n - fewer
        assert lv.bosses(n) == n - fewer
        comp.check_setup(level, n)
    assert lv.farmstead_penalties is farm_pen
    assert lv.family_bonuses is fam_bonus


def test_default_is_cached(comp):
    assert load_components() is comp
    assert load_components(DEFAULT) is comp


def test_edited_file_is_reloaded(tmp_path):
    p = write(tmp_path, TEXT, "c.toml")
    first = load_components(p)
    p.write_text(TEXT.replace("barricade_tokens = 10", "barricade_tokens = 12"), encoding="utf-8")
    os.utime(p, ns=(1, 1))
    assert load_components(p).barricade_tokens == 12
    assert first.barricade_tokens == 10


def test_house_level_and_count(tmp_path):
    text = sub('rank = "plunderer", value = 1, symbol = "doll", penalties = [], flames = false, count = 1',
               'rank = "plunderer", value = 1, symbol = "doll", penalties = [], flames = false, count = 3')(TEXT)
    text += (
        "\n[difficulty.samurai_spirit]\nextra_barricades = -1\nplunderers_per_samurai = 7\n"
        "lieutenants = { per_samurai = 2, offset = -2 }\nbosses = { per_samurai = 0, offset = 3 }\n"
        "farmstead_penalties = true\nfamily_bonuses = false\n"
    )
    comp = load_components(write(tmp_path, text, "house.toml"))
    assert comp.n_cards() == 68
    assert comp.card_value[:3].tolist() == [1, 1, 1]
    lv = comp.levels["samurai_spirit"]
    assert (lv.barricades(4), lv.lieutenants(4), lv.bosses(4)) == (3, 6, 3)
    assert lv.lieutenants(0) == 0  # never negative
    comp.check_setup("samurai_spirit", 3)
    with pytest.raises(ComponentsError, match="lieutenant"):
        comp.check_setup("samurai_spirit", 5)


# --- check_setup ----------------------------------------------------------------------------


def _setup_error(tmp_path, text, level, n):
    comp = load_components(write(tmp_path, text, "setup.toml"))
    with pytest.raises(ComponentsError) as e:
        comp.check_setup(level, n)
    msg = str(e.value)
    assert "\n" not in msg and "setup.toml" in msg
    return msg


def test_setup_too_few_plunderers(tmp_path):
    text = sub("plunderers_per_samurai = 7", "plunderers_per_samurai = 8")(TEXT)
    comp = load_components(write(tmp_path, text, "setup.toml"))
    comp.check_setup("normal", 6)  # 48 of 52
    msg = _setup_error(tmp_path, text, "normal", 7)
    assert "difficulty.normal" in msg and "56 plunderer" in msg and "52" in msg


def test_setup_too_few_bosses(tmp_path):
    text = cut('  { rank = "boss", value = 6, symbol = "doll"', '  { rank = "boss", value = 6, symbol = "farm"')(TEXT)
    load_components(write(tmp_path, text, "setup.toml")).check_setup("heroic", 6)
    assert "boss" in _setup_error(tmp_path, text, "heroic", 7)


def test_setup_too_few_barricade_tokens(tmp_path):
    text = sub("barricade_tokens = 10", "barricade_tokens = 6")(TEXT)
    assert "barricade" in _setup_error(tmp_path, text, "easy", 4)


def test_setup_two_samurai_needs_dolls(tmp_path):
    lines = [
        line.replace('symbol = "doll"', 'symbol = "hat"') if '"plunderer"' in line else line
        for line in TEXT.splitlines()
    ]
    text = "\n".join(lines)
    load_components(write(tmp_path, text, "setup.toml")).check_setup("normal", 3)
    assert "doll" in _setup_error(tmp_path, text, "normal", 2)


@pytest.mark.parametrize("level, n, word", [("legendary", 4, "heroic"), ("normal", 1, "2-7"),
                                             ("normal", 8, "2-7"), ("normal", True, "2-7")])
def test_setup_bad_request(comp, level, n, word):
    with pytest.raises(ComponentsError, match=re.escape(word)):
        comp.check_setup(level, n)


# --- bad files --------------------------------------------------------------------------------

P51 = '{ rank = "plunderer", value = 4, symbol = "none"'
L52 = '{ rank = "lieutenant", value = 5, symbol = "doll"'
FIRST = 'symbol = "doll", penalties = [], flames = false, count = 1 }'
BOSS2 = 'penalties = ["barricade", "barricade"]'
KIKU = "kikuchiyo  = { human = 10, animal = 13 }"
EASY = "[difficulty.easy]\n"

BAD = {
    # top level
    "schema-missing": (sub("schema = 1\n", ""), "schema", "missing"),
    "schema-2": (sub("schema = 1", "schema = 2"), "schema", "not supported"),
    "schema-bool": (sub("schema = 1", "schema = true"), "schema", "not supported"),
    "unknown-top": (sub("schema = 1\n", "schema = 1\ncolour = 'red'\n"), "colour", "unknown"),
    "no-farmsteads": (cut("farmsteads = [", "\n# Family"), "farmsteads", "missing"),
    "no-families": (cut("families = [", "\nbarricade_tokens"), "families", "missing"),
    "no-barricades": (sub("barricade_tokens = 10\n", ""), "barricade_tokens", "missing"),
    "no-raiders": (raiders_block(""), "raiders", "missing"),
    "no-samurai": (cut("[samurai]", "# Setup per level"), "samurai", "missing"),
    "no-difficulty": (cut("[difficulty.easy]"), "difficulty", "missing"),
    # farmsteads, families
    "farm-empty": (sub("farmsteads = [", "farmsteads = [] #"), "farmsteads", "entries"),
    "farm-13": (sub("farmsteads = [", "farmsteads = [" + '"random_wound", ' * 7), "farmsteads", "13"),
    "farm-name": (sub("farmsteads = [", 'farmsteads = ["lose_cow", '), "farmsteads[0]", "lose_cow"),
    "farm-string": (sub("farmsteads = [", 'farmsteads = "lose_family" #'), "farmsteads", "array"),
    "fam-name": (sub("families = [", 'families = ["free_rice", '), "families[0]", "free_rice"),
    "fam-empty": (sub("families = [", "families = [] #"), "families", "entries"),
    "fam-9": (sub("families = [", "families = [" + '"heal_random", ' * 6), "families", "9"),
    # barricade tokens
    "tokens-bool": (sub("barricade_tokens = 10", "barricade_tokens = true"), "barricade_tokens", "integer"),
    "tokens-float": (sub("barricade_tokens = 10", "barricade_tokens = 10.0"), "barricade_tokens", "integer"),
    "tokens-0": (sub("barricade_tokens = 10", "barricade_tokens = 0"), "barricade_tokens", "range"),
    "tokens-31": (sub("barricade_tokens = 10", "barricade_tokens = 31"), "barricade_tokens", "range"),
    # raiders
    "raiders-empty": (raiders_block("raiders = []"), "raiders", "empty"),
    "raider-int": (raiders_block("raiders = [1]"), "raiders[0]", "table"),
    "raider-unknown-key": (sub(FIRST, FIRST[:-2] + ', colour = "red" }'), "raiders[0]", "colour"),
    "raider-missing-key": (sub(FIRST, FIRST.replace(", count = 1", "")), "raiders[0]", "count"),
    "rank-unknown": (sub('rank = "plunderer"', 'rank = "captain"'), "raiders[0]", "captain"),
    "rank-int": (sub('rank = "plunderer"', "rank = 1"), "raiders[0]", "integer 1"),
    "value-plunderer-5": (sub(P51, P51.replace("4", "5")), "raiders[51]", "value 5 is not allowed"),
    "value-lieutenant-6": (sub(L52, L52.replace("5", "6")), "raiders[52]", "lieutenant"),
    "value-bool": (sub("value = 1", "value = true"), "raiders[0]", "integer"),
    "symbol-unknown": (sub('symbol = "doll"', 'symbol = "sword"'), "raiders[0]", "sword"),
    "penalty-unknown": (sub('["intruder"]', '["arson"]'), "raiders[1]", "arson"),
    "penalty-none": (sub('["intruder"]', '["none"]'), "raiders[1]", "none"),
    "penalty-boss-only": (sub('["intruder"]', '["must_pass"]'), "raiders[1]", "bosses"),
    "penalty-two-plunderer": (sub('["intruder"]', '["intruder", "wound"]'), "raiders[1]", "at most 1"),
    "penalty-three-boss": (sub(BOSS2, BOSS2[:-1] + ', "wound"]'), "raiders[60]", "at most 2"),
    "penalty-string": (sub('penalties = ["intruder"]', 'penalties = "intruder"'), "raiders[1]", "array"),
    "flames-int": (sub("flames = false", "flames = 0"), "raiders[0]", "true or false"),
    "count-0": (sub("count = 1", "count = 0"), "raiders[0]", "range"),
    "count-bool": (sub("count = 1", "count = true"), "raiders[0]", "integer"),
    "count-cap": (sub("count = 1", "count = 64"), "raiders[65]", "128"),
    # samurai
    "samurai-missing": (sub("kyuzo      = { human = 9,  animal = 12 }\n", ""), "samurai", "kyuzo"),
    "samurai-unknown": (sub("[samurai]\n", "[samurai]\nmusashi = { human = 9, animal = 12 }\n"), "samurai", "musashi"),
    "samurai-not-table": (sub(KIKU, "kikuchiyo = 10"), "samurai.kikuchiyo", "table"),
    "samurai-extra-key": (sub(KIKU, "kikuchiyo = { human = 10, animal = 13, talent = 1 }"), "samurai.kikuchiyo", "talent"),
    "samurai-no-animal": (sub(KIKU, "kikuchiyo = { human = 10 }"), "samurai.kikuchiyo", "animal"),
    "animal-below-human": (sub(KIKU, "kikuchiyo = { human = 10, animal = 9 }"), "samurai.kikuchiyo", "below"),
    "human-0": (sub(KIKU, "kikuchiyo = { human = 0, animal = 9 }"), "samurai.kikuchiyo", "range"),
    "human-31": (sub(KIKU, "kikuchiyo = { human = 10, animal = 31 }"), "samurai.kikuchiyo", "range"),
    "human-string": (sub(KIKU, 'kikuchiyo = { human = "10", animal = 13 }'), "samurai.kikuchiyo", "integer"),
    # difficulty
    "level-missing": (cut("[difficulty.heroic]"), "difficulty", "heroic"),
    "difficulty-int": (lambda text: sub("schema = 1\n", "schema = 1\ndifficulty = 3\n")(cut(EASY)(text)),
                       "difficulty", "table"),
    "level-not-table": (sub("[samurai]", "[difficulty]\nlegend = 3\n[samurai]"), "difficulty.legend", "table"),
    "level-unknown-key": (sub(EASY, EASY + "extra_wounds = 1\n"), "difficulty.easy", "extra_wounds"),
    "level-missing-key": (sub("family_bonuses = true\n", ""), "difficulty.easy", "family_bonuses"),
    "extra-barricades-11": (sub("extra_barricades = 3", "extra_barricades = 11"), "difficulty.easy", "range"),
    "extra-barricades-neg": (sub("extra_barricades = 3", "extra_barricades = -8"), "difficulty.easy", "range"),
    "plunderers-0": (sub("plunderers_per_samurai = 6", "plunderers_per_samurai = 0"), "difficulty.easy", "range"),
    "plunderers-21": (sub("plunderers_per_samurai = 6", "plunderers_per_samurai = 21"), "difficulty.easy", "range"),
    "per-samurai-4": (sub("lieutenants = { per_samurai = 1", "lieutenants = { per_samurai = 4"),
                      "difficulty.easy.lieutenants", "range"),
    "offset-8": (sub("bosses = { per_samurai = 1, offset = -1 }", "bosses = { per_samurai = 1, offset = 8 }"),
                 "difficulty.easy.bosses", "range"),
    "offset-missing": (sub("bosses = { per_samurai = 1, offset = -1 }", "bosses = { per_samurai = 1 }"),
                       "difficulty.easy.bosses", "offset"),
    "adds-unknown-key": (sub("offset = -1 }", "offset = -1, min = 0 }"), "difficulty.easy.lieutenants", "min"),
    "adds-not-table": (sub("bosses = { per_samurai = 1, offset = -1 }", "bosses = 1"),
                       "difficulty.easy.bosses", "table"),
    "farm-pen-int": (sub("farmstead_penalties = false", "farmstead_penalties = 0"), "difficulty.easy", "true or false"),
    "fam-bonus-str": (sub("family_bonuses = true", 'family_bonuses = "yes"'), "difficulty.easy", "true or false"),
    # syntax
    "toml-syntax": (sub("schema = 1", "schema = = 1"), "syntax", "line"),
    "toml-duplicate": (sub("schema = 1", "schema = 1\nschema = 1"), "syntax", "line"),
}


def check_message(err, path, entry, word):
    msg = str(err.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: {entry}"), msg
    assert word in msg, msg


@pytest.mark.parametrize("edit, entry, word", list(BAD.values()), ids=list(BAD))
def test_bad_file(tmp_path, edit, entry, word):
    p = write(tmp_path, edit(TEXT))
    with pytest.raises(ComponentsError) as e:
        load_components(p)
    check_message(e, p, entry, word)


def test_missing_file(tmp_path):
    p = tmp_path / "nowhere.toml"
    with pytest.raises(ComponentsError) as e:
        load_components(p)
    check_message(e, p, "file", "cannot read")


def test_directory(tmp_path):
    p = tmp_path / "dir.toml"
    p.mkdir()
    with pytest.raises(ComponentsError) as e:
        load_components(str(p))
    check_message(e, p, "file", "cannot read")


def test_not_utf8(tmp_path):
    p = tmp_path / "latin.toml"
    p.write_bytes(TEXT.replace("# Samurai Spirit", "# Samura\xef Spirit").encode("latin-1"))
    with pytest.raises(ComponentsError) as e:
        load_components(p)
    check_message(e, p, "file", "UTF-8")


def test_error_is_value_error():
    assert issubclass(ComponentsError, ValueError)
