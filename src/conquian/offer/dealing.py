"""What stays the same over a deal of the offer game (T1, T2, T11, T16): `Deal`, and where the
cards go."""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Final

from .._mypyc import mypyc_attr
from ..cards import Card
from ..errors import RecordError
from ..rules import ConquianRules
from ..state.result import Outcome, Result
from .board import left_of, right_of
from .tables import Memo, Tables, tables_for

__all__ = ["Deal", "check_indices", "deal_positions", "results"]


@mypyc_attr(acyclic=True)
class Deal:
    """What stays the same over a deal (T1): its rules, dealer and deck; the engine's tables
    for the rules and the deal's memo of its searches; where the stock starts in the deck
    (after the starter, T11); when hand cards alone may go down (T8) and whether a
    borrowed card must change kind (T9); the cards melded to win (T2); its `results`
    (T13, T19: `results`); the number of
    `players` and, by seat, the player on his `left` and on his `right` (T16, T17:
    `board.left_of`, `board.right_of`). One object shared by every state of the deal;
    two deals are equal when their rules, dealer and deck are."""

    __slots__ = (
        "dealer",
        "deck",
        "hand_melds",
        "left",
        "memo",
        "other_kind",
        "players",
        "results",
        "right",
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
        players = rules.players
        self.players: int = players
        self.left: tuple[int, ...]
        self.right: tuple[int, ...]
        self.left, self.right = _NEIGHBOURS[players]
        self.results = results(players)
        self.stock_start: int = deal_positions(rules.hand_size, players)[1] + 1
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


def _results(players: int) -> tuple[tuple[Result, ...], Result]:
    wins = tuple(
        [
            Result(
                outcome=Outcome.WIN,
                winner=w,
                payments=tuple([players - 1 if p == w else -1 for p in range(players)]),
            )
            for w in range(players)
        ]
    )
    return wins, Result(outcome=Outcome.TABLEAU, winner=None, payments=(0,) * players)


_RESULTS: Final = {n: _results(n) for n in (2, 3, 4)}


_NEIGHBOURS: Final = {
    n: (
        tuple([left_of(s, n) for s in range(n)]),
        tuple([right_of(s, n) for s in range(n)]),
    )
    for n in (2, 3, 4)
}
"""By the number of players (T16), each seat's left and right neighbours (T17)."""


def results(players: int) -> tuple[tuple[Result, ...], Result]:
    """The results a deal of `players` may end with (T13, T19): by winner, one counter from
    each loser to the winner; and the tableau, nothing paid.

    >>> wins, tableau = results(3)
    >>> wins[1].payments, tableau.payments
    ((-1, 2, -1), (0, 0, 0))
    """
    return _RESULTS[players]


_DEALS: dict[tuple[int, int], tuple[tuple[itemgetter[Any], ...], int]] = {}
_PACKS: dict[str, frozenset[int]] = {}


def deal_positions(size: int, players: int = 2) -> tuple[tuple[itemgetter[Any], ...], int]:
    """T1, T16: getters of the deck positions dealt to each player in the order of the deal,
    the pone (seat ``dealer + 1``) first and the dealer last, two at a time round the table
    (with an odd hand the last round is one card each), and the position of the starter.

    >>> getters, starter = deal_positions(7, 4)
    >>> getters[0](range(40)), getters[3](range(40)), starter
    ((0, 1, 8, 9, 16, 17, 24), (6, 7, 14, 15, 22, 23, 27), 28)
    """
    found = _DEALS.get((size, players))
    if found is None:
        to: list[list[int]] = [[] for _ in range(players)]
        at = dealt = 0
        while dealt < size:
            k = min(2, size - dealt)
            for seat in to:
                seat.extend(range(at, at + k))
                at += k
            dealt += k
        # `itemgetter` of one position gives the item, not a tuple: a hand has two or more.
        getters = tuple([itemgetter(*positions) for positions in to])
        found = _DEALS[(size, players)] = (getters, at)
    return found


def check_indices(rules: ConquianRules, indices: list[int]) -> None:
    """Raise `RecordError` unless `indices` are the `Card.index` of the rules' pack, each once."""
    pack = _PACKS.get(rules.pack)
    if pack is None:
        pack = _PACKS[rules.pack] = frozenset(c.index for c in rules.pack_cards())
    if len(indices) != len(pack) or pack != frozenset(indices):
        raise RecordError(f"it is not the {rules.pack} pack, each card once", what="deck")
