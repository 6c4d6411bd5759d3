"""Starting a deal: `new_game`, and the seeded shuffle (RULES.md C7, DESIGN.md).

>>> from conquian import ConquianRules, cards
>>> shuffle(cards("AC 2C 3C 4C"), seed=1)
(card('4C'), card('2C'), card('3C'), card('AC'))
"""

from __future__ import annotations

import functools
import math

# `random.Random`'s base class, the Mersenne Twister itself: seeded by an int, it gives the
# same stream as `random.Random(seed)` without that class's Python layer (a fast path).
from _random import Random as _Twister
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from operator import mul
from typing import TypeVar

from .cards import Card, make_pack
from .errors import RecordError
from .rules import ConquianRules, CooncanRules, Rules
from .state import State
from .two_hand import deal as deal_two_hand
from .two_hand import deal_indices

__all__ = ["check_deck", "new_game", "shuffle"]

_T = TypeVar("_T")


def shuffle(pack: Iterable[Card], seed: int) -> tuple[Card, ...]:
    """The pack shuffled by the seed, top card first (C7).

    The shuffle is the one DESIGN.md fixes, built only on `random.Random.random`,
    the one stream Python promises to keep, so a seed deals the same cards on
    every Python version and can be repeated in other languages.

    >>> shuffle(make_pack("spanish"), seed=7)[:3]
    (card('AH'), card('JS'), card('JC'))
    """
    return tuple(_shuffled(list(pack), seed))


def _shuffled(deck: list[_T], seed: int) -> list[_T]:
    """`deck` shuffled in place by the seed (DESIGN.md's loop), and returned."""
    if type(seed) is not int:
        raise TypeError(f"a seed is an int (got {type(seed).__name__})")
    for i, j in zip(range(len(deck) - 1, 0, -1), _swaps(len(deck), seed), strict=True):
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_SIZES: dict[int, tuple[float, ...]] = {}


@functools.cache
def _pack_indices(name: str) -> tuple[int, ...]:
    """The `Card.index` of each card of a two-hand pack, in canonical order."""
    return tuple(c.index for c in make_pack(name))


def _swaps(n: int, seed: int) -> Iterator[int]:
    """The `j` of each step of the shuffle of `n` cards, `i` running from ``n - 1`` down to 1.

    Fast path: the draws are made in one list and scaled in C (`map`), not one by one
    in a Python loop: ``floor(draw * (i + 1))`` of a non-negative product is
    ``int(draw * (i + 1))``, and a float `i + 1` multiplies as the int does.
    """
    sizes = _SIZES.get(n)
    if sizes is None:
        sizes = _SIZES[n] = tuple(float(i + 1) for i in range(n - 1, 0, -1))
    draw = _Twister(seed).random
    return map(math.floor, map(mul, [draw() for _ in sizes], sizes))


def check_deck(rules: Rules, deck: Sequence[object]) -> tuple[Card, ...]:
    """The deck as a tuple of cards, if it is exactly the rules' pack in some order (E3).

    Raises `RecordError` listing every card that is missing, extra or not a card.

    >>> check_deck(ConquianRules(), cards("AC 2C"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    conquian.errors.RecordError: invalid deck: 3C is missing; ...
    """
    problems = []
    good = [c for c in deck if isinstance(c, Card)]
    for c in deck:
        if not isinstance(c, Card):
            problems.append(f"{c!r} is not a card")
    want = Counter(rules.pack_cards())
    have = Counter(good)
    for c in sorted(have - want):
        n = (have - want)[c]
        problems.append(f"{c} is {'one' if n == 1 else n} too many for the {rules.game} pack")
    for c in sorted(want - have):
        n = (want - have)[c]
        problems.append(f"{c} is missing{'' if n == 1 else f' {n} times'}")
    if problems:
        raise RecordError(problems, what="deck")
    return tuple(good)


def new_game(
    rules: Rules,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    dealer: int = 0,
) -> State:
    """Deal a new game under `rules`: from a `seed`, or from an explicit `deck`.

    Give exactly one of `seed` and `deck`; `deck` is the whole pack, top card
    first. The player after the `dealer` acts first.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> state.current_player, len(state.hand(0)), len(state.hand(1))
    (1, 10, 10)
    """
    if (seed is None) == (deck is None):
        raise TypeError("new_game takes exactly one of seed= or deck=")
    if not isinstance(rules, (ConquianRules, CooncanRules)):
        raise TypeError(f"rules must be ConquianRules or CooncanRules (got {type(rules).__name__})")
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1} (got {dealer!r})")
    if isinstance(rules, ConquianRules):
        if seed is not None:
            # Fast path: the cards' indices are shuffled, not the cards: the same order (C7),
            # and the deal reads the indices it needs without asking each card.
            return deal_indices(rules, _shuffled(list(_pack_indices(rules.pack)), seed), dealer)
        return deal_two_hand(rules, check_deck(rules, deck or ()), dealer)
    order = shuffle(rules.pack_cards(), seed) if seed is not None else check_deck(rules, deck or ())
    from .cooncan import deal as deal_cooncan  # here: cooncan imports this module

    return deal_cooncan(rules, order, dealer)
