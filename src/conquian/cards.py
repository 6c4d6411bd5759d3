"""Cards, jokers, packs and their notation (rules C1, C2, C4, M7).

A `Card` is a rank and a suit, or the joker. Cards are small frozen values:
equal cards are interchangeable (the two copies of a card in the double pack
are equal, so a hand is a multiset). Every card of every pack is interned in
one table, so the engines can refer to a card by its `index`.

>>> card("5H")
card('5H')
>>> str(card("t♠")), cards("4H 5H 6H")
('10S', (card('4H'), card('5H'), card('6H')))
>>> sorted(cards("KS JK AC 5H"))
[card('AC'), card('5H'), card('KS'), card('JK')]

A joker on the table stands for the card its player named (C5): that is a
`NamedJoker`, written ``JK=4D`` in a sequence and ``JK=5`` (rank only) in a
group.

>>> joker("4D"), str(joker("5"))
(joker('4D'), 'JK=5')
"""

from __future__ import annotations

import enum
import functools
import re
from _random import Random as _Twister
from collections.abc import Iterable, Iterator
from operator import mul
from typing import Literal, TypeVar

import attrs

from .errors import NotationError

__all__ = [
    "JOKER",
    "PACK_NAMES",
    "Card",
    "Face",
    "NamedJoker",
    "Suit",
    "card",
    "cards",
    "joker",
    "make_pack",
    "pip_value",
    "shuffle",
]


