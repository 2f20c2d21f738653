"""`kiai balance` (issue 50): the search over a level's knobs finds a planted answer on a
constructed case, the space of settings respects the deck and the tokens, the plain words say what
changed, and a small run writes a component file whose house levels play, and resumes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kiai.reports.search import balance as B
from kiai.simcore.components import load_components, with_levels
from conftest import one_line_error, run


def _planted_play(planted: B.Setting, target: float, slope: float, seed: int = 0):
    """A constructed game: each setting wins `target` at the planted setting and `slope` more per
    step away from it (capped), each game a Bernoulli draw keyed by the setting and the deal, so
    that every setting meets 'the same deals' and a replayed range gives the same wins."""
    def play(s: B.Setting, first: int, last: int) -> tuple[int, int]:
        away = sum(abs(int(a) - int(b)) for a, b in zip(s, planted))
        p = min(0.9, target + slope * away)
        key = abs(hash((s, seed))) % 2**32
        draws = np.random.default_rng([key, first, last]).random(last - first)
        return int((draws < p).sum()), last - first

    return play


def _space() -> B.Space:
    comp = load_components()
    return B.Space(4, comp.level("normal"), (tuple(range(-3, 7)), tuple(range(4, 10)), tuple(range(2, 8)),
                                             tuple(range(2, 8)), (False, True), (False, True)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_search_finds_a_planted_answer(seed):
    """On a constructed case of 8,640 settings where one setting wins exactly the target and every
    step away adds three points, the cross-entropy method and the race find that setting."""
    sp = _space()
    planted = (5, 5, 3, 6, False, True)  # 3 more barricades, 2 plunderers fewer per samurai, ...
    assert sp.size == 8640 and planted != sp.printed
    search = B.Search(sp, _planted_play(planted, 0.10, 0.03, seed), 0.10, deals=400,
                      rng=np.random.default_rng(seed))  # fmt: skip
    assert search.run(6, 16) == planted
    assert len(search.played) < sp.size / 20  # found by searching, not by trying every setting


def test_of_two_settings_as_close_the_simpler_wins():
    """Every setting wins the target: the printed level (no step) is the answer."""
    sp = _space()
    search = B.Search(sp, lambda s, a, b: (b - a, 10 * (b - a)), 0.10, deals=100, rng=np.random.default_rng(0))
    assert search.run(2, 8) == sp.printed


def test_the_space_keeps_to_the_deck_and_the_tokens():
    comp = load_components()
    six = B.space(comp, "normal", 6)
    assert six.printed == (2, 7, 6, 6, False, True)
    assert max(six.values[0]) == comp.barricade_tokens - 6  # 10 tokens: at most 4 extra for six samurai
    assert max(six.values[1]) == 52 // 6 and max(six.values[2]) == 7 and max(six.values[3]) == 7
    assert six.level(six.printed, "normal").knobs() == comp.level("normal").knobs()
    level = six.level((4, 5, 5, 4, False, True), "normal-6", "normal")
    assert (level.barricades(6), level.plunderers(6), level.lieutenants(6), level.bosses(6)) == (10, 30, 5, 4)
    corners = [(v[0], v[-1]) for v in six.values]
    for s in [(e, p, lt, b, False, True) for e in corners[0] for p in corners[1] for lt in corners[2] for b in corners[3]]:
        with_levels(comp, [six.level(s, "normal-6")])[0].check_setup("normal-6", 6)  # every corner sets up


def test_plain_words_say_what_changed():
    sp = B.space(load_components(), "normal", 6)
    p = sp.printed
    assert B.in_words(sp, p) == "as printed"
    assert B.in_words(sp, (p[0] + 3, p[1], p[2], p[3] - 1, p[4], p[5])) == "three more barricades and one boss fewer"
    assert B.in_words(sp, (p[0] - 1, p[1] + 2, p[2] - 2, p[3], True, False)) == (
        "one barricade fewer, two more plunderers per samurai, two lieutenants fewer, farmstead penalties and "
        "no family bonuses")


@pytest.mark.usefixtures("engine")
def test_a_small_run_writes_house_levels_that_play_and_resumes(tmp_path, capsys, monkeypatch):
    out = tmp_path / "bal"
    argv = ["balance", "--players", "3", "--target", "30%", "--lineups", "1", "-n", "40", "--generations", "1",
            "--candidates", "3", "--verify", "60", "--out", out]
    code, page, err = run(capsys, *argv)
    assert code == 0, err
    assert page.startswith("Balanced normal: for each team size") and "- three samurai: " in page
    assert "3 samurai: generation 1/1" in err and "verified on 60 fresh games" in err
    comp = load_components(out / "components.toml")
    assert comp.levels["normal-3"].like == "normal" and comp.family_level("normal-3") == "normal"
    figures = json.loads((out / "balance.json").read_text())
    (size,) = figures["sizes"]
    assert size["after"]["games"] == 60 and size["level"] == "normal-3"
    assert (out / "balance.md").read_text() == page
    code, played, _ = run(capsys, "simulate", "-s", size["lineups"][0], "-d", "normal-3", "--components",
                          out / "components.toml", "-n", 60, "--seed", 0, "--json")
    assert code == 0 and json.loads(played)["difficulty"] == "normal-3"
    one_line_error(*run(capsys, *argv), "holds a balance run", "--resume")

    from kiai.reports.playing import play

    def refuse(*a, **k):
        raise AssertionError("a resumed run played again what it had played")

    monkeypatch.setattr(play, "play_block", refuse)
    code, again, err = run(capsys, *argv, "--resume")
    assert code == 0 and again == page and "resume:" in err


@pytest.mark.usefixtures("engine")
def test_an_interrupted_run_says_how_to_resume(tmp_path, capsys, monkeypatch):
    """A balance run stopped by Ctrl-C keeps what it played and says so, with the --resume that
    continues it."""
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(B, "run", interrupted)
    out = tmp_path / "bal"
    code, _, err = run(capsys, "balance", "--players", "3", "--target", "30%", "--lineups", "1", "-n", "40",
                       "--out", out)  # fmt: skip
    assert code != 0 and "interrupted" in err and "--resume" in err and str(out) in err
