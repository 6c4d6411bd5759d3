"""`CooCanGame`: Coo-Can, the Cork double-pack game, as the rest of the package sees it
(rules K).

The one game of this engine, `COOCAN`, listed in `conquian.GAMES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..cards import Card
from ..rules import CooCanRules, Rules
from ..state.base import PlayerView, State
from ..state.game import Game, Zone
from . import view as views
from .codec import CODEC
from .dealing import deal
from .ids import MAX_MELDS, ActionIds
from .sampling import sample, samples
from .story import story
from .viewjson import read_view

__all__ = ["COOCAN", "CooCanGame"]


class CooCanGame(Game):
    """Coo-Can: draw or take the top discard, one meld a turn, sets of four, a discard pile
    and a face-down deck, stakes and spots (rules K)."""

    name = "coo-can"
    title = "Coo-Can"
    rules_class = CooCanRules
    rules_maker = "CooCanRules"
    seats = range(2, 7)
    examples = "draw | take 5H | meld 4H 5H 6H 7H | meld 7C 7D 7H 7S\nmeld 8H @2 | discard {top}"
    zones: tuple[Zone, ...] = ("discards", "deck")
    turn_limit_rule = "K8"
    words: Mapping[str, str] = {
        "deck": "the face-down cards left after the deal; you may draw its top card (K3)",
        "discards": (
            "the face-up discard pile, top last: you may take its top card instead of drawing, "
            "but not discard it in the same turn (K3)"
        ),
        "set": "a new meld: four of a rank, or four in suit sequence, aces low (K4)",
        "@1": "meld number 1 on the table: after your own first set you may add to it (K5)",
        "abandoned": "a deal stopped at the turn limit with nobody out: nobody pays (K8)",
    }
    """The words of the game, as the terminal's ``help`` explains them."""
    codec = CODEC

    def rules(self, **options: Any) -> Rules:
        return CooCanRules(**options)

    def describe(self, rules: Rules) -> str:
        return f"Coo-Can ({rules.players} players, two packs)"

    def goal(self, rules: Rules) -> str:
        return (
            "One meld a turn. A new meld is four cards: four of a rank, or four in suit "
            "sequence, aces low (K4); after your own first one you may add to any meld (K5). "
            "The discard that empties your hand wins (K7)."
        )

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        assert isinstance(rules, CooCanRules)
        return deal(rules, deck, dealer)

    def most_melds(self, rules: Rules) -> int:
        return MAX_MELDS  # K4: 104 cards, four or more to a meld (`conquian.coocan.ids`)

    def read_view(self, text: str | bytes) -> PlayerView | None:
        return read_view(text)

    def sample(self, view: Any, rng: random.Random, deal: Any = None, accept: Any = None) -> State:
        # C6, K8: the engine's own draw among the positions that give the view; it is built
        # zone by zone, so there is no other deal to replay it from.
        state = sample(view, rng)
        if accept is not None:
            accept(state)
        return state

    def sample_state(self, view: Any, rng: random.Random) -> State:
        return sample(view, rng)

    def samples(self, view: Any) -> Callable[[random.Random], State]:
        draw: Callable[[random.Random], State] = samples(view)
        return draw

    def story(self, view: PlayerView, since: int | None) -> tuple[Any, ...] | None:
        # Read from the public history and the viewer's draws (K8).
        assert isinstance(view, views.CooCanView)
        return tuple(story(view, since))

    def asks(self, position: Any, seat: str, text: Any) -> str:
        if position.turns == 0:
            return f"{seat} to discard, the dealer's opening (K2)"
        if position.phase == "draw":
            return f"{seat} to draw from the deck or take the top discard"
        return f"{seat} to meld or discard"

    def action_ids(self, rules: Rules) -> Any:
        return ActionIds()  # 9,222 ids, the same for any number of players

    def observation_layout(self, rules: Rules, public: bool) -> tuple[tuple[str, int], ...]:
        assert isinstance(rules, CooCanRules)
        return views.observation_layout(rules, public)

    def public_observation(self, view: Any) -> tuple[float, ...]:
        return views.public_observation(view)

    def state_observation(self, state: Any, seat: int, public: bool) -> tuple[float, ...] | None:
        return views.state_observation(state, seat, public)

    def payment_scale(self, rules: Rules) -> float | None:
        # K9: a loser pays the game and his spots; some thirty spots is a usual losing hand.
        assert isinstance(rules, CooCanRules)
        return float(rules.game_stake + 30 * rules.spot_stake) or 1.0

    def utility(self, rules: Rules) -> float:
        # K9: a loser pays the game stake and the spot stake per spot, doubled after a
        # Cooch (`conquian.coocan.tables.settle`); he waits with ten cards at most (K1-K3),
        # each of ten spots at most. Stakes of nought pay nothing: the bound stays 1, as
        # OpenSpiel wants a range.
        assert isinstance(rules, CooCanRules)
        return float(max(1, 2 * (rules.game_stake + 100 * rules.spot_stake)))


COOCAN = CooCanGame()
"""Coo-Can (rules K), ``conquian.GAMES["coo-can"]``."""
