"""`RummyGame`: Foster's three-hand and double-pack Cooncan as the rest of the package sees
them (rules M).

The engine plays two games, `THREE_HAND` and `DOUBLE_PACK`, listed in `conquian.GAMES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..cards import Card
from ..rules import CooncanRules, Rules
from ..state.base import State
from ..state.game import Game, Zone
from .codec import RummyCodec
from .dealing import deal
from .sample import current, position, positions
from .sampling import deal_of, rummy_samples, sample_rummy

__all__ = ["DOUBLE_PACK", "THREE_HAND", "RummyGame"]

_PIP_SCALE = 60.0
"""Pips at which a Cooncan payment counts for about three quarters of a win."""

_CODEC = RummyCodec()


class RummyGame(Game):
    """Foster's Cooncan: draw from the pack or take from the face-up stock, meld, force,
    discard; jokers and pips (rules M). One instance a game (`THREE_HAND`, `DOUBLE_PACK`)."""

    rules_class = CooncanRules
    examples = "draw | take 5H | meld 4H 5H 6H | meld 7H @2 | force 9H @0 | discard {top}"
    zones: tuple[Zone, ...] = ("face-up stock", "pack")
    turn_limit_rule = "M11"
    words: Mapping[str, str] = {
        "pack": "the face-down cards left after the deal, which you may draw from (M1)",
        "stock": (
            "the face-up discards; on your turn you draw from the pack or take from the stock, "
            "and you may not discard the card you took (M2, M3)"
        ),
        "force": (
            "add a card from your hand to another player's combination; "
            "its owner cannot refuse it (M5)"
        ),
        "@1": "combination number 1 on the table (numbered from @0, as the board shows them)",
        "shift": "move a joker from one end of a sequence to the other to fit a card (M9)",
        "abandoned": "a deal stopped at the turn limit with nobody out: nobody pays (M11)",
    }
    """The words of the game, as the terminal's ``help`` explains them."""
    codec = _CODEC

    def __init__(self, name: str, title: str, seats: range, double: bool, heading: str) -> None:
        self.name = name
        self.title = title
        self.seats = seats
        self._double = double  # M1: two packs
        self._heading = heading
        self.rules_maker = f"CooncanRules.{name.replace('-', '_')}"

    def rules(self, **options: Any) -> Rules:
        if self._double:  # M1: the double pack
            return CooncanRules.double_pack(**options)
        return CooncanRules.three_hand(**options)

    def describe(self, rules: Rules) -> str:
        return f"Foster's {self._heading} Cooncan ({rules.players} players, {self._packs})"

    @property
    def _packs(self) -> str:
        return "two packs" if self._double else "one pack"

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        assert isinstance(rules, CooncanRules)
        return deal(rules, deck, dealer)

    def most_melds(self, rules: Rules) -> int:
        # M10: while the deal goes on every player holds a card, and the player who names a
        # meld holds the card he plays onto it; three cards to a meld (C3).
        return (len(rules.pack_cards()) - rules.players) // 3

    def most_added(self, rules: Rules, onto: int) -> int:
        # M2, M10: his hand after the draw (hand size + 1), and the pack less the
        # ``3 * (onto + 1)`` cards on the table and one card in each other hand.
        pack = len(rules.pack_cards())
        return min(rules.hand_size + 1, pack - 3 * (onto + 1) - (rules.players - 1))

    def largest_meld(self, rules: Rules) -> int:
        return rules.hand_size + 1  # M2: a hand after its draw

    def sample(self, view: Any, rng: random.Random, deal: Any = None, accept: Any = None) -> State:
        sample: State = sample_rummy(view, rng, deal=deal, accept=accept)
        return sample

    def sample_state(self, view: Any, rng: random.Random) -> State:
        # The unseen cards shuffled into the other hands and the pack (`sample.current`),
        # or, where that shuffle does not serve (M2), a whole deal (`sample_deal`).
        draw = current(view)
        if draw is None:
            return self.sample_deal(view, rng)
        return draw(rng)

    def sample_deal(self, view: Any, rng: random.Random) -> State:
        """`CooncanView.sample_deal`: a whole deal with its deck, in the position the view
        shows, built without replaying the history (`sample.position`)."""
        sample: State = sample_rummy(view, rng, rebuild=position)
        return sample

    def samples(self, view: Any) -> Callable[[random.Random], State]:
        shortcut = current(view)
        if shortcut is not None:
            return shortcut
        draw: Callable[[random.Random], State] = rummy_samples(view, positions(view))
        return draw

    def dealt(self, state: State) -> State | None:
        found: State | None = deal_of(state)  # the writer pays, not every sample
        return found

    def asks(self, position: Any, seat: str, text: Any) -> str:
        if position.phase == "draw":  # M2
            return f"{seat} to draw from the pack or take from the stock"
        return f"{seat} to meld, force or discard"

    def payment_scale(self, rules: Rules) -> float | None:
        return _PIP_SCALE

    def utility(self, rules: Rules) -> float:
        # M7, M8: the pips left in a hand of at most its size, aces 15, and the splash bonus.
        bonus: int | None = getattr(rules, "splash_bonus", None)
        return float(15 * rules.hand_size + (bonus or 0))


THREE_HAND = RummyGame(
    "three-hand", "Foster's three-hand Cooncan", range(2, 4), False, "three-hand"
)
"""Foster's three-hand Cooncan (rules M), ``conquian.GAMES["three-hand"]``."""
DOUBLE_PACK = RummyGame(
    "double-pack", "Foster's double-pack Cooncan", range(2, 8), True, "double-pack"
)
"""Foster's double-pack Cooncan (rules M, M14), ``conquian.GAMES["double-pack"]``."""
