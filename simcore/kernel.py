"""The one compiled entry point: play a range of games.

Simulation, tracing, scripted tests, fuzzing and the planners' games all call play_games with a
configuration record (simcore.config builds it) that names the strategy by its compiled
address, so this kernel compiles once whatever the strategy. It releases the GIL: the run layer
plays chunks of a batch on several threads at once. Game i's random streams depend only on
(seed, i), so results do not depend on the thread count or on how a batch is cut. The kernel
allocates nothing: the caller hands it the state records to play in.
"""

from numba import njit

from kiai.simcore.results import record
from kiai.simcore.rng import seed_streams
from kiai.simcore.rounds import play_game, setup
from kiai.simcore.state import BOOK_SIZE, HIDDEN_SIZE, TABLE_SIZE, clear_record, copy_record
from kiai.simcore.unseen import recount_unseen


@njit(cache=True, inline="always")
def load_tables(pub, cfg):
    """The card, Kiai and family tables, copied from the configuration (constant in a batch)."""
    nc = cfg.n_cards
    pub.n_cards = nc
    for c in range(nc):
        pub.value[c] = cfg.value[c]
        pub.symbol[c] = cfg.symbol[c]
        pub.pen1[c] = cfg.pen1[c]
        pub.pen2[c] = cfg.pen2[c]
        pub.flame[c] = cfg.flame[c]
        pub.rank[c] = cfg.rank[c]
    for sam in range(7):
        pub.kiai_value[sam, 0] = cfg.kiai_value[sam, 0]
        pub.kiai_value[sam, 1] = cfg.kiai_value[sam, 1]
    for f in range(16):
        pub.family_kind[f] = cfg.family_kinds[f]
    load_readings(pub, cfg)


@njit(cache=True, inline="always")
def load_readings(pub, cfg):
    """The rule readings played (simcore.readings.READINGS's order), also over a given state."""
    pub.heal_wounded = cfg.readings[0]
    pub.penalty_once = cfg.readings[1]
    pub.round_end_drawn = cfg.readings[2]
    pub.end_kiai = cfg.readings[3]
    pub.second_fight_always = cfg.readings[4]


@njit(cache=True, inline="always")
def _new_game(book, mem):
    """Counters and the strategy's memory back to zero."""
    clear_record(book, BOOK_SIZE)  # every counter, cursor and error of the game
    book.first = -1  # no first player yet
    mem.plan = 0
    mem.plan_at = 0
    mem.own = -1.0


@njit(cache=True, nogil=True)
def play_games(cfg, seed, game0, out, pub, hid, book, mem, start_pub, start_hid):
    """Games game0 .. game0 + len(out) - 1 of `seed` under cfg, played one after another in the
    records pub, hid, book, mem (left holding the last game's final state); one row of
    simcore.results per game. With cfg.from_state each game starts from start_pub, start_hid."""
    load_tables(pub, cfg)
    g = (pub, hid, book, cfg, mem)
    for i in range(out.shape[0]):
        _new_game(book, mem)
        if cfg.from_state:
            copy_record(pub, start_pub, TABLE_SIZE)
            copy_record(hid, start_hid, HIDDEN_SIZE)
            load_readings(pub, cfg)
            recount_unseen(pub)  # a state edited by hand sets the per-card flags only
        seed_streams(hid, mem, seed, game0 + i)
        mem.game = game0 + i
        if not cfg.from_state:
            setup(g)
        play_game(g)
        record(g, out[i])
