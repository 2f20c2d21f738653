"""`kiai compare`: arms played on the same games, with paired tests.

Without --strategies or --rules the arms are every seating of a line-up, ranked and tested
against the best; with --strategies they are strategies on one seating, and with --rules the
values of one rule reading on one seating and strategy; every pair of those is tested."""

from __future__ import annotations

import json
import time

import typer

from kiai.cli.common import (
    DEFAULT_SAMURAI,
    AbsentOpt,
    ComponentsOpt,
    ModelOpt,
    check_model,
    DifficultyOpt,
    ParamsFileOpt,
    RuleOpt,
    SeedOpt,
    ThreadsOpt,
    check_games,
    check_seed,
    check_threads,
    command,
    fail,
    format_params,
    load_params_file,
    parse_params,
    parse_rules,
    parse_samurai,
    progress,
    resolve_strategy,
    warm_engine,
)
from kiai.reports.words import plural


@command(short_help="Compare seatings, strategies or rule readings on the same games.",
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
              "harder the game is under each reading.")
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
    strategies: str = typer.Option(None, "--strategies", help="Compare these strategies (2 or more, comma-separated, "
                                                              "each once) on one seating instead of seatings."),
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
    components: str = ComponentsOpt,
    model: str = ModelOpt,
    threads: int = ThreadsOpt,
    as_json: bool = typer.Option(False, "--json", help="Print JSON: a list of seatings, best first; with "
                                                       "--strategies one object with 'strategies' and 'pairs'; "
                                                       "with --rules one object with 'readings' and 'pairs'."),
):
    from kiai.reports import compare as C
    from kiai.reports.seatings import _names
    from kiai.simcore.config import ConfigError
    from kiai.strategies.run import set_threads
    from kiai.simcore.components import ComponentsError, load_components

    check_games(games)
    check_seed(seed)
    check_threads(threads)
    fixed = parse_rules(rule)
    if rules is not None and strategies is not None:
        fail("--rules and --strategies exclude each other")
    axis = _rule_axis(rules, fixed) if rules is not None else None
    mode = "strategies" if strategies is not None else "readings" if rules is not None else "seatings"
    try:
        comp = load_components(components)
        if strategies is not None:
            if strategy is not None:
                fail("--strategy and --strategies exclude each other")
            arms = C.strategy_arms(parse_samurai(lineup, "--lineup"), difficulty.lower(),
                                   _strategy_params(strategies, param, params_file), absent_tokens.lower(), comp,
                                   model, rules=fixed)
        elif axis is not None:
            if len(params_file or []) > 1:
                fail("--params-file is given more than once; that takes --strategies")
            name, overrides = resolve_strategy(strategy, param, (params_file or [None])[0])
            arms = C.rule_arms(parse_samurai(lineup, "--lineup"), difficulty.lower(), name, overrides, axis[0],
                               axis[1], absent_tokens.lower(), comp, model, rules=fixed)
        else:
            try:
                names = _names(parse_samurai(lineup, "--lineup"))
            except ValueError as e:
                fail(f"--lineup {lineup}: {e}")
            if len(names) < 3:
                fail(f"--lineup needs at least 3 samurai to have two seatings, got {len(names)}")
            if len(params_file or []) > 1:
                fail("--params-file is given more than once; that takes --strategies")
            name, overrides = resolve_strategy(strategy, param, (params_file or [None])[0])
            arms = C.seating_arms(names, difficulty.lower(), name, overrides, absent_tokens.lower(), comp, model,
                                  rules=fixed)
        used = set_threads(threads)
    except (ConfigError, ComponentsError) as e:
        fail(str(e))
    check_model(model, [arm.config for arm in arms])

    played, seconds = _play(C, arms, games, seed, mode)
    speed = f"{games * len(arms) / seconds:,.0f} games/s on {plural(used, 'thread')}"
    if strategies is not None:
        _report_strategies(C, played, games, seed, speed, as_json)
    elif axis is not None:
        _report_rules(C, played, axis[0], games, seed, speed, as_json)
    else:
        _report_seatings(C, played, names, games, seed, speed, as_json)


