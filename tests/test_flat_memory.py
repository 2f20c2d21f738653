"""Memory flat in the number of games: results are summarised block by block (a Tally; pair
counts for the paired tests), and the figures are exactly those of holding every game's row."""

from __future__ import annotations

import contextlib
import io
import json
import pickle

import numpy as np
import pytest

from kiai.cli.main import main
from kiai.reports.search import compare as C
from kiai.strategies.registry import DEFAULT
from conftest import RecordingBar
from kiai.reports.playing import play as S
from kiai.reports.playing.summary import MAX_SCORE, Tally, absent_tokens_unused, kiai_version, summarize
from kiai.simcore.stats import proportion_ci
from kiai.simcore import results as L
from kiai.simcore.codes import OUTCOMES
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import grade, run_games

pytestmark = pytest.mark.usefixtures("engine")


def summarize_rows(out, config, seed):
    """reports.playing.summary.summarize as it was when it read every game's row (the reference)."""
    games = int(out.shape[0])
    outcome = out[:, L.O_OUTCOME]
    wins = int((outcome == 0).sum())
    lo, hi, method = proportion_ci(wins, games)
    n = config.n
    end_round = out[:, L.O_END_ROUND]
    lost = outcome > 0
    scores = out[outcome == 0, L.O_SCORE]
    score_counts = np.bincount(scores, minlength=MAX_SCORE + 1) if wins else np.zeros(MAX_SCORE + 1, int)
    pluses = config.level_pluses
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "ci_method": method,
        "outcomes": {name: int((outcome == i).sum()) for i, name in enumerate(OUTCOMES)},
        "ended_in_round": {str(r): int((end_round == r).sum()) for r in (1, 2, 3)},
        "lost_in_round": {str(r): int(((end_round == r) & lost).sum()) for r in (1, 2, 3)},
        "scores": {str(s): int(c) for s, c in enumerate(score_counts) if c},
        "grades": {grade(s, pluses): int(c) for s, c in enumerate(score_counts) if c},
        "mean_barricades_left": float(out[:, L.O_BARR].mean()),
        "mean_farmsteads_left": float(out[:, L.O_FARMS].mean()),
        "mean_families_left": float(out[:, L.O_FAMS].mean()),
        "mean_wound_steps": float(out[:, L.O_WOUND_SUM].mean() / n),
        "kiai_activations_per_game": float(out[:, L.O_KIAI].mean()),
        "cards_confronted_per_game": float(out[:, L.O_CONFRONTED].mean()),
        "cards_defended_per_game": float(out[:, L.O_DEFENDED].mean()),
        "turns_per_game": float(out[:, L.O_TURNS].mean()),
        "stalled_games": int(out[:, L.O_STALLED].sum()),
        "illegal_choices": int(out[:, L.O_ILLEGAL].sum()),
        "seed": int(seed),
        **config.describe(),
        "absent_tokens_unused": absent_tokens_unused(config),
        "kiai_version": kiai_version(),
    }


CONFIGS = [  # (seating, level, strategy, params, absent tokens), games, seed
    ((("kyuzo", "heihachi", "daisuke"), "easy", "reference", {}, "auto"), 6000, 1),
    ((("kyuzo", "heihachi"), "normal", "reference", {"T": 2}, "auto"), 4000, 7),
    ((("gorobei", "kanbei", "katsushiro", "kikuchiyo", "daisuke"), "hard", "keeper", {}, "auto"), 3000, 2),
    ((("heihachi", "daisuke", "gorobei", "kyuzo"), "easy", "random", {}, "on"), 3000, 5),
]


@pytest.mark.parametrize("spec,games,seed", CONFIGS, ids=[c[0][2] + "-" + c[0][1] for c in CONFIGS])
def test_tally_summary_is_the_rows_summary(spec, games, seed):
    seating, level, strategy, params, absent = spec
    config = GameConfig(seating, level, strategy, params, absent_tokens=absent)
    rows = run_games(config, games, seed)
    old = summarize_rows(rows, config, seed)
    # blocks of uneven sizes, counted in a shuffled order and merged, give the same Tally
    cuts = [0, 1, 17, 500, 2048, games - 3, games]
    parts = [Tally.of(rows[i:j]) for i, j in zip(cuts, cuts[1:])]
    merged = Tally()
    for k in np.random.default_rng(seed).permutation(len(parts)):
        merged.merge(parts[k])
    whole = Tally.of(rows)
    assert merged == whole and pickle.loads(pickle.dumps(whole)) == whole
    assert S.play_range(config, seed, 0, games) == whole  # played in kernel calls of its own sizing
    for new in (summarize(whole, config, seed), summarize(rows, config, seed)):
        assert list(new) == list(old)
        for key in old:  # field by field, floats bit for bit
            assert new[key] == old[key] and type(new[key]) is type(old[key]), key
    assert old["wins"] > 0 or strategy == "random"  # the score counts are not vacuous


