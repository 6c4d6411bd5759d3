"""``heuristic@v1``: the heuristic of 0.1.0, frozen, so that other bots are measured against
a fixed reference.

It plays exactly as `conquian.agents.HeuristicAgent` played in 0.1.0: the
scoring is a copy (this package's `offer`, `rummy`, `coocan` and
`analysis`), so a later change of the live heuristic does not change it.
``tests/agents/test_bots_golden.py`` holds it to transcripts taken from 0.1.0 through
`make_agent` with explicit seeds.
"""

from __future__ import annotations

from typing import cast

from ...actions import Action
from ...coocan import CooCanView
from ...offer import ConquianView
from ...rummy import CooncanView
from ...state.base import PlayerView
from ..base import _no_actions
from .analysis import _OfferView, _RummyView, _Splits
from .coocan import scores as coocan_scores
from .offer import _OfferPlayer
from .rummy import _RummyPlayer

__all__ = ["HeuristicV1", "ranked"]


def _scores(view: PlayerView, splits: _Splits | None = None) -> list[tuple[float, int, Action]]:
    """``heuristic@v1``'s worth of every legal action of `view`: (value, minus index, action).

    The view's own class says which game's play applies.
    """
    if isinstance(view, CooCanView):  # Coo-Can's own player (rules K): sets of four, spots
        return coocan_scores(view)
    if isinstance(view, ConquianView):  # the say (rules T)
        return _OfferPlayer(cast(_OfferView, view), splits).scores()
    if isinstance(view, CooncanView):  # Foster's Cooncan (rules M)
        return _RummyPlayer(cast(_RummyView, view), splits).scores()
    raise TypeError(f"heuristic@v1 does not know the view {type(view).__name__}")


def ranked(view: PlayerView) -> list[Action]:
    """The legal actions of `view`, ``heuristic@v1``'s favourite first.

    >>> view = new_game(ConquianRules(), seed=5).view(1)
    >>> ranked(view)[0] == HeuristicV1()(view)
    True
    """
    if len(view.legal_actions) <= 1:
        return list(view.legal_actions)
    order = sorted(_scores(view), key=lambda t: (t[0], t[1]), reverse=True)
    return [a for _, _, a in order]


class HeuristicV1:
    """``heuristic@v1``: the heuristic of 0.1.0, frozen (see the module).

    It plays after Foster's "suggestions for good play" (1913), Hoyle (1897)
    and pagat in two-hand and more-handed Conquian, Foster's Cooncan for three
    and with the double pack, and Coo-Can (rules K), always returning one of
    ``view.legal_actions``, and the same one in the same view. `seed` is kept,
    so that the class is a factory for `simulate`.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> view = state.view(state.current_player)
    >>> HeuristicV1()(view) in view.legal_actions
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        # The best splits of the hands it has looked at, for its next decisions (bounded).
        self._splits: _Splits = {}

    def __call__(self, view: PlayerView) -> Action:
        """The action ``heuristic@v1`` chooses in `view`."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        if len(actions) == 1:
            return actions[0]
        choice = max(_scores(view, self._splits), key=lambda t: (t[0], t[1]))[2]
        return choice if choice in actions else actions[0]

    def __repr__(self) -> str:
        return f"HeuristicV1(seed={self.seed!r})"
