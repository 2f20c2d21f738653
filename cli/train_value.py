"""`kiai train value`: learn by self-play the value that `selfplay` or `judge` plays by (training.value)."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from kiai.cli.common import (
    ComponentsOpt,
    SeedOpt,
    StageBars,
    ThreadsOpt,
    check_threads,
    command,
    command_line,
)
from kiai.checks import check_output_folder, check_seed, check_size, fail, parse_levels, parse_samurai
from kiai.progress import bar as progress


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
              "estimates of all of them. After each iteration the player over the new value, over "
              "the previous one, learned and the lookahead play the same --eval-games deals of three evaluation "
              "tables; FOLDER's training.csv, curve.csv and training.png report every iteration. "
              "FOLDER gets each step as it finishes (a killed run resumes: "
              "run the same command again); value-I.npz is iteration I's value, to play with --model FILE "
              "(selfplay) or KIAI_VALUE_MODEL=FILE (judge), or to ship as strategies/data/selfplay-K-LEVEL.npz (a "
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
    """Its lines are its options' declarations; the work is _start's, _where's and training.value's."""
    from kiai.simcore.components import ComponentsError, load_components
    from kiai.strategies.nets import modelfile as M
    from kiai.training import value as V
    from kiai.strategies.playing import set_threads

    check_seed(seed)
    if deal_seed is not None:
        check_seed(deal_seed, "--deal-seed")
    check_threads(threads)
    if player not in V.PLAYERS:
        fail(f"--player must be one of {', '.join(V.PLAYERS)}, got {player!r}")
    kind = M.AFTER if player == "selfplay" else M.TABLE
    if teacher and player == "selfplay" and start_from is None and size is not None and difficulty is not None:
        start_from = M.family_path(size, difficulty.strip().lower())  # the family's shipped value, if kiai ships one
    begin, h1, h2 = _start(start_from, kind, teacher, h1, h2)
    settings = V.ValueSettings(iterations=iterations, tables=tables, games=games, keep=keep, lam=lam,
                               samples=samples, h1=kind.max_h1 if h1 is None else h1,
                               h2=kind.max_h2 if h2 is None else h2, epochs=epochs, seed=seed, edge=edge,
                               start=begin.sha256 if begin else "", eval_games=eval_games, player=player,
                               explore=explore, base=base, questions=_weighed(weigh), hold_out=hold_out,
                               deal_seed=deal_seed, teacher=teacher or "", share=share)
    try:
        comp = load_components(components)
    except ComponentsError as e:
        fail(str(e))
    settings = _where(settings, samurai, size, difficulty, comp)
    try:
        settings.check()
    except V.TrainError as e:
        fail(str(e))
    if folder.exists() and not folder.is_dir():
        fail(f"FOLDER {folder} is a file; give a folder")
    check_output_folder(folder, "FOLDER")
    try:
        import torch  # noqa: F401
    except ImportError:
        fail("kiai train value needs PyTorch: install the training extra, pip install -e '.[train]'")
    used = set_threads(threads)
    start = time.perf_counter()
    with progress() as bar:
        try:
            iterate = None
            if settings.teacher:
                from kiai.training import teacher as T

                iterate = T.train
            last = V.train_value(folder, settings, comp, StageBars(bar), command=command_line(), threads=used,
                                 start=start_from, iterate=iterate)
        except V.TrainError as e:
            fail(str(e))
    from kiai.training import figures as R

    R.write(folder, value=True)
    _print_evaluations(folder)
    print(f"value files in {folder}; the last: {last} ({(time.perf_counter() - start) / 60:.1f} min); "
          f"the training report: {folder / 'training.png'}")


def _start(start_from, kind, teacher, h1, h2):
    """--start read and checked (None: none), and the widths a teacher's fit takes from it."""
    from kiai.strategies.nets import modelfile as M

    try:
        begin = M.load(start_from, kind) if start_from is not None else None
    except M.ModelError as e:
        fail(f"--start: {e}")
    if teacher and begin is not None:  # a teacher's fit starts from --start's weights: its widths
        widths = (begin.arrays["b1"].shape[0], begin.arrays["b2"].shape[0])
        if (h1 or widths[0], h2 or widths[1]) != widths:
            fail(f"--h1 and --h2: --teacher fits from --start's weights, of {widths[0]} and {widths[1]} units")
        h1, h2 = widths
    return begin, h1, h2


def _where(settings, samurai, size, difficulty, comp):
    """The settings with the one table (--samurai) or the family (--size) at --difficulty, checked."""
    from dataclasses import replace

    if ((samurai is None) and (size is None)) != (difficulty is None):
        fail("--difficulty goes with --samurai (one table) or --size (a family): give both, or neither")
    if difficulty is None:
        return settings
    from kiai.simcore.config import ConfigError
    from kiai.strategies.game_config import GameConfig

    levels = parse_levels(difficulty, comp)
    if len(levels) != 1:
        fail(f"--difficulty names one level for {'--samurai' if samurai else '--size'}'s "
             f"{'table' if samurai else 'family'}")
    if samurai is not None:
        seating = parse_samurai(samurai)
        try:
            GameConfig(seating, levels[0], components=comp)
        except ConfigError as e:
            fail(str(e))
        settings = replace(settings, table=f"{','.join(seating)}@{levels[0]}")
    if size is not None:  # with --samurai too: settings.check() refuses the pair
        check_size(size)
        settings = replace(settings, family=f"{size}@{levels[0]}")
    return settings


def _print_evaluations(folder: Path) -> None:
    """Each evaluated iteration's win rates on the evaluation deals, and the new value's p-values."""
    from kiai.training import figures as R

    _, rows = R.value_tables(folder)
    if rows.empty:
        return
    player = R.run_player(folder)
    print(f"win rates on the evaluation deals ({player} over each iteration's value, p: McNemar against it):")
    for _, r in rows.iterrows():
        parts = [f"{player} {100 * r['new_win_rate']:.1f}%"]
        for arm in R.VALUE_ARMS[1:]:
            parts.append(f"{arm} {100 * r[f'{arm}_win_rate']:.1f}% (p {r[f'new_vs_{arm}_p']:.2g})")
        print(f"  iteration {int(r['iteration'])}: " + ", ".join(parts))


def _weighed(text: str) -> int:
    """--weigh's names as selfplay's `weigh` bit-sum (one line, exit 2, for another word)."""
    from kiai.strategies.selfplay import STRATEGY

    try:
        return STRATEGY.params[STRATEGY.index("weigh")].value_of(text, "selfplay")
    except ValueError as e:
        fail(f"--weigh: {e}")
