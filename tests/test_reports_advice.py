"""The report's advice per team size, its wording of small numbers, and the pages built from it
(reports.findings.advice, reports.page.report, reports.playing.presets' advice plan)."""

import re

import numpy as np
import pandas as pd
import pytest
from test_reports_report import _row

from kiai.reports.findings import advice
from kiai.reports.findings.in_short import in_short, seating_sentence
from kiai.reports.playing import presets
from kiai.reports.findings.wording import fmt_ci, fmt_p, fmt_pct, fmt_rate
from kiai.reports.page.report import write_report
from kiai.simcore.seatings import all_lineups, seatings_from
from kiai.simcore.readings import changed
from kiai.strategies.registry import DEFAULT

# ------------------------------------------------------------------------------ wording


@pytest.mark.parametrize("wins,games,text", [
    (57, 175_000, "0.03%"),
    (3, 175_000, "3 of 175,000"),
    (0, 5_000, "0 of 5,000"),
    (454, 1_000, "45.4%"),
    (45, 10_000, "0.45%"),
    (320, 10_000, "3.2%"),
])
def test_rates_keep_the_digits_small_numbers_need(wins, games, text):
    assert fmt_rate(wins, games) == text


def test_a_rate_with_wins_never_reads_zero():
    for games in (1_000, 175_000, 10_000_000):
        for wins in (1, 2, 9, 10, 11, 57, 100, 999):
            text = fmt_rate(wins, games)
            assert not re.fullmatch(r"0(\.0+)?%", text), (wins, games, text)
    assert fmt_pct(0.00005) == "< 0.01%"
    assert fmt_pct(0) == "0%"
    assert fmt_ci(0.0, 0.00004) == "0 to < 0.01%"
    assert fmt_ci(0.805, 0.833) == "80.5 to 83.3%"


@pytest.mark.parametrize("p,text", [(0.0, "< 0.0001"), (3e-5, "< 0.0001"), (0.00034, "0.0003"),
                                    (0.0123, "0.012"), (0.456, "0.46"), (1.0, "1")])
def test_p_values(p, text):
    assert fmt_p(p) == text


# ------------------------------------------------------------------------- hand-made tables


def _grid(n, wins_of, level="easy", games=1000):
    """Every line-up of n samurai seated in its own order, as the default preset plays them."""
    rows = [_row(level, lineup, wins=wins_of(i), games=games, strategy=DEFAULT) for i, lineup in
            enumerate(all_lineups(n))]
    return [{**row, "absent_tokens": n == 2} for row in rows]  # the rules' default (R-18)


def test_in_short_says_within_noise_when_line_ups_are_not_told_apart():
    rng = np.random.default_rng(1)
    # 35 line-ups drawn from one and the same win rate
    df = pd.DataFrame(_grid(3, lambda i: int(rng.binomial(1000, 0.3))))
    lines = in_short(df)[3]
    line = next(x for x in lines if x.startswith("Line-up"))
    assert "within noise" in line and "pick" not in line


def test_in_short_names_the_pick_when_the_data_separate_it():
    best, worst = all_lineups(3)[4], all_lineups(3)[20]
    wins = {4: 600, 20: 100}
    df = pd.DataFrame(_grid(3, lambda i: wins.get(i, 300)))
    line = next(x for x in in_short(df)[3] if x.startswith("Line-up"))
    assert f"pick {', '.join(best)} (60.0%)" in line
    assert f"avoid {', '.join(worst)} (10.0%)" in line
    # the gap, recomputed from the table: 600/1000 - 100/1000
    assert "50.0 pp apart" in line


def test_pick_is_compared_at_the_hardest_level_a_team_still_wins_often():
    rows = _grid(2, lambda i: 800, "easy") + _grid(2, lambda i: 300 + 10 * i, "normal") + _grid(2, lambda i: 20, "hard")
    rates = advice.level_rates(advice.grid_rows(pd.DataFrame(rows)))
    assert advice.advice_level(rates, 2) == "normal"
    assert advice.recommended_lineups(pd.DataFrame(rows)) == {2: ("normal", ",".join(all_lineups(2)[-1]))}


