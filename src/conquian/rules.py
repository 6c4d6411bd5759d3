"""Rules objects: which game is played, and with which options (RULES.md Options).

A game's variant is a frozen value. `ConquianRules` is the two-hand game;
its default is Foster 1913, and `pagat()` and `hoyle()` are the other two
statements of the game. `CooncanRules` is Foster's rummy game, made with
`three_hand()` or `double_pack()`. Every preset takes any option as a
keyword, which overrides the preset's value. A bad value raises `RulesError`
naming the option and the values allowed.

>>> ConquianRules.pagat()
ConquianRules(pack='spanish', hand_size=10, lay_down_from_hand=False, borrow_middle=True, \
max_sequence=8)
>>> CooncanRules.double_pack(players=5).hand_size
10
>>> ConquianRules(hand_size=7)
Traceback (most recent call last):
...
conquian.errors.RulesError: hand_size must be one of 8, 9, 10 (got 7)
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from .cards import Card, make_pack
from .errors import RulesError

__all__ = ["ConquianRules", "CooncanRules", "Rules"]


def _one_of(option: str, value: object, allowed: tuple[object, ...]) -> None:
    # bool is an int: True must not pass for 1, nor 1 for True.
    if not any(value == a and type(value) is type(a) for a in allowed):
        shown = ", ".join("None" if a is None else str(a) for a in allowed)
        raise RulesError(option, f"must be one of {shown} (got {value!r})")


def _int_at_least(option: str, value: object, low: int, *, none: bool = False) -> None:
    if value is None and none:
        return
    if type(value) is not int or value < low:
        extra = " or None" if none else ""
        raise RulesError(option, f"must be an int of at least {low}{extra} (got {value!r})")


@attrs.frozen
class ConquianRules:
    """The two-hand game with the 40-card pack (RULES.md T), Foster 1913 by default.

    - `pack`: ``"spanish"`` (A–7, J Q K) or ``"american"`` (A–10) (C4, T1).
    - `hand_size`: 10, 9 or 8 cards dealt; one more melded wins (T2).
    - `lay_down_from_hand`: may combinations go down from the hand alone (T8).
    - `borrow_middle`: may a sequence be split by borrowing from its middle (T9).
    - `max_sequence`: the longest sequence allowed, or None for no limit (T14).

    >>> ConquianRules().game, ConquianRules.hoyle().borrow_middle
    ('two-hand', False)
    """

    pack: Literal["spanish", "american"] = "spanish"
    hand_size: int = 10
    lay_down_from_hand: bool = True
    borrow_middle: bool = True
    max_sequence: int | None = None

    def __attrs_post_init__(self) -> None:
        _one_of("pack", self.pack, ("spanish", "american"))
        _one_of("hand_size", self.hand_size, (8, 9, 10))
        _one_of("lay_down_from_hand", self.lay_down_from_hand, (True, False))
        _one_of("borrow_middle", self.borrow_middle, (True, False))
        _int_at_least("max_sequence", self.max_sequence, 3, none=True)

    @classmethod
    def pagat(cls, **options: Any) -> ConquianRules:
        """The rules as pagat states them: no laying down from the hand, sequences of 8 at most."""
        return cls(**{"lay_down_from_hand": False, "max_sequence": 8, **options})

    @classmethod
    def hoyle(cls, **options: Any) -> ConquianRules:
        """The rules of Hoyle 1897: no borrowing from the middle of a sequence."""
        return cls(**{"borrow_middle": False, **options})

    @property
    def game(self) -> str:
        """The game's name: ``"two-hand"``."""
        return "two-hand"

    @property
    def players(self) -> int:
        """Always two."""
        return 2

    @property
    def win_size(self) -> int:
        """How many cards melded win the deal: one more than the hand (T2)."""
        return self.hand_size + 1

    def pack_cards(self) -> tuple[Card, ...]:
        """The 40 cards of the pack in canonical order (T1).

        >>> len(ConquianRules(pack="american").pack_cards())
        40
        """
        return make_pack(self.pack)


def _default_players(self: CooncanRules) -> int:
    return 3 if self.variant == "three-hand" else 4


def _default_jokers(self: CooncanRules) -> int:
    return 0 if self.variant == "three-hand" else 2


@attrs.frozen
class CooncanRules:
    """Foster's Cooncan (RULES.md M): the three-hand or the double-pack game.

    - `variant`: ``"three-hand"`` (one 52-card pack, 7 cards each) or
      ``"double-pack"`` (104 cards and two jokers, 10 each) (M1).
    - `players`: 2–3 for three-hand (default 3), 2–6 for the double pack (default 4).
    - `jokers`: 0 or 1 in three-hand; always 2 in the double pack (M1).
    - `stock`: ``"closed"`` or, three-hand only, ``"open"`` (M3).
    - `splash_bonus`: None, 25 or 50 (M8).
    - `turn_limit`: None or the number of turns after which a deal is abandoned (M11).

    >>> CooncanRules.three_hand(jokers=1, stock="open").players
    3
    """

    variant: Literal["three-hand", "double-pack"] = "three-hand"
    players: int = attrs.field(default=attrs.Factory(_default_players, takes_self=True))
    jokers: int = attrs.field(default=attrs.Factory(_default_jokers, takes_self=True))
    stock: Literal["closed", "open"] = "closed"
    splash_bonus: int | None = None
    turn_limit: int | None = None

    def __attrs_post_init__(self) -> None:
        _one_of("variant", self.variant, ("three-hand", "double-pack"))
        if self.variant == "three-hand":
            _one_of("players", self.players, (2, 3))
            _one_of("jokers", self.jokers, (0, 1))
            _one_of("stock", self.stock, ("closed", "open"))
        else:
            _one_of("players", self.players, (2, 3, 4, 5, 6))
            _one_of("jokers", self.jokers, (2,))
            _one_of("stock", self.stock, ("closed",))
        _one_of("splash_bonus", self.splash_bonus, (None, 25, 50))
        _int_at_least("turn_limit", self.turn_limit, 1, none=True)

    @classmethod
    def three_hand(cls, **options: Any) -> CooncanRules:
        """Foster's game for three with one 52-card pack (special laws for three players)."""
        return cls(**{"variant": "three-hand", **options})

    @classmethod
    def double_pack(cls, **options: Any) -> CooncanRules:
        """Foster's game for four or five with two packs and two jokers (laws 1–25)."""
        return cls(**{"variant": "double-pack", **options})

    @property
    def game(self) -> str:
        """The game's name: ``"three-hand"`` or ``"double-pack"``."""
        return self.variant

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 7 in three-hand, 10 in the double pack (M1)."""
        return 7 if self.variant == "three-hand" else 10

    def pack_cards(self) -> tuple[Card, ...]:
        """The pack in canonical order: 52 (+ joker) or 104 + 2 jokers (M1).

        >>> len(CooncanRules.three_hand(jokers=1).pack_cards())
        53
        """
        copies = 1 if self.variant == "three-hand" else 2
        return make_pack("standard", copies=copies, jokers=self.jokers)


Rules = ConquianRules | CooncanRules
"""Either rules object."""
