"""What stays the same over a two-hand deal (T1, T2, T11): `Deal`, and where the cards go."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

import attrs

from ..cards import Card
from ..errors import RecordError
from ..rules import ConquianRules
from .tables import Memo, Tables, tables_for

__all__ = ["Deal", "check_indices", "deal_positions", "new_deal"]


@attrs.frozen
class Deal:
    """What stays the same over a deal (T1): its rules, dealer and deck; the engine's tables
    for the rules and the deal's memo of its searches; where the stock starts in the deck
    (after the starter, T11); whether hand cards alone may go down (T8); the cards melded
    to win (T2). One object shared by every state of the deal."""

    rules: ConquianRules
    dealer: int
    deck: tuple[Card, ...]
    tables: Tables = attrs.field(eq=False, hash=False, repr=False)
    memo: Memo = attrs.field(eq=False, hash=False, repr=False)
    stock_start: int = attrs.field(eq=False, hash=False, repr=False)
    hand_melds: bool = attrs.field(eq=False, hash=False, repr=False)
    win: int = attrs.field(eq=False, hash=False, repr=False)

    def __reduce__(self) -> tuple[object, ...]:
        # The rules, dealer and deck: the tables and a memo are made again from the rules.
        return (new_deal, (self.rules, self.dealer, self.deck))


def new_deal(rules: ConquianRules, dealer: int, deck: tuple[Card, ...]) -> Deal:
    """The `Deal` of `rules`, `dealer` and `deck`, with the engine's tables and a new memo."""
    start = deal_positions(rules.hand_size)[2] + 1
    return Deal(
        rules,
        dealer,
        deck,
        tables_for(rules),
        Memo(),
        start,
        rules.lay_down == "say",
        rules.win_size,
    )


_DEALS: dict[int, tuple[itemgetter[Any], itemgetter[Any], int]] = {}
_PACKS: dict[str, frozenset[int]] = {}


def deal_positions(size: int) -> tuple[itemgetter[Any], itemgetter[Any], int]:
    """T1: getters of the deck positions dealt to the pone and to the dealer, two at a time
    (with a hand of nine the last round is one card each), and the position of the starter."""
    found = _DEALS.get(size)
    if found is None:
        to_pone: list[int] = []
        to_dealer: list[int] = []
        at = dealt = 0
        while dealt < size:
            k = min(2, size - dealt)
            to_pone.extend(range(at, at + k))
            to_dealer.extend(range(at + k, at + 2 * k))
            at += 2 * k
            dealt += k
        # `itemgetter` of one position gives the item, not a tuple: a hand has two or more.
        found = _DEALS[size] = (itemgetter(*to_pone), itemgetter(*to_dealer), at)
    return found


def check_indices(rules: ConquianRules, indices: list[int]) -> None:
    """Raise `RecordError` unless `indices` are the `Card.index` of the rules' pack, each once."""
    pack = _PACKS.get(rules.pack)
    if pack is None:
        pack = _PACKS[rules.pack] = frozenset(c.index for c in rules.pack_cards())
    if len(indices) != len(pack) or not pack.issuperset(indices) or len(set(indices)) != len(pack):
        raise RecordError(f"it is not the {rules.pack} pack, each card once", what="deck")
