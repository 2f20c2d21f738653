"""`kiai solve`: is each deal winnable at all, knowing every card?"""

from __future__ import annotations

import typer

from kiai.cli.common import CLUSTER, TABLE, ForceOpt, Options, SeedOpt, command, grouped, interrupted


@command(short_help="Solve deals with perfect information: won, lost or unknown.",
         help="Fix every random outcome of each deal in advance (keyed by the deal and the event), "
              "then search every decision the rules allow for a line that wins, seeing every card. "
              "Each deal is won (with the winning line, replayed by the engine as a check), lost "
              "(no line wins: proved) or unknown (the budget of nodes ran out). The winnable share "
              "bounds every player, honest or not. Tables are solved without absent support tokens. "
              "With --bracket, solve the report's team sizes and levels instead (--cells), 400 deals "
              "each at 2,000 nodes unless told, shared among each size's line-ups, into a table the "
              "report reads (make report's solve stage): the cells not asked are kept, a cell asked "
              "again with the same settings is kept, and one asked with other settings is replaced "
              "whole. --bracket takes no -s, -d, --order, --out or --force. --check also plays "
              "foresight, judge and the default on the same deals and counts the deals proved lost "
              "that any of them won (must be none). With --workers or --scheduler the deals are played "
              "on Dask, one task a deal, with the same answers; a cluster that fails mid-run ends in "
              "one line, and --bracket keeps the cells it finished (the same command again solves "
              "only the others). --late-game is the solver's own check: positions a few turns before "
              "the end of round 3, reached by the default's keyed games, each solved exactly with "
              "the whole state and with R-B's canonical key as the search's memory; the two must "
              "agree, every win must replay, and no position proved lost may be won by foresight, "
              "judge or the default (exit 1 if one is).")
@grouped
def solve(
    ctx: typer.Context,
    table: Options = TABLE,
    games: int = typer.Option(None, "--games", "-n", help="Number of deals to solve (at most 100,000; "
                                                          "default 10, with --bracket 400 per cell)."),
    seed: int = SeedOpt,
    budget: int = typer.Option(None, "--budget", help="Nodes (turn plays) a deal may search before it is "
                                                      "called unknown (default 200,000; with --bracket 2,000)."),
    order: str = typer.Option("foresight", "--order", help="What is tried first: foresight (its rollouts on the "
                                                          "true deal) or default (kiai's default strategy)."),
    out: str = typer.Option(None, "--out", "-o", help="Write every deal's answer, line and nodes as JSON."),
    bracket: str = typer.Option(None, "--bracket", help="Solve the team sizes and levels of --cells into this "
                                                        ".parquet table (one row a deal). Every cell not asked is "
                                                        "kept; a cell asked with the same seed, budget and deals "
                                                        "is kept, with others it is replaced whole."),
    cells: str = typer.Option(None, "--cells", help="With --bracket: team size-level pairs, e.g. 3-easy,4-normal "
                                                    "(default: the report's, 2 to 7 samurai at Easy and Normal)."),
    check: bool = typer.Option(False, "--check", help="With --bracket: also play foresight, judge and the default "
                                                      "on every deal's fixed outcomes, and count the proved-lost "
                                                      "deals any of them won."),
    late: str = typer.Option(None, "--late-game", help="Solve late-game positions of --cells (default 2 to 5 "
                                                       "samurai at every level), -n a cell (default 625), "
                                                       "--budget nodes each (default 2,000,000), into this "
                                                       ".parquet table, one row a position, and check every "
                                                       "answer (exit 1 where one fails)."),
    force: bool = ForceOpt,
    cluster: Options = CLUSTER,
):
    if late is not None:
        return _late(ctx, late, cells, games, seed, budget, force, cluster)
    if bracket is not None or check or cells is not None:
        return _bracket(ctx, bracket, cells, games, seed, budget, check, cluster)
    games = 10 if games is None else games
    budget = 200_000 if budget is None else budget
    try:
        _solve(table, games, seed, budget, order, out, force, cluster)
    except KeyboardInterrupt:
        interrupted(f"{out} left as it was" if out else "nothing written")


# options of one table's solve that --bracket, which solves the report's cells, does not take
NOT_WITH_BRACKET = (("samurai", "--samurai (-s)"), ("difficulty", "--difficulty (-d)"), ("order", "--order"),
                    ("out", "--out (-o)"), ("force", "--force"))


def _refuse_given(ctx, options, what: str) -> None:
    """Refuse, before any work, an option of `options` given with `what`, which would ignore it."""
    from kiai.inputs.checks import fail

    for name, option in options:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):  # typed, not defaulted
            fail(f"{option} does not go with {what}")


