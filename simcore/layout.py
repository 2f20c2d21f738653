"""Index layout of the engine's state arrays.

One game's state lives in four flat arrays, bundled in a tuple ``g = (P, H, K, F)``:

- ``P`` int64: everything public (RULES.md section 12). It is the observation handed to honest
  strategies (R-19): scalars, one block per seat, combat lines, discard pile, the cards Katsushiro
  made known, the unordered set of unseen cards, the out-of-play set and the card tables.
- ``H`` int64: what no honest strategy may read: the raider stack's order, the intruder stack,
  the farmstead tokens' hidden backs.
  Its tail holds the test scripts (forced random outcomes, forced decisions, scripted decks,
  R-16a) and, when tracing, the event log.
- ``K`` int64: per-game bookkeeping: configuration, counters for results, script cursors,
  errors, and the game's random stream.
- ``F`` float64: strategy parameters.

Few arrays matter for speed: numba passes each array as seven machine words and adjusts its
reference count (an atomic operation) on every call, so the tuple is kept short.

All indices are module constants, so numba folds them into the compiled code.
"""

from numba import types

from simcore.codes import CARD_CAP, MAX_SEATS, PENALTIES

# The numba type of the game tuple g. Functions called with constant arguments at many call
# sites (ask, log) are compiled for this one signature: otherwise numba compiles a copy per
# distinct literal argument (one per question or event code), which multiplied compile time.
_I1 = types.Array(types.int64, 1, "C")
G_TYPE = types.Tuple((_I1, _I1, _I1, types.Array(types.float64, 1, "C")))

