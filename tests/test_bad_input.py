"""Bad input, command by command and through the Python API: one table of cases per command.

Every case runs in one folder of prepared files (FILES: empty, damaged and wrong-kind model
files, impossible results tables, a folder, a plain file...). A command given bad input exits 2
with one `kiai: error:` line that holds the case's words (a word starting with `!` must not be
there), prints nothing on standard output, plays no game and writes nothing: the folder is the
same after the case as before it. The API raises KiaiError (or TypeError) with a one-line message
that holds the words, and writes nothing either.

A case is one line: (the command's arguments as typed in a shell, the words). Arguments may start
with NAME=VALUE settings of the environment (KIAI_VALUE_MODEL=e.npz).
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import numpy as np
import pytest

import kiai
from conftest import run

pytestmark = pytest.mark.usefixtures("engine")

DATA = Path(kiai.__file__).resolve().parent.parent / "strategies" / "data"
T2 = "-s kyuzo,kikuchiyo -d easy -n 10"  # a two-samurai table, few games
T3 = "--lineup kyuzo,kikuchiyo,heihachi -d easy -n 10"  # a line-up with seatings to compare
GRID = "--out s.parquet -d easy --players 2 -n 10"  # a small sweep

SIMULATE = [
    (f"{T2} --model e.npz", "value file e.npz: not a kiai value file"),
    (f"{T2} --model damaged.npz", "value file damaged.npz: not a kiai value file"),
    (f"{T2} --model text.npz", "value file text.npz: not a kiai value file"),
    (f"{T2} --model folder", "value file folder is a folder"),
    (f"{T2} --model missing.npz", "value file missing.npz: no such file"),
    (f"{T2} --model judge.npz", "this is judge's value, not selfplay's"),
    (f"{T2} --model learned.npz", "a model of learned, not selfplay's value"),
    (f"{T2} --model play-list.npz", ("play-list.npz", "header")),
    (f"{T2} --model settings-list.npz", ("settings-list.npz", "header")),
    (f"{T2} --model text-arrays.npz", ("text-arrays.npz", "array b3")),
    (f"{T2} --model unnamed-components.npz --strict", ("other component data", "unnamed", "!None")),
    (f"{T2} --components four-families.toml", ("four-families.toml", "4 family tokens", "--strategy keeper")),
    (f"{T2} --components four-families.toml --strategy learned", ("4 family tokens", "read 3 at most")),
    (f"{T2} --components other-kiai.toml --strict", ("other component data", "--strict refuses")),
    (f"{T2} --components like-nothing.toml", ("difficulty.mine", "'nightmare'", "official level for like")),
    (f"{T2} --model ''", "--model is empty"),
    (f"{T2} --model ' '", "--model is empty"),
    (f"{T2} --strategy learned --model e.npz", "model e.npz: not a kiai model file"),
    (f"{T2} --strategy learned --model folder", "model folder is a folder"),
    (f"{T2} --strategy learned --model sp-2-easy.npz", "this is selfplay's value, not a model of learned"),
    (f"{T2} --strategy learned --model arch-list.npz", ("arch-list.npz", "architecture")),
    (f"{T2} --strategy learned --model text-weights.npz", ("text-weights.npz", "action_w1")),
    (f"{T2} --strategy judge --model e.npz", "value file e.npz: not a kiai value file"),
    (f"{T2} --strategy judge --model sp-2-easy.npz", "this is selfplay's value, not judge's"),
    (f"{T2} --strategy ''", "--strategy is empty"),
    (f"{T2} --strategy ' '", "--strategy is empty"),
    (f"{T2} --params-file ''", "--params-file is empty"),
    (f"{T2} --params-file folder", "--params-file folder is a folder"),
    (f"{T2} --components ''", "--components is empty"),
    (f"{T2} --absent-tokens ''", "--absent-tokens is empty"),
    (f"{T2} --out ''", "--out is empty"),
    (f"{T2} --out folder", "--out must end in"),
    ("-s '' -n 10", "-s is empty"),
    ("-s kyuzo,kikuchiyo -d '' -n 10", "-d is empty"),
    ("-s kyuzo,kikuchiyo -d ' ' -n 10", "-d is empty"),
    (f"{T2} --rule ''", "--rule is empty"),
]

SWEEP = [
    ("--out s.parquet --preset advice --from one.parquet", ("preset advice", "nothing to play", "single seating")),
    ("--out s.parquet --preset advice --from one.parquet --csv", ("preset advice", "single seating")),
    ("--out old.parquet --force --preset advice --from one.parquet", "single seating"),
    ("--out s.parquet --preset advice --from zero.parquet", ("zero.parquet", "no rows")),
    ("--out s.parquet --preset advice --from header-only.csv", ("header-only.csv", "no rows")),
    ("--out s.parquet --preset agreement --from zero.parquet", "no rows"),
    ("--out s.parquet --preset advice --from nine.parquet", ("row 1", "n_samurai")),
    ("--out s.parquet --preset advice --from folder", "--from folder is a folder"),
    ("--out s.parquet --preset advice --from ''", "--from is empty"),
    (f"{GRID} --model e.npz", "value file e.npz: not a kiai value file"),
    (f"{GRID} --model judge.npz", "this is judge's value, not selfplay's"),
    (f"{GRID} --model ''", "--model is empty"),
    (f"{GRID} --strategy reference,,keeper", ("--strategy", "empty name")),
    (f"{GRID} --strategy ,reference", ("--strategy", "empty name")),
    (f"{GRID} --strategy ''", "--strategy is empty"),
    ("--out s.parquet -d easy,,normal --players 2 -n 10", ("--difficulty", "empty name")),
    ("--out s.parquet -d easy --players 2,,3 -n 10", ("--players", "empty")),
    (f"{GRID} --strategy reference --param T=3,,4", ("--param", "empty")),
    (f"{GRID} --scheduler ''", "--scheduler is empty"),
    ("--out '' -d easy --players 2 -n 10", "--out is empty"),
]

COMPARE = [
    (f"{T3} --model e.npz", "value file e.npz: not a kiai value file"),
    (f"{T3} --model judge.npz", "this is judge's value, not selfplay's"),
    (f"{T3} --model ''", "--model is empty"),
    (f"{T3} --strategy ''", "--strategy is empty"),
    (f"{T2} --strategies reference,,keeper", ("--strategies", "empty name")),
    (f"{T2} --strategies ,reference,keeper", ("--strategies", "empty name")),
    (f"{T2} --strategies reference,keeper,", ("--strategies", "empty name")),
    (f"{T2} --strategies reference,keeper --params-file ''", "--params-file is empty"),
    (f"{T2} --strategies ''", "--strategies is empty"),
    (f"{T2} --components default,missing.toml", ("missing.toml", "cannot read")),
    (f"{T2} --components default,default", "component file 'default' is listed twice"),
    (f"{T2} --components default,", ("--components", "empty file")),
    (f"{T2} --components default,other-kiai.toml --strategies reference,keeper", "excludes --strategies"),
    (f"{T2} --components default,other-kiai.toml --rules heal=any,wounded", "excludes --strategies and --rules"),
    (f"{T2} --components default,other-kiai.toml --strict", ("other component data", "--strict refuses")),
    (f"{T2} --components default,four-families.toml", "4 family tokens"),
    (f"{T2} --components default,house-normal-6.toml@normal-7", ("house-normal-6.toml", "no level 'normal-7'")),
]

TRACE = [
    ("-s kyuzo,kikuchiyo --model e.npz", "value file e.npz: not a kiai value file"),
    ("-s kyuzo,kikuchiyo --strategy learned --model e.npz", "model e.npz: not a kiai model file"),
    ("-s kyuzo,kikuchiyo --model ''", "--model is empty"),
    ("-s kyuzo,kikuchiyo --strategy ''", "--strategy is empty"),
    ("-s kyuzo,,kikuchiyo", "empty name"),
]

RECORD = [
    ("-s kyuzo,kikuchiyo --model e.npz --out r.jsonl", "value file e.npz: not a kiai value file"),
    ("-s kyuzo,kikuchiyo --strategy '' --out r.jsonl", "--strategy is empty"),
    ("-s kyuzo,kikuchiyo --out ''", "--out is empty"),
    ("-s kyuzo,kikuchiyo --out folder", "--out must end in"),
]

REPLAY = [
    ("folder", "folder is a folder"),
    ("''", "is empty"),
    ("missing.jsonl", "missing.jsonl: no such file"),
    ("empty-record.jsonl", ("empty-record.jsonl, line 1", "components_sha256", "!None")),
    ("bad-sha.jsonl", ("bad-sha.jsonl, line 1", "components_sha256")),
    ("empty-record.jsonl --components ''", "--components is empty"),
]

REPORT = [
    ("zero.parquet --out rep", ("zero.parquet", "no rows")),
    ("header-only.csv --out rep", ("header-only.csv", "no rows")),
    ("nine.parquet --out rep", ("row 1", "n_samurai", "9")),
    ("nightmare.parquet --out rep", ("row 1", "difficulty", "nightmare")),
    ("no-games.parquet --out rep", ("row 1", "games", "!every n")),
    ("half-games.parquet --out rep", ("row 1", "games", "100.5", "!np.")),
    ("endless-games.parquet --out rep", ("row 1", "games", "inf")),
    ("no-strategy.parquet --out rep", ("row 1", "strategy")),
    ("no-difficulty.parquet --out rep", ("row 1", "difficulty")),
    ("unknown-samurai.parquet --out rep", ("row 1", "lineup", "nobody")),
    ("three-of-two.parquet --out rep", ("row 1", "n_samurai", "lineup")),
    ("more-wins.parquet --out rep", ("row 1", "wins", "games")),
    ("other-seating.parquet --out rep", ("row 1", "seating")),
    ("bogus-rules.parquet --out rep", ("row 1", "rules", "heal=bogus")),
    ("maybe-honest.parquet --out rep", ("row 1", "honest", "true or false")),
    ("no-absent-tokens.parquet --out rep", ("row 1", "absent_tokens")),
    ("negative-deaths.parquet --out rep", ("row 1", "out_death", "-5")),
    ("text-losses.parquet --out rep", ("row 1", "lost_round_2", "'x'")),
    ("outcomes-off.parquet --out rep", ("row 1", "out_", "add up", "games")),
    ("scores-off.parquet --out rep", ("row 1", "score_", "add up", "wins")),
    ("one.parquet one.parquet --out rep", ("one.parquet is given twice")),
    ("one.parquet --out ''", "--out is empty"),
    ("'' --out rep", "is empty"),
    ("one.parquet --out rep --components missing.toml", ("missing.toml", "cannot read")),
    ("one.parquet --out rep --components ''", "--components is empty"),
    ("one.parquet --out rep --components other-kiai.toml,,x", ("--components", "empty file")),
]

BALANCE = [
    ("-d nightmare", ("--difficulty", "'nightmare'", "known: easy")),
    ("--players 1", "--players: a game needs 2 to 7 samurai"),
    ("--players 3,,5", ("--players", "empty")),
    ("--players 4", "--target 4 is a team size --players balances"),
    ("--target 9", "--target: a team size is 2 to 7"),
    ("--target 150%", "--target: a win rate is between 0 and 1"),
    ("--target 0", "--target: a win rate is between 0 and 1"),
    ("--target many", "--target expects a team size"),
    ("--games 0", "--games must be 1 to"),
    ("--lineups 0", "--lineups must be 1 to"),
    ("--generations 0", "--generations must be 1 to"),
    ("--candidates 1", "--candidates must be 2 to"),
    ("--verify 0", "--verify must be 1 to"),
    ("--seed -1", "--seed"),
    ("--strategy nobody", "nobody"),
    ("--out afile.txt", "--out afile.txt exists and is not a folder"),
    ("--out prior", ("--out prior holds a balance run", "--resume", "--force")),
    ("--components four-families.toml", ("samurai at normal", "4 family tokens")),
    ("--components house-normal-6.toml", "holds a level 'normal-6' already"),
    ("--components missing.toml", ("missing.toml", "cannot read")),
]

SHIP_VALUE = [
    ("e.npz --to shipped", "value file e.npz: not a kiai value file"),
    ("judge.npz --to shipped", "this is judge's value, not selfplay's"),
    ("learned.npz --to shipped", "a model of learned, not selfplay's value"),
    ("folder --to shipped", "value file folder is a folder"),
    ("sp-2-easy.npz --to afile.txt", "--to afile.txt is a file, not a folder"),
    ("sp-2-easy.npz --to missing", "--to missing: no such folder"),
    ("sp-2-easy.npz --to ''", "--to is empty"),
    ("sp-2-easy.npz --to shipped -d ''", "-d is empty"),
    ("'' --to shipped", "is empty"),
]

TRAIN_VALUE = [
    ("tv --player selfplay --start e.npz", "--start: value file e.npz: not a kiai value file"),
    ("tv --player judge --start e.npz", "--start: value file e.npz: not a kiai value file"),
    ("tv --player selfplay --start judge.npz", "this is judge's value, not selfplay's"),
    ("tv --player judge --start sp-2-easy.npz", "this is selfplay's value, not judge's"),
    ("tv --player selfplay --start folder", "value file folder is a folder"),
    ("tv --start ''", "--start is empty"),
    ("''", "is empty"),
    ("afile.txt", "FOLDER afile.txt is a file"),
]

TRAIN = [
    ("''", "is empty"),
    ("tr --eval ''", "--eval is empty"),
    ("tr --eval kyuzo,,kikuchiyo:easy", "empty name"),
    ("afile.txt", "FOLDER afile.txt is a file"),
]

TUNE = [
    ("'' -n 10", "is empty"),
    ("reference -d easy,,normal -n 10", ("--difficulty", "empty name")),
    ("selfplay -n 10 -k 2 --model e.npz", "value file e.npz: not a kiai value file"),
    ("selfplay -n 10 -k 2 --model ''", "--model is empty"),
    ("reference -n 10 --out ''", "--out is empty"),
]

BENCH = [
    ("--strategy '' -n 10 --no-compile", "--strategy is empty"),
    ("--params-file '' -n 10 --no-compile", "--params-file is empty"),
    ("-n 0 --no-compile", "--games"),
]

STRATEGIES = [
    ("extra", "unexpected extra argument"),
    ("''", "is empty"),
]

RULES = [
    ("extra", "unexpected extra argument"),
    ("''", "is empty"),
]

COMMANDS = {
    "simulate": SIMULATE, "sweep": SWEEP, "compare": COMPARE, "trace": TRACE, "record": RECORD,
    "replay": REPLAY, "report": REPORT, "train ship": SHIP_VALUE, "train value": TRAIN_VALUE, "train learned": TRAIN,
    "tune": TUNE, "bench": BENCH, "strategies": STRATEGIES, "rules": RULES, "balance": BALANCE,
}  # fmt: skip

S = "kyuzo,kikuchiyo"
API = [  # (function, its arguments, the words)
    ("simulate", dict(samurai=None, level="easy", games=10), "--samurai expects"),
    ("simulate", dict(samurai={"kyuzo": 1, "kikuchiyo": 2}, games=10), "--samurai expects"),
    ("simulate", dict(samurai={"kyuzo", "kikuchiyo"}, games=10), "--samurai expects"),
    ("simulate", dict(samurai=["kyuzo", None], games=10), "--samurai expects"),
    ("simulate", dict(samurai=S, level="", games=10), "--difficulty is empty"),
    ("simulate", dict(samurai=S, games=10, strategy=""), "--strategy is empty"),
    ("simulate", dict(samurai=S, games=10, strategy=" "), "--strategy is empty"),
    ("simulate", dict(samurai=S, games=10, strategy=3), "--strategy expects a name"),
    ("simulate", dict(samurai=S, games=10, strategy=["reference"]), "--strategy expects a name"),
    ("simulate", dict(samurai=S, games=10, params_file=3), "--params-file expects a file name"),
    ("simulate", dict(samurai=S, games=10, params_file=""), "--params-file is empty"),
    ("simulate", dict(samurai=S, games=10, components=3), "--components expects a file name"),
    ("simulate", dict(samurai=S, games=10, components=""), "--components is empty"),
    ("simulate", dict(samurai=S, games=10, model=3), "--model expects a file name"),
    ("simulate", dict(samurai=S, games=10, model=""), "--model is empty"),
    ("simulate", dict(samurai=S, games=10, model="e.npz"), "value file e.npz: not a kiai value file"),
    ("simulate", dict(samurai=S, games=10, absent_tokens=""), "--absent-tokens is empty"),
    ("sweep", dict(preset="advice", results="one.parquet"), ("preset advice", "single seating")),
    ("sweep", dict(preset="advice", results="zero.parquet"), "no rows"),
    ("sweep", dict(preset="advice", results="folder"), "--from folder is a folder"),
    ("sweep", dict(preset="advice", results=""), "--from is empty"),
    ("sweep", dict(preset="advice", results=3), "--from expects"),
    ("sweep", dict(levels="easy", players=2, games=10, strategies="reference,,keeper"), "empty name"),
    ("sweep", dict(levels="easy", players=2, games=10, strategies=["reference", ""]), "empty name"),
    ("sweep", dict(levels="easy,,normal", players=2, games=10), "empty name"),
    ("sweep", dict(levels="easy", players="2,,3", games=10), "empty"),
    ("sweep", dict(levels="easy", players={2, 3}, games=10), "--players expects"),
    ("sweep", dict(levels="easy", lineups=[None], games=10), "--lineup expects"),
    ("sweep", dict(levels="easy", lineups=3, games=10), "--lineup expects"),
    ("sweep", dict(levels="easy", players=2, precision=0.1, max_games="x"), "--max-games must be a whole number"),
    ("sweep", dict(levels="easy", players=2, games=10, workers="x"), "--workers must be a whole number"),
    ("sweep", dict(levels="easy", players=2, games=10, workers=2.5), "--workers must be a whole number"),
    ("sweep", dict(levels="easy", players=2, games=10, block="x"), "--block must be a whole number"),
    ("sweep", dict(levels="easy", players=2, games=10, scheduler=3), "--scheduler expects"),
    ("sweep", dict(levels="easy", players=2, games=10, scheduler=""), "--scheduler is empty"),
    ("sweep", dict(levels="easy", players=2, games=10, out=3), "--out expects a file name"),
    ("sweep", dict(levels="easy", players=2, games=10, out=""), "--out is empty"),
    ("sweep", dict(levels="easy", players=2, games=10, out="s.parquet", csv="yes"), "--csv must be True or False"),
    ("sweep", dict(levels="easy", players=2, games=10, model="e.npz"), "value file e.npz: not a kiai value file"),
    ("sweep", dict(levels="easy", players=2, games=10, model=""), "--model is empty"),
    ("compare", dict(lineup=None, games=10), "--lineup expects"),
    ("compare", dict(lineup=S, games=10, strategies="reference,,keeper"), "empty name"),
    ("compare", dict(lineup="kyuzo,kikuchiyo,heihachi", games=10, strategy=""), "--strategy is empty"),
    ("compare", dict(lineup=S, games=10, readings={}), "--rules expects"),
    ("compare", dict(lineup="kyuzo,kikuchiyo,heihachi", games=10, params_file=3), "--params-file expects"),
    ("compare", dict(lineup="kyuzo,kikuchiyo,heihachi", games=10, model="e.npz"), "not a kiai value file"),
    ("record", dict(samurai=None, games=1), "--samurai expects"),
    ("record", dict(samurai=S, games=1, strategy=""), "--strategy is empty"),
    ("record", dict(samurai=S, games=1, out=3), "--out expects a file name"),
    ("record", dict(samurai=S, games=1, out=""), "--out is empty"),
    ("record", dict(samurai=S, games=1, out="r.jsonl", force="no"), "--force must be True or False"),
    ("record", dict(samurai=S, games=1, model="e.npz"), "not a kiai value file"),
    ("records", dict(samurai=None, games=1), "--samurai expects"),
    ("replay", dict(records=None), "expects record files"),
    ("replay", dict(records=3), "expects record files"),
    ("replay", dict(records=[None]), "expects record files"),
    ("replay", dict(records=""), "is empty"),
    ("replay", dict(records="folder"), "folder is a folder"),
    ("replay", dict(records={}), ("record 1", "components_sha256", "!None")),
    ("replay", dict(records=[{}]), ("record 1", "components_sha256")),
    ("replay", dict(records={"components_sha256": 3}), ("record 1", "components_sha256")),
    ("replay", dict(records="empty-record.jsonl", components=3), "--components expects a file name"),
    ("compare", dict(lineup=S, games=10, components=["default"]), "--components expects one file, or 2 or more"),
    ("compare", dict(lineup=S, games=10, components=["default", 3]), "--components expects a file name"),
    ("compare", dict(lineup=S, games=10, components="default,other-kiai.toml", strict="yes"), "--strict must be"),
    ("simulate", dict(samurai=S, games=10, strict="yes"), "--strict must be True or False"),
    ("balance", dict(target=[4]), "--target expects"),
    ("balance", dict(players=3, games="x"), "--games must be a whole number"),
    ("balance", dict(players=3, out="prior", resume=True), ("--resume", "cannot read")),
]


# ------------------------------------------------------------------------------------- the files


def _table(games: int = 50):
    """A results table of one configuration, as `kiai simulate --out` writes it."""
    return kiai.simulate(S, level="easy", games=games).to_frame()


def _value_files(folder: Path) -> None:
    """Value and model files: empty, damaged, of the other kind, with a damaged header or arrays."""
    from kiai.strategies.nets import modelfile as M

    (folder / "e.npz").write_bytes(b"")
    family = (DATA / "selfplay-2-easy.npz").read_bytes()
    (folder / "damaged.npz").write_bytes(family[: len(family) // 2])
    (folder / "text.npz").write_text("hello")
    shutil.copy(DATA / "selfplay-2-easy.npz", folder / "sp-2-easy.npz")
    shutil.copy(DATA / "value.npz", folder / "judge.npz")
    shutil.copy(DATA / "learned.npz", folder / "learned.npz")
    value = M.load(DATA / "selfplay-2-easy.npz", M.AFTER)
    header = {k: v for k, v in value.header.items() if k not in ("format", "kind", "feature_schema")}
    M.save(folder / "play-list.npz", value.arrays, {**header, "play": [1, 2]}, M.AFTER)
    M.save(folder / "settings-list.npz", value.arrays, {**header, "settings": [1]}, M.AFTER)
    M.save(folder / "unnamed-components.npz", value.arrays,
           {k: v for k, v in header.items() if not k.startswith("components_")}, M.AFTER)  # fmt: skip
    M.save(folder / "text-arrays.npz", {**value.arrays, "b3": np.array([0.5])}, header, M.AFTER)
    _retype(folder / "text-arrays.npz", "b3")
    learned = M.load(None, M.LEARNED)
    plain = {k: v for k, v in learned.header.items() if k not in ("format", "kind", "feature_schema")}
    M.save(folder / "arch-list.npz", learned.arrays, {**plain, "architecture": [1]}, M.LEARNED)
    M.save(folder / "text-weights.npz", learned.arrays, plain, M.LEARNED)
    _retype(folder / "text-weights.npz", "action_w1")


def _retype(path: Path, name: str) -> None:
    """Rewrite array `name` of an .npz file as text of the same shape (no reader can play it)."""
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays[name] = np.full(arrays[name].shape, "x")
    np.savez(path, **arrays)


def _tables(folder: Path) -> None:
    """Results tables: a good one, and one of each impossible kind (row 1 is the bad one)."""
    one = _table()
    one.to_parquet(folder / "one.parquet")
    one.to_parquet(folder / "old.parquet")
    one.iloc[:0].to_parquet(folder / "zero.parquet")
    (folder / "header-only.csv").write_text(",".join(one.columns) + "\n")
    for name, column, value in (("nine", "n_samurai", 9), ("nightmare", "difficulty", "nightmare"),
                                ("no-games", "games", 0), ("half-games", "games", 100.5),
                                ("endless-games", "games", float("inf")), ("no-strategy", "strategy", None),
                                ("no-difficulty", "difficulty", None), ("unknown-samurai", "lineup", "kyuzo,nobody"),
                                ("three-of-two", "n_samurai", 3), ("more-wins", "wins", 51),
                                ("other-seating", "seating", "kyuzo,heihachi"), ("bogus-rules", "rules", "heal=bogus"),
                                ("maybe-honest", "honest", "maybe"), ("no-absent-tokens", "absent_tokens", None),
                                ("negative-deaths", "out_death", -5), ("text-losses", "lost_round_2", "x"),
                                ("outcomes-off", "out_death", one["out_death"] + 1),
                                ("scores-off", "score_10", one["score_10"] + 1)):  # fmt: skip
        bad = one.copy()
        if column == "wins":
            bad["games"] = 50
        bad[column] = value
        bad.to_parquet(folder / f"{name}.parquet")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The folder of prepared files every case runs in."""
    folder = tmp_path_factory.mktemp("bad-input")
    _value_files(folder)
    _tables(folder)
    (folder / "folder").mkdir()
    (folder / "shipped").mkdir()
    (folder / "afile.txt").write_text("hello\n")
    (folder / "empty-record.jsonl").write_text("{}\n")
    (folder / "bad-sha.jsonl").write_text(json.dumps({"components_sha256": 3}) + "\n")
    _component_files(folder)
    return folder


