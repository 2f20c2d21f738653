"""The agreement stage: the `agreement` preset's plan, the report's section "Does it hold for
stronger players?" (reports.findings.agreement), and `kiai report` with and without its table."""

import math
import re

import numpy as np
import pandas as pd
import pytest
from test_reports_report import _row

from kiai.reports.findings import agreement, ladder
from kiai.reports.findings.rows import NoChartData
from kiai.reports.page.ladder import ladder_table
from kiai.reports.playing import presets
from kiai.reports.page.report import write_report
from kiai.simcore.seatings import all_lineups, sample_lineups
from kiai.reports.playing.tables import identity_key
from kiai.simcore.codes import LEVELS, SAMURAI
from kiai.strategies.registry import DEFAULT as MAIN  # the default strategy, which the agreement sets beside judge

# ------------------------------------------------------------------------------- tables


def _main_row(level, lineup, wins, games, strategy=MAIN):
    """A row of the default sweep's grid: seated in its own order, the rules' own readings and
    absent tokens (on with two samurai, R-18), seed 0."""
    row = _row(level, lineup, wins=wins, games=games, strategy=strategy, seed=0)
    row.update(absent_tokens=len(lineup) == 2, rules="default")
    return row


def _rate(lineup) -> float:
    """A made-up win rate: kanbei helps, kyuzo hurts, larger teams do worse."""
    return 0.5 - 0.05 * len(lineup) + 0.04 * ("kanbei" in lineup) - 0.06 * ("kyuzo" in lineup)


def _main_table() -> pd.DataFrame:
    """The default sweep's grid: every line-up of 2 to 7 samurai at every level, 3,000 games each."""
    return pd.DataFrame([_main_row(level, lineup, round(3000 * _rate(lineup) / (1 + i)), 3000)
                         for i, level in enumerate(LEVELS) for n in range(2, 8) for lineup in all_lineups(n)])


# -------------------------------------------------------------------------------- the plan


def test_each_cell_plays_until_the_strongest_players_own_rate_is_within_two_points():
    """A cell stops on the strongest player's pooled rate (the figure the headline prints), not on
    its difference from the default: at 40% over 21 line-ups, 2,436 games give +-1.95 points and
    end the cell although the difference (the default at 30% beside it) is still wider; 2,100
    games (100 a line-up) do not; nor 420 games at 10%."""
    from kiai.reports.playing.stopping import half_width

    main = _main_table()
    plan = presets.preset_plan("agreement", results=main)
    groups = presets.preset_groups("agreement", plan)
    g = next(g for g in groups if (plan[g.members[0]].difficulty, plan[g.members[0]].n) == ("normal", 2))
    labels = np.array(g.labels)
    k = int(labels.sum())
    for per, stops in ((116, True), (100, False)):
        games = np.full(len(labels), per)
        wins = np.where(labels == 1, round(0.4 * per), round(0.3 * per))
        keep = g.rule.keep(wins, games, np.ones(len(labels), bool), labels)
        assert (not keep.any()) == stops, (per, half_width(round(0.4 * per * k), per * k))
    games = np.full(len(labels), 20)
    assert g.rule.keep(np.where(labels == 1, 2, 0), games, np.ones(len(labels), bool), labels).all()


