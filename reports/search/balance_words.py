"""kiai balance's settings in plain words: what a setting changes from the printed level (the page
and balance.json say it), and a setting in short (the progress lines). A setting is one value per
knob, in reports.search.balance.KNOBS order; `sp` a reports.search.balance.Space."""

from __future__ import annotations

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(k: int) -> str:
    return NUMBERS[k] if k < len(NUMBERS) else str(k)


def _more_or_fewer(d: int, noun: str, plural: str, after: str = "") -> str | None:
    if d == 0:
        return None
    word = plural if abs(d) > 1 else noun
    return f"{_count(abs(d))} more {word}{after}" if d > 0 else f"{_count(abs(d))} {word} fewer{after}"


def in_words(sp, s: tuple) -> str:
    """What setting s changes from the printed level, in plain words ("3 more barricades and one
    boss fewer"), or "as printed"."""
    p = sp.printed
    parts = [
        _more_or_fewer(s[0] - p[0], "barricade", "barricades"),
        _more_or_fewer(s[1] - p[1], "plunderer", "plunderers", " per samurai"),
        _more_or_fewer(s[2] - p[2], "lieutenant", "lieutenants"),
        _more_or_fewer(s[3] - p[3], "boss", "bosses"),
        None if s[4] == p[4] else ("farmstead penalties" if s[4] else "no farmstead penalties"),
        None if s[5] == p[5] else ("family bonuses" if s[5] else "no family bonuses"),
    ]
    parts = [x for x in parts if x]
    if not parts:
        return "as printed"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def knob_text(s: tuple) -> str:
    """A setting in short (progress lines): barricades +e, plunderers, lieutenants, bosses, switches."""
    return (f"extra barricades {s[0]}, plunderers {s[1]}/samurai, lieutenants {s[2]}, bosses {s[3]}, "
            f"farmstead penalties {'on' if s[4] else 'off'}, family bonuses {'on' if s[5] else 'off'}")
