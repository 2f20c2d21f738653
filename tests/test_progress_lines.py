"""Progress where standard error is no terminal (a log, CI, nohup): plain lines, at least one every
LOG_EVERY seconds, with the games done, of how many (or about how many), the rate and the time left;
and a compile that says it still runs."""

from __future__ import annotations

import re
import time

import pytest

import kiai.progress
from conftest import run

LINE = re.compile(r"^sweep: ([\d,]+) of (about )?([\d,]+) games \(\d+%\), [\d,]+ games/s, (about )?[\d]+( min \d+)? s "
                  r"left; \d+ of \d+ configurations finished$")


@pytest.mark.usefixtures("engine")
def test_a_sweep_in_a_log_prints_lines_with_done_total_rate_and_time_left(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(kiai.progress, "LOG_EVERY", 0.0)  # a line at every step, not every 30 s
    code, out, err = run(capsys, "sweep", "--out", tmp_path / "s.parquet", "--lineup", "kyuzo,heihachi",
                         "--lineup", "daisuke,gorobei", "-d", "easy", "--strategy", "reference", "--games", 400)
    assert code == 0 and "table written" in out
    lines = [x for x in err.splitlines() if x.startswith("sweep: ")]
    assert lines and all(LINE.match(x) for x in lines), err
    done = [int(LINE.match(x).group(1).replace(",", "")) for x in lines]
    assert done == sorted(done) and done[-1] == 800 and {LINE.match(x).group(3) for x in lines} == {"800"}


def test_lines_come_at_most_every_log_every_seconds_and_say_about_for_an_estimate(capsys, monkeypatch):
    lines = kiai.progress.Lines("sweep", "games", None, 10)
    lines.advance(50)  # too soon for a line
    monkeypatch.setattr(kiai.progress, "LOG_EVERY", 0.0)
    lines.total, lines.estimated = 1000, True  # a race: the total as now expected
    time.sleep(0.01)
    lines.advance(150, 3)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and LINE.match(err[0]) and "200 of about 1,000 games (20%)" in err[0]
    assert "3 of 10 configurations finished" in err[0]


def test_a_bar_on_no_terminal_prints_lines_and_one_on_a_terminal_does_not(capsys, monkeypatch):
    monkeypatch.setattr(kiai.progress, "LOG_EVERY", 0.0)
    for enabled, expected in ((None, True), (True, False)):  # enabled=True: a terminal's bar, drawn by rich
        bar = kiai.progress.Bar(enabled=enabled, name="sweep")
        with bar:
            bar.start("games", None, configurations=2)
            bar.estimate(500)
            time.sleep(0.01)
            bar.advance(100)
        err = capsys.readouterr().err
        assert ("sweep: 100 of about 500 games" in err) == expected, err


def test_a_long_compile_says_every_log_every_seconds_that_it_still_runs(capsys, monkeypatch):
    from kiai.strategies.run import compiling, games, warm

    monkeypatch.setattr(warm, "COMPILE_NOTE_AFTER", 0.05)
    monkeypatch.setattr(warm, "NOTE_EVERY", 0.1)
    monkeypatch.setattr(compiling, "prepare", lambda configs: time.sleep(0.5))
    monkeypatch.setattr(compiling, "uncompiled", lambda configs: (True, []))
    monkeypatch.setattr(games, "run_games", lambda config, n, seed: None)
    notes = []
    warm.warm_engine(None, note=notes.append)
    assert notes[0].startswith("compiling the engine")
    still = [x for x in notes if x.startswith("still compiling (")]
    assert len(still) >= 3 and notes[-1].startswith("compiled the engine in")