def _component_files(folder: Path) -> None:
    """Component files: one the learned players cannot read (four family tokens), one of other Kiai
    values, a house level like no official one, one holding the level balance writes, and the
    folder of an earlier balance run."""
    from kiai.simcore.components import default_components_path

    text = default_components_path().read_text(encoding="utf-8")
    fams = 'families = ["heal_random", "add_barricade", "intruder_to_discard"]'
    assert fams in text and "kyuzo      = { human = 9," in text
    (folder / "four-families.toml").write_text(text.replace(fams, fams[:-1] + ', "add_barricade"]'))
    (folder / "other-kiai.toml").write_text(text.replace("kyuzo      = { human = 9,", "kyuzo      = { human = 10,"))
    level = "\n[difficulty.{}]\n{}extra_barricades = 2\nplunderers_per_samurai = 7\nlieutenants = {{ per_samurai = 1, offset = 0 }}\n" \
            "bosses = {{ per_samurai = 1, offset = 0 }}\nfarmstead_penalties = false\nfamily_bonuses = true\n"
    (folder / "like-nothing.toml").write_text(text + level.format("mine", 'like = "nightmare"\n'))
    (folder / "house-normal-6.toml").write_text(text + level.format("normal-6", ""))
    (folder / "prior").mkdir()
    (folder / "prior" / "components.toml").write_text(text)
    (folder / "prior" / "balance-state.json").write_text("{")


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): (p.is_dir(), p.stat().st_size if p.is_file() else 0, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}  # fmt: skip


