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
from ..combos.core import Combination, Kind

__all__ = [
    "RUNS",
    "Held",
    "additions",
    "cooches",
    "extended",
    "group",
    "new_sets",
    "sequence",
    "spots",
]

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


def _at(suit: int, rank: int) -> Card:
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


RUNS: tuple[tuple[dict[int, tuple[Card, ...]], ...], ...] = tuple(
    tuple(
        {low: tuple(_at(suit, r) for r in range(low, low + n)) for low in range(1, 15 - n)}
        for n in range(COOCH + 1)
    )
    for suit in Suit
)
"""``RUNS[suit][n][low]``: the straight flush of `n` cards from `low` up, the ace low (K4)."""
_FULL = (0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023)
"""The bit masks of `n` ranks in a row, by `n`."""


class Held:
    """A hand read once for melding: how many of each card, and per suit the ranks held (as
    bits, bit `r` for rank `r`), so that each question below is a few bit tests."""

    __slots__ = ("counts", "hand", "masks", "ranks")

    def __init__(self, hand: Sequence[Card]) -> None:
        self.hand = hand
        counts = [0] * 52
        ranks = [0] * 14
        masks = [0, 0, 0, 0]
        for c in hand:
            counts[c.index] += 1
            ranks[c.rank] += 1
            masks[c.index // 13] |= 1 << c.rank
        self.counts = counts
        self.ranks = ranks
        self.masks = masks

    def _runs(self, n: int) -> list[tuple[Card, ...]]:
        out = []
        full = _FULL[n]
        for suit in range(4):
            mask = self.masks[suit]
            if mask.bit_count() >= n:
                runs = RUNS[suit][n]
                for low in range(1, 15 - n):
                    if (mask >> low) & full == full:
                        out.append(runs[low])
        return out

    def new_sets(self) -> list[tuple[Card, ...]]:
        """The new sets of four (K4): groups by rank, then straight flushes by suit and low card."""
        out: list[tuple[Card, ...]] = []
        ranks = self.ranks
        for rank in range(1, 14):
            if ranks[rank] >= SET:
                out.extend(_fours_of_rank(_of_rank(self.hand, rank)))
        out.extend(self._runs(SET))
        return out

    def cooches(self) -> list[tuple[Card, ...]]:
        """The ten-card straight flushes, when the hand can lay one and still discard (K9)."""
        return self._runs(COOCH) if len(self.hand) > COOCH else []

    def additions(self, combo: Combination) -> list[tuple[Card, ...]]:
        """What may go onto `combo` as one meld (K5): one card, then a set of four."""
        first = combo.cards[0]
        if combo.kind is Kind.GROUP:
            rank = first.rank
            if not self.ranks[rank]:
                return []
            counts = self.counts
            out: list[tuple[Card, ...]] = [
                (card_at(i),) for i in range(rank - 1, 52, 13) if counts[i]
            ]
            if self.ranks[rank] >= SET:
                out.extend(_fours_of_rank(_of_rank(self.hand, rank)))
            return out
        assert first.suit is not None  # Coo-Can has no jokers (K1)
        suit = int(first.suit)
        mask = self.masks[suit]
        if not mask:
            return []
        low, high = first.rank, combo.cards[-1].rank
        out = []
        if low > 1 and mask >> (low - 1) & 1:
            out.append((_at(suit, low - 1),))
        if high < 13 and mask >> (high + 1) & 1:
            out.append((_at(suit, high + 1),))
        runs = RUNS[suit][SET]
        if low > SET and (mask >> (low - SET)) & 15 == 15:
            out.append(runs[low - SET])
        if high <= 13 - SET and (mask >> (high + 1)) & 15 == 15:
            out.append(runs[high + 1])
        return out


def new_sets(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The new sets of four in a sorted hand, in canonical order (K4).

    Groups of each rank (ace first), then straight flushes by suit and low card.

    >>> from conquian.cards import cards
    >>> [" ".join(map(str, s)) for s in new_sets(cards("AH 2H 3H 4H QH KH"))]
    ['AH 2H 3H 4H']
    """
    return Held(hand).new_sets()


def cooches(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The ten-card straight flushes in a hand: each a Cooch if laid at once (K9).

    >>> from conquian.cards import cards
    >>> [str(s[0]) for s in cooches(cards("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD"))]
    ['AD', '2D']
    """
    return Held(hand).cooches()


def additions(hand: Sequence[Card], combo: Combination) -> list[tuple[Card, ...]]:
    """What of the hand may go onto `combo` as one meld (K5), in canonical order.

    One card (another card of a group's rank; the next card at either end of a
    sequence, never a position it holds), then a set of four that makes one
    larger valid meld with it (four more of a group's rank, or four cards
    continuing a sequence at either end).

    >>> from conquian.cards import cards
    >>> seq = sequence(cards("5H 6H 7H 8H"), owner=0)
    >>> [" ".join(map(str, a)) for a in additions(cards("AH 2H 3H 4H 9H 9H"), seq)]
    ['4H', '9H', 'AH 2H 3H 4H']
    """
    return Held(hand).additions(combo)


def extended(combo: Combination, played: Sequence[Card]) -> Combination:
    """`combo` with the cards of an addition (K5) on it."""
    cards = [c for c in combo.cards if isinstance(c, Card)] + list(played)
    if combo.kind is Kind.GROUP:
        return group(cards, combo.owner)
    return sequence(cards, combo.owner)