def test_seating_finding_only_when_seatings_differ():
    lineup = all_lineups(4)[0]
    seats = seatings_from(lineup)
    even = pd.DataFrame(_grid(4, lambda i: 301 if i == 0 else 300)
                        + [_row("easy", s, wins=300 + (k % 2)) for k, s in enumerate(seats)])
    even["games"] = 1000
    line = next(x for x in in_short(even)[4] if x.startswith("Seating"))
    assert "within noise" in line
    # a ladder of seatings 5 points apart: they differ, but the best's interval, simultaneous over
    # the six, overlaps the next one's, so none is named
    ladder = pd.DataFrame(_grid(4, lambda i: 400 if i == 0 else 300)
                          + [_row("easy", s, wins=400 + 50 * k, games=1000) for k, s in enumerate(seats[1:], 1)])
    line = next(x for x in in_short(ladder)[4] if x.startswith("Seating"))
    assert "seatings differ" in line and "no seating stands out" in line and "sit " not in line
    apart = pd.DataFrame(_grid(4, lambda i: 400 if i == 0 else 300)
                         + [_row("easy", s, wins=700 if k == 5 else 400 + 20 * k, games=1000)
                            for k, s in enumerate(seats[1:], 1)])
    line = next(x for x in in_short(apart)[4] if x.startswith("Seating"))
    assert "within noise" not in line and "gains 30.0 pp over the worst" in line


def _equal_seatings(rate: float = 0.3, seed: int = 30, k: int = 120, games: int = 250) -> pd.DataFrame:
    """k seatings of one line-up that all win at `rate`, `games` each, wins drawn with numpy `seed`;
    best first, as advice.seating_rates gives them."""
    wins = np.random.default_rng(seed).binomial(games, rate, size=k)
    seats = pd.DataFrame({"seating": [f"s{i:03d}" for i in range(k)], "wins": wins, "games": games})
    seats["rate"] = seats["wins"] / seats["games"]
    return seats.sort_values(["rate", "seating"], ascending=[False, True]).reset_index(drop=True)


def test_a_best_seating_chosen_from_many_equal_ones_is_not_called_best():
    # 120 seatings of one rate: seed 30 is a table where the chi-square test happens to fall below
    # 0.05, as one table in twenty does, and the luckiest seating beats the unluckiest by 15 points
    # with a Newcombe interval far from zero, as if the two had been named before the games
    seats = _equal_seatings()
    sa = advice.seating_advice(seats, 6)
    best, worst = seats.iloc[0], seats.iloc[-1]
    assert sa["diff"] > 0.10 and advice.difference(best["wins"], best["games"], worst["wins"], worst["games"])[1] > 0.05
    # the gain's printed interval holds however the two were chosen: it holds the true gap, 0
    assert sa["lo"] < 0 < sa["hi"]
    assert not sa["separated"] and sa["p_chosen"] >= 0.05
    assert not sa["stands_out"]
    assert "within noise" in seating_sentence(sa, 6, "easy", "a,b,c,d,e,f")


def test_a_best_seating_clearly_better_than_many_is_called_best():
    seats = _equal_seatings()
    seats.loc[len(seats) - 1, ["wins", "rate"]] = [125, 0.5]  # one seating wins half its games
    seats = seats.sort_values(["rate", "seating"], ascending=[False, True]).reset_index(drop=True)
    sa = advice.seating_advice(seats, 6)
    assert sa["separated"] and sa["p_chosen"] < 0.01 and sa["best"]["wins"] == 125


def _with_readings():
    """Two line-ups of 3 at easy, under the rules' own readings and with the penalty paid once."""
    rows = _grid(3, lambda i: 300)
    lineups = [all_lineups(3)[0], all_lineups(3)[1]]
    for lineup, extra in zip(lineups, (150, 90)):
        row = _row("easy", lineup, wins=300 + extra, games=1000, strategy=DEFAULT)
        row["rules"] = "penalty=once"
        rows.append(row)
        row = _row("easy", lineup, wins=300 + 3, games=1000, strategy=DEFAULT)
        row["rules"] = "heal=wounded"
        rows.append(row)
    df = pd.DataFrame(rows)
    df["rules"] = df["rules"].fillna("default")
    return df


def test_house_rules_pair_each_reading_with_the_rules_own():
    rules = advice.reading_effects(_with_readings())
    once = rules[rules["reading"] == "penalty"].iloc[0]
    assert once["v"] == "V-2" and once["games_changed"] == once["games_default"] == 2000 and once["lineups"] == 2
    assert once["diff"] == pytest.approx(((300 + 150) + (300 + 90) - 300 - 300) / 2000)
    assert once["separated"]
    heal = rules[rules["reading"] == "heal"].iloc[0]
    assert heal["diff"] == pytest.approx(6 / 2000) and not heal["separated"]
    line = next(x for x in in_short(_with_readings())[3] if x.startswith("Rule mistakes"))
    assert "V-2" in line and "+12.0 pp" in line and "V-1 within noise" in line


