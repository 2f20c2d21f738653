"""Generate tests/data/digests.json on the current engine."""
import hashlib, json, sys
import numpy as np
sys.path.insert(0, "tests")
from simcore.api import GameConfig, run_games, run_one
from strategies.registry import REGISTRY

CONFIGS = [
    (("kyuzo", "kikuchiyo", "heihachi", "daisuke"), "normal", "auto", 3000),
    (("heihachi", "daisuke"), "hard", "auto", 2000),
    (("gorobei", "kanbei", "katsushiro"), "easy", "on", 2000),
    (("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo"), "heroic", "auto", 1000),
]
out = {"games": {}, "traces": {}}
for s in REGISTRY:
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
for strat in ("reference", "random", "keeper"):
    for lineup, level, absent, _ in CONFIGS:
        for gi in (0, 1):
            run = run_one(GameConfig(lineup, level, strat, absent_tokens=absent), 5, gi, trace=True, check=True)
            ev = np.ascontiguousarray(run.events[:, :6])
            key = f"{strat}|{','.join(lineup)}|{level}|{absent}|{gi}"
            out["traces"][key] = hashlib.sha256(ev.astype(np.int64).tobytes()).hexdigest()
json.dump(out, open("tests/data/digests.json", "w"), indent=1, sort_keys=True)