class Suit(enum.IntEnum):
    """The four suits, in canonical order (C1).

    >>> Suit.HEARTS.letter, Suit.HEARTS.symbol
    ('H', '♥')
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in card notation: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]


_RANK_TEXT = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _card_index(rank: int, suit: Suit | None) -> int:
    return 52 if suit is None else suit * 13 + rank - 1


@attrs.frozen(repr=False, order=False, cache_hash=True)
class Card:
    """A playing card: a rank (1 = ace … 13 = king) and a suit, or the joker (C1).

    The joker is ``Card(0, None)``, also available as `JOKER`. Cards order in
    canonical order: by suit (C, D, H, S), then by rank with the ace first,
    jokers last; `index` is the position in that order (0–51, joker 52).

    >>> Card(5, Suit.HEARTS) == card("5H")
    True
    >>> card("AC") < card("2C") < card("KC") < card("AD") < JOKER
    True
    >>> card("QD").index
    24
    """

    rank: int
    suit: Suit | None
    index: int = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        if type(self.rank) is not int:
            raise TypeError(f"a card's rank is an int (1-13, 0 for the joker), not {self.rank!r}")
        if self.suit is None:
            if self.rank != 0:
                raise ValueError(f"a card with no suit is the joker, of rank 0 (got {self.rank})")
        elif not 1 <= self.rank <= 13 or not isinstance(self.suit, Suit):
            raise ValueError(f"no card of rank {self.rank!r} and suit {self.suit!r}")
        object.__setattr__(self, "index", _card_index(self.rank, self.suit))

    @property
    def is_joker(self) -> bool:
        """Whether this card is the joker."""
        return self.suit is None

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return _RANK_TEXT[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"card('{self}')"

    def __reduce__(self) -> tuple[object, ...]:
        # Unpickled and copied cards are the interned ones, so engines may compare by identity.
        return (card_at, (self.index,))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


JOKER = Card(0, None)
"""The joker, as it is held in a hand or lies in a pack (C5)."""

# Every card, interned: _CARDS[card.index] is card.
_CARDS: tuple[Card, ...] = (*(Card(r, s) for s in Suit for r in range(1, 14)), JOKER)


@attrs.frozen(repr=False, order=False)
class NamedJoker:
    """A joker on the table, standing for the card its player named (C5, M9).

    In a sequence it names a whole card (``JK=4D``); in a group only a rank
    (``JK=5``, `suit` is None), since its suit would change nothing. A joker
    that has been shifted once (M9) is marked `shifted` and never moves again.

    >>> j = joker("4D")
    >>> (str(j), j.rank, j.suit.letter, j.card)
    ('JK=4D', 4, 'D', card('4D'))
    >>> joker("5").card is None
    True
    """

    rank: int
    suit: Suit | None = None
    shifted: bool = attrs.field(default=False, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if type(self.rank) is not int:
            raise TypeError(f"a joker's rank is an int (1-13), not {self.rank!r}")
        if type(self.shifted) is not bool:
            raise TypeError(f"a joker's shifted is a bool, not {self.shifted!r}")
        if not 1 <= self.rank <= 13 or (self.suit is not None and not isinstance(self.suit, Suit)):
            raise ValueError(f"a joker cannot stand for rank {self.rank!r} and suit {self.suit!r}")

    @property
    def card(self) -> Card | None:
        """The card this joker stands for, or None for a joker in a group."""
        return None if self.suit is None else _CARDS[_card_index(self.rank, self.suit)]

    @property
    def is_joker(self) -> bool:
        """Always true: a named joker is a joker."""
        return True

    def __str__(self) -> str:
        return "JK=" + _RANK_TEXT[self.rank] + ("" if self.suit is None else self.suit.letter)

    def __repr__(self) -> str:
        name = str(self)[3:]
        return f"joker('{name}', shifted=True)" if self.shifted else f"joker('{name}')"


Face = Card | NamedJoker
"""A card as it lies in a combination: a card, or a joker with the card it stands for."""

PACK_NAMES = ("spanish", "american", "standard")
"""The names of the packs: the two 40-card packs and the 52-card pack (C4)."""

PackName = Literal["spanish", "american", "standard"]

_PACK_RANKS = {
    "spanish": (1, 2, 3, 4, 5, 6, 7, 11, 12, 13),
    "american": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    "standard": tuple(range(1, 14)),
}


_MOST_COPIES = 8
_MOST_JOKERS = 16


def make_pack(name: str = "standard", *, copies: int = 1, jokers: int = 0) -> tuple[Card, ...]:
    """The cards of a pack in canonical order (C1, C4, M1).

    ``spanish`` is A–7 J Q K of each suit, ``american`` A–10, ``standard`` all
    52; `copies` packs (1 to 8) are shuffled together with `jokers` jokers (0
    to 16). Any other value raises `ValueError` naming the argument (a
    `TypeError` when it is not an int), so the packs made are few and kept.

    >>> len(make_pack("spanish")), len(make_pack(copies=2, jokers=2))
    (40, 106)
    >>> make_pack("spanish")[6:8]
    (card('7C'), card('JC'))
    >>> make_pack(copies=-1)
    Traceback (most recent call last):
    ...
    ValueError: copies must be from 1 to 8 (got -1)
    """
    if not isinstance(name, str) or name not in _PACK_RANKS:
        raise ValueError(f"unknown pack {name!r}: use one of {', '.join(PACK_NAMES)}")
    for option, value, low, high in (
        ("copies", copies, 1, _MOST_COPIES),
        ("jokers", jokers, 0, _MOST_JOKERS),
    ):
        if type(value) is not int:
            raise TypeError(f"{option} must be an int, not {type(value).__name__}")
        if not low <= value <= high:
            raise ValueError(f"{option} must be from {low} to {high} (got {value})")
    return _pack(name, copies, jokers)


# Bounded by the checks above: 3 names x 8 copies x 17 joker counts at most.
@functools.lru_cache(maxsize=64)
def _pack(name: str, copies: int, jokers: int) -> tuple[Card, ...]:
    ranks = _PACK_RANKS[name]
    one = [_CARDS[_card_index(r, s)] for s in Suit for r in ranks]
    return tuple(c for c in one for _ in range(copies)) + (JOKER,) * jokers


def pip_value(c: Card) -> int:
    """The card's value in the Cooncan settlement (M7, laws 23–24).

    Joker 15, ace 11, king, queen, jack and ten 10, the others their face.

    >>> [pip_value(c) for c in cards("JK AS KH 10D 7C")]
    [15, 11, 10, 10, 7]
    """
    if not isinstance(c, Card):
        raise TypeError(f"pip_value takes a Card, not {type(c).__name__}")
    if c.suit is None:
        return 15
    if c.rank == 1:
        return 11
    return min(c.rank, 10)


# Text to card, for every spelling the notation accepts (C2): letters or
# symbols for suits, "10" or "T" for ten, any case (the key is upper-cased).
_SUIT_SPELLINGS = {s: (s.letter, s.symbol) for s in Suit}
_RANK_SPELLINGS: dict[int, tuple[str, ...]] = {r: (_RANK_TEXT[r],) for r in range(1, 14)}
_RANK_SPELLINGS[10] = ("10", "T")
_BY_TEXT: dict[str, Card] = {"JK": JOKER}
_RANK_BY_TEXT: dict[str, int] = {}
for _r, _rank_texts in _RANK_SPELLINGS.items():
    for _rt in _rank_texts:
        _RANK_BY_TEXT[_rt] = _r
        for _s, _suit_texts in _SUIT_SPELLINGS.items():
            for _st in _suit_texts:
                _BY_TEXT[_rt + _st] = _CARDS[_card_index(_r, _s)]


def _bad(kind: str, token: str, column: int | None) -> NotationError:
    where = "" if column is None else f" at column {column}"
    return NotationError(
        f"unknown {kind} {token!r}{where}: write a rank (A 2-10 J Q K, T for 10) and a suit "
        "(C D H S or ♣ ♦ ♥ ♠), or JK for the joker",
        token=token,
        column=column,
    )


def card(text: str, *, column: int | None = None) -> Card:
    """Parse one card in notation (C2): ``5H``, ``10S``, ``TS``, ``qc``, ``5♥``, ``JK``.

    Raises `NotationError` naming the token when the text is not a card.

    >>> card("10s") is card("T♠")
    True
    >>> card("1H")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    conquian.errors.NotationError: unknown card '1H': write a rank ...
    """
    if not isinstance(text, str):
        raise NotationError(f"a card is text, as '5H', not {type(text).__name__}", token=repr(text))
    try:
        return _BY_TEXT[text.strip().upper()]
    except KeyError:
        raise _bad("card", text, column) from None


_CARD_TOKEN = re.compile(r"[^\s,]+")


def cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards, separated by spaces or commas, keeping their order.

    A bad token raises `NotationError` with the token and, for text, its
    0-based `column`; text that is neither a string nor an iterable of strings
    raises `NotationError` too.

    >>> cards("AH, 2H 3h")
    (card('AH'), card('2H'), card('3H'))
    >>> cards("5H 6H XX 7H")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    conquian.errors.NotationError: unknown card 'XX' at column 6: ...
    """
    if isinstance(text, str):
        return tuple(card(m.group(), column=m.start()) for m in _CARD_TOKEN.finditer(text))
    if isinstance(text, (bytes, bytearray)) or not isinstance(text, Iterable):
        raise NotationError(
            f"cards are text or an iterable of card texts, not {type(text).__name__}",
            token=repr(text),
        )
    return tuple(card(t) for t in text)


