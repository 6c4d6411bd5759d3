"""Card diagrams as SVG: positions, combinations and cards drawn as playing cards.

`render` draws a state, a view, a combination or a row of cards as one
standalone ``<svg>`` document (well-formed XML, no dependency beyond the
standard library), which is what `State._repr_svg_`,
`PlayerView._repr_svg_` and `conquian.combos.core.Combination._repr_svg_` give
Jupyter::

    >>> from conquian import ConquianRules, new_game
    >>> picture = render(new_game(ConquianRules(), seed=3))
    >>> picture.startswith("<svg"), picture.count('<g class="card')
    (True, 22)

The documentation draws its card diagrams with the same code, from fenced
blocks whose info string is ``cards``. Each line of a block is a labelled
row of cards in the library's notation (C2), read with
`conquian.cards.parse_face`, so a card that does not parse stops the docs
build with the library's own `NotationError`::

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
``<g class="card">`` per card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import attrs

from ..cards import Card, NamedJoker, Suit, parse_face
from ..errors import NotationError
from ..state.game import Zone, game_of
from .text import known_cards, origin, shown_hand, status

__all__ = [
    "Diagram",
    "Item",
    "Row",
    "diagram_of",
    "parse_block",
    "render",
    "render_block",
    "render_diagram",
    "render_row",
    "render_svg",
]

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


@attrs.frozen
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


@attrs.frozen
class Row:
    """A labelled row: its combinations (lists of items), each with an optional tag (``@0``)."""

    label: str
    melds: tuple[tuple[str | None, tuple[Item, ...]], ...]

    @property
    def items(self) -> tuple[Item, ...]:
        """Every card of the row, in order."""
        return tuple(item for _, items in self.melds for item in items)


@attrs.frozen
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


def _row_parts(
    row: Row, x0: float, y0: float, tag_ink: str = "currentColor"
) -> tuple[list[str], float, float]:
    """The drawing of a row's cards with its top left corner at (x0, y0), and its size."""
    tagged = any(tag for tag, _ in row.melds)
    top = y0 + PAD + (TAG_HEIGHT if tagged else 0)
    x = x0 + PAD
    parts: list[str] = []
    for i, (tag, items) in enumerate(row.melds):
        if i:
            x += MELD_GAP - GAP
        if tag:
            parts.append(
                f'<text class="meld-tag" x="{x:g}" y="{y0 + PAD + 10:g}" font-size="11" '
                f'fill="{tag_ink}">{escape(tag)}</text>'
            )
        for item in items:
            drawn, width = _card(item, x, top)
            parts.append(drawn)
            x += width + GAP
    if not row.melds:
        parts.append(
            f'<rect x="{x0 + PAD + 0.5:g}" y="{top + 0.5:g}" width="{WIDTH - 1}" '
            f'height="{HEIGHT - 1}" rx="{RADIUS}" fill="none" stroke="{EDGE}" '
            'stroke-dasharray="4 3"/>'
        )
    width = max(x - x0 - GAP + PAD, 2 * PAD + WIDTH) if row.melds else 2 * PAD + WIDTH
    return parts, width, top - y0 + HEIGHT + PAD


def _words(row: Row) -> str:
    """The cards of a row in words, for screen readers."""
    return "; ".join(", ".join(item.name for item in items) for _, items in row.melds) or "no cards"


def _svg(parts: list[str], width: float, height: float, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cards-svg" role="img" '
        f'aria-label="{escape(label)}" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="{escape(FONT)}">'
        + "".join(parts)
        + "</svg>"
    )


def render_row(row: Row) -> str:
    """The ``<svg>`` of one row: one ``<g class="card">`` per card, tags above their melds."""
    parts, width, height = _row_parts(row, 0, 0)
    return _svg(parts, width, height, f"{row.label}: {_words(row)}")


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


# -- standalone pictures: positions, combinations, cards -----------------------------------

LABEL_HEIGHT = 16  # room above a row for its label
MARGIN = 8  # between the felt's edge and what is drawn on it
FELT = "#1f5f3f"  # the table under a standalone picture, so it reads on light and dark pages
LABEL_INK = "#e3f1e8"
_TABLE_ROW = 14  # the most cards on one row of the table before it wraps


