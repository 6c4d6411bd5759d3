"""Why an action is not legal now (E1), in the game's words, citing the rule.

`ConquianState.apply` asks `why_illegal` only for an action that is not
among the legal actions, so every reason here names the first rule the
action breaks, walking the same rules as the generator: the phase (T4, T8),
the cards (T8), the combination (C3, C4, T14), borrowing (T9), forcing
(T10), and last the no-dead-end search (T8).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ..actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take
from ..cards import Card, Face, NamedJoker, card_at
from ..combos.core import Combination, Kind, Order, build, explain, extend
from ..rules import ConquianRules
from ..state.base import Result
from .board import Sources, left_of, right_of

__all__ = ["Position", "text", "why_illegal"]


class Position(NamedTuple):
    """What the explanations read of a state that has not ended."""

    rules: ConquianRules
    order: Order
    player: int
    offer: Card | None
    offer_origin: str | None
    table: tuple[Combination, ...]
    hand: tuple[Card, ...]
    pending: tuple[Card, ...]
    borrowed: int
    sources: Sources


def text(cards: Iterable[Face]) -> str:
    """Cards as text, separated by spaces."""
    return " ".join(map(str, cards))


def why_ended(result: Result) -> tuple[str, str]:
    """The reason nothing is legal after the end of the deal (T2, T12)."""
    if result.winner is not None:
        return f"the deal is over: seat {result.winner} has won", "T2"
    return "the deal is over: it ended in a tableau", "T12"


def why_illegal(action: Action, at: Position) -> tuple[str, str]:
    """The reason `action` is not legal at `at`, and the rule's id."""
    if isinstance(action, Draw):
        return (
            "there is no drawing in two-hand Conquian: a card is turned face up from the "
            "stock when the card on offer is refused",
            "T4",
        )
    faces: tuple[Face, ...] = action.cards if isinstance(action, Meld) else ()
    if isinstance(action, Force):
        faces = (action.card,)
    shift = isinstance(action, (Meld, Force)) and action.shift
    if shift or any(isinstance(f, NamedJoker) for f in faces):
        return "the two-hand pack has no joker, so no joker is named or shifted", "T1"
    named: set[Face] = set()
    twice: list[Face] = []
    for f in faces:  # one pass with a set: linear in the number of faces
        if f in named:
            twice.append(f)
        named.add(f)
    if twice:
        return (
            f"{twice[0]} is named twice: the {at.rules.pack} pack of "
            f"{len(at.rules.pack_cards())} cards holds each card once",
            "C1",
        )
    if at.offer is not None:
        return _on_say(action, at)
    return _melding(action, at)


def _on_say(action: Action, at: Position) -> tuple[str, str]:
    offer = at.offer
    assert offer is not None
    if isinstance(action, Take):
        if action.card != offer:
            return f"{action.card} is not on offer: the card on offer is {offer}", "T4"
        return (
            f"{offer} could not be melded in this turn, and a card taken is never held in the hand",
            "T3",
        )
    if isinstance(action, Force):
        if at.offer_origin == "discarded":
            return (
                "a discard is not forced back onto the player who discarded it: take it or pass it",
                "T7",
            )
        if action.card != offer:
            return f"only the card on offer, {offer}, may be forced now", "T10"
        # T18: a turned card onto the left neighbour's melds, a passed one back to the passer.
        players = at.rules.players
        passed = at.offer_origin == "passed"
        victim = right_of(at.player, players) if passed else left_of(at.player, players)
        return _no_fit(action, victim, at)
    if isinstance(action, Borrow):
        return (
            "a player borrows only while melding after a take or a force, not while he "
            f"has the say to {offer}",
            "T9",
        )
    if isinstance(action, Discard):
        return (
            f"you have the say to {offer}: take it, pass it or force it; a discard ends "
            "a turn in which you melded",
            "T4",
        )
    assert isinstance(action, Meld)
    if at.rules.lay_down == "turn":
        return (
            "under these rules hand cards go down only in a turn in which a card from the "
            "centre joins your melds (after a take or a force), not while you have the say",
            "T8",
        )
    if at.rules.lay_down == "meld":
        return (
            "under these rules hand cards go down only together with a card taken or borrowed",
            "T8",
        )
    return _bad_meld(action, at)


def _melding(action: Action, at: Position) -> tuple[str, str]:
    pending = at.pending
    if isinstance(action, (Take, Pass)):
        verb = "take" if isinstance(action, Take) else "pass"
        return (
            f"no card is on offer: you are melding, and may not {verb} before your next say",
            "T8",
        )
    if isinstance(action, (Discard, Force)):
        if pending:
            return f"the pending {text(pending)} must be melded before the turn ends", "T8"
        if action.card not in at.hand:
            return f"{action.card} is not in your hand", "T8"
        assert isinstance(action, Force)
        return _no_fit(action, left_of(at.player, at.rules.players), at)  # T18
    if isinstance(action, Meld):
        if at.rules.lay_down == "meld" and not set(action.cards) & set(pending):
            return (
                "under these rules every meld must use a pending card (one taken or borrowed)",
                "T8",
            )
        return _bad_meld(action, at)
    assert isinstance(action, Borrow)
    return _bad_borrow(action, at)


