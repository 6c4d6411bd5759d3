"""Card diagrams for the documentation: cards in notation to inline SVG.

A diagram is written in a fenced block whose info string is ``cards``. Each
line is a labelled row of cards in the library's notation (RULES.md C2),
read with `conquian.cards.parse_face`, so a card that does not parse stops
the docs build with the library's own `NotationError`::

    hand: 4H 5H 6H KD
    table: @0 4H 5H 6H | @1 7C 7D 7S
    offer: +5H
    caption: The pone takes the five of hearts.

- ``label: cards`` is one row: the label is shown beside the cards;
- ``|`` separates combinations on one row, with a wider gap;
- ``@0`` (or any word starting with ``@``) at the start of a combination
  is written above it: the meld's index in ``state.table``;
- ``+5H`` draws the card with a highlight (the card that has just moved);
- ``JK`` is a joker in the hand; ``JK=4D`` a joker standing for the four of
  diamonds and ``JK=5`` one standing for a five in a group (C5); a trailing
  ``*`` (``JK=6H*``) marks a joker that has been shifted (M9): it is drawn
  crossways, as law 18 has it laid;
- ``??`` is a card face down, and ``-`` alone an empty row;
- ``caption: text`` (once) is the figure's caption.

`render_block` turns the text of a block into an HTML ``<figure>`` (which is
well-formed XML); `render_row` makes the ``<svg>`` of one row, with one
``<g class="card">`` per card. Nothing here needs more than the standard
library and `conquian`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from conquian.cards import Card, NamedJoker, Suit, parse_face
from conquian.errors import NotationError

__all__ = ["Diagram", "Item", "Row", "parse_block", "render_block", "render_row"]

# -- geometry and colours -------------------------------------------------------------------

WIDTH = 40  # one card
HEIGHT = 56
RADIUS = 5
GAP = 4  # between cards of one combination
MELD_GAP = 18  # between combinations
TAG_HEIGHT = 14  # room above the cards for @0 tags
PAD = 3  # room for the highlight's stroke

RED = "#c62828"
BLACK = "#1b1b1b"
JOKER_INK = "#6a1b9a"
JOKER_FACE = "#fff4d6"
FACE = "#ffffff"
EDGE = "#8a8a8a"
BACK = "#1e5aa8"
HIGHLIGHT = "#f29100"
FONT = "Roboto, 'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif"

_RANK = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_NAME = (
    "joker", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king",
)  # fmt: skip
_SUIT_NAME = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts",
              Suit.SPADES: "spades"}  # fmt: skip


def ink(suit: Suit | None) -> str:
    """The colour of a suit: red for hearts and diamonds, black for clubs and spades."""
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


# -- what a block says ----------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One card of a diagram: a face (`None` for a card face down) and how it is drawn."""

    face: Card | NamedJoker | None
    highlight: bool = False

    @property
    def shifted(self) -> bool:
        """Whether this is a joker shifted once (M9), drawn crossways."""
        return isinstance(self.face, NamedJoker) and self.face.shifted

    @property
    def name(self) -> str:
        """The card in words, for screen readers: ``five of hearts``."""
        face = self.face
        if face is None:
            return "a card face down"
        if isinstance(face, NamedJoker):
            what = (
                f"a {_RANK_NAME[face.rank]}"
                if face.suit is None
                else f"the {_RANK_NAME[face.rank]} of {_SUIT_NAME[face.suit]}"
            )
            return f"{'shifted ' if face.shifted else ''}joker standing for {what}"
        if face.suit is None:
            return "joker"
        return f"{_RANK_NAME[face.rank]} of {_SUIT_NAME[face.suit]}"


@dataclass(frozen=True)
class Row:
    """A labelled row: its combinations (lists of items), each with an optional tag (``@0``)."""

    label: str
    melds: tuple[tuple[str | None, tuple[Item, ...]], ...]

    @property
    def items(self) -> tuple[Item, ...]:
        """Every card of the row, in order."""
        return tuple(item for _, items in self.melds for item in items)


@dataclass(frozen=True)
class Diagram:
    """The rows of a block and its caption."""

    rows: tuple[Row, ...]
    caption: str | None = None


