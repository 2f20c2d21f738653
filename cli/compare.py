"""`kiai compare`: arms played on the same games, with paired tests.

Without --strategies, --rules or a list of --components the arms are every seating of a line-up,
ranked and tested against the best; with --strategies they are strategies on one seating, with
--rules the values of one rule reading on one seating and strategy, and with --components a,b
component files on one seating and strategy; every pair of those is tested."""

from __future__ import annotations

import json
import typer

from kiai.inputs.configs import DEFAULT_SAMURAI
from kiai.cli.common import (
    CLUSTER,
    AbsentOpt,
    DifficultyOpt,
    ModelOpt,
    Options,
    ParamsFileOpt,
    RuleOpt,
    SeedOpt,
    StrictOpt,
    ThreadsOpt,
    command,
    grouped,
)
from kiai.progress import Bar, bar as progress


@command(short_help="Compare seatings, strategies, readings or components on shared deals.",
         help="Play every distinct seating of a line-up ((n-1)! of them: rotations are the same "
              "seating, mirror images are not) on the same games of one seed, rank them by win "
              "rate and test each against the best with McNemar's paired test on the per-game "
              "results. Every seating starts with the first name of --lineup, so the seating as "
              "typed is among them and plays the games `kiai simulate` plays for it; "
              "p-values are Holm-adjusted over the comparisons. With --strategies a,b,c: "
              "play those strategies on the one seating --lineup gives (as written) on the same "
              "games, and test every pair of them the same way. With --rules NAME=V1,V2: play "
              "the one seating --lineup gives and the one strategy under each value of that rule "
              "reading (`kiai rules`) on the same games, and test every pair: how much easier or "
              "harder the game is under each reading. With --components a.toml,b.toml: the same "
              "with component files (a corrected deck, house levels) instead of readings. "
              "--workers or --scheduler plays on Dask, with the same results.")
@grouped
def compare(
    lineup: str = typer.Option(DEFAULT_SAMURAI, "--lineup", "-s", help="The line-up: 3 to 7 distinct names, "
                                                                       "comma-separated. With --strategies: the "
                                                                       "seating played, seat 0 first (2 to 7)."),
    difficulty: str = DifficultyOpt,
    games: int = typer.Option(100_000, "--games", "-n", help="Games per seating or strategy (the same game "
                                                             "indices for each; at most 100,000,000)."),
    seed: int = SeedOpt,
    strategy: str = typer.Option(None, "--strategy", help="Strategy of the seatings (default: the --params-file's, "
                                                          "else kiai's default strategy, see `kiai strategies`)."),
    strategies: str = typer.Option(None, "--strategies", help="Compare these strategies (2 or more, comma-separated) "
                                                              "on one seating instead of seatings; NAME[P=V,...] gives "
                                                              "one its own parameters, so that a strategy may be "
                                                              "compared with itself: 'judge[samples=8],judge'."),
    rules: str = typer.Option(None, "--rules", help="Compare the values of one rule reading NAME=V1,V2[,...] "
                                                    "(2 or more, e.g. heal=any,wounded; `kiai rules` lists them) "
                                                    "on one seating and strategy instead of seatings. Not with "
                                                    "--strategies."),
    rule: list[str] = RuleOpt,
    param: list[str] = typer.Option(None, "--param", help="Strategy parameter NAME=VALUE, repeatable; with "
                                                          "--strategies STRATEGY.NAME=VALUE (e.g. reference.T=4)."),
    params_file: list[str] = typer.Option(None, "--params-file", help=ParamsFileOpt.help + " With --strategies "
                                                                      "repeatable: each file applies to the "
                                                                      "strategy it names."),
    absent_tokens: str = AbsentOpt,
    components: str = typer.Option(None, "--components", help="Component data file (TOML) every arm plays; default: "
                                                              "the packaged file. Two or more, comma-separated "
                                                              "('default' is the packaged one): compare them on one "
                                                              "seating and strategy instead of seatings."),
    model: str = ModelOpt,
    strict: bool = StrictOpt,
    threads: int = ThreadsOpt,
    cluster: Options = CLUSTER,
    as_json: bool = typer.Option(False, "--json", help="Print JSON: a list of seatings, best first; with "
                                                       "--strategies one object with 'strategies' and 'pairs'; "
                                                       "with --rules one object with 'readings' and 'pairs'."),
):
    from kiai import api

    result = api.compare(lineup, difficulty, games, seed=seed, strategy=strategy, strategies=strategies,
                         readings=rules, params=param, params_file=params_file, rules=rule,
                         absent_tokens=absent_tokens, components=components, model=model, threads=threads,
                         strict=strict, workers=cluster.workers, scheduler=cluster.scheduler,
                         progress=Bar(progress))  # fmt: skip
    print(json.dumps(result.to_json()) if as_json else result)
