"""Issue 60: event-keyed outcomes, and the perfect-information solver's answers certified by the
engine itself."""

import numpy as np
import pytest

from kiai import solve as S
from kiai.simcore.events import EV_CARDS, EV_DECISION, EV_RANDOM, EV_STACK, STK_ROUND, TR_COLS
from kiai.simcore.results import N_OUT, O_OUTCOME
from kiai.strategies.game_config import GameConfig
from kiai.strategies.playing import play_batch

LINEUP = ("daisuke", "gorobei", "katsushiro", "kikuchiyo")


def _recorded(strategy, game, keyed, seed=0, level="normal"):
    """One game's record rows, outcomes keyed by event or not."""
    config = GameConfig(LINEUP, level, strategy)
    cfgs = S.keyed_config(config, trace=True)
    cfg = cfgs[0]
    cfg.event_keyed = int(keyed)
    cfg.recording = 1
    events = np.zeros((1 << 16, TR_COLS), dtype=np.int64)
    cfg.trace_addr = events.ctypes.data
    cfg.trace_cap = events.shape[0]
    out = np.zeros((1, N_OUT), dtype=np.int32)
    book = play_batch(cfgs, seed, game, out)[0][2]
    return events[: int(book["trace_n"][0])]


def _stacks(rows):
    """Each round's raider stack as dealt (top first), by round."""
    stacks = {}
    for i, row in enumerate(rows):
        if row[0] == EV_STACK and row[2] == STK_ROUND:
            cards = []
            j = i + 1
            while j < len(rows) and rows[j][0] == EV_CARDS:
                cards += [int(c) for c in rows[j][2:] if c >= 0]
                j += 1
            stacks[int(row[1])] = cards
    return stacks


def _randoms(rows, kind):
    return [int(r[3]) for r in rows if r[0] == EV_RANDOM and r[2] == kind]


def test_keyed_outcomes_do_not_depend_on_the_line_played():
    """Two strategies play the same deals differently; with event-keyed outcomes they meet the
    same round-2 and round-3 decks and the same farmstead and family picks, in order; with the
    shared stream (the default) the later decks differ."""
    same_r2 = differs_default = 0
    for game in range(12):
        a = _recorded("counter", game, True, level="easy")
        b = _recorded("keeper", game, True, level="easy")
        da = [tuple(r[2:]) for r in a if r[0] == EV_DECISION]
        db = [tuple(r[2:]) for r in b if r[0] == EV_DECISION]
        assert da != db
        sa, sb = _stacks(a), _stacks(b)
        assert sa[1] == sb[1]
        for r in (2, 3):
            if r in sa and r in sb:
                assert sa[r] == sb[r]
                same_r2 += r == 2
        for kind in (0, 1):  # RND_FARMSTEAD, RND_FAMILY: the k-th pick is the same token
            fa, fb = _randoms(a, kind), _randoms(b, kind)
            k = min(len(fa), len(fb))
            assert fa[:k] == fb[:k]
        xa, xb = _stacks(_recorded("counter", game, False, level="easy")), _stacks(_recorded("keeper", game, False, level="easy"))
        if 2 in xa and 2 in xb and xa[2] != xb[2]:
            differs_default += 1
    assert same_r2 >= 2 and differs_default >= 1


def test_event_keying_is_off_by_default():
    config = GameConfig(LINEUP, "normal", "counter")
    from kiai.strategies.playing import kernel_config, run_games

    assert int(kernel_config(config)[0].event_keyed) == 0
    keyed = S.keyed_outcomes(LINEUP, "normal", 40, seed=3, strategy="counter")
    plain = run_games(config, 40, 3)
    assert (keyed != plain).any()


@pytest.fixture(scope="module")
def easy_solved():
    return S.solve(LINEUP, "easy", 4, seed=0, budget=3000)


def test_every_won_line_replays_as_a_win(easy_solved):
    won = [s for s in easy_solved if s.answer == "won"]
    assert won
    for s in won:
        assert S.certify(LINEUP, "easy", 0, s.game, s.line)
        assert not S.certify(LINEUP, "easy", 0, s.game, s.line + [0])  # every answer is used


def test_no_strategy_wins_a_deal_proved_lost():
    solved = S.solve(LINEUP, "heroic", 6, seed=0, budget=3000)
    lost = [s.game for s in solved if s.answer == "lost"]
    for strategy in ("counter", "selfplay"):
        out = S.keyed_outcomes(LINEUP, "heroic", 6, seed=0, strategy=strategy)
        for g in lost:
            assert out[g, O_OUTCOME] != 0


def test_kiai_solve_writes_every_deal_and_refuses_bad_input_in_one_line(capsys, tmp_path):
    import json

    from conftest import one_line_error, run

    out = tmp_path / "s.json"
    code, text, _ = run(capsys, "solve", "-s", ",".join(LINEUP), "-d", "easy", "-n", "3", "--budget", "2000",
                        "--out", out)
    assert code == 0 and "3 deals" in text
    res = json.loads(out.read_text())
    assert len(res["deals"]) == 3 and res["won"] + res["lost"] + res["unknown"] == 3
    assert all(d["certified"] for d in res["deals"] if d["answer"] == "won")
    for args, word in ((["--budget", "0"], "--budget"), (["-n", "0"], "--games"), (["--order", "x"], "--order"),
                       (["-d", "impossible"], "difficulty"), (["-s", "kyuzo"], "2 to 7 samurai")):
        one_line_error(*run(capsys, "solve", "-s", ",".join(LINEUP), *args), word)
    code, text, _ = run(capsys, "solve", "--help")
    assert code == 0 and "--budget" in text


def test_kiai_solve_in_a_log_prints_progress_lines_that_count_the_deals(capsys, monkeypatch):
    """A long solve is not silent: where standard error is no terminal, kiai.progress.Lines counts
    the deals solved, with a rate that starts after the first deal (which carries the compile)."""
    import kiai.progress
    from conftest import run

    monkeypatch.setattr(kiai.progress, "LOG_EVERY", 0.0)  # a line at every deal, not every 30 s
    code, out, err = run(capsys, "solve", "-s", "kanbei,kyuzo,heihachi", "-d", "normal", "-n", 4, "--budget", 20000)
    assert code == 0 and "4 deals of seed 0" in out
    lines = [x for x in err.splitlines() if x.startswith("solve: ")]
    assert lines and "4 of 4 deals (100%)" in lines[-1], err