def test_advice_plan_plays_every_seating_of_each_pick_and_races_them_by_team_size():
    rows = (_grid(3, lambda i: 500 if i == 7 else 300) + _grid(5, lambda i: 200 if i == 2 else 100)
            + _grid(7, lambda i: 10))
    results = pd.DataFrame(rows)
    for col, value in (("rules", "default"), ("absent_tokens", False)):
        results[col] = value
    plan = presets.preset_plan("advice", results=results)
    by_size = {}
    for config in plan:
        by_size.setdefault(config.n, set()).add(config.samurai)
    # every seating, the grid's own too: all race on one rule, and the report counts the longer run
    assert by_size[3] == set(seatings_from(all_lineups(3)[7]))
    assert by_size[5] == set(seatings_from(all_lineups(5)[2]))
    assert len(by_size[7]) == 720
    assert {c.difficulty for c in plan} == {"easy"}
    groups = presets.preset_groups("advice", plan)
    assert sorted(len(g.members) for g in groups) == [2, 24, 720]
    assert {g.rule.precision for g in groups} == {presets.ADVICE_MARGIN}
    assert {g.rule.bounds()[0] for g in groups} == {presets.ADVICE_ROUND}
    # one round tells a seating to the margin where the default wins 3 to 4.5% (7 samurai at Easy),
    # and 20 games fewer would not at 4.5%: the 720 seatings that cost most stop after one round
    from kiai.reports.playing.stopping import half_width
    n = presets.ADVICE_ROUND
    assert all(half_width(round(p * n), n) <= presets.ADVICE_MARGIN for p in (0.03, 0.035, 0.04, 0.045))
    assert half_width(round(0.045 * (n - 20)), n - 20) > presets.ADVICE_MARGIN
    with pytest.raises(ValueError, match="--from"):
        presets.preset_plan("advice")


def test_default_preset_plays_every_team_size_and_the_readings():
    plan = presets.default_plan()
    grid = [c for c in plan if not changed(c.rules) and c.absent_tokens == "auto"]
    assert {c.n for c in grid} == {2, 3, 4, 5, 6, 7}
    assert len([c for c in grid if c.difficulty == "heroic"]) == 21 + 35 + 35 + 21 + 7 + 1
    readings = [c for c in plan if changed(c.rules)]
    assert {c.difficulty for c in readings} == set(presets.RULE_LEVELS)
    assert all("kikuchiyo" in c.samurai for c in readings)
    assert {tuple(changed(c.rules).items()) for c in readings} == {tuple(r.items()) for r in presets.rule_changes()}
    off = [c for c in plan if c.absent_tokens == "off"]
    assert {c.n for c in off} == {2} and len(off) == 21 * 4


def test_default_preset_races_line_ups_seatings_readings_and_absent_tokens():
    from kiai.reports.playing import racing, stopping

    plan = presets.default_plan()
    groups = presets.preset_groups("default", plan)
    racing.check_groups(len(plan), groups)  # everyone races, on the same rounds
    lineups = [g for g in groups if isinstance(g.rule, stopping.Extremes) and g.rule.precision == presets.SWEEP_PRECISION]
    assert len(lineups) == 4 * 6  # every level and team size (seven samurai: a race of one)
    assert sorted({len(g.members) for g in lineups}) == [1, 7, 21, 35]
    seats = [g for g in groups if isinstance(g.rule, stopping.Extremes) and g.rule.precision == presets.SEATING_PRECISION]
    assert len(seats) == 35 and {len(g.members) for g in seats} == {6}
    cells = [g for g in groups if isinstance(g.rule, stopping.Difference)]
    assert len(cells) == 5 * 2 * 6 + 4  # each reading, at easy and normal, per team size; tokens off per level
    for g in cells:  # each changed configuration beside the rules' own on the same seating and level
        other = [plan[i] for i, label in zip(g.members, g.labels) if label]
        base = [plan[i] for i, label in zip(g.members, g.labels) if not label]
        assert [(c.difficulty, c.samurai) for c in other] == [(c.difficulty, c.samurai) for c in base]
        assert all(not changed(c.rules) and c.absent_tokens == "auto" for c in base)
    assert {g.rule.bounds() for g in groups} == {tuple(range(500, 3001, 500))}


# ------------------------------------------------------------------------------- the pages


