"""The text `kiai compare` prints for a Comparison (str() of reports.search.compare.Comparison): the
arms ranked, best first, with their intervals and paired tests."""

from __future__ import annotations

from kiai.reports.playing.summary import absent_label, played_as, rules_label
from kiai.simcore.readings import label as rules_text
from kiai.words import format_params, plural


def text(result) -> str:
    """The lines `kiai compare` prints for `result` (a reports.search.compare.Comparison), by its mode."""
    lines: list[str] = []
    write = {"strategies": _strategies, "rules": _rules, "components": _components}.get(result.mode, _seatings)
    write(result, lines.append)
    return "\n".join(lines)


def _speed(result) -> str:
    where = plural(result.workers, "Dask worker") if getattr(result, "workers", 0) else plural(result.threads, "thread")
    return f"{result.games * len(result.arms) / result.seconds:,.0f} games/s on {where}"


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else "<1e-4"


def _ci(lo: float, hi: float) -> str:
    return f"[{100 * lo:.3f}, {100 * hi:.3f}]"


def _seatings(result, out) -> None:
    ranked, d, typed = result.arms, result.summaries[0], result.typed
    games, seed = result.games, result.seed
    out(f"seatings of {typed} at {d['difficulty']}, strategy {played_as(d)}" + ("" if d["honest"] else " (cheating)")
        + absent_label(d["absent_tokens"], d["absent_tokens_unused"]) + rules_label(d["rules"]))  # fmt: skip
    out(f"{plural(len(ranked), 'seating')} x {plural(games, 'game')}, seed {seed}: every seating plays the same "
        f"deals ({_speed(result)})")  # fmt: skip
    out(f"each seating starts with {typed.split(',')[0]}, as typed")
    out("")
    width = max(len(e["seating"]) for e in ranked)
    out(f"{'rank':>4}  {'seating (seat 0 first)':<{width}}  {'win rate':>9}  {'95% CI':<19}  "
        f"{'vs best':>10}  {'p (Holm)':>9}  5%")  # fmt: skip
    for e in ranked:
        if e["p_holm"] is None:
            vs, p, sig = "best", "-", ""
        else:
            vs = f"{100 * e['diff_from_best']:+.3f} pp"
            p = _p(e["p_holm"])
            sig = "yes" if e["significant"] else "no"
        mark = "  <- as typed" if e["as_typed"] else ""
        out(f"{e['rank']:>4}  {e['seating']:<{width}}  {100 * e['win_rate']:>8.3f}%  {_ci(*e['ci95']):<19}  "
            f"{vs:>10}  {p:>9}  {sig:<3}{mark}")  # fmt: skip
    out("")
    out(f"p-values are Holm-adjusted over the {plural(len(ranked) - 1, 'comparison')} with the best seating "
        "(McNemar tests on the same games; 'yes' = significant at 5%).")  # fmt: skip


def _strategies(result, out) -> None:
    rows, pairs, d = result.arms, result.pairs, result.summaries[0]
    label = {r["label"]: r["label"] + ("" if r["honest"] else " (cheating)") for r in rows}
    out(f"strategies on {','.join(d['samurai'])} (seat 0 first) at {d['difficulty']}"
        + absent_label(d["absent_tokens"], False) + rules_label(d["rules"]))  # fmt: skip
    unused = [s["strategy"] for s in result.summaries if s["absent_tokens_unused"]]
    if unused:
        out(f"note: {', '.join(unused)} never use(s) absent tokens")
    out(f"{plural(len(rows), 'strategy', 'strategies')} x {plural(result.games, 'game')}, seed {result.seed}: "
        f"every strategy plays the same deals ({_speed(result)})")  # fmt: skip
    out("")
    w = max(len("strategy"), *(len(v) for v in label.values()))
    out(f"{'rank':>4}  {'strategy':<{w}}  {'win rate':>9}  {'95% CI':<19}  {'method':<15}  parameters")
    for r in rows:
        params = format_params(r["params"])
        out(f"{r['rank']:>4}  {label[r['label']]:<{w}}  {100 * r['win_rate']:>8.3f}%  {_ci(*r['ci95']):<19}  "
            f"{r['ci_method']:<15}  {params}")  # fmt: skip
    out("")
    _pairs(pairs, label, out)