def parse_item(token: str) -> Item:
    """One card token: notation, with ``+`` before for a highlight and ``*`` after a shifted joker.

    Raises `NotationError` (from `conquian.cards.parse_face`) for a bad card.
    """
    text = token
    highlight = text.startswith("+")
    if highlight:
        text = text[1:]
    if text == "??":
        return Item(None, highlight)
    shifted = text.endswith("*")
    if shifted:
        text = text[:-1]
    face = parse_face(text)
    if shifted:
        if not isinstance(face, NamedJoker) or face.suit is None:
            raise NotationError(
                f"only a joker named as a card of a sequence can be shifted (got {token!r})",
                token=token,
            )
        face = NamedJoker(face.rank, face.suit, shifted=True)
    return Item(face, highlight)


def parse_row(label: str, text: str) -> Row:
    """The cards of one row: ``@0 4H 5H 6H | @1 7C 7D 7S``; ``-`` is an empty row."""
    melds: list[tuple[str | None, tuple[Item, ...]]] = []
    if text.strip() == "-":
        return Row(label, ())
    for segment in text.split("|"):
        tokens = segment.split()
        tag = None
        if tokens and tokens[0].startswith("@"):
            tag, tokens = tokens[0], tokens[1:]
        if not tokens:
            raise NotationError(f"an empty combination in row {label!r}: {text!r}", token=text)
        melds.append((tag, tuple(parse_item(t) for t in tokens)))
    return Row(label, tuple(melds))


def parse_block(source: str) -> Diagram:
    """The rows of a ``cards`` block (see the module docstring).

    Raises `NotationError` for a bad card and `ValueError` for a line that is
    not ``label: cards``.
    """
    rows: list[Row] = []
    caption = None
    for number, line in enumerate(source.splitlines(), start=1):
        if not line.strip():
            continue
        label, colon, rest = line.partition(":")
        if not colon or not label.strip():
            raise ValueError(f"line {number} of a cards block is not 'label: cards': {line!r}")
        if label.strip().lower() == "caption":
            caption = rest.strip()
            continue
        rows.append(parse_row(label.strip(), rest))
    if not rows:
        raise ValueError("a cards block needs at least one row 'label: cards'")
    return Diagram(tuple(rows), caption)


# -- drawing --------------------------------------------------------------------------------


def _text(x: float, y: float, text: str, size: float, fill: str, *, weight: str = "bold",
          anchor: str = "start") -> str:  # fmt: skip
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>'
    )


def _outline(fill: str, item: Item, width: int = WIDTH, height: int = HEIGHT) -> str:
    if item.highlight:
        stroke = f'stroke="{HIGHLIGHT}" stroke-width="3"'
    else:
        stroke = f'stroke="{EDGE}" stroke-width="1"'
    return (
        f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" rx="{RADIUS}" '
        f'fill="{fill}" {stroke}/>'
    )


def _card_body(item: Item) -> list[str]:
    """The drawing of one card, in the card's own frame (0, 0)-(WIDTH, HEIGHT)."""
    face = item.face
    if face is None:  # face down
        return [
            _outline(BACK, item),
            f'<rect x="5" y="5" width="{WIDTH - 10}" height="{HEIGHT - 10}" rx="3" fill="none" '
            'stroke="#ffffff" stroke-opacity="0.6" stroke-width="1.5"/>',
            f'<path d="M5 5 L{WIDTH - 5} {HEIGHT - 5} M{WIDTH - 5} 5 L5 {HEIGHT - 5}" '
            'stroke="#ffffff" stroke-opacity="0.35" stroke-width="1.5"/>',
        ]
    if isinstance(face, NamedJoker) and face.shifted:
        # Law 18: once moved, the joker is laid crossways; drawn lying on its side,
        # HEIGHT wide and WIDTH tall, with its text upright and a turn mark.
        assert face.suit is not None
        colour = ink(face.suit)
        return [
            _outline(JOKER_FACE, item, HEIGHT, WIDTH),
            _text(4, 12, "JK", 10, JOKER_INK),
            f'<text x="4" y="31" font-size="15" fill="{colour}">'
            f'<tspan font-weight="bold">{_RANK[face.rank]}</tspan>'
            f'<tspan font-size="14">{face.suit.symbol}</tspan></text>',
            _text(HEIGHT - 5, 13, "\u21bb", 12, JOKER_INK, weight="normal", anchor="end"),
            _text(HEIGHT - 5, WIDTH - 6, "\u2605", 14, JOKER_INK, weight="normal", anchor="end"),
        ]
    if isinstance(face, NamedJoker):  # a joker on the table, with what it stands for
        colour = ink(face.suit) if face.suit is not None else BLACK
        parts = [
            _outline(JOKER_FACE, item),
            _text(4, 12, "JK", 10, JOKER_INK),
            _text(4, 28, _RANK[face.rank], 15, colour),
        ]
        if face.suit is not None:
            parts.append(_text(4, 42, face.suit.symbol, 14, colour, weight="normal"))
        parts.append(
            _text(WIDTH - 5, HEIGHT - 6, "\u2605", 15, JOKER_INK, weight="normal", anchor="end")
        )
        return parts
    if face.suit is None:  # the joker as it lies in a hand or a pack
        return [
            _outline(JOKER_FACE, item),
            _text(4, 15, "JK", 13, JOKER_INK),
            _text(
                WIDTH / 2,
                HEIGHT / 2 + 12,
                "\u2605",
                24,
                JOKER_INK,
                weight="normal",
                anchor="middle",
            ),
        ]
    colour = ink(face.suit)
    return [
        _outline(FACE, item),
        _text(4, 17, _RANK[face.rank], 15, colour),
        _text(4, 31, face.suit.symbol, 14, colour, weight="normal"),
        _text(WIDTH - 5, HEIGHT - 7, face.suit.symbol, 22, colour, weight="normal", anchor="end"),
    ]


