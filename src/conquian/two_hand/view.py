"""What one player of a two-hand deal may know (C6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from ..actions import Action
from ..cards import Card
from ..combos import Combination
from ..rules import ConquianRules
from ..state import PlayerView, Result

__all__ = ["ConquianView", "Origin"]

Origin = Literal["turned", "passed", "discarded"]
"""Where the card on offer came from (T4): turned from the stock, passed, or discarded."""


@attrs.frozen
class ConquianView(PlayerView):
    """What one player of a two-hand deal may know (C6): a value, equal when it shows the same.

    His own `hand` and the sizes of both hands; the table, the card on offer
    and where it came from, the pending cards, the buried cards (each was
    face up before burial, in the order buried), the stock's size, the
    history (every action is public), the result, and his `legal_actions`
    when it is his turn (else empty). `unseen` is what he cannot place: the
    other hand and the stock, as one sorted multiset. Never the order of the
    deck, nor the other hand.

    >>> view = new_game(ConquianRules(), seed=7).view(1)
    >>> view.player, view.current_player, view.offer, view.legal_actions
    (1, 1, card('QC'), (parse_action('pass'),))
    """

    rules: ConquianRules
    player: int
    dealer: int
    current_player: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int]
    table: tuple[Combination, ...]
    offer: Card | None
    offer_origin: Origin | None
    pending: tuple[Card, ...]
    stock_size: int
    buried: tuple[Card, ...]
    history: Sequence[Action]
    result: Result | None
    legal_actions: tuple[Action, ...]
    unseen: tuple[Card, ...]
