"""What stays the same over a two-hand deal (T1, T2, T11): `Deal`, and where the cards go."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from .._mypyc import mypyc_attr
from ..cards import Card
from ..errors import RecordError
from ..rules import ConquianRules
from .tables import Memo, Tables, tables_for

__all__ = ["Deal", "check_indices", "deal_positions"]


@mypyc_attr(acyclic=True)
class Deal:
    """What stays the same over a deal (T1): its rules, dealer and deck; the engine's tables
    for the rules and the deal's memo of its searches; where the stock starts in the deck
    (after the starter, T11); when hand cards alone may go down (T8) and whether a
    borrowed card must change kind (T9); the cards melded to win (T2). One object shared
    by every state of the deal; two deals are equal when their rules, dealer and deck are."""

    __slots__ = (
        "dealer",
        "deck",
        "hand_melds",
        "memo",
        "other_kind",
        "rules",
        "say_melds",
        "stock_start",
        "tables",
        "win",
    )

    def __init__(self, rules: ConquianRules, dealer: int, deck: tuple[Card, ...]) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck = deck
        self.tables: Tables = tables_for(rules)
        self.memo = Memo()
        self.stock_start: int = deal_positions(rules.hand_size)[2] + 1
        # T8: hand cards alone go down while melding ("say", "turn"), and at the say ("say").
        self.hand_melds: bool = rules.lay_down != "meld"
        self.say_melds: bool = rules.lay_down == "say"
        self.other_kind: bool = rules.borrow_other_kind  # T9
        self.win: int = rules.win_size

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self is other or (
            self.dealer == other.dealer and self.deck == other.deck and self.rules == other.rules
        )

    def __hash__(self) -> int:
        return hash((self.rules, self.dealer, self.deck))

    def __repr__(self) -> str:
        return f"Deal({self.rules!r}, dealer={self.dealer}, deck=<{len(self.deck)} cards>)"

    def __reduce__(self) -> tuple[object, ...]:
        # The rules, dealer and deck: the tables and a memo are made again from the rules.
        return (Deal, (self.rules, self.dealer, self.deck))


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
    if len(indices) != len(pack) or pack != frozenset(indices):
        raise RecordError(f"it is not the {rules.pack} pack, each card once", what="deck")
