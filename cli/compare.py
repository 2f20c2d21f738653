"""`kiai compare`: every seating of a line-up on the same games, ranked, with paired tests."""

from __future__ import annotations

import json
import time

import typer

from cli.common import (
    DEFAULT_SAMURAI,
    AbsentOpt,
    ComponentsOpt,
    DifficultyOpt,
    ParamOpt,
    SeedOpt,
    ThreadsOpt,
    check_seed,
    fail,
    parse_params,
    progress,
)
from cli.main import app


@app.command(help="Play every distinct seating of a line-up ((n-1)! of them: rotations are the same "
                  "seating, mirror images are not) on the same games of one seed, rank them by win "
                  "rate and test each against the best with McNemar's paired test on the per-game "
                  "results; p-values are Holm-adjusted over the comparisons.")
def compare(
    lineup: str = typer.Option(DEFAULT_SAMURAI, "--lineup", "-s", help="The line-up: 3 to 7 distinct names, comma-separated."),
    difficulty: str = DifficultyOpt,
    games: int = typer.Option(100_000, "--games", "-n", help="Games per seating (the same game indices for each)."),
    seed: int = SeedOpt,
    strategy: str = typer.Option(None, "--strategy", help="Strategy (default: kiai's default strategy, see `kiai strategies`)."),
    param: list[str] = ParamOpt,
    absent_tokens: str = AbsentOpt,
    components: str = ComponentsOpt,
    threads: int = ThreadsOpt,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON list, best seating first."),
):
    from reports import compare as C
    from reports.presets import DEFAULT_STRATEGY
    from reports.seatings import _names
    from reports.sweep import warm
    from simcore.api import ConfigError, set_threads
    from simcore.components import ComponentsError, load_components

    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    check_seed(seed)
    try:
        names = _names([t for t in lineup.split(",") if t.strip()])
    except ValueError as e:
        fail(f"--lineup {lineup}: {e}")
    if len(names) < 3:
        fail(f"--lineup needs at least 3 samurai to have two seatings, got {len(names)}")
    strategy = strategy or DEFAULT_STRATEGY
    try:
        comp = load_components(components)
        arms = C.seating_arms(names, difficulty.lower(), strategy, parse_params(param), absent_tokens.lower(), comp)
        used = set_threads(threads)
    except (ConfigError, ComponentsError) as e:
        fail(str(e))

    total = games * len(arms)
    done = [0]
    warm(arms[0].config)  # compile (or load) before the bar starts
    start = time.perf_counter()
    with progress(total, "games") as bar:
        task = bar.add_task(f"{len(arms)} seatings", total=total, rate="")

        def on_block(k):
            done[0] += k
            rate = done[0] / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=done[0], rate=f"{rate:,.0f} games/s")

        ranked = C.rank(C.play_arms(arms, games, seed, on_block=on_block))
    seconds = time.perf_counter() - start

    d = arms[0].config.describe()
    if as_json:
        items = [{"rank": e["rank"], "seating": e["label"], **{k: v for k, v in e.items() if k not in ("rank", "label")},
                  "difficulty": d["difficulty"], "strategy": d["strategy"], "params": d["params"], "seed": seed}
                 for e in ranked]  # fmt: skip
        print(json.dumps(items))
        return
    print(f"seatings of {','.join(names)} at {d['difficulty']}, strategy {d['strategy']}"
          + (f" {d['params']}" if d["params"] else "") + ("" if d["honest"] else " (cheating)"))  # fmt: skip
    print(f"{len(arms)} seatings x {games:,} games, seed {seed}: every seating plays the same deals "
          f"({total / seconds:,.0f} games/s on {used} thread(s))")  # fmt: skip
    print()
    width = max(len(e["label"]) for e in ranked)
    print(f"{'rank':>4}  {'seating (seat 0 first)':<{width}}  {'win rate':>9}  {'95% CI':<19}  "
          f"{'vs best':>10}  {'p (Holm)':>9}  5%")  # fmt: skip
    for e in ranked:
        lo, hi = e["ci95"]
        ci = f"[{100 * lo:.3f}, {100 * hi:.3f}]"
        if e["p_holm"] is None:
            vs, p, sig = "best", "-", ""
        else:
            vs = f"{100 * e['diff_from_best']:+.3f} pp"
            p = f"{e['p_holm']:.3g}" if e["p_holm"] >= 1e-4 else "<1e-4"
            sig = "yes" if e["significant"] else "no"
        print(f"{e['rank']:>4}  {e['label']:<{width}}  {100 * e['win_rate']:>8.3f}%  {ci:<19}  {vs:>10}  {p:>9}  {sig}")
    print()
    print(f"p-values are Holm-adjusted over the {len(ranked) - 1} comparisons with the best seating "
          "(McNemar tests on the same games; 'yes' = significant at 5%).")  # fmt: skip
