"""What one player of a two-hand deal may know (C6)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal

import attrs

from ..actions import Action
from ..cards import Card
from ..combos.core import Combination
from ..encoding import observation
from ..rules import ConquianRules
from ..state.base import PlayerView, Result, State
from ..state.game import game_of
from ..state.history import owned_history
from .trading import known_cards

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
    def trading(self) -> bool:
        """Whether the deal is in its trade rounds (T21): the starter is not turned yet.

        >>> new_game(ConquianRules(trades=1), seed=5).view(0).trading
        True
        """
        n = self.rules.players
        return self.result is None and len(self.history) < self.rules.trades * n

    @property
    def traded(self) -> tuple[int, ...]:
        """The seats that have chosen their card in the trade round under way, from the pone
        (T21); which card, the view shows only for his own (C6). Empty outside the rounds.

        >>> new_game(ConquianRules(trades=1), seed=5).apply("trade 2S").view(0).traded
        (1,)
        """
        if not self.trading:
            return ()
        n = self.rules.players
        return tuple([(self.dealer + 1 + i) % n for i in range(len(self.history) % n)])

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        """For each seat, the cards of its hand this player knows without seeing them (C6,
        T21): the cards he gave in the trade rounds that are still in the hand he gave them
        to, as far as he can tell (see `conquian.offer.trading`: with three or four seats only the
        card of the last round). Empty for his own seat, and without trading; these cards
        are not in `unseen`.

        >>> state = new_game(ConquianRules(trades=1), seed=5)
        >>> state.apply("trade 2S").apply("trade 2C").view(0).known
        ((), (card('2C'),))
        """
        n = self.rules.players
        out: list[list[Card]] = [[] for _ in range(n)]
        if self.rules.trades and self.hands is None:
            public = {*self.hand, *self.buried, *self.pending}
            for meld in self.table:
                public.update(c for c in meld.cards if isinstance(c, Card))
            if self.offer is not None:
                public.add(self.offer)
            located = known_cards(self.history, n, self.dealer, self.rules.trades, self.player)
            for c, q in located.items():
                if c not in public:
                    out[q].append(c)
        return tuple([tuple(sorted(k)) for k in out])

    @property
    def pack_size(self) -> int:
        """The face-down pile, by the name every game shares (here the stock: `stock_size`)."""
        return self.stock_size

    def sample_state(self, rng: random.Random) -> State:
        """A whole deal (a `ConquianState`) drawn uniformly among those that give this view.

        See `conquian.determinize` (C6): the state's ``view(self.player)`` equals this view.
        With trade rounds (T21) the draw is uniform over the deals and the other players'
        hidden choices that give this view.
        The deck is drawn as the module says, and the state built on it from this view
        (`conquian.offer.sample.position`) without replaying the history, except while a
        card borrowed in the turn in progress is pending (T9, `sample.rebuildable`).

        >>> import random
        >>> view = new_game(ConquianRules(), seed=7).view(0)
        >>> view.sample_state(random.Random(3)).view(0) == view
        True
        """
        state: State = game_of(self.rules).sample_state(self, rng)  # `conquian.offer.sampling`
        return state

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
        return game_of(self.rules).samples(self)

    def observation(self) -> tuple[float, ...]:
        """This view as a fixed-length tuple of floats (`conquian.encoding.observation`)."""
        return observation(self)
