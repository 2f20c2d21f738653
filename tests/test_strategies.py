"""The heuristic strategies, the lookahead planner and the cheating foresight: each decides as
its description says in hand-built positions, plays legally everywhere (fuzzing), and the
planner's sampling uses public information only (R-19)."""

import numpy as np
from scipy.stats import binomtest
import pytest
from conftest import Cards, events, guarded, make_config, ok
from scenario import Position

from kiai.simcore.events import EV_FIGHT, EV_PASS, EV_SUPPORT
from kiai.simcore.results import O_DECISIONS, O_ERR, O_ILLEGAL, O_OUTCOME
from kiai.strategies.registry import REGISTRY, get
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games

pytestmark = pytest.mark.usefixtures("engine", "one_thread")

HEURISTICS = ["counter", "kiai", "team", "risk", "keeper"]
FUZZ = [
    (("heihachi", "daisuke"), "hard", "auto"),  # two samurai: absent tokens, doll check
    (("gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo"), "heroic", "on"),
    (("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo"), "easy", "auto"),
]


def _first_action(run, seat):
    """'fight', 'pass' or 'support' for seat's first turn in the run."""
    if events(run, EV_FIGHT) and events(run, EV_FIGHT)[0][0] == seat:
        return "fight"
    if events(run, EV_SUPPORT) and events(run, EV_SUPPORT)[0][0] == seat:
        return "support"
    assert events(run, EV_PASS)[0][:2] == (seat, 0)  # chosen, not forced
    return "pass"


# ---------------------------------------------------------------- legality under the fuzz harness
@pytest.mark.parametrize("samurai,level,absent", FUZZ)
@pytest.mark.parametrize("strategy", HEURISTICS)
def test_heuristics_play_legally_everywhere(strategy, samurai, level, absent):
    """Section 13: every decision point, absent tokens included, gets a legal answer; the
    invariants hold at every step."""
    cfg = GameConfig(samurai, level, strategy, absent_tokens=absent)
    out = run_games(cfg, 1500, seed=31, check=True)
    assert (out[:, O_ERR] == 0).all()
    assert out[:, O_ILLEGAL].sum() == 0
    assert out[:, O_DECISIONS].sum() > 0


@pytest.mark.parametrize("strategy", ["lookahead", "foresight", "peek"])
@pytest.mark.parametrize("samurai,level,absent", FUZZ[:2])
def test_planners_play_legally(strategy, samurai, level, absent):
    params = {"base": 3} if strategy == "foresight" else {"base": 2, "samples": 2}
    cfg = GameConfig(samurai, level, strategy, params=params, absent_tokens=absent)
    out = run_games(cfg, 60, seed=5, check=True)
    assert (out[:, O_ERR] == 0).all() and out[:, O_ILLEGAL].sum() == 0


@pytest.mark.parametrize("strategy,params", [
    ("lookahead", {"base": 4, "samples": 3, "decisions": 1}),
    ("lookahead", {"base": 4, "samples": 6, "decisions": 1, "race": 0.2, "first": 2}),
    ("lookahead", {"base": 4, "samples": 6, "race": 0.2, "first": 2}),
    ("judge", {"samples": 3}),
])
@pytest.mark.parametrize("samurai,level,absent", FUZZ[:2])
def test_planners_rollouts_start_from_legal_states(strategy, params, samurai, level, absent):
    """Under the invariant checker a planner's rollouts are checked too (lookahead.carry_error): the
    lookahead weighing a question plays the base's own answer as cand[0], never an action of -1
    (which once read as a Support to seat -3)."""
    cfg = GameConfig(samurai, level, strategy, params=params, absent_tokens=absent)
    out = run_games(cfg, 12, seed=5, check=True)
    assert (out[:, O_ERR] == 0).all() and out[:, O_ILLEGAL].sum() == 0


# ---------------------------------------------------------------- the heuristics' characters
def _threshold_position(strategy, values, margin, params=None):
    """Seat 0 (Gorobei, Kiai 9) to act with the given margin, every seat's defence side full
    (nothing can be defended), the raider stack holding cards of the given values."""
    cards = Cards()
    cfg = make_config("gorobei", "kanbei", "kyuzo", strategy=strategy, params=params or {})
    pos = guarded(cfg, cards)
    line = []
    rest = 9 - margin
    while rest > 3:
        line.append(cards(value=3))
        rest -= 3
    line.append(cards(value=rest, penalties=[]))  # the last card: no battle penalty
    return pos.line(0, line).raider([cards(value=v) for v in values]).turn(0)


