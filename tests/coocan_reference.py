"""A reference for the exact Coo-Can draw (C6, K8): the same measure counted in time order.

`draw_exact` counts every other player's plays in the order they were made, keeping for
every seat and source the places given so far; it is slow and gives up beyond `limit`
partial sums, but it shares nothing with `conquian.coocan.posterior` (which counts the
plays seat by seat), so the tests hold that one against this one: the same total weight,
the same chances, the same distribution of samples.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import TypeVar

from conquian.actions import Draw
from conquian.cards import Card, card_at
from conquian.coocan import CooCanView
from conquian.coocan.public import read_history

T = TypeVar("T")

Key = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]]


def _pick(options: Sequence[tuple[T, float]], rng: random.Random) -> T:
    """One of `options`, each in proportion to its weight."""
    total = sum(w for _, w in options)
    x = rng.random() * total
    for item, w in options:
        if x < w:
            return item
        x -= w
    return options[-1][0]


def draw_exact(
    view: CooCanView, rng: random.Random, limit: int = 400
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None:
    """One draw of `exact_sampler` (None where it gives up)."""
    draw = exact_sampler(view, limit)
    return None if draw is None else draw(rng)


def exact_sampler(
    view: CooCanView, limit: int = 400
) -> Callable[[random.Random], tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]] | None:
    """Every hand (the view's player's as it is) and the deck (top first), drawn from the
    exact posterior for any number of players (see `CooCanView.sample_state`).

    The whole history is read: each card another player played is given the place it
    came from, a card he took or one of his places before the play (his dealt cards
    and his draws, each in its source: the pack, or the pile mixed at a reshuffle)
    with the chance that it holds that card; a forward pass sums these weights over
    every choice, play by play, keeping the number of places each player has given
    in each source and, for a card played again later, the copies given; a backward
    pass draws the choices. None when the player's draws are not all recorded, when
    the history leaves a played card no place, or when more than `limit` partial sums
    would be kept at one play.

    >>> import random
    >>> from conquian.coocan import CooCanRules, deal
    >>> s = deal(CooCanRules(players=3), CooCanRules().pack_cards(), dealer=0)
    >>> hands, deck = draw_exact(s.apply("discard JC").apply("draw").view(0), random.Random(1))
    >>> [len(h) for h in hands], len(deck)
    ([10, 11, 10], 72)
    """
    rules = view.rules
    n = rules.players
    me = view.player
    pub = read_history(rules, view.dealer, view.history)
    own = list(view.draws)
    if len(own) != sum(1 for s in pub.steps if s.seat == me and isinstance(s.action, Draw)):
        return None
    nk = len(pub.piles) + 1
    copies = [[0] * 52 for _ in range(nk)]
    for c in rules.pack_cards():
        copies[0][c.index] += 1
    for k, pile in enumerate(pub.piles, 1):
        for c in pile:
            copies[k][c.index] += 1
    mine = [0] * 52  # the player's dealt hand: his hand now, back through his actions
    for c in view.hand:
        mine[c.index] += 1
    others = [q for q in range(n) if q != me]
    where = {q: i for i, q in enumerate(others)}
    slots: list[list[list[int]]] = [[[] for _ in range(nk)] for _ in others]
    for q in others:
        slots[where[q]][0].extend([0] * pub.dealt[q])
    takes: list[list[tuple[int, int]]] = [[] for _ in others]
    plays: list[tuple[int, int, int]] = []  # time, seat (among the others), card index
    drawn = iter(own)
    for step in pub.steps:
        q = step.seat
        if q == me:
            for c in step.played:
                mine[c.index] += 1
            if step.taken is not None:
                mine[step.taken.index] -= 1
            elif isinstance(step.action, Draw):
                c = next(drawn)
                mine[c.index] -= 1
                copies[step.period][c.index] -= 1
            continue
        i = where[q]
        if step.taken is not None:
            takes[i].append((step.index, step.taken.index))
        elif isinstance(step.action, Draw):
            slots[i][step.period].append(step.index)
        else:
            plays.extend((step.index, i, c.index) for c in step.played)
    for v in range(52):
        copies[0][v] -= mine[v]
    sizes = [sum(len(slots[i][k]) for i in range(len(others))) for k in range(nk)]
    sizes[-1] += view.deck_size
    if any(min(row) < 0 for row in copies) or [sum(r) for r in copies] != sizes:
        return None
    last = {v: e for e, (_, _, v) in enumerate(plays)}
    seats = len(others)
    zero_p = (0,) * nk
    zero_k = (0,) * seats
    sums: list[dict[Key, float]] = [{((0,) * (seats * nk), ()): 1.0}]
    steps: list[list[tuple[Key, int, Key, float]]] = []
    for e, (t, i, v) in enumerate(plays):
        before = [bisect_left(slots[i][k], t) for k in range(nk)]
        known = sum(1 for x, w in takes[i] if x < t and w == v)
        again = last[v] > e
        now: dict[Key, float] = {}
        moves: list[tuple[Key, int, Key, float]] = []
        for key, weight in sums[-1].items():
            m, open_ = key
            p, kn = zero_p, zero_k
            rest = open_
            for entry in open_:
                if entry[0] == v:
                    p, kn = entry[1], entry[2]
                    rest = tuple(x for x in open_ if x[0] != v)
                    break
            if known > kn[i]:  # a card he took
                kn2 = (*kn[:i], kn[i] + 1, *kn[i + 1 :])
                new: Key = (m, tuple(sorted((*rest, (v, p, kn2)))) if again else rest)
                now[new] = now.get(new, 0.0) + weight * (known - kn[i])
                moves.append((key, -1, new, float(known - kn[i])))
            for k in range(nk):
                at = i * nk + k
                free = before[k] - m[at]
                left = copies[k][v] - p[k]
                if free <= 0 or left <= 0:
                    continue
                given = sum(m[j * nk + k] for j in range(seats))
                factor = free * left / (sizes[k] - given)
                m2 = (*m[:at], m[at] + 1, *m[at + 1 :])
                p2 = (*p[:k], p[k] + 1, *p[k + 1 :])
                new = (m2, tuple(sorted((*rest, (v, p2, kn)))) if again else rest)
                now[new] = now.get(new, 0.0) + weight * factor
                moves.append((key, k, new, factor))
        if not now or len(now) > limit:
            return None
        sums.append(now)
        steps.append(moves)
    LAST[:] = [(sums[-1], nk, seats)]
    start = [row[:] for row in copies]

    def draw(rng: random.Random) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        copies = [row[:] for row in start]
        key = _pick(list(sums[-1].items()), rng)
        choice = [0] * len(plays)
        for e in range(len(plays) - 1, -1, -1):
            options = [(mv, sums[e][mv[0]] * mv[3]) for mv in steps[e] if mv[2] == key]
            mv = _pick(options, rng)
            choice[e] = mv[1]
            key = mv[0]
        # the chosen places, then each source's cards left shuffled into its free places
        free_slots = [[list(row) for row in seat] for seat in slots]
        taken_left = [[v for _, v in seat] for seat in takes]
        held: list[list[int]] = [[] for _ in others]
        for (t, i, v), k in zip(plays, choice, strict=True):
            if k < 0:
                taken_left[i].remove(v)
                continue
            row = free_slots[i][k]
            x = row[int(rng.random() * bisect_left(row, t))]
            row.remove(x)
            copies[k][v] -= 1
        deck: list[Card] = []
        for k in range(nk):
            cards_left = [card_at(v) for v in range(52) for _ in range(copies[k][v])]
            for a in range(len(cards_left) - 1, 0, -1):
                b = int(rng.random() * (a + 1))
                cards_left[a], cards_left[b] = cards_left[b], cards_left[a]
            at = 0
            for i in range(seats):
                count = len(free_slots[i][k])
                held[i].extend(c.index for c in cards_left[at : at + count])
                at += count
            if k == nk - 1:
                deck = cards_left[at:]
        hands: list[tuple[Card, ...]] = []
        for q in range(n):
            if q == me:
                hands.append(view.hand)
            else:
                i = where[q]
                hands.append(tuple(card_at(v) for v in sorted((*held[i], *taken_left[i]))))
        return tuple(hands), tuple(deck)

    return draw


LAST: list[tuple[dict[Key, float], int, int]] = []
"""The last partial sums of the last `draw_exact`, with its number of sources and seats."""


def reference(view: CooCanView, limit: int) -> tuple[float, list[dict[int, float]]] | None:
    """The total weight of `view` counted in time order, and per source the chances of how
    many of its places gave the other players' plays; None beyond `limit` partial sums."""
    if exact_sampler(view, limit) is None:
        return None
    sums, nk, seats = LAST[0]
    total = sum(sums.values())
    given: list[dict[int, float]] = [{} for _ in range(nk)]
    for (m, _), weight in sums.items():
        for k in range(nk):
            count = sum(m[i * nk + k] for i in range(seats))
            given[k][count] = given[k].get(count, 0.0) + weight / total
    return total, given
