"""The bit encoding of the two-hand game: cards, melds and a turn as ints (T1, T8, T9).

A set of cards is a bit mask over `Card.index` (13 times the suit plus the
rank less one). A meld on the table is named by its *key*: its cards' mask
shifted left by `OWNER_BITS` (two: seats 0 to 3, T16), plus its owner's seat
(`owner`; its cards are `meld_cards`). In every Conquian pack, the full pack
included (its ace is low only, T20), a meld's cards decide the combination, so
keys stand for melds inside the engine.

A turn in progress is a `Turn`: the mover's hand, the keys of the table's
melds in order, the pending cards (T8), the cards borrowed this turn (T9), and
for each pending borrowed card the table indices it may not go back to and
whether a group lent it (T9).
A `Board` is the same with every seat's hand: one field of a state.

>>> from conquian import cards
>>> m = mask(cards("AC 2C 3C"))
>>> m, cards_of(m)
(7, (card('AC'), card('2C'), card('3C')))
>>> has_three_of_a_rank(mask(cards("5C 5D 5H"))), has_three_of_a_rank(m)
(True, False)
>>> k = m << OWNER_BITS | 2
>>> owner(k), meld_cards(k) == m, left_of(2, 3), right_of(0, 4)
(2, True, 0, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..actions import Borrow, Discard, Force, Meld, Pass, Take, Trade
from ..cards import Card, Face, card_at
from ..combos.core import Combination

__all__ = [
    "BORROWED",
    "DISCARDS",
    "HAND",
    "HANDS",
    "KEYS",
    "OWNER",
    "OWNER_BITS",
    "PASS",
    "PENDING",
    "SOURCES",
    "TAKES",
    "TRADES",
    "Board",
    "Sources",
    "Turn",
    "borrow_action",
    "cards_of",
    "force_action",
    "has_three_of_a_rank",
    "key",
    "left_of",
    "mask",
    "meld_action",
    "meld_cards",
    "owner",
    "right_of",
]

HAND: Final = 0
"""Index of a `Turn`'s hand (of a `Board`'s hands: `HANDS`)."""
HANDS: Final = 0
"""Index of a `Board`'s hands, one per seat."""
KEYS: Final = 1
"""Index of the keys of the table's melds, in a `Turn` or a `Board`."""
PENDING: Final = 2
"""Index of the pending cards (T8), in a `Turn` or a `Board`."""
BORROWED: Final = 3
"""Index of the cards borrowed this turn (T9), in a `Turn` or a `Board`."""
SOURCES: Final = 4
"""Index of the `Sources` of the pending borrowed cards (T9), in a `Turn` or a `Board`."""

OWNER_BITS: Final = 2
"""The low bits of a meld key that hold its owner's seat (seats 0 to 3, T16)."""

OWNER: Final = 3
"""The mask of those bits: ``key & OWNER`` is the owner's seat (`owner`)."""


def owner(key: int) -> int:
    """The seat that owns meld `key` (its low `OWNER_BITS`)."""
    return key & OWNER


def meld_cards(key: int) -> int:
    """The mask of the cards of meld `key`."""
    return key >> OWNER_BITS


def left_of(seat: int, players: int) -> int:
    """The player on the left of `seat` at a table of `players`: play passes to him, and he
    has the say to the cards `seat` passes or discards (T16, T17)."""
    return (seat + 1) % players


def right_of(seat: int, players: int) -> int:
    """The player on the right of `seat`: the one whose passed card `seat` has the say to
    (T17), onto whose melds he may force it back (T18)."""
    return (seat - 1) % players


Sources = tuple[tuple[int, tuple[int, ...], bool], ...]
"""Each pending borrowed card (its index), with the table indices it may not go back to and
whether a group lent it (T9), sorted by card."""

Turn = tuple[int, tuple[int, ...], int, int, Sources]
"""A turn in progress: (hand, keys of the table's melds, pending, borrowed, sources), read
by the indices `HAND`, `KEYS`, `PENDING`, `BORROWED`, `SOURCES`."""

Board = tuple[tuple[int, ...], tuple[int, ...], int, int, Sources]
"""(every seat's hand, keys of the table's melds, pending, borrowed, sources): a `Turn` with
the hands of all seats, one field of a state."""

CARDS: Final[tuple[Card, ...]] = tuple(map(card_at, range(53)))
"""Every card, by `Card.index`."""

BITS: Final[tuple[int, ...]] = tuple(1 << i for i in range(53))
"""Every card's bit, by `Card.index`."""


def mask(cards: Iterable[Face]) -> int:
    """The mask of `cards` (natural cards only: the two-hand pack has no joker)."""
    m = 0
    for c in cards:
        m |= 1 << c.index  # type: ignore[union-attr]
    return m


def key(meld: Combination) -> int:
    """The key of a meld: its cards' mask shifted left by `OWNER_BITS`, plus its owner."""
    return mask(meld.cards) << OWNER_BITS | meld.owner


def cards_of(m: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    out = []
    while m:
        low = m & -m
        out.append(CARDS[low.bit_length() - 1])
        m ^= low
    return tuple(out)


def has_three_of_a_rank(cards: int) -> bool:
    """Whether `cards` hold three or more cards of one rank (a group may be there, C3).

    The masks of the four suits, shifted to the same place, have a rank's bit
    in common.
    """
    a = cards & 0x1FFF
    b = cards >> 13 & 0x1FFF
    c = cards >> 26 & 0x1FFF
    d = cards >> 39 & 0x1FFF
    return bool(a & b & (c | d) | c & d & (a | b))


# The actions on single cards, made once: by `Card.index`, and for a borrow or a force by
# ``index << 8 | meld index`` (a table holds fewer than 256 melds). At most 52 x 17 of each
# exist (no more than 17 melds fit on a table of the full pack, T20).
TAKES: Final[tuple[Take, ...]] = tuple(Take(c) for c in CARDS[:52])
DISCARDS: Final[tuple[Discard, ...]] = tuple(Discard(c) for c in CARDS[:52])
TRADES: Final[tuple[Trade, ...]] = tuple(Trade(c) for c in CARDS[:52])
PASS: Final = Pass()
_BORROWS: Final[dict[int, Borrow]] = {}
_FORCES: Final[dict[int, Force]] = {}
# The meld actions met, by ``cards << 8 | meld index`` (255 for a new meld): the same for
# every rule set; emptied when `MELD_ACTIONS` are kept (an action dropped is made again).
_MELDS: Final[dict[int, Meld]] = {}
MELD_ACTIONS: Final = 4096


def borrow_action(index: int, source: int) -> Borrow:
    """The action borrowing the card of `index` from meld `source` (T9)."""
    action = _BORROWS.get(index << 8 | source)
    if action is None:
        action = _BORROWS[index << 8 | source] = Borrow(CARDS[index], source=source)
    return action


def meld_action(cards: int, onto: int | None) -> Meld:
    """The action laying down the cards of mask `cards` as a new meld (`onto` None) or adding
    them to meld `onto` (T8)."""
    k = cards << 8 | (255 if onto is None else onto)
    action = _MELDS.get(k)
    if action is None:
        if len(_MELDS) >= MELD_ACTIONS:
            _MELDS.clear()
        action = _MELDS[k] = Meld(cards_of(cards), onto=onto)
    return action


def force_action(index: int, onto: int) -> Force:
    """The action forcing the card of `index` onto meld `onto` (T10)."""
    action = _FORCES.get(index << 8 | onto)
    if action is None:
        action = _FORCES[index << 8 | onto] = Force(CARDS[index], onto=onto)
    return action