def test_counter_fights_only_while_the_counted_risk_is_low():
    """The counter counts the unseen cards: all overcome a margin of 2 -> Pass; all fit -> Fight."""
    run = _threshold_position("counter", [3, 3, 4, 4, 3, 4, 4], margin=2).play(turns=1)
    ok(run)
    assert _first_action(run, 0) == "pass"
    run = _threshold_position("counter", [1, 1, 1, 1, 2, 2, 2], margin=2).play(turns=1)
    assert _first_action(run, 0) == "fight"


def test_kiai_seeker_fights_for_an_exact_kiai_the_counter_declines():
    """Margin 3, four 3s and three 4s unseen: the Kiai seeker's odds of an exact Kiai (4/7)
    outweigh the overcome (3/7); the counter sees a 43% risk and passes."""
    values = [3, 3, 3, 3, 4, 4, 4]
    run = _threshold_position("kiai", values, margin=3, params={"stay": 0}).play(turns=1)
    ok(run)
    assert _first_action(run, 0) == "fight"
    run = _threshold_position("counter", values, margin=3, params={"stay": 0}).play(turns=1)
    assert _first_action(run, 0) == "pass"


def test_risk_manager_takes_no_risk_one_wound_from_death():
    """Animal side with a token: a wound-penalty card kept in his line would kill him at his
    next turn, so the risk manager passes where, unwounded, it fights."""
    cards = Cards()
    cfg = make_config("gorobei", "kanbei", "kyuzo", strategy="risk")
    wound_card = cards(value=3, penalties=["wound"])  # odd: Gorobei cannot ignore it
    for w, expect in ((3, "pass"), (0, "fight")):
        c2 = Cards()
        c2.take(wound_card)
        pos = guarded(cfg, c2).wound(0, w).raider([wound_card, c2(value=1)]).turn(0)
        run = pos.play(turns=1)
        ok(run)
        assert _first_action(run, 0) == expect, (w, expect)


def test_team_player_lends_its_talent_instead_of_passing():
    """Katsushiro cannot fight safely (every card overcomes him) but the stack is long: the team
    player Supports the samurai in most need; the counter just passes."""
    cards = Cards()
    samurai = ("katsushiro", "gorobei", "kanbei")
    stack = [cards(value=4) for _ in range(6)] + [cards(value=3) for _ in range(3)]
    for strategy, expect in (("team", "support"), ("counter", "pass")):
        c2 = Cards()
        for c in stack:
            c2.take(c)
        cfg = make_config(*samurai, strategy=strategy)
        pos = Position(cfg)
        pos.defence(0, c2.guard())
        line = [c2(value=4), c2(value=4, penalties=[])]  # total 8, Kiai 10: every card overcomes
        pos.line(0, line).line(1, [c2(value=3), c2(value=3)])
        pos.raider(stack).turn(0)
        run = pos.play(turns=1)
        ok(run)
        assert _first_action(run, 0) == expect, strategy


# ---------------------------------------------------------------- planners
def _stacks(hid):
    """What a sample deals (a one-record hidden array): the stacks and the farmstead backs,
    not the work space or the game's random stream."""
    return tuple(hid[f].tobytes() for f in ("raider", "intruder", "farm_alive", "farm_back"))


def _stream(seed):
    return np.array([seed], dtype=np.int64)


def test_lookahead_resample_keeps_the_public_facts():
    """R-19: a sample deals exactly the unseen cards over the raider and intruder stacks,
    keeps Katsushiro's known cards on top, and depends on pub alone (two hidden orders give
    the same sample)."""
    from kiai.strategies.lookahead import resample

    cards = Cards()
    cfg = make_config("katsushiro", "gorobei", "kanbei")
    stack = [cards(value=v, symbol="none") for v in (1, 2, 3, 4)] + [cards(value=2, symbol="hat")]
    intr = [cards(value=1, symbol="doll"), cards(value=3, symbol="farm")]
    pos = Position(cfg).raider(stack).intruder(intr).known(2)
    pub, hid = pos.p, pos.hid
    hid2 = hid.copy()
    hid2.raider[0, :3] = hid2.raider[0, :3][::-1]  # hidden bottom reordered
    hid2.intruder[0, [0, 1]] = hid2.intruder[0, [1, 0]]
    assert _stacks(hid2) != _stacks(hid)
    a, b = hid.copy(), hid2.copy()
    resample(pub, a[0], _stream(42))
    resample(pub, b[0], _stream(42))
    n, m = int(pub.raider_n), int(pub.intruder_n)
    assert _stacks(a) == _stacks(b)
    dealt = list(a.raider[0, :n]) + list(a.intruder[0, :m])
    assert sorted(dealt) == sorted(stack + intr)
    assert list(a.raider[0, n - 2 : n][::-1]) == stack[:2]  # known top, top first
    seen = {tuple(a.raider[0, :n])}
    for seed in range(1, 30):
        c = hid.copy()
        resample(pub, c[0], _stream(seed))
        seen.add(tuple(c.raider[0, :n]))
    assert len(seen) > 3  # it does sample


