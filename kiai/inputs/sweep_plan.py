"""The plan of a sweep from the API's arguments (kiai.api.sweep): every argument checked with the
command's checks, the grid or preset it names, and the table it resumes or writes."""

from __future__ import annotations

import contextlib
import dataclasses
import math
from dataclasses import dataclass
from numbers import Real
from pathlib import Path

from kiai.inputs.checks import check_cluster, check_flag, check_input, check_path, fail, items_of, once, split, text_of, whole
from kiai.inputs.configs import load_components, parse_counts, parse_levels, parse_rules, parse_samurai
from kiai.inputs.counts import MAX_GAMES, check_games, check_seed, check_threads
from kiai.errors import KiaiError
from kiai.outputs import claim
from kiai.inputs.paths import check_output, read_results
from kiai.inputs.players import check_model, load_params_file, param_value
from kiai.words import plural

SWEEP_GAMES = 10_000  # games per configuration of a sweep that names neither games nor a preset
RESUME_HINT = "use --resume to continue that sweep or --force to replace it"


@dataclass
class Axes:
    """A sweep's axes as the command's text: the API's lists and numbers written as `kiai sweep`
    takes them, so both parse them alike (and the table's notes can quote the command)."""

    difficulty: str | None  # --difficulty
    players: str | None  # --players
    lineup: list[str]  # --lineup, repeated
    lineups: str | None  # --lineups: all or sample:K
    seatings: str
    strategy: str | None  # --strategy, comma-separated
    param: list[str] | None
    rule: list[str] | None

    @classmethod
    def of(cls, levels, players, lineups, sample, seatings, strategies, params, rules) -> Axes:
        if lineups is not None and not isinstance(lineups, (str, list, tuple)):
            fail(f"--lineup expects line-ups: a list of them, each a list of names or 'a,b,c', got {lineups!r}")
        return cls(
            difficulty=text_of(levels, "--difficulty"), players=text_of(players, "--players"),
            lineup=[lineups] if isinstance(lineups, str) else [text_of(x, "--lineup") for x in lineups or []],
            lineups=sample if sample is None or isinstance(sample, str) else f"sample:{sample}",
            seatings=seatings, strategy=text_of(strategies, "--strategy"), param=items_of(params, "--param"),
            rule=items_of(rules, "--rule"),
        )  # fmt: skip

    def given(self) -> list[str]:
        """The options that set the grid (which a preset sets instead)."""
        return [name for name, v in (("--difficulty", self.difficulty), ("--players", self.players),
                                     ("--lineup", self.lineup), ("--lineups", self.lineups), ("--param", self.param),
                                     ("--rule", self.rule))
                if v] + (["--seatings"] if self.seatings != "given" else [])  # fmt: skip