def _no_fit(action: Force, victim: int, at: Position) -> tuple[str, str]:
    j = action.onto
    if j >= len(at.table):
        return f"there is no meld @{j} on the table", "T10"
    meld = at.table[j]
    if meld.owner != victim:
        if at.rules.players == 2:
            return "a card is forced only onto the opponent's melds", "T10"
        return f"this card may be forced only onto the melds of seat {victim}", "T18"
    cap = at.order.max_sequence
    if meld.kind is Kind.SEQUENCE and cap is not None and len(meld.cards) >= cap:
        return (
            f"{action.card} does not fit {meld}: a sequence holds at most {cap} cards",
            "T14",
        )
    return f"{action.card} does not fit the meld {meld}", "T10"


def _bad_meld(action: Meld, at: Position) -> tuple[str, str]:
    pending = at.pending
    have = set(at.hand) | set(pending)
    for c in action.cards:
        if c not in have:
            if c == at.offer:
                return f"{c} is on offer, not in your hand: take it first", "T8"
            return f"{c} is not in your hand{' or pending' if pending else ''}", "T8"
    order = at.order
    if action.onto is not None:
        i = action.onto
        if i >= len(at.table):
            return f"there is no meld @{i} on the table", "T8"
        meld = at.table[i]
        if meld.owner != at.player:
            return (
                "you add cards only to your own melds; a card goes onto the opponent's "
                "melds only by a force",
                "T8",
            )
        for index, src, _ in at.sources:
            c = card_at(index)
            if i in src and c in action.cards:
                return f"{c} was borrowed from this meld and must go into a different one", "T9"
        why_kind = _wrong_kind(action, meld.kind, at)
        if why_kind is not None:
            return why_kind
        if extend(meld, action.cards, order) is None:
            why, rule = _explained((*meld.cards, *action.cards), order)
            return f"{text(action.cards)} cannot be added to {meld}: {why}", rule
    else:
        made = build(action.cards, order)
        if made is None:
            return _explained(action.cards, order)
        why_kind = _wrong_kind(action, made.kind, at)
        if why_kind is not None:
            return why_kind
    return _unfinishable(pending)


def _wrong_kind(action: Meld, kind: Kind, at: Position) -> tuple[str, str] | None:
    """T9 ``borrow_other_kind``: the reason a borrowed card may not go into a meld of `kind`."""
    if not at.rules.borrow_other_kind:
        return None
    for index, _, lent_by_group in at.sources:
        c = card_at(index)
        if c in action.cards and lent_by_group == (kind is Kind.GROUP):
            if lent_by_group:
                return f"{c} was borrowed from a group: it must go into a sequence", "T9"
            return f"{c} was borrowed from a sequence: it must go into a group", "T9"
    return None


def _bad_borrow(action: Borrow, at: Position) -> tuple[str, str]:
    i = action.source
    c = action.card
    if i >= len(at.table):
        return f"there is no meld @{i} on the table", "T9"
    meld = at.table[i]
    if meld.owner != at.player:
        return "a player borrows only from his own melds, never from the opponent's", "T9"
    if c not in meld.cards:
        return f"{c} is not in the meld {meld}", "T9"
    if at.borrowed >> c.index & 1:
        return f"{c} was borrowed already in this turn: a card is borrowed once a turn", "T9"
    if len(meld.cards) <= 3:
        return f"{meld} would be left with fewer than three cards", "T9"
    if meld.kind is Kind.SEQUENCE and c not in (meld.cards[0], meld.cards[-1]):
        if not at.rules.borrow_middle:
            return "under these rules no card is borrowed from the middle of a sequence", "T9"
        k = meld.cards.index(c)
        return (
            f"borrowing {c} would leave {text(meld.cards[:k])} and "
            f"{text(meld.cards[k + 1 :])}: both pieces must be sequences of three or more",
            "T9",
        )
    return _unfinishable((*at.pending, c))


def _unfinishable(pending: tuple[Card, ...]) -> tuple[str, str]:
    if len(pending) == 1:
        return f"after it, the pending {text(pending)} could not be melded in this turn", "T8"
    if pending:
        return (
            f"after it, the pending {text(pending)} could not all be melded in this turn",
            "T8",
        )
    return "it is not legal now", "T8"  # pragma: no cover - nothing pending always ends


_RULE_AT_END = re.compile(r"\s*\(([A-Z]\d+)(?:,[^)]*)?\)$")


def _explained(faces: Iterable[Face], order: Order) -> tuple[str, str]:
    """`combos.explain` split into its reason and the rule id it cites."""
    found = explain(faces, order)
    m = _RULE_AT_END.search(found)
    if m is None:  # pragma: no cover - explain always cites a rule
        return found, "C3"
    return found[: m.start()], m.group(1)