def test_peek_samples_keep_the_true_next_card():
    """`peek` (cheating) samples like the lookahead, then puts the true next raider card on top:
    the sample still deals exactly the unseen cards, its top is the real one whatever the
    sample's seed, and the rest still varies. A card Katsushiro made known (R-19) is on top
    already and nothing moves."""
    from kiai.strategies.lookahead import keep_next_card, resample

    cards = Cards()
    cfg = make_config("katsushiro", "gorobei", "kanbei")
    stack = [cards(value=v, symbol="none") for v in (1, 2, 3, 4)] + [cards(value=2, symbol="hat")]
    intr = [cards(value=1, symbol="doll"), cards(value=3, symbol="farm")]
    pos = Position(cfg).raider(stack).intruder(intr)
    pub, hid = pos.p, pos.hid
    n, m = int(pub.raider_n), int(pub.intruder_n)
    top = int(hid.raider[0, n - 1])
    assert top == stack[0]
    tops, rests = set(), set()
    for seed in range(40):
        a = hid.copy()
        resample(pub, a[0], _stream(seed))
        tops.add(int(a.raider[0, n - 1]))
        keep_next_card(pub, hid[0], a[0])
        dealt = list(a.raider[0, :n]) + list(a.intruder[0, :m])
        assert sorted(dealt) == sorted(stack + intr)
        assert a.raider[0, n - 1] == top
        rests.add(tuple(a.raider[0, : n - 1]))
    assert len(tops) > 1 and len(rests) > 3  # the sample alone would not know it
    known = Position(cfg).raider(stack).intruder(intr).known(1)
    a = known.hid.copy()
    resample(known.p, a[0], _stream(3))
    b = a.copy()
    keep_next_card(known.p, known.h, b[0])
    assert a.tobytes() == b.tobytes()


def _lookahead_params(**overrides):
    """The lookahead's parameter record: defaults with overrides (what plan() reads)."""
    la = get("lookahead")
    a = la.new_record()
    for p, v in zip(la.params, la.param_vector(overrides)):
        a[0][p.name] = v
    return a[0]


