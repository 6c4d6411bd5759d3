"""The rules object of Coo-Can, the Cork double-pack game (rules K1–K9): `CooCanRules`.

>>> from conquian.coocan import CooCanRules, deal
>>> from conquian.cards import cards, shuffle
>>> rules = CooCanRules(players=3)
>>> rules.game, rules.players, rules.hand_size, len(rules.pack_cards())
('coo-can', 3, 10, 104)
>>> CooCanRules(players=7)
Traceback (most recent call last):
...
conquian.errors.RulesError: players must be one of 2, 3, 4, 5, 6 (got 7)
"""

from __future__ import annotations

import attrs

from ..cards import Card, make_pack
from ..errors import RulesError

__all__ = ["CooCanRules"]


def _one_of(option: str, value: object, allowed: tuple[object, ...]) -> None:
    # bool is an int: True must not pass for 1.
    if not any(value == a and type(value) is type(a) for a in allowed):
        shown = ", ".join(str(a) for a in allowed)
        raise RulesError(option, f"must be one of {shown} (got {value!r})")


def _int_at_least(option: str, value: object, low: int, *, none: bool = False) -> None:
    if value is None and none:
        return
    if type(value) is not int or value < low:
        extra = " or None" if none else ""
        raise RulesError(option, f"must be an int of at least {low}{extra} (got {value!r})")


@attrs.frozen
class CooCanRules:
    """Coo-Can, the Cork double-pack game (encyclopedia "Coo-Can"; rules K1–K9).

    - `players`: 2 to 6 (default 4) (K1).
    - `game_stake`: what each loser pays the winner for the game, in whole
      units (default 100: "Euro the game" counted in cents) (K9).
    - `spot_stake`: what he pays for each spot in his hand (default 2: "two
      cent a spot") (K9).
    - `turn_limit`: None (the article sets no end) or the number of turns
      after which a deal is abandoned with no payments (K8, the library's).

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> CooCanRules().game_stake, CooCanRules().spot_stake, CooCanRules().turn_limit
    (100, 2, None)
    >>> CooCanRules(spot_stake=-1)
    Traceback (most recent call last):
    ...
    conquian.errors.RulesError: spot_stake must be an int of at least 0 (got -1)
    """

    players: int = 4
    game_stake: int = 100
    spot_stake: int = 2
    turn_limit: int | None = None

    def __attrs_post_init__(self) -> None:
        _one_of("players", self.players, (2, 3, 4, 5, 6))
        _int_at_least("game_stake", self.game_stake, 0)
        _int_at_least("spot_stake", self.spot_stake, 0)
        _int_at_least("turn_limit", self.turn_limit, 1, none=True)

    @property
    def game(self) -> str:
        """The game's name: ``"coo-can"``."""
        return "coo-can"

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player but the dealer, who has one more (K1): 10."""
        return 10

    @property
    def jokers(self) -> int:
        """Coo-Can is played without jokers (K1): 0."""
        return 0

    def pack_cards(self) -> tuple[Card, ...]:
        """The two 52-card packs in canonical order, no jokers: 104 cards (K1).

        >>> from conquian.coocan import CooCanRules, deal
        >>> from conquian.cards import cards, shuffle
        >>> CooCanRules().pack_cards()[:3]
        (card('AC'), card('AC'), card('2C'))
        """
        return make_pack("standard", copies=2)
