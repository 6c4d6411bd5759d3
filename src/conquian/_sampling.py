"""The steps every game's sampling shares (`conquian.determinize`): shuffling the unseen
cards, placing them before their deadlines, and replaying the history within a budget.

It lives apart from `conquian.determinize` to keep each module short; it imports no
engine either.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .actions import Action
from .cards import Card
from .errors import IllegalActionError, RecordError

__all__ = [
    "NoDeal",
    "Unplayable",
    "arrange",
    "check_rng",
    "sampled",
    "shuffled",
]

S = TypeVar("S", bound=Any)


class NoDeal(Exception):
    """No deal gives the view: `conquian.determinize` raises it as `DeterminizationError`."""


def shuffled(items: Sequence[Any], rng: random.Random) -> list[Any]:
    """`items` in an order drawn uniformly, by the loop of `conquian.cards.shuffle`."""
    out = list(items)
    draw = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(draw() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def arrange(
    places: Sequence[int],
    times: Sequence[int],
    cards: Sequence[tuple[Card, int]],
    deck: list[Card | None],
    rng: random.Random,
) -> None:
    """Put `cards` (each with the action it is played at) on `places` (each filled at its
    action, -1 for the deal), each card on a place filled before it is played.

    Cards with the earliest deadline go first, each to a free place drawn
    among those filled in time: as those sets are nested, every arrangement
    that meets the deadlines is equally likely.
    """
    if len(places) != len(cards):
        raise NoDeal(f"{len(cards)} cards for {len(places)} places of one player")
    free = sorted(range(len(places)), key=lambda k: times[k])
    order = sorted(range(len(cards)), key=lambda k: cards[k][1])
    taken = [False] * len(places)
    for k in order:
        c, deadline = cards[k]
        allowed = [q for q in free if not taken[q] and times[q] < deadline]
        if not allowed:
            raise Unplayable
        q = allowed[int(rng.random() * len(allowed))]
        taken[q] = True
        deck[places[q]] = c


class Unplayable(Exception):
    """A card drawn for a hand cannot reach it before it is played: draw again."""


class _Failed:
    """Where a replay stopped: the index of the action, the action and why (E1)."""

    __slots__ = ("error", "index", "mine")

    def __init__(self, index: int, error: IllegalActionError, mine: bool) -> None:
        self.index = index
        self.error = error
        self.mine = mine  # the viewer's own action: what he knows decides it


def _replay(first: S, history: Sequence[Action], player: int) -> S | _Failed:
    """The deal `first` with `history` replayed; or where an action turned out illegal on it
    (an action can be legal only with some hidden cards, as a ``take`` in the two-hand game,
    T3, T8)."""
    state = first
    i = 0
    try:
        for action in history:
            state = state.apply(action)
            i += 1
    except IllegalActionError as e:
        return _Failed(i, e, state.current_player == player)
    return state


_TRIES = 10_000
"""Deals drawn at most before a view is declared impossible (see `_sampled`)."""
_REPLAYS = 4
"""Replays of the whole history one sample may cost at most, past `_FLOOR` (see `_sampled`)."""
_FLOOR = 20_000
"""Actions replayed at most on top of `_REPLAYS` replays: the retries a short history gets."""
_DRAW_COST = 4
"""A drawn deal is charged a `_DRAW_COST`-th of the history's length (reading the places)..."""
_DRAW_FLOOR = 16
"""... and `_DRAW_FLOOR` actions more (dealing the pack)."""


def sampled(
    view: Any,
    draw: Callable[[], S | None],
    accept: Callable[[S], bool] | None,
) -> S:
    """A state from `draw` (a deal drawn from the view's known places) whose history replays
    and gives the view (or that `accept` takes).

    Drawing again until the history replays keeps the draw uniform among the deals that
    give the view: an action whose legality hangs on hidden cards (a ``take`` of a card
    the taker must meld this turn, T3, T8) rejects the deals where it is illegal.

    The cost is bounded whatever the view (E2): an action of the viewer himself that is
    illegal is illegal on every deal (his cards and the public ones are the same on
    each), so it ends the search at the first replay; and the replays and draws together
    cost at most `_REPLAYS` replays of the whole history plus `_FLOOR` actions, after
    which the view is refused naming the action that most often failed.
    """
    if accept is None:

        def accept(state: S) -> bool:
            return bool(state.view(view.player) == view)

    history: Sequence[Action] = view.history
    n = len(history)
    budget = _REPLAYS * (n + 1) + _FLOOR
    spent = 0
    failed: dict[int, _Failed] = {}
    counts: Counter[int] = Counter()
    for _ in range(_TRIES):
        try:
            first = draw()
        except RecordError as e:  # the known places hold a card twice: on every draw
            raise NoDeal(f"the view's history places its known cards so: {e}") from None
        spent += n // _DRAW_COST + _DRAW_FLOOR
        if first is not None:
            outcome = _replay(first, history, view.player)
            if isinstance(outcome, _Failed):
                spent += outcome.index + 1
                if outcome.mine:
                    raise NoDeal(_illegal(outcome, history))
                failed.setdefault(outcome.index, outcome)
                counts[outcome.index] += 1
            else:
                spent += n
                if accept(outcome):
                    return outcome
        if spent > budget:
            break
    if counts:
        worst = failed[counts.most_common(1)[0][0]]
        raise NoDeal(f"{_illegal(worst, history)}, on every deal drawn")
    raise NoDeal("no deal drawn gives this view")


def _illegal(failed: _Failed, history: Sequence[Action]) -> str:
    """The action at which a replay failed, named by its index and text, and why (E1)."""
    return f"history[{failed.index}]: {failed.error}"


def check_rng(rng: object) -> None:
    """A sample needs a source of random numbers: `rng` must have `random()` (E2)."""
    if not callable(getattr(rng, "random", None)):
        raise TypeError(f"sample_state: rng must be a random.Random, not {type(rng).__name__}")
