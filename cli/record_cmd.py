"""`kiai record` and `kiai replay`: games as data (reports.records), and checking them."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer

from kiai.cli.common import (
    MAX_INDEX,
    AbsentOpt,
    ComponentsOpt,
    DifficultyOpt,
    ForceOpt,
    ModelOpt,
    ParamOpt,
    ParamsFileOpt,
    RuleOpt,
    SamuraiOpt,
    SeedOpt,
    StrategyOpt,
    check_output,
    check_seed,
    command,
    fail,
    make_config,
    progress,
    stderr,
    warm_engine,
)
from kiai.reports.words import plural

MAX_RECORDED = 1_000_000  # games one `kiai record` writes (a record is some 20 to 100 KB)


@command(short_help="Play games and write each as a JSON record.",
         help="Play games and write each as a record: one JSON object per line with the setup, every "
              "event, decision and random outcome in order of play, the public state after each turn "
              "and end-of-round step, and the result (docs/records.md). `kiai replay` checks records "
              "against the engine; so can an independent implementation of the rules.")
def record(
    samurai: str = SamuraiOpt,
    difficulty: str = DifficultyOpt,
    games: int = typer.Option(None, "--games", "-n", help="Record games 0..N-1 of the seed (default 1)."),
    game_index: int = typer.Option(None, "--game-index", "-i", help="Record only this game of the seed's sequence "
                                                                     "(0..2**63-1), as `kiai trace` plays it."),
    seed: int = SeedOpt,
    strategy: str = StrategyOpt,
    param: list[str] = ParamOpt,
    params_file: str = ParamsFileOpt,
    absent_tokens: str = AbsentOpt,
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    rule: list[str] = RuleOpt,
    out: Path = typer.Option(None, "--out", help="Write to this .jsonl or .jsonl.gz file (default: standard output)."),
    force: bool = ForceOpt,
):
    from kiai.reports.records import dumps, open_text, write
    from kiai.reports.summary import kiai_version
    from kiai.strategies.run import record_game

    check_seed(seed)
    if games is not None and game_index is not None:
        fail("give --games or --game-index, not both")
    if games is not None and not 1 <= games <= MAX_RECORDED:
        fail(f"--games must be at least 1 and at most {MAX_RECORDED:,}, got {games:,}")
    if game_index is not None and not 0 <= game_index <= MAX_INDEX:
        fail(f"--game-index must be in 0..2**63-1, got {game_index}")
    if out is not None:
        name = str(out).lower()
        if not (name.endswith(".jsonl") or name.endswith(".jsonl.gz")):
            fail(f"--out must end in .jsonl or .jsonl.gz, got '{out}'")
        check_output(out, force=force)
    config = make_config(samurai, difficulty, strategy, param, absent_tokens, components, params_file=params_file,
                         model=model, rules=rule)
    indices = [game_index] if game_index is not None else range(games or 1)
    warm_engine(config)
    version = kiai_version()
    tmp = None
    if out is not None:
        tmp = out.with_name(out.name + ".part")
    sink = sys.stdout if out is None else open_text(tmp, "wt", gz=out.name.lower().endswith(".gz"))
    try:
        with progress(enabled=None if out is not None else False) as bar:
            task = bar.add_task("recording", total=len(indices), rate="")
            for i in indices:
                row, rows = record_game(config, seed, i)
                sink.write(dumps(write(config, seed, i, row, rows, version)) + "\n")
                bar.advance(task)
    except BaseException:
        if out is not None:
            sink.close()
            tmp.unlink(missing_ok=True)
        raise
    if out is not None:
        sink.close()
        tmp.replace(out)
        stderr(f"{plural(len(indices), 'game record')} written to {out}")


@command(short_help="Check game records against the engine.",
         help="Check game records against the engine: replay each, feeding it the record's random outcomes "
              "and decisions, and compare every event, state and the result. Prints 'N games verified', or "
              "the first divergence (game, event, field, recorded and replayed values) and exits 1. A record "
              "made with another component file needs that file (--components).")
def replay(
    files: list[Path] = typer.Argument(..., help="Record files (.jsonl or .jsonl.gz), as `kiai record` writes."),
    components: list[str] = typer.Option(None, "--components", help="Component data file(s) the records were made "
                                                                     "with, when not the packaged one; repeatable."),
):
    from kiai.reports.records import RecordError, first_divergence, read, replayed
    from kiai.reports.summary import kiai_version
    from kiai.simcore.components import ComponentsError, load_components
    from kiai.strategies.run import GameConfig

    for f in files:
        if not f.is_file():
            fail(f"{f}: no such file")
    comps = {}
    try:
        for c in [None, *(components or [])]:
            comp = load_components(c)
            comps[comp.sha256] = comp
    except ComponentsError as e:
        fail(str(e))
    version = kiai_version()
    # every record replays with `reference` on the one engine: compiled once, before the clock starts
    warm_engine(GameConfig(("kyuzo", "kanbei"), strategy="reference"))
    checked = 0
    start = time.perf_counter()
    with progress() as bar:
        task = bar.add_task("replaying", total=None, rate="")
        for f in files:
            try:
                for line, rec in read(f):
                    where = f"{f}, line {line}"
                    sha = rec.get("components_sha256")
                    if sha not in comps:
                        fail(f"{where}: made with component data {str(sha)[:12]}..., which is not at hand; "
                             "pass its file with --components")
                    diff = first_divergence(rec, replayed(rec, comps[sha], where, version))
                    if diff is not None:
                        part, field, a, b = diff
                        print(f"{where} (game {rec['game']} of seed {rec['seed']}): diverges at {part}, "
                              f"field {field}: recorded {a!r}, replayed {b!r}")
                        raise typer.Exit(1)
                    checked += 1
                    bar.advance(task)
            except RecordError as e:
                fail(str(e))
    if checked == 0:
        fail(f"no records in {', '.join(str(f) for f in files)}")
    seconds = time.perf_counter() - start
    print(f"{plural(checked, 'game')} verified ({seconds:.1f} s)")