def _rule_axis(rules: str, fixed: dict) -> tuple[str, list[str]]:
    """--rules NAME=V1,V2[,...]: one reading and its values (2 or more, each once), not also fixed by --rule."""
    name, sep, raw = rules.partition("=")
    if not sep or not name.strip() or not raw.strip():
        fail(f"--rules expects NAME=V1,V2 (e.g. heal=any,wounded), got '{rules}'")
    parsed = parse_rules([rules], option="--rules", axis=True)
    (name, values), = parsed.items()  # one NAME=... item gives one reading
    if len(values) < 2:
        fail(f"--rules needs at least 2 values of one reading, comma-separated (e.g. {name}=V1,V2), got '{rules}'")
    if name in fixed:
        fail(f"--rule {name} and --rules {name} exclude each other: --rules compares the values of {name}")
    return name, values


def _strategy_params(strategies: str, param: list[str] | None,
                     params_files: list[str] | None) -> list[tuple[str, dict]]:
    """(name, overrides) for each strategy of --strategies, from --params-file and STRATEGY.NAME=VALUE."""
    from kiai.strategies import registry

    names = [t.strip() for t in strategies.split(",") if t.strip()]
    if len(names) < 2:
        fail(f"--strategies needs at least 2 strategies, comma-separated, got '{strategies}'")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        fail(f"--strategies lists '{twice[0]}' twice; each strategy plays once (the games are the same)")
    for name in names:
        try:
            registry.get(name)
        except KeyError as e:
            fail(e.args[0])
    overrides: dict[str, dict] = {name: {} for name in names}
    from_file: dict[str, str] = {}
    for path in params_files or []:
        loaded = load_params_file(path)
        if loaded.strategy not in overrides:
            fail(f"--params-file {path} is for strategy {loaded.strategy}, "
                 f"which --strategies {','.join(names)} does not list")
        if loaded.strategy in from_file:
            fail(f"--params-file {from_file[loaded.strategy]} and {path} are both for strategy {loaded.strategy}")
        from_file[loaded.strategy] = path
        overrides[loaded.strategy].update(loaded.params)
    for key, value in parse_params(param).items():
        name, dot, pname = key.partition(".")
        if not dot or not pname:
            fail(f"--param with --strategies expects STRATEGY.NAME=VALUE (e.g. {names[0]}.T=3), got '{key}={value}'")
        if name not in overrides:
            fail(f"--param {key}: '{name}' is not one of --strategies ({', '.join(names)})")
        overrides[name][pname] = value
    return [(name, overrides[name]) for name in names]


def _play(C, arms, games: int, seed: int, what: str):
    """Every arm on games 0..games-1 of seed (block by block, each arm in turn), with a progress
    bar that names the arm in play and shows the recent speed; (played, seconds of play,
    compilation excluded)."""
    warm_engine(*(arm.config for arm in arms))  # every planner and heuristic the arms need, before any timing
    start = time.perf_counter()
    with progress() as bar:
        task = bar.add_task(f"{len(arms)} {what}", total=games * len(arms), rate="")
        place = {arm.label: i for i, arm in enumerate(arms, 1)}  # labels are distinct

        def on_arm(arm):
            bar.update(task, description=f"{what[:-1]} {place[arm.label]}/{len(arms)}: {arm.label}")

        played = C.play_arms(arms, games, seed, on_block=lambda k: bar.advance(task, k), on_arm=on_arm)
    return played, max(time.perf_counter() - start, 1e-9)


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else "<1e-4"


def _ci(lo: float, hi: float) -> str:
    return f"[{100 * lo:.3f}, {100 * hi:.3f}]"


