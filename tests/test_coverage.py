"""The report's intervals keep their promise (issue 70): a small coverage check with a cheap
strategy, seeds fixed so that it is the same on every run (reports.search.coverage)."""

from __future__ import annotations

import json

import pytest

from kiai.reports.search import coverage as C

pytestmark = pytest.mark.usefixtures("engine")

SMALL = C.Study(size=3, level="easy", strategy="reference", strong="keeper", games=60)
POOLED = ("level", "strongest")  # the figures that average line-ups


def test_pooled_rates_over_seatings_of_their_own_deals_keep_their_promise():
    """Each seating on deals of its own (the sweeps' deals): every kind covers its target, and the
    pooled rates spread no wider than their printed intervals say. Fails where line-ups share deals."""
    result = C.run(SMALL, 100)
    for kind, r in result["kinds"].items():
        assert r["seeds"] == 100
        assert r["coverage"] >= 0.88, (kind, r)
        assert r["ratio"] <= 1.25, (kind, r)


def test_pooled_rates_over_shared_deals_are_too_narrow():
    """The same study with every configuration of a seed on the same deals (sweeps before each
    seating had its own): the pooled rates spread far wider than the interval the page prints."""
    import dataclasses

    result = C.run(dataclasses.replace(SMALL, deals="shared"), 40)
    for kind in POOLED:
        assert result["kinds"][kind]["ratio"] > 1.5, result["kinds"][kind]
    assert any(k.startswith("level") for k in C.failures(result))


def test_the_command_stores_its_result_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "coverage.json"
    code = C.main(["--seeds", "3", "--games", "20", "--size", "3", "--level", "easy", "--strategy", "reference",
                   "--strong", "keeper", "--out", str(out)])
    stored = json.loads(out.read_text())
    assert code in (0, 1) and stored["seeds"] == 3 and set(stored["kinds"]) == set(C.KINDS) and stored["commit"]
    assert "| one line-up's rate | 3 |" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        C.main(["--seeds", "1"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        C.main(["--out", str(tmp_path / "missing" / "c.json")])
    assert e.value.code == 2 and "no folder" in capsys.readouterr().err
    for bad in (["--strategy", "nosuch"], ["--level", "nosuch"]):  # the plan checked before any game
        with pytest.raises(SystemExit) as e:
            C.main(["--seeds", "2", "--games", "4", "--size", "2", *bad, "--out", str(tmp_path / "bad.json")])
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.startswith("coverage: ") and len(err.strip().splitlines()) == 1, err
        assert "nosuch" in err and not (tmp_path / "bad.json").exists()


def test_the_methods_quote_the_stored_check_with_its_commit():
    from kiai.reports.findings import coverage_note

    result = {"study": {"size": 4, "level": "normal", "strategy": "selfplay", "strong": "learned", "games": 200},
              "seeds": 200, "commit": "abc1234", "kinds": {"level": {"coverage": 0.95, "ratio": 1.02},
                                                           "lineup": {"coverage": 0.97, "ratio": 0.9}}}
    text = coverage_note.sentence(result)
    assert "200 seeds" in text and "kiai abc1234" in text and "at least 95%" in text and "1.02 times" in text
    stored = coverage_note.stored()
    assert stored is not None and set(stored["kinds"]) == set(C.KINDS), "make coverage stores its result"