# ---------------------------------------------------------------- P: public scalars
N = 0  # samurai in the game
ROUND = 1  # 1..3
ACTING = 2  # seat whose turn is in progress
BARR = 3  # barricades left
BARR_MAX = 4  # barricades placed at setup (R-11 ceiling)
FARMS = 5  # farmsteads left
FAMS = 6  # families left
FAM_MASK = 7  # bit k set: family k (component order) still in the village
RAIDER_N = 8
INTRUDER_N = 9
DISCARD_N = 10
KNOWN_N = 11  # top cards of the raider stack made public by Katsushiro
NO_DEFEND = 12  # turn flags from penalties; they bind the acting samurai only
NO_SUPPORT = 13
MUST_PASS = 14
NO_TALENT = 15
FOUGHT = 16  # the acting samurai chose Fight this turn
EXTRA_FIGHT = 17  # Kikuchiyo's extra fight used this turn (R-7b)
ABSENT_ON = 18  # absent support tokens in play (section 11, R-18)
ABSENT_AVAIL = 19  # samurai-id mask of absent tokens not yet used this game
FARM_PEN = 20  # level applies farmstead penalties
FAM_BONUS = 21  # level gives family bonuses
ROUND_OVER = 22  # the raider stack ran out: the round ends when the step in hand resolves
GAME_OVER = 23
OUTCOME = 24  # codes.OUT_*
IN_ROUND_END = 25  # end-of-round steps running: no Kiai triggers
TURN_NO = 26  # turns played in this round (R-9b)
N_CARDS = 27
LEVEL_PLUS = 28
LAST_ACTIVE = 29  # whose turn was in progress / who passed last
FAMS_TOTAL = 30
FARMS_TOTAL = 31
REDRAWN = 32  # seat mask: redrew during the current fight (R-7a)
CHAIN = 33  # seat mask: handled the card in hand in this chain of gives (R-7, R-7a)
STALLED = 34  # this round was stalled (R-9b)
HAND = 35  # the revealed card being handled (not yet placed), or -1
SRNG = 36  # the strategy's own random stream (public: it only drives the strategy's choices)
# The strategy memory S = P[SRNG : SRNG + S_LEN] is handed to strategies; after the stream come
# a planned action and the turn it is for (written by a planner strategy between turns, from
# public information only; see strategies/planners.py).
S_PLAN = 1  # ACT_* answer planned for the next Q_ACTION
S_PLAN_AT = 2  # plan_key() of the turn the plan is for (0: no plan)
S_LEN = 3
# ---------------------------------------------------------------- P: per seat blocks
SEAT0 = 40
SEAT_STRIDE = 16
S_SAM = 0  # samurai id (codes.SAMURAI)
S_WOUND = 1  # 0 human, 1 human+token, 2 animal, 3 animal+token, 4 dead (section 6)
S_KIAI = 2  # current Kiai value (side dependent)
S_TOTAL = 3  # combat total = sum of the combat line
S_PASSED = 4
S_LINE_N = 5
S_DEF = 6  # 3 slots, by symbol - 1 (hat, farm, doll): card id or -1
S_HOLDER = 9  # seat holding this seat's support token (itself when at home)
S_ABSENT = 10  # talent mask lent by absent tokens for this round (R-20a)
S_PENDING = 11  # a Kiai trigger waits to be resolved
# ---------------------------------------------------------------- P: zones and tables
LINES = SEAT0 + MAX_SEATS * SEAT_STRIDE  # seat s: LINES + s * CARD_CAP, oldest card first
DISCARD = LINES + MAX_SEATS * CARD_CAP  # bottom first
KNOWN = DISCARD + CARD_CAP  # KNOWN[0] is the top card of the raider stack (4 slots)
UNSEEN = KNOWN + 4  # per card: 1 if in the raider or intruder stack (R-19a)
OUTP = UNSEEN + CARD_CAP  # per card: 1 if out of play this round
C_VALUE = OUTP + CARD_CAP  # card tables, copied from the components
C_SYM = C_VALUE + CARD_CAP
C_PEN1 = C_SYM + CARD_CAP
C_PEN2 = C_PEN1 + CARD_CAP
C_FLAME = C_PEN2 + CARD_CAP
C_RANK = C_FLAME + CARD_CAP
KIAI_TAB = C_RANK + CARD_CAP  # [samurai id * 2 + side]
# Section 12 counting, kept up to date by simcore/unseen.py as cards move: the unseen cards
# by bin = value * 4 + symbol (values 0..6), and per bin how often each penalty code appears
# on them (first and second penalty alike), packed 8 bits a code in two words per bin (word
# code // 8, field code % 8). A field never exceeds the number of cards, so the words of several
# bins add up without carries: strategies count in O(bins), not O(cards).
U_BINS = 7 * 4
N_PEN_CODES = len(PENALTIES)
U_BIN = KIAI_TAB + 16
U_PEN = U_BIN + U_BINS  # [bin * 2 + code // 8], field code % 8
P_SIZE = U_PEN + U_BINS * 2

# ---------------------------------------------------------------- H: hidden
RAIDER = 0  # bottom first; the top card is RAIDER + P[RAIDER_N] - 1
INTRUDER = CARD_CAP  # bottom first; top at the end
FARM_ALIVE = 2 * CARD_CAP  # farmstead token indices still standing (order irrelevant)
FARM_BACK = FARM_ALIVE + 16  # back of each token, codes.FB_*
FAM_TAB = FARM_BACK + 16  # bonus of each family, codes.FAM_*
SCRATCH = FAM_TAB + 16  # work space for gathering and shuffling
FR_CAP = 1024  # forced random outcomes (R-16a)
H_FR = SCRATCH + CARD_CAP
FD_CAP = 1024  # forced decisions (R-16a)
H_FD = H_FR + FR_CAP
H_SC = H_FD + FD_CAP  # scripted decks: 3 rounds x (count, cards top first) (R-16a)
SC_STRIDE = CARD_CAP + 1
H_SIZE = H_SC + 3 * SC_STRIDE
H_TR = H_SIZE  # trace rows (TR_COLS each) follow when tracing