def sweep_plan(p, *, levels, players, lineups, sample, seatings, strategies, params, params_file, rules,
                absent_tokens, components, model, games, precision, max_games, seed, preset, results, out, csv,
                resume, force, threads, workers, scheduler, block, held: contextlib.ExitStack, strict=False,
                headline=None):
    """sweep's checks, in the order `kiai sweep` makes them, and its plan: (plan, request, the
    reports.playing.sweep.Sweep bound to `out` or None, the race's groups or None). The claim on
    `out` is entered into `held`, which the caller keeps until the sweep's last write."""
    from kiai.reports.playing import grid as G
    from kiai.reports.playing import sweep as S
    from kiai.simcore.config import ConfigError

    axes = Axes.of(levels, players, lineups, sample, seatings, strategies, params, rules)
    out = check_sweep_files(out, csv, resume, force)
    check_input(model, "--model")
    check_sweep_numbers(seed, games, precision, max_games, threads, workers, scheduler, block, p.note)
    check_headline(headline, preset, games, precision)
    if str(seatings).lower() not in ("given", "all"):
        fail(f"--seatings must be given or all, got '{seatings}'")
    axes.seatings = seatings.lower()
    if str(absent_tokens).lower() not in ("on", "off", "auto"):
        fail(f"--absent-tokens must be on, off or auto, got '{absent_tokens}'")
    absent_tokens = absent_tokens.lower()
    loaded, chosen = sweep_strategies(axes.strategy, params_file, preset)
    param_grid = parse_param_grid(axes.param)
    rule_grid = parse_rules(axes.rule, axis=True)
    comp = load_components(components)
    try:
        race = None
        if preset is not None:
            plan = preset_plan(preset, axes, chosen, absent_tokens, comp, model, results)
            if games is None and precision is None:
                from kiai.reports.playing.presets import PRESET_GAMES, RACES

                if preset in RACES:
                    race = preset
                else:
                    games = PRESET_GAMES[preset]
        else:
            if results is not None:
                fail("--from goes with --preset advice or agreement (a grid read from a results table)")
            plan = grid_plan(axes, chosen, param_grid, rule_grid, absent_tokens, comp, model, seed, p.note)
        if not plan:  # a preset explains its empty plan (reports.playing.presets); this covers the rest
            fail("the sweep has nothing to play")
        if check_flag(strict, "--strict"):  # a model made for other component data is refused (GameConfig.strict)
            try:
                plan = [dataclasses.replace(c, strict=True) for c in plan]
            except ConfigError as e:
                fail(str(e))
        check_model(model, plan, p.note)
        if loaded is not None:
            plan = G.with_base_params(plan, loaded.strategy, loaded.params)
        if games is None and precision is None and race is None:
            games = SWEEP_GAMES
        request = G.Request(games=games, precision=precision, race=race,
                            **({"max_games": max_games} if max_games is not None else {}))
        groups = None
        if race is not None:
            from kiai.reports.playing.presets import preset_groups

            groups = preset_groups(race, plan, headline)
        info = {"command": describe_sweep(preset, axes, chosen, games, precision, max_games, seed, params_file,
                                          results if isinstance(results, (str, Path)) else None, headline)}  # fmt: skip
        job = None
        if out is not None:  # claimed before the table is read or replaced: a second run refuses here
            held.enter_context(claim(out, replace=force or resume, exists_hint=RESUME_HINT))
            if csv and not (force or resume):
                check_output(out.with_suffix(".csv"), "--csv")  # again, now that the table is this run's
            job = S.Sweep(plan, seed, request, out, csv=csv, resume=resume, force=force, info=info, groups=groups)
            if job.resume_note() is not None:
                p.note(job.resume_note())
    except KiaiError:
        raise
    except ValueError as e:  # SweepError; seatings and samplers reject bad sizes
        fail(str(e))
    return plan, request, job, groups


def check_sweep_files(out, csv: bool, resume: bool, force: bool) -> Path | None:
    """The table file (and its CSV): writable, and not there unless resumed or replaced."""
    for flag, option in ((csv, "--csv"), (resume, "--resume"), (force, "--force")):
        check_flag(flag, option)
    if resume and force:
        fail("--resume and --force exclude each other")
    if check_path(out, "--out") is None:
        for given, option in ((csv, "--csv"), (resume, "--resume"), (force, "--force")):
            if given:
                fail(f"{option} goes with --out (the table file)")
        return None
    out = check_output(out, force=force or resume, suffixes=(".parquet",), exists_hint=RESUME_HINT)
    if csv and not (force or resume):
        check_output(out.with_suffix(".csv"), "--csv")
    return out


def check_sweep_numbers(seed, games, precision, max_games, threads, workers, scheduler, block, note) -> None:
    from kiai.reports.playing.stopping import PRECISION_START

    check_seed(seed)
    if games is not None:
        check_games(games)
    if games is not None and precision is not None:
        fail("--games and --precision exclude each other")
    if precision is not None and (not isinstance(precision, Real) or isinstance(precision, bool)
                                  or not math.isfinite(precision)):
        fail(f"--precision must be a number, a half-width in (0, 0.5], got {precision!r}")
    if max_games is not None and precision is None:
        fail("--max-games goes with --precision")
    for value, option in ((max_games, "--max-games"), (block, "--block")):
        if value is not None:
            whole(value, option)
    check_cluster(workers, scheduler)
    if max_games is not None and not PRECISION_START <= max_games <= MAX_GAMES:
        fail(f"--max-games must be in {PRECISION_START:,}..{MAX_GAMES:,}, got {max_games:,}")
    if workers is None and scheduler is None:
        check_threads(threads, note)  # a Dask worker's threads are checked on the worker's machine
    elif threads is not None and threads < 1:
        fail(f"--threads must be at least 1, got {threads}")
    if block is not None and block < 1:
        fail(f"--block must be at least 1, got {block}")


