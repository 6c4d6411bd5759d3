"""Starting a deal: `new_game`, from a seed (the seeded shuffle `conquian.shuffle`, C7) or
from a deck.

>>> from conquian import ConquianRules, cards, new_game, shuffle
>>> shuffle(cards("AC 2C 3C 4C"), seed=1)
(card('4C'), card('2C'), card('3C'), card('AC'))
>>> new_game(ConquianRules(), seed=7).deck == shuffle(ConquianRules().pack_cards(), seed=7)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, overload

from .cards import Card, shuffle
from .errors import RecordError
from .games import game_of
from .rules import ConquianRules, CooCanRules, CooncanRules, Rules
from .state.base import State

if TYPE_CHECKING:
    from .coocan.state import CooCanState
    from .offer.state import ConquianState
    from .rummy.state import CooncanState

__all__ = ["check_deck", "new_game", "shuffle"]


def check_deck(rules: Rules, deck: Sequence[object]) -> tuple[Card, ...]:
    """The deck as a tuple of cards, if it is exactly the rules' pack in some order (E3).

    Raises `RecordError` listing every card that is missing, extra or not a card.

    >>> check_deck(ConquianRules(), cards("AC 2C"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    conquian.errors.RecordError: invalid deck: 3C is missing; ...
    """
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
        raise TypeError(f"deck must be a sequence of cards (got {type(deck).__name__})")
    deck = tuple(deck)
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


# One signature a rules class, so that a type checker knows the state's class (and its
# fields: `offer`, `pending`, `stock`, ...) from the rules it is dealt under.
@overload
def new_game(
    rules: ConquianRules,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    dealer: int = 0,
) -> ConquianState: ...
@overload
def new_game(
    rules: CooncanRules,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    dealer: int = 0,
) -> CooncanState: ...
@overload
def new_game(
    rules: CooCanRules,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    dealer: int = 0,
) -> CooCanState: ...
@overload
def new_game(
    rules: Rules,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    dealer: int = 0,
) -> State: ...
def new_game(
    rules: Rules,
    seed: int | None = None,
    deck: Sequence[Card] | None = None,
    dealer: int = 0,
) -> State:
    """Deal a new game under `rules`: from a `seed`, or from an explicit `deck`.

    Give exactly one of `seed` and `deck`; `deck` is the whole pack, top card
    first. The seat after the `dealer` acts first.

    The state is of the rules' engine: a `ConquianState` for `ConquianRules`, a
    `CooncanState` for `CooncanRules`, a `CooCanState` for `CooCanRules`, and a
    type checker knows it from the rules' class (`state.offer` type-checks).

    >>> state = new_game(ConquianRules(), seed=7)
    >>> state.current_player, len(state.hand(0)), len(state.hand(1))
    (1, 10, 10)
    """
    if (seed is None) == (deck is None):
        raise TypeError("new_game takes exactly one of seed= or deck=")
    game = game_of(rules)  # a TypeError for anything but a rules object
    if type(dealer) is not int or not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1} (got {dealer!r})")
    state: State
    if seed is not None:
        state = game.deal_seeded(rules, seed, dealer)
    else:
        state = game.deal(rules, check_deck(rules, deck or ()), dealer)
    return state
