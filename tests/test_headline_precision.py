"""The headline's precision as a knob (`kiai sweep --headline`, `make report PRECISION=`): the
default sweep's and the agreement stage's cells play until each headline interval is within the
half-width asked; without it the races are as they were (their signatures too, so --resume keeps
tables written before the knob existed)."""

import numpy as np
import pytest

from kiai.reports.playing import presets, stopping
from kiai.reports.playing.stopping import pooled, widest_side


def _headline_groups(groups, plan):
    return [g for g in groups if isinstance(g.rule, stopping.Extremes) and g.rule.precision == presets.SWEEP_PRECISION]


def test_the_default_race_is_unchanged_without_a_headline():
    plan = presets.default_plan()
    plain, none = presets.preset_groups("default", plan), presets.preset_groups("default", plan, None)
    assert [g.rule.describe() for g in plain] == [g.rule.describe() for g in none]
    assert all("pooled" not in g.rule.describe() for g in plain)  # the signature --resume reads, as before


def test_a_headline_of_one_point_keeps_every_line_up_playing_until_the_pooled_cell_is_that_narrow():
    plan = presets.default_plan()
    groups = _headline_groups(presets.preset_groups("default", plan, 0.01), plan)
    assert len(groups) == 4 * 6 and {g.rule.pooled for g in groups} == {0.01}
    assert {g.rule.cap for g in groups} == {presets.DEFAULT_GAMES * 4}  # games grow as 1/width^2
    g = next(g for g in groups if len(g.members) == 21)
    own = next(g for g in _headline_groups(presets.preset_groups("default", plan), plan) if len(g.members) == 21)
    k = len(g.members)
    labels, held = np.zeros(k, int), np.ones(k, bool)
    # a clear best (90%) and worst (10%), known to +-1.4 points: the race alone stops every member
    seen = set()
    for per in (300, 380, 440, 500):
        games = np.array([5000, 5000] + [per] * (k - 2))
        wins = np.array([4500, 500] + [per // 2] * (k - 2))
        assert not own.rule.keep(wins, games, held, labels).any()
        rate, size = pooled(wins, games)
        narrow = widest_side(round(rate * size), round(size)) <= 0.01
        keep = g.rule.keep(wins, games, held, labels)
        assert keep.all() != narrow and (keep.all() or not keep.any())
        seen.add(narrow)
    assert seen == {True, False}


def test_the_agreement_cells_take_the_headline_and_a_cap_to_match():
    from test_agreement import _main_table  # the main table of every line-up at every level

    plan = presets.preset_plan("agreement", results=_main_table())
    for h, cap in ((None, presets.AGREEMENT_CAP), (0.01, 4 * presets.AGREEMENT_CAP), (0.03, presets.AGREEMENT_CAP)):
        cells = [g for g in presets.preset_groups("agreement", plan, h) if g.rule.bounds() != (presets.AGREEMENT_GAMES,)]
        assert {g.rule.h for g in cells} == {presets.HEADLINE_PRECISION if h is None else h}
        assert {g.rule.bounds()[-1] for g in cells} == {cap}


@pytest.mark.parametrize("args, message", [
    (["--preset", "ladder", "--headline", "0.01"], "--headline goes with --preset default or agreement"),
    (["--preset", "default", "--headline", "0"], "--headline must be a half-width in (0, 0.5]"),
    (["--preset", "default", "--headline", "0.7"], "--headline must be a half-width in (0, 0.5]"),
    (["--preset", "default", "--headline", "0.01", "--games", "100"], "not with --games or --precision"),
    (["--players", "3", "--headline", "0.01"], "--headline goes with --preset"),
])
def test_bad_headlines_are_one_line_exit_2(tmp_path, capsys, args, message):
    from kiai.cli.main import main

    code = main(["sweep", "--out", str(tmp_path / "t.parquet"), *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "t.parquet").exists()


def test_the_api_records_the_headline_in_the_command_it_describes():
    from kiai.inputs.sweep_plan import Axes, describe_sweep

    axes = Axes.of(None, None, None, None, "given", None, None, None)
    assert "--headline 0.01" in describe_sweep("default", axes, ["selfplay"], None, None, None, 0, headline=0.01)
    assert "--headline" not in describe_sweep("default", axes, ["selfplay"], None, None, None, 0)