def _report_seatings(C, played, names, games: int, seed: int, speed: str, as_json: bool) -> None:
    from kiai.reports.summary import absent_label, rules_label

    ranked = C.rank(played)
    d = played[0]["summary"]
    typed = ",".join(names)
    if as_json:
        items = [{"rank": e["rank"], "seating": e["label"], "as_typed": e["label"] == typed,
                  **{k: v for k, v in e.items() if k not in ("rank", "label")},
                  "difficulty": d["difficulty"], "strategy": d["strategy"], "params": d["params"],
                  "rules": d["rules"], "seed": seed}
                 for e in ranked]  # fmt: skip
        print(json.dumps(items))
        return
    print(f"seatings of {typed} at {d['difficulty']}, strategy {d['strategy']}"
          + (f" {d['params']}" if d["params"] else "") + ("" if d["honest"] else " (cheating)")
          + absent_label(d["absent_tokens"], d["absent_tokens_unused"]) + rules_label(d["rules"]))  # fmt: skip
    print(f"{plural(len(ranked), 'seating')} x {plural(games, 'game')}, seed {seed}: every seating plays the same "
          f"deals ({speed})")  # fmt: skip
    print(f"each seating starts with {names[0]}, as typed")
    print()
    width = max(len(e["label"]) for e in ranked)
    print(f"{'rank':>4}  {'seating (seat 0 first)':<{width}}  {'win rate':>9}  {'95% CI':<19}  "
          f"{'vs best':>10}  {'p (Holm)':>9}  5%")  # fmt: skip
    for e in ranked:
        if e["p_holm"] is None:
            vs, p, sig = "best", "-", ""
        else:
            vs = f"{100 * e['diff_from_best']:+.3f} pp"
            p = _p(e["p_holm"])
            sig = "yes" if e["significant"] else "no"
        mark = "  <- as typed" if e["label"] == typed else ""
        print(f"{e['rank']:>4}  {e['label']:<{width}}  {100 * e['win_rate']:>8.3f}%  {_ci(*e['ci95']):<19}  "
              f"{vs:>10}  {p:>9}  {sig:<3}{mark}")  # fmt: skip
    print()
    print(f"p-values are Holm-adjusted over the {plural(len(ranked) - 1, 'comparison')} with the best seating "
          "(McNemar tests on the same games; 'yes' = significant at 5%).")  # fmt: skip


def _report_strategies(C, played, games: int, seed: int, speed: str, as_json: bool) -> None:
    from kiai.reports.summary import absent_label, rules_label

    ordered = C.by_win_rate(played)
    pairs = C.pairwise(ordered)
    d = ordered[0]["summary"]
    rows = [{"rank": r + 1, "strategy": p["summary"]["strategy"], "honest": p["summary"]["honest"],
             "params": p["summary"]["params"], **{k: v for k, v in C.arm_entry(p).items() if k != "label"},
             "rules": p["summary"]["rules"]}
            for r, p in enumerate(ordered)]  # fmt: skip
    if as_json:
        print(json.dumps({"mode": "strategies", "seating": d["samurai"], "difficulty": d["difficulty"],
                          "absent_tokens": d["absent_tokens"], "rules": d["rules"], "games": games, "seed": seed,
                          "components_sha256": d["components_sha256"], "kiai_version": d["kiai_version"],
                          "alpha": C.ALPHA, "strategies": rows, "pairs": pairs}))  # fmt: skip
        return
    label = {r["strategy"]: r["strategy"] + ("" if r["honest"] else " (cheating)") for r in rows}
    print(f"strategies on {','.join(d['samurai'])} (seat 0 first) at {d['difficulty']}"
          + absent_label(d["absent_tokens"], False) + rules_label(d["rules"]))  # fmt: skip
    unused = [p["summary"]["strategy"] for p in ordered if p["summary"]["absent_tokens_unused"]]
    if unused:
        print(f"note: {', '.join(unused)} never use(s) absent tokens")
    print(f"{plural(len(rows), 'strategy', 'strategies')} x {plural(games, 'game')}, seed {seed}: every strategy "
          f"plays the same deals ({speed})")  # fmt: skip
    print()
    w = max(len("strategy"), *(len(v) for v in label.values()))
    print(f"{'rank':>4}  {'strategy':<{w}}  {'win rate':>9}  {'95% CI':<19}  {'method':<15}  parameters")
    for r in rows:
        params = format_params(r["params"])
        print(f"{r['rank']:>4}  {label[r['strategy']]:<{w}}  {100 * r['win_rate']:>8.3f}%  {_ci(*r['ci95']):<19}  "
              f"{r['ci_method']:<15}  {params}")  # fmt: skip
    print()
    _print_pairs(pairs, label)


