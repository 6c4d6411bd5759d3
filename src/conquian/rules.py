"""Rules objects: which game is played, and with which options.

A game's variant is a frozen value. `ConquianRules` is the two-hand game;
its default is Foster 1913, and `pagat()`, `hoyle()` and `blog()` are the
other statements of the game. `CooncanRules` is Foster's rummy game, made with
`three_hand()` or `double_pack()`. `CooCanRules` is Coo-Can, the Cork
double-pack game (rules K). Every preset takes any option as a
keyword, which overrides the preset's value. A bad value raises `RulesError`
naming the option and the values allowed.

>>> ConquianRules.pagat()
ConquianRules(pack='spanish', hand_size=10, lay_down='turn', borrow_middle=True, \
borrow_other_kind=False, max_sequence=8)
>>> CooncanRules.double_pack(players=5).hand_size
10
>>> ConquianRules(hand_size=7)
Traceback (most recent call last):
...
conquian.errors.RulesError: hand_size must be one of 8, 9, 10 (got 7)
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

import attrs

from .cards import Card, make_pack
from .errors import RulesError

__all__ = ["ConquianRules", "CooCanRules", "CooncanRules", "Rules"]


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


#: T16: the hand dealt to each of 3 or 4 players (fixed by the player count).
_SEAT_HANDS: dict[int, int] = {3: 8, 4: 7}


@attrs.frozen(repr=False)
class ConquianRules:
    """Conquian (rules T1–T20), Foster 1913 by default.

    - `pack`: ``"spanish"`` (A–7, J Q K) or ``"american"`` (A–10), the 40-card
      packs (C4, T1), or ``"standard"``, the full pack of 52 cards with the ace
      low only (T20, Hoyle 1897: "Some persons play with the full pack, but it
      spoils the game").
    - `hand_size`: 10, 9 or 8 cards dealt; one more melded wins (T2).
    - `lay_down`: when hand cards may go down on the table (T8):
      ``"say"`` (Foster pp. 63–64, 75) whenever he has the say or is melding;
      ``"turn"`` (pagat) only in a turn in which a card from the centre joins
      his melds, and then freely; ``"meld"`` (the blog) only inside a meld
      that holds a pending card.
    - `borrow_middle`: may a sequence be split by borrowing from its middle
      (T9; Foster pp. 53–54; not in Hoyle 1897).
    - `borrow_other_kind`: must a card borrowed from a group end the turn in a
      sequence, and one borrowed from a sequence in a group (T9; Hoyle 1897).
    - `max_sequence`: the longest sequence allowed, or None for no limit (T14).
    - `players`: 2 (default), 3 or 4 seats (T16). With 3 players the hand is 8
      cards, with 4 it is 7: `hand_size` is fixed by `players`, and any other
      value given is a `RulesError` naming both options.
    - `after_starter`: who turns the next card when both players who had the say
      to the starter refused it (T22): ``"dealer"`` (Foster p. 51, Hoyle: the one
      who refused it last) or ``"pone"`` (the encyclopedia: "the non-dealer").
    - `cut`: who deals the first deal after cutting (T25, `conquian.cut_for_deal`):
      ``"high"``, the highest cut (Foster p. 49), or ``"low"``, the lowest (Hoyle
      1897, and so under `hoyle()`).
    - `trades`: how many trade rounds the deal has before the starter is turned
      (T21; the encyclopedia: "Players agree among themselves how many trades are
      allowed"): 0 (default, no trading) up to the hand size. In each round every
      player passes one card of his hand to his left neighbour.

    The pack's cards and their indices are worked out once per rules object
    (`pack_cards`, `pack_indices`).

    The boolean ``lay_down_from_hand`` of earlier versions is refused with a
    `RulesError` naming `lay_down`: ``True`` is now ``lay_down="say"`` and
    ``False`` is ``lay_down="meld"``.

    >>> ConquianRules().game, ConquianRules.hoyle().borrow_middle
    ('conquian', False)
    >>> ConquianRules(players=3).hand_size, ConquianRules(players=4).win_size
    (8, 8)
    >>> ConquianRules(players=3, hand_size=10)
    Traceback (most recent call last):
    ...
    conquian.errors.RulesError: hand_size must be 8 with players=3 (T16; got 10)
    >>> ConquianRules(lay_down_from_hand=False)
    Traceback (most recent call last):
    ...
    conquian.errors.RulesError: lay_down replaces lay_down_from_hand: \
use lay_down="say" for True, lay_down="meld" for False
    """

    pack: Literal["spanish", "american", "standard"] = "spanish"
    hand_size: int = 10
    lay_down: Literal["say", "turn", "meld"] = "say"
    borrow_middle: bool = True
    borrow_other_kind: bool = False
    max_sequence: int | None = None
    players: int = 2
    after_starter: Literal["dealer", "pone"] = "dealer"
    cut: Literal["high", "low"] = "high"
    trades: int = 0

    def __new__(cls, *args: Any, **options: Any) -> ConquianRules:
        # T8: the boolean of earlier versions names no longer an option; say what replaced it.
        if "lay_down_from_hand" in options:
            raise RulesError(
                "lay_down",
                'replaces lay_down_from_hand: use lay_down="say" for True, '
                'lay_down="meld" for False',
            )
        # T16: with 3 or 4 players the hand size is fixed; one given must be that one.
        players = options.get("players", 2)
        fixed = _SEAT_HANDS.get(players) if type(players) is int else None
        if fixed is not None and "hand_size" in options and options["hand_size"] != fixed:
            raise RulesError(
                "hand_size",
                f"must be {fixed} with players={players} (T16; got {options['hand_size']!r})",
            )
        return super().__new__(cls)

    def __attrs_post_init__(self) -> None:
        _one_of("players", self.players, (2, 3, 4))
        fixed = _SEAT_HANDS.get(self.players)
        if fixed is not None:  # T16: the hand is fixed by the player count
            object.__setattr__(self, "hand_size", fixed)
        else:
            _one_of("hand_size", self.hand_size, (8, 9, 10))
        _one_of("pack", self.pack, ("spanish", "american", "standard"))  # T1, T20
        _one_of("lay_down", self.lay_down, ("say", "turn", "meld"))
        _one_of("borrow_middle", self.borrow_middle, (True, False))
        _one_of("borrow_other_kind", self.borrow_other_kind, (True, False))
        _int_at_least("max_sequence", self.max_sequence, 3, none=True)
        _one_of("after_starter", self.after_starter, ("dealer", "pone"))
        _one_of("cut", self.cut, ("high", "low"))
        _one_of("trades", self.trades, tuple(range(self.hand_size + 1)))  # T21

    def __repr__(self) -> str:
        # The seat count, who turns after the starter and the cut are shown only when they
        # are not the defaults (T16, T22, T25).
        seats = "" if self.players == 2 else f", players={self.players}"
        if self.after_starter != "dealer":
            seats += f", after_starter={self.after_starter!r}"
        if self.cut != "high":
            seats += f", cut={self.cut!r}"
        if self.trades:
            seats += f", trades={self.trades!r}"
        return (
            f"ConquianRules(pack={self.pack!r}, hand_size={self.hand_size!r}, "
            f"lay_down={self.lay_down!r}, borrow_middle={self.borrow_middle!r}, "
            f"borrow_other_kind={self.borrow_other_kind!r}, "
            f"max_sequence={self.max_sequence!r}{seats})"
        )

    @classmethod
    def pagat(cls, **options: Any) -> ConquianRules:
        """The rules as pagat states them: hand cards go down only in a turn in which a card
        from the centre joins the player's melds (T8 ``lay_down="turn"``), sequences of
        eight at most (T14 ``max_sequence=8``)."""
        return cls(**{"lay_down": "turn", "max_sequence": 8, **options})

    @classmethod
    def blog(cls, **options: Any) -> ConquianRules:
        """The rules as the blog states them: every meld holds the card used from the centre
        (T8 ``lay_down="meld"``: "you cannot lay down a meld without using the card from
        the deck"); the blog states no sequence limit."""
        return cls(**{"lay_down": "meld", **options})

    @classmethod
    def hoyle(cls, **options: Any) -> ConquianRules:
        """The rules of Hoyle 1897: no borrowing from the middle of a sequence ("he cannot
        borrow an intermediate card", T9 ``borrow_middle=False``), and a borrowed card
        changes kind (T9 ``borrow_other_kind=True``: one of four of a kind goes "to use in
        a sequence", the end of a sequence "if he can use it to make a triplet"), and the
        lowest cut deals first (T25 ``cut="low"``: "the lowest cut having the choice, and
        dealing")."""
        return cls(**{"borrow_middle": False, "borrow_other_kind": True, "cut": "low", **options})

    @property
    def game(self) -> str:
        """The game's name in the registry (`conquian.GAMES`): ``"conquian"``.

        Records and positions written before name it ``"two-hand"``, which
        stays an alias of the game and keeps loading.
        """
        return "conquian"

    @property
    def win_size(self) -> int:
        """How many cards melded win the deal: one more than the hand (T2)."""
        return self.hand_size + 1

    @property
    def pack_name(self) -> str:
        """The pack's name, as every rules object gives it: `pack` (T1, C4)."""
        return self.pack

    @property
    def copies(self) -> int:
        """How many copies of each card the pack holds: one (T1)."""
        return 1

    @property
    def jokers(self) -> int:
        """How many jokers the pack holds: none (T1)."""
        return 0

    def pack_cards(self) -> tuple[Card, ...]:
        """The cards of the pack in canonical order: 40 (T1) or the full pack's 52 (T20),
        worked out once per rules object.

        >>> [len(ConquianRules(pack=p).pack_cards()) for p in ("american", "standard")]
        [40, 52]
        """
        return self._pack

    def pack_indices(self) -> tuple[int, ...]:
        """The `Card.index` of each card of `pack_cards`, in the same order.

        >>> ConquianRules().pack_indices()[:4]
        (0, 1, 2, 3)
        """
        return self._indices

    @cached_property
    def _pack(self) -> tuple[Card, ...]:
        return make_pack(self.pack)

    @cached_property
    def _indices(self) -> tuple[int, ...]:
        return tuple([c.index for c in self._pack])


def _default_players(self: CooncanRules) -> int:
    return 3 if self.variant == "three-hand" else 4


def _default_jokers(self: CooncanRules) -> int:
    return 0 if self.variant == "three-hand" else 2


@attrs.frozen
class CooncanRules:
    """Foster's Cooncan (rules M1–M13): the three-hand or the double-pack game.

    - `variant`: ``"three-hand"`` (one 52-card pack, 7 cards each) or
      ``"double-pack"`` (104 cards and two jokers, 10 each) (M1).
    - `players`: 2–3 for three-hand (default 3), 2–7 for the double pack (default 4; M14).
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
            _one_of("players", self.players, (2, 3, 4, 5, 6, 7))  # M14: seven allowed
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

    @property
    def pack_name(self) -> str:
        """The pack's name: ``"standard"``, the 52-card pack (M1)."""
        return "standard"

    @property
    def copies(self) -> int:
        """How many copies of each card the pack holds: one in three-hand, two in the double
        pack (M1)."""
        return 1 if self.variant == "three-hand" else 2

    def pack_cards(self) -> tuple[Card, ...]:
        """The pack in canonical order: 52 (+ joker) or 104 + 2 jokers (M1), worked out once
        per rules object.

        >>> len(CooncanRules.three_hand(jokers=1).pack_cards())
        53
        """
        return self._pack

    def pack_indices(self) -> tuple[int, ...]:
        """The `Card.index` of each card of `pack_cards`, in the same order (copies repeated)."""
        return self._indices

    @cached_property
    def _pack(self) -> tuple[Card, ...]:
        return make_pack("standard", copies=self.copies, jokers=self.jokers)

    @cached_property
    def _indices(self) -> tuple[int, ...]:
        return tuple([c.index for c in self._pack])


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

        >>> CooCanRules().pack_cards()[:3]
        (card('AC'), card('AC'), card('2C'))
        """
        return make_pack("standard", copies=2)


Rules = ConquianRules | CooncanRules | CooCanRules
"""Any rules object."""
