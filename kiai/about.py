"""What kiai is and what it holds: its version line (`kiai --version`), its strategies (`kiai
strategies`) and the rule readings a table may switch (`kiai rules`)."""

from __future__ import annotations


def version_line() -> str:
    """kiai's version, numba's, and the short hashes of the shipped models and component data, in
    one line (`kiai --version`). A damaged installation is what it is asked to diagnose: a file it
    cannot read is said so, not raised."""
    import numba

    from kiai.simcore.components import ComponentsError, load_components
    from kiai.simcore.version import kiai_version
    from kiai.strategies.nets.modelfile import LEARNED, ModelError, load, shipped_families

    def short_hash(read, error) -> str:
        try:
            return read().sha256[:12]
        except error as e:
            return f"unreadable: {e}"

    try:
        count, digest = shipped_families()
        values = f"selfplay's values of {count} families {digest}"
    except OSError as e:
        values = f"selfplay's values unreadable: {e}"
    return (f"kiai {kiai_version()} (numba {numba.__version__}, learned's model "
            f"{short_hash(lambda: load(None, LEARNED), ModelError)}, {values}, components "
            f"{short_hash(load_components, ComponentsError)})")


def readings() -> list[dict]:
    """The rule readings careful tables disagree on (docs/rules.md section 14), as `kiai rules
    --json` lists them: name, V-number, values, default (the rules' own), the decision it departs
    from, and a summary."""
    from kiai.simcore.readings import READINGS

    return [{"name": r.name, "v": r.v, "values": list(r.values), "default": r.default, "departs_from": r.departs,
             "summary": r.summary} for r in READINGS]  # fmt: skip


def strategies() -> list[dict]:
    """The registered strategies, as `kiai strategies --json` lists them: name, whether it is the
    default (the one every function plays unless told otherwise), description, whether it is
    honest, whether it uses absent tokens, and its parameters with their defaults, ranges and
    whether each is an expert's knob; for the default, what it plays by family (family_plays)."""
    from kiai.strategies.registry import DEFAULT, REGISTRY

    return [
        {
            "name": s.name,
            "default": s.name == DEFAULT,
            "description": s.description,
            "honest": s.honest,
            "absent_tokens": s.absent_tokens,
            "params": {p.name: {"default": p.default, "low": p.low, "high": p.high,
                                "integer": p.integer, "help": p.help, "expert": p.expert} for p in s.params},
            **({"family_plays": family_plays()} if s.name == DEFAULT else {}),
        }
        for s in REGISTRY
    ]


def family_plays() -> dict[str, dict]:
    """What the default plays by family ("K@level"): where kiai ships a value, the parameters its
    header sets (the family's own play, beside the defaults); where it ships none, learned's
    answers ({"base": 1, "doubt": 0})."""
    from kiai.strategies.nets.modelfile import AFTER, family_path, load
    from kiai.strategies.selfplay import value_params

    out = {}
    for size in range(2, 8):
        for level in ("easy", "normal", "hard", "heroic"):
            path = family_path(size, level)
            out[f"{size}@{level}"] = value_params(load(path, AFTER)) if path else {"base": 1, "doubt": 0.0}
    return out
