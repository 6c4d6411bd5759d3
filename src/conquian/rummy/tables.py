"""What Cooncan's rules read at every turn, made once at import: the order, the actions, bit tables.

Nothing here changes while the program runs. Actions and combinations are
values, so one object per card serves every state and every thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..actions import Action, Discard, Draw, Force, Meld, Take
from ..cards import JOKER, Card, Face, NamedJoker, make_pack, pip_value
from ..combos.core import Combination, Kind, Order, fitting
from ..state.base import Legal

__all__ = [
    "DISCARDS",
    "DISCARD_ENTRIES",
    "DRAW",
    "DRAW_ENTRY",
    "DRAW_ONLY",
    "DRAW_OR_TAKE",
    "ORDER",
    "TAKES",
    "TAKE_ENTRIES",
    "Entry",
    "Phase",
    "Play",
    "fit_of",
    "has_shiftable_joker",
    "may_meld",
    "physical",
    "pips",
]

ORDER = Order.of("standard")
"""The 52-card order: the ace low or high, never round the corner (C4, law 16)."""

Phase = Literal["draw", "play"]
"""Before the player has drawn or taken this turn (``"draw"``), and after (``"play"``)."""

Entry = tuple[Action, "Combination | None", tuple[Card, ...]]
"""A legal action with what `apply` needs: the combination it leaves on the table
(None: worked out when it is chosen) and the cards it takes from the hand."""

Play = tuple["Meld | Force", "Combination | None", tuple[Card, ...]]
"""An `Entry` whose action is a Meld or a Force."""

DRAW = Draw()
DISCARDS = tuple(Discard(c) for c in make_pack(jokers=1))
"""``discard`` of each card, by `Card.index`."""
TAKES = tuple(Take(c) for c in make_pack(jokers=1))
"""``take`` of each card, by `Card.index`."""
DRAW_ENTRY: Entry = (DRAW, None, ())
TAKE_ENTRIES: tuple[Entry, ...] = tuple((a, None, ()) for a in TAKES)
DISCARD_ENTRIES: tuple[Entry, ...] = tuple((a, None, (a.card,)) for a in DISCARDS)
DRAW_ONLY: Legal = ((DRAW,), (DRAW_ENTRY,))
"""The legal actions of a draw phase in which no stock card may be taken."""
DRAW_OR_TAKE: tuple[Legal, ...] = tuple(
    ((DRAW, take), (DRAW_ENTRY, entry)) for take, entry in zip(TAKES, TAKE_ENTRIES, strict=True)
)
"""The legal actions of a draw phase with a closed stock whose top card may be taken, by
the card's `Card.index`."""


def pips(hand: Sequence[Card]) -> int:
    """What a hand left at the end of a deal costs its holder (M7, laws 23–24).

    The joker counts 15, an ace 11, a king, queen, jack or ten 10, and the
    other cards their face value (`conquian.cards.pip_value`).

    >>> from conquian import cards
    >>> pips(cards("QS QS"))
    20
    >>> pips(cards("JK AH 9H 2C"))
    37
    """
    return sum(pip_value(c) for c in hand)


def physical(face: Face) -> Card:
    """The card itself: a named joker is the joker (C5)."""
    return JOKER if type(face) is NamedJoker else face  # type: ignore[return-value]


def has_shiftable_joker(combo: Combination) -> bool:
    """Whether a sequence has an unshifted joker at an end (M9, law 18)."""
    if combo.kind is not Kind.SEQUENCE:
        return False
    first, last = combo.cards[0], combo.cards[-1]
    return (type(first) is NamedJoker and not first.shifted) or (
        type(last) is NamedJoker and not last.shifted
    )


def fit_of(combo: Combination) -> tuple[Card, ...]:
    """The cards that fit `combo` alone, without repeats (M5): kept beside the table."""
    return tuple(dict.fromkeys(fitting(combo, ORDER)))


# -- the melding pre-filter (M4, C5) -------------------------------------------------------
#
# A rank's 5-bit field holds at most 8 cards (the double pack) and has bit 4
# set after adding 16 - n exactly when it holds n or more. A suit's 16-bit
# lane holds positions 0-13 (the ace at both ends); bits 14 and 15 stay empty,
# so no window of three places straddles two suits.

_RANK_COUNT = tuple(1 << 5 * (i % 13 + 1) for i in range(52))
_FIELD_TOPS = sum(16 << 5 * rank for rank in range(1, 14))
_AT_LEAST_2 = sum(14 << 5 * rank for rank in range(1, 14))
_AT_LEAST_3 = sum(13 << 5 * rank for rank in range(1, 14))
_PLACES = tuple(
    (1 | 1 << 13) << 16 * (i // 13) if i % 13 == 0 else 1 << (16 * (i // 13) + i % 13)
    for i in range(52)
)


def may_meld(hand: Sequence[Card]) -> bool:
    """Whether a new combination could be laid from `hand` at all (M4, C5): a necessary condition.

    Every combination holds a natural card and, around it, three places of
    one rank or of one suit in a row (the ace at both ends) with no more gaps
    than the jokers in hand can fill: two jokers and any natural card; one
    joker and a pair, or two places of a suit at most two apart; no joker
    and three of a rank or three places in a row. When this is false
    `conquian.combos.core.melds_in` finds nothing; when true it decides. Pinned
    against `melds_in` by
    ``tests/rummy/test_rummy_package.py::test_melding_prefilter_never_hides_a_meld``.

    >>> from conquian import cards
    >>> may_meld(cards("5C JK JK")), may_meld(cards("JK JK")), may_meld(cards("5C 9D JK"))
    (True, False, False)
    """
    jokers = 0
    ranks = places = 0
    for c in hand:
        index = c.index
        if index == 52:
            jokers += 1
        else:
            ranks += _RANK_COUNT[index]
            places |= _PLACES[index]
    if jokers >= 2:
        return len(hand) > jokers
    if jokers:
        return bool((ranks + _AT_LEAST_2) & _FIELD_TOPS or places & ((places >> 1) | (places >> 2)))
    return bool((ranks + _AT_LEAST_3) & _FIELD_TOPS or places & (places >> 1) & (places >> 2))
