"""The report's first screen: the grid "At a glance" and the form "Your table" (reports/page/glance.py,
your_table.py and your_table.js), driven in headless Chromium as a group would use them: tick the
samurai, pick a level, read the answer, and check it against the report's own CSV rows.

The browser tests run on pytest-playwright's `page` fixture with the system's Chromium
(tests/conftest.py: left out without them, failing under KIAI_REQUIRE_BROWSER=1); the others run
anywhere."""

from __future__ import annotations

import json
import re
import shlex

import numpy as np
import pandas as pd
import pytest

import browser as harness  # tests/browser.py
from kiai.reports.findings import advice
from kiai.reports.findings.in_short import seating_sentence
from kiai.reports.findings.wording import fmt_ci, fmt_pct
from kiai.reports.page import glance, your_table
from kiai.reports.page.report import write_report
from kiai.simcore.seatings import all_lineups, distinct_seatings, lineup_key
from kiai.strategies.registry import DEFAULT

SEED = 3
SEATED = ("heihachi", "daisuke", "kanbei", "kikuchiyo")  # every seating played at Easy
FEW = 40  # the strongest player's games per line-up of 3 samurai: too few to show
READINGS = (("easy", ("daisuke", "kanbei"), "penalty=once", 380), ("easy", ("daisuke", "kanbei"), "heal=wounded", 300),
            ("easy", ("gorobei", "kyuzo"), "heal=wounded", 310), ("normal", ("heihachi", "daisuke", "gorobei"), "heal=wounded", 90))


def _row(level, seating, wins, games, strategy=DEFAULT):
    losses = games - wins
    death, farms = losses // 2, losses // 3
    r1, r2 = losses // 6, losses // 3
    return {"difficulty": level, "n_samurai": len(seating), "lineup": lineup_key(seating), "seating": ",".join(seating),
            "strategy": strategy, "honest": True, "params": "{}", "absent_tokens": len(seating) == 2,
            "rules": "default", "games": games, "wins": wins, "out_win": wins, "out_death": death,
            "out_farmsteads": farms, "out_families": losses - death - farms, "lost_round_1": r1,
            "lost_round_2": r2, "lost_round_3": losses - r1 - r2, "seed": SEED}


def _table() -> pd.DataFrame:
    """Every line-up of 2 to 4 samurai at Easy and Normal, every seating of one 4-samurai line-up at
    Easy, and kiai's strongest player (judge for 2 to 4) at Easy: enough games with 2 samurai, too
    few with 3."""
    rng = np.random.default_rng(5)
    rows = []
    for level, base in (("easy", 0.7), ("normal", 0.4)):
        for n in (2, 3, 4):
            for k, lineup in enumerate(all_lineups(n)):
                rows.append(_row(level, lineup, int(rng.binomial(400, base - 0.12 * (n - 2) + 0.004 * k)), 400))
    for seating in distinct_seatings(SEATED)[1:]:  # the first, the line-up's own order, is in the grid
        rows.append(_row("easy", seating, int(rng.binomial(400, 0.4)), 400))
    # rule readings, on the seed and seatings of the rules' own rows: the penalty paid once (V-2) on
    # one line-up of 2 at Easy, the heal of the wounded (V-1) on two of 2 at Easy and one of 3 at Normal
    for level, names, rules, wins in READINGS:
        rows.append({**_row(level, names, wins, 400), "rules": rules})
    for n, games in ((2, 150), (3, FEW)):
        for lineup in all_lineups(n):
            rows.append(_row("easy", lineup, int(rng.binomial(games, 0.75 - 0.1 * n)), games, strategy="judge"))
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("page")
    write_report(_table(), out, title="form test")
    return out


def _csv_row(report, level, names):
    rows = pd.read_csv(report / "lineups.csv")
    hit = rows[(rows["level"] == level) & (rows["lineup"] == lineup_key(names))]
    assert len(hit) == 1
    return hit.iloc[0]


def _rate_text(row) -> str:
    return (f"{fmt_pct(row['wins'] / row['games'])} ({int(row['wins']):,} of {int(row['games']):,} games; "
            f"95% interval {fmt_ci(row['ci_low'], row['ci_high'])})")


def _data(report) -> dict:
    text = (report / "report.html").read_text()
    found = re.search(r'<script type="application/json" id="your-table-data">(.*?)</script>', text, re.S)
    return json.loads(found.group(1))


# ------------------------------------------------------------------- without a browser


