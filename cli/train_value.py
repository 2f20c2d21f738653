"""`kiai train value`: learn by self-play the value that `selfplay` or `judge` plays by (training.value)."""

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


# long: one option per line, each with its help: the lines are declarations
@command("value", short_help="Learn by self-play the value that `selfplay` or `judge` plays by.",
         help="Learn a value by self-play: with --player selfplay, the value of the table each answer leads to "
              "(its afterstate), that `selfplay` plays by; with --player judge (the default), the value of the "
              "table at a turn's start, that the strong tier `judge` plays by. Iteration 0 plays on --tables "
              "training tables drawn from the seed (2 to 7 samurai, every level), or of one --samurai table, "
              "or of the family of --size samurai at one level: selfplay over a value of zeros, "
              "which gives keeper's answers and --explore of them at random, or learned for judge; it fits the "
              "value to the games' outcomes. Each later iteration plays the player over the previous value and "
              "fits the TD(lambda) returns of its games. With --teacher judge (expert iteration), judge plays "
              "the games instead and weighs every answer of each question, and selfplay's value learns its "
              "estimates of all of them; with --loss regret as well, the default plays the games over the previous "
              "value and the teacher (judge, or the lookahead) weighs every answer of its questions (DAgger), and the "
              "value learns to rank each question's answers as the teacher does (training.within). After each "
              "iteration the player over the new value, over "
              "the previous one, learned and the lookahead play the same --eval-games deals of three evaluation "
              "tables; FOLDER's training.csv, curve.csv and training.png report every iteration. "
              "FOLDER gets each step as it finishes (a killed run resumes: "
              "run the same command again); value-I.npz is iteration I's value, to play with --model FILE "
              "(selfplay, or judge), or to ship as strategies/data/selfplay-K-LEVEL.npz (a "
              "family's value, that selfplay plays on its tables) or value.npz (judge's). "
              "Needs PyTorch (the extra kiai[train]).")