def test_the_plan_covers_every_line_up_at_every_level_with_both_players_and_races_by_cell():
    from kiai.reports.playing import stopping
    from kiai.strategies.registry import strongest

    main = _main_table()
    plan = presets.preset_plan("agreement", results=main)
    by_table: dict[tuple, set] = {}
    for config in plan:
        by_table.setdefault((config.difficulty, config.samurai), set()).add(config.strategy)
        if config.strategy != MAIN:  # the family's strongest player, with its own parameters
            best, params = strongest(config.n, config.difficulty)
            assert config.strategy == best and all(config.params[k] == v for k, v in params.items())
    # every table of the main sweep twice, on the same deals: by the default and by the family's strongest
    assert set(by_table) == {(lv, lu) for lv in LEVELS for n in range(2, 8) for lu in all_lineups(n)}
    assert all(strategies == {MAIN, strongest(len(s), lv)[0]} for (lv, s), strategies in by_table.items())
    assert {strongest(n, "easy")[0] for n in (2, 3, 4)} == {"judge"}
    assert {strongest(n, "easy")[0] for n in (5, 6, 7)} == {"lookahead"}
    # every table seated in its own order, as the main sweep played it
    assert all(c.samurai == tuple(sorted(c.samurai, key=SAMURAI.index)) for c in plan)
    # one cell per level and team size; the check of effects and rankings plays AGREEMENT_GAMES at once
    groups = presets.preset_groups("agreement", plan)
    assert len(groups) == len(LEVELS) * 6 and sum(len(g.members) for g in groups) == len(plan)
    for g in groups:
        cell = {(plan[i].difficulty, plan[i].n) for i in g.members}
        assert len(cell) == 1 and sum(g.labels) == len(g.members) // 2
        assert [plan[i].strategy != MAIN for i in g.members] == [bool(x) for x in g.labels]
        if cell == {(presets.AGREEMENT_LEVEL, presets.AGREEMENT_COUNT)}:
            assert g.rule.bounds() == (presets.AGREEMENT_GAMES,)
        else:  # the headline's interval, +-2 points at every team size (+-5 where both win under 2%)
            assert isinstance(g.rule, stopping.Cell) and not g.rule.against and g.rule.h == presets.HEADLINE_PRECISION
            assert g.rule.paired  # each game's win kept, for the page's difference read deal by deal
            assert g.rule.bounds()[-1] == presets.AGREEMENT_CAP
    four = {s for (lv, s) in by_table if lv == presets.AGREEMENT_LEVEL and len(s) == presets.AGREEMENT_COUNT}
    for samurai in SAMURAI:
        assert 0 < sum(samurai in s for s in four) < len(four)
    # deterministic, whatever the order of the table's rows
    again = presets.preset_plan("agreement", results=main.sample(frac=1, random_state=3))
    assert [identity_key(c) for c in again] == [identity_key(c) for c in plan]


def test_the_plan_replays_only_what_the_main_table_holds():
    main = _main_table()
    gone = ",".join(all_lineups(3)[4])
    main = main[~((main["seating"] == gone) & (main["difficulty"] == "hard"))]
    plan = presets.preset_plan("agreement", results=main)
    assert not [c for c in plan if c.difficulty == "hard" and ",".join(c.samurai) == gone]
    assert [c for c in plan if c.difficulty == "normal" and ",".join(c.samurai) == gone]
    with pytest.raises(ValueError, match="--from"):
        presets.preset_plan("agreement")
    keeper = main.assign(strategy="keeper")  # no configuration of the default strategy
    with pytest.raises(ValueError, match="holds none of the default sweep's configurations"):
        presets.preset_plan("agreement", results=keeper)


def test_the_strong_tier_joins_the_ladder_between_the_lookahead_and_the_cheating_ceiling():
    assert ladder.RUNGS[-3:] == ("lookahead", ladder.STRONG, "foresight")
    assert presets.PRESET_STRATEGIES["ladder-planners"] == ("lookahead", ladder.STRONG, "foresight")
    plan = presets.preset_plan("ladder-planners", strategies=presets.PLANNER_STRATEGIES)
    tables = {(c.difficulty, c.samurai) for c in plan if c.strategy == ladder.STRONG}
    assert tables == {(c.difficulty, c.samurai) for c in plan if c.strategy == "lookahead"} and len(tables) == 24


# ----------------------------------------------------------------------------- the section

STRONG_BONUS = {MAIN: {"kyuzo": -0.12, "kanbei": 0.06}, "judge": {"kyuzo": 0.10, "kanbei": 0.06}}


