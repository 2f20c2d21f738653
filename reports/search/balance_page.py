"""What `kiai balance` writes: the component file with one house level per team size, and the page
that says, in plain words, what each team size's level changes and how close it comes to the target
(reports.search.balance_run gives the figures)."""

from __future__ import annotations

import json
from pathlib import Path

from kiai.reports.search.balance import RACE
from kiai.reports.search.balance_words import NUMBERS
from kiai.reports.files import atomic_write
from kiai.words import plural

FILES = ("components.toml", "balance.md", "balance.json")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(r: dict) -> str:
    lo, hi = r["ci95"]
    return f"{_pct(r['rate'])} [{_pct(lo)}, {_pct(hi)}]"


def _pp(d: float, lo: float, hi: float) -> str:
    return f"{100 * d:+.1f} pp [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _samurai(n: int) -> str:
    return f"{NUMBERS[n] if n < len(NUMBERS) else n} samurai"


def levels(figures: dict, comp) -> list:
    """The house levels of a run's figures, as simcore.components.Level."""
    import dataclasses

    base = comp.level(figures["request"]["level"])
    out = []
    for s in figures["sizes"]:
        k = s["knobs"]
        out.append(dataclasses.replace(
            base, name=s["level"], like=comp.family_level(base.name), extra_barricades=k["extra_barricades"],
            plunderers_per_samurai=k["plunderers_per_samurai"], lieutenants_per_samurai=k["lieutenants"]["per_samurai"],
            lieutenants_offset=k["lieutenants"]["offset"], bosses_per_samurai=k["bosses"]["per_samurai"],
            bosses_offset=k["bosses"]["offset"], farmstead_penalties=k["farmstead_penalties"],
            family_bonuses=k["family_bonuses"]))  # fmt: skip
    return out


def page(figures: dict, comp) -> str:
    """The page: the target, each team size's rate before and after with intervals, what changed."""
    from kiai.simcore.components import level_toml

    r, t = figures["request"], figures["target"]
    level = r["level"]
    aim = (f"{level} with {t['size']} samurai, {_rate(t)} on {t['games']:,} games" if t["size"] is not None
           else f"a win rate of {_pct(t['rate'])}")
    lines = [f"Balanced {level}: for each team size, the setting of the level's knobs that brings {r['strategy']}'s "
             f"win rate closest to {aim}.", ""]
    w = max(len("house level"), *(len(s["level"]) for s in figures["sizes"]))
    lines.append(f"{'samurai':>7}  {'house level':<{w}}  {'printed ' + level:<24}  {'balanced':<24}  vs target")
    for s in figures["sizes"]:
        lines.append(f"{s['n']:>7}  {s['level']:<{w}}  {_rate(s['before']):<24}  {_rate(s['after']):<24}  "
                     f"{_pp(s['vs_target'], *s['vs_target_ci95'])}")
    lines += ["", f"What changed from {level} as printed:"]
    for s in figures["sizes"]:
        lines.append(f"- {_samurai(s['n'])}: {s['changes']}" + ("" if s["reached"] else _missed(s)) + ".")
    lines += ["", _how(figures), "", "The house levels (written after the component file's own text, in "
              "components.toml):", ""]
    lines += [level_toml(lv) for lv in levels(figures, comp)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _missed(s: dict) -> str:
    """How far a team size's setting misses the target, and whether any setting tried reaches it:
    none (all won less, or all more, on the search's deals), or some on either side, where a longer
    search may find a closer one."""
    lo, hi = s["vs_target_ci95"]
    off = f"{abs(100 * s['vs_target']):.1f} pp {'short of' if s['vs_target'] < 0 else 'above'} it ([{100 * lo:+.1f}, {100 * hi:+.1f}])"
    t = s["tried"]
    if not t["both_sides"]:
        most = f"at most {_pct(t['highest'])}" if s["vs_target"] < 0 else f"at least {_pct(t['lowest'])}"
        return f"; no setting reaches the target: this one comes {off}, and the {t['settings']} settings tried won {most}"
    return (f"; it comes {off}: the settings tried won from {_pct(t['lowest'])} to {_pct(t['highest'])}, so a longer "
            f"search (--games, --generations) may find a closer one")


def _how(figures: dict) -> str:
    r = figures["request"]
    tried = ", ".join(f"{s['tried']['settings']} of {s['space']:,} for {s['n']}" for s in figures["sizes"])
    return (f"How: per team size, {plural(r['generations'], 'generation')} of the cross-entropy method, "
            f"{r['candidates']} settings each, every setting on the same {r['games']:,} games (the same deals of "
            f"up to {plural(r['lineups'], 'line-up')}, drawn with seed {r['seed']}, each seated in its own order); "
            f"from the best, a step to a better neighbour (one knob one value up or down) while there is one; then "
            f"the best {RACE} raced on doubling deals, the better half kept each round; the winner and the "
            f"printed level verified on {r['verify']:,} fresh games each. Settings tried: {tried} samurai. "
            f"Intervals are 95%; 'vs target' is the balanced rate less the target's.")


def write(out: Path, figures: dict, comp) -> dict:
    """components.toml, balance.md and balance.json in folder `out`; returns {name: path}."""
    from kiai.simcore.components import with_levels

    _, text = with_levels(comp, levels(figures, comp))
    written = {}
    for name, body in zip(FILES, (text, page(figures, comp), json.dumps(figures, indent=1) + "\n")):
        path = out / name
        atomic_write(path, lambda tmp, body=body: tmp.write_text(body, encoding="utf-8"))
        written[name] = path
    return written