def _rules(result, out) -> None:
    """The arms of --rules: one strategy and seating under each value of one rule reading."""
    j, d = result.to_json(), result.summaries[0]
    rows, reading, others = result.arms, result.reading, j["fixed_rules"]
    label = {r["label"]: r["label"] + (" (default)" if r["default"] else "") for r in rows}
    out(f"rule {reading} ({j['v']}, departs from {j['departs_from']}) on {','.join(d['samurai'])} (seat 0 first) "
        f"at {d['difficulty']}, strategy {played_as(d)}"
        + ("" if d["honest"] else " (cheating)")
        + absent_label(d["absent_tokens"], d["absent_tokens_unused"])
        + (f", every arm with {rules_text(others)}" if others else ""))  # fmt: skip
    _arms(result, "reading", label, out)


def _components(result, out) -> None:
    """The arms of --components a,b: one strategy and seating under each component file."""
    d = result.summaries[0]
    label = {r["label"]: r["label"] + (f" ({r['mark']})" if r["mark"] else "") for r in result.arms}
    levels = sorted({r["difficulty"] for r in result.arms})
    out(f"component files on {','.join(d['samurai'])} (seat 0 first)"
        + (f" at {levels[0]}" if len(levels) == 1 else "") + f", strategy {played_as(d)}"
        + ("" if d["honest"] else " (cheating)") + absent_label(d["absent_tokens"], d["absent_tokens_unused"])
        + rules_label(d["rules"]))  # fmt: skip
    out("files: " + "; ".join(f"{r['label']} " + (f"at {r['difficulty']}, " if len(levels) > 1 else "")
                              + f"{r['components_sha256'][:12]} (data {r['components_data_sha256'][:12]})"
                              for r in result.arms))  # fmt: skip
    _arms(result, "file", label, out)


def _arms(result, noun: str, label: dict, out) -> None:
    """The arms of --rules or --components, best first, with the paired tests of every pair."""
    rows = result.arms
    out(f"{plural(len(rows), noun)} x {plural(result.games, 'game')}, seed {result.seed}: every {noun} plays "
        f"the same deals ({_speed(result)})")  # fmt: skip
    out("")
    w = max(len(noun), *(len(v) for v in label.values()))
    out(f"{'rank':>4}  {noun:<{w}}  {'win rate':>9}  {'95% CI':<19}  method")
    for r in rows:
        out(f"{r['rank']:>4}  {label[r['label']]:<{w}}  {100 * r['win_rate']:>8.3f}%  {_ci(*r['ci95']):<19}  "
            f"{r['ci_method']}")  # fmt: skip
    out("")
    _pairs(result.pairs, label, out)


def _pairs(pairs: list[dict], label: dict, out) -> None:
    """The table of paired tests (a - b) and its legend."""
    pw = max(len(label[p["a"]]) + len(label[p["b"]]) + 3 for p in pairs)
    out(f"{'a - b':<{pw}}  {'diff':>10}  {'95% CI (pp)':<19}  {'a only':>7}  {'b only':>7}  {'p':>7}  "
        f"{'p (Holm)':>8}  5%")  # fmt: skip
    for p in pairs:
        out(f"{label[p['a']] + ' - ' + label[p['b']]:<{pw}}  {100 * p['diff']:>+7.3f} pp  {_ci(*p['diff_ci']):<19}  "
            f"{p['discordant'][0]:>7,}  {p['discordant'][1]:>7,}  {_p(p['p_value']):>7}  {_p(p['p_holm']):>8}  "
            f"{'yes' if p['significant'] else 'no'}")  # fmt: skip
    out("")
    out(f"a only / b only: games only a / only b won (the others were won or lost by both). p: McNemar's test on "
        f"the same games; p (Holm): adjusted over the {plural(len(pairs), 'pair')} ('yes' = significant "
        "at 5%).")  # fmt: skip
