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
from ..cards import Card, card_at
from .public import read_history

if TYPE_CHECKING:
    from .view import CooCanView

__all__ = ["LIMIT", "draw_exact", "draw_pair"]

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


LIMIT = 400
"""The most partial sums `draw_exact` keeps at one play before it gives up (returns None)."""


def draw_exact(
    view: CooCanView, rng: random.Random, limit: int = LIMIT
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None:
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
    Key = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]]
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
