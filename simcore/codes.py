"""Integer codes shared by the component loader, the engine and the strategies.

Every name that appears in a component file maps to a small integer here; the engine never
sees strings. The order of SAMURAI is the canonical samurai id (talent bit = 1 << id).
"""

SAMURAI = ("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo")
HEIHACHI, DAISUKE, GOROBEI, KANBEI, KYUZO, KATSUSHIRO, KIKUCHIYO = range(7)
N_SAMURAI_KINDS = 7

RANKS = ("plunderer", "lieutenant", "boss")
PLUNDERER, LIEUTENANT, BOSS = range(3)
# value range each rank may carry (inclusive), checked by the component loader
RANK_VALUES = {"plunderer": (1, 4), "lieutenant": (5, 5), "boss": (6, 6)}

SYMBOLS = ("none", "hat", "farm", "doll")
SYM_NONE, SYM_HAT, SYM_FARM, SYM_DOLL = range(4)

PENALTIES = (
    "none",
    "barricade",
    "wound",
    "intruder",
    "no_defend",
    "no_support",
    "left_draws",
    "right_draws",
    "must_pass",
    "discard_to_raider",
    "no_talent",
    "lose_defence",
)
(
    PEN_NONE,
    PEN_BARRICADE,
    PEN_WOUND,
    PEN_INTRUDER,
    PEN_NO_DEFEND,
    PEN_NO_SUPPORT,
    PEN_LEFT_DRAWS,
    PEN_RIGHT_DRAWS,
    PEN_MUST_PASS,
    PEN_DISCARD_TO_RAIDER,
    PEN_NO_TALENT,
    PEN_LOSE_DEFENCE,
) = range(12)
BOSS_ONLY_PENALTIES = ("must_pass", "discard_to_raider", "no_talent", "lose_defence")

FARMSTEAD_BACKS = ("lose_family", "lose_farmstead", "lose_barricade", "random_wound")
FB_LOSE_FAMILY, FB_LOSE_FARMSTEAD, FB_LOSE_BARRICADE, FB_RANDOM_WOUND = range(4)

FAMILY_BONUSES = ("heal_random", "add_barricade", "intruder_to_discard")
FAM_HEAL_RANDOM, FAM_ADD_BARRICADE, FAM_INTRUDER_TO_DISCARD = range(3)

LEVELS = ("easy", "normal", "hard", "heroic")
# "+" marks added to a winning score's grade, by level (rulebook scoring)
LEVEL_PLUSES = {"easy": 0, "normal": 1, "hard": 2, "heroic": 3}

OUTCOMES = ("win", "death", "farmsteads", "families")
OUT_WIN, OUT_DEATH, OUT_FARMSTEADS, OUT_FAMILIES = range(4)

WOUND_STATES = ("human", "human+token", "animal", "animal+token", "dead")

# Hard capacity of the card tables: a component file may not list more raider cards.
CARD_CAP = 128
MAX_SEATS = 7
