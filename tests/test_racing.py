"""Races (reports.playing.racing): the stopping rules on constructed results, and a raced sweep that gives the
same table on 1 and 2 threads and after an interrupted run is resumed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from kiai.reports.playing import play as P
from kiai.reports.playing import racing as R
from kiai.reports.playing import stopping
from kiai.reports.playing import grid as G
from kiai.reports.playing import sweep as S
from kiai.reports.playing import tables as T
from kiai.reports.playing.summary import Tally
from kiai.simcore import results as L
from kiai.strategies.run.config import GameConfig

GOLDEN = (5 ** 0.5 - 1) / 2


def rows_at(rate: float, offset: int, count: int, phase: float = 0.0) -> np.ndarray:
    """Result rows of games offset.. where a game is won when its low-discrepancy draw is below `rate`:
    after any n games the wins are within one of rate * n, so a test knows what a rule sees."""
    rows = np.ones((count, L.N_OUT), dtype=np.int32)
    draws = ((np.arange(offset, offset + count) * GOLDEN + phase) % 1.0)
    rows[draws < rate, L.O_OUTCOME] = 0
    rows[:, L.O_SCORE] = 0
    return rows


SEATINGS = [("heihachi", "kyuzo", "daisuke"), ("heihachi", "daisuke", "kyuzo"), ("gorobei", "kanbei", "kyuzo"),
            ("gorobei", "kyuzo", "kanbei"), ("kanbei", "katsushiro", "kikuchiyo"), ("kanbei", "kikuchiyo", "katsushiro")]


def race(monkeypatch, rates, groups, *, block=10_000, backend=None, phases=None):
    """Play constructed configurations (win rates `rates`) in `groups` (of positions in rates):
    {position: games played}, and every block played as (position, offset, count)."""
    plan = [(i, GameConfig(SEATINGS[i], "easy", "reference")) for i in range(len(rates))]
    where = {id(c): i for i, c in plan}
    played = []

    def fake(config, seed, offset, count, on_games=None):
        i = where[id(config)]
        played.append((i, offset, count))
        return Tally.of(rows_at(rates[i], offset, count, (phases or [0.0] * len(rates))[i]))

    monkeypatch.setattr(P, "play_range", fake)
    rows = S.run_plan(plan, 1, G.Request(race="test"), backend or P.LocalBackend(), block=block, groups=groups)
    return {i: rows[i]["games"] for i in rows}, played


# ----------------------------------------------------------------------------- the rules


def test_a_clear_leader_stops_the_race_early(monkeypatch):
    rule = stopping.Extremes(200, 200, 4000, worst=False, precision=0.03)
    games, _ = race(monkeypatch, [0.6, 0.3, 0.3, 0.3, 0.3], [R.Group(rule, (0, 1, 2, 3, 4))])
    # the others are out at the first look; the leader stops once a 95% interval of its games is
    # within +-3 points at the group's rate, (0.6 + 4 x 0.3) / 5
    assert games == {0: 1000, 1: 200, 2: 200, 3: 200, 4: 200}
    assert stopping.half_width(360, 1000) <= 0.03 < stopping.half_width(288, 800)


def test_the_precision_reads_the_groups_rate_so_that_no_member_stops_for_winning_less():
    """10 and 30 wins in 200 games, both still candidates: on its own interval (+-3.3 points at 5%) the
    one that won less would stop and freeze its low rate, and rates pooled over the group would lean
    low. At the group's rate (10%) neither interval is within +-4 points yet: both play on."""
    rule = stopping.Extremes(200, 200, 2000, precision=0.04)
    wins, games, held = np.array([10, 30]), np.array([200, 200]), np.array([True, True])
    assert stopping.half_width(10, 200) <= 0.04 < stopping.half_width(20, 200) < stopping.half_width(30, 200)
    assert rule.keep(wins, games, held, np.ones(2)).tolist() == [True, True]
    assert rule.keep(wins, np.array([400, 400]), held, np.ones(2)).tolist() == [False, False]


def test_a_tie_plays_to_the_cap(monkeypatch):
    rule = stopping.Extremes(200, 200, 1400)
    games, _ = race(monkeypatch, [0.3] * 4, [R.Group(rule, (0, 1, 2, 3))], phases=[0, 0.25, 0.5, 0.75])
    assert games == {i: 1400 for i in range(4)}


