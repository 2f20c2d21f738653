"""The plans of simulate, record and replay from the API's arguments (kiai.api): every argument
checked with the command's checks, in the order the command makes them, before any game is played:
one configuration and its games, the records to make, the records to check."""

from __future__ import annotations

from kiai.inputs.checks import check_flag, check_path, fail, items_of, listed, once
from kiai.inputs.configs import load_components, make_config
from kiai.inputs.counts import check_game_index, check_games, check_seed, check_threads
from kiai.inputs.paths import check_output, record_sources

MAX_RECORDED = 1_000_000  # games one call records (a record is some 20 to 100 KB)


def simulate_plan(p, samurai, level, games, seed, strategy, params, params_file, absent_tokens, components, model,
                  rules, threads, strict, out, force):
    """simulate's checks (its notes to `p`): (configuration, games, seed, out: the table file or None)."""
    if check_path(out, "--out") is not None:
        out = check_output(out, force=check_flag(force, "--force"), suffixes=(".csv", ".parquet"))
    games = check_games(games)
    seed = check_seed(seed)
    check_threads(threads, p.note)
    config = make_config(samurai, level, strategy, items_of(params, "--param"), absent_tokens, components,
                         params_file=params_file, model=model, rules=items_of(rules, "--rule"),
                         note=p.note, strict=strict)  # fmt: skip
    return config, games, seed, out


def record_plan(p, samurai, level, games, game_index, seed, strategy, params, params_file, absent_tokens,
                components, model, rules, out=None, force=False, strict=False):
    """record's checks, in the order `kiai record` makes them: (configuration, game indices)."""
    check_seed(seed)
    if games is not None and game_index is not None:
        fail("give --games or --game-index, not both")
    if games is not None:
        check_games(games, most=MAX_RECORDED)
    if game_index is not None:
        check_game_index(game_index)
    check_flag(force, "--force")
    if check_path(out, "--out") is not None:
        name = str(out).lower()
        if not (name.endswith(".jsonl") or name.endswith(".jsonl.gz")):
            fail(f"--out must end in .jsonl or .jsonl.gz, got '{out}'")
        check_output(out, force=force)
    config = make_config(samurai, level, strategy, items_of(params, "--param"), absent_tokens, components,
                         params_file=params_file, model=model, rules=items_of(rules, "--rule"),
                         note=p.note, strict=strict)  # fmt: skip
    return config, ([game_index] if game_index is not None else range(games or 1))


def replay_plan(records, components) -> tuple[list, dict]:
    """replay's checks: (the record files or records, the component data they may name by SHA-256:
    the packaged file's and those of `components`)."""
    sources = record_sources(records)
    comps = {}
    for c in [None, *once(listed(components), "--components")]:
        comp = load_components(c)
        comps[comp.sha256] = comp
    return sources, comps