# options --late-game does not take: it solves positions of the cells of --cells, with its own order
NOT_WITH_LATE = (("samurai", "--samurai (-s)"), ("difficulty", "--difficulty (-d)"), ("order", "--order"),
                 ("out", "--out (-o)"), ("bracket", "--bracket"), ("check", "--check"))


def _late(ctx, path, cells, positions, seed, budget, force, cluster) -> None:
    """`kiai solve --late-game`: late-game positions solved with both keys, and every check counted."""
    from kiai.progress import Bar
    from kiai.solve import LATE_BUDGET, LATE_POSITIONS, late_game

    _refuse_given(ctx, NOT_WITH_LATE, "--late-game, which solves positions of the cells of --cells")
    try:
        per = late_game(path, cells, positions=LATE_POSITIONS if positions is None else positions, seed=seed,
                        budget=LATE_BUDGET if budget is None else budget, force=force, progress=Bar(name="solve"),
                        workers=cluster.workers, scheduler=cluster.scheduler)
    except KeyboardInterrupt:
        interrupted(f"{path} keeps the cells finished, if any")
    for r in per.itertuples():
        print(f"{r.n_samurai} samurai {r.difficulty}: {r.positions} positions; whole state won {r.full_won}, lost "
              f"{r.full_lost}, unknown {r.full_unknown}; R-B won {r.rb_won}, lost {r.rb_lost}, unknown {r.rb_unknown}; "
              f"R-B's nodes {r.sum_ratio:.2f} of the whole state's (median {r.median_ratio:.2f}) on the {r.both} "
              f"both resolved; disagree {r.disagree}, failed {r.failed}, lost but won by a player {r.lost_won}.")
    bad = int(per["broken"].sum())
    print(f"Checks broken: {bad} (must be 0).")
    if bad:
        raise typer.Exit(1)


def _solve(table, games: int, seed: int, budget: int, order: str, out, force: bool, cluster) -> None:
    """`kiai solve` of one table: the API checks the input, and claims the output (if any) from before
    the first deal to its write (kiai.solve.solve)."""
    from kiai import solve as S
    from kiai.progress import Bar

    def show(res: dict) -> None:  # before the write: a failed --out loses no answer
        print(f"{', '.join(res['samurai'])}; {res['difficulty']}; {res['games']} deals of seed {seed}, {budget:,} nodes "
              f"each: won {res['won']}, lost {res['lost']}, unknown {res['unknown']}"
              + (f", failed {res['failed']}" if res["failed"] else "") + f" ({res['seconds']:.1f} s).")

    S.solve(table.samurai, table.difficulty, games, seed=seed, budget=budget, order=order, out=out, force=force,
            progress=Bar(name="solve"), on_done=show, workers=cluster.workers, scheduler=cluster.scheduler)


def _bracket(ctx, path, cells, games, seed, budget, check, cluster) -> None:
    """`kiai solve --bracket`: the report's cells solved into a table, and with --check the players' count."""
    from kiai.inputs.checks import fail
    from kiai.progress import Bar
    from kiai.solve import BRACKET_BUDGET, BRACKET_DEALS, CHECK_PLAYERS, bracket, cell_name

    if path is None:
        fail("--cells and --check go with --bracket TABLE.parquet")
    _refuse_given(ctx, NOT_WITH_BRACKET, "--bracket, which solves the cells of --cells into its table")
    games = BRACKET_DEALS if games is None else games
    budget = BRACKET_BUDGET if budget is None else budget
    finished = []
    try:
        per = bracket(path, cells, deals=games, seed=seed, budget=budget, check=check, progress=Bar(name="solve"),
                      on_cell=lambda n, level: finished.append(cell_name(n, level)), workers=cluster.workers,
                      scheduler=cluster.scheduler)
    except KeyboardInterrupt:
        interrupted(f"{path} left as it was" + (f", but for the cells finished, kept in it ({', '.join(finished)}); "
                                                 "run the same command to solve the others" if finished else ""))
    for r in per.itertuples():
        line = f"{r.n_samurai} samurai {r.difficulty}: {r.deals} deals, won {r.won}, lost {r.lost}, unknown {r.unknown}"
        if check:
            line += ("; proved lost and won by " + ", ".join(f"{p} {getattr(r, f'lost_won_{p}')}" for p in CHECK_PLAYERS)
                     + "; unknown and won by " + ", ".join(f"{p} {getattr(r, f'unknown_won_{p}')}" for p in CHECK_PLAYERS))
        print(line + ".")
    if check:
        bad = int(per[[c for c in per if c.startswith("lost_won_")]].to_numpy().sum())
        print(f"Deals proved lost: {int(per['lost'].sum())}; won by a player all the same: {bad} (must be 0).")
        if bad:
            raise typer.Exit(1)
