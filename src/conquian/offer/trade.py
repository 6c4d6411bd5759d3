"""Trading before the starter (rule T21): the trade rounds of a deal of the offer game.

After the deal and before the starter is turned (T11), a deal with
``ConquianRules(trades=n)`` has `n` rounds. In a round every player, in seat
order from the pone, chooses one card of his hand (`Trade`); nobody sees
another's choice; when the last has chosen, every chosen card moves at once
to its chooser's left neighbour (two players: an exchange). After the last
round the starter is turned, on offer to the pone. `ConquianState` holds the
cards chosen in the round under way (their indices, from the pone's) and asks
this module what a trade does and why an action is not one.
"""

from __future__ import annotations

from ..actions import Action, Trade
from ..cards import Card
from ..rules import ConquianRules
from ..state.base import Legal
from .board import HANDS, KEYS, TRADES, Board
from .dealing import Deal
from .trading import chooser

__all__ = ["after_trade", "choosers", "trade_actions", "why_not_trade"]


def trade_actions(hand: int) -> Legal:
    """A trade of each card of `hand`, in canonical order (no plans)."""
    actions: list[Action] = []
    while hand:
        low = hand & -hand
        hand ^= low
        actions.append(TRADES[low.bit_length() - 1])
    return tuple(actions), (None,) * len(actions)


def choosers(deal: Deal, chosen: tuple[int, ...]) -> tuple[int, ...]:
    """The seats that chose the cards `chosen` in the round under way: from the pone round."""
    return tuple([chooser(i, deal.players, deal.dealer) for i in range(len(chosen))])


def after_trade(
    deal: Deal, chosen: tuple[int, ...], index: int, board: Board, player: int, length: int
) -> tuple[int, Card | None, Board, tuple[int, ...] | None]:
    """The card of `index` is chosen by `player`, the `length`-th action of the deal: who
    acts next, the card on offer (the starter once the rounds are over), the board, and
    the cards chosen in the round under way (None once the rounds are over).

    When the last player of the round has chosen, every chosen card moves at once to its
    chooser's left neighbour.
    """
    chosen = (*chosen, index)
    n = deal.players
    if len(chosen) < n:  # the next player chooses; nothing moves yet
        return deal.left[player], None, board, chosen
    pone = deal.left[deal.dealer]
    hands = list(board[HANDS])
    for i, c in enumerate(chosen):  # the choosers from the pone round to the dealer
        hands[(pone + i) % n] &= ~(1 << c)
    for i, c in enumerate(chosen):
        hands[(pone + i + 1) % n] |= 1 << c
    board = (tuple(hands), board[KEYS], 0, 0, ())
    if (length + 1) // n < deal.rules.trades:  # the next round, from the pone
        return pone, None, board, ()
    # T11: the starter, on offer to the pone as if he had turned it.
    return pone, deal.deck[deal.stock_start - 1], board, None


def why_not_trade(rules: ConquianRules, trading: bool, action: Action) -> tuple[str, str]:
    """Why `action` is not legal in the trade rounds, or why a trade is not legal now."""
    if type(action) is not Trade:
        return (
            "the deal is in its trade rounds: you choose a card of your hand to pass to "
            "the player on your left (trade 5H), before the starter is turned",
            "T21",
        )
    if not rules.trades:
        return "these rules have no trading (the option trades is 0)", "T21"
    if not trading:
        return "trading happens only after the deal, before the starter is turned", "T21"
    if action.card is None:
        return "a trade names the card of your hand you pass on, as 'trade 5H'", "T21"
    return f"you trade a card of your hand, and {action.card} is not in it", "T21"
