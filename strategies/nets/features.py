"""What the learned strategy sees of a question: a vector of numbers from the public table only
(R-19), relative to the samurai asked (seat `s`: "self", his left and right neighbours).

The same function fills the vector when the lookahead records what it weighed (the training
labels) and when `learned` plays, so the two can never drift apart. SCHEMA numbers this layout:
a model file records it, and a model of another schema is refused (strategies.nets.modelfile).

Layout (NAMES gives every entry):
- self: margin, Kiai value, total, wound state (one-hot), defence slots held, line length, what
  his last card costs him each turn, whether his support token is home, his samurai (one-hot);
- left and right neighbour: margin, passed, symbols missing, wound, samurai (one-hot);
- the table: round (one-hot), barricades, farmsteads, families, cards in the raider and
  intruder stacks, samurai still in, team size (one-hot 2..7), which samurai are present,
  absent tokens left;
- the unseen cards (section 12): share by value and by symbol, the chance that the next card
  overcomes self or lands on his Kiai, the known next card;
- what `keeper` (the slot keeper, strategies.keeper) counts and would answer: fight_odds, and
  its answer to this question (one-hot over the question's options);
- the question: Kikuchiyo's second fight; for a card in hand, its value, symbol, penalty cost,
  flame, who holds it and which options are legal;
- keeper's reasoning about each option, so that a network learns corrections to it: its
  fighting rule (forced either way, or the slack between its threshold and the counted odds),
  what a Support is worth to each samurai, what each way of handling a card in hand is worth
  (strategies.helpers.playbook.option_value) and its score for confronting rather than defending; and
  for the card in hand, whether it lands exactly on the Kiai of, or overcomes, the holder and
  each neighbour, and whether each neighbour could defend it.
"""

import numpy as np
from numba import njit

from kiai.simcore.obs import active_count, can_defend, last_card, left_of, popcount, right_of, talent_mask
from kiai.simcore.questions import Q_ACTION, Q_CARD, Q_FIGHT_AGAIN
from kiai.strategies.helpers.playbook import token_value, option_values
from kiai.strategies.helpers.reasoning import KIAI_BONUS, confront_score, fight_rule
from kiai.strategies.helpers.sense import STAY_CHANCE, fight_odds, kept_cost, missing, next_known, seat_danger, state_costs
from kiai.strategies.helpers.inlining import cold

SCHEMA = 2
NO_RULE = (0, 0.0, False)  # fill_counted's rule for a question that is not about fighting
NO_VALUES = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # ... and option values for one that is not about a card in hand
N_ACTION = 8  # action slots: pass, fight, support to the seat 1..6 places to the left
N_CARD = 6  # card slots: the CARD_* answers


def _names() -> tuple[str, ...]:
    sam = ("heihachi", "daisuke", "gorobei", "kanbei", "kyuzo", "katsushiro", "kikuchiyo")
    out = ["self.margin", "self.kiai", "self.total"]
    out += [f"self.wound{w}" for w in range(4)]
    out += ["self.hat", "self.farm", "self.doll", "self.line", "self.last_cost", "self.token_home"]
    out += [f"self.is_{x}" for x in sam]
    for side in ("left", "right"):
        out += [f"{side}.margin", f"{side}.passed", f"{side}.missing", f"{side}.wound"]
        out += [f"{side}.is_{x}" for x in sam]
    out += [f"round{r}" for r in (1, 2, 3)]
    out += ["barricades", "barricades_share", "farmsteads", "families", "raider", "intruder", "active"]
    out += [f"team{n}" for n in range(2, 8)]
    out += [f"present.{x}" for x in sam]
    out += ["absent_left"]
    out += [f"unseen.value{v}" for v in range(1, 7)]
    out += ["unseen.hat", "unseen.farm", "unseen.doll", "unseen.overcome", "unseen.kiai"]
    out += ["known", "known.value"]
    out += ["odds.defend", "odds.discard", "odds.kiai", "odds.fit", "odds.give", "odds.over", "odds.cost"]
    out += [f"keeper.slot{k}" for k in range(N_ACTION)]
    out += ["second_fight", "card.value", "card.none", "card.hat", "card.farm", "card.doll", "card.cost",
            "card.flame", "card.received", "card.redrawn"]
    out += [f"card.legal{k}" for k in range(N_CARD)]
    out += ["fight.must", "fight.never", "fight.slack"]
    out += [f"support.value{k}" for k in range(1, 7)]
    out += [f"card.option{k}" for k in range(N_CARD)]
    out += ["card.confront_score", "card.kiai", "card.over"]
    for side in ("left", "right"):
        out += [f"card.{side}_defends", f"card.{side}_kiai", f"card.{side}_over"]
    return tuple(out)


NAMES = _names()
N_FEATURES = len(NAMES)
LABEL_WIDTH = 2 + N_FEATURES + N_ACTION  # a weighed question: q, features, each slot's value, the choice


