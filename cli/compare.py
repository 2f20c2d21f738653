"""`kiai compare`: arms played on the same games, with paired tests.

Without --strategies, --rules or a list of --components the arms are every seating of a line-up,
ranked and tested against the best; with --strategies they are strategies on one seating, with
--rules the values of one rule reading on one seating and strategy, and with --components a,b
component files on one seating and strategy; every pair of those is tested."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer

from kiai.checks import DEFAULT_SAMURAI
from kiai.cli.common import (
    AbsentOpt,
    DifficultyOpt,
    ModelOpt,
    ParamsFileOpt,
    RuleOpt,
    SeedOpt,
    StrictOpt,
    ThreadsOpt,
    command,
    format_params,
)
from kiai.progress import Bar, bar as progress
from kiai.reports.words import plural

if TYPE_CHECKING:
    from kiai.results import Comparison


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
              "with component files (a corrected deck, house levels) instead of readings.")
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
    as_json: bool = typer.Option(False, "--json", help="Print JSON: a list of seatings, best first; with "
                                                       "--strategies one object with 'strategies' and 'pairs'; "
                                                       "with --rules one object with 'readings' and 'pairs'."),
):
    from kiai import api

    result = api.compare(lineup, difficulty, games, seed=seed, strategy=strategy, strategies=strategies,
                         readings=rules, params=param, params_file=params_file, rules=rule,
                         absent_tokens=absent_tokens, components=components, model=model, threads=threads,
                         strict=strict, progress=Bar(progress))  # fmt: skip
    if as_json:
        print(json.dumps(result.to_json()))
    elif result.mode == "strategies":
        _report_strategies(result)
    elif result.mode == "rules":
        _report_rules(result)
    elif result.mode == "components":
        _report_components(result)
    else:
        _report_seatings(result)


def _speed(result: Comparison) -> str:
    return (f"{result.games * len(result.arms) / result.seconds:,.0f} games/s on "
            f"{plural(result.threads, 'thread')}")  # fmt: skip


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else "<1e-4"


def _ci(lo: float, hi: float) -> str:
    return f"[{100 * lo:.3f}, {100 * hi:.3f}]"


def _report_seatings(result: Comparison) -> None:
    from kiai.reports.summary import absent_label, played_as, rules_label

    ranked, d, typed = result.arms, result.summaries[0], result.typed
    games, seed = result.games, result.seed
    print(f"seatings of {typed} at {d['difficulty']}, strategy {played_as(d)}" + ("" if d["honest"] else " (cheating)")
          + absent_label(d["absent_tokens"], d["absent_tokens_unused"]) + rules_label(d["rules"]))  # fmt: skip
    print(f"{plural(len(ranked), 'seating')} x {plural(games, 'game')}, seed {seed}: every seating plays the same "
          f"deals ({_speed(result)})")  # fmt: skip
    print(f"each seating starts with {typed.split(',')[0]}, as typed")
    print()
    width = max(len(e["seating"]) for e in ranked)
    print(f"{'rank':>4}  {'seating (seat 0 first)':<{width}}  {'win rate':>9}  {'95% CI':<19}  "
          f"{'vs best':>10}  {'p (Holm)':>9}  5%")  # fmt: skip
    for e in ranked:
        if e["p_holm"] is None:
            vs, p, sig = "best", "-", ""
        else:
            vs = f"{100 * e['diff_from_best']:+.3f} pp"
            p = _p(e["p_holm"])
            sig = "yes" if e["significant"] else "no"
        mark = "  <- as typed" if e["as_typed"] else ""
        print(f"{e['rank']:>4}  {e['seating']:<{width}}  {100 * e['win_rate']:>8.3f}%  {_ci(*e['ci95']):<19}  "
              f"{vs:>10}  {p:>9}  {sig:<3}{mark}")  # fmt: skip
    print()
    print(f"p-values are Holm-adjusted over the {plural(len(ranked) - 1, 'comparison')} with the best seating "
          "(McNemar tests on the same games; 'yes' = significant at 5%).")  # fmt: skip


def _report_strategies(result: Comparison) -> None:
    from kiai.reports.summary import absent_label, rules_label

    rows, pairs, d = result.arms, result.pairs, result.summaries[0]
    label = {r["label"]: r["label"] + ("" if r["honest"] else " (cheating)") for r in rows}
    print(f"strategies on {','.join(d['samurai'])} (seat 0 first) at {d['difficulty']}"
          + absent_label(d["absent_tokens"], False) + rules_label(d["rules"]))  # fmt: skip
    unused = [s["strategy"] for s in result.summaries if s["absent_tokens_unused"]]
    if unused:
        print(f"note: {', '.join(unused)} never use(s) absent tokens")
    print(f"{plural(len(rows), 'strategy', 'strategies')} x {plural(result.games, 'game')}, seed {result.seed}: "
          f"every strategy plays the same deals ({_speed(result)})")  # fmt: skip
    print()
    w = max(len("strategy"), *(len(v) for v in label.values()))
    print(f"{'rank':>4}  {'strategy':<{w}}  {'win rate':>9}  {'95% CI':<19}  {'method':<15}  parameters")
    for r in rows:
        params = format_params(r["params"])
        print(f"{r['rank']:>4}  {label[r['label']]:<{w}}  {100 * r['win_rate']:>8.3f}%  {_ci(*r['ci95']):<19}  "
              f"{r['ci_method']:<15}  {params}")  # fmt: skip
    print()
    _print_pairs(pairs, label)


def _report_rules(result: Comparison) -> None:
    """The arms of --rules: one strategy and seating under each value of one rule reading."""
    from kiai.reports.summary import absent_label, played_as
    from kiai.simcore.readings import label as rules_text

    j, d = result.to_json(), result.summaries[0]
    rows, reading, others = result.arms, result.reading, j["fixed_rules"]
    label = {r["label"]: r["label"] + (" (default)" if r["default"] else "") for r in rows}
    print(f"rule {reading} ({j['v']}, departs from {j['departs_from']}) on {','.join(d['samurai'])} (seat 0 first) "
          f"at {d['difficulty']}, strategy {played_as(d)}"
          + ("" if d["honest"] else " (cheating)")
          + absent_label(d["absent_tokens"], d["absent_tokens_unused"])
          + (f", every arm with {rules_text(others)}" if others else ""))  # fmt: skip
    _print_arms(result, "reading", label)


def _report_components(result: Comparison) -> None:
    """The arms of --components a,b: one strategy and seating under each component file."""
    from kiai.reports.summary import absent_label, played_as, rules_label

    d = result.summaries[0]
    label = {r["label"]: r["label"] + (f" ({r['mark']})" if r["mark"] else "") for r in result.arms}
    levels = sorted({r["difficulty"] for r in result.arms})
    print(f"component files on {','.join(d['samurai'])} (seat 0 first)"
          + (f" at {levels[0]}" if len(levels) == 1 else "") + f", strategy {played_as(d)}"
          + ("" if d["honest"] else " (cheating)") + absent_label(d["absent_tokens"], d["absent_tokens_unused"])
          + rules_label(d["rules"]))  # fmt: skip
    print("files: " + "; ".join(f"{r['label']} " + (f"at {r['difficulty']}, " if len(levels) > 1 else "")
                                + f"{r['components_sha256'][:12]} (data {r['components_data_sha256'][:12]})"
                                for r in result.arms))  # fmt: skip
    _print_arms(result, "file", label)


def _print_arms(result: Comparison, noun: str, label: dict) -> None:
    """The arms of --rules or --components, best first, with the paired tests of every pair."""
    rows = result.arms
    print(f"{plural(len(rows), noun)} x {plural(result.games, 'game')}, seed {result.seed}: every {noun} plays "
          f"the same deals ({_speed(result)})")  # fmt: skip
    print()
    w = max(len(noun), *(len(v) for v in label.values()))
    print(f"{'rank':>4}  {noun:<{w}}  {'win rate':>9}  {'95% CI':<19}  method")
    for r in rows:
        print(f"{r['rank']:>4}  {label[r['label']]:<{w}}  {100 * r['win_rate']:>8.3f}%  {_ci(*r['ci95']):<19}  "
              f"{r['ci_method']}")  # fmt: skip
    print()
    _print_pairs(result.pairs, label)


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
