"""The deal of Coo-Can (rule K1): the dealer himself first, 11 cards to him and 10 to the others."""

from __future__ import annotations

from ..cards import Card, card_at
from ..errors import check_seat
from ..rules import CooCanRules
from .state import CooCanState
from .tables import Deal

__all__ = ["deal"]

_PACK = sorted(c.index for c in CooCanRules().pack_cards())
"""The indices of the 104 cards (K1), in order."""


def deal(rules: CooCanRules, deck: tuple[Card, ...], dealer: int) -> CooCanState:
    """The first state of a deal from the whole `deck`, top card first (K1).

    One card at a time, the dealer himself first and then to his left, until
    he has 11 and every other player 10; the rest is the deck, top first.
    There is no starter: the dealer opens with a discard (K2).

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> s = deal(CooCanRules(players=2), CooCanRules().pack_cards(), dealer=1)
    >>> " ".join(map(str, s.hand(1))), s.deck_size
    ('AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC', 83)
    """
    if not isinstance(rules, CooCanRules):
        raise TypeError(f"rules must be CooCanRules (got {type(rules).__name__})")
    n = rules.players
    dealer = check_seat(dealer, n, "dealer")
    deck = tuple(card_at(c.index) for c in deck)  # the engine compares cards by identity
    if sorted(c.index for c in deck) != _PACK:
        raise ValueError("deck must hold the 104 cards of two packs without jokers (K1)")
    hands: list[list[Card]] = [[] for _ in range(n)]
    dealt = n * rules.hand_size + 1
    for k in range(dealt):
        hands[(dealer + k) % n].append(deck[k])
    return CooCanState(
        Deal(rules, dealer, deck),
        tuple(tuple(sorted(h)) for h in hands),
        (),  # the table
        (),  # the discard pile: none yet
        deck[dealt:],  # the deck, top first
        0,  # no reshuffle
        None,
        ((),) * n,
        dealer,  # K2: the dealer opens
        "play",
        None,
        0,
        (False,) * n,
        ((),) * n,
        0,
        [],
        0,
        None,
        ((),) * n,  # no card drawn yet
    )
