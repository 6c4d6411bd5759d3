"""`HeuristicAgent`: a bot that plays after Foster's "suggestions for good play" (1913)."""

from __future__ import annotations

from typing import cast

from ..actions import Action
from ..coocan import CooCanGame, CooCanView
from ..offer import OfferGame
from ..state.base import PlayerView
from ..state.game import game_of
from .analysis import _OfferView, _RummyView, _Splits
from .base import _no_actions
from .coocan import scores as coocan_scores
from .offer import _OfferPlayer
from .rummy import _RummyPlayer


def _scores(view: PlayerView, splits: _Splits | None = None) -> list[tuple[float, int, Action]]:
    """The heuristic's worth of every legal action of `view`: (value, minus index, action).

    `splits` keeps the hands' best splits between calls (see `HeuristicAgent`).
    """
    try:
        game = game_of(getattr(view, "rules", None))  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"HeuristicAgent does not know the view {type(view).__name__}") from None
    if isinstance(game, CooCanGame):  # Coo-Can's own player (rules K): sets of four, spots
        return coocan_scores(cast(CooCanView, view))
    brain: _OfferPlayer | _RummyPlayer
    if isinstance(game, OfferGame):  # Conquian's (rules T)
        brain = _OfferPlayer(cast(_OfferView, view), splits)
    else:  # Cooncan's (rules M)
        brain = _RummyPlayer(cast(_RummyView, view), splits)
    return brain.scores()


def ranked(view: PlayerView) -> list[Action]:
    """The legal actions of `view`, the heuristic's favourite first.

    >>> view = new_game(ConquianRules(), seed=5).view(1)
    >>> ranked(view)[0] == HeuristicAgent()(view)
    True
    """
    if len(view.legal_actions) <= 1:
        return list(view.legal_actions)
    order = sorted(_scores(view), key=lambda t: (t[0], t[1]), reverse=True)
    return [a for _, _, a in order]


class HeuristicAgent:
    """A bot that plays after Foster's "suggestions for good play" (1913).

    In every game it keeps the cards that can still fill a combination,
    counting only the cards it has not seen buried, discarded or shown
    (`PlayerView.unseen`), and lets go of dead ones first.

    - Two-hand (Foster pp. 56–64, Hoyle 1897, pagat): it takes a
      card when melding it improves the hand, shows no more than needed,
      prefers sequences to triplets, forces a card the opponent refused and
      forces to break a near-complete position, avoids giving a card that
      fits a meld of an opponent whose hand is empty, and plays for a tableau
      (refusing everything) with a hopeless hand.
    - Cooncan (Foster pp. 12–47): it takes a stock card that
      fills, holds combinations up until someone is close to going out,
      prefers sequences with one pack and groups with two, goes out as soon
      as it can, keeps cards the next player is known to want, and sheds its
      high cards early when it cannot win.
    - Coo-Can (rules K): `conquian.agents.coocan.CooCanAgent`'s choice; it takes a
      discard that makes a set of four or goes onto a meld, melds as much as it
      can, and throws its least useful, highest card.

    It always returns one of ``view.legal_actions``, and the same one in the
    same view: between equally good actions it takes the first. `seed` is
    accepted, and kept, so that the class is a factory for `simulate`.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> view = state.view(state.current_player)
    >>> HeuristicAgent()(view) in view.legal_actions
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        # The best splits of the hands it has looked at, for its next decisions (bounded).
        self._splits: _Splits = {}

    def __call__(self, view: PlayerView) -> Action:
        """The action this bot chooses in `view`."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        if len(actions) == 1:
            return actions[0]
        choice = max(_scores(view, self._splits), key=lambda t: (t[0], t[1]))[2]
        return choice if choice in actions else actions[0]

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed!r})"