def test_the_middle_leaves_while_the_best_and_the_worst_play_on(monkeypatch):
    rule = stopping.Extremes(200, 200, 2000)
    games, _ = race(monkeypatch, [0.8, 0.5, 0.5, 0.2], [R.Group(rule, (0, 1, 2, 3))], phases=[0, 0.3, 0.6, 0.9])
    assert games[0] == games[3] == 2000 and games[1] < 2000 and games[2] < 2000


def test_a_side_settled_within_the_margin_stops(monkeypatch):
    """Candidates shown within the margin of the best (and of the worst) stop: nothing to choose."""
    wide = stopping.Extremes(500, 500, 5000, margin=0.5)
    games, _ = race(monkeypatch, [0.31, 0.3, 0.29], [R.Group(wide, (0, 1, 2))])
    assert games == {0: 500, 1: 500, 2: 500}


def test_a_clear_difference_stops_early_and_none_plays_to_the_cap(monkeypatch):
    rule = stopping.Difference(300, 300, 3000)
    clear, _ = race(monkeypatch, [0.6, 0.55, 0.3, 0.35], [R.Group(rule, (0, 1, 2, 3), (1, 1, 0, 0))])
    assert set(clear.values()) == {300}
    none, _ = race(monkeypatch, [0.4, 0.4, 0.4, 0.4], [R.Group(rule, (0, 1, 2, 3), (1, 1, 0, 0))],
                   phases=[0, 0.2, 0.4, 0.6])
    assert set(none.values()) == {3000}
    small = stopping.Difference(300, 300, 30_000, margin=0.05)  # shown smaller than 5 points: stops
    within, _ = race(monkeypatch, [0.41, 0.4, 0.4, 0.41], [R.Group(small, (0, 1, 2, 3), (1, 1, 0, 0))])
    assert max(within.values()) < 30_000


def test_a_cell_plays_its_members_together_until_the_pooled_rate_is_precise(monkeypatch):
    rule = stopping.Cell(50, 50, 5000, h=0.04)
    games, _ = race(monkeypatch, [0.5, 0.5, 0.9, 0.9], [R.Group(rule, (0, 1, 2, 3), (1, 1, 0, 0))])
    # the two measured members pooled: Wilson's half-width at 50% is within 0.04 from 600 games, so
    # 300 each; the companions (at 90%) play the same games whatever their own precision
    assert set(games.values()) == {300}
    assert stopping.half_width(300, 600) <= 0.04 < stopping.half_width(250, 500)


def test_a_cell_near_certain_plays_until_each_side_of_its_interval_is_within_h(monkeypatch):
    """At 95% Wilson's interval leans toward the middle: its half-width is within 2 points well before
    its lower side is. "Within +-2 points" asks it of each side (widest_side)."""
    rule = stopping.Cell(50, 50, 5000, h=0.02)
    games, _ = race(monkeypatch, [0.95, 0.95], [R.Group(rule, (0, 1), (1, 1))])
    def wins(n):  # both members' wins in their first n games each
        return 2 * Tally.of(rows_at(0.95, 0, n, 0.0)).wins

    n = games[0]
    assert stopping.widest_side(wins(n), 2 * n) <= 0.02 < stopping.widest_side(wins(n - 50), 2 * n - 100)
    assert stopping.half_width(wins(n - 50), 2 * n - 100) <= 0.02  # where the half-width alone stopped


def test_a_configuration_plays_on_while_one_of_its_groups_keeps_it(monkeypatch):
    """Member 1 is out of the first race at once, but the second (a tie) keeps it to the cap."""
    first = stopping.Extremes(200, 200, 1000, worst=False)
    games, _ = race(monkeypatch, [0.9, 0.2, 0.2], [R.Group(first, (0, 1)), R.Group(first, (1, 2))],
                    phases=[0, 0, 0.5])
    assert games[1] == games[2] == 1000


class Reversed(P.LocalBackend):
    """Plays every block handed out so far, then gives them back latest first (as a cluster may)."""

    def __init__(self):
        super().__init__()
        self.back = []

    def pending(self):
        return super().pending() + len(self.back)

    def next_done(self):
        if not self.back:
            while super().pending():
                self.back.append(super().next_done())
        return self.back.pop()