def train_value(
    folder: Path = typer.Argument(Path("kiai-value"), metavar="FOLDER", help="The run's folder (made if missing)."),
    player: str = typer.Option("judge", "--player", help="Whose value: selfplay (afterstates) or judge (turn starts)."),
    iterations: int = typer.Option(3, "--iterations", help="Self-play iterations (1-50)."),
    tables: int = typer.Option(300, "--tables", help="Training tables per iteration: drawn from the seed, copies of "
                                                     "--samurai's table or seatings of --size's family."),
    games: int = typer.Option(800, "--games", "-n", help="Games per training table and iteration."),
    keep: float = typer.Option(0.1, "--keep", help="Share of the positions kept for the fit."),
    lam: float = typer.Option(0.7, "--lambda", help="TD(lambda): 1 fits the outcomes, 0 the next position's value."),
    samples: int = typer.Option(2, "--samples", help="judge's sampled hidden orders per answer while it plays for "
                                                      "the positions."),
    explore: float = typer.Option(0.05, "--explore", help="selfplay's share of answers given at random while it "
                                                          "plays for the positions (0-1)."),
    base: str = typer.Option("keeper", "--base", help="selfplay's base, whose answer stands unless the value finds one "
                                                      "--edge better: keeper or learned (selfplay plays a value trained over learned over "
                                                      "learned, as its header says)."),
    weigh: str = typer.Option("action+cards+second-fight", "--weigh",
                              help="The questions selfplay weighs while it plays for the positions, and so the only ones "
                                   "whose afterstates it learns: action, cards, second-fight, joined by '+'; the base "
                                   "answers the others."),
    samurai: str = typer.Option(None, "--samurai", "-s", help="Train on this one seating (with --difficulty) instead of "
                                                              "tables drawn from the seed: each of the --tables plays "
                                                              "its own games of it, and each iteration is evaluated on "
                                                              "it."),
    size: int = typer.Option(None, "--size", help="Train on the family of tables of this many samurai (2-7) at "
                                                  "--difficulty: every seating of every line-up, each as often "
                                                  "(selfplay plays a family's value on any of its tables)."),
    hold_out: int = typer.Option(0, "--hold-out", help="With --size: line-ups of the family left out of training, "
                                                       "drawn from the seed; each iteration is evaluated on them "
                                                       "(0: on three of its seatings)."),
    difficulty: str = typer.Option(None, "--difficulty", "-d", help="The level of --samurai's table or --size's "
                                                                     "family."),
    h1: int = typer.Option(None, "--h1", show_default=False,
                           help="Units of the value's first hidden layer (judge: 1-64, default 64; selfplay: 1-128, "
                                "default 128)."),
    h2: int = typer.Option(None, "--h2", show_default=False,
                           help="Units of its second hidden layer (judge: 1-32, default 32; selfplay: 1-16, "
                                "default 16)."),
    epochs: int = typer.Option(6, "--epochs", help="Passes over the positions when fitting."),
    edge: float = typer.Option(0.0, "--edge", help="While the player plays for the positions, it leaves its base's "
                                                   "answer (judge: learned's, selfplay: --base's) only for one worth "
                                                   "this much more by the value (0-1; chance to win)."),
    start_from: Path = typer.Option(None, "--start", help="A value file to start from: iteration 0 already plays the "
                                                          "player over it."),
    teacher: str = typer.Option(None, "--teacher", show_default=False,
                                help="Expert iteration (with --player selfplay): judge (or lookahead: over learned, "
                                     "weighing every question) plays the games and weighs every answer of each "
                                     "question, and the value (from --start, or the family's shipped one) learns "
                                     "its estimates of all of them."),
    share: float = typer.Option(0.5, "--share", help="With --teacher: the share of the expert's differences between "
                                                     "answers in the targets, the rest the previous value's (0-1)."),
    loss: str = typer.Option("share", "--loss", help="With --teacher: share (targets mixing in the expert's values of "
                                                     "every answer, on its own games) or regret (the expected regret, "
                                                     "by the teacher's values, of a softmax over each question's "
                                                     "answers, on the default's own games: docs/training.md)."),
    temperature: float = typer.Option(0.05, "--temperature", help="With --loss regret: the softmax's temperature, in "
                                                                   "logits (0-10)."),
    anchor: float = typer.Option(0.1, "--anchor", help="With --loss regret: the weight of the squared change of the "
                                                       "value's logit from the previous value's (0-100)."),
    teacher_samples: int = typer.Option(0, "--teacher-samples", help="With --teacher: the teacher's sampled hidden "
                                                                     "orders per answer (1-64; 0: its own, "
                                                                     "docs/training.md)."),
    eval_games: int = typer.Option(300, "--eval-games", help="Deals per evaluation table after each iteration, "
                                                             "played by each of the four (0: no evaluation)."),
    seed: int = SeedOpt,
    deal_seed: int = typer.Option(None, "--deal-seed", show_default=False,
                                  help="Seed of the games self-play plays and of the fit (default: --seed). --seed "
                                       "draws the held-out line-ups, so a family run continued from another (--start) "
                                       "keeps its --seed; another --deal-seed gives it deals that run never played."),
    components: str = ComponentsOpt,
    threads: int = ThreadsOpt,
):
    """Its lines are its options' declarations; the work is kiai.train.value's."""
    from kiai import train as training

    with progress() as bar:
        done = training.value(folder, player=player, iterations=iterations, tables=tables, games=games, keep=keep,
                              lam=lam, samples=samples, explore=explore, base=base, weigh=weigh, samurai=samurai,
                              size=size, hold_out=hold_out, difficulty=difficulty, h1=h1, h2=h2, epochs=epochs,
                              edge=edge, start_from=start_from, teacher=teacher, share=share, loss=loss,
                              temperature=temperature, anchor=anchor, teacher_samples=teacher_samples,
                              eval_games=eval_games,
                              seed=seed, deal_seed=deal_seed, components=components, threads=threads,
                              stages=StageBars(bar), command=command_line(), note=stderr)  # fmt: skip
    for line in training.evaluations(folder):
        print(line)
    print(f"value files in {folder}; the last: {done['last']} ({done['seconds'] / 60:.1f} min); "
          f"the training report: {folder / 'training.png'}")