def test_lookahead_values_the_village_with_its_weights():
    """The planner's end-of-round value reads its own weights (farm, family, wound, scarce):
    each moves the value by exactly what it weighs, and `scarce` is a barrier that costs more
    as the last farmstead, family or life comes near."""
    from kiai.strategies.lookahead import village_value

    cfg = make_config("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    pub = Position(cfg).village(barricades=3, farmsteads=4, families=2).wound(1, 3).p
    base = _lookahead_params()
    v0 = village_value(pub, base)

    def moved(**kw):
        return village_value(pub, _lookahead_params(**kw)) - v0

    assert moved(farm=5.0) == pytest.approx(3.0 * 4)  # default 2 -> 5, four farmsteads
    assert moved(family=8.0) == pytest.approx(3.0 * 2)  # default 5 -> 8, two families
    assert moved(wound=2.0) < moved(wound=1.5) < 0  # a samurai one wound from death costs more
    barrier = 1 / 4 + 1 / 2 + 3 * (1 / 4) + 1 / (4 - 3)  # farmsteads, families, three fresh samurai, one at animal+token
    assert moved(scarce=10.0) == pytest.approx(-10.0 * barrier)
    near = Position(cfg).village(barricades=3, farmsteads=1, families=2).wound(1, 3).p
    assert village_value(near, _lookahead_params(scarce=10.0)) < village_value(near, base) - 10.0 * 1.5


def test_lookahead_plans_change_play_and_are_reproducible():
    """The planner's actions are played (the games differ from its base heuristic's on the
    same deals), and a lookahead game is the same whatever the thread count or batch split."""
    four = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    la = GameConfig(four, "easy", "lookahead", params={"samples": 2})
    base = GameConfig(four, "easy", get("lookahead").base())
    a = run_games(la, 40, seed=3)
    assert (a != run_games(base, 40, seed=3)).any(axis=1).sum() > 10
    b = np.concatenate([run_games(la, 15, seed=3), run_games(la, 25, seed=3, game_offset=15)])
    np.testing.assert_array_equal(a, b)


def test_lookahead_margin_leaves_a_sound_base_alone():
    """`margin`: the honest planner overrides its base only when its samples show the best
    action ahead by that many standard errors. With a high margin most games are its base's
    games; with none it overrides freely and most games differ."""
    four = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    base = run_games(GameConfig(four, "easy", get("lookahead").base()), 40, seed=5)

    def same(margin):
        la = GameConfig(four, "easy", "lookahead", params={"samples": 4, "margin": margin})
        return (run_games(la, 40, seed=5) == base).all(axis=1).mean()

    assert same(5.0) > same(0.0) + 0.3


def test_foresight_is_an_upper_bound_on_its_base():
    """Seeing the deal is worth a lot: on the same deals the cheating foresight wins far more
    often than the counter it plays with."""
    four = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    fs = run_games(GameConfig(four, "normal", "foresight"), 150, seed=8)
    ct = run_games(GameConfig(four, "normal", "counter"), 150, seed=8)
    assert (fs[:, O_OUTCOME] == 0).mean() > (ct[:, O_OUTCOME] == 0).mean() + 0.2


def test_peek_wins_more_than_the_lookahead_it_cheats_for():
    """Seeing the next card is worth much: on the same deals `peek` (the lookahead with the true
    next card in every sample) wins more often than the honest lookahead with the same
    parameters."""
    four = ("kyuzo", "kikuchiyo", "heihachi", "daisuke")
    prm = {"samples": 4}
    pk = run_games(GameConfig(four, "easy", "peek", params=prm), 300, seed=8)[:, O_OUTCOME] == 0
    la = run_games(GameConfig(four, "easy", "lookahead", params=prm), 300, seed=8)[:, O_OUTCOME] == 0
    assert pk.mean() > la.mean() + 0.07
    # McNemar's exact test on the deals only one of them won: peek's share is above one half
    only_pk, only_la = int((pk & ~la).sum()), int((la & ~pk).sum())
    assert binomtest(only_pk, only_pk + only_la, alternative="greater").pvalue < 0.01, (only_pk, only_la)


def test_every_strategy_is_registered_with_its_parameters():
    """The plug-in surface: every strategy but `random` has tunable parameters with defaults
    inside their ranges; only foresight and peek are cheating."""
    for s in REGISTRY:
        assert s.name == "random" or s.params, s.name
        for p in s.params:
            assert p.low <= p.default <= p.high, (s.name, p.name)
    assert [s.name for s in REGISTRY if not s.honest] == ["foresight", "peek"]


def test_strategy_hooks_are_reached_through_the_interface_only():
    """The hooks of strategies.base.StrategyModule are looked up by base.hook (registry.hook_of)
    only: no module asks getattr or hasattr for one by name, so the interface lists them all."""
    import ast
    from pathlib import Path

    from kiai.strategies.base import HOOKS, StrategyModule

    root = Path(__file__).resolve().parent.parent
    found = []
    for folder in ("simcore", "strategies", "training", "reports", "kiai", "cli"):
        for path in (root / folder).rglob("*.py"):
            if path.relative_to(root).as_posix() == "strategies/base.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                        and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in HOOKS):
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
    assert not found, "\n".join(found)
    documented = {n for n in vars(StrategyModule) if not n.startswith("_")} | set(StrategyModule.__annotations__)
    assert set(HOOKS) | {"STRATEGY"} == documented


@pytest.mark.parametrize("module", __import__("kiai.strategies.registry", fromlist=["MODULES"]).MODULES,
                         ids=lambda m: m.STRATEGY.name)
def test_every_strategy_module_defines_what_its_kind_needs(module):
    from kiai.strategies.base import hook

    info = module.STRATEGY
    assert (hook(module, "plan") is not None) == info.planner and (hook(module, "decide") is not None) != info.planner
    if info.planner:
        assert hook(module, "hooks") is not None and isinstance(hook(module, "VARIANT"), int)
    with pytest.raises(AttributeError, match="no strategy hook"):
        hook(module, "decides")


def test_the_lookaheads_rollouts_are_keepers_with_rollouts_1():
    """`rollouts` 1 hands the rollouts to keeper while the base answers in the game: over keeper it
    changes nothing, bit for bit; over learned it plays other games."""
    lineup = ("kanbei", "kyuzo", "heihachi", "daisuke", "gorobei")
    base = {"samples": 3, "decisions": 1}

    def play(**params):
        return run_games(GameConfig(lineup, "easy", "lookahead", params={**base, **params}), 6, seed=8)

    assert np.array_equal(play(base=4), play(base=4, rollouts=1))
    assert not np.array_equal(play(base=5), play(base=5, rollouts=1))
