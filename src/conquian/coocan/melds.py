"""What may be melded in Coo-Can (rules K4, K5, K9's Cooch) and what a hand costs (K9).

Pure functions of a hand and a table, the plain combinatorics of the game:

- `new_sets`: the new melds of K4, exactly four cards: four of one rank (any
  suits, the two copies of a card may stand together) or four cards in
  unbroken suit sequence, aces low at all times;
- `cooches`: the one exception, a ten-card straight flush laid as one new
  meld (K9);
- `additions`: what may go onto a meld of the table once a player has laid
  his own first new meld (K5): one card, or a set of four that makes one
  larger valid meld with it;
- `spots`: what a hand left at the end costs (K9).

>>> from conquian.coocan import CooCanRules, deal
>>> from conquian.cards import cards, shuffle
>>> [" ".join(map(str, s)) for s in new_sets(cards("5C 5D 5H 5S 5S 6S 7S 8S"))]
['5C 5D 5H 5S', '5C 5D 5S 5S', '5C 5H 5S 5S', '5D 5H 5S 5S', '5S 6S 7S 8S']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from ..cards import Card, Suit, card_at
from ..combos import Combination, Kind

__all__ = ["additions", "cooches", "extended", "group", "new_sets", "sequence", "spots"]

SET = 4
"""A new meld is four cards (K4)."""
COOCH = 10
"""A Cooch is a ten-card straight flush (K9)."""


def spots(hand: Iterable[Card]) -> int:
    """The spots of a hand (K9): an ace 1, two to ten their face value, J Q K 10 each.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> spots(cards("8C 8D 8H AS"))
    25
    """
    return sum(c.rank if c.rank < 10 else 10 for c in hand)


def _at(suit: Suit, rank: int) -> Card:
    return card_at(suit * 13 + rank - 1)


def group(cards: Sequence[Card], owner: int) -> Combination:
    """The group these cards of one rank make, in canonical order (K4)."""
    return Combination(Kind.GROUP, tuple(sorted(cards)), owner)


def sequence(cards: Sequence[Card], owner: int) -> Combination:
    """The sequence these cards of one suit make, low to high, the ace low (K4)."""
    return Combination(Kind.SEQUENCE, tuple(sorted(cards)), owner)


def _of_rank(hand: Sequence[Card], rank: int) -> list[Card]:
    return [c for c in hand if c.rank == rank]


def _fours_of_rank(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The different four-card choices among `cards` (equal copies counted once)."""
    return sorted(dict.fromkeys(combinations(cards, SET)))


def _runs(hand: Sequence[Card], length: int) -> list[tuple[Card, ...]]:
    """Every straight flush of `length` cards in the hand, the ace low only (K4)."""
    held = {c.index for c in hand}
    out = []
    for suit in Suit:
        for low in range(1, 15 - length):
            run = tuple(_at(suit, r) for r in range(low, low + length))
            if all(c.index in held for c in run):
                out.append(run)
    return out


def new_sets(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The new sets of four in a sorted hand, in canonical order (K4).

    Groups of each rank (ace first), then straight flushes by suit and low card.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> [" ".join(map(str, s)) for s in new_sets(cards("AH 2H 3H 4H QH KH"))]
    ['AH 2H 3H 4H']
    """
    out: list[tuple[Card, ...]] = []
    counts = [0] * 14
    for c in hand:
        counts[c.rank] += 1
    for rank in range(1, 14):
        if counts[rank] >= SET:
            out.extend(_fours_of_rank(_of_rank(hand, rank)))
    out.extend(_runs(hand, SET))
    return out


def cooches(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The ten-card straight flushes in a hand: each a Cooch if laid at once (K9).

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> [str(s[0]) for s in cooches(cards("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD"))]
    ['AD', '2D']
    """
    return _runs(hand, COOCH) if len(hand) > COOCH else []


def _bounds(combo: Combination) -> tuple[int, int]:
    return combo.cards[0].rank, combo.cards[-1].rank


def additions(hand: Sequence[Card], combo: Combination) -> list[tuple[Card, ...]]:
    """What of the hand may go onto `combo` as one meld (K5), in canonical order.

    One card (another card of a group's rank; the next card at either end of a
    sequence, never a position it holds), then a set of four that makes one
    larger valid meld with it (four more of a group's rank, or four cards
    continuing a sequence at either end).

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> seq = sequence(cards("5H 6H 7H 8H"), owner=0)
    >>> [" ".join(map(str, a)) for a in additions(cards("AH 2H 3H 4H 9H 9H"), seq)]
    ['4H', '9H', 'AH 2H 3H 4H']
    """
    out: list[tuple[Card, ...]] = []
    if combo.kind is Kind.GROUP:
        same = _of_rank(hand, combo.cards[0].rank)
        out.extend((c,) for c in dict.fromkeys(same))
        out.extend(_fours_of_rank(same))
        return out
    suit = combo.cards[0].suit
    assert suit is not None
    low, high = _bounds(combo)
    held = {c.index for c in hand}
    for rank in (low - 1, high + 1):
        if 1 <= rank <= 13 and suit * 13 + rank - 1 in held:
            out.append((_at(suit, rank),))
    for start in (low - SET, high + 1):
        if start >= 1 and start + SET - 1 <= 13:
            run = tuple(_at(suit, r) for r in range(start, start + SET))
            if all(c.index in held for c in run):
                out.append(run)
    return out


def extended(combo: Combination, played: Sequence[Card]) -> Combination:
    """`combo` with the cards of an addition (K5) on it."""
    cards = [c for c in combo.cards if isinstance(c, Card)] + list(played)
    if combo.kind is Kind.GROUP:
        return group(cards, combo.owner)
    return sequence(cards, combo.owner)
