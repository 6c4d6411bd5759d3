"""What trading in Conquian shows each player (T21, C6), read from a history alone.

The trade rounds are the first ``trades * players`` actions of a deal with
``trades`` (T21): in each round the players choose in seat order from the pone,
so the action at history index ``i`` of the rounds is the choice of seat
``(pone + i % players) % players``. When the last of a round has chosen, every
chosen card moves to its chooser's left neighbour.

A player sees his own choices; of the others he sees only that they have
chosen, except the card his right neighbour chose, which he receives when the
round's cards move. So he knows the card he gave is in his left neighbour's
hand, until that neighbour may pass it on unseen in a later round. With two
players nothing is unseen (the neighbour on each side is the one opponent),
so every card he gave is known to be in the opponent's hand until it comes
back; with three or four, only the card he gave in the last round is known to
be there: an earlier one may have been passed on. That is all the library
lets a view know of the other hands: it is the library's reading of "you know
only what you can deduce" (a deduction spanning several hands, such as "in
one of these two hands", places no card).

This module imports no engine: the views, the sampler (`conquian.determinize`)
and the reader of views (`conquian.formats.views`) all use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Trade
from ..cards import Card

__all__ = ["chooser", "known_cards", "masked", "rounds_of"]


def chooser(index: int, players: int, dealer: int) -> int:
    """The seat whose choice is the trade at history `index` (T21: from the pone)."""
    return (dealer + 1 + index % players) % players


def masked(
    history: Sequence[Action], players: int, dealer: int, trades: int, seat: int
) -> tuple[Action, ...]:
    """`history` as `seat` sees it (C6, T21): another player's trade shows no card, except
    his right neighbour's once the round is complete (that card came to him)."""
    out = list(history)
    rounds = min(len(out), trades * players)
    right = (seat - 1) % players
    for i in range(rounds):
        who = chooser(i, players, dealer)
        if who == seat:
            continue
        complete = (i // players + 1) * players <= len(out)
        if not (who == right and complete):
            out[i] = _HIDDEN
    return tuple(out)


_HIDDEN = Trade()


def rounds_of(
    history: Sequence[Action], players: int, dealer: int, trades: int, seat: int
) -> list[tuple[Card, Card]]:
    """For each completed trade round, the card `seat` gave and the card he received,
    read from a history as he sees it (`masked`)."""
    out: list[tuple[Card, Card]] = []
    right = (seat - 1) % players
    done = min(len(history), trades * players) // players
    for r in range(done):
        gave = got = None
        for i in range(r * players, (r + 1) * players):
            action = history[i]
            who = chooser(i, players, dealer)
            if type(action) is Trade and who == seat:
                gave = action.card
            if type(action) is Trade and who == right:
                got = action.card
        if gave is None or got is None:
            raise ValueError(f"trade round {r + 1} does not show the cards of seat {seat}")
        out.append((gave, got))
    return out


def known_cards(
    history: Sequence[Action], players: int, dealer: int, trades: int, seat: int
) -> dict[Card, int]:
    """The cards the trade rounds put in another player's hand to `seat`'s knowledge, each
    with that player's seat (see the module): before any later play moves them."""
    left = (seat + 1) % players
    located: dict[Card, int] = {}
    for gave, got in rounds_of(history, players, dealer, trades, seat):
        if players > 2:
            located.clear()  # the left neighbour may pass any card on unseen
        located.pop(got, None)  # it came to him
        located[gave] = left
    return located
