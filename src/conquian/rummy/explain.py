"""Why an action is illegal (rules E1): the most specific reason, in the game's words.

`CooncanState.apply` asks only when an action is not among the legal ones,
so this never decides legality: it names the rule that the action breaks.
"""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from ..actions import Borrow, Discard, Draw, Force, Meld, Pass, Take
from ..cards import JOKER, Card, NamedJoker
from ..combos.core import Combination, build, explain, extend, shifts
from ..rules import CooncanRules
from ..state.base import Outcome, Result
from .tables import ORDER, has_shiftable_joker, physical

__all__ = ["Position", "split_rule", "why"]


class Position(Protocol):
    """What the explanations read of a state: its public face (`CooncanState` has it)."""

    @property
    def rules(self) -> CooncanRules: ...
    @property
    def result(self) -> Result | None: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def stock(self) -> tuple[Card, ...]: ...
    @property
    def table(self) -> tuple[Combination, ...]: ...
    @property
    def taken(self) -> Card | None: ...
    def hand(self, player: int) -> tuple[Card, ...]: ...


def split_rule(text: str, default: str) -> tuple[str, str]:
    """Split the rule id off an explanation: ``'x (C4, law 16)'`` -> ``('x (law 16)', 'C4')``."""
    head, sep, tail = text.rpartition(" (")
    if not sep or not tail.endswith(")"):
        return text, default
    first, _, rest = tail[:-1].partition(", ")
    if not (first[:1].isalpha() and first[:1].isupper() and first[1:].isdigit()):
        return text, default
    return (f"{head} ({rest})" if rest else head), first


def why(state: Position, action: object) -> tuple[str, str]:
    """The most specific reason `action` is not among `state`'s legal actions, and the rule's id.

    `State.apply` makes it the `IllegalActionError` (E1).
    """
    result = state.result
    if result is not None:
        if result.outcome is Outcome.ABANDONED:
            return ("the deal was abandoned at the turn limit", "M11")
        return (f"the deal is over: seat {result.winner} went out", "M10")
    if isinstance(action, Pass):
        return ("there is no passing: draw, or take from the stock", "M2")
    if isinstance(action, Borrow):
        return ("cards on the table never move: there is no borrowing", "M6")
    if not isinstance(action, (Draw, Take, Meld, Force, Discard)):
        return ("this is not an action", "M2")
    p = state.current_player
    assert p is not None
    hand = state.hand(p)
    if state.phase == "draw":
        if isinstance(action, Take):
            c = action.card
            if c not in state.stock:
                return (f"{c} is not in the stock", "M3")
            if state.rules.stock == "closed" and c != state.stock[-1]:
                return (
                    f"only the top card of the closed stock, {state.stock[-1]}, may be taken",
                    "M3",
                )
            return (
                f"you could not finish your turn: you may not discard {c} and could not "
                "lay off every card",
                "M2",
            )
        if not isinstance(action, Draw):
            return ("you must first draw from the pack or take from the stock", "M2")
        return ("not legal now", "M2")  # pragma: no cover
    if isinstance(action, (Draw, Take)):
        return ("you have already drawn this turn", "M2")
    if isinstance(action, Discard):
        c = action.card
        if c not in hand:
            return (f"{c} is not in your hand", "M2")
        if c == state.taken:
            return (
                f"you may not discard {c}, the card you took from the stock this turn",
                "M2",
            )
        return ("not legal now", "M2")  # pragma: no cover
    faces = action.cards if isinstance(action, Meld) else (action.card,)
    rule = "M4" if isinstance(action, Meld) and action.onto is None else "M5"
    if JOKER in faces:
        return ("a joker must be named, as JK=4D or JK=5", "C5")
    if any(type(f) is NamedJoker and f.shifted for f in faces):
        return ("a joker played from the hand cannot be marked shifted", "M9")
    missing = Counter(physical(f) for f in faces) - Counter(hand)
    if missing:
        return (" ".join(map(str, sorted(missing.elements()))) + " not in your hand", rule)
    onto = action.onto
    if onto is None:
        if build(faces, ORDER) is None:
            text, why_rule = split_rule(explain(faces, ORDER), "M4")
            return (text, why_rule)
        return _dead_end(state)
    table = state.table
    if not 0 <= onto < len(table):
        return (f"there is no combination @{onto} on the table", "M5")
    combo = table[onto]
    if isinstance(action, Meld) and combo.owner != p:
        return (
            f"combination @{onto} ({combo}) belongs to seat {combo.owner}: "
            "add to it with force, one card at a time",
            "M5",
        )
    if isinstance(action, Force) and combo.owner == p:
        return (f"combination @{onto} ({combo}) is your own: add to it with meld", "M5")
    if action.shift:
        if len(faces) != 1:
            return (
                "a joker shift plays exactly one card (law 18); add the others after",
                "M9",
            )
        if not has_shiftable_joker(combo):
            return (
                f"combination @{onto} ({combo}) has no joker at an end of a sequence "
                "that may be shifted",
                "M9",
            )
        if not shifts(combo, faces[0], ORDER):
            return (
                f"{faces[0]} does not fit combination @{onto} ({combo}) with its joker shifted",
                "M9",
            )
        return _dead_end(state)
    if extend(combo, faces, ORDER) is None:
        shown = " ".join(map(str, faces))
        verb = "does" if len(faces) == 1 else "do"
        return (f"{shown} {verb} not fit combination @{onto} ({combo})", "M5")
    return _dead_end(state)


def _dead_end(state: Position) -> tuple[str, str]:
    """M2: the action would leave only cards equal to the one taken, which cannot be laid off."""
    return (
        f"you could not finish your turn: only {state.taken}, which you took from the stock "
        "and may not discard, would be left, and it cannot all be laid off",
        "M2",
    )
