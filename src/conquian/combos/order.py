"""The unbroken order of a pack's ranks for sequences (C4, T14): `Order`.

`conquian.combos.core` gives it (``from conquian.combos.core import Order``); every
function there takes one.
"""

from __future__ import annotations

import attrs

from ..cards import Card, Suit, card_at

__all__ = ["Order"]


@attrs.frozen
class Order:
    """The unbroken order of a pack's ranks, for sequences (C4, T14).

    Positions run from 0 (the ace, low) to `top`; in the 52-card pack the ace
    may also stand at position `top` (13), above the king, but never at both
    ends of one sequence (Cooncan, law 16). The order ``"full"`` is the same 52
    cards with the ace low only, Conquian's full pack (T20: "The Ace is not in
    sequence with the King"). The order ``"spanish-both"`` is the Spanish pack
    with the ace also above the king (T26, `ConquianRules(ace="both")`: "the
    sequence A 2 3 4 5 6 7 J Q K A"), its high ace at position 10.
    `max_sequence` caps a sequence's length (None: no cap).

    >>> o = Order.of("spanish")
    >>> o.top, o.position[7], o.position[11]
    (9, 6, 7)
    >>> Order.of("full").top, Order.of("full").ace_high, Order.of("standard").ace_high
    (12, False, True)
    >>> Order.of("spanish-both").top, Order.of("spanish-both").ace_high
    (10, True)
    """

    pack: str
    max_sequence: int | None = None
    position: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)
    rank_at: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)
    top: int = attrs.field(init=False, repr=False, eq=False)
    ace_high: bool = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        _check(self.pack, self.max_sequence)
        ranks = _RANKS[self.pack]
        position = [-1] * 14
        for pos, rank in enumerate(ranks):
            if position[rank] < 0:
                position[rank] = pos
        object.__setattr__(self, "position", tuple(position))
        object.__setattr__(self, "rank_at", ranks)
        object.__setattr__(self, "top", len(ranks) - 1)
        object.__setattr__(self, "ace_high", ranks[-1] == 1)  # the ace again above the king

    @staticmethod
    def of(pack: str, max_sequence: int | None = None) -> Order:
        """The (shared) order for a pack name and sequence cap (C4, T14); a cap above the
        pack's longest sequence plays as none, so only the orders that differ are kept.

        A pack that is not a pack name, or a cap that is not None or an int of at least 3,
        raises `TypeError` or `ValueError` naming the argument.
        """
        if type(pack) is str and (max_sequence is None or type(max_sequence) is int):
            found = _ORDERS.get((pack, max_sequence))
            if found is not None:
                return found
        _check(pack, max_sequence)
        if max_sequence is not None and max_sequence > _FULL_LENGTH[pack]:
            max_sequence = None
        found = _ORDERS.get((pack, max_sequence))
        if found is None:
            found = _ORDERS[(pack, max_sequence)] = Order(pack, max_sequence)
        return found

    def card_at(self, position: int, suit: Suit) -> Card:
        """The card of `suit` at `position` in this order."""
        return card_at(suit * 13 + self.rank_at[position] - 1)

    @property
    def longest(self) -> int:
        """The longest sequence this order allows."""
        full = self.top if self.ace_high else self.top + 1
        return full if self.max_sequence is None else min(full, self.max_sequence)


# The ranks of each pack in sequence order, the ace low (C4); in Cooncan's 52-card pack the
# ace also stands above the king (law 16); in Conquian's full pack it is low only (T20),
# unless the ace is played high as well (T26: the Spanish pack's "spanish-both", or the
# full pack's "standard").
_RANKS = {
    "spanish": (1, 2, 3, 4, 5, 6, 7, 11, 12, 13),
    "american": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    "standard": (*range(1, 14), 1),
    "full": tuple(range(1, 14)),
    "spanish-both": (1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 1),
}
# The longest sequences (C4, T20, T26: with the ace at both ends, still one ace a sequence).
_FULL_LENGTH = {"spanish": 10, "american": 10, "standard": 13, "full": 13, "spanish-both": 10}
# The orders made so far: at most one per pack and cap from 3 to the pack's longest sequence.
_ORDERS: dict[tuple[str, int | None], Order] = {}


def _check(pack: object, max_sequence: object) -> None:
    """Refuse a `pack` that is no pack name, or a `max_sequence` that is no cap (C4, T14)."""
    if type(pack) is not str:
        raise TypeError(f"pack must be a pack name (str), not {type(pack).__name__}")
    if pack not in _RANKS:
        raise ValueError(f"unknown pack {pack!r}: the pack is one of {', '.join(_RANKS)}")
    if max_sequence is None:
        return
    if type(max_sequence) is not int:
        raise TypeError(f"max_sequence must be an int or None, not {type(max_sequence).__name__}")
    if max_sequence < 3:  # a sequence has three cards at least (C4)
        raise ValueError(f"max_sequence must be at least 3 (got {max_sequence})")