def joker(named: str, *, shifted: bool = False) -> NamedJoker:
    """A joker standing for the card ``named`` (``"4D"``) or, in a group, the rank (``"5"``).

    Text that names no card or rank raises `NotationError`.

    >>> joker("10H"), joker("K").rank
    (joker('10H'), 13)
    """
    if not isinstance(named, str):
        raise NotationError(
            f"a joker is named by text, as '4D' or '5', not {type(named).__name__}",
            token=repr(named),
        )
    text = named.strip().upper()
    rank = _RANK_BY_TEXT.get(text)
    if rank is not None:
        return NamedJoker(rank, None, shifted=shifted)
    stood = _BY_TEXT.get(text)
    if stood is None or stood.suit is None:
        raise _bad("joker name", "JK=" + named, None)
    return NamedJoker(stood.rank, stood.suit, shifted=shifted)


def parse_face(token: str, *, column: int | None = None) -> Face:
    """Parse a card or a named joker (``JK=4D``, ``JK=5``) as written in a meld.

    Raises `NotationError` naming the token when it is neither.

    >>> parse_face("jk=4d"), parse_face("5H")
    (joker('4D'), card('5H'))
    """
    if not isinstance(token, str):
        raise NotationError(
            f"a card is text, as '5H', not {type(token).__name__}", token=repr(token)
        )
    upper = token.strip().upper()
    if upper.startswith("JK="):
        try:
            return joker(upper[3:])
        except NotationError:
            raise _bad("joker", token, column) from None
    return card(token, column=column)


