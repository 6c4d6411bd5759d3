"""``heuristic@v1``'s Coo-Can play (rules K1–K9), frozen: a copy of the `scores` of 0.1.0's
`conquian.agents.coocan`.

It sees only its view (C6). In the draw phase it takes the top discard when
that card completes a set of four with its hand, goes onto a meld of the
table it may add to (K5), or joins a pair or a near run; else it draws. In
the play phase it makes the largest meld it can (a Cooch first, then a set
of four, then an addition), and then discards the card least useful to its
hand, the one with the most spots first among equals (K9: spots left in
hand are paid for).
"""

from __future__ import annotations

from ...actions import Action, Discard, Meld, Take
from ...cards import Card
from ...coocan.melds import Held
from ...coocan.view import CooCanView

__all__ = ["scores", "usefulness"]


def _spots(c: Card) -> int:
    return c.rank if c.rank < 10 else 10


def _fits_table(c: Card, view: CooCanView) -> bool:
    held = Held((c,))
    return any(held.additions(m) for m in view.table)


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
    if view.opened[view.player] and _fits_table(c, view):
        score += 6
    return score


def _take_worth(top: Card, view: CooCanView) -> float:
    """Whether the top discard is worth taking: 1 if it completes a set of four (K4), goes onto
    a meld at once (K5) or joins a pair or a near run; else -1 (a draw is 0)."""
    if any(top in s for s in Held((*view.hand, top)).new_sets()):
        return 1.0
    if view.opened[view.player] and _fits_table(top, view):
        return 1.0
    return 1.0 if usefulness(top, view.hand, view) >= 4 else -1.0


def scores(view: CooCanView) -> list[tuple[float, int, Action]]:
    """The worth of every legal action of `view`, as (value, minus its index, action): the
    player's choice is the largest. Melds are worth 100 and their number of cards; a discard
    less the more useful its card is, and more the more spots it has.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import shuffle
    >>> view = deal(CooCanRules(), shuffle(CooCanRules().pack_cards(), 3), dealer=0).view(0)
    >>> max(scores(view))[2] in view.legal_actions
    True
    """
    out: list[tuple[float, int, Action]] = []
    hand = view.hand
    for i, a in enumerate(view.legal_actions):
        if isinstance(a, Take):
            value = _take_worth(a.card, view)
        elif isinstance(a, Meld):
            value = 100.0 + len(a.cards) + (a.onto is None) / 2
        elif isinstance(a, Discard):
            others = list(hand)
            others.remove(a.card)
            value = -10.0 * usefulness(a.card, tuple(others), view) + _spots(a.card) / 10
        else:  # a draw
            value = 0.0
        out.append((value, -i, a))
    return out