def _paired_table(games=400) -> pd.DataFrame:
    """A main sweep of 2 to 4 samurai at easy and normal, and the agreement stage's tables played by
    the default and judge: kyuzo hurts the default's line-ups but helps judge's (a planted reversal), kanbei
    helps both (a planted agreement)."""
    base = {"easy": {2: 0.8, 3: 0.5, 4: 0.3}, "normal": {2: 0.6, 3: 0.2, 4: 0.06}}

    def wins(level, lineup, strategy, games):
        bonus = sum(STRONG_BONUS[strategy].get(s, 0) for s in lineup) * (1 if level == "easy" else 0.3)
        return round(games * min(max(base[level][len(lineup)] + bonus, 0.001), 0.99))

    rows = [_main_row(level, lu, wins(level, lu, MAIN, 3000), 3000)
            for level in base for n in (2, 3, 4) for lu in all_lineups(n)]
    tables = [(level, lu) for level in base for n in (2, 3, 4) for lu in sample_lineups(n, 2, 0)]
    tables += [("easy", lu) for lu in all_lineups(4) if ("easy", lu) not in tables]
    for level, lu in tables:
        rows += [_main_row(level, lu, wins(level, lu, s, games), games, strategy=s) for s in (MAIN, "judge")]
    return pd.DataFrame(rows)


def test_a_planted_reversal_is_flagged_and_a_planted_agreement_is_not(tmp_path):
    written = write_report(_paired_table(), tmp_path)
    assert {"agreement.png", "agreement_effects.csv", "agreement_levels.csv", "agreement_orders.csv",
            "agreement_lineups.csv"} <= set(written)
    effects = pd.read_csv(tmp_path / "agreement_effects.csv").set_index("samurai")
    assert effects.loc["kyuzo", "status"] == agreement.REVERSED  # the default -12 pp, judge +10 pp: both beyond noise
    assert effects.loc["kyuzo", f"diff_{MAIN}"] < 0 < effects.loc["kyuzo", "diff_strongest_player"]
    assert effects.loc["kanbei", "status"] == agreement.HOLDS  # +6 pp for both: no flag
    assert (effects["status"] == agreement.REVERSED).sum() == 1
    md = (tmp_path / "report.md").read_text()
    section = md.split("## Does it hold for stronger players?")[1].split("\n## ")[0]
    assert "1 of 7 signs reversed beyond noise (flagged)" in section
    assert "| kyuzo | -" in section and section.count("FLAG: reversed |") == 1
    assert "| kanbei | +" in section and "| holds |" in section
    assert "FLAG: reversed marks a comparison" in section  # what a flag means, on the page
    assert "rank correlation" in section and "over 35 line-ups" in section
    # the main sections count the main sweep's games, not the agreement's shorter runs of the same deals
    rates = pd.read_csv(tmp_path / "level_rates.csv")
    rates = rates[rates["player"] == "default"]
    assert rates.loc[(rates["level"] == "easy") & (rates["n_samurai"] == 4), "games"].item() == 35 * 3000


def _both_players(rates: dict) -> pd.DataFrame:
    """Every line-up of each (level, team size): the default's 3,000 games at rate `default`, and
    the agreement stage's first 100 deals, the default winning `same` and judge `strong` of them."""
    rows = []
    for (level, n), (default, same, strong) in rates.items():
        for lineup in all_lineups(n):
            rows.append(_main_row(level, lineup, round(3000 * default), 3000))
            rows += [_main_row(level, lineup, round(100 * same), 100),
                     _main_row(level, lineup, round(100 * strong), 100, strategy="judge")]
    return pd.DataFrame(rows)


