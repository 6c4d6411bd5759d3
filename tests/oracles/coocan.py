"""The plain statement of Coo-Can's turn and melding rules (RULES.md K2-K5, K7): a brute force.

It knows nothing of the engine's enumeration: it tries every action that
could be written (a draw, a take of every card of the pack, every
sub-multiset of the hand as a meld, new or onto every meld of the table,
every discard) and keeps those the rules, read literally, allow.
`oracle(state)` maps each legal action to the hand and table it leads to;
`tests/coocan/test_coocan.py` checks the engine against it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from conquian import Card, Discard, Draw, Meld, Take
from conquian.actions import Action
from conquian.cards import make_pack
from conquian.coocan import CooCanState

__all__ = ["oracle", "valid_meld", "valid_set"]

Effect = tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]


def sub_multisets(hand: tuple[Card, ...], size: int) -> Iterator[tuple[Card, ...]]:
    """Every sub-multiset of `hand` with `size` cards, each once."""
    yield from sorted(set(itertools.combinations(sorted(hand), size)))


def is_group(cards: tuple[Card, ...]) -> bool:
    """Cards all of one rank (the two copies of a card may stand together)."""
    return len({c.rank for c in cards}) == 1


def is_straight_flush(cards: tuple[Card, ...]) -> bool:
    """Cards of one suit in unbroken order, each position once, the ace low only (K4)."""
    ranks = sorted(c.rank for c in cards)
    return (
        len({c.suit for c in cards}) == 1
        and len(set(ranks)) == len(ranks)
        and ranks[-1] - ranks[0] == len(ranks) - 1
    )


def valid_set(cards: tuple[Card, ...]) -> bool:
    """K4: four of one rank or a four-card straight flush."""
    return len(cards) == 4 and (is_group(cards) or is_straight_flush(cards))


def valid_meld(cards: tuple[Card, ...]) -> bool:
    """A meld that may stand on the table: a group or a straight flush of three or more."""
    return len(cards) >= 3 and (is_group(cards) or is_straight_flush(cards))


def less(hand: tuple[Card, ...], cards: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The hand less `cards`, or None if it does not hold them."""
    rest = Counter(hand)
    rest.subtract(cards)
    if any(v < 0 for v in rest.values()):
        return None
    return tuple(sorted(rest.elements()))


def oracle(state: CooCanState) -> dict[Action, Effect]:
    """Every legal action of `state`, with the current player's hand and the table after it."""
    p = state.current_player
    out: dict[Action, Effect] = {}
    if p is None:
        return out
    hand = state.hand(p)
    table = tuple(tuple(c for c in m.cards if isinstance(c, Card)) for m in state.table)
    pile = state.discard_pile
    if state.phase == "draw":
        out[Draw()] = (hand, table)  # the drawn card is hidden: the effect is checked apart
        for c in set(make_pack()):
            # K3: only the top card; not with one card in hand; K7: he must be able to
            # discard a card other than the one taken.
            if pile and c == pile[-1] and len(hand) != 1 and any(h != c for h in hand):
                out[Take(c)] = (tuple(sorted((*hand, c))), table)
        return out
    taken = state.taken
    for c in set(hand):
        if c != taken:
            out[Discard(c)] = (less(hand, (c,)) or (), table)
    if state.turns == 0 or state.melded:  # K2: the opening discard only; K3: one meld
        return out
    for size in (1, 4, 10):
        for cards in sub_multisets(hand, size):
            rest = less(hand, cards)
            assert rest is not None
            if not any(h != taken for h in rest):  # K7: a card to discard must remain
                continue
            if (size == 4 and valid_set(cards)) or (size == 10 and is_straight_flush(cards)):
                out[Meld(cards)] = (rest, (*table, tuple(sorted(cards))))
            if not state.opened[p] or size == 10:  # K5: adding after one's own new meld
                continue
            if size == 4 and not valid_set(cards):
                continue
            for i, meld in enumerate(table):
                bigger = tuple(sorted((*meld, *cards)))
                if valid_meld(bigger) and is_group(bigger) == is_group(meld):
                    out[Meld(cards, onto=i)] = (rest, (*table[:i], bigger, *table[i + 1 :]))
    return out
