"""The plain statement of Cooncan's melding and turn rules (RULES.md M2-M5, M9): a brute force.

It knows nothing of the engine's enumeration: it tries every sub-multiset of
the hand, with every joker named every way that could matter, and asks
`conquian.combos.core.build`, `extend`, `fits` and `shifts` whether the result is
a combination. It then applies the no-dead-end rule of M2 by a plain search.
`oracle(state)` is every legal action of a state with the hand and table it
leads to; `tests/rummy/test_rummy_oracle.py` checks the engine against it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from conquian import JOKER, Card, Discard, Draw, Force, Meld, NamedJoker, Suit, Take
from conquian.actions import Action
from conquian.cards import Face
from conquian.combos.core import Combination, Order, build, extend, fits, shifts
from conquian.rummy import CooncanState

__all__ = ["oracle"]

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