@njit(cache=True)
def rel(pub, s, t):
    """Seat t as seen from s: 0 himself, 1 his left neighbour, ..., n - 1 his right one (R-2)."""
    d = t - s
    return d + pub.n if d < 0 else d


@njit(cache=True)
def action_slot(pub, s, action):
    """The slot of an answer to Q_ACTION: 0 pass, 1 fight, 1 + k: support to the seat k places
    to the left of s."""
    if action < 2:
        return action
    return 1 + rel(pub, s, action - 2)


@njit(cache=True)
def _neighbour(pub, x, i, t):
    x[i] = (pub.kiai[t] - pub.total[t]) / 13.0
    x[i + 1] = pub.passed[t]
    x[i + 2] = missing(pub, t) / 3.0
    x[i + 3] = pub.wound[t] / 3.0
    for k in range(7):
        x[i + 4 + k] = 1.0 if pub.samurai[t] == k else 0.0
    return i + 11


@njit(cache=True)
def _clip(v, lo, hi):
    return lo if v < lo else (hi if v > hi else v)


@njit(cache=True)
def _card_for(pub, t, c, x, i):
    """What card c would do for seat t (a neighbour it may be given to)."""
    v = pub.value[c]
    m = pub.kiai[t] - pub.total[t]
    x[i] = 1.0 if pub.passed[t] == 0 and can_defend(pub, t, c) else 0.0
    x[i + 1] = 1.0 if v == m else 0.0
    x[i + 2] = 1.0 if v > m else 0.0


@njit(cache=True)
@cold
def fill(p, pub, q, s, a, legal, keeper_slot, x):
    """Write the features of question q put to seat s (a: the card in hand, legal: the legal
    answers, keeper_slot: the slot of keeper's answer, p: keeper's parameters) into x; returns
    how many (N_FEATURES)."""
    rule = fight_rule(p, pub, s) if q == Q_ACTION or q == Q_FIGHT_AGAIN else NO_RULE
    values, score = card_reasoning(p, pub, s, a, legal) if q == Q_CARD else (NO_VALUES, 0.0)
    return fill_counted(p, pub, q, s, a, legal, keeper_slot, x, rule, fight_odds(pub, s), values, score)


@njit(cache=True)
def card_reasoning(p, pub, s, c, legal):
    """keeper's reasoning about card c in s's hand (Q_CARD): the value of each legal option
    (playbook.option_values) and, when he may confront or defend it, the score of confronting
    (reasoning.confront_score; else NaN). The features read both, and keeper.card_answer turns
    them into keeper's answer."""
    values = option_values(pub, s, c, legal, KIAI_BONUS, p.stay, 1.0)
    return values, confront_score(p, pub, s, c) if (legal & 3) == 3 else np.nan


