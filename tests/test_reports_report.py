import json
import re

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep

from kiai.reports.findings import advice
from kiai.reports.findings import effects as eff
from kiai.reports.findings.rows import NoChartData, pooled_rates, strategy_labels
from kiai.reports.findings.views import load_results
from kiai.reports.page import charts
from kiai.reports.page.report import write_report
from kiai.simcore.seatings import distinct_seatings, lineup_key
from kiai.simcore.codes import LEVEL_PLUSES

STEMS = ("winrate_by_level", "samurai_effect", "neighbour_effect", "loss_causes", "score_grades")


def _row(level, seating, wins, games=200, strategy="greedy", honest=True, seed=7):
    """One configuration row in the `kiai sweep` schema, with consistent counts."""
    seating = tuple(seating)
    losses = games - wins
    deaths, farms = losses // 3, losses // 4
    early, mid = losses // 5, losses // 2
    scores = np.zeros(11, dtype=int)
    scores[[4, 7, 10]] = [wins // 2, wins - wins // 2 - wins // 5, wins // 5]
    row = {
        "difficulty": level,
        "n_samurai": len(seating),
        "lineup": lineup_key(seating),
        "seating": ",".join(seating),
        "strategy": strategy,
        "honest": honest,
        "params": json.dumps({"depth": 1}),
        "absent_tokens": False,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci_low": 0.0,
        "ci_high": 1.0,
        "ci_method": "wilson",
        "out_win": wins,
        "out_death": deaths,
        "out_farmsteads": farms,
        "out_families": losses - deaths - farms,
        "lost_round_1": early,
        "lost_round_2": mid,
        "lost_round_3": losses - early - mid,
        "mean_barricades_left": 1.5,
        "mean_farmsteads_left": 3.0,
        "mean_families_left": 2.0,
        "mean_wound_steps": 4.0,
        "kiai_activations_per_game": 1.2,
        "cards_confronted_per_game": 20.0,
        "cards_defended_per_game": 10.0,
        "stalled_games": 0,
        "seed": seed,
        "components_sha256": "ab" * 32,
        "kiai_version": "0.1.0",
    }
    row.update({f"score_{i}": int(v) for i, v in enumerate(scores)})
    return row


LINEUPS = {
    3: [("heihachi", "daisuke", "gorobei"), ("kanbei", "kyuzo", "kikuchiyo"), ("daisuke", "kyuzo", "katsushiro")],
    4: [("heihachi", "kanbei", "kyuzo", "kikuchiyo"), ("daisuke", "gorobei", "kyuzo", "katsushiro")],
    5: [("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo"), ("gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo")],
}
BASE = {"easy": 150, "normal": 100, "hard": 60}


def _table(cheater=True):
    rows = []
    for level, base in BASE.items():
        for n, lineups in LINEUPS.items():
            for k, lineup in enumerate(lineups):
                rows.append(_row(level, lineup, wins=base - 10 * n + 7 * k))
    # every seating of one 4-samurai line-up at one level
    for k, seating in enumerate(distinct_seatings(LINEUPS[4][0])):
        rows.append(_row("normal", seating, wins=90 + 4 * k))
    if cheater:
        rows.append(_row("hard", LINEUPS[3][0], wins=190, strategy="peek", honest=False))
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    written = write_report(_table(), out, title="test report", notes={"command": "kiai sweep --test"})
    return out, written


def test_every_image_and_page_written(report):
    out, written = report
    for stem in STEMS:
        for fmt in ("png", "svg"):
            path = out / f"{stem}.{fmt}"
            assert path.is_file() and path.stat().st_size > 1000, path
            assert written[path.name] == path
    assert (out / "report.md").is_file() and (out / "report.html").is_file()
    assert (out / "winrate_by_level.png").read_bytes()[:4] == b"\x89PNG"


def test_pages_reference_every_image(report):
    out, _ = report
    page = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    for stem in STEMS:
        for fmt in ("png", "svg"):
            assert re.search(rf'(src|href)="{stem}\.{fmt}"', page), (stem, fmt)
            assert f"({stem}.{fmt})" in md
    assert page.startswith("<!DOCTYPE html>") and "</html>" in page


def test_pages_carry_tables_and_methods(report):
    out, _ = report
    for name in ("report.md", "report.html"):
        text = (out / name).read_text()
        assert "How these results were made" in text
        assert "Wilson" in text and "Clopper-Pearson" in text and "Holm" in text
        assert "ab" * 32 in text and "0.1.0" in text
        assert "kiai sweep --test" in text
        assert "Which line-up" in text and "Seatings of every line-up of 4 samurai at normal" in text
        # the all-seatings line-up shows up in the seating table, its names shortened
        assert "hei kan kyu kik" in text


def test_cheating_strategy_is_labelled(report):
    out, _ = report
    for name in ("report.md", "report.html"):
        assert "peek (cheating)" in (out / name).read_text()
    assert "greedy (cheating)" not in (out / "report.md").read_text()


def test_no_seating_data_skips_chart_with_a_note(tmp_path):
    df = _table(cheater=False)
    df = df.drop_duplicates(subset=["difficulty", "lineup"])  # one seating per line-up
    written = write_report(df, tmp_path)
    assert "neighbour_effect.png" not in written
    assert not (tmp_path / "neighbour_effect.png").exists()
    assert "winrate_by_level.png" in written
    assert "Not drawn" in (tmp_path / "report.md").read_text()
    assert "peek (cheating)" not in (tmp_path / "report.html").read_text()


def test_an_empty_table_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError, match="no rows"):
        write_report(_table().iloc[0:0], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_missing_core_column_raises(tmp_path):
    with pytest.raises(ValueError, match="wins"):
        write_report(_table().drop(columns="wins"), tmp_path)


def test_chart_without_its_columns_raises_no_chart_data():
    with pytest.raises(NoChartData):
        charts.plot_loss_causes(_table().drop(columns="lost_round_2"))
    with pytest.raises(NoChartData):
        charts.plot_score_grades(_table().drop(columns=[f"score_{i}" for i in range(11)]))


def test_win_rate_panels_are_titled_only_to_tell_strategies_apart():
    one = charts.plot_winrate_by_level(_table(cheater=False))
    assert [ax.get_title() for ax in one.axes if ax.get_title()] == []
    several = charts.plot_winrate_by_level(_table())
    titles = [ax.get_title() for ax in several.axes if ax.get_title()]
    assert len(titles) == 2 and any("peek" in t for t in titles)


def test_win_rates_are_drawn_on_a_log_scale_that_holds_the_smallest():
    df = _table(cheater=False)
    df.loc[df["difficulty"] == "hard", "wins"] = 1  # a rate near zero must stay in view
    ax = charts.plot_winrate_by_level(df).axes[0]
    assert ax.get_yscale() == "log"
    low = pooled_rates(df, ["difficulty", "n_samurai"])["ci_low"].min() * 100
    assert ax.get_ylim()[0] <= low and ax.get_ylim()[1] >= 100
    assert any(t.get_text() == "2/400" for t in ax.texts)  # two line-ups of 200 games, a win each


def test_pooled_rates_sum_before_dividing():
    df = pd.DataFrame([_row("easy", LINEUPS[3][0], wins=10, games=300), _row("easy", LINEUPS[3][1], wins=90, games=300)])
    pooled = pooled_rates(df, ["difficulty"])
    assert pooled.loc[0, "wins"] == 100 and pooled.loc[0, "games"] == 600
    assert pooled.loc[0, "win_rate"] == pytest.approx(1 / 6)
    assert pooled.loc[0, "ci_low"] < 1 / 6 < pooled.loc[0, "ci_high"]


def test_pooled_rates_count_each_line_up_once_whatever_its_games():
    """A race stops line-ups at different games: a plain sum would weigh the one that played on more.
    Each counts once, on the effective games of the pair (Kish: 2^2 / (1/100 + 1/300) = 300)."""
    df = pd.DataFrame([_row("easy", LINEUPS[3][0], wins=10, games=100), _row("easy", LINEUPS[3][1], wins=90, games=300)])
    pooled = pooled_rates(df, ["difficulty"])
    assert pooled.loc[0, "win_rate"] == pytest.approx(0.2)  # (0.1 + 0.3) / 2, not 100 / 400
    assert pooled.loc[0, "games"] == pytest.approx(300) and pooled.loc[0, "wins"] == pytest.approx(60)
    level = advice.level_rates(df.assign(difficulty="easy"))
    assert level.loc[0, "rate"] == pytest.approx(0.2) and level.loc[0, "lo"] < 0.2 < level.loc[0, "hi"]


def test_neighbour_effect_cells():
    a, b, c = "heihachi", "daisuke", "gorobei"
    df = pd.DataFrame([_row("easy", (a, b, c), wins=120), _row("easy", (c, b, a), wins=80)])
    table = eff.neighbour_effects(df)["greedy"]
    # seating (a, b, c) wins 60% vs mean 50%: there b sits left of a, c left of b, a left of c
    assert table.loc[b, a] == pytest.approx(10)
    assert table.loc[c, b] == pytest.approx(10)
    assert table.loc[a, c] == pytest.approx(10)
    # its mirror (a, c, b) wins 40%
    assert table.loc[a, b] == pytest.approx(-10)
    assert np.isnan(table.loc[a, a]) and np.isnan(table.loc["kyuzo", a])


def test_samurai_effect_matches_newcombe():
    df = pd.DataFrame(
        [_row("easy", LINEUPS[3][0], wins=120), _row("easy", LINEUPS[3][1], wins=80), _row("easy", LINEUPS[3][2], wins=100)]
    )
    effects = eff.samurai_effects(df)
    row = effects[effects["samurai"] == "heihachi"].iloc[0]
    assert row["diff"] == pytest.approx(120 / 200 - 180 / 400)
    lo, hi = confint_proportions_2indep(120, 200, 180, 400, method="newcomb", compare="diff")
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi))