# ---------------------------------------------------------------- K: bookkeeping
K_SID = 0  # strategy id (registry order)
K_CHECK = 1  # check invariants at every step (fuzzing)
K_TRACE = 2
K_SCRAMBLE = 3  # hand strategies a scrambled copy of the hidden state (R-19 test)
K_FIRST_SEAT = 4  # -1: drawn at random
K_STOP_TURNS = 5  # stop after this many turns (-1: play on)
K_STOP_ROUND_END = 6  # stop after the first end-of-round steps
K_FROM_STATE = 7  # the game starts from the given P and H instead of a setup
K_FR_POS = 8
K_FD_POS = 9
K_TR_N = 10
K_ERR = 11  # first invariant violation code (0 = none)
K_ILLEGAL = 12  # choices a strategy made outside the legal set
K_KIAI = 13  # Kiai activations
K_CONFRONTED = 14
K_DEFENDED = 15
K_STALLED = 16
K_TURNS = 17
K_DECISIONS = 18
K_END_ROUND = 19
K_SCRIPT_ROUNDS = 20  # bit r-1 set: round r's raider order is scripted (R-16a)
K_ERR_WHERE = 21  # decision count at which K_ERR was first set
K_LEVEL_PL = 22  # plunderers per samurai
K_LEVEL_LT = 23  # lieutenants added in round 2
K_LEVEL_BO = 24  # bosses added in round 3
K_DOLL_CHECK = 25  # the two-samurai doll check applies
K_FIRST = 26  # the first player of round 1 as played
K_RNG = 27  # the game's random stream (SplitMix64 state, as int64 bits)
K_FR_N = 28  # forced random outcomes given
K_FD_N = 29  # forced decisions given
K_TR_CAP = 30  # trace rows that fit in H
K_ROUNDS_ENDED = 31  # end-of-round steps done in this game (a stop point for planned play)
K_ROUND_LOGGED = 32  # the round whose start the trace has logged (resumed play logs it once)
K_SIZE = 34

# ---------------------------------------------------------------- decision points (section 13)
Q_ABSENT = 1  # answer: subset (mask) of legal, a mask of samurai ids
Q_IGNORE = 2  # a = card, b = penalty; 0 apply, 1 ignore
Q_BOSS_ORDER = 3  # a = card; 0 file order, 1 reversed
Q_LOSE_DEF = 4  # 0 hat, 1 farm, 2 doll: which defence card to discard
Q_ACTION = 5  # ACT_PASS, ACT_FIGHT, ACT_SUPPORT + seat
Q_CARD = 6  # a = card in hand; CARD_* options
Q_FIGHT_AGAIN = 7  # 0 no, 1 yes (R-7b)
Q_KIAI = 8  # KIAI_DECLINE, KIAI_PLAIN, KIAI_EFFECT (R-10, R-10a)
Q_HEAL = 9  # 0 none, 1 + seat (Heihachi animal)
Q_DAISUKE = 10  # 0 none, source * 8 + receiver
Q_PLACE = 11  # a = card; 0 confront, 1 defend (Daisuke's receiver)
Q_KIKU = 12  # 0 none, 1 + seat (Kikuchiyo's Kiai target)
Q_KYUZO = 13  # 0 none, giver * 8 + receiver
Q_KATSU = 14  # a = number of cards looked at; answer: permutation index
N_QUESTIONS = 15

ACT_PASS = 0
ACT_FIGHT = 1
ACT_SUPPORT = 2  # + receiving seat

CARD_CONFRONT = 0
CARD_DEFEND = 1
CARD_REDRAW = 2
CARD_KYUZO = 3
CARD_GIVE_LEFT = 4
CARD_GIVE_RIGHT = 5

KIAI_DECLINE = 0
KIAI_PLAIN = 1
KIAI_EFFECT = 2

# ---------------------------------------------------------------- invariant errors
ERR_NONE = 0
ERR_CARD_COUNT = 1  # a card is missing or in two places
ERR_TOTAL = 2  # a combat total is not the sum of its line
ERR_BOUNDS = 3  # a counter out of its range
ERR_DEFENCE = 4  # a defence slot holds a card of another symbol
ERR_UNSEEN = 5  # the public unseen set disagrees with the stacks
ERR_KNOWN = 6  # known cards are not the top of the raider stack
ERR_FORCED = 7  # a forced random value or decision was out of range
ERR_KIAI = 8  # a Kiai value disagrees with the side
ERR_TOKEN = 9  # a support token is held by an impossible seat