def test_decisions_read_only_results_not_blocks_or_their_order(monkeypatch):
    rates, groups = [0.6, 0.45, 0.4, 0.3, 0.2], [R.Group(stopping.Extremes(100, 100, 1500), (0, 1, 2, 3, 4))]
    base, _ = race(monkeypatch, rates, groups)
    small, played = race(monkeypatch, rates, groups, block=37)
    assert small == base and max(c for _, _, c in played) == 37
    reordered, played = race(monkeypatch, rates, groups, block=37, backend=Reversed())
    assert reordered == base
    assert 0 < base[1] < 1500 and base[0] == base[4] == 1500  # the order changed nothing that happened


def test_groups_of_one_configuration_must_share_their_rounds():
    with pytest.raises(T.SweepError, match="different rounds"):
        R.check_groups(2, [R.Group(stopping.Fixed.of(100), (0, 1)), R.Group(stopping.Fixed.of(200), (1,))])
    with pytest.raises(T.SweepError, match="in no group"):
        R.check_groups(3, [R.Group(stopping.Fixed.of(100), (0, 1))])


# --------------------------------------------------------------- a raced sweep on the engine


def small_race():
    plan = G.build_plan(["easy"], SEATINGS, G.strategy_variants(["reference"], {}))
    rule = stopping.Extremes(150, 150, 900, precision=0.03)
    # two races of their own rates, and one across them: seating 1 plays on in it after its own ends
    groups = [R.Group(rule, (0, 1)), R.Group(rule, (2, 3, 4, 5)), R.Group(rule, (1, 2))]
    return plan, groups


def raced_table(path, *, threads=None, backend=None, resume=False, block=70):
    import numba

    from kiai.strategies.run.games import set_threads

    plan, groups = small_race()
    before = numba.get_num_threads()
    if threads is not None:
        set_threads(threads)
    try:
        job = S.Sweep(plan, 4, G.Request(race="test"), path, resume=resume, force=not resume, groups=groups)
        return job.run(backend or P.LocalBackend(), block=block)
    finally:
        set_threads(before)


@pytest.mark.usefixtures("engine")
def test_a_raced_table_is_the_same_on_one_and_two_threads_and_after_a_resume(tmp_path, monkeypatch):
    one = raced_table(tmp_path / "one.parquet", threads=1)
    two = raced_table(tmp_path / "two.parquet", threads=2, block=200)
    pd.testing.assert_frame_equal(one, two)
    assert one["games"].nunique() > 1 and one["games"].max() <= 900  # the race stopped some early

    real, calls = P.play_block, []

    def killed(config, seed, offset, count):  # during the third round: after the first two finished
        if sum(calls) >= 2000:
            raise KeyboardInterrupt
        calls.append(count)
        return real(config, seed, offset, count)

    monkeypatch.setattr(P, "play_block", killed)
    path = tmp_path / "killed.parquet"
    with pytest.raises(KeyboardInterrupt):
        raced_table(path)
    partial, _, info = T.read_table(path)
    assert 0 < len(partial) < len(one) and len(info["rounds"]) == len(partial)
    assert info["partial"]  # where each unfinished configuration stood: it goes on from there
    again = []
    monkeypatch.setattr(P, "play_block", lambda c, s, o, k: again.append((",".join(c.samurai), o, k)) or real(c, s, o, k))
    resumed = raced_table(path, resume=True)
    assert again and not {x[0] for x in again} & set(partial["seating"])  # the finished ones are not played again
    # the unfinished ones go on from the last round they finished: fewer games than starting them over
    assert sum(k for _, _, k in again) < one["games"].sum() - partial["games"].sum()
    assert min(o for _, o, _ in again) > 0
    pd.testing.assert_frame_equal(resumed, one)
    pd.testing.assert_frame_equal(pd.read_parquet(path), pd.read_parquet(tmp_path / "one.parquet"))


# ------------------------------------------------------------------------ the local backend


def test_the_local_backend_plays_two_blocks_at_once_each_on_one_thread(monkeypatch):
    """Two blocks wait for each other at a barrier: a backend that played them one after the
    other would never get past it. Each plays on one thread, the last one alone on both."""
    import threading
    import time

    barrier, seen = threading.Barrier(2, timeout=20), []

    def fake(config, seed, offset, count, on_games=None):
        chunk = P._CHUNK_THREADS.get()
        if offset < 200:
            seen.append((offset, chunk()))
            barrier.wait()
        else:  # asked again at each kernel call: once the other block has returned, it plays alone
            deadline = time.monotonic() + 20
            while chunk() != 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            seen.append((offset, chunk()))
        return Tally.of(rows_at(0.5, offset, count))

    monkeypatch.setattr(P, "play_range", fake)
    backend = P.LocalBackend(threads=2)
    member = type("M", (), {"index": 0, "config": None})()
    for offset in (0, 100, 200):
        backend.submit(member, 1, offset, 100)
    got = []
    while backend.pending():
        got.append(backend.next_done()[1])
    backend.close()
    assert sorted(got) == [0, 100, 200]
    assert sorted(seen) == [(0, 1), (100, 1), (200, 2)]  # the first two together; the last alone


