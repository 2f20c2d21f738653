"""Where `lookahead.WIN_FIT` comes from: the chance to win from the village at the end of
round 1 or 2, fitted as a logistic model on played games.

Plays games with a heuristic, reads the village (barricades, farmsteads, families, wound
states) at each round's end from the event log, and fits one statsmodels Logit per round on
the game's outcome. Run it to refit, for example with other component data:

    python -m kiai.training.village_fit --games 200000 --strategy risk

and paste the printed WIN_FIT into strategies/lookahead.py. Plain Python: nothing here is
compiled into the kernel.
"""

from __future__ import annotations

import argparse

import numpy as np

from kiai.simcore import events as L
from kiai.simcore import results as R
from kiai.simcore.config import ConfigError
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_one

LINEUPS = (
    ("kyuzo", "kikuchiyo", "heihachi", "daisuke"),
    ("gorobei", "kanbei", "katsushiro", "heihachi"),
    ("kikuchiyo", "katsushiro", "gorobei", "daisuke"),
)
TERMS = ("constant", "barricades", "farmsteads", "families", "at human+token", "at animal", "at animal+token")


def round_ends(run) -> list[tuple[int, int, int, int, tuple[int, ...]]]:
    """(round, barricades, farmsteads, families, wound states) after each finished round that
    the game went on from, read from the event log."""
    comp = run.config.components
    n = len(run.config.samurai)
    barr = farms = fams = -1
    wounds = [0] * n
    out = []
    for row in run.events:
        code = int(row[0])
        if code == L.EV_SETUP:
            barr, farms, fams = int(row[3]), len(comp.farm_backs), len(comp.family_bonuses)
        elif code in (L.EV_BARR_LOST, L.EV_BARR_ADDED):
            barr = int(row[2])
        elif code == L.EV_FARM_LOST:
            farms = int(row[3])
        elif code == L.EV_FAMILY_LOST:
            fams = int(row[3])
        elif code in (L.EV_WOUND, L.EV_HEAL):
            wounds[int(row[2])] = int(row[3])
        elif code == L.EV_ROUND_START and int(row[1]) > 1:
            out.append((int(row[1]) - 1, barr, farms, fams, tuple(wounds)))
    return out


def features(barr: int, farms: int, fams: int, wounds) -> list[float]:
    w = np.asarray(wounds)
    return [1.0, barr, farms, fams, float((w == 1).sum()), float((w == 2).sum()), float((w == 3).sum())]


def collect(games: int, strategy: str, difficulty: str = "normal", seed: int = 7):
    """Rows of (round, features..., won) from `games` games spread over LINEUPS."""
    rows = []
    for g in range(games):
        cfg = GameConfig(LINEUPS[g % len(LINEUPS)], difficulty, strategy)
        run = run_one(cfg, seed, g, trace=True, check=False, trace_rows=20_000)
        won = float(run.row[R.O_OUTCOME] == 0)
        for r, barr, farms, fams, wounds in round_ends(run):
            rows.append([r, *features(barr, farms, fams, wounds), won])
    return np.asarray(rows, dtype=np.float64)


def fit(rows: np.ndarray, cap: float = -8.0) -> tuple[tuple[float, ...], ...]:
    """One Logit per round (1, 2). A term the data never shows winning with (a samurai at
    animal+token after round 1) is separated: it has no finite estimate, so it is set to
    `cap`."""
    import warnings

    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    coefs = []
    for r in (1, 2):
        d = rows[rows[:, 0] == r] if len(rows) else rows
        X, y = d[:, 1:-1], d[:, -1]
        if not y.any():
            raise ValueError(f"no game was won from the end of round {r} ({len(d)} seen): play more games")
        keep = X.std(axis=0) > 0
        keep[0] = True
        with warnings.catch_warnings():
            # a separated term drifts toward minus infinity and never converges
            warnings.simplefilter("ignore", ConvergenceWarning)
            res = sm.Logit(y, X[:, keep]).fit(disp=0, maxiter=200)
        beta = np.full(X.shape[1], cap)
        beta[keep] = res.params
        for j in range(1, X.shape[1]):
            if X[:, j].any() and not y[X[:, j] > 0].any():
                beta[j] = cap
        coefs.append(tuple(round(float(b), 3) for b in beta))
    return tuple(coefs)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--strategy", default="risk")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    if a.games < 1:
        ap.error(f"--games must be at least 1, got {a.games}")
    try:
        rows = collect(a.games, a.strategy, seed=a.seed)
        coefs = fit(rows)
    except (ConfigError, ValueError) as e:
        ap.error(str(e))
    wins = int(rows[rows[:, 0] == 1][:, -1].sum())
    print(f"# {a.games} `{a.strategy}` games, Normal, seed {a.seed}: {wins} won; terms: {', '.join(TERMS)}")
    print("WIN_FIT = (")
    for c in coefs:
        print(f"    {c},")
    print(")")


if __name__ == "__main__":
    main()
