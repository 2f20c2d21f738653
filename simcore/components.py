"""Load and validate a component data file (docs/rules.md R-1).

Every number printed on the physical components comes from one TOML file. The loader checks it
completely and turns it into integer tables for the engine; any problem raises ComponentsError
with one line "<file>: <entry>: <problem>" so a user editing the file can find the mistake.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import json
import os
import pathlib
import re
import sys
from dataclasses import dataclass

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from kiai.simcore import codes, filekinds

SCHEMA = 1
TOP_KEYS = (
    "schema", "farmsteads", "families", "barricade_tokens", "raiders", "samurai", "difficulty"
)
RAIDER_KEYS = ("rank", "value", "symbol", "penalties", "flames", "count")
SAMURAI_KEYS = ("human", "animal")
LEVEL_KEYS = (
    "extra_barricades",
    "plunderers_per_samurai",
    "lieutenants",
    "bosses",
    "farmstead_penalties",
    "family_bonuses",
)
ADDS_KEYS = ("per_samurai", "offset")
LEVEL_OPTIONAL = ("like",)  # a house level's official family: the learned players' values it plays
MAX_PENALTIES = 2
# what the learned players' inputs can hold (strategies.nets): three family tokens (one input each),
# and a penalty printed at most 255 times (simcore.unseen counts each in 8 bits)
READ_FAMILIES = 3
READ_PENALTY_COUNT = 255


MAX_BYTES = 4_000_000  # the most a component file may hold (the packaged one is about 10 KB)
LEVEL_NAME = re.compile(r"[a-z][a-z0-9_-]*")  # the names a level may have in a component file


class ComponentsError(ValueError):
    """A component file that cannot be used; the message is one line: file, entry, problem."""


@dataclass(frozen=True)
class Level:
    name: str
    extra_barricades: int
    plunderers_per_samurai: int
    lieutenants_per_samurai: int
    lieutenants_offset: int
    bosses_per_samurai: int
    bosses_offset: int
    farmstead_penalties: bool
    family_bonuses: bool
    like: str | None = None  # a house level's official family (its table's `like`), if it names one

    @property
    def official(self) -> bool:
        return self.name in codes.LEVELS

    def knobs(self) -> dict:
        """What the level sets, as its table writes it (but `like`)."""
        return {"extra_barricades": self.extra_barricades, "plunderers_per_samurai": self.plunderers_per_samurai,
                "lieutenants": {"per_samurai": self.lieutenants_per_samurai, "offset": self.lieutenants_offset},
                "bosses": {"per_samurai": self.bosses_per_samurai, "offset": self.bosses_offset},
                "farmstead_penalties": self.farmstead_penalties, "family_bonuses": self.family_bonuses}

    def barricades(self, n: int) -> int:
        return n + self.extra_barricades

    def plunderers(self, n: int) -> int:
        return self.plunderers_per_samurai * n

    def lieutenants(self, n: int) -> int:
        return max(0, self.lieutenants_per_samurai * n + self.lieutenants_offset)

    def bosses(self, n: int) -> int:
        return max(0, self.bosses_per_samurai * n + self.bosses_offset)


# eq=False: the generated __eq__/__hash__ would compare numpy arrays, which has no truth value.
@dataclass(frozen=True, eq=False)
class Components:
    path: str
    sha256: str
    card_rank: np.ndarray
    card_value: np.ndarray
    card_symbol: np.ndarray
    card_pen: np.ndarray
    card_flame: np.ndarray
    kiai: np.ndarray
    farm_backs: np.ndarray
    family_bonuses: np.ndarray
    barricade_tokens: int
    levels: dict

    def n_cards(self) -> int:
        return int(self.card_rank.shape[0])

    @functools.cached_property
    def data_sha256(self) -> str:
        """The SHA-256 of the component data the learned players read (read_data): what a model
        is made for. A comment, the file's layout or a house level leave it as it is."""
        text = json.dumps(read_data(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def unreadable(self) -> str | None:
        """Why the learned players' inputs cannot hold this data (one line), or None."""
        if len(self.family_bonuses) > READ_FAMILIES:
            return (f"{len(self.family_bonuses)} family tokens; the learned players read "
                    f"{READ_FAMILIES} at most")
        printed = np.bincount(self.card_pen.ravel(), minlength=len(codes.PENALTIES))[1:]
        if printed.max(initial=0) > READ_PENALTY_COUNT:
            code = int(printed.argmax()) + 1
            return (f"penalty {codes.PENALTIES[code]!r} printed {int(printed.max())} times; the learned "
                    f"players count {READ_PENALTY_COUNT} at most")
        return None

    def family_level(self, name: str) -> str:
        """The official level whose learned values play level `name`: itself, a house level's
        `like`, else the official level nearest to it (nearest_official)."""
        lv = self.level(name)
        if lv.official:
            return name
        return lv.like or nearest_official(lv, self)

    def level(self, name: str) -> Level:
        try:
            return self.levels[name]
        except (KeyError, TypeError):
            known = ", ".join(self.levels)
            raise ComponentsError(
                f"{self.path}: difficulty: unknown level {name!r} (known: {known})"
            ) from None

    def check_setup(self, level: str, n: int) -> None:
        """Raise ComponentsError unless `level` can be set up with n samurai (RULES §2, §10)."""
        lv = self.level(level)
        where = f"{self.path}: difficulty.{level}"
        if not _is_int(n) or not 2 <= n <= codes.MAX_SEATS:
            raise ComponentsError(f"{where}: {n!r} samurai is not a game (2-{codes.MAX_SEATS})")
        have = np.bincount(self.card_rank, minlength=len(codes.RANKS))
        need = (lv.plunderers(n), lv.lieutenants(n), lv.bosses(n))
        for rank, (needed, held) in enumerate(zip(need, have)):
            if needed > held:
                raise ComponentsError(
                    f"{where}: needs {needed} {codes.RANKS[rank]} cards for {n} samurai, "
                    f"the file has {held}"
                )
        barricades = lv.barricades(n)
        if not 0 <= barricades <= self.barricade_tokens:
            raise ComponentsError(
                f"{where}: needs {barricades} barricades for {n} samurai, "
                f"the file has 0-{self.barricade_tokens} tokens"
            )
        # the two-samurai doll check can never pass without two doll plunderers.
        doll = (self.card_rank == codes.PLUNDERER) & (self.card_symbol == codes.SYM_DOLL)
        dolls = int(np.sum(doll))
        if n == 2 and dolls < 2:
            raise ComponentsError(
                f"{where}: a 2-samurai game needs at least 2 doll plunderers, the file has {dolls}"
            )


def default_components_path() -> pathlib.Path:
    res = importlib.resources.files(__package__).joinpath("data").joinpath("components.toml")
    return pathlib.Path(str(res))


def load_components(path: str | os.PathLike | None = None) -> Components:
    """Load and validate a component file; None loads the packaged default."""
    # 'default' names the packaged file, as in compare's list of files
    given = default_components_path() if path is None or path == "default" else pathlib.Path(path)
    display = os.fspath(given)
    try:
        st = given.stat()
        resolved = str(given.resolve())
    except OSError as e:
        _fail(display, "file", f"cannot read: {e.strerror or e}")
    odd = filekinds.problem(given, MAX_BYTES)
    if odd is not None:
        _fail(display, "file", odd)
    # Keyed on mtime and size so an edited file is read again.
    return _load_cached(resolved, st.st_mtime_ns, st.st_size, display)


@functools.lru_cache(maxsize=16)
def _load_cached(resolved: str, _mtime_ns: int, _size: int, display: str) -> Components:
    try:
        data = pathlib.Path(resolved).read_bytes()
    except OSError as e:
        _fail(display, "file", f"cannot read: {e.strerror or e}")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (some editors write one) is no content
    except UnicodeDecodeError as e:
        _fail(display, "file", f"not UTF-8 text (byte {e.start})")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        _fail(display, "syntax", f"invalid TOML: {e}")
    comp = _Parser(display).parse(doc, resolved, hashlib.sha256(data).hexdigest())
    # The cached object is shared by every caller: make its tables read-only.
    for value in vars(comp).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return comp


def _fail(display: str, entry: str, problem: str):
    raise ComponentsError(f"{display}: {entry}: {problem}".replace("\n", " "))


def _is_int(v) -> bool:
    # TOML true/false load as bool, a subclass of int.
    return isinstance(v, int) and not isinstance(v, bool)


def _kind(v) -> str:
    for t, name in ((bool, "boolean"), (int, "integer"), (float, "float"), (str, "string"),
                    (list, "array"), (dict, "table")):
        if isinstance(v, t):
            return f"{name} {v!r}" if t in (bool, int, float, str) else name
    return f"date/time {v!s}"


class _Parser:
    def __init__(self, display: str):
        self.display = display

    def fail(self, entry: str, problem: str):
        _fail(self.display, entry, problem)

    def table(self, v, entry: str, keys: tuple, optional: tuple = ()) -> dict:
        if not isinstance(v, dict):
            self.fail(entry, f"must be a table, not {_kind(v)}")
        for k in v:
            if k not in keys and k not in optional:
                self.fail(entry, f"unknown key {k!r} (expected {', '.join(keys + optional)})")
        for k in keys:
            if k not in v:
                self.fail(entry, f"missing key {k!r}")
        return v

    def int_(self, v, entry: str, what: str, lo: int, hi: int | None = None) -> int:
        if not _is_int(v):
            self.fail(entry, f"{what} must be an integer, not {_kind(v)}")
        if v < lo or (hi is not None and v > hi):
            span = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            self.fail(entry, f"{what} {v} is out of range ({span})")
        return v

    def bool_(self, v, entry: str, what: str) -> bool:
        if not isinstance(v, bool):
            self.fail(entry, f"{what} must be true or false, not {_kind(v)}")
        return v

    def name(self, v, entry: str, what: str, choices: tuple) -> int:
        if not isinstance(v, str) or v not in choices:
            shown = repr(v) if isinstance(v, str) else _kind(v)
            self.fail(entry, f"{shown} is not a known {what} ({', '.join(choices)})")
        return choices.index(v)

    def name_list(self, v, entry: str, what: str, choices: tuple, lo: int, hi: int) -> list:
        if not isinstance(v, list):
            self.fail(entry, f"must be an array of {what} names, not {_kind(v)}")
        if not lo <= len(v) <= hi:
            self.fail(entry, f"has {len(v)} entries, allowed {lo}-{hi}")
        return [self.name(x, f"{entry}[{i}]", what, choices) for i, x in enumerate(v)]

    def parse(self, doc: dict, path: str, sha: str) -> Components:
        for k in doc:
            if k not in TOP_KEYS:
                self.fail(k, f"unknown top-level key (expected {', '.join(TOP_KEYS)})")
        for k in TOP_KEYS:
            if k not in doc:
                self.fail(k, "missing top-level key")
        schema = doc["schema"]
        if not _is_int(schema) or schema != SCHEMA:
            shown = schema if _is_int(schema) else _kind(schema)
            self.fail("schema", f"schema {shown} is not supported (this version reads {SCHEMA})")
        farm = self.name_list(doc["farmsteads"], "farmsteads", "farmstead back",
                              codes.FARMSTEAD_BACKS, 1, 12)
        fam = self.name_list(doc["families"], "families", "family bonus",
                             codes.FAMILY_BONUSES, 1, 8)
        tokens = self.int_(doc["barricade_tokens"], "barricade_tokens", "value", 1, 30)
        rank, value, symbol, pen, flame = self.raiders(doc["raiders"])
        i32 = functools.partial(np.array, dtype=np.int32)
        return Components(
            path=path,
            sha256=sha,
            card_rank=i32(rank),
            card_value=i32(value),
            card_symbol=i32(symbol),
            card_pen=i32(pen).reshape(-1, MAX_PENALTIES),
            card_flame=i32(flame),
            kiai=i32(self.samurai(doc["samurai"])).reshape(codes.N_SAMURAI_KINDS, 2),
            farm_backs=i32(farm),
            family_bonuses=i32(fam),
            barricade_tokens=tokens,
            levels=self.levels(doc["difficulty"]),
        )

    def raiders(self, raiders) -> tuple:
        if not isinstance(raiders, list):
            self.fail("raiders", f"must be an array of tables, not {_kind(raiders)}")
        if not raiders:
            self.fail("raiders", "is empty: a game needs raider cards")
        cols = ([], [], [], [], [])
        for i, card in enumerate(raiders):
            entry = f"raiders[{i}]"
            self.table(card, entry, RAIDER_KEYS)
            rank_name = card["rank"]
            rank = self.name(rank_name, entry, "rank", codes.RANKS)
            lo, hi = codes.RANK_VALUES[rank_name]
            value = card["value"]
            if not _is_int(value):
                self.fail(entry, f"value must be an integer, not {_kind(value)}")
            if not lo <= value <= hi:
                span = f"{lo}-{hi}" if lo != hi else f"{lo}"
                self.fail(entry, f"value {value} is not allowed for rank {rank_name!r} ({span})")
            symbol = self.name(card["symbol"], entry, "symbol", codes.SYMBOLS)
            pens = self.penalties(card["penalties"], entry, rank)
            flame = self.bool_(card["flames"], entry, "flames")
            count = self.int_(card["count"], entry, "count", 1, codes.CARD_CAP)
            if len(cols[0]) + count > codes.CARD_CAP:
                self.fail(entry, f"the raider cards add up to more than {codes.CARD_CAP}")
            for col, x in zip(cols, (rank, value, symbol, pens, int(flame))):
                col.extend([x] * count)
        return cols

    def penalties(self, v, entry: str, rank: int) -> list:
        # "none" is the padding code, not a penalty a card can print.
        names = codes.PENALTIES[1:]
        if not isinstance(v, list):
            self.fail(entry, f"penalties must be an array of names, not {_kind(v)}")
        most = MAX_PENALTIES if rank == codes.BOSS else 1
        if len(v) > most:
            rank_name = codes.RANKS[rank]
            self.fail(entry, f"has {len(v)} penalties, rank {rank_name!r} allows at most {most}")
        pens = []
        for j, p in enumerate(v):
            self.name(p, f"{entry}.penalties[{j}]", "penalty", names)
            if p in codes.BOSS_ONLY_PENALTIES and rank != codes.BOSS:
                self.fail(entry, f"penalty {p!r} is only allowed on bosses")
            pens.append(codes.PENALTIES.index(p))
        return pens + [codes.PEN_NONE] * (MAX_PENALTIES - len(pens))

    def samurai(self, v) -> list:
        self.table(v, "samurai", codes.SAMURAI)
        rows = []
        for name in codes.SAMURAI:
            entry = f"samurai.{name}"
            side = self.table(v[name], entry, SAMURAI_KEYS)
            human = self.int_(side["human"], entry, "human", 1, 30)
            animal = self.int_(side["animal"], entry, "animal", 1, 30)
            if animal < human:
                self.fail(entry, f"animal {animal} is below human {human}")
            rows.extend([human, animal])
        return rows

    def levels(self, v) -> dict:
        if not isinstance(v, dict):
            self.fail("difficulty", f"must be a table, not {_kind(v)}")
        for name in codes.LEVELS:
            if name not in v:
                self.fail("difficulty", f"missing level {name!r}")
        for name in v:  # a name is typed after -d and in lists (-d a,b; FILE@LEVEL): lowercase, no comma
            if not LEVEL_NAME.fullmatch(name):
                self.fail(f"difficulty.{name}", "a level's name is lowercase letters, digits, '-' and '_', "
                                                "starting with a letter (e.g. normal-6)")
        return {name: self.level(name, lv) for name, lv in v.items()}

    def level(self, name: str, v) -> Level:
        entry = f"difficulty.{name}"
        self.table(v, entry, LEVEL_KEYS, LEVEL_OPTIONAL)
        like = v.get("like")
        if like is not None:
            if name in codes.LEVELS:
                self.fail(entry, f"like is for a house level; {name!r} is an official one")
            self.name(like, entry, "official level for like", codes.LEVELS)
        adds = {}
        for key in ("lieutenants", "bosses"):
            sub = f"{entry}.{key}"
            t = self.table(v[key], sub, ADDS_KEYS)
            adds[key] = (
                self.int_(t["per_samurai"], sub, "per_samurai", 0, 3),
                self.int_(t["offset"], sub, "offset", -7, 7),
            )
        return Level(
            name=name,
            extra_barricades=self.int_(v["extra_barricades"], entry, "extra_barricades", -7, 10),
            plunderers_per_samurai=self.int_(
                v["plunderers_per_samurai"], entry, "plunderers_per_samurai", 1, 20
            ),
            lieutenants_per_samurai=adds["lieutenants"][0],
            lieutenants_offset=adds["lieutenants"][1],
            bosses_per_samurai=adds["bosses"][0],
            bosses_offset=adds["bosses"][1],
            farmstead_penalties=self.bool_(v["farmstead_penalties"], entry, "farmstead_penalties"),
            family_bonuses=self.bool_(v["family_bonuses"], entry, "family_bonuses"),
            like=like,
        )


def read_data(comp: Components) -> dict:
    """The component data the learned players read (strategies.nets): the cards as a multiset
    (rank, value, symbol, penalties, flames: their order in the file is no input), the samurai's
    Kiai values by name (the talents belong to the names), the farmstead backs as a multiset, the
    family bonuses in order (an input each), and the official levels' switches the values read
    (farmstead penalties, family bonuses). Not the file's bytes, comments, barricade tokens or
    house levels: the rest of a level is the table the players see, not data they were made for."""
    cards = zip(comp.card_rank.tolist(), comp.card_value.tolist(), comp.card_symbol.tolist(),
                map(sorted, comp.card_pen.tolist()), comp.card_flame.tolist())
    counted: dict = {}
    for card in cards:
        key = json.dumps(card)
        counted[key] = counted.get(key, 0) + 1
    return {
        "cards": sorted([json.loads(k), n] for k, n in counted.items()),
        "kiai": {name: comp.kiai[i].tolist() for i, name in enumerate(codes.SAMURAI)},
        "farmsteads": sorted(comp.farm_backs.tolist()),
        "families": comp.family_bonuses.tolist(),
        "levels": {name: [comp.levels[name].farmstead_penalties, comp.levels[name].family_bonuses]
                   for name in codes.LEVELS},
    }


# how far apart two levels are, per knob: a barricade, a plunderer per samurai, a lieutenant or boss per
# samurai or of offset, a switch (farmstead penalties, family bonuses)
def _distance(a: Level, b: Level) -> int:
    return (abs(a.extra_barricades - b.extra_barricades) + abs(a.plunderers_per_samurai - b.plunderers_per_samurai)
            + abs(a.lieutenants_per_samurai - b.lieutenants_per_samurai) + abs(a.lieutenants_offset - b.lieutenants_offset)
            + abs(a.bosses_per_samurai - b.bosses_per_samurai) + abs(a.bosses_offset - b.bosses_offset)
            + (a.farmstead_penalties != b.farmstead_penalties) + (a.family_bonuses != b.family_bonuses))


def nearest_official(lv: Level, comp: Components) -> str:
    """The official level nearest to `lv`: the fewest steps over its knobs (a barricade, a
    plunderer per samurai, a lieutenant's or boss's per-samurai count or offset, a switch), the
    easier on a tie."""
    return min(codes.LEVELS, key=lambda name: (_distance(lv, comp.levels[name]), codes.LEVELS.index(name)))


def level_toml(level: Level) -> str:
    """The table of `level` as a component file writes it (the parser reads it back as it is)."""
    def adds(per: int, offset: int) -> str:
        return f"{{ per_samurai = {per}, offset = {offset} }}"

    lines = [f"[difficulty.{level.name}]"]
    if level.like is not None:
        lines.append(f'like = "{level.like}"')
    lines += [f"extra_barricades = {level.extra_barricades}",
              f"plunderers_per_samurai = {level.plunderers_per_samurai}",
              f"lieutenants = {adds(level.lieutenants_per_samurai, level.lieutenants_offset)}",
              f"bosses = {adds(level.bosses_per_samurai, level.bosses_offset)}",
              f"farmstead_penalties = {str(level.farmstead_penalties).lower()}",
              f"family_bonuses = {str(level.family_bonuses).lower()}"]
    return "\n".join(lines) + "\n"


def with_levels(comp: Components, levels: list[Level]) -> tuple[Components, str]:
    """comp with `levels` added (house levels, under names it does not hold), and the text of the
    file that holds them: comp's file with their tables appended. The Components is that file's,
    its sha256 the text's; nothing is written."""
    text = pathlib.Path(comp.path).read_text(encoding="utf-8").rstrip("\n") + "\n"
    for lv in levels:
        if lv.name in comp.levels:
            _fail(comp.path, f"difficulty.{lv.name}", "the file holds a level of that name already")
        text += "\n" + level_toml(lv)
    parsed = _Parser(comp.path).parse(tomllib.loads(text), comp.path, hashlib.sha256(text.encode()).hexdigest())
    for value in vars(parsed).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return parsed, text
