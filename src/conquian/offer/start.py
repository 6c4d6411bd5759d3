"""The deal itself (T1, T11, T16): the first state of a deal of the offer game."""

from __future__ import annotations

from operator import itemgetter

from ..cards import Card
from ..errors import RecordError
from ..rules import ConquianRules
from .board import BITS, CARDS, left_of
from .dealing import Deal, check_indices, deal_positions
from .state import ConquianState

__all__ = ["deal", "deal_indices"]


def deal(rules: ConquianRules, deck: tuple[Card, ...], dealer: int) -> ConquianState:
    """Deal a game of the offer engine from `deck`, the whole pack top card first (T1, T11,
    T16).

    Two cards at a time round the table, the pone (seat ``dealer + 1``) first
    and the dealer last; with an odd hand the last round is one card each.
    ``deck[players * hand_size]`` is turned and on offer to the pone as if he
    had turned it; the rest is the stock. With ``trades`` (T21) the trade rounds
    come first, the pone choosing first, and the starter is turned after them.
    Raises `RecordError` if `deck` is not the rules' pack. `conquian.new_game`
    calls this once it has checked the deck.

    >>> from conquian.offer import deal
    >>> state = deal(ConquianRules(hand_size=9), ConquianRules().pack_cards(), dealer=1)
    >>> " ".join(map(str, state.hand(0))), state.offer
    ('AC 2C 5C 6C QC KC 3D 4D 7D', card('QD'))
    """
    if not all(isinstance(c, Card) for c in deck):
        raise RecordError("the deck holds something that is not a card", what="deck")
    return deal_indices(rules, [c.index for c in deck], dealer)


def deal_indices(rules: ConquianRules, indices: list[int], dealer: int) -> ConquianState:
    """`deal` from the deck's `Card.index` values, top card first (T1, T11).

    `conquian.new_game` deals a seeded shuffle this way. Raises `RecordError`
    unless the indices are those of the rules' pack, each once.

    >>> from conquian.offer import deal_indices
    >>> state = deal_indices(ConquianRules(), [c.index for c in ConquianRules().pack_cards()], 1)
    >>> state.offer
    card('AH')
    >>> deal_indices(ConquianRules(), [0] * 40, 0)
    Traceback (most recent call last):
    ...
    conquian.errors.RecordError: invalid deck: it is not the spanish pack, each card once
    """
    check_indices(rules, indices)
    players = rules.players
    pone = left_of(dealer, players)
    getters, at = deal_positions(rules.hand_size, players)
    pick = itemgetter(*indices)
    deck = pick(CARDS)
    bits = pick(BITS)
    hands = [0] * players
    for i, getter in enumerate(getters):  # from the pone round to the dealer (T16)
        hands[(pone + i) % players] = sum(getter(bits))
    if rules.trades:  # T21: the trade rounds come first, the pone choosing first
        return ConquianState(
            Deal(rules, dealer, deck), pone, None, None, (), (), None,
            (tuple(hands), (), 0, 0, ()), [], 0, (),
        )  # fmt: skip
    return ConquianState(
        Deal(rules, dealer, deck),
        pone,
        deck[at],  # T11: the starter, on offer to the pone as if he had turned it
        "turned",
        (),
        (),
        None,
        (tuple(hands), (), 0, 0, ()),
        [],
        0,
    )
