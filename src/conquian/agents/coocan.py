"""A heuristic player of Coo-Can (rules K1–K9): `CooCanAgent`.

It sees only its view (C6). In the draw phase it takes the top discard when
that card completes a set of four with its hand, goes onto a meld of the
table it may add to (K5), or joins a pair or a near run; else it draws. In
the play phase it makes the largest meld it can (a Cooch first, then a set
of four, then an addition), and then discards the card least useful to its
hand, the one with the most spots first among equals (K9: spots left in
hand are paid for).
"""

from __future__ import annotations

import random

from ..actions import Action, Discard, Draw, Meld, Take
from ..cards import Card
from ..coocan.melds import Held
from ..coocan.view import CooCanView

__all__ = ["CooCanAgent", "usefulness"]


def _spots(c: Card) -> int:
    return c.rank if c.rank < 10 else 10


def usefulness(c: Card, others: tuple[Card, ...], view: CooCanView) -> int:
    """How much `c` helps the rest of the hand toward a meld: cards of its rank (a set of four),
    cards of its suit one or two ranks away (a straight flush, aces low), and, once the player
    has opened, a meld of the table it can go onto (K5)."""
    score = 0
    for o in others:
        if o.rank == c.rank:
            score += 2
        elif o.suit is c.suit and abs(o.rank - c.rank) <= 2:
            score += 3 - abs(o.rank - c.rank)
    if view.opened[view.player]:
        held = Held((c,))
        if any(held.additions(m) for m in view.table):
            score += 6
    return score


class CooCanAgent:
    """A Coo-Can player that takes useful discards, melds when it can and throws its least
    useful, highest card (see the module). `seed` breaks exact ties only.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import shuffle
    >>> state = deal(CooCanRules(), shuffle(CooCanRules().pack_cards(), 3), dealer=0)
    >>> CooCanAgent(seed=1)(state.view(0)) in state.legal_actions()
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def __call__(self, view: CooCanView) -> Action:
        """The chosen action: one of ``view.legal_actions``."""
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.player} has no legal action now")
        if view.phase == "draw":
            return self._draw(view, legal)
        melds = [a for a in legal if isinstance(a, Meld)]
        if melds:  # the largest meld first: a Cooch, a set of four, then one card
            return max(melds, key=lambda m: (len(m.cards), m.onto is None))
        return self._discard(view, legal)

    def _draw(self, view: CooCanView, legal: tuple[Action, ...]) -> Action:
        takes = [a for a in legal if isinstance(a, Take)]
        if not takes:
            return Draw()
        top = takes[0].card
        hand = view.hand
        with_top = Held((*hand, top))
        if any(top in s for s in with_top.new_sets()):  # it completes a set of four (K4)
            return takes[0]
        if view.opened[view.player] and any(Held((top,)).additions(m) for m in view.table):
            return takes[0]  # it goes onto a meld at once (K5)
        if usefulness(top, hand, view) >= 4:
            return takes[0]
        return Draw()

    def _discard(self, view: CooCanView, legal: tuple[Action, ...]) -> Action:
        hand = view.hand
        best: Discard | None = None
        key: tuple[int, int, float] | None = None
        for a in legal:
            if isinstance(a, Discard):
                others = list(hand)
                others.remove(a.card)
                k = (usefulness(a.card, tuple(others), view), -_spots(a.card), self._rng.random())
                if key is None or k < key:
                    best, key = a, k
        assert best is not None
        return best