def _report_rules(C, played, reading: str, games: int, seed: int, speed: str, as_json: bool) -> None:
    """The arms of --rules: one strategy and seating under each value of one rule reading."""
    from kiai.reports.summary import absent_label
    from kiai.simcore.readings import BY_NAME, changed, label as rules_text

    info = BY_NAME[reading]
    ordered = C.by_win_rate(played)
    pairs = C.pairwise(ordered)
    d = ordered[0]["summary"]
    rows = [{"rank": r + 1, "reading": p["summary"]["rules"][reading],
             "default": p["summary"]["rules"][reading] == info.default,
             **C.arm_entry(p), "rules": p["summary"]["rules"]}
            for r, p in enumerate(ordered)]  # fmt: skip
    others = {k: v for k, v in changed(d["rules"]).items() if k != reading}  # the --rule readings of every arm
    if as_json:
        print(json.dumps({"mode": "rules", "rule": reading, "v": info.v, "departs_from": info.departs,
                          "seating": d["samurai"], "difficulty": d["difficulty"], "strategy": d["strategy"],
                          "honest": d["honest"], "params": d["params"], "absent_tokens": d["absent_tokens"],
                          "fixed_rules": others, "games": games, "seed": seed,
                          "components_sha256": d["components_sha256"], "kiai_version": d["kiai_version"],
                          "alpha": C.ALPHA, "readings": rows, "pairs": pairs}))  # fmt: skip
        return
    label = {r["label"]: r["label"] + (" (default)" if r["default"] else "") for r in rows}
    print(f"rule {reading} ({info.v}, departs from {info.departs}) on {','.join(d['samurai'])} (seat 0 first) at "
          f"{d['difficulty']}, strategy {d['strategy']}" + (f" {d['params']}" if d["params"] else "")
          + ("" if d["honest"] else " (cheating)")
          + absent_label(d["absent_tokens"], d["absent_tokens_unused"])
          + (f", every arm with {rules_text(others)}" if others else ""))  # fmt: skip
    print(f"{plural(len(rows), 'reading')} x {plural(games, 'game')}, seed {seed}: every reading plays the same "
          f"deals ({speed})")  # fmt: skip
    print()
    w = max(len("reading"), *(len(v) for v in label.values()))
    print(f"{'rank':>4}  {'reading':<{w}}  {'win rate':>9}  {'95% CI':<19}  method")
    for r in rows:
        print(f"{r['rank']:>4}  {label[r['label']]:<{w}}  {100 * r['win_rate']:>8.3f}%  {_ci(*r['ci95']):<19}  "
              f"{r['ci_method']}")  # fmt: skip
    print()
    _print_pairs(pairs, label)


def _print_pairs(pairs: list[dict], label: dict) -> None:
    """The table of paired tests (a - b) and its legend."""
    pw = max(len(label[p["a"]]) + len(label[p["b"]]) + 3 for p in pairs)
    print(f"{'a - b':<{pw}}  {'diff':>10}  {'95% CI (pp)':<19}  {'a only':>7}  {'b only':>7}  {'p':>7}  "
          f"{'p (Holm)':>8}  5%")  # fmt: skip
    for p in pairs:
        print(f"{label[p['a']] + ' - ' + label[p['b']]:<{pw}}  {100 * p['diff']:>+7.3f} pp  {_ci(*p['diff_ci']):<19}  "
              f"{p['discordant'][0]:>7,}  {p['discordant'][1]:>7,}  {_p(p['p_value']):>7}  {_p(p['p_holm']):>8}  "
              f"{'yes' if p['significant'] else 'no'}")  # fmt: skip
    print()
    print(f"a only / b only: games only a / only b won (the others were won or lost by both). p: McNemar's test on "
          f"the same games; p (Holm): adjusted over the {plural(len(pairs), 'pair')} ('yes' = significant "
          "at 5%).")  # fmt: skip
