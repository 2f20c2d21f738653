"""`kiai solve`: is each deal winnable at all, knowing every card?"""

from __future__ import annotations

from pathlib import Path

import typer

from kiai.cli.common import TABLE, ForceOpt, Options, SeedOpt, command, grouped


@command(short_help="Solve deals with perfect information: won, lost or unknown.",
         help="Fix every random outcome of each deal in advance (keyed by the deal and the event), "
              "then search every decision the rules allow for a line that wins, seeing every card. "
              "Each deal is won (with the winning line, replayed by the engine as a check), lost "
              "(no line wins: proved) or unknown (the budget of nodes ran out). The winnable share "
              "bounds every player, honest or not. Tables are solved without absent support tokens.")
@grouped
def solve(
    table: Options = TABLE,
    games: int = typer.Option(10, "--games", "-n", help="Number of deals to solve (at most 100,000)."),
    seed: int = SeedOpt,
    budget: int = typer.Option(200_000, "--budget", help="Nodes (turn plays) a deal may search before it is "
                                                          "called unknown."),
    order: str = typer.Option("foresight", "--order", help="What is tried first: foresight (its rollouts on the "
                                                          "true deal) or default (kiai's default strategy)."),
    out: str = typer.Option(None, "--out", "-o", help="Write every deal's answer, line and nodes as JSON."),
    force: bool = ForceOpt,
):
    from kiai.paths import check_output
    from kiai.progress import Bar
    from kiai.solve import check_solve, solve_table, write_solved

    check_solve(table.samurai, table.difficulty, games, seed, budget, order)
    if out:
        check_output(Path(out), force=force, suffixes=(".json",))
    with Bar(name="solve") as bar:

        def each(_deal) -> None:  # the first deal carries the compile: the rate starts after it
            if bar.started is None:
                bar.start("deals", games)
            bar.advance(1)

        res = solve_table(table.samurai, table.difficulty, games, seed=seed, budget=budget, order=order,
                          on_deal=each)
    n = res["games"]
    print(f"{', '.join(res['samurai'])}; {res['difficulty']}; {n} deals of seed {seed}, {budget:,} nodes each: "
          f"won {res['won']}, lost {res['lost']}, unknown {res['unknown']}"
          + (f", failed {res['failed']}" if res["failed"] else "") + f" ({res['seconds']:.1f} s).")
    if out:
        write_solved(res, out)
