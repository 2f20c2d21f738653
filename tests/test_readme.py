"""The README's quoted runs still give what it quotes (rough-edges issue, #16).

A fenced block right after a `<!-- output of: kiai ARGS -->` line is that command's output, word
for word but the speed line (which depends on the machine): the test runs the command and
compares. Figures from runs too long for the suite are checked at a smaller size on the same
deals: the quoted rate must lie in the smaller run's 99.9% interval (a drift of a few tenths of a
point fails it).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from cli.main import main

pytestmark = pytest.mark.usefixtures("engine")

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
QUOTED = re.findall(r"<!-- output of: kiai (.+?) -->\n```[a-z]*\n(.*?)```", README, flags=re.S)


def test_the_readme_quotes_runs():
    assert QUOTED, "no <!-- output of: kiai ... --> block in README.md"


@pytest.mark.parametrize("args,quoted", QUOTED, ids=[a for a, _ in QUOTED])
def test_quoted_output_is_what_the_command_prints(capsys, args, quoted):
    assert main(shlex.split(args)) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("speed ")]
    assert quoted.rstrip("\n").splitlines() == printed


def test_headline_rates_hold_at_a_smaller_size():
    """"three samurai win about X% of games at Easy and Y% at Normal": the default sweep's pooled
    rate over every 3-samurai line-up (5,000 games each), checked on its first 4,000."""
    from statsmodels.stats.proportion import proportion_confint

    from reports.seatings import all_lineups
    from strategies.run import GameConfig, run_games

    sentence = r"three samurai win about ([\d.]+)% of games at Easy and ([\d.]+)% at Normal"
    found = re.search(sentence.replace(" ", r"\s+"), README)
    assert found, "the headline sentence is gone from README.md"
    for level, quoted in zip(("easy", "normal"), map(float, found.groups())):
        wins = sum(int((run_games(GameConfig(lineup, level), 4000, 0)[:, 0] == 0).sum()) for lineup in all_lineups(3))
        lo, hi = proportion_confint(wins, 4000 * len(all_lineups(3)), alpha=0.001, method="wilson")
        assert 100 * lo <= quoted <= 100 * hi, (level, quoted, wins)
