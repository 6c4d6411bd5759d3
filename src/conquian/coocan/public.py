"""What every player saw of a Coo-Can deal, read back from its history (rules K1–K8, C6).

A Coo-Can history shows every action but the card of a draw. Read in order
from the deal, it gives everything public at each step: who acted, the hand
sizes, the discard pile and the deck's size, and when the deck ran out and
which cards the discard pile held when it was mixed into the new deck (K8).
`read_history` does that reading once; the story of a view
(`conquian.coocan.story`) is built on it. The exact draw of a view's hidden
cards (`conquian.coocan.posterior`) reads the history the same way in a
leaner pass of its own, with no `Step` made, as it runs once a sample.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

import attrs

from ..actions import Action, Discard, Draw, Meld, Take
from ..cards import Card
from ..rules import CooCanRules

__all__ = ["Public", "Step", "read_history"]


@attrs.frozen
class Step:
    """One action of the history, with what everyone saw of it.

    `index` is the length of the history once it is done; `seat` who made
    it; `period` how many reshuffles came before it (the deck a draw comes
    from, K8); `played` the cards it put from the hand onto the table or the
    discard pile; `taken` the card taken from the discard pile; `size` the
    seat's hand size after it; `mixed` the discard pile mixed into the new
    deck after it (K8), sorted, or None.
    """

    index: int
    seat: int
    action: Action
    period: int
    played: tuple[Card, ...]
    taken: Card | None
    size: int
    mixed: tuple[Card, ...] | None


class Public(NamedTuple):
    """A history read from the deal: its `steps`, the `dealt` hand sizes, the deck's size
    after the deal (`deck`), and `piles`, the discard pile mixed into a new deck at each
    reshuffle, in order (K8)."""

    steps: tuple[Step, ...]
    dealt: tuple[int, ...]
    deck: int
    piles: tuple[tuple[Card, ...], ...]


def read_history(rules: CooCanRules, dealer: int, history: Sequence[Action]) -> Public:
    """The public story of `history` played from a deal by `dealer` (K1–K8).

    Raises `ValueError` when the history cannot be a Coo-Can deal's (a take
    from an empty pile, more cards played than a hand holds, a draw from an
    empty deck).

    >>> from conquian.coocan import CooCanRules, deal
    >>> s = deal(CooCanRules(players=2), CooCanRules().pack_cards(), dealer=0)
    >>> s = s.apply("discard JC").apply("take JC")
    >>> [(step.seat, str(step.action), step.size) for step in read_history(
    ...     s.rules, 0, s.history).steps]
    [(0, 'discard JC', 10), (1, 'take JC', 11)]
    """
    n = rules.players
    sizes = [rules.hand_size + (q == dealer) for q in range(n)]
    dealt = tuple(sizes)
    deck = 2 * 52 - sum(sizes)
    left = deck
    pile: list[Card] = []
    piles: list[tuple[Card, ...]] = []
    steps: list[Step] = []
    p = dealer
    turns = 0
    limit = rules.turn_limit
    over = False
    for i, action in enumerate(history):
        if over:
            raise ValueError(f"action {i + 1} ({action}) comes after the end of the deal")
        played: tuple[Card, ...] = ()
        taken = None
        mixed = None
        period = len(piles)
        if isinstance(action, Draw):
            if left == 0:
                raise ValueError(f"action {i + 1}: a draw from an empty deck")
            left -= 1
            sizes[p] += 1
        elif isinstance(action, Take):
            if not pile or pile[-1] != action.card:
                raise ValueError(f"action {i + 1}: {action.card} is not the top discard")
            taken = pile.pop()
            sizes[p] += 1
        elif isinstance(action, (Meld, Discard)):
            played = cast(
                tuple[Card, ...], action.cards if isinstance(action, Meld) else (action.card,)
            )
            if len(played) > sizes[p]:
                raise ValueError(f"action {i + 1}: seat {p} holds fewer cards than it plays")
            sizes[p] -= len(played)
        else:
            raise ValueError(f"action {i + 1}: {action} is not a Coo-Can action")
        seat = p
        if isinstance(action, Discard):
            pile.append(action.card)
            turns += 1
            if sizes[p] == 0 or (limit is not None and turns >= limit):
                over = True  # K7: out; K8: abandoned at the turn limit
            else:
                p = (p + 1) % n
                if left == 0:  # K8: the whole pile, mixed, becomes the deck
                    mixed = tuple(sorted(pile))
                    piles.append(mixed)
                    left, pile = len(mixed), []
        steps.append(Step(i + 1, seat, action, period, played, taken, sizes[seat], mixed))
    return Public(tuple(steps), dealt, deck, tuple(piles))