def test_form_data_are_the_csv_rows(report):
    data = _data(report)
    rows = pd.read_csv(report / "lineups.csv")
    assert len(data["lineups"]) == len(rows)
    for r in rows.itertuples():
        mine = data["lineups"][f"{r.level}|{r.lineup}"]
        assert (mine["wins"], mine["games"]) == (round(r.wins), round(r.games))
        assert mine["lo"] == pytest.approx(r.ci_low, abs=1e-5) and mine["hi"] == pytest.approx(r.ci_high, abs=1e-5)
        assert 1 <= mine["rank"][0] <= mine["rank"][1] <= mine["of"]


def test_rank_is_a_range_where_intervals_overlap():
    part = pd.DataFrame({"rate": [0.5, 0.48, 0.2], "lo": [0.45, 0.43, 0.15], "hi": [0.55, 0.53, 0.25]})
    ranked = your_table.rank_range(part)
    assert ranked[["rank_best", "rank_worst"]].values.tolist() == [[1, 2], [1, 2], [3, 3]]


def test_a_best_seating_is_named_only_when_it_stands_out():
    def seatings(wins):
        return pd.DataFrame({"seating": [f"s{i}" for i in range(len(wins))], "wins": wins,
                             "games": [1000] * len(wins)}).assign(rate=lambda d: d["wins"] / d["games"])

    assert advice.seating_verdict(seatings([700, 400, 410, 395]))["best"] == "s0"
    # 720 seatings of one rate: the luckiest is no advice
    noisy = seatings(list(np.random.default_rng(1).binomial(1000, 0.3, size=720)))
    assert advice.seating_verdict(noisy.sort_values("rate", ascending=False))["best"] is None


def test_in_short_names_no_seating_that_does_not_stand_out():
    best = pd.Series({"seating": "heihachi,daisuke,gorobei", "wins": 9, "games": 250})
    worst = pd.Series({"seating": "heihachi,gorobei,daisuke", "wins": 0, "games": 250})
    sa = {"seatings": 720, "expected": 720, "separated": True, "best": best, "worst": worst, "diff": 0.036,
          "lo": 0.013, "hi": 0.067, "p": 0.036}
    assert "sit heihachi" in seating_sentence({**sa, "stands_out": True}, 3, "easy", "heihachi,daisuke,gorobei")
    text = seating_sentence({**sa, "stands_out": False}, 3, "easy", "heihachi,daisuke,gorobei")
    assert "no seating stands out" in text and "sit " not in text


def test_glance_shows_a_strongest_within_noise_as_such():
    default = pd.Series({"rate": 0.05})
    assert glance.strong_cell(default, pd.Series({"rate": 0.03, "lo": 0.0, "hi": 0.08})) == glance.NOISE
    assert glance.strong_cell(default, pd.Series({"rate": 0.2, "lo": 0.15, "hi": 0.25})) == "20.0%"
    assert glance.strong_cell(default, None) == ""


def test_page_opens_with_the_grid_and_the_form(report):
    text = (report / "report.html").read_text()
    body = text[text.index("<body>"):]
    assert body.index('id="at-a-glance"') < body.index('id="your-table-form"') < body.index('id="in-short"')
    assert body.count('<tr><th scope="row">') == 3  # 2, 3 and 4 samurai
    md = (report / "report.md").read_text()
    assert "## At a glance" in md and "## Your table" in md


def test_page_data_and_script_stay_small(report):
    text = (report / "report.html").read_text()
    added = len(re.search(r'<form id="your-table-form".*?</script><script>.*?</script>', text, re.S).group(0))
    assert added < 1_500_000


# ------------------------------------------------------------------------- in Chromium


def _answer(page) -> str:
    return page.inner_text("#your-answer")


def test_ticking_a_table_answers_from_the_csv(report, page):
    names = ("kanbei", "kikuchiyo", "heihachi", "daisuke")
    harness.load(page, report / "report.html", 1400)
    for name in names:
        page.check(f'input[name="samurai"][value="{name}"]')
    page.select_option('select[name="level"]', "normal")
    text = _answer(page)
    assert _rate_text(_csv_row(report, "normal", names)) in text
    assert page.evaluate("location.hash") == "#table=kanbei,kikuchiyo,heihachi,daisuke&level=normal"
    assert "Rank: " in text and " of 35 line-ups of 4 at Normal" in text
    # the seatings were played at Easy only: the command that plays them at Normal
    assert "kiai compare -s kanbei,kikuchiyo,heihachi,daisuke -d normal" in text
    page.select_option('select[name="level"]', "easy")
    text = _answer(page)
    assert _rate_text(_csv_row(report, "easy", names)) in text
    assert "seatings played" in text and "yours, Kanbei, Kikuchiyo, Heihachi, Daisuke:" in text
    assert harness.measure_page(page)["errors"] == []