# long: the feature vector written in its schema's order, one block per feature group; cut up, that order
# (which every model file depends on) would be spread over several functions
@njit(cache=True)
def fill_counted(p, pub, q, s, a, legal, keeper_slot, x, rule, odds, values, score):
    """fill, given s's fighting rule (reasoning.fight_rule; read for Q_ACTION and Q_FIGHT_AGAIN only),
    count (sense.fight_odds) and, for Q_CARD, card_reasoning's option values and score, which
    learned also uses for keeper's answer.

    One function of some hundred and twenty lines on purpose: it writes the features in the order
    NAMES lists them, at fixed positions, so the two read side by side; each section is a few lines
    under its comment (self, neighbours, the table, the question)."""
    n = pub.n
    # ---- self
    x[0] = (pub.kiai[s] - pub.total[s]) / 13.0
    x[1] = pub.kiai[s] / 13.0
    x[2] = pub.total[s] / 13.0
    for w in range(4):
        x[3 + w] = 1.0 if pub.wound[s] == w else 0.0
    for slot in range(3):
        x[7 + slot] = 1.0 if pub.defence[s, slot] >= 0 else 0.0
    x[10] = pub.line_n[s] / 8.0
    cb, cw, cnd = state_costs(pub, s)
    tm = talent_mask(pub, s)
    x[11] = min(kept_cost(pub, last_card(pub, s), tm, cb, cw, cnd), 40.0) / 10.0
    x[12] = 1.0 if pub.holder[s] == s else 0.0
    for k in range(7):
        x[13 + k] = 1.0 if pub.samurai[s] == k else 0.0
    i = _neighbour(pub, x, 20, left_of(pub, s))
    i = _neighbour(pub, x, i, right_of(pub, s))
    # ---- the table
    for r in range(3):
        x[i + r] = 1.0 if pub.round_no == r + 1 else 0.0
    i += 3
    x[i] = pub.barricades / 10.0
    x[i + 1] = pub.barricades / max(pub.barricades_max, 1)
    x[i + 2] = pub.farmsteads / 6.0
    x[i + 3] = pub.families / 3.0
    x[i + 4] = pub.raider_n / 40.0
    x[i + 5] = pub.intruder_n / 40.0
    x[i + 6] = active_count(pub) / n
    i += 7
    for m in range(2, 8):
        x[i + m - 2] = 1.0 if n == m else 0.0
    i += 6
    present = 0
    for t in range(n):
        present |= 1 << pub.samurai[t]
    for k in range(7):
        x[i + k] = (present >> k) & 1
    i += 7
    x[i] = popcount(pub.absent_avail) / 5.0
    i += 1
    # ---- the unseen cards, from the engine's bins (R-19a)
    u = pub.raider_n + pub.intruder_n
    inv = 1.0 / u if u > 0 else 0.0
    m = pub.kiai[s] - pub.total[s]
    over = 0
    on_kiai = 0
    hats = 0
    farms = 0
    dolls = 0
    for v in range(1, 7):
        b = v * 4
        cnt = pub.bin_n[b] + pub.bin_n[b + 1] + pub.bin_n[b + 2] + pub.bin_n[b + 3]
        x[i + v - 1] = cnt * inv
        if v > m:
            over += cnt
        elif v == m:
            on_kiai += cnt
        hats += pub.bin_n[b + 1]
        farms += pub.bin_n[b + 2]
        dolls += pub.bin_n[b + 3]
    i += 6
    x[i] = hats * inv
    x[i + 1] = farms * inv
    x[i + 2] = dolls * inv
    x[i + 3] = over * inv
    x[i + 4] = on_kiai * inv
    k = next_known(pub)
    x[i + 5] = 1.0 if k >= 0 else 0.0
    x[i + 6] = pub.value[k] / 6.0 if k >= 0 else 0.0
    i += 7
    # ---- keeper's counting and answer
    for j in range(6):
        x[i + j] = odds[j]
    x[i + 6] = min(odds[6], 40.0) / 10.0
    i += 7
    for j in range(8):
        x[i + j] = 1.0 if keeper_slot == j else 0.0
    i += 8
    # ---- the question
    x[i] = 1.0 if q == Q_FIGHT_AGAIN else 0.0
    card = q == Q_CARD
    c = a if card else -1
    x[i + 1] = pub.value[c] / 6.0 if card else 0.0
    for sym in range(4):
        x[i + 2 + sym] = 1.0 if card and pub.symbol[c] == sym else 0.0
    x[i + 6] = min(kept_cost(pub, c, tm, cb, cw, cnd), 40.0) / 10.0 if card else 0.0
    x[i + 7] = pub.flame[c] if card else 0.0
    x[i + 8] = 1.0 if card and s != pub.acting else 0.0
    x[i + 9] = 1.0 if card and (pub.redrawn >> s) & 1 else 0.0
    i += 10
    for j in range(6):
        x[i + j] = 1.0 if card and (legal >> j) & 1 else 0.0
    i += 6
    # ---- keeper's reasoning: the fighting rule, Support, the card's options
    for j in range(3 + 6 + N_CARD + 3 + 6):
        x[i + j] = 0.0
    if q == Q_ACTION or q == Q_FIGHT_AGAIN:
        forced, theta, _strict = rule
        x[i] = 1.0 if forced > 0 else 0.0
        x[i + 1] = 1.0 if forced < 0 else 0.0
        if forced == 0:
            x[i + 2] = _clip(theta - STAY_CHANCE * p.stay * odds[6] - odds[5], -2.0, 2.0)
        if q == Q_ACTION:
            for t in range(n):
                if (legal >> (2 + t)) & 1:
                    x[i + 2 + rel(pub, s, t)] = _clip(token_value(pub, s, t) * (1.0 + 0.2 * seat_danger(pub, t)), 0.0, 10.0) / 5.0
    i += 3 + 6
    if card:
        for opt in range(N_CARD):
            if (legal >> opt) & 1:
                x[i + opt] = _clip(values[opt], -10.0, 10.0) / 5.0
        if (legal & 3) == 3:
            x[i + N_CARD] = _clip(score, -10.0, 10.0) / 10.0
        v = pub.value[c]
        x[i + N_CARD + 1] = 1.0 if v == m else 0.0
        x[i + N_CARD + 2] = 1.0 if v > m else 0.0
        _card_for(pub, left_of(pub, s), c, x, i + N_CARD + 3)
        _card_for(pub, right_of(pub, s), c, x, i + N_CARD + 6)
    return i + N_CARD + 9


__all__ = ["LABEL_WIDTH", "N_ACTION", "N_CARD", "N_FEATURES", "NAMES", "NO_RULE", "NO_VALUES", "SCHEMA", "action_slot", "card_reasoning", "fill",
           "fill_counted", "rel"]
