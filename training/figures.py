"""The training reports of `kiai train learned` and `kiai train value`: the learning curve and the win
rate per iteration, as tables (curve.csv, training.csv) and one chart (training.png), made from
the run's folder (training.learned.Folder; training.value's files) so a resumed run
reports every iteration."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from kiai.training.common import read_settings

ARMS = ("new", "previous", "teacher")
ARM_LABELS = {"new": "learned (this iteration)", "previous": "previous model (iteration 0: keeper)",
              "teacher": "teacher (lookahead over the previous model)"}
PAIRS = ("new_vs_previous", "new_vs_teacher")
# kiai train value's: the strong tier over each iteration's value against the others
VALUE_ARMS = ("new", "previous", "learned", "lookahead")
VALUE_LABELS = {"new": "judge over this iteration's value", "previous": "judge over the previous value (or learned)",
                "learned": "learned", "lookahead": "lookahead"}


def value_labels(player: str) -> dict:
    """VALUE_LABELS for a run whose player is judge or selfplay (iteration 0 played keeper)."""
    if player == "judge":
        return VALUE_LABELS
    return {**VALUE_LABELS, "new": f"{player} over this iteration's value",
            "previous": f"{player} over the previous value (or keeper)"}


def run_player(folder: Path) -> str:
    """Whose value a `kiai train value` run learns (its settings; judge before the setting existed)."""
    stored = Path(folder) / "settings.json"
    return read_settings(stored).get("player", "judge") if stored.exists() else "judge"
VALUE_PAIRS = ("new_vs_previous", "new_vs_learned", "new_vs_lookahead")


def _row(k: int, doc: dict, arms, pairs) -> dict:
    """An evaluated iteration's row: each player's wins, games, rate and interval, each pair's test."""
    row = {"iteration": k}
    for arm in arms:
        if arm in doc:
            row[f"{arm}_wins"], row[f"{arm}_games"] = doc[arm]["wins"], doc[arm]["games"]
            row[f"{arm}_win_rate"] = doc[arm]["win_rate"]
            row[f"{arm}_ci_lo"], row[f"{arm}_ci_hi"] = doc[arm]["ci95"]
    for pair in pairs:
        if pair in doc:
            row[f"{pair}_diff"], row[f"{pair}_p"] = doc[pair]["diff"], doc[pair]["pvalue"]
    return row


def tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(curve: iteration, head, epoch, loss; iterations: one row per evaluated iteration)."""
    folder = Path(folder)
    curve, rows = [], []
    k = 0
    while (folder / f"iteration-{k}").is_dir():
        it = folder / f"iteration-{k}"
        if (it / "curve.json").exists():
            curve += json.loads((it / "curve.json").read_text())
        if (it / "eval.json").exists():
            row = _row(k, json.loads((it / "eval.json").read_text()), ARMS, PAIRS)
            if (it / "labels.npy").exists():
                import numpy as np

                row["positions"] = int(np.load(it / "labels.npy", mmap_mode="r").shape[0])
            rows.append(row)
        k += 1
    return pd.DataFrame(curve, columns=["iteration", "head", "epoch", "loss"]), pd.DataFrame(rows)


def value_tables(folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """tables() of a `kiai train value` run: curve-I.json and evaluation-I.json."""
    folder = Path(folder)
    curve, rows = [], []
    k = 0
    while (folder / f"value-{k}.npz").exists():
        if (folder / f"curve-{k}.json").exists():
            curve += json.loads((folder / f"curve-{k}.json").read_text())
        if (folder / f"evaluation-{k}.json").exists():
            rows.append(_row(k, json.loads((folder / f"evaluation-{k}.json").read_text()), VALUE_ARMS, VALUE_PAIRS))
        k += 1
    return pd.DataFrame(curve, columns=["iteration", "head", "epoch", "loss"]), pd.DataFrame(rows)


LOSS_TITLES = {False: "Learning curve (masked squared error of the advantage over keeper)",
               True: "Learning curve (logistic loss of the value)"}


NO_EVALUATION = "No evaluation deals were played\n(--eval-games 0)."


def plot(curve: pd.DataFrame, iterations: pd.DataFrame, value: bool = False, player: str = "judge"):
    """Left: training loss by epoch, one line per iteration and head. Right: the win rate on
    the evaluation deals per iteration, with 95% intervals, for the model, the one before it
    and the teacher (`value`: kiai train value's players)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    for (k, head), part in curve.groupby(["iteration", "head"]):
        left.plot(part["epoch"], part["loss"], marker=".", label=f"iteration {k}, {head}")
    left.set(title=LOSS_TITLES[value], xlabel="epoch", ylabel="training loss", yscale="log")
    if len(curve):
        left.legend(fontsize=8)
    arms, labels = (VALUE_ARMS, value_labels(player)) if value else (ARMS, ARM_LABELS)
    for j, arm in enumerate(arms):
        if f"{arm}_win_rate" not in iterations:
            continue
        x = iterations["iteration"] + (j - 1) * 0.08
        y = iterations[f"{arm}_win_rate"] * 100
        err = [y - iterations[f"{arm}_ci_lo"] * 100, iterations[f"{arm}_ci_hi"] * 100 - y]
        right.errorbar(x, y, yerr=err, marker="o", capsize=3, label=labels[arm])
    right.set(title="Win rate on the evaluation deals (95% intervals)", xlabel="iteration", ylabel="win rate (%)")
    if len(iterations):
        right.set_xticks(iterations["iteration"])
        right.set_xlim(-0.5, iterations["iteration"].max() + 0.5)
        right.legend(fontsize=8)
    else:  # say why the panel is empty rather than draw bare axes
        right.text(0.5, 0.5, NO_EVALUATION, ha="center", va="center", transform=right.transAxes)
        right.set(xticks=[], yticks=[])
    return fig


def write(folder: Path, value: bool = False) -> list[Path]:
    """Write curve.csv, training.csv and training.png into the run's folder (`value`: a
    `kiai train value` run's); returns them."""
    folder = Path(folder)
    curve, iterations = value_tables(folder) if value else tables(folder)
    paths = [folder / "curve.csv", folder / "training.csv", folder / "training.png"]
    curve.to_csv(paths[0], index=False)
    iterations.to_csv(paths[1], index=False)
    fig = plot(curve, iterations, value, run_player(folder) if value else "judge")
    fig.savefig(paths[2], dpi=110)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return paths
