"""The turn (rules M2, M3): what may be done now, with no dead ends.

A turn is a draw from the pack or a take from the stock, then any Melds and
Forces, then a discard, unless the hand is empty first (M10). The player may
not discard the card he took from the stock this turn (M2, library's choice),
so an action after which he could not finish his turn is not offered: the
no-dead-end check (`can_go_out`) runs only when every card left would be one
he may not discard.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..cards import Card
from ..combos.core import Combination
from ..state.base import Legal
from .melds import Fits, Memo, placed, plays, resolve
from .tables import (
    DISCARD_ENTRIES,
    DISCARDS,
    DRAW,
    DRAW_ENTRY,
    DRAW_ONLY,
    DRAW_OR_TAKE,
    TAKE_ENTRIES,
    TAKES,
    Entry,
)

__all__ = [
    "can_go_out",
    "draw_legal",
    "forget",
    "play_legal",
    "with_card",
    "without",
    "without_card",
]


def without(hand: tuple[Card, ...], played: Sequence[Card]) -> tuple[Card, ...]:
    """`hand` (sorted) less the `played` cards; every one of them must be there.

    Cards inside the engine are the interned ones (`deal`), so identity finds them.
    """
    rest = list(hand)
    for c in played:
        for i, h in enumerate(rest):
            if h is c:
                del rest[i]
                break
        else:
            rest.remove(c)
    return tuple(rest)


def without_card(hand: tuple[Card, ...], c: Card) -> tuple[Card, ...]:
    """`hand` (sorted) less one card `c`, which must be there (found by identity, as `without`)."""
    for i, h in enumerate(hand):
        if h is c:
            return hand[:i] + hand[i + 1 :]
    return without(hand, (c,))


def with_card(hand: tuple[Card, ...], c: Card) -> tuple[Card, ...]:
    """`hand` (sorted) with `c` put in its canonical place."""
    index = c.index
    for i, h in enumerate(hand):
        if h.index > index:
            return (*hand[:i], c, *hand[i:])
    return (*hand, c)


def forget(known: tuple[Card, ...], played: Sequence[Card]) -> tuple[Card, ...]:
    """The known cards of a hand less the cards just played from it (C6).

    When a player holds a known copy and an unseen copy of a card and plays
    one, the others cannot tell which: the known copy is forgotten.
    """
    if not known:
        return known
    rest = list(known)
    for c in played:
        index = c.index  # equal cards have equal indices: no attrs __eq__ (speed)
        for i, k in enumerate(rest):
            if k.index == index:
                del rest[i]
                break
    return known if len(rest) == len(known) else tuple(rest)


def can_go_out(
    hand: tuple[Card, ...],
    table: tuple[Combination, ...],
    fit: Fits,
    player: int,
    memo: Memo,
) -> bool:
    """Whether some Melds and Forces can empty `hand` (M2, M10).

    Used only when every card left is one he may not discard, so `hand`
    holds at most two cards (two copies in the double pack): the search is
    tiny.
    """
    for action, combo, played in plays(hand, table, fit, player, memo):
        rest = without(hand, played)
        if not rest:
            return True
        new_table, new_fit = placed(table, fit, action.onto, resolve(action, combo, table))
        if can_go_out(rest, new_table, new_fit, player, memo):
            return True
    return False


def draw_legal(
    hand: tuple[Card, ...],
    stock: tuple[Card, ...],
    open_stock: bool,
    table: tuple[Combination, ...],
    fit: Fits,
    player: int,
    memo: Memo,
) -> Legal:
    """The draw phase: ``draw``, then each stock card he may ``take`` (M2, M3, law 11).

    When the pack is empty the stock is turned over first (M11), so drawing
    is always possible: the stock holds the last discard. A closed stock
    offers its top card only; an open one every card (p. 36), in canonical
    order. He may not discard the card he takes: if every card he holds is
    equal to it, he must be able to lay them all off (M2).
    """
    if not open_stock:
        if not stock:
            return DRAW_ONLY
        top = stock[-1]
        if _may_take(hand, top, table, fit, player, memo):
            return DRAW_OR_TAKE[top.index]
        return DRAW_ONLY
    actions: list[Action] = [DRAW]
    entries: list[Entry] = [DRAW_ENTRY]
    for c in sorted(set(stock)):
        if _may_take(hand, c, table, fit, player, memo):
            actions.append(TAKES[c.index])
            entries.append(TAKE_ENTRIES[c.index])
    return tuple(actions), tuple(entries)


def _may_take(
    hand: tuple[Card, ...],
    c: Card,
    table: tuple[Combination, ...],
    fit: Fits,
    player: int,
    memo: Memo,
) -> bool:
    """Whether he may take `c`: he holds another card to discard, or can lay off every card
    he would hold (M2). The hand is sorted, so it holds a card other than `c` exactly when
    its first or its last card is another."""
    if hand and (hand[0] is not c or hand[-1] is not c):
        return True
    return can_go_out((*hand, c), table, fit, player, memo)


def play_legal(
    hand: tuple[Card, ...],
    taken: Card | None,
    table: tuple[Combination, ...],
    fit: Fits,
    player: int,
    memo: Memo,
) -> Legal:
    """The play phase: Melds and Forces (M4, M5, M9), then a discard of each card but `taken`.

    A play after which only cards equal to `taken` would be left is offered
    only if he goes out with it or can still lay off every card (M2).
    """
    actions: list[Action] = []
    entries: list[Entry] = []
    found = plays(hand, table, fit, player, memo)
    if found:
        free = len(hand) + 1 if taken is None else sum(1 for c in hand if c is not taken)
        for play in found:
            action, combo, played = play
            if free <= len(played) and free <= sum(1 for c in played if c is not taken):
                rest = without(hand, played)
                if rest:
                    new_table, new_fit = placed(
                        table, fit, action.onto, resolve(action, combo, table)
                    )
                    if not can_go_out(rest, new_table, new_fit, player, memo):
                        continue
            actions.append(action)
            entries.append(play)
    previous = None
    for c in hand:  # sorted, and cards are interned: equal cards are adjacent
        if c is not previous and c is not taken:
            actions.append(DISCARDS[c.index])
            entries.append(DISCARD_ENTRIES[c.index])
        previous = c
    return tuple(actions), tuple(entries)
