"""The engine's turn search, offered to bots: every end of a melding turn (T8, T9)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..cards import Card
from ..combos.core import Combination
from ..rules import ConquianRules
from .board import Turn, cards_of, key, mask
from .dealing import Deal
from .tables import combination
from .turn import turn_ends

__all__ = ["turn_finishes"]


def turn_finishes(
    rules: ConquianRules,
    player: int,
    hand: Iterable[Card],
    table: Iterable[Combination],
    pending: Iterable[Card],
    *,
    limit: int = 1000,
) -> Iterator[tuple[tuple[Card, ...], tuple[Combination, ...]]]:
    """Every end of a melding turn: each (hand, table) that `player`, holding `hand` with the
    melds of `table` down and the `pending` cards to place (after a take or a force, nothing
    borrowed yet), can reach by placing every pending card (T8, T9), once each, at most
    `limit` of them. The engine's own turn search, for bots (`conquian.agents`) that judge
    the ends of a turn; the table keeps its order, a split sequence's upper piece last.

    >>> from conquian.combos.core import Order, build
    >>> rules = ConquianRules()
    >>> table = (build(cards("5C 6C 7C"), Order.of("spanish"), 0),)
    >>> ends = turn_finishes(rules, 0, cards("4C 7H 7S KD"), table, cards("7D"))
    >>> sorted({" ".join(map(str, h)) for h, _ in ends})  # the hands left
    ['4C KD', 'KD', 'KD 7H', 'KD 7S']
    """
    deal = Deal(rules, 0, ())
    tables = deal.tables
    turn: Turn = (mask(hand), tuple(key(m) for m in table), mask(pending), 0, ())
    ends = turn_ends(
        tables,
        deal.memo,
        player,
        turn,
        hand_melds=deal.hand_melds,
        other_kind=deal.other_kind,
        limit=limit,
    )
    for end in ends:
        yield cards_of(end[0]), tuple([combination(k) for k in end[1]])
