"""The position a view of the offer game shows, with its hidden cards drawn (C6): `position`.

`ConquianView.sample_state` draws a deck among those that give the view
(`conquian.determinize.sample_offer`) and builds the state the view shows
on it with `position`, without replaying the history: every zone a view
shows (the table, the card on offer and where it came from, the pending
cards, the buried cards, who acts, the result, the history) is the view's,
the viewer's hand is his, each other seat holds the hidden cards drawn for
it, and the stock is what the drawn deck leaves unturned.

What a view does not show of a turn in progress is which of the pending
cards were borrowed and which melds they may not go back to (T9): with a
borrowed card still pending, or in a deal with trade rounds (T21), whose
hidden choices a view does not show (`rebuildable` says no), the sample is
drawn by replaying the history instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Borrow, Discard, Force, Pass, Take
from ..cards import Card
from .board import BITS, CARDS, key, mask
from .dealing import Deal, check_indices
from .state import ConquianState

__all__ = ["position", "positions", "rebuildable"]


def _borrowed(view: Any) -> int:
    """The cards borrowed in the turn in progress (T9), as a mask.

    Borrowing happens only while melding after a take or a force (T9), and a
    turn of melding ends with a discard or a force (T8, T10): the borrows are
    those after the last take, force, discard or pass. A deal that is over, or
    a card on offer, has no turn of melding in progress.
    """
    if view.result is not None or view.offer is not None:
        return 0
    borrowed = 0
    history: Sequence[Any] = view.history
    for i in range(len(history) - 1, -1, -1):
        action = history[i]
        kind = type(action)
        if kind is Borrow:
            borrowed |= BITS[action.card.index]
        elif kind is Take or kind is Force or kind is Discard or kind is Pass:
            break
    return borrowed


def rebuildable(view: Any) -> bool:
    """Whether `position` can build the state `view` shows: not while a card borrowed in the
    turn in progress is still pending, as the view does not show which melds it may not go
    back to (T9); nor in a deal with trade rounds (T21), whose sample holds the others'
    hidden choices in its history and is drawn by playing the rounds."""
    return not view.rules.trades and not _borrowed(view) & mask(view.pending)


def position(
    view: Any, deck: Sequence[Card], hands: Sequence[Sequence[Card]]
) -> ConquianState | None:
    """The state `view` shows, dealt from `deck`, each seat holding `hands[seat]` (C6).

    `deck` is a whole deal that gives the view (the viewer's dealt cards,
    the turned cards in order, each seat's played cards on its dealt places,
    the stock after the turned cards), `hands` every seat's cards now. None
    when the seat melding (not the viewer) could not place its pending cards
    with the hand drawn for it: the take that began the turn, or a meld since,
    would not have been legal (T3, T8), so no deal with those hidden cards
    gives the view. Only for views `rebuildable` allows.
    """
    return positions(view)(view, deck, hands)


def positions(view: Any) -> Callable[..., ConquianState | None]:
    """`position` for many decks of one view, what the view alone gives read once: the
    history, the melds' keys, the pending cards and those borrowed this turn (T8, T9)."""
    rules = view.rules
    history = tuple(view.history)
    pending = mask(view.pending)
    keys = tuple([key(m) for m in view.table])
    borrowed = _borrowed(view)
    mover = view.current_player
    check_take = bool(pending) and mover != view.player

    def build(
        view: Any, deck: Sequence[Card], hands: Sequence[Sequence[Card]]
    ) -> ConquianState | None:
        indices = [c.index for c in deck]
        check_indices(rules, indices)  # a RecordError when the view's known places clash
        line = list(history)
        state = ConquianState(
            Deal(rules, view.dealer, tuple([CARDS[i] for i in indices])),
            mover,
            view.offer,
            view.offer_origin,
            view.table,
            view.buried,
            view.result,
            (
                tuple([mask(h) for h in hands]),
                keys,
                pending,
                borrowed,
                (),  # T9: no borrowed card is pending (`rebuildable`)
            ),
            line,
            len(line),
        )
        if check_take and not state.legal_actions():
            return None  # T8: his take (or a meld since) left a card he could not place
        return state

    return build
