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
from typing import Any, Literal, cast

import attrs

from .cards import Card, make_pack
from .errors import RulesError

__all__ = ["ConquianRules", "CooCanRules", "CooncanRules", "Option", "Rules", "options"]

#: The key of an option's declaration in the metadata of its field (`Option`).
OPTION = "conquian.option"


@attrs.frozen
class Option:
    """What a rules class declares of one option, on its field (``metadata``), once.

    The declarations drive what is written of the option in documents and
    read back (`conquian.formats.codec`), the JSON Schemas, the options table
    of the docs, and the test and fuzz lists: `options` reads them.

    - `rule`: the rule ids it plays (``"T26"``);
    - `text`: one line saying what it is, for the docs' table and the schemas;
    - `values`: the values allowed, when they are a list; else an int from
      `minimum` to `maximum` (None: no upper bound), or None when `none`;
    - `per_game`: narrower `values` in some games of the class, as pairs of a
      game's name and its values (Cooncan's three-hand and double pack);
    - `sparse`: written in documents only when it is not the default (an
      option added after documents were written: they stay as they were);
    - `older`: missing from documents of older versions, which the engine's
      codec reads (`Codec.prepare_rules`);
    - `examples`: values to try beside `values` (tests, the fuzzer) for an
      int option with no list;
    - `name` and `default` are filled in by `options` from the field.

    >>> [o.name for o in options(CooCanRules)]
    ['players', 'game_stake', 'spot_stake', 'turn_limit']
    >>> next(o for o in options(ConquianRules) if o.name == "ace").values
    ('low', 'both')
    """

    rule: str
    text: str
    values: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    none: bool = False
    per_game: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    sparse: bool = False
    older: bool = False
    examples: tuple[Any, ...] = ()
    name: str = ""
    default: Any = None

    def values_in(self, game: str) -> tuple[Any, ...]:
        """The values allowed in `game` (`per_game`, else `values`; empty for an int
        range)."""
        for g, values in self.per_game:
            if g == game:
                return values
        return self.values

    def choices(self, game: str) -> tuple[Any, ...]:
        """Values to try in `game`: the list allowed, or the ends of the range, None
        if allowed, and the `examples`."""
        found = self.values_in(game)
        if found:
            return found
        out: list[Any] = [self.minimum]
        if self.maximum is not None:
            out.append(self.maximum)
        if self.none:
            out.append(None)
        return (*out, *[e for e in self.examples if e not in out])

    def check(self, value: object, game: str) -> None:
        """Raise `RulesError` naming the option if `value` is not one it allows in
        `game`."""
        values = self.values_in(game)
        if values:
            _one_of(self.name, value, values)
        else:
            assert self.minimum is not None
            _int_at_least(self.name, value, self.minimum, none=self.none)
            if self.maximum is not None and cast(int, value) > self.maximum:
                raise RulesError(self.name, f"must be at most {self.maximum} (got {value!r})")


def _option(default: Any, **declared: Any) -> Any:
    """The field of an option with its declaration (`Option`) as metadata."""
    return attrs.field(default=default, metadata={OPTION: Option(**declared)})


def options(rules_class: type) -> tuple[Option, ...]:
    """The options a rules class declares, in the order of its fields, each with its name
    and default (None when the default depends on other options: `CooncanRules.players`).

    >>> [o.name for o in options(CooncanRules)]
    ['players', 'jokers', 'stock', 'splash_bonus', 'turn_limit']
    """
    found = _DECLARED.get(rules_class)
    if found is None:
        out = []
        for f in attrs.fields(rules_class):
            declared = f.metadata.get(OPTION)
            if declared is not None:
                factory = isinstance(f.default, attrs.Factory)  # type: ignore[arg-type]
                out.append(
                    attrs.evolve(declared, name=f.name, default=None if factory else f.default)
                )
        found = _DECLARED[rules_class] = tuple(out)
    return found


_DECLARED: dict[type, tuple[Option, ...]] = {}


def _check_options(rules: Any) -> None:
    """Check every option of a rules object against its declaration (`Option.check`)."""
    for option in options(type(rules)):
        option.check(getattr(rules, option.name), rules.game)


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