def test_seatings_table_puts_the_line_ups_where_seating_matters_most_first(tmp_path):
    rows = []
    for lineup, (a, b) in zip(all_lineups(3)[:3], ((300, 310), (200, 400), (300, 350))):
        first, second = seatings_from(lineup)
        rows += [_row("easy", first, wins=a, games=1000), _row("easy", second, wins=b, games=1000)]
    write_report(pd.DataFrame(rows), tmp_path)
    table = pd.read_csv(tmp_path / "seatings.csv")
    assert list(table["spread (pp)"]) == [20.0, 5.0, 1.0]
    md = (tmp_path / "report.md").read_text().split("### Seatings of every line-up")[1]
    order = [md.index(f"| {', '.join(lineup)} |") for lineup in (all_lineups(3)[1], all_lineups(3)[2], all_lineups(3)[0])]
    assert order == sorted(order)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    rng = np.random.default_rng(3)
    rows = []
    for level, base in (("easy", 0.5), ("normal", 0.2), ("heroic", 0.0005)):
        for n in (2, 3, 7):
            rows += _grid(n, lambda i: int(rng.binomial(2000, base * (1 + 0.01 * i))), level, games=2000)
    lineup = all_lineups(3)[0]
    rows += [_row("easy", s, wins=900 + 60 * k, games=2000) for k, s in enumerate(seatings_from(lineup)[1:], 1)]
    df = pd.DataFrame(rows).assign(rules="default", strategy=DEFAULT)
    df["absent_tokens"] = df["n_samurai"] == 2
    # the penalty paid once (V-2) on two line-ups of 3 at easy, beside their rows under the rules' own
    once = []
    for lineup, wins, extra in zip(all_lineups(3)[:2], (600, 600), (150, 90)):
        at = (df["difficulty"] == "easy") & (df["seating"] == ",".join(lineup))
        counts = {k: v for k, v in _row("easy", lineup, wins=wins, games=2000).items()
                  if k in ("wins", "win_rate") or k.startswith(("out_", "score_", "lost_round_"))}  # that add up
        df.loc[at, list(counts)] = pd.DataFrame([counts] * int(at.sum()), index=df.index[at])
        once.append({**_row("easy", lineup, wins=wins + extra, games=2000, strategy=DEFAULT), "rules": "penalty=once"})
    df = pd.concat([df, pd.DataFrame(once)], ignore_index=True)
    out = tmp_path_factory.mktemp("advice-report")
    return df, out, write_report(df, out)


def test_csv_tables_are_written_beside_the_page_and_linked(page):
    _, out, written = page
    html = (out / "report.html").read_text()
    for name in ("level_rates.csv", "lineups.csv", "house_rules.csv", "pick_seatings.csv"):
        assert (out / name).is_file() and written[name] == out / name
        assert f'href="{name}"' in html
        assert len(pd.read_csv(out / name)) > 0


def test_the_page_agrees_with_the_tables_it_was_built_from(page):
    df, out, _ = page
    md = (out / "report.md").read_text()
    levels = pd.read_csv(out / "level_rates.csv")
    # a level's pooled rate, recomputed from the rows: 3 samurai at easy, every line-up once
    rows = df[(df["n_samurai"] == 3) & (df["difficulty"] == "easy") & (df["rules"] == "default")
              & (df["seating"] == df["lineup"])]
    row = levels[(levels["level"] == "easy") & (levels["n_samurai"] == 3)].iloc[0]
    assert row["wins"] == rows["wins"].sum() and row["games"] == rows["games"].sum() == 35 * 2000
    assert f"Easy {100 * rows['wins'].sum() / rows['games'].sum():.1f}%" in md
    # the house-rule difference in the table is that of the rows
    rules = pd.read_csv(out / "house_rules.csv")
    once = rules[rules["reading"] == "penalty"].iloc[0]
    assert once["diff"] == pytest.approx((750 + 690 - 600 - 600) / 4000)
    assert "+6.0 pp" in md


def test_tiny_table_of_two_and_seven_samurai_builds_every_section(page):
    _, out, _ = page
    md = (out / "report.md").read_text()
    for heading in ("## In short", "### 2 samurai (absent tokens on, R-18)", "### 7 samurai", "## How hard is each level",
                    "## Which line-up", "## Seating", "## House rules and common mistakes"):
        assert heading in md, heading
    assert "7 samurai make a single line-up" in md
    assert "**Contents**" in md and "(#house-rules-and-common-mistakes)" in md
    assert (out / "lineups_2.png").is_file() and not (out / "lineups_7.png").exists()