def test_tally_refuses_what_is_not_rows():
    with pytest.raises(ValueError):
        Tally.of(np.zeros((5, 3), np.int32))


# ------------------------------------------------------------------------------ compare


class Recorder:
    """Wraps reports.playing.play.play_block: the (seating or strategy, offset, count) of each call."""

    def __init__(self, monkeypatch):
        self.calls = []
        self.real = S.play_block
        monkeypatch.setattr(S, "play_block", self)

    def __call__(self, config, seed, offset, count):
        self.calls.append((",".join(config.samurai) + "/" + config.strategy, offset, count))
        return self.real(config, seed, offset, count)


def compare_json(*argv):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["compare", *map(str, argv), "--json"]) == 0
    return buf.getvalue()


def whole_played(arms, games, seed):
    """Each arm played whole (every game's row at once), as compare did before it played in blocks."""
    rows = [run_games(arm.config, games, seed) for arm in arms]
    won = np.array([r[:, L.O_OUTCOME] == 0 for r in rows], dtype=np.int64)
    both = won @ won.T  # games both arms won, in integers
    return [{"arm": arm, "summary": summarize_rows(r, arm.config, seed), "index": i, "both": both[i]}
            for i, (arm, r) in enumerate(zip(arms, rows))]  # fmt: skip


def blocks_in_turn(calls, arms):
    """The blocks (offset, count) of the calls, checked to be played by every arm in turn."""
    assert len(calls) % arms == 0
    out = []
    for k in range(0, len(calls), arms):
        group = calls[k : k + arms]
        assert len({c[0] for c in group}) == arms and len({c[1:] for c in group}) == 1, group
        out.append(group[0][1:])
    return out


def test_compare_in_blocks_is_compare_whole(monkeypatch):
    lineup, games, seed = ("kyuzo", "heihachi", "daisuke", "gorobei"), 3000, 2
    rec = Recorder(monkeypatch)
    printed = compare_json("--lineup", ",".join(lineup), "-d", "easy", "-n", games, "--seed", seed)
    arms = C.seating_arms(lineup, "easy", DEFAULT, {})
    done = blocks_in_turn(rec.calls, len(arms))
    assert len(done) > 2 and done[0] == (0, S.FIRST_CHUNK)
    assert [o for o, _ in done] == list(np.cumsum([0] + [k for _, k in done[:-1]])) and sum(k for _, k in done) == games
    assert printed == json.dumps(C.seatings_report(whole_played(arms, games, seed), ",".join(lineup), seed)) + "\n"
    assert any(e["discordant"] != [0, 0] for e in json.loads(printed))  # the paired counts are not vacuous


def test_compare_strategies_in_blocks_is_compare_whole(monkeypatch):
    seating, games, seed = ("kyuzo", "heihachi", "daisuke"), 2500, 4
    monkeypatch.setattr(C, "PAIR_CELLS", 3 * 300)  # blocks of at most 300 games: many of them
    rec = Recorder(monkeypatch)
    printed = compare_json("--strategies", "reference,random,keeper", "-s", ",".join(seating), "-d", "easy",
                           "-n", games, "--seed", seed)  # fmt: skip
    arms = C.strategy_arms(seating, "easy", [("reference", {}), ("random", {}), ("keeper", {})])
    done = blocks_in_turn(rec.calls, len(arms))
    assert len(done) >= games // 300 and max(k for _, k in done) == 300 and sum(k for _, k in done) == games
    assert printed == json.dumps(C.strategies_report(whole_played(arms, games, seed), games, seed)) + "\n"


def test_compare_bar_counts_every_game_as_it_is_played(monkeypatch):
    from kiai.cli import compare as cli_compare

    bar = RecordingBar()
    monkeypatch.setattr(cli_compare, "progress", bar)
    compare_json("--lineup", "kyuzo,heihachi,daisuke,gorobei", "-d", "easy", "-n", 1000)
    moves = [k for _, k in bar.moves]
    assert bar.tasks[0]["total"] == 6 * 1000 and sum(moves) == 6000 and moves[:6] == [S.FIRST_CHUNK] * 6
    assert bar.names[:6] == [f"seating {i}/6: {','.join(s)}" for i, s in enumerate(
        C.seatings_from(("kyuzo", "heihachi", "daisuke", "gorobei")), 1)]  # fmt: skip