def test_the_headline_gives_the_strongest_players_rate_beside_the_defaults(tmp_path):
    """Every line-up of 2 and 3 samurai played by both players on the same first deals (the
    agreement stage): the strongest's rate, with its interval, stands in In short and under the
    headline chart wherever either won. It is read on its own games: 21 line-ups x 100 deals at 90%
    give 90.0% with Wilson's interval over 2,100 games, whatever the default won on those deals
    (70%, against its 80% on all of its own)."""
    from kiai.simcore.stats import proportion_ci

    rates = {("easy", 2): (0.8, 0.7, 0.9), ("easy", 3): (0.5, 0.5, 0.6), ("hard", 2): (0.01, 0.0, 0.0),
             ("hard", 3): (0.0, 0.0, 0.0)}
    write_report(_both_players(rates), tmp_path)
    md = (tmp_path / "report.md").read_text()
    short = md.split("## In short")[1].split("\n## ")[0]
    # one line per team size: the default's figure, then the strongest's, at each level
    # the default won at Hard (1%), the strongest none of its 2,100 games: under 1%, not told apart
    two = re.search(r"- How hard for kiai's default player \(`selfplay`\), all its 21 line-ups pooled, and after each "
                    r"level's figure, for kiai's strongest player, `judge`, on the same line-ups: Easy 80.0%, strongest "
                    r"90.0% \(([\d.]+) to "
                    r"([\d.]+)%\); Hard 1.0%, not told apart \(0%; 0 to ([\d.]+)%\)\.", short)
    assert two, short
    low, high, hard = map(float, two.groups())
    want = proportion_ci(1890, 2100)
    assert (low, high) == (round(100 * want[0], 1), round(100 * want[1], 1)) and hard < 0.5
    three = short.split("### 3 samurai")[1]
    assert "kiai's strongest player, `judge`, on the same line-ups: Easy 50.0%, strongest 60.0%" in three
    assert re.search(r"Easy 50.0%, strongest 60.0% \([\d.]+ to [\d.]+%\); Hard 0 of [\d,]+\.\n", three)  # neither won at Hard
    levels = md.split("## How hard is each level")[1].split("\n## ")[0]
    assert "| easy | kiai's default player | 80.0% (" in levels
    assert f"|  | kiai's strongest player | 90.0% ({low:g} to {high:g}%) | 60.0% (" in levels
    assert "|  | kiai's strongest player | not told apart (0%; 0 to " in levels and levels.count("| - |") == 1
    table = pd.read_csv(tmp_path / "level_rates.csv")
    assert set(table["player"]) == {"default", "strongest"} and len(table) == 8


def test_an_agreement_in_the_same_direction_beyond_noise_is_never_flagged():
    df = _paired_table()
    df.loc[df["strategy"] == "judge", "wins"] = df.loc[df["strategy"] == "judge", "wins"] // 2  # judge worse
    pairs = agreement.paired_rows(df, MAIN)
    rates, orders = agreement.levels(pairs, MAIN)
    assert len(rates) == 6 and len(orders) == 2 * 3 + 3  # team sizes at each level, levels of each size
    assert not (orders["status"] == agreement.REVERSED).any()
    assert (orders["status"] == agreement.HOLDS).any()
    # the same rows with the two team sizes' places swapped for judge at normal: every order flips
    flipped = df.copy()
    judge_normal = (flipped["strategy"] == "judge") & (flipped["difficulty"] == "normal")
    flipped.loc[judge_normal & (flipped["n_samurai"] == 2), "wins"] = 5
    _, orders = agreement.levels(agreement.paired_rows(flipped, MAIN), MAIN)
    reversed_ = orders[orders["status"] == agreement.REVERSED]
    assert set(zip(reversed_["first"], reversed_["second"])) >= {("Normal, 2 samurai", "Normal, 3 samurai")}


def test_signs_statuses_and_rank_correlation():
    assert agreement.sign(0.01, 0.05) == 1 and agreement.sign(-0.05, -0.01) == -1 and agreement.sign(-0.01, 0.02) == 0
    assert agreement.status(1, -1, MAIN) == agreement.REVERSED
    assert agreement.status(-1, -1, MAIN) == agreement.HOLDS
    assert agreement.status(1, 0, MAIN) == "strongest player within noise"
    assert agreement.status(0, 1, MAIN) == f"{MAIN} within noise"
    rho, p, n = agreement.rank_correlation([1, 2, 3, 4], [10, 30, 20, 40])
    assert rho == pytest.approx(0.8) and 0 < p < 1 and n == 4
    assert math.isnan(agreement.rank_correlation([1, 1, 1], [1, 2, 3])[0])  # one side does not vary
    assert "not defined" in agreement.fmt_rho(float("nan"), float("nan"), 2, "samurai")