#: The options a `ConquianRules` repr always shows; the others only when not the default.
_ALWAYS_SHOWN = (
    "pack",
    "hand_size",
    "lay_down",
    "borrow_middle",
    "borrow_other_kind",
    "max_sequence",
)

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
    - `ace`: ``"low"`` (default; Hoyle 1897: "The Ace is not in sequence with the
      King"), or ``"both"``: the ace also above the king (T26, the encyclopedia's
      "A 2 3 4 5 6 7 J Q K A"), never at both ends of one sequence; refused with
      the American pack, which has no king.

    Each option is declared once, on its field (`Option`; `options` lists them).

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

    pack: Literal["spanish", "american", "standard"] = _option(
        "spanish",
        rule="T1, T20",
        text="the pack: Spanish (A–7, J Q K) or American (A–10), 40 cards; or the full 52",
        values=("spanish", "american", "standard"),
    )
    hand_size: int = _option(
        10,
        rule="T2, T16",
        text="cards dealt: 10, 9 or 8 with two players; 8 with three, 7 with four",
        values=(7, 8, 9, 10),
    )
    lay_down: Literal["say", "turn", "meld"] = _option(
        "say",
        rule="T8",
        text="when hand cards go down: with the say, in a turn using a centre card, in its meld",
        values=("say", "turn", "meld"),
        older=True,
    )
    borrow_middle: bool = _option(
        True, rule="T9", text="a sequence may lend a card from its middle", values=(True, False)
    )
    borrow_other_kind: bool = _option(
        False,
        rule="T9",
        text="a borrowed card must change kind: group to sequence, sequence to group",
        values=(True, False),
        older=True,
    )
    max_sequence: int | None = _option(
        None,
        rule="T14",
        text="the longest sequence allowed; none: no limit",
        minimum=3,
        none=True,
        examples=(8, 5, 4),
    )
    players: int = _option(2, rule="T16", text="seats at the table", values=(2, 3, 4), older=True)
    after_starter: Literal["dealer", "pone"] = _option(
        "dealer",
        rule="T22",
        text="who turns the next card after a starter refused by both",
        values=("dealer", "pone"),
        sparse=True,
    )
    cut: Literal["high", "low"] = _option(
        "high",
        rule="T25",
        text="who deals first after cutting: the highest or the lowest cut",
        values=("high", "low"),
        sparse=True,
    )
    trades: int = _option(
        0,
        rule="T21",
        text="trade rounds before the starter, up to the hand size",
        minimum=0,
        maximum=10,
        examples=(1, 2),
        sparse=True,
    )
    ace: Literal["low", "both"] = _option(
        "low",
        rule="T26",
        text="the ace below the two only, or also above the king, never both in one sequence",
        values=("low", "both"),
        sparse=True,
    )

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
        _one_of("trades", self.trades, tuple(range(self.hand_size + 1)))  # T21
        _check_options(self)
        if self.ace == "both" and self.pack == "american":
            # T26: the American pack has no king for the ace to follow.
            raise RulesError(
                "ace",
                'must be "low" with the American pack: it has no king for the ace to follow (T26)',
            )

    def __repr__(self) -> str:
        # The options after max_sequence are shown only when they are not the defaults
        # (T16, T21, T22, T25, T26).
        shown = []
        for option in options(ConquianRules):
            value = getattr(self, option.name)
            if option.name in _ALWAYS_SHOWN or value != option.default:
                shown.append(f"{option.name}={value!r}")
        return f"ConquianRules({', '.join(shown)})"

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
    players: int = _option(
        attrs.Factory(_default_players, takes_self=True),
        rule="M1, M14",
        text="seats: 3 in three-hand (or 2), 4 in the double pack (2 to 7)",
        values=(2, 3, 4, 5, 6, 7),
        per_game=(("three-hand", (2, 3)),),
    )
    jokers: int = _option(
        attrs.Factory(_default_jokers, takes_self=True),
        rule="M1",
        text="jokers in the pack: 0 or 1 in three-hand, 2 in the double pack",
        values=(0, 1, 2),
        per_game=(("three-hand", (0, 1)), ("double-pack", (2,))),
    )
    stock: Literal["closed", "open"] = _option(
        "closed",
        rule="M3",
        text="the stock face down, or (three-hand) face up",
        values=("closed", "open"),
        per_game=(("double-pack", ("closed",)),),
    )
    splash_bonus: int | None = _option(
        None, rule="M8", text="the bonus for a splash; none: no bonus", values=(None, 25, 50)
    )
    turn_limit: int | None = _option(
        None,
        rule="M11",
        text="turns after which a deal is abandoned, a limit of the library's; none: no limit",
        minimum=1,
        none=True,
        examples=(40, 200),
    )

    def __attrs_post_init__(self) -> None:
        _one_of("variant", self.variant, ("three-hand", "double-pack"))
        _check_options(self)  # M14: seven players in the double pack

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

    players: int = _option(4, rule="K1", text="seats at the table", values=(2, 3, 4, 5, 6))
    game_stake: int = _option(
        100,
        rule="K9",
        text="what each loser pays the winner for the game",
        minimum=0,
        examples=(1,),
    )
    spot_stake: int = _option(
        2,
        rule="K9",
        text="what each loser pays for each spot in his hand",
        minimum=0,
        examples=(1,),
    )
    turn_limit: int | None = _option(
        None,
        rule="K8",
        text="turns after which a deal is abandoned, a limit of the library's; none: no limit",
        minimum=1,
        none=True,
        examples=(40, 200),
    )

    def __attrs_post_init__(self) -> None:
        _check_options(self)

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

    @property
    def pack_name(self) -> str:
        """The pack's name: ``"standard"``, the 52-card pack (K1)."""
        return "standard"

    @property
    def copies(self) -> int:
        """How many copies of each card the pack holds: two (K1)."""
        return 2

    def pack_cards(self) -> tuple[Card, ...]:
        """The two 52-card packs in canonical order, no jokers: 104 cards (K1).

        >>> CooCanRules().pack_cards()[:3]
        (card('AC'), card('AC'), card('2C'))
        """
        return make_pack(self.pack_name, copies=self.copies)


Rules = ConquianRules | CooncanRules | CooCanRules
"""Any rules object."""