def test_no_rate_prints_as_zero_when_games_were_won(page):
    _, out, _ = page
    for name in ("report.md", "report.html"):
        text = (out / name).read_text()
        assert not re.search(r"(?<![\d.])0\.0+%", text), name
        assert "0.0000" not in text


def test_html_renders_backticks_as_code(page):
    _, out, _ = page
    html = (out / "report.html").read_text()
    body = html.split("<body>")[1]
    assert "`" not in body
    assert f"<code>{DEFAULT}</code>" in body
    assert f"`{DEFAULT}`" in (out / "report.md").read_text()


def test_every_image_is_beside_the_page(page):
    _, out, _ = page
    html = (out / "report.html").read_text()
    for src in re.findall(r'(?:src|href)="([^"#]+)"', html):
        assert (out / src).is_file(), src


@pytest.mark.usefixtures("engine")
def test_report_of_a_tiny_sweep_of_two_and_seven_samurai(capsys, tmp_path):
    from conftest import run

    table = tmp_path / "s.parquet"
    code, _, err = run(capsys, "sweep", "--players", "2,7", "-d", "easy,normal", "--lineups", "sample:3", "-n", "60",
                       "--rule", "penalty=every-turn,once", "--out", table)
    assert code == 0, err
    code, out, err = run(capsys, "report", table, "--out", tmp_path / "r")
    assert code == 0, err and "winrate_by_level" in out
    md = (tmp_path / "r" / "report.md").read_text()
    assert "### 2 samurai (absent tokens on, R-18)" in md and "### 7 samurai" in md
    assert "V-2 penalty=once" in md  # the house-rules table pairs the two readings on the same deals
    rates = pd.read_csv(tmp_path / "r" / "level_rates.csv")
    assert set(rates["n_samurai"]) == {2, 7} and set(rates["games"]) == {180, 60}


def test_line_ups_that_won_nothing_are_not_ranked(tmp_path):
    from kiai.reports.page import charts

    df = pd.DataFrame(_grid(3, lambda i: 100 + 10 * i) + _grid(3, lambda i: 0, "heroic"))
    fig = charts.plot_lineups(df, 3)
    easy, heroic = fig.axes
    assert easy.get_title() == "easy" and heroic.get_title() == "heroic (not ranked)"
    assert any("no line-up won" in t.get_text() for t in heroic.texts)
    write_report(df, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "| heroic | - | none won (35 line-ups) | 0 of 35,000 |" in md
    assert "Heroic 0 of 35,000" in md


def test_the_pick_is_the_seated_line_up_among_those_tied_with_the_best():
    lineups = all_lineups(3)
    rows = _grid(3, lambda i: {0: 505, 1: 500}.get(i, 100))  # 0 and 1 within noise of each other
    rows += [_row("easy", s, wins=480, games=1000) for s in seatings_from(lineups[1])[1:]]
    df = pd.DataFrame(rows)
    grid = advice.grid_rows(df)
    level, pick, pa = advice.the_pick(df, advice.level_rates(grid), advice.lineup_rates(grid), 3)
    assert (level, pick) == ("easy", ",".join(lineups[1]))
    line = next(x for x in in_short(df)[3] if x.startswith("Seating"))
    assert "2 of its 2 seatings" in line
    # without the seatings, the highest rate
    plain = pd.DataFrame(_grid(3, lambda i: {0: 505, 1: 500}.get(i, 100)))
    g = advice.grid_rows(plain)
    assert advice.the_pick(plain, advice.level_rates(g), advice.lineup_rates(g), 3)[1] == ",".join(lineups[0])


def test_the_house_rules_scope_lists_its_line_ups_in_a_fixed_order(tmp_path):
    """Shorter line-ups first, then by name: the page reads the same from one run to the next
    (a set's order changes with Python's hash seed)."""
    rows = _grid(3, lambda i: 300)
    lineups = all_lineups(3)[:8]
    for lineup in lineups:
        row = _row("easy", lineup, wins=310, games=1000, strategy=DEFAULT)
        row["rules"] = "penalty=once"
        rows.append(row)
    df = pd.DataFrame(rows)
    df["rules"] = df["rules"].fillna("default")
    write_report(df, tmp_path)
    text = (tmp_path / "report.md").read_text()
    listed = text.split("Line-ups: ", 1)[1].split(" (the first three letters", 1)[0].split("; ")
    keys = sorted((",".join(x) for x in lineups), key=lambda k: (len(k), k))
    assert listed == [advice.names(k, short=True) for k in keys] and len(set(map(len, keys))) < len(keys)