def check_headline(headline, preset, games, precision) -> None:
    """--headline: a half-width in (0, 0.5], for a race whose cells the report's headline reads."""
    from kiai.reports.playing.presets import HEADLINE_PRESETS

    if headline is None:
        return
    if not isinstance(headline, Real) or isinstance(headline, bool) or not math.isfinite(headline) \
            or not 0 < headline <= 0.5:
        fail(f"--headline must be a half-width in (0, 0.5], got {headline!r}")
    if preset not in HEADLINE_PRESETS:
        fail(f"--headline goes with --preset {' or '.join(HEADLINE_PRESETS)}")
    if games is not None or precision is not None:
        fail("--headline goes with the preset's race, not with --games or --precision")


def sweep_strategies(strategy: str | None, params_file, preset: str | None):
    """(the --params-file loaded or None, the strategies played): --strategy's, else the file's,
    else the preset's, else kiai's default."""
    from kiai.reports.playing import presets

    loaded = load_params_file(params_file) if params_file is not None else None
    if strategy is not None:
        chosen = once(split(strategy, "--strategy"), "--strategy")
    else:
        chosen = ([loaded.strategy] if loaded is not None
                  else list(presets.PRESET_STRATEGIES.get(preset, [presets.DEFAULT_STRATEGY])))  # fmt: skip
    if not chosen:
        fail("--strategy expects strategy names, comma-separated")
    if loaded is not None and loaded.strategy not in chosen:
        fail(f"--params-file {loaded.path} is for strategy {loaded.strategy}, "
             f"which --strategy {','.join(chosen)} does not list")
    return loaded, chosen


def preset_plan(preset: str, axes: Axes, strategies: list[str], absent_tokens: str, comp, model, results) -> list:
    """A preset's plan; `results` (a table or its file) for a preset that reads its grid from one."""
    from kiai.reports.playing import presets

    if preset not in presets.PRESETS:
        fail(f"unknown preset '{preset}' (known: {', '.join(presets.PRESETS)})")
    given = axes.given()
    if given:
        fail(f"--preset sets the grid; drop {given[0]}")
    if results is not None and preset not in presets.NEEDS_RESULTS:
        fail(f"--from goes with --preset {' or '.join(presets.NEEDS_RESULTS)}; --preset {preset} reads no table")
    return presets.preset_plan(preset, results=results_table(results), strategies=strategies,
                               absent_tokens=absent_tokens, components=comp, model=model)  # fmt: skip


def preset_words(name: str) -> str:
    """What a preset plays, in the words `kiai sweep --help` quotes (reports.playing.presets.PRESETS)."""
    from kiai.reports.playing.presets import PRESETS

    return PRESETS[name]


def results_table(results):
    """--from: a results table as given (a DataFrame), or read from its .parquet or .csv file."""
    if results is None:
        return None
    from kiai.reports.findings.table_check import check_results

    table, where = results, "--from"
    if not hasattr(results, "columns"):  # not a DataFrame: its file
        path = Path(check_input(results, "--from"))
        where = f"--from {path}"
        if path.is_dir():
            fail(f"{where} is a folder; give the results table file (.parquet or .csv)")
        if not path.is_file():
            fail(f"{where}: no such file")
        table = read_results(path, where)
    try:  # the checks `kiai report` makes of a table, and the seat orders the plan reads
        check_results(table)
        if "seating" not in table:
            raise ValueError("results table lacks column(s): seating")
    except ValueError as e:
        fail(f"{where}: {e}")
    return table


def grid_plan(axes: Axes, strategies: list[str], param_grid: dict, rule_grid: dict, absent_tokens: str, comp,
               model, seed: int, note) -> list:
    """The plan of the axes: levels x line-ups (given, or every or K of each team size) x seatings x
    strategy variants x rule readings."""
    from kiai.reports.playing import grid as G

    levels = parse_levels(axes.difficulty, comp)
    if axes.lineup:
        if axes.players is not None:
            fail("--players and --lineup exclude each other (a line-up fixes its size)")
        if axes.lineups is not None:
            fail("--lineup and --lineups exclude each other")
        chosen = parse_given_lineups(axes.lineup)
        check_distinct_lineups(chosen, axes.seatings)
    else:
        mode, k = parse_lineup_mode(axes.lineups)
        counts = parse_counts(axes.players)
        chosen = G.expand_lineups(counts, mode, k, seed)
        for line in sample_notes(counts, k) if mode == "sample" else ():
            note(line)
    variants = G.strategy_variants(strategies, param_grid)
    return G.build_plan(levels, G.expand_seatings(chosen, axes.seatings), variants, absent_tokens, comp, model,
                        rules=G.rule_variants(rule_grid))  # fmt: skip