def render_svg(diagram: Diagram) -> str:
    """One standalone ``<svg>`` of a diagram on a felt table: each row under its label, the
    caption below."""
    parts: list[str] = []
    y = float(MARGIN)
    width = float(2 * PAD + WIDTH)
    words = []
    for row in diagram.rows:
        parts.append(
            f'<text class="row-label" x="{MARGIN + PAD}" y="{y + 12:g}" font-size="12" '
            f'fill="{LABEL_INK}">{escape(row.label)}</text>'
        )
        drawn, w, h = _row_parts(row, MARGIN, y + LABEL_HEIGHT - PAD, tag_ink=LABEL_INK)
        parts.extend(drawn)
        width = max(width, w, 2 * PAD + 7 * len(row.label))
        y += LABEL_HEIGHT - PAD + h + 4
        words.append(f"{row.label}: {_words(row)}")
    if diagram.caption:
        parts.append(
            f'<text class="caption" x="{MARGIN + PAD}" y="{y + 12:g}" font-size="13" '
            f'font-weight="bold" fill="{FACE}">{escape(diagram.caption)}</text>'
        )
        width = max(width, 2 * PAD + 7.5 * len(diagram.caption))
        y += LABEL_HEIGHT + 2
        words.append(diagram.caption)
    width += 2 * MARGIN
    height = y + MARGIN
    felt = (
        f'<rect class="felt" x="0" y="0" width="{width:g}" height="{height:g}" rx="10" '
        f'fill="{FELT}"/>'
    )
    return _svg([felt, *parts], width, height, ". ".join(words))


def _items(faces: Sequence[Card | NamedJoker], highlight: bool = False) -> tuple[Item, ...]:
    return tuple(Item(f, highlight) for f in faces)


def _row(label: str, faces: Sequence[Card | NamedJoker], highlight: bool = False) -> Row:
    return Row(label, ((None, _items(faces, highlight)),) if faces else ())


def _pile(label: str, items: tuple[Item, ...]) -> Row:
    return Row(label, ((None, items),) if items else ())


def _backs(n: int) -> tuple[Item, ...]:
    return tuple(Item(None) for _ in range(n))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _wrapped(label: str, items: tuple[Item, ...], highlight: bool = False) -> list[Row]:
    """A labelled row of cards, wrapped onto more rows after `_TABLE_ROW` cards."""
    if not items:
        return [Row(label, ())]
    return [
        Row(label if start == 0 else "", ((None, items[start : start + _TABLE_ROW]),))
        for start in range(0, len(items), _TABLE_ROW)
    ]


def _offer(pos: Any, who: Sequence[str]) -> list[Row]:
    """The card on offer, highlighted, and who has the say to it (T4)."""
    if pos.offer is None or pos.current_player is None:
        return []
    label = f"offer to {who[pos.current_player]} ({origin(pos, who)})"
    return [_row(label, (pos.offer,), highlight=True)]


def _pending(pos: Any, who: Sequence[str]) -> list[Row]:
    """The cards to meld this turn, highlighted (T8, T9)."""
    return [_row("pending, to meld this turn", pos.pending, highlight=True)] if pos.pending else []


def _stock(pos: Any, who: Sequence[str]) -> list[Row]:
    """Conquian's face-down stock (T5)."""
    stock = _plural(pos.stock_size, "card")
    return [_pile(f"stock: {stock} face down", _backs(min(1, pos.stock_size)))]


def _buried(pos: Any, who: Sequence[str]) -> list[Row]:
    """The cards turned down for good (T5)."""
    return _wrapped("buried", _items(pos.buried)) if pos.buried else []


def _face_up_stock(pos: Any, who: Sequence[str]) -> list[Row]:
    """Cooncan's face-up stock, its top last (M1)."""
    return _wrapped("stock: face up, top last", _items(pos.stock))


