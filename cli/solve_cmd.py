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
              "only the others).")
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
    force: bool = ForceOpt,
    cluster: Options = CLUSTER,
):
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


def _bracket_only(ctx) -> None:
    """Refuse, before any work, an option given with --bracket that it would ignore."""
    from kiai.inputs.checks import fail

    for name, option in NOT_WITH_BRACKET:
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):  # typed, not defaulted
            fail(f"{option} does not go with --bracket, which solves the cells of --cells into its table")


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
    _bracket_only(ctx)
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
