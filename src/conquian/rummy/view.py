"""What one player of a Cooncan deal may know (rules C6): `CooncanView`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..actions import Action
from ..cards import Card
from ..combos.core import Combination
from ..encoding import observation
from ..rules import CooncanRules
from ..state.base import PlayerView, Result, State
from ..state.game import game_of
from ..state.history import owned_history
from .tables import Phase

__all__ = ["CooncanView"]


@attrs.frozen
class CooncanView(PlayerView):
    """What one player of a Cooncan deal may know (C6); `CooncanState.view` makes it.

    His own `hand`; the size of every hand; the `table`, the `stock` and
    the `history` (a draw shows no card); `known`: per seat, the cards
    known to be in that hand (taken from the stock, or drawn from a pack
    made of the turned stock, M11); `known_pack`: the pack, top first, when
    it is the turned stock that everyone saw, else None; his
    `legal_actions` when it is his turn; and `unseen`, the cards whose place
    he cannot know. Never the deck, the pack's hidden order or the unknown
    part of another hand while the deal goes on. Once it is over every hand
    is shown (C6 "Showing", Foster law 23): `hands` holds each seat's
    remaining cards (None before), and `unseen` only the pack's.

    >>> v = new_game(CooncanRules.three_hand(), seed=3).view(1)
    >>> v.player, v.current_player, [str(a) for a in v.legal_actions], v.hands
    (1, 1, ['draw', 'take 3D'], None)
    >>> new_game(CooncanRules.three_hand(), seed=3).view(2).legal_actions
    ()
    """

    rules: CooncanRules
    player: int
    dealer: int
    current_player: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Combination, ...]
    stock: tuple[Card, ...]
    pack_size: int
    known: tuple[tuple[Card, ...], ...]
    known_pack: tuple[Card, ...] | None
    history: Sequence[Action] = attrs.field(converter=owned_history)  # its own (C6)
    turns: int
    result: Result | None
    legal_actions: tuple[Action, ...]
    unseen: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None

    def sample_state(self, rng: random.Random) -> State:
        """A position (a `CooncanState`) drawn among those that give this view (C6).

        See `conquian.determinize`: the state's ``view(self.player)`` equals this view.
        The unseen cards are shuffled into the other hands and the face-down pack
        (`conquian.rummy.sample.current`): the state has no deck, as no dealt order is
        drawn (`sample_deal` draws one, and gives the same position from the same random
        numbers). A view the shuffle does not serve (another seat in his turn with one
        card, or two in the double pack, M2) is `sample_deal`'s.

        >>> import random
        >>> view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(0)
        >>> sample = view.sample_state(random.Random(3))
        >>> sample.view(0) == view, sample.deck
        (True, ())
        """
        state: State = game_of(self.rules).sample_state(self, rng)  # `conquian.rummy.sampling`
        return state

    def sample_deal(self, rng: random.Random) -> State:
        """A whole deal (a `CooncanState` with its deck) drawn among those that give this
        view, in the position it shows: its record replays (C6, C7).

        The deck is drawn as `conquian.determinize` says, reading the history, and the
        state built on it from this view (`conquian.rummy.sample.position`) without
        replaying the history.

        >>> import random
        >>> view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(0)
        >>> sample = view.sample_deal(random.Random(3))
        >>> sample.view(0) == view, len(sample.deck)
        (True, 52)
        """
        game: Any = game_of(self.rules)
        sample: State = game.sample_deal(self, rng)
        return sample

    def samples(self) -> Callable[[random.Random], State]:
        """`sample_state` for many samples of this view: ``draw = view.samples()``, then
        ``draw(rng)`` is ``view.sample_state(rng)``, what the view alone gives worked out
        once for all of them (a searching bot samples one view many times).

        >>> import random
        >>> view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(0)
        >>> draw = view.samples()
        >>> draw(random.Random(3)) == view.sample_state(random.Random(3))
        True
        """
        return game_of(self.rules).samples(self)

    def observation(self) -> tuple[float, ...]:
        """This view as a fixed-length tuple of floats (`conquian.encoding.observation`)."""
        return observation(self)