def describe_sweep(preset: str | None, axes: Axes, strategies: list[str], games: int | None,
                   precision: float | None, max_games: int | None, seed: int, params_file=None,
                   results=None, headline=None) -> str:
    """The sweep as a command line, for the report's notes."""
    parts = ["kiai sweep"]
    if preset:
        parts.append(f"--preset {preset}")
    if results is not None:
        parts.append(f"--from {results}")
    for name, value in (("--difficulty", axes.difficulty), ("--players", axes.players), ("--lineups", axes.lineups)):
        if value:
            parts.append(f"{name} {value}")
    parts += [f"--lineup {v}" for v in axes.lineup]
    if axes.seatings != "given":
        parts.append(f"--seatings {axes.seatings}")
    parts.append(f"--strategy {','.join(strategies)}")
    if params_file is not None:
        parts.append(f"--params-file {params_file}")
    parts += [f"--param {v}" for v in axes.param or []]
    parts += [f"--rule {v}" for v in axes.rule or []]
    if precision is not None or games is not None:  # neither: a preset's race decides
        parts.append(f"--precision {precision}" if precision is not None else f"--games {games}")
    if max_games:
        parts.append(f"--max-games {max_games}")
    if headline is not None:
        parts.append(f"--headline {headline}")
    parts.append(f"--seed {seed}")
    return " ".join(parts)


def parse_lineup_mode(text: str | None) -> tuple[str, int | None]:
    """--lineups: 'all' (the default) or 'sample:K'."""
    if text is None or text.strip().lower() == "all":
        return "all", None
    mode, sep, k = text.strip().lower().partition(":")
    if mode == "sample" and sep:
        try:
            k = int(k)
        except ValueError:
            k = 0
        if k >= 1:
            return "sample", k
    fail(f"--lineups expects 'all' or 'sample:K' with K at least 1, got '{text}'")


def sample_notes(counts: list[int], k: int) -> list[str]:
    """What `--lineups sample:K` says when a team size has K line-ups or fewer: it plays them all."""
    notes = []
    for n in counts:
        c = math.comb(7, n)
        if k >= c:
            notes.append(f"note: --lineups sample:{k}: there {'is' if c == 1 else 'are'} only "
                         f"{plural(c, 'line-up')} of {n} samurai; playing {'it' if c == 1 else 'all of them'}")  # fmt: skip
    return notes


def parse_given_lineups(values: list[str]) -> list[tuple[str, ...]]:
    """--lineup (repeatable): line-ups played in the seat order given."""
    from kiai.simcore.seatings import as_names

    out = []
    for text in values:
        names = parse_samurai(text, "--lineup")
        try:
            out.append(as_names(names))
        except ValueError as e:
            fail(f"--lineup {text}: {e}")
    return out


def check_distinct_lineups(lineups: list[tuple[str, ...]], seatings: str) -> None:
    """--lineup given twice: the same seat order, or with --seatings all the same samurai (whose
    seatings it plays anyway) would play the same games twice under two names."""
    seen: dict = {}
    for names in lineups:
        key = names if seatings == "given" else frozenset(names)
        if key in seen:
            first, this = ",".join(seen[key]), ",".join(names)
            if first == this:
                fail(f"--lineup lists {this} twice; give each line-up once")
            fail(f"--lineup lists {first} and {this}, one line-up; --seatings all plays every seating of it, "
                 f"so give it once")
        seen[key] = names


def parse_param_grid(values: list[str] | None) -> dict[str, list[float]]:
    """--param NAME=VALUE[,VALUE...] (repeatable): each parameter's values."""
    grid: dict[str, list[float]] = {}
    for item in values or []:
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            fail(f"--param expects NAME=VALUE (or NAME=V1,V2,...), got '{item}'")
        vals = [param_value(name, r) for r in split(raw, f"--param {name}", "value")]
        if name in grid:
            fail(f"--param {name} is given twice; list its values as {name}=V1,V2")
        grid[name] = once(vals, f"--param {name}")
    return grid