def test_the_win_rate_is_the_typed_seatings_own_or_says_whose_it_is(report, page):
    """The answer's heading names the seating as typed: where the report played that seating, the
    win rate under it is that seating's own, with its interval; where it did not, the answer names
    the seating whose rate it shows."""
    from kiai.simcore.stats import proportion_ci_arrays

    typed = ("heihachi", "kanbei", "daisuke", "kikuchiyo")  # a seating of SEATED, not its own order
    rows = _table()
    row = rows[(rows["difficulty"] == "easy") & (rows["seating"] == ",".join(typed))].iloc[0]
    lo, hi, _ = proportion_ci_arrays([row["wins"]], [row["games"]])
    own = (f"{fmt_pct(row['wins'] / row['games'])} ({row['wins']:,} of {row['games']:,} games; "
           f"95% interval {fmt_ci(lo[0], hi[0])}), seated as you typed")
    harness.load(page, report / "report.html", 1400, fragment="#table=" + ",".join(typed) + "&level=easy")
    text = _answer(page)
    assert f"Win rate: {own}; the line-up seated Heihachi, Daisuke, Kanbei, Kikuchiyo" in text, text
    assert " of 35 line-ups of 4 at Easy, seated Heihachi, Daisuke, Kanbei, Kikuchiyo" in text  # the rank's seating
    # the words are the JSON's, worded in Python (your_table.whose): the script only shows them
    whose = {lv: _data(report)["lineups"][f"{lv}|{lineup_key(typed)}"]["whose"] for lv in ("easy", "normal")}
    assert f"Win rate: {own.removesuffix(', seated as you typed')}{whose['easy']['played']}\n" in text, text
    harness.load(page, report / "report.html", 1400, fragment="#table=" + ",".join(typed) + "&level=normal")
    text = _answer(page)
    assert (f"Win rate: {_rate_text(_csv_row(report, 'normal', typed))}, seated Heihachi, Daisuke, Kanbei, "
            "Kikuchiyo: the seating the report played, not yours") in text, text
    assert f"Win rate: {_rate_text(_csv_row(report, 'normal', typed))}{whose['normal']['other']}\n" in text
    # the seating the line-up's figures are of, typed: its figure with no words of whose it is
    harness.load(page, report / "report.html", 1400, fragment="#table=" + ",".join(SEATED) + "&level=easy")
    assert f"Win rate: {_rate_text(_csv_row(report, 'easy', SEATED))}\n" in _answer(page)
    assert harness.measure_page(page)["errors"] == []


def test_shared_link_fills_the_form_and_answers(report, page):
    link = "#table=daisuke,kanbei&level=easy"
    harness.load(page, report / "report.html", 1400, fragment=link)
    ticked = page.eval_on_selector_all('input[name="samurai"]:checked', "els => els.map(e => e.value)")
    assert sorted(ticked) == ["daisuke", "kanbei"]
    assert page.input_value('select[name="level"]') == "easy"
    text = _answer(page)
    assert _rate_text(_csv_row(report, "easy", ("daisuke", "kanbei"))) in text
    data = _data(report)["strongest"]["easy|daisuke,kanbei"]
    assert f"kiai's strongest player: {fmt_pct(data['wins'] / data['games'])}" in text
    assert "Kanbei " in text and " pp (" in text  # each member's effect
    assert "V-2 a card's penalty paid once (penalty=once) 95.0% (380 of 400)" in text
    row = _csv_row(report, "easy", ("daisuke", "kanbei"))
    lost = int(row["games"] - row["wins"])
    assert f"{lost:,} lost: {lost // 2:,} by death, {lost // 3:,} by farmsteads" in text  # as _row wrote them


def test_strongest_on_too_few_games_says_so(report, page):
    harness.load(page, report / "report.html", 1400, fragment="#table=gorobei,kyuzo,kanbei&level=easy")
    text = _answer(page)
    assert f"too few games to say ({FEW} played" in text
    assert "kiai simulate -s gorobei,kyuzo,kanbei -d easy -n 2000 --strategy strongest --seed 3" in text


