"""The decision points of docs/rules.md section 13 and their answers: the language between the engine
and a strategy (simcore.gateway).

A strategy's decide(prm, pub, mem, q, seat, a, b, legal) gets one of the questions Q_* for the
samurai at `seat`, with the question's arguments a and b, and `legal`, a bit mask of the legal
answers (bit k set: answer k is legal). Q_ABSENT is the exception: its answer is itself a mask,
any subset of `legal`.
"""

Q_ABSENT = 1  # legal: samurai-id mask of absent tokens; answer: the subset to use (section 11)
Q_IGNORE = 2  # a = card, b = penalty; 0 apply, 1 ignore
Q_BOSS_ORDER = 3  # a = card; 0 the component file's order, 1 reversed
Q_LOSE_DEF = 4  # a = card; 0 hat, 1 farm, 2 doll: which defence card the boss takes
Q_ACTION = 5  # ACT_PASS, ACT_FIGHT, ACT_SUPPORT + receiving seat
Q_CARD = 6  # a = card in hand; CARD_* (R-7)
Q_FIGHT_AGAIN = 7  # 0 no, 1 yes: Kikuchiyo's second fight (R-7b)
Q_KIAI = 8  # KIAI_* (R-10, R-10a)
Q_HEAL = 9  # 0 none, 1 + seat: whose wound token Heihachi's animal Kiai removes
Q_DAISUKE = 10  # 0 none, source * 8 + receiver: Daisuke's Kiai (R-10b)
Q_PLACE = 11  # a = card; 0 confront, 1 defend: Daisuke's receiver places the card
Q_KIKU = 12  # 0 none, 1 + seat: whose last card Kikuchiyo's Kiai discards
Q_KYUZO = 13  # 0 none, giver * 8 + receiver: Kyuzo's Kiai moves a support token
Q_KATSU = 14  # a = cards looked at (2 or 3); answer: permutation index (kiai.PERMS)

QUESTIONS = {
    Q_ABSENT: "absent_tokens",
    Q_IGNORE: "ignore_penalty",
    Q_BOSS_ORDER: "boss_order",
    Q_LOSE_DEF: "lose_defence",
    Q_ACTION: "action",
    Q_CARD: "card",
    Q_FIGHT_AGAIN: "fight_again",
    Q_KIAI: "kiai",
    Q_HEAL: "heal",
    Q_DAISUKE: "daisuke",
    Q_PLACE: "place",
    Q_KIKU: "kikuchiyo",
    Q_KYUZO: "kyuzo",
    Q_KATSU: "katsushiro",
}

ACT_PASS = 0
ACT_FIGHT = 1
ACT_SUPPORT = 2  # + the receiving seat

CARD_CONFRONT = 0
CARD_DEFEND = 1
CARD_REDRAW = 2  # Katsushiro
CARD_KYUZO = 3  # Kyuzo's discard
CARD_GIVE_LEFT = 4  # Heihachi (even) or Daisuke (odd)
CARD_GIVE_RIGHT = 5

KIAI_DECLINE = 0
KIAI_PLAIN = 1  # activate without the effect
KIAI_EFFECT = 2
