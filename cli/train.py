"""`kiai train learned`: train the model of `learned` by expert iteration (training.learned) and
write the training report (training.figures)."""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.cli.common import (
    ComponentsOpt,
    SeedOpt,
    StageBars,
    ThreadsOpt,
    command,
    command_line,
    stderr,
)
from kiai.progress import bar as progress
from kiai.words import plural


@command("learned", short_help="Train the model of the `learned` strategy (expert iteration over the lookahead).",
         help="Train the model of the `learned` strategy by expert iteration. Each iteration: the "
              "lookahead, weighing every question by rollouts over the current model (at first over "
              "keeper), plays --games games on --tables training tables drawn from the seed and labels "
              "each question with what every answer was worth; two small networks are fitted (PyTorch, "
              "CPU: the optional extra kiai[train]) to all labels so far; the new model, the previous one "
              "and the teacher then play the same deals of the evaluation tables. It goes on while the new "
              "model wins more than the previous one. FOLDER gets each step as it finishes (a killed run "
              "resumes: run the same command again), the best model (model.npz, to play with --model or "
              "to ship as strategies/data/learned.npz) and the training report: training.csv (win rate "
              "per iteration), curve.csv (learning curve) and training.png.")
def train(
    folder: Path = typer.Argument(Path("kiai-train"), metavar="FOLDER", help="The run's folder (made if missing, "
                                                                             "in an existing folder)."),
    iterations: int = typer.Option(2, "--iterations", help="At most this many iterations (label, fit, evaluate)."),
    games: int = typer.Option(30_000, "--games", "-n", help="Teacher games per iteration, over the training tables."),
    tables: int = typer.Option(300, "--tables", help="Training tables (line-up with seat order, level) drawn from the "
                                                     "seed; 2 to 7 samurai, every level, none of the --eval line-ups."),
    samples: int = typer.Option(16, "--samples", help="The teacher's hidden card orders sampled per answer (1-64)."),
    hidden: int = typer.Option(16, "--hidden", help="Units in each of the networks' two hidden layers (1-64); "
                                                    "play time grows with it."),
    epochs: int = typer.Option(10, "--epochs", help="Passes over the labels when fitting."),
    fits: int = typer.Option(1, "--fits", help="Fit the networks this many times from different seeds and keep the "
                                                "fit that wins most on --select-games deals of the training tables."),
    select_games: int = typer.Option(40_000, "--select-games", help="Deals over the training tables that choose "
                                                                    "among --fits fits (unused with one fit)."),
    members: int = typer.Option(1, "--members", help="The final model averages the networks of the best iteration "
                                "and of the iterations before it, this many in all (1 or 2), when that wins more "
                                "of the evaluation deals than the best iteration alone; the second network adds "
                                "about a fifth to `learned`'s network time. A finished run can be given another value."),
    eval_games: int = typer.Option(4000, "--eval-games", help="Deals per evaluation table for the models."),
    teacher_games: int = typer.Option(300, "--teacher-games", help="Deals per evaluation table for the teacher "
                                                                   "(0: skip it; it plays about 100 times slower)."),
    eval_table: list[str] = typer.Option(None, "--eval", help="An evaluation table SEATING:LEVEL; repeatable "
                                                              "(default: three tables kept out "
                                                              "of training)."),
    seed: int = SeedOpt,
    components: str = ComponentsOpt,
    threads: int = ThreadsOpt,
):
    from kiai import train as training

    with progress() as bar:
        done = training.learned(folder, iterations=iterations, games=games, tables=tables, samples=samples,
                                hidden=hidden, epochs=epochs, fits=fits, select_games=select_games, members=members,
                                eval_games=eval_games, teacher_games=teacher_games, eval_tables=eval_table, seed=seed,
                                components=components, threads=threads, stages=StageBars(bar),
                                command=command_line(), note=stderr)  # fmt: skip
    best = done["best"]
    print(f"kiai train learned: {plural(len(done['history']), 'iteration')} in {done['seconds'] / 60:.1f} min on "
          f"{plural(done['threads'], 'thread')}; best: "
          + (f"iteration {best}" if best is not None else "none gained over keeper (model.npz plays as keeper)"))
    print(f"model: {folder / 'model.npz'}  report: {', '.join(str(p) for p in done['paths'])}")