def test_grade_labels_follow_level_pluses():
    assert charts.grade_label(7, "easy") == "7"
    assert charts.grade_label(7, "normal") == "7" + "+" * LEVEL_PLUSES["normal"]
    assert charts.grade_label(10, "heroic") == "10+++"


def test_best_worst_seatings():
    seatings = eff.best_worst_seatings(_table())
    assert len(seatings) == 1
    assert seatings.iloc[0]["seatings"] == 6
    assert 0 <= seatings.iloc[0]["p"] <= seatings.iloc[0]["p (Holm)"] <= 1


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_load_results_round_trip(tmp_path, suffix):
    df = _table()
    path = tmp_path / f"results{suffix}"
    df.to_csv(path, index=False) if suffix == ".csv" else df.to_parquet(path)
    back = load_results(path)
    assert list(back.columns) == list(df.columns)
    assert back["wins"].sum() == df["wins"].sum()
    assert list(strategy_labels(back)) == list(strategy_labels(df))


def test_load_results_rejects_other_files(tmp_path):
    with pytest.raises(ValueError):
        load_results(tmp_path / "results.xlsx")


def test_methods_say_how_a_strategy_with_family_values_played():
    from kiai.reports.page.methods import models_note as _models_note

    rows = [_row("easy", ("kyuzo", "heihachi"), 5, strategy=s) for s in ("selfplay", "learned", "keeper", "greedy")]
    note = _models_note(pd.DataFrame(rows))
    assert note.startswith("selfplay: the value of each table's family") and "header" in note
    assert _models_note(pd.DataFrame(rows[1:])) == ""  # none of these plays a value per family


def test_the_header_and_methods_count_each_configuration_once(tmp_path):
    """A second table whose rows repeat configurations of the first (the same seed's first deals,
    a shorter run): the header and the methods count what the tables count, each configuration's
    longer run once."""
    base = _table(cheater=False)
    again = pd.DataFrame([_row(r.difficulty, r.seating.split(","), wins=r.wins // 2, games=100)
                          for r in base.iloc[:7].itertuples()])
    write_report(pd.concat([base, again], ignore_index=True), tmp_path)
    md = (tmp_path / "report.md").read_text()
    once = base.drop_duplicates(["difficulty", "seating"])  # its seatings' table repeats the grid's row too
    configs, games, won = len(once), int(once["games"].sum()), int(once["wins"].sum())
    assert f"\n{configs} configurations, {games:,} games, {won:,} won." in md
    methods = md.split("## How these results were made")[1]
    assert re.search(rf"Games per configuration: [^;\n]+; {configs} configurations, {games:,} games\.", methods), methods[:400]