def _card(item: Item, x: float, y: float) -> tuple[str, float]:
    """A ``<g class="card">`` at (x, y), and the width it takes."""
    classes = "card"
    if item.face is None:
        classes += " card-back"
    elif isinstance(item.face, NamedJoker) or item.face.suit is None:
        classes += " card-joker"
    elif item.face.suit in (Suit.HEARTS, Suit.DIAMONDS):
        classes += " card-red"
    if item.highlight:
        classes += " card-highlight"
    body = "".join(_card_body(item))
    title = f"<title>{escape(item.name)}</title>"
    if item.shifted:  # crossways (law 18): HEIGHT wide, WIDTH tall, on the row's bottom line
        classes += " card-shifted"
        transform = f"translate({x:g} {y + HEIGHT - WIDTH:g})"
        return f'<g class="{classes}" transform="{transform}">{title}{body}</g>', HEIGHT
    return f'<g class="{classes}" transform="translate({x:g} {y:g})">{title}{body}</g>', WIDTH


def render_row(row: Row) -> str:
    """The ``<svg>`` of one row: one ``<g class="card">`` per card, tags above their melds."""
    tagged = any(tag for tag, _ in row.melds)
    top = PAD + (TAG_HEIGHT if tagged else 0)
    x = float(PAD)
    parts: list[str] = []
    for i, (tag, items) in enumerate(row.melds):
        if i:
            x += MELD_GAP - GAP
        if tag:
            parts.append(
                f'<text class="meld-tag" x="{x:g}" y="{PAD + 10}" font-size="11" '
                f'fill="currentColor">{escape(tag)}</text>'
            )
        for item in items:
            drawn, width = _card(item, x, top)
            parts.append(drawn)
            x += width + GAP
    width = max(x - GAP + PAD, 2 * PAD + WIDTH) if row.melds else 2 * PAD + WIDTH
    height = top + HEIGHT + PAD
    words = (
        "; ".join(", ".join(item.name for item in items) for _, items in row.melds) or "no cards"
    )
    label = f"{row.label}: {words}"
    if not row.melds:
        parts.append(
            f'<rect x="{PAD + 0.5}" y="{top + 0.5}" width="{WIDTH - 1}" height="{HEIGHT - 1}" '
            f'rx="{RADIUS}" fill="none" stroke="{EDGE}" stroke-dasharray="4 3"/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cards-svg" role="img" '
        f'aria-label="{escape(label)}" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="{escape(FONT)}">'
        + "".join(parts)
        + "</svg>"
    )


def render_diagram(diagram: Diagram) -> str:
    """The HTML ``<figure>`` of a parsed diagram: one labelled row per line."""
    rows = []
    for row in diagram.rows:
        rows.append(
            '<div class="cards-row">'
            f'<div class="cards-label">{escape(row.label)}</div>'
            f'<div class="cards-cards">{render_row(row)}</div>'
            "</div>"
        )
    caption = f"<figcaption>{escape(diagram.caption)}</figcaption>" if diagram.caption else ""
    return f'<figure class="cards-diagram">{"".join(rows)}{caption}</figure>'


def render_block(source: str) -> str:
    """The HTML ``<figure>`` for the text of a ``cards`` block (see the module docstring)."""
    return render_diagram(parse_block(source))


def render_cards(label: str, faces: Sequence[str]) -> str:
    """A one-row figure from card texts: a shortcut for tests and scripts."""
    return render_block(f"{label}: {' '.join(faces)}")