@pytest.fixture
def in_files(files, monkeypatch):
    """Run in FILES, fail if any game is played or any training starts, and check that nothing
    in FILES changed afterwards."""
    from kiai.reports.playing import play
    from kiai.strategies.run import games
    from kiai.training import learned as training
    from kiai.training import value as valuefit

    def refuse(*a, **k):
        raise AssertionError("bad input was not refused before the work started")

    for module, name in ((play, "play_block"), (games, "run_one"), (games, "record_game"), (training, "train"),
                         (valuefit, "train_value")):  # fmt: skip
        monkeypatch.setattr(module, name, refuse)
    monkeypatch.chdir(files)
    before = _snapshot(files)
    yield files
    assert _snapshot(files) == before, "bad input wrote or removed a file"


def _holds(line: str, words) -> None:
    for w in (words,) if isinstance(words, str) else words:
        if w.startswith("!"):
            assert w[1:] not in line, line
        else:
            assert w in line, line


@pytest.mark.parametrize("command, args, words",
                         [(command, args, words) for command, cases in COMMANDS.items() for args, words in cases],
                         ids=[f"{command} {args}" for command, cases in COMMANDS.items() for args, _ in cases])
def test_a_command_refuses_bad_input_in_one_line(capsys, monkeypatch, in_files, command, args, words):
    argv = shlex.split(args)
    while argv and "=" in argv[0] and argv[0].split("=")[0].isupper():
        name, _, value = argv.pop(0).partition("=")
        monkeypatch.setenv(name, value)
    code, out, err = run(capsys, *command.split(), *argv)
    assert code == 2 and out == "", (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiai: error: "), err
    _holds(lines[0], words)


@pytest.mark.parametrize("function, arguments, words", API,
                         ids=[f"{f}({', '.join(f'{k}={v!r}' for k, v in a.items())})" for f, a, _ in API])
def test_the_api_refuses_bad_input_with_the_commands_message(in_files, function, arguments, words):
    with pytest.raises((kiai.KiaiError, TypeError)) as raised:
        got = getattr(kiai, function)(**arguments)
        if function == "records":
            next(got)
    message = str(raised.value)
    assert "\n" not in message.strip()
    _holds(message, words)


# ------------------------------------------------------------- a value played on another family's tables

NOTE = "the value of the family 2@easy, played on a table of 4@normal"


def _notes(err: str) -> list[str]:
    return [line for line in err.strip().splitlines() if "compil" not in line]  # a cold cache's notes aside


def test_a_family_value_on_another_familys_table_is_said_in_one_line_and_in_the_header(capsys):
    value, four = DATA / "selfplay-2-easy.npz", "kyuzo,kikuchiyo,heihachi,daisuke"
    code, out, err = run(capsys, "simulate", "-s", four, "-d", "normal", "-n", 10, "--model", value)
    assert code == 0 and len(_notes(err)) == 1, err
    assert "2@easy" in _notes(err)[0] and "4@normal" in _notes(err)[0]
    assert NOTE in out.splitlines()[1]
    code, out, err = run(capsys, "simulate", "-s", four, "-d", "normal", "-n", 10, "--model", value, "--json")
    assert code == 0 and json.loads(out)["model"]["note"] == NOTE and json.loads(out)["model"]["family"] == "2@easy"
    assert kiai.simulate(four, "normal", 10, model=value).to_dict()["model"]["note"] == NOTE
    code, out, err = run(capsys, "simulate", "-s", S, "-d", "easy", "-n", 10, "--model", value)  # its own family
    assert code == 0 and _notes(err) == [] and "played on a table" not in out


def test_a_sweep_names_every_other_family_its_value_plays_on_in_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "sweep", "--out", tmp_path / "s.parquet", "-d", "easy,normal", "--players", 2,
                       "--lineups", "sample:1", "-n", 10, "--model", DATA / "selfplay-2-easy.npz")  # fmt: skip
    assert code == 0 and len(_notes(err)) == 1, err
    assert "family 2@easy" in _notes(err)[0] and _notes(err)[0].endswith("on a table of 2@normal")


# ------------------------------------------------------------------------------------- exit codes


def test_an_end_of_file_inside_a_command_is_no_ctrl_c(capsys, monkeypatch):
    """click reads EOFError as the end of typed input and aborts (exit code 130, as for Ctrl-C);
    kiai shows an EOFError it did not catch as the bug it is, and keeps 130 for Ctrl-C."""
    from kiai import api
    from kiai.cli.main import main

    def end_of_file(*a, **k):
        raise EOFError("No data left in file")

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "simulate", end_of_file)
    with pytest.raises(EOFError):
        main(["simulate", "-n", "10"])
    monkeypatch.setattr(api, "simulate", ctrl_c)
    code, out, err = run(capsys, "simulate", "-n", 10)
    assert code == 130 and out == "" and "error" not in err


def test_the_commands_page_says_what_each_exit_code_means():
    page = (Path(__file__).resolve().parent.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    section = page.partition("### Bad input and exit codes")[2].partition("\n#")[0]
    for code in ("0", "1", "2", "130"):
        assert f"`{code}`" in section, code