def sort_key(face: Face) -> int:
    """Canonical order of faces: cards by `Card.index`, then jokers by what they name."""
    if isinstance(face, Card):
        return face.index
    named = face.card
    return 100 + (face.rank if named is None else named.index)


def card_at(index: int) -> Card:
    """The interned card with this `Card.index` (0–52); the engines' fast lookup, unchecked."""
    return _CARDS[index]


def face_code(face: Face) -> int:
    """A face as a small int, for tables: a card is its `Card.index` (0–52), a joker naming a
    card 53 + that card's index, a joker naming a rank (in a group) 104 + the rank (C5).

    A shifted joker has none (`KeyError`): it is played unshifted (M9).
    """
    if type(face) is Card:
        return face.index
    if not isinstance(face, NamedJoker) or face.shifted:
        raise KeyError(face)
    named = face.card
    return 104 + face.rank if named is None else 53 + named.index


FACES: tuple[Face, ...] = (
    *(card_at(i) for i in range(53)),
    *(NamedJoker(card_at(i).rank, card_at(i).suit) for i in range(52)),
    *(NamedJoker(r) for r in range(1, 14)),
)
"""Every face by its code: ``FACES[face_code(f)] == f``."""


# -- the seeded shuffle (C7) --------------------------------------------------------------

_T = TypeVar("_T")


def shuffle(pack: Iterable[_T], seed: int) -> tuple[_T, ...]:
    """The pack shuffled by the seed, top card first (C7).

    Fisher–Yates from the bottom card up: for each place `i` from the last
    down to 1, the card there swaps with the one at ``floor(r * (i + 1))``,
    `r` being the next `random.Random(seed).random()`. That stream is the one
    Python promises to keep, so a seed deals the same cards on every Python
    version and the shuffle can be repeated in other languages. Any items
    shuffle alike (the engines shuffle cards or their indices).

    >>> shuffle(cards("AC 2C 3C 4C"), seed=1)
    (card('4C'), card('2C'), card('3C'), card('AC'))
    >>> shuffle(make_pack("spanish"), seed=7)[:3]
    (card('AH'), card('JS'), card('JC'))
    """
    if type(seed) is not int:
        raise TypeError(f"a seed is an int (got {type(seed).__name__})")
    if isinstance(pack, (str, bytes)) or not isinstance(pack, Iterable):
        raise TypeError(f"pack must be an iterable of cards (got {type(pack).__name__})")
    deck = list(pack)
    for i, j in zip(range(len(deck) - 1, 0, -1), _swaps(len(deck), seed), strict=True):
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


_SIZES: dict[int, tuple[float, ...]] = {}
"""Per pack size `n`, the factors ``i + 1`` for `i` from ``n - 1`` down to 1 (few sizes)."""


def _swaps(n: int, seed: int) -> Iterator[int]:
    """The `j` of each step of the shuffle of `n` cards, `i` running from ``n - 1`` down to 1.

    ``floor(r * (i + 1))`` of a non-negative product is its `int`; `_Twister`
    is the generator under `random.Random`, the same stream for an int seed.
    """
    sizes = _SIZES.get(n)
    if sizes is None:
        if len(_SIZES) >= 64:
            _SIZES.clear()
        sizes = _SIZES[n] = tuple(float(i + 1) for i in range(n - 1, 0, -1))
    draw = _Twister(seed).random
    return map(int, map(mul, [draw() for _ in sizes], sizes))
