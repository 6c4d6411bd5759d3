"""``pimc@v1``: the default searching bot of 0.1.0, frozen (perfect-information Monte Carlo).

For each decision with more than one legal action it draws 8 whole deals
consistent with its view (the library's uniform samplers, `view`'s
`conquian.determinize.samples`, C6), plays each to its end once after each
of ``heuristic@v1``'s 2 best actions, every seat then following
``heuristic@v1``, and leaves the heuristic's favourite only for the other
candidate if it did better on the same deals by more than one standard error
of the paired differences. A deal is worth 1 won, 0 lost, ½ a tableau or an
abandoned deal (T12); in Cooncan its worth grows with the pips paid (M7). A
rollout stops after 400 actions, the deal then undecided.

Its parameters are fixed here; only the samplers' draws, which belong to the
rules library, can change what it plays.
"""

from __future__ import annotations

import math
import random

from ...actions import Action
from ...determinize import samples
from ...games import game_of
from ...state.base import Outcome, PlayerView, State
from ..base import _no_actions
from .heuristic import HeuristicV1, ranked

__all__ = ["PIMCV1"]

ITERATIONS = 8
"""Sampled deals a decision."""

CANDIDATES = 2
"""How many of ``heuristic@v1``'s best actions are compared."""

MARGIN = 1.0
"""Standard errors of the paired differences by which another candidate must do better."""

ROLLOUT_LIMIT = 400
"""The most actions a rollout plays before the deal counts as undecided."""


def _worth(final: State, seat: int) -> float:
    """What a finished deal is worth to `seat`, between 0 and 1 (a tableau ½)."""
    result = final.result
    if result is None or result.outcome is not Outcome.WIN:
        return 0.5
    scale = game_of(final.rules).payment_scale(final.rules)
    if scale is None:  # won or lost, whatever the size (a counter from each loser, T13, T19)
        return 1.0 if result.winner == seat else 0.0
    return 0.5 + 0.5 * math.tanh(result.payments[seat] / scale)


def _rollout(state: State, policy: HeuristicV1) -> State:
    """Play `state` on with `policy` in every seat, at most `ROLLOUT_LIMIT` actions."""
    for _ in range(ROLLOUT_LIMIT):
        seat = state.current_player
        if seat is None:
            break
        state = state.apply(policy(state.view(seat)))
    return state


class PIMCV1:
    """``pimc@v1``: 0.1.0's default searching bot, its parameters fixed (see the module).

    With the same seed it makes the same choices in the same views.

    >>> state = new_game(ConquianRules(), seed=7).apply("pass")
    >>> view = state.view(state.current_player)
    >>> PIMCV1(seed=1)(view) in view.legal_actions
    True
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._policy = HeuristicV1()

    def __call__(self, view: PlayerView) -> Action:
        """The action ``pimc@v1`` chooses in `view`, after searching."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        if len(actions) == 1:
            return actions[0]
        rng = random.Random(self._rng.getrandbits(64))
        order = ranked(view)[:CANDIDATES]
        me = view.player
        # gains[k][i]: how much better candidate k did than the heuristic's favourite on deal i
        gains: list[list[float]] = [[] for _ in order]
        draw = samples(view)
        for _ in range(ITERATIONS):
            deal = draw(rng)
            worths = [_worth(_rollout(deal.apply(a), self._policy), me) for a in order]
            for k, w in enumerate(worths):
                gains[k].append(w - worths[0])
        best, best_mean = 0, 0.0
        for k in range(1, len(order)):
            g = gains[k]
            mean = sum(g) / len(g)
            spread = math.sqrt(sum((x - mean) ** 2 for x in g) / max(1, len(g) - 1))
            if mean > best_mean and mean > MARGIN * spread / math.sqrt(len(g)):
                best, best_mean = k, mean
        return order[best]

    def __repr__(self) -> str:
        return f"PIMCV1(seed={self.seed!r})"