def test_printed_commands_parse(report, page):
    """The commands the form prints for what the report did not play are valid `kiai` command lines."""
    import typer

    try:  # typer >= 0.2x ships its own copy of click (as cli/main.py)
        from typer._click import exceptions as cx
    except ImportError:  # pragma: no cover - older typer on plain click
        import click.exceptions as cx

    from kiai.cli.main import app

    harness.load(page, report / "report.html", 1400, fragment="#table=kyuzo,kanbei,gorobei,daisuke,heihachi&level=hard")
    commands = page.eval_on_selector_all("#your-answer code.command", "els => els.map(e => e.textContent)")
    assert commands and all(c.startswith("kiai simulate ") for c in commands)
    for link in ("#table=kyuzo,kanbei,gorobei&level=normal", "#table=gorobei,kyuzo&level=hard&rules=V-2"):
        harness.load(page, report / "report.html", 1400, fragment=link)
        commands += page.eval_on_selector_all("#your-answer code.command", "els => els.map(e => e.textContent)")
    assert any(c.startswith("kiai compare ") for c in commands)
    assert any("--rule penalty=once" in c for c in commands) and any("--rules penalty=" in c for c in commands)
    group = typer.main.get_command(app)

    def parse(command: str) -> None:
        name, *args = shlex.split(command)[1:]
        with group.make_context("kiai", [name]) as ctx:
            sub = group.get_command(ctx, name)
            assert sub is not None, command
            sub.make_context(name, args, parent=ctx)  # parses and checks every option; runs nothing

    for command in commands:
        parse(command)
    with pytest.raises(cx.UsageError):
        parse(commands[0] + " --no-such-option")  # the parse is a real check


def _reading_row(report, rules, level, names):
    rows = pd.read_csv(report / "house_rules_lineups.csv")
    hit = rows[(rows["rules"] == rules) & (rows["level"] == level) & (rows["lineup"] == lineup_key(names))]
    assert len(hit) == 1
    return hit.iloc[0]


def _readings_offered(page) -> list[str]:
    return page.eval_on_selector_all('select[name="rules"] option', "els => els.map(e => e.value)")


def test_picking_a_rule_reading_answers_from_its_rows(report, page):
    """Only the readings played at the level and team size are offered; the answer is the reading's
    row of house_rules_lineups.csv, and a reading not played for the line-up gets its commands."""
    harness.load(page, report / "report.html", 1400)
    assert _readings_offered(page) == [""]  # nothing ticked: the rules' own only
    for name in ("daisuke", "kanbei"):
        page.check(f'input[name="samurai"][value="{name}"]')
    page.select_option('select[name="level"]', "easy")
    assert _readings_offered(page) == ["", "V-1", "V-2"]
    page.select_option('select[name="rules"]', "V-2")
    text = _answer(page)
    row = _reading_row(report, "penalty=once", "easy", ("daisuke", "kanbei"))
    assert f"Win rate under V-2: {_rate_text(row)}" in text
    own = f"{fmt_pct(row['rate_default'])} ({int(row['wins_default']):,} of {int(row['games_default']):,})"
    assert f"under the rules' own reading, on the same seed (its first games are the same deals): {own}" in text
    assert "only on Daisuke, Kanbei at Easy" in text
    assert page.evaluate("location.hash") == "#table=daisuke,kanbei&level=easy&rules=V-2"
    # V-2 was played at Easy only: at Hard it stays picked, and the commands answer it
    page.select_option('select[name="level"]', "hard")
    assert page.input_value('select[name="rules"]') == "V-2"
    assert "(not played here)" in page.inner_text('select[name="rules"]')
    text = _answer(page)
    assert "not played by the report for this line-up at Hard" in text
    assert "kiai simulate -s daisuke,kanbei -d hard -n 2000 --rule penalty=once --seed 3" in text
    assert "kiai compare -s daisuke,kanbei -d hard -n 1000 --rules penalty=every-turn,once --seed 3" in text
    # back to the rules' own at Easy: the whole answer, with the readings' figures listed
    page.select_option('select[name="level"]', "easy")
    page.select_option('select[name="rules"]', "")
    assert page.evaluate("location.hash") == "#table=daisuke,kanbei&level=easy"
    text = _answer(page)
    assert "Rank: " in text and "V-2 a card's penalty paid once (penalty=once) 95.0% (380 of 400)" in text
    assert harness.measure_page(page)["errors"] == []


def test_shared_link_keeps_the_rule_reading(report, page):
    link = "#table=heihachi,daisuke,gorobei&level=normal&rules=V-1"
    harness.load(page, report / "report.html", 1400, fragment=link)
    assert page.input_value('select[name="rules"]') == "V-1"
    assert _readings_offered(page) == ["", "V-1"]  # V-2 was played with 2 samurai only
    row = _reading_row(report, "heal=wounded", "normal", ("heihachi", "daisuke", "gorobei"))
    assert f"Win rate under V-1: {_rate_text(row)}" in _answer(page)


