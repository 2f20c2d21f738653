"""The training report of `kiai train`: the learning curve and the win rate per iteration, as
tables (curve.csv, training.csv) and one chart (training.png), made from the run's folder
(strategies.training.Folder) so a resumed run reports every iteration."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

ARMS = ("new", "previous", "teacher")
ARM_LABELS = {"new": "learned (this iteration)", "previous": "previous model (iteration 0: keeper)",
              "teacher": "teacher (lookahead over the previous model)"}


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
            doc = json.loads((it / "eval.json").read_text())
            row = {"iteration": k}
            if (it / "labels.npy").exists():
                import numpy as np

                row["positions"] = int(np.load(it / "labels.npy", mmap_mode="r").shape[0])
            for arm in ARMS:
                if arm in doc:
                    row[f"{arm}_wins"], row[f"{arm}_games"] = doc[arm]["wins"], doc[arm]["games"]
                    row[f"{arm}_win_rate"] = doc[arm]["win_rate"]
                    row[f"{arm}_ci_lo"], row[f"{arm}_ci_hi"] = doc[arm]["ci95"]
            for pair in ("new_vs_previous", "new_vs_teacher"):
                if pair in doc:
                    row[f"{pair}_diff"], row[f"{pair}_p"] = doc[pair]["diff"], doc[pair]["pvalue"]
            rows.append(row)
        k += 1
    return pd.DataFrame(curve, columns=["iteration", "head", "epoch", "loss"]), pd.DataFrame(rows)


def plot(curve: pd.DataFrame, iterations: pd.DataFrame):
    """Left: training loss by epoch, one line per iteration and head. Right: the win rate on
    the evaluation deals per iteration, with 95% intervals, for the model, the one before it
    and the teacher."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    for (k, head), part in curve.groupby(["iteration", "head"]):
        left.plot(part["epoch"], part["loss"], marker=".", label=f"iteration {k}, {head}")
    left.set(title="Learning curve (masked squared error of the advantage over keeper)", xlabel="epoch",
             ylabel="training loss", yscale="log")
    if len(curve):
        left.legend(fontsize=8)
    for j, arm in enumerate(ARMS):
        if f"{arm}_win_rate" not in iterations:
            continue
        x = iterations["iteration"] + (j - 1) * 0.08
        y = iterations[f"{arm}_win_rate"] * 100
        err = [y - iterations[f"{arm}_ci_lo"] * 100, iterations[f"{arm}_ci_hi"] * 100 - y]
        right.errorbar(x, y, yerr=err, marker="o", capsize=3, label=ARM_LABELS[arm])
    right.set(title="Win rate on the evaluation deals (95% intervals)", xlabel="iteration", ylabel="win rate (%)")
    if len(iterations):
        right.set_xticks(iterations["iteration"])
        right.set_xlim(-0.5, iterations["iteration"].max() + 0.5)
        right.legend(fontsize=8)
    return fig


def write(folder: Path) -> list[Path]:
    """Write curve.csv, training.csv and training.png into the run's folder; returns them."""
    folder = Path(folder)
    curve, iterations = tables(folder)
    paths = [folder / "curve.csv", folder / "training.csv", folder / "training.png"]
    curve.to_csv(paths[0], index=False)
    iterations.to_csv(paths[1], index=False)
    fig = plot(curve, iterations)
    fig.savefig(paths[2], dpi=110)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return paths
