"""What one player of a two-hand deal may know (C6)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal

import attrs

from ..actions import Action
from ..cards import Card
from ..combos.core import Combination
from ..determinize import sample_two_hand, two_hand_samples
from ..encoding import observation
from ..rules import ConquianRules
from ..state.base import PlayerView, Result, State
from ..state.history import owned_history

__all__ = ["ConquianView", "Origin"]

Origin = Literal["turned", "passed", "discarded"]
"""Where the card on offer came from (T4): turned from the stock, passed, or discarded."""


@attrs.frozen
class ConquianView(PlayerView):
    """What one player of a deal of the offer game may know (C6): a value, equal when it shows
    the same.

    His own `hand` and the sizes of every seat's hand; the table, the card on offer
    and where it came from, the pending cards, the buried cards (each was
    face up before burial, in the order buried), the stock's size, the
    history (every action is public), the result, and his `legal_actions`
    when it is his turn (else empty). `unseen` is what he cannot place: the
    other hands and the stock, as one sorted multiset. Never the order of the
    deck, nor another hand while the deal goes on. Every turned card and
    where it went (taken, passed, forced, buried) is in the history and the
    table, seen by every seat (C6, T17).

    Once the deal is over every hand is shown (C6 "Showing", Hoyle 1897, T19):
    `hands` holds every remaining hand (None before), and `unseen` only the
    stock left.

    >>> view = new_game(ConquianRules(), seed=7).view(1)
    >>> view.player, view.current_player, view.offer, view.legal_actions
    (1, 1, card('QC'), (parse_action('pass'),))
    """

    rules: ConquianRules
    player: int
    dealer: int
    current_player: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Combination, ...]
    offer: Card | None
    offer_origin: Origin | None
    pending: tuple[Card, ...]
    stock_size: int
    buried: tuple[Card, ...]
    history: Sequence[Action] = attrs.field(converter=owned_history)  # its own (C6)
    result: Result | None
    legal_actions: tuple[Action, ...]
    unseen: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None

    @property
    def pack_size(self) -> int:
        """The face-down pile, by the name every game shares (here the stock: `stock_size`)."""
        return self.stock_size

    def sample_state(self, rng: random.Random) -> State:
        """A whole deal (a `ConquianState`) drawn uniformly among those that give this view.

        See `conquian.determinize` (C6): the state's ``view(self.player)`` equals this view.
        The deck is drawn as the module says, and the state built on it from this view
        (`conquian.offer.sample.position`) without replaying the history, except while a
        card borrowed in the turn in progress is pending (T9, `sample.rebuildable`).

        >>> import random
        >>> view = new_game(ConquianRules(), seed=7).view(0)
        >>> view.sample_state(random.Random(3)).view(0) == view
        True
        """
        # The engine's state is imported here: it imports this module.
        from .sample import position, rebuildable

        if rebuildable(self):
            built: State = sample_two_hand(self, rng, rebuild=position)
            return built
        sample: State = sample_two_hand(self, rng)
        return sample

    def samples(self) -> Callable[[random.Random], State]:
        """`sample_state` for many samples of this view: ``draw = view.samples()``, then
        ``draw(rng)`` is ``view.sample_state(rng)``, with the history read once for all
        of them (a searching bot samples one view many times).

        >>> import random
        >>> view = new_game(ConquianRules(), seed=7).view(0)
        >>> draw = view.samples()
        >>> draw(random.Random(3)) == view.sample_state(random.Random(3))
        True
        """
        from .sample import positions, rebuildable

        if rebuildable(self):
            built: Callable[[random.Random], State] = two_hand_samples(self, positions(self))
            return built
        return self.sample_state

    def observation(self) -> tuple[float, ...]:
        """This view as a fixed-length tuple of floats (`conquian.encoding.observation`)."""
        return observation(self)