def test_only_configurations_both_played_on_the_same_games_are_paired():
    df = _paired_table()
    pairs = agreement.paired_rows(df, MAIN)
    assert set(pairs["games"]) == {400}  # the main sweep's 3,000-game rows pair with nothing
    assert (pairs.groupby(["difficulty", "seating"])["strategy"].nunique() == 2).all()
    assert agreement.effect_cell(pairs) == ("easy", 4)
    # a judge row on other games (the planners' 150) pairs with nothing either
    extra = _main_row("easy", all_lineups(3)[0], 50, 150, strategy="judge")
    assert len(agreement.paired_rows(pd.concat([df, pd.DataFrame([extra])]), MAIN)) == len(pairs)


def test_the_ladder_leaves_tables_only_the_default_and_judge_played_to_the_agreement():
    df = _paired_table()
    with pytest.raises(NoChartData):
        ladder_table(df)
    three = sample_lineups(3, 2, 0)
    rungs = [_main_row("easy", lu, 100, 1000, strategy="keeper") for lu in three]
    rungs += [_main_row("easy", lu, 30, 150, strategy="foresight") for lu in three]
    table = ladder_table(pd.concat([df, pd.DataFrame(rungs)]))
    assert list(zip(table["level"], table["samurai"])) == [("easy", 3)]
    # judge's rung on those tables: the agreement's longer run of the same deals
    assert table.loc[0, "judge games"] == 2 * 400
    assert list(ladder.RUNGS).index("judge") == list(ladder.RUNGS).index("foresight") - 1


def test_the_section_says_so_without_the_agreement_stage(tmp_path):
    df = _paired_table()
    write_report(df[df["strategy"] == MAIN], tmp_path)
    section = (tmp_path / "report.md").read_text().split("## Does it hold for stronger players?")[1].split("\n## ")[0]
    assert f"Not drawn: no table was played by both `{MAIN}` and kiai's strongest player" in section
    assert "make report plays the preset agreement" in section


# ------------------------------------------------------------------------------ commands


def test_kiai_report_reads_the_agreement_table_or_goes_without(capsys, tmp_path):
    from conftest import run

    main, agreed = tmp_path / "results.parquet", tmp_path / "agreement.parquet"
    code, _, err = run(capsys, "sweep", "--out", main, "-d", "easy", "--players", "2", "--lineups", "sample:2",
                       "--games", 60)
    assert code == 0, err
    code, out, err = run(capsys, "sweep", "--preset", "agreement", "--from", main, "--out", agreed, "--games", 12)
    assert code == 0, err
    table = pd.read_parquet(agreed)
    assert sorted(table["strategy"]) == sorted(["judge", "judge", MAIN, MAIN]) and set(table["games"]) == {12}
    assert set(table["seating"]) == {",".join(s) for s in sample_lineups(2, 2, 0)}
    code, out, err = run(capsys, "sweep", "--preset", "agreement", "--from", main, "--out", agreed, "--games", 12,
                         "--resume")
    assert code == 0 and "4 resumed" in out, err
    for tables, drawn in (([main], False), ([main, agreed], True)):
        folder = tmp_path / f"rep{len(tables)}"
        code, out, err = run(capsys, "report", *tables, "--out", folder)
        assert code == 0, err
        section = (folder / "report.md").read_text().split("## Does it hold for stronger players?")[1]
        assert ("Not drawn" not in section.split("\n## ")[0]) == drawn
        assert (folder / "agreement_levels.csv").is_file() == drawn


def test_a_strongest_rate_below_the_defaults_within_noise_says_so(tmp_path):
    """The strongest player's rate never reads as the stronger where it does not beat the default
    beyond noise: within noise, or below it, the line says "not told apart" (tests/test_told_apart.py)."""
    rates = {("easy", 2): (0.8, 0.8, 0.79), ("hard", 2): (0.5, 0.5, 0.3)}
    write_report(_both_players(rates), tmp_path)
    short = (tmp_path / "report.md").read_text().split("## In short")[1].split("\n## ")[0]
    line = next(x for x in short.splitlines() if x.startswith("- How hard for kiai's default player"))
    assert re.search(r"Easy 80.0%, not told apart \(79.0%; [\d.]+ to [\d.]+%\)", line), line
    assert re.search(r"Hard 50.0%, not told apart \(30.0%; [\d.]+ to [\d.]+%\)\.$", line), line


