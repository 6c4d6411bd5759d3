"""What the opponent's choices say about his hidden hand in Conquian for two: the *tells*.

A card the opponent refused (he had the say to it and passed it or forced it, T4–T7, T10)
could be taken only if it made a combination with cards of his hand (T3, T8): a hand
with two cards that meld with it is less likely, by the factor `refuse`, the chance that
a player who could take such a card refuses it. A card he threw (a discard or a force
from his hand, T8, T10) made a combination with two cards of a hand less often than the
other cards of that hand: such a hand is less likely by the factor `throw`. Both factors
are calibrated on played deals of several opponents (``benchmarks/calibrate_reading.py``,
the figures in ``docs/bots.md``).

A card the opponent still hides has been in his hand since the deal (a taken card is
melded at once, T8), so each tell reads the hidden hand as it was at that choice.
`Tells.draw` deals with the view's uniform draw (`conquian.determinize.samples`, C6)
and keeps a deal with the chance of its hand's weight (rejection sampling): the deals it
keeps are drawn in proportion to the uniform chance times the weight.

Only Conquian for two is read, as `HandReader.declines` says; `Tells.read` returns None
for any other view.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from ..actions import Discard, Force, Pass
from ..cards import Card
from ..combos.core import Order, build
from ..determinize import TwoHandDeals
from ..determinize import samples as uniform_samples
from ..offer.tables import sequence_order
from ..state.base import PlayerView, State
from .reading import HandReader

__all__ = ["REFUSE", "THROW", "Tells"]

REFUSE = 0.12
"""The chance a player refuses a card he could meld with two of his hidden cards (the
calibration's figure over several opponents)."""

THROW = 0.05
"""How much less often a thrown card makes a combination with two cards of the hand than
the hand's other cards do (the calibration's figure over several opponents)."""

_TRIES = 25
"""Uniform deals drawn at most for each deal kept."""

_MELDS: dict[tuple[Order, Card, Card, Card], bool] = {}


def _melds(order: Order, a: Card, b: Card, c: Card) -> bool:
    key = (order, a, b, c)
    hit = _MELDS.get(key)
    if hit is None:
        if len(_MELDS) > 200_000:
            _MELDS.clear()
        hit = _MELDS[key] = build((a, b, c), order) is not None
    return hit


def mates(card: Card, cards: list[Card], order: Order) -> list[frozenset[Card]]:
    """The pairs of `cards` that make a combination with `card` (C3, C4).

    >>> from conquian.cards import cards
    >>> sorted(sorted(str(c) for c in p) for p in mates(
    ...     cards("5H")[0], list(cards("4H 6H 5C 5S KD")), sequence_order("spanish", None)))
    [['4H', '6H'], ['5C', '5S']]
    """
    near = [c for c in cards if c.rank == card.rank or c.suit is card.suit]
    return [frozenset((a, b)) for a, b in combinations(near, 2) if _melds(order, card, a, b)]


class Tells:
    """The opponent's refused and thrown cards in a two-hand view, and the weight they give
    each hand he may hide (see the module). Made by `read`.

    >>> view = new_game(ConquianRules(), seed=7).apply("pass").apply("pass").view(0)
    >>> tells = Tells.read(view, random.Random(1))
    >>> tells is not None and tells.draw(random.Random(2))().view(0) == view
    True
    """

    def __init__(
        self,
        view: PlayerView,
        refused: list[list[frozenset[Card]]],
        thrown: list[list[frozenset[Card]]],
        refuse: float,
        throw: float,
    ) -> None:
        self.view = view
        self.refused = refused
        self.thrown = thrown
        self.refuse = refuse
        self.throw = throw

    @classmethod
    def read(
        cls, view: PlayerView, rng: random.Random, refuse: float = REFUSE, throw: float = THROW
    ) -> Tells | None:
        """The tells of `view`'s opponent, or None if the view is not read."""
        if HandReader.declines(view) is not None:
            return None
        deals = TwoHandDeals(view)
        if deals.hidden == 0:
            return None
        me = view.player
        other = (me + 1) % len(view.hand_sizes)  # two seats: the other hand
        unseen = sorted(view.unseen)
        still = set(unseen)
        sample: State = view.sample_state(rng)  # type: ignore[attr-defined]
        held = [c for c in sample.hand(other) if c in still]
        stock = [c for c in unseen if c not in set(held)]
        state = deals(held, stock, None)
        rules = view.rules  # type: ignore[attr-defined]
        order = sequence_order(rules.pack, rules.max_sequence)
        refused: list[list[frozenset[Card]]] = []
        thrown: list[list[frozenset[Card]]] = []
        for action in view.history:
            if state.current_player == other:
                offer: Card | None = getattr(state, "offer", None)
                if offer is not None and isinstance(action, (Pass, Force)):
                    pairs = mates(offer, unseen, order)
                    if pairs:
                        refused.append(pairs)
                elif isinstance(action, (Discard, Force)):
                    card = action.card
                    if isinstance(card, Card):
                        pairs = mates(card, unseen, order)
                        if pairs:
                            thrown.append(pairs)
            state = state.apply(action)
        return cls(view, refused, thrown, refuse, throw)

    def weight(self, hidden: frozenset[Card] | set[Card]) -> float:
        """How likely the tells make a hidden hand, against a hand that explains them all."""
        w = 1.0
        for pairs in self.refused:
            if any(p <= hidden for p in pairs):
                w *= self.refuse
        for pairs in self.thrown:
            if any(p <= hidden for p in pairs):
                w *= self.throw
        return w

    def draw(self, rng: random.Random) -> Callable[[], State]:
        """Deals consistent with the view, kept in proportion to their hands' weights."""
        uniform = uniform_samples(self.view)
        other = (self.view.player + 1) % len(self.view.hand_sizes)
        still = set(self.view.unseen)

        def one() -> State:
            deal: State = uniform(rng)
            for _ in range(_TRIES):
                hidden = {c for c in deal.hand(other) if c in still}
                if rng.random() < self.weight(hidden):
                    break
                deal = uniform(rng)
            return deal

        return one
