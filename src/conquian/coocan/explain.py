"""Why an action is not legal in a Coo-Can position, in the game's words (rule E1, K2–K7).

`CooCanState.apply` calls `why` only for an action that is not among the
legal ones, so each message names the first rule the action breaks.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..actions import Action, Discard, Draw, Meld, Take
from ..cards import Card
from ..combos.core import Kind
from .melds import COOCH, SET, additions, cooches, new_sets

# The state is typed loosely here: `CooCanState` asks this module why an action is illegal,
# so it does not import the state back. `CooCanState` below means that class.
CooCanState = Any

__all__ = ["why"]

_TURN = "a turn is a draw or a take, at most one meld, then a discard"


def _text(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards))


def why(state: CooCanState, action: Action) -> tuple[str, str]:
    """The reason `action` is illegal in `state`, and the id of the rule that forbids it.

    `IllegalActionError` adds the id after the reason: "... four cards (K4)".
    """
    text, rule = _why(state, action)
    head, _, tail = text.rpartition(" (")
    return (head, rule) if head and tail.startswith("K") else (text, rule)


def _why(state: CooCanState, action: Action) -> tuple[str, str]:
    p = state.current_player
    if p is None:
        return "the deal is over (K7)", "K7"
    kind = type(action)
    if kind not in (Draw, Take, Meld, Discard):
        return f"there is no {str(action).split()[0]} in Coo-Can: {_TURN} (K3)", "K3"
    hand = state.hand(p)
    if state.turns == 0 and kind is not Discard:
        return (
            "the dealer begins by discarding one card face up, and does nothing else "
            "in that turn (K2)",
            "K2",
        )
    if state.phase == "draw":
        if kind is Draw:  # pragma: no cover - a draw is always legal in the draw phase
            return "you may draw now (K3)", "K3"
        if kind is Take:
            assert isinstance(action, Take)
            pile = state.discard_pile
            if not pile:
                return "the discard pile is empty: draw from the deck (K3, K8)", "K8"
            if action.card != pile[-1]:
                return f"only the top card of the discard pile, {pile[-1]}, can be taken (K3)", "K3"
            if len(hand) == 1:
                return "with one card in hand you may only draw from the deck (K3, K6)", "K3"
            return (
                f"you could not end the turn: every card you hold equals {action.card}, "
                "which you may not discard after taking it (K3, K7)",
                "K7",
            )
        return f"first draw from the deck or take the top discard: {_TURN} (K3)", "K3"
    if kind is Draw or kind is Take:
        return "you have already drawn or taken this turn (K3)", "K3"
    if kind is Discard:
        assert isinstance(action, Discard)
        if action.card not in hand:
            return f"you do not hold {action.card} (K3)", "K3"
        return (
            f"you may not discard {action.card}, the card you took from the discard pile "
            "this turn (K3)",
            "K3",
        )
    assert isinstance(action, Meld)
    played = tuple(c for c in action.cards if isinstance(c, Card))
    if state.melded:
        return "only one meld can be made in a turn (K3)", "K3"
    missing = Counter(played) - Counter(hand)
    if len(played) != len(action.cards) or missing:
        gone = _text(tuple(sorted(missing.elements()))) or "a joker"
        return f"you do not hold {gone}: Coo-Can has no jokers (K1, K4)", "K4"
    if action.onto is None:
        if len(played) == COOCH and played in cooches(hand):
            return "it would leave you no card you may discard (K7)", "K7"
        if len(played) != SET:
            return "a new meld is four cards (K4)", "K4"
        if played not in new_sets(hand):
            return (
                f"{_text(played)} is neither four of one rank nor four cards in suit sequence, "
                "aces low (K4)",
                "K4",
            )
        return "it would leave you no card you may discard (K7)", "K7"
    table = state.table
    if action.onto >= len(table):
        return f"there is no meld @{action.onto} on the table (K5)", "K5"
    if not state.opened[p]:
        return (
            "you must lay a new set of four of your own before adding to a meld (K5)",
            "K5",
        )
    combo = table[action.onto]
    if played not in additions(hand, combo):
        what = "group" if combo.kind is Kind.GROUP else "sequence"
        return (
            f"{_text(played)} does not go onto the {what} {combo}: add one card that fits, "
            "or a set of four making one larger valid meld (K5)",
            "K5",
        )
    return "it would leave you no card you may discard (K7)", "K7"
