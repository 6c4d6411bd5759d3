"""The typed actions shared by every game, and their text notation.

Eight small frozen values make the whole vocabulary: `Take`, `Pass`, `Draw`,
`Meld`, `Borrow`, `Force`, `Discard` and `Trade` (Conquian's trading, T21).
Each has one canonical text form, `str(action)`, which `parse_action` reads
back:

>>> parse_action("meld 6h 4H 5♥")
parse_action('meld 4H 5H 6H')
>>> str(Force(card("6S"), onto=1)), str(Meld(cards("7H"), onto=2))
('force 6S @1', 'meld 7H @2')
>>> all(parse_action(str(a)) == a for a in (Pass(), Draw(), Borrow(card("10S"), source=0)))
True

A meld's cards are a set: their order in the text does not matter. The
canonical form lists cards in canonical order, except that an ace follows
the king of its suit when the meld has that king but not the two (``meld QS
KS AS``); jokers come last. Meld references (``@2``) are indices into
`state.table`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from .cards import Card, Face, NamedJoker, card, parse_face, sort_key
from .errors import NotationError

__all__ = [
    "Action",
    "Borrow",
    "Discard",
    "Draw",
    "Force",
    "Meld",
    "Pass",
    "Take",
    "Trade",
    "parse_action",
]


def canonical_faces(faces: Iterable[Face]) -> tuple[Face, ...]:
    """The cards of a meld action in canonical order (see the module docstring).

    Raises `TypeError` naming ``cards`` when they are not cards and named jokers.
    """
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Iterable):
        raise TypeError(f"a meld's cards are a tuple of cards, not {type(faces).__name__}")
    listed = list(faces)
    for f in listed:
        if type(f) is not Card and type(f) is not NamedJoker:
            raise TypeError(f"a meld's cards are cards or named jokers, not {f!r}")
    ordered = sorted(listed, key=sort_key)
    if not ordered:
        raise ValueError("a meld needs at least one card")
    ranks_by_suit: dict[object, set[int]] = {}
    for f in ordered:
        ranks_by_suit.setdefault(f.suit, set()).add(f.rank)
    high_suits = {s for s, ranks in ranks_by_suit.items() if 13 in ranks and 2 not in ranks}
    if not any(type(f) is Card and f.rank == 1 and f.suit in high_suits for f in ordered):
        return tuple(ordered)

    def key(f: Face) -> tuple[int, int]:
        if type(f) is Card and f.rank == 1 and f.suit in high_suits:
            return (0, sort_key(f) + 13)
        return (0 if type(f) is Card else 1, sort_key(f))

    return tuple(sorted(ordered, key=key))


def _at(index: int) -> str:
    return f"@{index}"


def _check_index(name: str, index: object) -> None:
    """Refuse a meld index that is not an int of 0 or more, naming the argument."""
    if type(index) is not int:
        raise TypeError(f"{name} is a meld index, an int of 0 or more, not {type(index).__name__}")
    if index < 0:
        raise ValueError(f"{name}: a meld index is 0 or more (got {index})")


def _check_card(name: str, value: object, *, named: bool = False) -> None:
    """Refuse a value that is not a card (or, when `named`, a named joker), naming the argument."""
    if type(value) is not Card and not (named and type(value) is NamedJoker):
        kind = "a card or a named joker" if named else "a card"
        raise TypeError(f"{name} must be {kind}, not {value!r}")


def _check_shift(shift: object) -> None:
    if type(shift) is not bool:
        raise TypeError(f"shift must be a bool, not {type(shift).__name__}")


@attrs.frozen(repr=False)
class Take:
    """Take the card on offer (two-hand) or a card of the stock (Cooncan): ``take 5H``.

    >>> str(Take(card("5H")))
    'take 5H'
    """

    card: Card

    def __attrs_post_init__(self) -> None:
        _check_card("card", self.card)

    def __str__(self) -> str:
        return f"take {self.card}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Pass:
    """Refuse the card on offer (two-hand, T5–T7): ``pass``.

    >>> str(Pass())
    'pass'
    """

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Draw:
    """Draw the top card of the pack, unseen by the others (Cooncan, M2): ``draw``.

    >>> str(Draw())
    'draw'
    """

    def __str__(self) -> str:
        return "draw"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Meld:
    """Lay down a new combination, or add cards to one's own combination `onto`.

    ``meld 4H 5H 6H`` lays a new one; ``meld 7H @2`` adds to meld 2 of the
    table; ``meld 9H @3 shift`` first shifts the end joker of meld 3 (M9).
    Jokers are named: ``meld 5D 6D JK=4D``.

    >>> Meld(cards("6H 4H 5H")) == parse_action("meld 4H 5H 6H")
    True
    >>> str(Meld((card("9H"),), onto=3, shift=True))
    'meld 9H @3 shift'
    """

    cards: tuple[Face, ...] = attrs.field(converter=canonical_faces)
    onto: int | None = None
    shift: bool = False

    def __attrs_post_init__(self) -> None:
        _check_shift(self.shift)
        if self.onto is not None:
            _check_index("onto", self.onto)
        elif self.shift:
            raise ValueError("a joker shift needs the meld it is made on (onto)")

    def __str__(self) -> str:
        text = "meld " + " ".join(map(str, self.cards))
        if self.onto is not None:
            text += f" {_at(self.onto)}"
        return text + " shift" if self.shift else text

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Borrow:
    """Take a card back from one's own combination `source` to meld it anew (T9).

    A negative `source` raises `ValueError` here, as `Meld` does for `onto`.

    >>> str(Borrow(card("10S"), source=0))
    'borrow 10S @0'
    """

    card: Card
    source: int

    def __attrs_post_init__(self) -> None:
        _check_card("card", self.card)
        _check_index("source", self.source)

    def __str__(self) -> str:
        return f"borrow {self.card} {_at(self.source)}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Force:
    """Put a card onto another player's combination `onto`, which must take it (T10, M5).

    ``force 6S @1``; a joker is named, ``force JK=10H @0``; ``force 9H @0
    shift`` first shifts the end joker of meld 0 (M9). A negative `onto`
    raises `ValueError` here, as for `Meld`.

    >>> str(Force(card("9H"), onto=0, shift=True))
    'force 9H @0 shift'
    """

    card: Face
    onto: int
    shift: bool = False

    def __attrs_post_init__(self) -> None:
        _check_card("card", self.card, named=True)
        _check_index("onto", self.onto)
        _check_shift(self.shift)

    def __str__(self) -> str:
        text = f"force {self.card} {_at(self.onto)}"
        return text + " shift" if self.shift else text

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Discard:
    """End the turn by laying a hand card face up: ``discard KD``.

    >>> str(Discard(card("KD")))
    'discard KD'
    """

    card: Card

    def __attrs_post_init__(self) -> None:
        _check_card("card", self.card)

    def __str__(self) -> str:
        return f"discard {self.card}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@attrs.frozen(repr=False)
class Trade:
    """Choose the card of one's hand passed to the left neighbour in a trade round (Conquian
    with ``trades``, T21): ``trade 5H``.

    In a view (C6) a trade whose card its viewer may not know is shown with `card` None,
    text ``trade``: another player's choice, until the round's cards move and only to the
    player who receives it. Such a trade is never legal to apply: a trade names its card.

    >>> str(Trade(card("5H"))), parse_action("trade 5h"), str(Trade())
    ('trade 5H', parse_action('trade 5H'), 'trade')
    """

    card: Card | None = None

    def __attrs_post_init__(self) -> None:
        if self.card is not None:
            _check_card("card", self.card)

    def __str__(self) -> str:
        return "trade" if self.card is None else f"trade {self.card}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


Action = Take | Pass | Draw | Meld | Borrow | Force | Discard | Trade
"""Any of the eight actions."""

_TOKEN = re.compile(r"\S+")
_VERBS = ("take", "pass", "draw", "meld", "borrow", "force", "discard", "trade")
_INDEX = re.compile(r"@\d{1,6}")

_MAX_TEXT = 200
"""The longest action text `parse_action` reads, as `conquian.formats.records.MAX_ACTION_TEXT`."""
_MAX_TOKEN = 16
"""The longest word of an action (``discard``, ``JK=10H``, ``@123456`` are shorter)."""
_EXCERPT = 24
"""The most characters of the input an error message quotes."""


def _excerpt(text: str) -> str:
    """`text` quoted, cut to its first `_EXCERPT` characters (E2: errors stay short)."""
    if len(text) <= _EXCERPT:
        return repr(text)
    return repr(text[:_EXCERPT]) + f"... ({len(text)} characters)"


def parse_action(text: str) -> Action:
    """Read an action from its text notation (rules C2, E2).

    Verbs, cards and ``shift`` are case-insensitive. Bad text raises
    `NotationError` naming the bad token and its column. Text longer than 200
    characters, or a word longer than 16, raises `NotationError` before it is
    read (no action is that long); a message quotes at most the first 24
    characters of what it names. Reading costs time linear in the text.

    >>> parse_action("Force JK=10h @0")
    parse_action('force JK=10H @0')
    >>> parse_action("meld 4H 5H @x")
    Traceback (most recent call last):
    ...
    conquian.errors.NotationError: bad meld index '@x' at column 11: write @ and a number, as @2
    """
    if type(text) is str:  # a text read before gives the same (immutable) action
        found = _PARSED.get(text)
        if found is not None:
            return found
    elif not isinstance(text, str):
        raise NotationError(f"an action is text, not {type(text).__name__}", token=repr(text))
    action = _parse(text)
    if type(text) is str:
        if len(_PARSED) >= _CACHED:
            _PARSED.clear()
        _PARSED[text] = action
    return action


_PARSED: dict[str, Action] = {}
"""Actions by the text they were read from: a long record repeats a few texts (draw, discard)."""
_CACHED = 4_096
"""The most texts `_PARSED` keeps; it starts afresh when full."""


def _parse(text: str) -> Action:
    """`parse_action` of a text not read before."""
    if len(text) > _MAX_TEXT:
        raise NotationError(
            f"action text of {len(text)} characters, more than the limit of {_MAX_TEXT}: "
            + _excerpt(text),
            token=text[:_EXCERPT],
            column=0,
        )
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)]
    if not tokens:
        raise NotationError("empty action: write one of " + ", ".join(_VERBS), token="")
    for token, col in tokens:
        if len(token) > _MAX_TOKEN:
            raise NotationError(
                f"word of {len(token)} characters at column {col}, longer than any in an "
                f"action: {_excerpt(token)}",
                token=token[:_EXCERPT],
                column=col,
            )
    (verb, column) = tokens[0]
    verb = verb.lower()
    end = len(tokens)
    at = 1  # the next token to read

    def fail(message: str, token: str, col: int) -> NotationError:
        return NotationError(f"{message} at column {col}", token=token, column=col)

    def one_card() -> Card:
        nonlocal at
        if at == end:
            raise fail(f"'{verb}' needs a card, as '{verb} 5H'", verb, column)
        token, col = tokens[at]
        at += 1
        return card(token, column=col)

    def index() -> int:
        nonlocal at
        if at == end:  # the index is missing where the text ends
            raise fail(f"'{verb}' needs a meld index, as @0", verb, len(text.rstrip()))
        token, col = tokens[at]
        at += 1
        if not _INDEX.fullmatch(token):
            raise NotationError(
                f"bad meld index {token!r} at column {col}: write @ and a number, as @2",
                token=token,
                column=col,
            )
        return int(token[1:])

    def named(face: Face, token: str, col: int) -> Face:
        # C5: a joker laid or forced stands for a card, which its text names.
        if isinstance(face, Card) and face.is_joker:
            raise fail(
                f"a joker in '{verb}' names the card it stands for, as JK=4D (or JK=5 in a "
                "group) (C5)",
                token,
                col,
            )
        return face

    def shift() -> bool:
        nonlocal at
        if at < end and tokens[at][0].lower() == "shift":
            at += 1
            return True
        return False

    action: Action
    if verb == "pass":
        action = Pass()
    elif verb == "draw":
        action = Draw()
    elif verb == "take":
        action = Take(one_card())
    elif verb == "discard":
        action = Discard(one_card())
    elif verb == "trade":  # T21; a trade with no card is one a view hides (C6)
        action = Trade(one_card() if at < end else None)
    elif verb == "borrow":
        taken = one_card()
        action = Borrow(taken, source=index())
    elif verb == "force":
        if at == end:
            raise fail("'force' needs a card, as 'force 6S @1'", verb, column)
        token, col = tokens[at]
        at += 1
        forced = named(parse_face(token, column=col), token, col)
        action = Force(forced, onto=index(), shift=shift())
    elif verb == "meld":
        faces: list[Face] = []
        while at < end and not tokens[at][0].startswith("@") and tokens[at][0].lower() != "shift":
            token, col = tokens[at]
            at += 1
            faces.append(named(parse_face(token, column=col), token, col))
        if not faces:
            raise fail("'meld' needs cards, as 'meld 4H 5H 6H'", verb, column)
        onto = index() if at < end and tokens[at][0].startswith("@") else None
        shift_col = tokens[at][1] if at < end else len(text)
        is_shift = shift()
        if is_shift and onto is None:
            raise fail(
                "'shift' needs a meld index before it, as 'meld 9H @3 shift'", "shift", shift_col
            )
        action = Meld(tuple(faces), onto=onto, shift=is_shift)
    else:
        raise NotationError(
            f"unknown action {tokens[0][0]!r} at column {column}: use one of " + ", ".join(_VERBS),
            token=tokens[0][0],
            column=column,
        )
    if at < end:
        token, col = tokens[at]
        raise fail(f"unexpected {token!r} after '{action}'", token, col)
    return action
