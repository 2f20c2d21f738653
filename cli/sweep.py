"""`kiai sweep`: play a grid of configurations and write one tidy table, one row each."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from typer.core import TyperCommand

from kiai.inputs.sweep_plan import SWEEP_GAMES, preset_words
from kiai.cli.common import AbsentOpt, ComponentsOpt, ModelOpt, ParamsFileOpt, StrictOpt, command
from kiai.progress import Bar, bar as progress
from kiai.inputs.checks import fail
from kiai.words import plural

LEVELS_HELP = "Levels, comma-separated, or 'all' (default: normal)."


DEFAULT_PRESET = "<the default preset>"  # filled in from reports.playing.presets when the help is shown


class SweepCommand(TyperCommand):
    """`kiai sweep`, whose help quotes the default preset as reports.playing.presets defines it (its games
    each included), read when the help is shown: importing reports.playing.presets loads every strategy,
    too slow for each start of kiai."""

    def format_help_text(self, ctx, formatter) -> None:
        self.help = self.help.replace(DEFAULT_PRESET, preset_words("default"))
        super().format_help_text(ctx, formatter)


@command(cls=SweepCommand, short_help="Play a grid of configurations into one results table.",
         help="Play a grid of configurations on one seed and write one tidy table (Parquet; "
              "CSV too with --csv), one row per configuration, in the schema `kiai report` "
              "reads. Every configuration plays game indices 0..N-1 of the seed, so all "
              "line-ups and seatings of a team size and level meet the same deals (paired "
              "comparisons). Results are written as configurations finish (every 10 s at most); a killed sweep "
              "continues with --resume, which also plays again what an older engine played. "
              "`--preset default` is the main job of `make report`: "
              f"{DEFAULT_PRESET} (a few minutes on 2 cores).")
def sweep(
    out: Path = typer.Option(None, "--out", "-o", help="Results table to write (.parquet). Required."),
    difficulty: str = typer.Option(None, "--difficulty", "-d", help=LEVELS_HELP),
    players: str = typer.Option(None, "--players", help="Numbers of samurai, comma-separated (default: 4). "
                                                        "Not with --lineup."),
    lineup: list[str] = typer.Option(None, "--lineup", help="A line-up a,b,c played in the seat order given; "
                                                            "repeatable. Not with --lineups or --players."),
    lineups: str = typer.Option(None, "--lineups", help="'all': every line-up of each count; 'sample:K': K "
                                                        "of them per count, drawn with the seed (default: all)."),
    seatings: str = typer.Option("given", "--seatings", help="'given': each line-up in one seat order; 'all': "
                                                             "every distinct seating ((n-1)! per line-up; "
                                                             "rotations are the same seating, mirrors are not)."),
    strategy: str = typer.Option(None, "--strategy", help="Strategies, comma-separated (default: the default "
                                                          "strategy, see `kiai strategies`)."),
    param: list[str] = typer.Option(None, "--param", help="NAME=VALUE or NAME=V1,V2,... (an axis); applies to "
                                                          "the strategies that have the parameter; repeatable."),
    params_file: str = typer.Option(None, "--params-file", help=ParamsFileOpt.help + " Its parameters apply to its "
                                                                "strategy (default --strategy: that strategy); "
                                                                "--param values override them."),
    absent_tokens: str = AbsentOpt,
    rule: list[str] = typer.Option(None, "--rule", help="A rule reading NAME=VALUE or NAME=V1,V2 (an axis, e.g. "
                                                        "--rule heal=any,wounded); repeatable, one per reading "
                                                        "(`kiai rules` lists them). Default: the rules' own readings."),
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    strict: bool = StrictOpt,
    games: int = typer.Option(None, "--games", "-n", help=f"Games per configuration (default {SWEEP_GAMES:,}; "
                                                          "the preset's own with --preset)."),
    precision: float = typer.Option(None, "--precision", help="Instead of --games: play batches of doubling size "
                                                             "(1,000, 2,000, 4,000, ...) until the 95% interval's "
                                                             "half-width is at most H (e.g. 0.005)."),
    headline: float = typer.Option(None, "--headline", help="With --preset default or agreement: play each "
                                                            "team size and level until the report's headline "
                                                            "interval for it is within +-H (a proportion, e.g. "
                                                            "0.01 for one point; the report's own is 0.02). "
                                                            "Games grow as 1/H^2."),
    max_games: int = typer.Option(None, "--max-games", help="With --precision: stop at this many games even if the "
                                                            "precision is not reached (default 10,000,000)."),
    seed: int = typer.Option(0, "--seed", help="Random seed shared by every configuration."),
    csv: bool = typer.Option(False, "--csv", help="Also write the table as CSV beside the Parquet file."),
    resume: bool = typer.Option(False, "--resume", help="Keep the configurations of this sweep that --out "
                                                        "holds, played by this engine (and model and component "
                                                        "file), and play the rest: those of an interrupted run, "
                                                        "and those an older engine played. A missing --out "
                                                        "plays everything."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out."),
    threads: int = typer.Option(None, "--threads", help="Numba threads (per Dask worker with --workers or "
                                                        "--scheduler; default: cores, or cores // workers). "
                                                        "Results do not depend on it."),
    workers: int = typer.Option(None, "--workers", help="Run on a local Dask cluster of N worker processes."),
    scheduler: str = typer.Option(None, "--scheduler", help="Run on a running Dask scheduler (tcp://host:8786); "
                                                            "its workers need the same kiai installed."),
    block: int = typer.Option(None, "--block", help="Game indices per engine call / Dask task (default 50,000)."),
    preset: str = typer.Option(None, "--preset", help="A ready-made grid instead of the axis options: "
                                                      "'default' (the main job), 'advice' (every seating of the "
                                                      "line-up the default sweep recommends per team size; with "
                                                      "--from), 'agreement' (a subsample of the default sweep "
                                                      "played by the default strategy and the strong tier, judge; with --from), "
                                                      "'ladder' and 'ladder-planners' (the report's skill ladder), "
                                                      "'house' (the rule readings' line-ups under --components, "
                                                      "for the report's House rules section); "
                                                      "each with its own strategies and games unless --strategy / "
                                                      "--games say otherwise."),
    results: Path = typer.Option(None, "--from", help="The results table (.parquet or .csv) a preset's grid is "
                                                      "read from: the default sweep's, for --preset advice or "
                                                      "agreement."),
):
    from kiai import api

    if out is None:
        fail("--out is required (a .parquet file)")
    bar = Bar(progress, name="sweep")
    df = api.sweep(difficulty, players, lineups=lineup, sample=lineups, seatings=seatings, strategies=strategy,
                   params=param, params_file=params_file, rules=rule, absent_tokens=absent_tokens,
                   components=components, model=model, games=games, precision=precision, max_games=max_games,
                   seed=seed, preset=preset, results=results, out=out, csv=csv, resume=resume, force=force,
                   threads=threads, strict=strict,
                   workers=workers, scheduler=scheduler, block=block, headline=headline, progress=bar)  # fmt: skip
    _print_done(df, bar, out, csv)


def _print_done(df, bar: Bar, out: Path, csv: bool) -> None:
    """What was played, how fast and where; what was written."""
    seconds = time.perf_counter() - bar.started
    where = f"on {plural(bar.threads, 'thread')}" if bar.threads is not None else \
        f"on {plural(bar.workers or 0, 'Dask worker')}"
    speed = f"{bar.games / seconds:,.0f} games/s " if bar.games and seconds > 0 else ""
    print(f"sweep: {plural(len(df), 'configuration')} ({bar.configurations_done:,} played, "
          f"{len(df) - bar.configurations_done:,} resumed), {plural(int(df['games'].sum()), 'game')}; "
          f"{bar.games:,} played in {fmt_duration(seconds)} ({speed}{where})")  # fmt: skip
    print(f"table written to {out}" + (f" and {out.with_suffix('.csv')}" if csv else ""))


def fmt_duration(seconds: float) -> str:
    """'12.3 s' under a minute, else '4 min 5 s'."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {seconds % 60:.0f} s"