def test_the_difference_reads_the_deals_both_played_where_the_rows_kept_them():
    """Rows that kept each game's win (tables' `outcomes`, the agreement stage's race) give the
    difference's interval over the deals both played (stronger.shared_difference): here the
    default wins a subset of the strongest's deals, so it is far narrower than Newcombe's, which
    rows without them fall back on. The strongest's own rate is its games' alone (strongest_rates),
    whatever the default won on the same deals."""
    import numpy as np

    from kiai.reports.findings import advice
    from kiai.reports.findings.agreement import shared_difference
    from kiai.reports.findings.views import strongest_rates
    from kiai.reports.playing.tables import outcome_text
    from kiai.simcore.stats import difference_ci, paired_difference, proportion_ci

    rng = np.random.default_rng(3)
    rows, won = [], {}
    for lineup in all_lineups(2):
        rows.append(_main_row("easy", lineup, 2400, 3000))
        draws = rng.random(400)  # how lucky each deal is for this line-up
        for strategy, rate in ((MAIN, 0.55), ("judge", 0.65)):
            won[strategy, lineup] = draws < rate
            row = _main_row("easy", lineup, int(won[strategy, lineup].sum()), 400, strategy=strategy)
            rows.append({**row, "outcomes": outcome_text(won[strategy, lineup])})
    kept = pd.DataFrame(rows)
    main = advice.level_rates(advice.grid_rows(kept[kept["games"] == 3000], MAIN))
    pairs = agreement.paired_rows(kept, MAIN)
    want = paired_difference([(np.stack([won["judge", x] for x in all_lineups(2)]),
                                   np.stack([won[MAIN, x] for x in all_lineups(2)]))])
    assert shared_difference(pairs, agreement.STRONG) == pytest.approx(want)
    strong = strongest_rates(kept, main).iloc[0]
    n, w1, w0 = 21 * 400, pairs.loc[pairs["strategy"] == agreement.STRONG, "wins"].sum(), pairs.loc[pairs["strategy"] == MAIN, "wins"].sum()
    assert (strong["wins"], strong["games"]) == (w1, n) and strong["rate"] == pytest.approx(w1 / n)
    assert (strong["lo"], strong["hi"]) == pytest.approx(proportion_ci(w1, n)[:2])
    d, _, nhi = difference_ci(w1, n, w0, n)
    assert want[2] - want[0] < 0.6 * (nhi - d) and 0.09 < want[0] < 0.11
    assert shared_difference(pairs.assign(outcomes=""), agreement.STRONG) is None
    # the agreement stage's line-ups meet deals of their own (a seed each): their deals are apart
    own = pairs.assign(seed=pairs["lineup"].map({x: i + 10 for i, x in enumerate(sorted(set(pairs["lineup"])))}))
    apart = paired_difference([(won["judge", x][None], won[MAIN, x][None]) for x in sorted(all_lineups(2))])
    assert shared_difference(own, agreement.STRONG) == pytest.approx(apart)
    assert apart[0] == pytest.approx(want[0]) and apart[2] - apart[0] != pytest.approx(want[2] - want[0])
    assert shared_difference(pairs.iloc[:-1], agreement.STRONG) is None  # a line-up played by one player only


def test_the_agreement_stages_default_rows_do_not_count_as_more_of_the_defaults_games():
    """The agreement stage's rows of the default meet deals of their own (seeds of their own) and
    keep each game's win (outcomes): the default's figures read the main sweep's rows alone
    (agreement.without_controls), not those few hundred games as more of the line-ups they replay."""
    from kiai.reports.findings import advice
    from kiai.reports.findings.views import views
    from kiai.reports.playing.tables import outcome_text

    main = pd.DataFrame([_main_row("easy", x, 2400 if "kanbei" in x else 600, 3000) for x in all_lineups(2)])
    control = pd.DataFrame([{**_main_row("easy", x, 10, 10, strategy=s), "seed": 99 + i, "outcomes": outcome_text([True] * 10)}
                            for i, x in enumerate(all_lineups(2)[:3]) for s in (MAIN, "judge")])
    both = pd.concat([main.assign(outcomes=""), control], ignore_index=True)
    alone = advice.level_rates(advice.grid_rows(views(main).main))
    with_control = advice.level_rates(advice.grid_rows(views(both).main))
    pd.testing.assert_frame_equal(with_control, alone)
    assert len(agreement.without_controls(control)) == len(control)  # nothing else: they are the table