def test_a_sweep_writes_its_table_at_most_every_checkpoint_seconds(tmp_path, monkeypatch):
    writes, now = [], [0.0]
    monkeypatch.setattr(S.time, "monotonic", lambda: now[0])
    job = S.Sweep([GameConfig(SEATINGS[0], "easy", "reference")] * 1, 1, G.Request(games=10), tmp_path / "t.parquet")
    monkeypatch.setattr(job, "write", lambda csv=False: writes.append(now[0]))
    for i, t in enumerate((0.0, 1.0, 9.0, 10.5, 11.0, 25.0)):
        now[0] = t
        job.finished(i, {}, [])
    assert writes == [0.0, 10.5, 25.0]


def test_a_record_made_by_several_threads_at_once_is_one(monkeypatch):
    """Blocks played at once may make the same model record at once: every one of them must be
    handed the record the run layer keeps, not one that another thread's write then drops (the
    engine would read freed memory)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from kiai.strategies import registry
    from kiai.strategies.run import games
    from kiai.strategies import selfplay as SP

    barrier, real = threading.Barrier(4, timeout=20), SP.data_record

    def together(config):  # every thread has looked for the record before any makes it
        barrier.wait()
        return real(config)

    monkeypatch.setattr(SP, "data_record", together)
    monkeypatch.setattr(games, "_RECORDS", {})
    config = GameConfig(SEATINGS[0], "easy", "selfplay")
    with ThreadPoolExecutor(4) as pool:
        addresses = list(pool.map(lambda _: games._data_record(config, registry.get("selfplay")), range(4)))
    (kept,) = games._RECORDS.values()
    assert addresses == [kept.ctypes.data] * 4


def test_a_cell_against_the_default_plays_until_the_headline_difference_is_precise(monkeypatch):
    """`against`: the difference of the measured side's pooled rate from the others' (Newcombe's
    interval, the one the report prints for kiai's strongest player) within +-h."""
    rule = stopping.Cell(100, 100, 20_000, h=0.02, against=True)
    games, _ = race(monkeypatch, [0.5, 0.5, 0.4, 0.4], [R.Group(rule, (0, 1, 2, 3), (1, 1, 0, 0))])
    n = set(games.values())
    assert len(n) == 1
    (g,) = n
    # pooled: 2g games a side; the first round whose difference is within 2 points
    assert stopping.difference_half_width(g, 2 * g, round(0.8 * g), 2 * g) <= 0.02 + 0.005
    assert stopping.difference_half_width(g - 100, 2 * (g - 100), round(0.8 * (g - 100)), 2 * (g - 100)) > 0.02 - 0.005
    plain = stopping.Cell(100, 100, 20_000, h=0.02)
    fewer, _ = race(monkeypatch, [0.5, 0.5, 0.4, 0.4], [R.Group(plain, (0, 1, 2, 3), (1, 1, 0, 0))])
    assert max(fewer.values()) < g  # the rate alone needs fewer games than its difference


def test_a_cell_where_both_win_under_its_floor_stops_at_the_rough_precision(monkeypatch):
    """`floor`: where both sides' 95% intervals lie under it (the headline says "under 2%"),
    +-`rough` is enough; where either side may win more, the cell plays on to +-h."""
    rule = stopping.Cell(100, 100, 20_000, h=0.005, against=True, floor=0.02, rough=0.05)
    rare, _ = race(monkeypatch, [0.002, 0.002, 0.0, 0.0], [R.Group(rule, (0, 1, 2, 3), (1, 1, 0, 0))])
    strict = stopping.Cell(100, 100, 20_000, h=0.005, against=True)
    every, _ = race(monkeypatch, [0.002, 0.002, 0.0, 0.0], [R.Group(strict, (0, 1, 2, 3), (1, 1, 0, 0))])
    (g,) = set(rare.values())
    assert g < max(every.values())
    assert stopping.proportion_ci(round(0.002 * 2 * g), 2 * g)[1] < 0.02  # "under 2%" holds when it stops
    near = stopping.Cell(100, 100, 20_000, h=0.019, against=True, floor=0.02, rough=0.05)
    common, _ = race(monkeypatch, [0.03, 0.03, 0.01, 0.01], [R.Group(near, (0, 1, 2, 3), (1, 1, 0, 0))])
    (c,) = set(common.values())
    assert stopping.difference_half_width(round(0.06 * c), 2 * c, round(0.02 * c), 2 * c) <= 0.019 + 0.005


def test_a_paired_cell_reads_the_deals_both_sides_played_and_stops_sooner(monkeypatch):
    """`shared`: the difference's interval over the deals both sides played
    (stopping.paired_half_width). Here the weaker side wins a subset of the stronger's deals (one
    draw per game for all): they differ on a tenth of the deals, so the paired interval is
    narrow long before Newcombe's, which takes the sides as independent."""
    rates, labels = [0.5, 0.5, 0.4, 0.4], (1, 1, 0, 0)
    paired = stopping.Cell(100, 100, 20_000, h=0.02, against=True, shared=True)
    assert paired.paired and not stopping.Cell(100, 100, 20_000, h=0.02, against=True).paired
    # members 0 and 2, 1 and 3 meet the same deals (as the agreement stage's two players of a line-up)
    games, _ = race(monkeypatch, rates, [R.Group(paired, (0, 1, 2, 3), labels, ("a", "b", "a", "b"))])
    (g,) = set(games.values())
    unpaired, _ = race(monkeypatch, rates, [R.Group(stopping.Cell(100, 100, 20_000, h=0.02, against=True),
                                                    (0, 1, 2, 3), labels)])
    assert 2 * g < max(unpaired.values())
    # the first round whose paired interval is within 2 points, computed from the games themselves
    won = [rows_at(r, 0, g)[:, L.O_OUTCOME] == 0 for r in rates]
    assert stopping.paired_half_width(won, labels, ["a", "b", "a", "b"]) <= 0.02
    short = [w[:g - 100] for w in won]
    assert stopping.paired_half_width(short, labels) > 0.02


def test_a_paired_cell_keeps_every_games_win_in_its_rows(monkeypatch):
    rates = [0.5, 0.3]
    rule = stopping.Cell(50, 50, 400, h=0.2, against=True, shared=True)
    plan = [(i, GameConfig(SEATINGS[i], "easy", "reference")) for i in range(2)]
    monkeypatch.setattr(P, "play_range", lambda config, seed, offset, count, on_games=None:
                        Tally.of(rows_at(rates[[c for _, c in plan].index(config)], offset, count)))
    rows = S.run_plan(plan, 1, G.Request(race="test"), P.LocalBackend(), block=20, groups=[R.Group(rule, (0, 1), (1, 0))])
    for i, rate in enumerate(rates):
        won = T.outcome_bits(rows[i]["outcomes"])
        assert won.size == rows[i]["games"] == won.size and won.sum() == rows[i]["wins"]
        np.testing.assert_array_equal(won, rows_at(rate, 0, won.size)[:, L.O_OUTCOME] == 0)
    plain = S.run_plan(plan, 1, G.Request(race="test"), P.LocalBackend(), block=20,
                       groups=[R.Group(stopping.Cell(50, 50, 400, h=0.2, against=True), (0, 1), (1, 0))])
    assert plain[0]["outcomes"] == "" and T.outcome_bits("") is None  # kept only where a rule reads them
    with pytest.raises(T.SweepError, match="GAMES:HEX"):
        T.outcome_bits("12:zz")


def paired_table(path, monkeypatch, *, resume=False, stop_after=None):
    """A paired race of four constructed configurations written to `path`; with stop_after, the
    run is killed after that many blocks."""
    rates = [0.6, 0.55, 0.5, 0.45]
    plan = [GameConfig(SEATINGS[i], "easy", "reference") for i in range(4)]
    calls = []

    def fake(config, seed, offset, count, on_games=None):
        if stop_after is not None and len(calls) >= stop_after:
            raise KeyboardInterrupt
        calls.append(1)
        return Tally.of(rows_at(rates[plan.index(config)], offset, count, phase=(0.0, 0.0, 0.0, 0.37)[plan.index(config)]))

    monkeypatch.setattr(P, "play_range", fake)
    rule = stopping.Cell(60, 60, 3_000, h=0.03, against=True, shared=True)
    job = S.Sweep(plan, 4, G.Request(race="test"), path, resume=resume, force=not resume,
                  groups=[R.Group(rule, (0, 1), (1, 0), ("p", "p")), R.Group(rule, (2, 3), (1, 0), ("q", "q"))])
    return job.run(P.LocalBackend(threads=1), block=30)


def test_a_paired_race_resumed_reads_the_wins_its_table_kept(tmp_path, monkeypatch):
    whole = paired_table(tmp_path / "whole.parquet", monkeypatch)
    assert (whole["outcomes"] != "").all() and list(whole["games"]) == [240, 240, 3000, 3000]
    path = tmp_path / "killed.parquet"
    with pytest.raises(KeyboardInterrupt):
        paired_table(path, monkeypatch, stop_after=60)
    partial, _, info = T.read_table(path)
    assert 0 < len(partial) < 4 and all("outcomes" in p for p in info["partial"].values())
    pd.testing.assert_frame_equal(paired_table(path, monkeypatch, resume=True), whole)

    # a table whose rows did not keep them cannot replay the race: one line, not a wrong race
    with pytest.raises(KeyboardInterrupt):
        paired_table(path, monkeypatch, stop_after=60)
    frame, keys, info = T.read_table(path)
    for p in info["partial"].values():
        del p["outcomes"]
    T.write_table(frame.assign(outcomes=""), path, keys, info)
    with pytest.raises(T.SweepError, match="wins were not kept"):
        paired_table(path, monkeypatch, resume=True)


def test_a_paired_cell_whose_line_ups_play_deals_of_their_own_reads_them_as_independent(monkeypatch):
    """Members of other deals (Group.deals: seeds of their own) met other deals: paired_half_width reads each seed's
    deals apart and adds their variances, so two line-ups that win on the very same deals (one seed)
    count as one and need twice the games of two that met deals of their own."""
    rates, labels = [0.5, 0.5, 0.4, 0.4], (1, 1, 0, 0)
    rule = stopping.Cell(100, 100, 20_000, h=0.02, against=True, shared=True)
    plan = [(i, GameConfig(SEATINGS[i], "easy", "reference")) for i in range(4)]
    phase = {0: 0.0, 1: 0.5, 2: 0.0, 3: 0.5}  # a line-up's two players: the same deals, one draw each

    def fake(config, seed, offset, count, on_games=None):
        i = [c for _, c in plan].index(config)
        return Tally.of(rows_at(rates[i], offset, count, phase[i] if seed != shared else 0.0))

    shared = R.deal_seed(1, "s")
    monkeypatch.setattr(P, "play_range", fake)
    group = [R.Group(rule, (0, 1, 2, 3), labels, ("s",) * 4)]
    one = S.run_plan(plan, 1, G.Request(race="test"), P.LocalBackend(), block=10_000, groups=group)
    own = S.run_plan(plan, 1, G.Request(race="test"), P.LocalBackend(), block=10_000,
                     groups=[R.Group(rule, (0, 1, 2, 3), labels, ("x", "y", "x", "y"))])
    seeds = [own[i]["seed"] for i in range(4)]
    assert seeds == [R.deal_seed(1, "x"), R.deal_seed(1, "y")] * 2 and {r["seed"] for r in one.values()} == {shared}
    (g1,) = {r["games"] for r in one.values()}
    (g2,) = {r["games"] for r in own.values()}
    assert 1.6 * g2 < g1
    won = [T.outcome_bits(own[i]["outcomes"]) for i in range(4)]
    assert stopping.paired_half_width(won, labels, seeds) <= 0.02


def test_groups_must_agree_on_a_members_deals():
    """Group.deals: one key per member, and a configuration in two groups meets one set of deals."""
    rule = stopping.Fixed.of(10)
    with pytest.raises(T.SweepError, match="deals and members differ"):
        R.check_groups(2, [R.Group(rule, (0, 1), (), ("a",))])
    with pytest.raises(T.SweepError, match="groups of different deals"):
        R.deal_seeds([R.Group(rule, (0, 1), (), ("a", "b")), R.Group(rule, (1,), (), ("c",))], 4)
    assert R.deal_seeds([R.Group(rule, (0, 1), (), ("a", "")), R.Group(rule, (0,), (), ("a",))], 4) == {0: R.deal_seed(4, "a")}
    assert R.deal_seed(4, "a") != R.deal_seed(5, "a") != R.deal_seed(4, "b")
