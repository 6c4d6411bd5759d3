"""C6, T21: the count of the ways to undo a view's trade rounds (`conquian.offer.untrade`), held
to every deal and every choice of the others played forward on a small table.

On a table with hands of two or three cards every deal of the other seats and every
choice of their rounds is played forward, and those that give the viewer's rounds (the
cards he gave, and the cards his right neighbour chose for him) are kept. Each kept play
is a class: where the cards he gave are after the rounds, and which of them each seat
receiving an unseen choice got in each round. The counts say how many plays each class
stands for (the hidden places that can hold his cards, times the choices of each round);
they must be in the same ratio to the plays kept in every class, and add up to all of
them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations, product

import pytest

from conquian.cards import Card, cards
from conquian.offer.untrade import Rounds

_Key = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]


def _forward(
    players: int, hand: int, pool: list[Card], mine: list[Card], seed: int, rounds: int
) -> list[tuple[Card, Card]]:
    """The cards seat 0 gives and receives in `rounds` rounds of one random deal and random
    choices (his choices too)."""
    rng = random.Random(seed)
    cards = list(pool)
    rng.shuffle(cards)
    hands = [set(mine)] + [set(cards[k * hand : (k + 1) * hand]) for k in range(players - 1)]
    out = []
    for _ in range(rounds):
        chosen = [rng.choice(sorted(h)) for h in hands]
        out.append((chosen[0], chosen[-1]))
        hands = [h - {chosen[q]} | {chosen[q - 1]} for q, h in enumerate(hands)]
    return out


def _kept(
    players: int, hand: int, pool: list[Card], mine: list[Card], rounds: list[tuple[Card, Card]]
) -> Counter[_Key]:
    """Every deal of `pool` to seats 1..n-1 (the rest undealt) and every choice of theirs
    that gives seat 0's `rounds`, counted by class (see the module)."""
    gave = list(dict.fromkeys(g for g, _ in rounds))
    kept: Counter[_Key] = Counter()

    def deals(left: list[Card], seats: int) -> list[list[frozenset[Card]]]:
        if not seats:
            return [[]]
        return [
            [frozenset(h), *rest]
            for h in combinations(left, hand)
            for rest in deals([c for c in left if c not in h], seats - 1)
        ]

    def play(r: int, hands: list[frozenset[Card]], picks: tuple[tuple[int, ...], ...]) -> None:
        if r == len(rounds):
            at = tuple(next(q for q, h in enumerate(hands) if c in h) for c in gave)
            kept[(at, picks)] += 1
            return
        g, x = rounds[r]
        if g not in hands[0] or x not in hands[-1]:
            return
        for chosen in product(*(sorted(h) for h in hands[1:-1])):
            gives = [g, *chosen, x]  # each seat's choice; each receives its right's
            new = [h - {gives[q]} | {gives[q - 1]} for q, h in enumerate(hands)]
            # undone, each seat q of 2..n-1 gives back the card seat q-1 chose, unseen
            pick = tuple(gave.index(c) if c in gave else -1 for c in chosen)
            play(r + 1, new, (*picks, pick))

    for dealt in deals(pool, players - 1):
        play(0, [frozenset(mine), *dealt], ())
    return kept


@pytest.mark.parametrize(
    ("players", "hand", "undealt", "rounds", "seed"),
    [(3, 3, 2, 3, 0), (3, 3, 2, 3, 5), (3, 2, 1, 4, 2), (4, 2, 1, 2, 1), (4, 2, 1, 3, 3)],
)
def test_c6_t21_the_counts_of_undoing_the_rounds_are_those_of_the_plays_forward(
    players: int, hand: int, undealt: int, rounds: int, seed: int
) -> None:
    pack = cards("AC 2C 3C 4C 5C 6C 7C AD 2D 3D 4D 5D 6D 7D")
    mine = pack[:hand]
    pool = pack[hand : hand * players + undealt]
    trades = _forward(players, hand, pool, mine, seed, rounds)
    kept = _kept(players, hand, pool, mine, trades)
    assert kept, "the rounds drawn forward are kept at least once"
    undo = Rounds(trades, 0, players, hand)
    counted: dict[_Key, int] = {}
    for (at, picks), _ in kept.items():
        weight = math.prod(math.perm(hand, at.count(q)) for q in range(1, players))
        here = at
        for r in range(len(trades) - 1, -1, -1):
            moves = {p: (k, before) for k, before, p in undo.moves(r, here)}
            assert picks[r] in moves, (at, picks, r)
            k, here = moves[picks[r]]
            weight *= k
        counted[(at, picks)] = weight
    ratio = {kept[key] / w for key, w in counted.items()}
    assert max(ratio) - min(ratio) < 1e-9 * max(ratio), ratio
    # and nothing counted that no play gives: the classes' counts add up to all the ways
    last = len(trades) - 1
    held = set(mine)  # seat 0's hand after the rounds
    for g, x in trades:
        held = held - {g} | {x}
    total = 0
    for at in product(range(players), repeat=len(undo.cards)):
        if all((q == 0) == (c in held) for q, c in zip(at, undo.cards, strict=True)):
            place = math.prod(math.perm(hand, at.count(q)) for q in range(1, players))
            total += place * undo.ways(last, at)
    assert total == sum(counted.values())
