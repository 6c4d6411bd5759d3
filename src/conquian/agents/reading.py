"""Reading the other hand in two-seat Conquian: which hidden cards explain the opponent's play.

`view.sample_state` deals the opponent any of the unseen cards, all hands
alike (C6). His play says more. A player who passed a card he could have
melded (T5, T6), or who kept some cards and discarded another (T8), holds
some hands more likely than others. The reader models him as a heuristic
player: a hand he might hold is weighed by the past choices of his that the
heuristic, holding that hand, would not have made. Each such *miss* multiplies
the hand's weight by `slip`, the chance the reader gives him of choosing
otherwise than the model; a hand that explains every choice weighs 1, and a
hand with which one of his past actions was illegal weighs nothing (a take
he could not meld, T3, T8).

Hands are drawn by a Metropolis chain over the opponent's unseen cards: one
of them is swapped for another unseen card, and the swap is kept always if
the new hand misses no more choices, else with the chance ``slip ** (more
misses)``. A hand that misses four choices more than the current one is never
kept (its chance would be at most ``slip ** 4``), which lets the count stop
there. Each deal then shuffles the untouched stock afresh, so that deals
differ in what is still to come even while the hand stays. The chain runs
`BURN` steps at each decision before the first deal and `STEPS` between
deals, and starts from the hand it read at the previous decision of the same
deal, with the cards played since replaced.

Only Conquian for two is read: the reader weighs one hidden hand. With
three or four players the unseen cards lie in two or three hands, and in
Cooncan the hidden hands grow by draws from the pack; `HandReader.declines`
says why a view is not read, and there the searching bot samples uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..cards import Card
from ..determinize import TwoHandDeals, _shuffled
from ..errors import IllegalActionError
from ..games import game_of
from ..state.base import PlayerView, State
from .base import Agent

__all__ = ["BURN", "STEPS", "HandReader"]

BURN = 40
"""Steps of the chain at each decision before its first deal."""

STEPS = 2
"""Steps of the chain between two deals of a decision."""

_WORSE = 4
"""Misses beyond the current hand's at which a proposed hand is never kept."""


class HandReader:
    """Draws two-hand deals whose hidden hand explains the opponent's play (see the module).

    `model` is the agent the opponent is read as (the searching bot reads
    him as a `HeuristicAgent`); `slip` the chance that he chooses otherwise
    than it (between 0 and 1). `start` reads a view for a decision, then
    each `deal` draws a deal for it.

    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(1)
    >>> reader = HandReader(HeuristicAgent(), slip=0.02)
    >>> reader.start(view, random.Random(1))
    True
    >>> reader.deal(random.Random(2)).view(1) == view
    True
    """

    def __init__(self, model: Agent, slip: float) -> None:
        if not 0.0 < slip < 1.0:
            raise ValueError(f"slip must be between 0 and 1 (got {slip!r})")
        self.model = model
        self.slip = slip
        self._history: tuple[Action, ...] | None = None
        self._player = -1
        self._held: list[Card] = []
        self._misses = 0
        self._todo = 0
        self._deals: TwoHandDeals | None = None
        self._view: PlayerView | None = None
        self._unseen: list[Card] = []

    @staticmethod
    def declines(view: PlayerView) -> str | None:
        """Why the reader does not read `view`, or None if it does.

        >>> HandReader.declines(new_game(CooncanRules.three_hand(), seed=1).view(0))
        "Foster's three-hand Cooncan is not read: the hidden hands grow by draws from the pack"
        """
        try:
            game = game_of(getattr(view, "rules", None))  # type: ignore[arg-type]
        except TypeError:
            return f"not a view of a game of the library ({type(view).__name__})"
        if game.hands_grow:  # M, K; in Conquian no card enters a hand (T3)
            return f"{game.title} is not read: the hidden hands grow by draws from the pack"
        if getattr(getattr(view, "rules", None), "trades", 0):
            return "a deal with trade rounds (T21) is not read: its dealt hands are not its hands"
        seats = len(view.hand_sizes)
        if seats != 2:
            return (
                f"with {seats} players the unseen cards lie in {seats - 1} hands "
                "and the reader weighs one"
            )
        return None

    def start(self, view: PlayerView, rng: random.Random) -> bool:
        """Read `view` for a new decision; False if it has no hidden hand to read (see
        `declines`)."""
        if self.declines(view) is not None:
            return False
        deals = TwoHandDeals(view)
        hidden = deals.hidden
        if hidden == 0:
            return False
        unseen = sorted(view.unseen)
        still = set(unseen)
        history = tuple(view.history)
        self._deals, self._view, self._unseen = deals, view, unseen
        held: list[Card] = []
        last = self._history
        if last is not None and view.player == self._player and history[: len(last)] == last:
            held = _shuffled([c for c in self._held if c in still], rng)[:hidden]
        held += _shuffled(self._others(held), rng)[: hidden - len(held)]
        misses = self._count(held, None)
        if misses is None:  # the hand read before cannot have played this deal: start afresh
            sample: State = view.sample_state(rng)  # type: ignore[attr-defined]
            other = (view.player + 1) % len(view.hand_sizes)  # two seats: the other hand
            held = sorted(c for c in sample.hand(other) if c in still)
            misses = self._count(held, None)
            assert misses is not None
        self._history, self._player = history, view.player
        self._held, self._misses, self._todo = held, misses, BURN
        return True

    def deal(self, rng: random.Random) -> State:
        """The next deal: the chain's hand after a few more steps, the stock shuffled afresh."""
        view, deals = self._view, self._deals
        assert view is not None and deals is not None, "start() first"
        held, misses = self._held, self._misses
        steps, self._todo = self._todo + STEPS, 0
        for _ in range(steps):
            outside = self._others(held)
            if not outside:
                break
            proposed = list(held)
            proposed[int(rng.random() * len(held))] = outside[int(rng.random() * len(outside))]
            found = self._count(proposed, misses + _WORSE)
            if found is not None and (
                found <= misses or rng.random() < self.slip ** (found - misses)
            ):
                held, misses = proposed, found
        self._held, self._misses = held, misses
        state: State = deals(held, _shuffled(self._others(held), rng), rng)
        for action in view.history:
            state = state.apply(action)
        return state

    def _others(self, held: Sequence[Card]) -> list[Card]:
        """The unseen cards not in `held`, in order: the untouched stock."""
        taken = set(held)
        return [c for c in self._unseen if c not in taken]

    def _count(self, held: Sequence[Card], stop: int | None) -> int | None:
        """How many of the opponent's past choices the model would not have made holding
        `held`; None if one of his actions is illegal with it, or once `stop` are found."""
        view, deals = self._view, self._deals
        assert view is not None and deals is not None
        # Neither the order of the untouched stock nor that of a hand plays a part in the past.
        state: State = deals(held, self._others(held), None)
        me = view.player
        found = 0
        try:
            for action in view.history:
                seat = state.current_player
                if seat != me and seat is not None:
                    seen = state.view(seat)
                    if len(seen.legal_actions) > 1 and self.model(seen) != action:
                        found += 1
                        if stop is not None and found >= stop:
                            return None
                state = state.apply(action)
        except IllegalActionError:
            return None
        return found
