"""The rummy engine's legal actions against a brute-force reading of the rules (M2-M5, M9).

The oracle here knows nothing of the engine's enumeration: it tries every
sub-multiset of the hand, with every joker named every way that could matter,
and asks `conquian.combos.build`, `extend`, `fits` and `shifts` whether the
result is a combination. It then applies the no-dead-end rule of M2 by a
plain search. Over many states reached by random play, the engine must offer
exactly the oracle's actions, and each must lead to the table and hand the
oracle expects.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from conquian import (
    JOKER,
    Card,
    CooncanRules,
    Discard,
    Draw,
    Force,
    Meld,
    NamedJoker,
    Suit,
    Take,
    new_game,
)
from conquian.actions import Action
from conquian.cards import Face
from conquian.combos import Combination, Order, build, extend, fits, shifts
from conquian.cooncan import CooncanState

ORDER = Order.of("standard")
Play = tuple[Action, tuple[Card, ...], tuple[Combination, ...]]


def sub_multisets(hand: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
    """Every non-empty sub-multiset of `hand`."""
    counts = sorted(Counter(hand).items())
    for picks in itertools.product(*(range(k + 1) for _, k in counts)):
        sub = tuple(c for (c, _), m in zip(counts, picks, strict=True) for _ in range(m))
        if sub:
            yield sub


def namings(sub: tuple[Card, ...], around: tuple[Face, ...] = ()) -> Iterator[tuple[Face, ...]]:
    """`sub` with its jokers named every way that could make or extend a combination.

    A joker in a sequence takes the suit of the natural cards with it; in a
    group it is named by rank only (C5, M9): other names can never be valid.
    """
    naturals = tuple(c for c in sub if c is not JOKER)
    jokers = len(sub) - len(naturals)
    if not jokers:
        yield naturals
        return
    others = naturals + tuple(f for f in around)
    suits = {f.suit for f in others if f.suit is not None} or set(Suit)
    ranks = {f.rank for f in others} or set(range(1, 14))
    names = [NamedJoker(r, s) for s in sorted(suits) for r in range(1, 14)]
    names += [NamedJoker(r) for r in sorted(ranks)]
    for chosen in itertools.combinations_with_replacement(names, jokers):
        yield naturals + chosen


def physical(faces: tuple[Face, ...]) -> tuple[Card, ...]:
    return tuple(JOKER if isinstance(f, NamedJoker) else f for f in faces)


def less(hand: tuple[Card, ...], played: tuple[Card, ...]) -> tuple[Card, ...]:
    rest = list(hand)
    for c in played:
        rest.remove(c)
    return tuple(rest)


def put(table: tuple[Combination, ...], i: int, combo: Combination) -> tuple[Combination, ...]:
    return (*table[:i], combo, *table[i + 1 :])


def brute_plays(hand: tuple[Card, ...], table: tuple[Combination, ...], p: int) -> Iterator[Play]:
    """Every Meld and Force by brute force, with the hand and table after it (M4, M5, M9)."""
    subs = list(sub_multisets(hand))
    for sub in subs:
        if len(sub) >= 3:
            for faces in namings(sub):
                combo = build(faces, ORDER, p)
                if combo is not None:
                    yield Meld(faces), less(hand, sub), (*table, combo)
    for i, combo in enumerate(table):
        singles = [s for s in subs if len(s) == 1]
        if combo.owner == p:
            for sub in subs:
                for faces in namings(sub, combo.cards):
                    bigger = extend(combo, faces, ORDER)
                    if bigger is not None:
                        yield Meld(faces, onto=i), less(hand, sub), put(table, i, bigger)
        for (c,) in singles:
            for (face,) in namings((c,), combo.cards):
                if combo.owner != p:
                    bigger = fits(combo, face, ORDER)
                    if bigger is not None:
                        yield Force(face, onto=i), less(hand, (c,)), put(table, i, bigger)
                moved = shifts(combo, face, ORDER)
                if moved:
                    verb = Meld((face,), onto=i, shift=True) if combo.owner == p else None
                    action: Action = verb or Force(face, onto=i, shift=True)
                    yield action, less(hand, (c,)), put(table, i, moved[0])


def can_finish(
    hand: tuple[Card, ...], table: tuple[Combination, ...], p: int, taken: Card | None
) -> bool:
    """M2: the turn can end: an empty hand, a card he may discard, or every card laid off."""
    if not hand or taken is None or any(c != taken for c in hand):
        return True
    return any(can_finish(rest, after, p, taken) for _, rest, after in brute_plays(hand, table, p))


def oracle(state: CooncanState) -> dict[Action, tuple[tuple[Card, ...], tuple[Combination, ...]]]:
    """The legal actions by brute force, with the hand and table each leaves (Meld/Force)."""
    p = state.current_player
    if p is None:
        return {}
    hand, table = state.hand(p), state.table
    out: dict[Action, tuple[tuple[Card, ...], tuple[Combination, ...]]] = {}
    if state.phase == "draw":
        out[Draw()] = ((), ())
        stock = state.stock[-1:] if state.rules.stock == "closed" else tuple(set(state.stock))
        for c in stock:
            if can_finish((*hand, c), table, p, c):
                out[Take(c)] = ((), ())
        return out
    for action, rest, after in brute_plays(hand, table, p):
        if can_finish(rest, after, p, state.taken):
            assert action not in out or out[action] == (rest, after), action
            out[action] = (rest, after)
    for c in set(hand):
        if c != state.taken:
            out[Discard(c)] = ((), ())
    return out


def check(state: CooncanState) -> None:
    """The engine's legal actions are the oracle's, without repeats, with the same effect."""
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal)
    expected = oracle(state)
    assert set(legal) == set(expected), (
        f"missing {sorted(map(str, set(expected) - set(legal)))}, "
        f"extra {sorted(map(str, set(legal) - set(expected)))}"
    )
    p = state.current_player
    assert p is not None
    for action, (rest, after) in expected.items():
        if isinstance(action, (Meld, Force)):
            nxt = state.apply(action)
            assert Counter(nxt.hand(p)) == Counter(rest)
            assert nxt.table == after


def random_states(rules: CooncanRules, seed: int, cap: int) -> Iterator[CooncanState]:
    """States of one random game; melds and forces are played more often than chance would.

    Laying out more often puts more combinations, jokers and shifts on the
    table, which is where the rules are subtle.
    """
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    assert isinstance(state, CooncanState)
    while not state.is_over and cap:
        yield state
        cap -= 1
        actions = state.legal_actions()
        lays = [a for a in actions if isinstance(a, (Meld, Force))]
        pool = lays if lays and rng.random() < 0.7 else actions
        state = state.apply(pool[int(rng.random() * len(pool))])


@pytest.mark.parametrize(
    "rules",
    [
        CooncanRules.three_hand(turn_limit=60),
        CooncanRules.three_hand(jokers=1, turn_limit=60),
        CooncanRules.three_hand(jokers=1, stock="open", players=2, turn_limit=60),
    ],
    ids=["three-hand", "three-hand-joker", "three-hand-open-2p"],
)
def test_legal_actions_match_brute_force_three_hand(rules: CooncanRules) -> None:
    """M2-M5, M9: every state of several random three-hand games agrees with the oracle."""
    checked = 0
    for seed in range(6):
        for state in random_states(rules, seed, cap=120):
            check(state)
            checked += 1
    assert checked > 300


def test_legal_actions_match_brute_force_double_pack() -> None:
    """M2-M5, M9: double-pack states with hands of up to nine cards agree with the oracle."""
    checked = 0
    for seed in range(8):
        rules = CooncanRules.double_pack(players=2 + seed % 3, turn_limit=80)
        for state in random_states(rules, seed, cap=200):
            p = state.current_player
            assert p is not None
            hand = state.hand(p)
            if len(hand) <= 9 - 2 * hand.count(JOKER):
                check(state)
                checked += 1
    assert checked > 100