@pytest.mark.parametrize("link, words", [
    ("#table=kanbei,bob&level=normal", "unknown samurai 'bob'"),
    ("#table=kanbei,kyuzo&level=legendary", "unknown level 'legendary'"),
    ("#table=kanbei&level=easy", "a table seats 2 to 7 samurai, the link names 1"),
    ("#table=kanbei,kyuzo&level=easy&rules=V-9", "unknown rule reading 'V-9' (known: V-1, V-2, V-3, V-4, V-5"),
])
def test_a_bad_link_says_why(report, page, link, words):
    harness.load(page, report / "report.html", 1400, fragment=link)
    assert words in _answer(page)
    assert "error" in page.get_attribute("#your-answer", "class")
    assert harness.measure_page(page)["errors"] == []


@pytest.mark.parametrize("width", harness.WIDTHS)
def test_layout_fits_every_window(report, page, width):
    """No element wider than the window (a wide table scrolls in its own box) with an answer shown,
    and at a phone's width the answer sits right under the form."""
    harness.load(page, report / "report.html", width, fragment="#table=kanbei,kyuzo,gorobei,daisuke&level=easy")
    problems = harness.problems_from(harness.measure_page(page))
    form, answer = page.locator("#your-table-form").bounding_box(), page.locator("#your-answer").bounding_box()
    assert problems == [], "\n".join(problems)
    assert 0 <= answer["y"] - (form["y"] + form["height"]) < 40


def _follow(page, fragment: str) -> None:
    """Follow a link to `fragment` on the open page (no reload), once the form has read it."""
    page.evaluate("""f => new Promise(done => {
        window.addEventListener("hashchange", () => setTimeout(done, 0), {once: true});
        location.hash = f;
    })""", fragment)


def _ticked(page) -> list[str]:
    return page.eval_on_selector_all('input[name="samurai"]:checked', "els => els.map(e => e.value)")


@pytest.mark.parametrize("link, words", [
    ("#level=hard", "the link names no table"),
    ("#rules=V-1", "the link names no table"),
    ("#", None),  # an empty fragment: a fresh form
])
def test_a_link_without_a_table_leaves_no_answer_up(report, page, link, words):
    """Followed from an answered link, a link without table= clears the answer: an answer left up
    would read as this link's. A section's anchor only scrolls, and leaves the answer."""
    harness.load(page, report / "report.html", 1400, fragment="#table=daisuke,kanbei&level=easy")
    _follow(page, "#in-short")
    assert _rate_text(_csv_row(report, "easy", ("daisuke", "kanbei"))) in _answer(page)
    _follow(page, link)
    text = _answer(page)
    assert "Daisuke" not in text and "Win rate" not in text and _ticked(page) == [], text
    assert ("error" in page.get_attribute("#your-answer", "class")) == (words is not None)
    assert words is None or words in text
    if link == "#level=hard":
        assert page.input_value('select[name="level"]') == "hard"
    assert harness.measure_page(page)["errors"] == []


@pytest.mark.parametrize("link, key", [
    ("#table=daisuke,kanbei&table=gorobei,kyuzo&level=easy", "table"),
    ("#table=daisuke,kanbei&level=easy&level=normal", "level"),
    ("#table=daisuke,kanbei&level=easy&rules=V-1&rules=V-2", "rules"),
])
def test_a_key_given_twice_is_refused(report, page, link, key):
    """A repeated key has no one value: the form says so rather than take the first in silence."""
    harness.load(page, report / "report.html", 1400, fragment=link)
    text = _answer(page)
    assert f"the link gives {key}= twice" in text and "Win rate" not in text, text
    assert "error" in page.get_attribute("#your-answer", "class")
    assert harness.measure_page(page)["errors"] == []


def test_the_level_list_starts_at_the_level_a_link_without_one_means(report, page):
    """A fresh page's level list shows the level a link without level= plays: kiai's default."""
    harness.load(page, report / "report.html", 1400)
    assert page.input_value('select[name="level"]') == "normal"
    for name in ("daisuke", "kanbei"):
        page.check(f'input[name="samurai"][value="{name}"]')
    assert _rate_text(_csv_row(report, "normal", ("daisuke", "kanbei"))) in _answer(page)
    harness.load(page, report / "report.html", 1400, fragment="#table=daisuke,kanbei")
    assert page.input_value('select[name="level"]') == "normal"
    assert _rate_text(_csv_row(report, "normal", ("daisuke", "kanbei"))) in _answer(page)