def _pack(pos: Any, who: Sequence[str]) -> list[Row]:
    """Cooncan's face-down pack (M1)."""
    pack = _plural(pos.pack_size, "card")
    return [_pile(f"pack: {pack} face down", _backs(min(1, pos.pack_size)))]


def _discards(pos: Any, who: Sequence[str]) -> list[Row]:
    """Coo-Can's discard pile, face up, its top last (K3)."""
    return _wrapped("discards: face up, top last", _items(pos.discard_pile))


def _deck(pos: Any, who: Sequence[str]) -> list[Row]:
    """Coo-Can's face-down deck (K3)."""
    deck = _plural(pos.deck_size, "card")
    return [_pile(f"deck: {deck} face down", _backs(min(1, pos.deck_size)))]


_ZONES: dict[Zone, Callable[[Any, Sequence[str]], list[Row]]] = {
    "offer": _offer,
    "pending": _pending,
    "stock": _stock,
    "buried": _buried,
    "face-up stock": _face_up_stock,
    "pack": _pack,
    "discards": _discards,
    "deck": _deck,
}
"""The rows of each zone a game shows after the table (`Game.zones`)."""


def diagram_of(position: object, *, names: Sequence[str] = ()) -> Diagram:
    """The rows of a state's or a view's picture: the same zones as `conquian.render.text`.

    A view shows the player's own hand face up and the other hands face
    down, with the cards known to be in them (C6) face up first. Long rows
    (the table, a long stock) wrap after 14 cards.
    """
    pos: Any = position
    rules = pos.rules
    seats = rules.players
    who = [names[s] if s < len(names) else f"seat {s}" for s in range(seats)]
    game = game_of(rules)
    is_view = not callable(pos.hand)
    melded = [0] * seats
    for combo in pos.table:
        melded[combo.owner] += len(combo.cards)
    rows: list[Row] = []
    order = list(range(seats))
    if is_view:
        order.remove(pos.player)
        order.insert(0, pos.player)
    for seat in order:
        size = pos.hand_sizes[seat] if is_view else len(pos.hand(seat))
        label = f"{who[seat]}{' (this view)' if is_view and seat == pos.player else ''}: "
        label += _plural(size, "card") + (f", {melded[seat]} melded" if game.melded_counts else "")
        held = shown_hand(pos, seat)
        if held is None:
            known = known_cards(pos, seat)
            rows.extend(_wrapped(label, _items(known) + _backs(size - len(known))))
        else:
            rows.extend(_wrapped(label, _items(held)))
    first_table_row = len(rows)
    if not pos.table:
        rows.append(Row("table", ()))
    line: list[tuple[str | None, tuple[Item, ...]]] = []
    count = 0
    for i, combo in enumerate(pos.table):
        if line and count + len(combo.cards) > _TABLE_ROW:
            rows.append(Row("table" if len(rows) == first_table_row else "", tuple(line)))
            line, count = [], 0
        line.append((f"@{i} {who[combo.owner]}", _items(combo.cards)))
        count += len(combo.cards)
    if line:
        rows.append(Row("table" if len(rows) == first_table_row else "", tuple(line)))
    for zone in game.zones:
        rows.extend(_ZONES[zone](pos, who))
    return Diagram(tuple(rows), status(pos, names=who, symbols=True))


def render(thing: object) -> str:
    """A standalone ``<svg>`` of a state, a view, a combination or a sequence of cards.

    >>> from conquian import cards
    >>> render(cards("4H 5H 6H")).count('<g class="card card-red"')
    3
    """
    obj: Any = thing
    if hasattr(obj, "rules") and hasattr(obj, "table"):
        return render_svg(diagram_of(obj))
    if hasattr(obj, "kind") and hasattr(obj, "cards"):  # a Combination
        label = f"{obj.kind} of seat {obj.owner}"
        return render_svg(Diagram((Row(label, ((None, _items(obj.cards)),)),)))
    faces = tuple(obj)
    for face in faces:
        if not isinstance(face, (Card, NamedJoker)):
            raise TypeError(f"cannot draw {face!r}: not a card")
    return render_svg(Diagram((_row("cards", faces),)))
