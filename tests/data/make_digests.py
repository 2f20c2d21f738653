"""Generate tests/data/digests.json on the current engine.

    python tests/data/make_digests.py              every registered strategy
    python tests/data/make_digests.py random ...   the named strategies only
    python tests/data/make_digests.py --families   the default on one table of every family that ships a value

Entries of the strategies not regenerated (named or not registered) are kept as they are.
"""
import hashlib, json, sys
from pathlib import Path
import numpy as np
sys.path.insert(0, "tests")
from kiai.strategies.run.config import GameConfig
from kiai.strategies.run.games import run_games, run_one
from kiai.strategies.registry import REGISTRY

PATH = Path(__file__).parent / "digests.json"
CONFIGS = [
    (("kyuzo", "kikuchiyo", "heihachi", "daisuke"), "normal", "auto", 3000),
    (("heihachi", "daisuke"), "hard", "auto", 2000),
    (("gorobei", "kanbei", "katsushiro"), "easy", "on", 2000),
    (("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo"), "heroic", "auto", 1000),
]
TRACED = ("reference", "random", "keeper")  # strategies whose event logs are stored too

FAMILY_ORDER = ("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo")
FAMILY_GAMES = 500


def family_case(size: int, level: str):
    """The default's table for the family (size, level): the first `size` samurai of FAMILY_ORDER."""
    return f"selfplay|{','.join(FAMILY_ORDER[:size])}|{level}|auto|{FAMILY_GAMES}"


if sys.argv[1:] == ["--families"]:  # a family whose value changed: only its entry changes
    from kiai.strategies.nets.modelfile import family_path
    from kiai.simcore.codes import LEVELS

    out = json.loads(PATH.read_text())
    out["families"] = {}
    for size in range(2, 8):
        for level in LEVELS:
            if family_path(size, level) is None:
                continue
            key = family_case(size, level)
            _, lineup, lv, absent, games = key.split("|")
            rows = run_games(GameConfig(tuple(lineup.split(",")), lv, "selfplay", absent_tokens=absent), int(games),
                             seed=20261123)
            out["families"][key] = hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest()
            print(key, out["families"][key][:12], flush=True)
    PATH.write_text(json.dumps(out, indent=1, sort_keys=True))
    sys.exit(0)

chosen = sys.argv[1:] or [s.name for s in REGISTRY]
unknown = set(chosen) - {s.name for s in REGISTRY}
if unknown:
    sys.exit(f"not registered: {', '.join(sorted(unknown))}")
out = json.loads(PATH.read_text()) if PATH.exists() else {"games": {}, "traces": {}}
for name, part in out.items():  # a regenerated strategy's old entries go (its configurations may change)
    if name == "families":
        continue
    for key in [k for k in part if k.split("|")[0] in chosen]:
        del part[key]
for s in REGISTRY:
    if s.name not in chosen:
        continue
    for lineup, level, absent, games in CONFIGS:
        params = {}
        if s.planner:
            games = 12
            if s.honest or s.name == "peek":
                params = {"samples": 2}
        cfg = GameConfig(lineup, level, s.name, params=params, absent_tokens=absent)
        rows = run_games(cfg, games, seed=20261123)
        key = f"{s.name}|{','.join(lineup)}|{level}|{absent}|{games}"
        out["games"][key] = hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest()
        print(key, out["games"][key][:12], flush=True)
for strat in TRACED:
    if strat not in chosen:
        continue
    for lineup, level, absent, _ in CONFIGS:
        for gi in (0, 1):
            run = run_one(GameConfig(lineup, level, strat, absent_tokens=absent), 5, gi, trace=True, check=True)
            ev = np.ascontiguousarray(run.events[:, :6])
            key = f"{strat}|{','.join(lineup)}|{level}|{absent}|{gi}"
            out["traces"][key] = hashlib.sha256(ev.astype(np.int64).tobytes()).hexdigest()
PATH.write_text(json.dumps(out, indent=1, sort_keys=True))
