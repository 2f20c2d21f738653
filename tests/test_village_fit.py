"""training/village_fit.py: how lookahead.WIN_FIT was made. The village it reads at a
round's end is the village the engine holds there, and the fit recovers a known model."""

import numpy as np
import pytest
from conftest import make_config
from scenario import Position

from kiai.training import village_fit as VF
from kiai.strategies.lookahead import WIN_FIT, win_chance
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_one

pytestmark = pytest.mark.usefixtures("engine", "one_thread")


def test_round_ends_read_the_village_the_engine_holds():
    """For games that survive round 1, the event log's village after round 1 equals the state
    of the same game stopped at the end of round 1."""
    checked = 0
    for g in range(30):
        cfg = GameConfig(VF.LINEUPS[g % 3], "normal", "risk")
        full = run_one(cfg, 7, g, trace=True, check=False, trace_rows=20_000)
        ends = VF.round_ends(full)
        if not ends:
            continue
        stop = run_one(cfg, 7, g, trace=False, check=False, stop_after_round_end=True)
        pub = stop.pub
        wounds = tuple(int(pub.wound[s]) for s in range(4))
        assert ends[0] == (1, int(pub.barricades), int(pub.farmsteads), int(pub.families), wounds), g
        checked += 1
    assert checked >= 20


def test_fit_recovers_a_known_model_and_caps_what_never_wins():
    rng = np.random.default_rng(0)
    n = 60_000
    true = np.array([-4.0, 0.5, 0.4, 0.6, -0.3, -0.8])
    rows = []
    for r in (1, 2):
        X = np.column_stack([
            np.ones(n), rng.integers(0, 7, n), rng.integers(1, 7, n), rng.integers(1, 4, n),
            rng.integers(0, 3, n), rng.integers(0, 3, n),
        ])  # fmt: skip
        y = rng.random(n) < 1 / (1 + np.exp(-X @ true))
        n3 = rng.random(n) < 0.05
        y &= ~n3  # a samurai at animal+token never wins: no finite estimate
        rows.append(np.column_stack([np.full(n, r), X, n3, y]))
    coefs = VF.fit(np.concatenate(rows), cap=-3.0)  # above the constant: only the separated term is capped
    for c in coefs:
        np.testing.assert_allclose(c[:6], true, atol=0.2)
        assert c[6] == -3.0


def test_the_shipped_fit_has_the_signs_a_player_expects():
    """More barricades, farmsteads and families raise the chance to win; wounds lower it, the
    more the nearer death."""
    for c in WIN_FIT:
        assert len(c) == len(VF.TERMS)
        assert c[1] > 0 and c[2] > 0 and c[3] > 0
        assert 0 > c[4] > c[5] > c[6]


def test_win_chance_is_the_fitted_model_and_exact_at_the_end():
    """lookahead.win_chance (the planners' `value`=1): the logistic model of WIN_FIT on the
    village after rounds 1 and 2; 1 once round 3 is survived; 0 or 1 once the game is over."""
    cfg = make_config("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    for r in (1, 2):
        pos = Position(cfg).village(barricades=2, farmsteads=5, families=3).wound(0, 1).wound(2, 2).turn(0, round_=r)
        c = WIN_FIT[r - 1]
        eta = c[0] + 2 * c[1] + 5 * c[2] + 3 * c[3] + c[4] + c[5]
        assert win_chance(pos.p) == pytest.approx(1 / (1 + np.exp(-eta)))
    assert win_chance(Position(cfg).turn(0, round_=3).p) == 1.0
    pub = Position(cfg).turn(0, round_=1).p
    pub.game_over = 1
    pub.outcome = 1  # a death
    assert win_chance(pub) == 0.0
    pub.outcome = 0
    assert win_chance(pub) == 1.0


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--games", "0"], "--games must be at least 1, got 0"),
        (["--games", "3", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["--games", "3"], "no game was won from the end of round 1"),
        (["--games", "many"], "invalid int value: 'many'"),
    ],
)
def test_refit_command_rejects_bad_input_in_one_line(argv, says, capsys):
    """`python -m kiai.training.village_fit`: bad input (and too few games to fit) ends with a
    one-line error and exit status 2, no traceback."""
    with pytest.raises(SystemExit) as e:
        VF.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert says in last and "Traceback" not in err