# ---------------------------------------------------------------- per-game result columns
O_OUTCOME = 0
O_END_ROUND = 1
O_BARR = 2
O_FARMS = 3
O_FAMS = 4
O_WOUND_SUM = 5
O_KIAI = 6
O_CONFRONTED = 7
O_DEFENDED = 8
O_STALLED = 9
O_SCORE = 10
O_TURNS = 11
O_ERR = 12
O_ILLEGAL = 13
O_FIRST_SEAT = 14
O_DECISIONS = 15
N_OUT = 16
OUT_NAMES = (
    "outcome",
    "end_round",
    "barricades",
    "farmsteads",
    "families",
    "wound_steps",
    "kiai",
    "confronted",
    "defended",
    "stalled",
    "score",
    "turns",
    "error",
    "illegal",
    "first_seat",
    "decisions",
)

# ---------------------------------------------------------------- trace events (TR rows)
TR_COLS = 8  # code, round, a, b, c, d and two spare zeros (rows of H from H_TR)
EV_ROUND_START = 1  # first seat, raider count
EV_TURN = 2  # seat
EV_ABSENT = 3  # seat, mask
EV_PENALTY = 4  # seat, card, penalty
EV_PEN_IGNORED = 5  # seat, card, penalty
EV_PEN_UNABLE = 6  # seat, penalty
EV_PASS = 7  # seat, forced (1 over Kiai, 2 must pass)
EV_FIGHT = 8  # seat
EV_SUPPORT = 9  # seat, receiver, card moved to intruder
EV_REVEAL = 10  # seat, card
EV_REDRAW = 11  # seat, card put under
EV_KYUZO_DISCARD = 12  # seat, card
EV_GIVE = 13  # from, to, card
EV_CONFRONT = 14  # seat, card, total, kiai
EV_DEFEND = 15  # seat, card
EV_OVERCOME = 16  # seat, total, kiai
EV_BARR_LOST = 17  # barricades left
EV_BARR_ADDED = 18  # barricades now
EV_FARM_LOST = 19  # token back, farmsteads left
EV_FAMILY_LOST = 20  # family index, families left
EV_WOUND = 21  # seat, new state
EV_HEAL = 22  # seat, new state
EV_KIAI = 23  # seat, choice (KIAI_*)
EV_KIAI_SHED = 24  # seat, card, total
EV_DAISUKE = 25  # source, receiver, card
EV_KIKU = 26  # target seat, card
EV_KYUZO_TOKEN = 27  # giver, receiver
EV_TOP_TO_DISCARD = 28  # card (Gorobei)
EV_INTRUDER_TO_DISCARD = 29  # card (Kanbei, family bonus C)
EV_KATSU = 30  # count, c0, c1, c2 (new order, top first)
EV_PEN_DRAW = 31  # seat drawing, card (the confront event that follows has the total)
EV_TO_INTRUDER = 32  # card (unseen)
EV_DISCARD_TO_RAIDER = 33  # card
EV_LOSE_DEFENCE = 34  # seat, card
EV_ROUND_END = 35  # reason: 0 stack empty, 1 all passed, 2 stalled; last active seat
EV_EOR_STEP = 36  # step 1..4
EV_FLAME = 37  # card, flame
EV_BONUS = 38  # family index, bonus, target seat (-1)
EV_GAME_END = 39  # outcome
EV_TOKEN_RETURN = 40  # owner, holder
EV_FIGHT_AGAIN = 41  # seat
EV_STALL = 42
EV_SETUP = 43  # samurai count, barricades, raider count
EV_TRIGGER_SKIPPED = 44  # seat (declined Kiai)
