"""Why a set of cards is no combination, in the game's words (C3, C4, C5, T14, law 16).

`conquian.combos.core` gives it (``from conquian.combos.core import explain``); the engines'
error messages quote it (E1).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import JOKER, Face
from .order import Order

__all__ = ["explain"]

# The pack an order's name stands for, where they differ (T26: the Spanish pack, ace high too).
_PACKS = {"spanish-both": "spanish"}


def explain(faces: Iterable[Face], order: Order) -> str:
    """Why these cards are not a combination, in the game's words (for error messages).

    >>> explain(cards("5H 6H"), Order.of("spanish"))
    'a combination needs at least three cards (C3)'
    >>> explain(cards("QC KC AC"), Order.of("spanish"))
    'QC KC AC is not a sequence: in the spanish pack the ace is low only (C4)'
    >>> explain(cards("AC 2C 4C"), Order.of("spanish"))
    'AC 2C 4C is not an unbroken sequence of the spanish pack: 3C is missing (C4)'
    >>> explain(cards("QC KC AC"), Order.of("full"))
    'QC KC AC is not a sequence: in the full pack the ace is low only (T20)'
    >>> explain(cards("KC AC 2C"), Order.of("spanish-both"))
    'KC AC 2C is not a sequence: the ace may be low or high, never both (T26)'
    """
    faces = tuple(faces)
    text = " ".join(map(str, faces))
    if len(faces) < 3:
        return "a combination needs at least three cards (C3)"
    if JOKER in faces:
        return "a joker in a combination must be named, as JK=4D or JK=5 (C5)"
    if len({f.rank for f in faces}) == 1:
        return "a joker in a group is named by rank only, as JK=5 (M9)"
    if len({f.suit for f in faces}) > 1:
        return f"{text} is neither a group (one rank) nor a sequence (one suit) (C3)"
    if order.max_sequence is not None and len(faces) > order.max_sequence:
        return f"a sequence may hold at most {order.max_sequence} cards (T14)"
    if any(order.position[f.rank] < 0 for f in faces):
        return (
            f"{text} has a card that is not in the {_PACKS.get(order.pack, order.pack)} pack (C4)"
        )
    return _broken_sequence(faces, order, text)


def _broken_sequence(faces: tuple[Face, ...], order: Order, text: str) -> str:
    """Why cards of one suit, all in the pack, make no sequence (C3, C4, law 16). The ace is
    blamed only when the cards would be unbroken going on from the top card to the ace;
    otherwise the gap is, naming the missing cards (``3C``, ``3C and 5C``, ``3H to 8H``)."""
    suit = faces[0].suit
    assert suit is not None
    low = sorted(order.position[f.rank] for f in faces)  # the ace at 0
    twice = sorted(p for p in set(low) if low.count(p) > 1)
    ring = order.top if order.ace_high else order.top + 1
    gaps = sum((low[(i + 1) % len(low)] - low[i]) % ring > 1 for i in range(len(low)))
    round_the_corner = low[0] == 0 and gaps <= 1  # unbroken going on from the top to the ace
    if order.ace_high and (twice == [0] or (round_the_corner and not twice)):
        # T26: Conquian's Spanish pack with the ace high as well; law 16: Cooncan's pack.
        rule = "T26" if order.pack == "spanish-both" else "C4, law 16"
        return f"{text} is not a sequence: the ace may be low or high, never both ({rule})"
    if twice:
        return f"{text} is not a sequence: it holds {order.card_at(twice[0], suit)} twice (C3)"
    if round_the_corner:
        # T20: Conquian's full pack keeps the ace low ("The Ace is not in sequence with the King").
        rule = "T20" if order.pack == "full" else "C4"
        return f"{text} is not a sequence: in the {order.pack} pack the ace is low only ({rule})"
    readings = (low, sorted(order.top if p == 0 else p for p in low)) if order.ace_high else (low,)
    missing = min(([p for p in range(r[0], r[-1]) if p not in r] for r in readings), key=len)
    runs: list[list[int]] = []
    for p in missing:
        if runs and runs[-1][-1] == p - 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    names = [" to ".join(str(order.card_at(p, suit)) for p in sorted({r[0], r[-1]})) for r in runs]
    named = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    verb = "is" if len(missing) == 1 else "are"
    head = f"{text} is not an unbroken sequence of the {_PACKS.get(order.pack, order.pack)} pack"
    return f"{head}: {named} {verb} missing (C4)"
