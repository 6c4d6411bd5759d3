"""The exact draw of the other hand and the deck in a Coo-Can deal of two (rules C6, K8).

With two players everything the player cannot see is the other player's
hand and the deck. At each reshuffle the other hand is known exactly: every
card is then in one of the two hands, on the table or in the mixed pile,
which is the new deck (K8). So only what happened since the last reshuffle
(since the deal, before any) is uncertain, and there the other player has a
known start (his hand at the reshuffle; nothing before one, his dealt cards
being draws), the cards he took, and his draws from one source: the pack,
or the mixed pile less the player's own draws.

`draw_pair` draws from the exact posterior: uniform over the orders of
that source and over which copy each of his plays used, the two copies of
a card counted as different cards (as `conquian.determinize` counts them).
Each card he played is given the entry it came from, a card of his start
or taken (one of those still held) or one of his draws before the play
(with the chance that it holds that card, given the copies of it left and
the draws not yet given); a forward pass sums these weights over every
choice, played card by played card, and a backward pass draws the choices
from those sums; the source's cards left are then shuffled into his other
draws and the deck.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

from ..actions import Draw, Meld
from ..cards import Card
from .public import read_history

if TYPE_CHECKING:
    from .view import CooCanView

__all__ = ["draw_pair"]

T = TypeVar("T")

State = tuple[int, tuple[tuple[int, int, int], ...]]
"""Draws given so far, and per card still to be played again: (its `Card.index`, draws
given it, start or taken cards given it)."""


def draw_pair(
    view: CooCanView, rng: random.Random
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The other hand (sorted) and the deck (top first) of a deal of two, drawn exactly (see
    the module); None when the view cannot tell it: its player's draws are not all recorded
    (a view read from JSON written without them), or its history leaves a played card no
    place (no deal gives the view).

    >>> import random
    >>> from conquian.coocan import CooCanRules, deal
    >>> s = deal(CooCanRules(players=2), CooCanRules().pack_cards(), dealer=0)
    >>> other, deck = draw_pair(s.apply("discard JC").view(0), random.Random(1))
    >>> len(other), len(deck)
    (10, 83)
    """
    rules = view.rules
    me = view.player
    q = 1 - me
    pub = read_history(rules, view.dealer, view.history)
    start = 0
    for step in pub.steps:
        if step.mixed is not None:
            start = step.index
    mine = Counter(view.hand)
    own = list(view.draws)
    at = len(own)
    if at != sum(1 for s in pub.steps if s.seat == me and isinstance(s.action, Draw)):
        return None
    for step in reversed(pub.steps):  # the player's hand back to the last reshuffle
        if step.index <= start:
            break
        if step.seat == me:
            mine.update(step.played)
            if step.taken is not None:
                mine[step.taken] -= 1
            elif isinstance(step.action, Draw):
                at -= 1
                mine[own[at]] -= 1
    if start:
        table = Counter(
            c
            for step in pub.steps
            if step.index <= start and isinstance(step.action, Meld)
            for c in step.played
        )
        pile = Counter(pub.piles[-1])
        held = Counter(rules.pack_cards()) - mine - table - pile  # his hand at the reshuffle
        source = pile - Counter(own[at:])
        slots: list[int] = []
    else:
        held = Counter()
        source = Counter(rules.pack_cards()) - mine - Counter(own)  # less his dealt hand too
        slots = [0] * pub.dealt[q]
    takes: list[tuple[int, Card]] = []
    plays: list[tuple[int, Card]] = []
    for step in pub.steps:
        if step.index <= start or step.seat != q:
            continue
        if step.taken is not None:
            takes.append((step.index, step.taken))
        elif isinstance(step.action, Draw):
            slots.append(step.index)
        else:
            plays.extend((step.index, c) for c in step.played)
    places = len(slots) + view.deck_size
    if sum(source.values()) != places or -source:
        return None
    order = sorted(slots)
    plays_i = [(t, c.index) for t, c in plays]
    takes_i = [(t, c.index) for t, c in takes]
    copies = [0] * 52
    for c, m in source.items():
        copies[c.index] = m
    start_copies = [0] * 52
    for c, m in held.items():
        start_copies[c.index] = m
    last = {v: i for i, (_, v) in enumerate(plays_i)}
    # forward: the sums of the weights of every way to give the first i plays their entries
    sums: list[dict[State, float]] = [{(0, ()): 1.0}]
    steps: list[list[tuple[State, bool, State, float]]] = []
    for i, (t, v) in enumerate(plays_i):
        before = bisect_left(order, t)
        known = start_copies[v] + sum(1 for x, w in takes_i if x < t and w == v)
        again = last[v] > i
        now: dict[State, float] = {}
        moves: list[tuple[State, bool, State, float]] = []
        for state, weight in sums[-1].items():
            m, open_ = state
            p = k = 0
            rest = open_
            for entry in open_:
                if entry[0] == v:
                    p, k = entry[1], entry[2]
                    rest = tuple(e for e in open_ if e[0] != v)
                    break
            for from_draw in (False, True):
                if from_draw:
                    factor = (before - m) * (copies[v] - p) / (places - m)
                    m2, p2, k2 = m + 1, p + 1, k
                else:
                    factor = float(known - k)
                    m2, p2, k2 = m, p, k + 1
                if factor <= 0:
                    continue
                new: State = (m2, tuple(sorted((*rest, (v, p2, k2)))) if again else rest)
                now[new] = now.get(new, 0.0) + weight * factor
                moves.append((state, from_draw, new, factor))
        if not now:
            return None
        sums.append(now)
        steps.append(moves)
    # backward: the entries drawn in proportion to the sums
    state = _pick(list(sums[-1].items()), rng)
    choice = [False] * len(plays)
    for i in range(len(plays) - 1, -1, -1):
        options = [(move, sums[i][move[0]] * move[3]) for move in steps[i] if move[2] == state]
        move = _pick(options, rng)
        choice[i] = move[1]
        state = move[0]
    # the chosen entries, then the source's cards left shuffled into the places left
    free = list(slots)
    card_at_slot: dict[int, Card] = {}
    left = Counter(source)
    start_left = Counter(held)
    taken_left = [c for _, c in takes]
    for (t, c), from_draw in zip(plays, choice, strict=True):
        if from_draw:
            earlier = [x for x in free if x < t]
            x = earlier[int(rng.random() * len(earlier))]
            free.remove(x)
            card_at_slot[x] = c
            left[c] -= 1
        elif start_left[c]:
            start_left[c] -= 1
        else:
            taken_left.remove(c)
    rest_cards = sorted(left.elements(), key=lambda c: c.index)
    for i in range(len(rest_cards) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        rest_cards[i], rest_cards[j] = rest_cards[j], rest_cards[i]
    hand = [*start_left.elements(), *taken_left, *rest_cards[: len(free)]]
    deck = tuple(rest_cards[len(free) :])
    return tuple(sorted(hand, key=lambda c: c.index)), deck


def _pick(options: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One of `options`, each in proportion to its weight."""
    total = sum(w for _, w in options)
    x = rng.random() * total
    for item, w in options:
        if x < w:
            return item
        x -= w
    return options[-1][0]
