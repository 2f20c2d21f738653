"""`kiai balance`: a level that evens out the team sizes (kiai.levels.balance)."""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.progress import Bar, bar as progress
from kiai.cli.common import CLUSTER, ComponentsOpt, Options, SeedOpt, StrategyOpt, ThreadsOpt, command, grouped


@command(short_help="Find, per team size, the level that plays as hard as a target.",
         help="For each team size, search the settings of a level's knobs (barricades, plunderers per "
              "samurai, lieutenants, bosses, farmstead penalties, family bonuses) for the one that brings "
              "the strategy's win rate (kiai's default player) closest to a target: the same level's rate "
              "at another team size (--target 4), or a win rate (--target 7%). The cross-entropy method "
              "on shared deals, the best settings raced on doubling deals, the winner verified on fresh "
              "deals. Writes, in --out, components.toml (the component file with one house level per team "
              "size, e.g. normal-6), balance.md (the page this prints: each size's rate before and after "
              "with intervals, and what changed in plain words) and balance.json; --resume continues a "
              "run cut short. --workers or --scheduler plays the games on a Dask cluster, with the same "
              "figures. Progress goes to standard error.")
@grouped
def balance(
    difficulty: str = typer.Option("normal", "--difficulty", "-d", help="The level to balance (its printed "
                                                                       "settings are the start)."),
    players: str = typer.Option(None, "--players", help="Team sizes to balance, comma-separated (default: 2 to "
                                                        "7 but the target's)."),
    target: str = typer.Option("4", "--target", help="A team size whose printed level's win rate is the target "
                                                     "(2 to 7), or a win rate (0.07 or 7%)."),
    lineups: int = typer.Option(4, "--lineups", help="Line-ups per team size (drawn with the seed, each seated in "
                                                     "its own order; all of them where a size has fewer)."),
    games: int = typer.Option(2000, "--games", "-n", help="Games each setting plays in the search, split over the "
                                                         "line-ups (the same deals for every setting)."),
    generations: int = typer.Option(6, "--generations", help="Generations of the cross-entropy method."),
    candidates: int = typer.Option(16, "--candidates", "-k", help="Settings drawn per generation."),
    verify: int = typer.Option(20_000, "--verify", help="Fresh games on which the winner, the printed level and "
                                                        "the target are each played."),
    seed: int = SeedOpt,
    strategy: str = typer.Option(None, "--strategy", help="Strategy name (default: kiai's default strategy, "
                                                          "marked in `kiai strategies`)."),
    param: list[str] = typer.Option(None, "--param", help="Strategy parameter NAME=VALUE; repeatable."),
    components: str = ComponentsOpt,
    out: Path = typer.Option(Path("kiai-balance"), "--out", "-o", help="Folder for components.toml, balance.md "
                                                                      "and balance.json (made if missing)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run --out holds (the same settings), "
                                                        "reading back what it played."),
    force: bool = typer.Option(False, "--force", help="Replace the run --out holds."),
    threads: int = ThreadsOpt,
    cluster: Options = CLUSTER,
):
    from kiai.levels import balance as run

    result = run(difficulty, players, target, lineups=lineups, games=games, generations=generations,
                 candidates=candidates, verify=verify, seed=seed, strategy=strategy, params=param,
                 components=components, out=out, resume=resume, force=force, threads=threads,
                 workers=cluster.workers, scheduler=cluster.scheduler, progress=Bar(progress))  # fmt: skip
    print(str(result), end="")