def test_your_tables_same_deals_give_both_players_on_those_deals_only():
    """The form's "on the deals both played" reads the two players' rows of the same deals: the
    strongest's run of another stage, on deals of its own, is not among them (it only adds to the
    strongest's own figure)."""
    from kiai.reports.page import your_table

    lineup = all_lineups(2)[0]
    rows = [_main_row("easy", lineup, 2400, 3000),
            {**_main_row("easy", lineup, 60, 100), "seed": 5},
            {**_main_row("easy", lineup, 70, 100, strategy="judge"), "seed": 5},
            {**_main_row("easy", lineup, 250, 300, strategy="judge"), "seed": 9}]
    same = your_table._both_on_same_deals(pd.DataFrame(rows))
    assert same == {("easy", ",".join(lineup)): (60, 100, 70)}


def test_whether_the_strongest_wins_more_reads_the_deals_both_played(tmp_path):
    """"Wins more beyond noise" in the section on stronger players reads the deals both played where
    the rows kept each game's win: the strongest wins every deal the default wins and 1.5% more, a
    gap Newcombe's interval over 8,400 games a side cannot tell from noise, and the deal by deal
    reading can (it fails where the section reads Newcombe's alone)."""
    from kiai.reports.playing.tables import outcome_text
    from kiai.simcore.stats import difference_ci

    rng = np.random.default_rng(5)
    rows = []
    for lineup in all_lineups(2):
        rows.append(_main_row("easy", lineup, 1650, 3000))
        draws = rng.random(400)
        for strategy, rate in ((MAIN, 0.55), ("judge", 0.565)):
            won = draws < rate
            rows.append({**_main_row("easy", lineup, int(won.sum()), 400, strategy=strategy), "outcomes": outcome_text(won)})
    df = pd.DataFrame(rows)
    strong, weak = (int(df.loc[(df["games"] == 400) & (df["strategy"] == s), "wins"].sum()) for s in ("judge", MAIN))
    assert difference_ci(strong, 8400, weak, 8400)[1] < 0  # Newcombe's holds zero
    write_report(df, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "beyond noise (on the deals both played) at 1 of the 1 levels and team sizes, less at 0." in md


def test_the_strongest_players_figures_count_the_agreement_stages_games_alone():
    """The skill ladder's few games of the same player (judge, on the main sweep's deals, each
    game's win not kept) are no part of the strongest player's figures: the headline and the form
    count the agreement stage's games of every line-up, on deals of its own, and nothing else."""
    from kiai.reports.findings import advice
    from kiai.reports.findings.views import strongest_rates
    from kiai.reports.page import your_table
    from kiai.reports.playing.tables import outcome_text

    lineups = all_lineups(3)
    main = [_main_row("easy", x, 1500, 3000) for x in lineups]
    stage = [{**_main_row("easy", x, 20, 40, strategy=s), "seed": 100 + i, "outcomes": outcome_text(np.arange(40) < 20)}
             for i, x in enumerate(lineups) for s in (MAIN, "judge")]
    planners = [_main_row("easy", x, 90, 100, strategy="judge") for x in lineups[:2]]  # ladder-planners' rows
    df = pd.DataFrame(main + stage + planners).fillna({"outcomes": ""})
    rates = advice.level_rates(advice.grid_rows(agreement.without_controls(df[df["strategy"] == MAIN])))
    strong = strongest_rates(df, rates).iloc[0]
    assert (strong["lineups"], strong["games"], strong["wins"]) == (len(lineups), 40 * len(lineups), 20 * len(lineups))
    form = your_table._strongest(df)["easy|" + ",".join(lineups[0])]
    assert (form["wins"], form["games"]) == (20, 40)
