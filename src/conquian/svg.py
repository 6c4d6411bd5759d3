"""SVG pictures of the cards: `render` draws a state, a view, a combination or a hand
(what notebooks show through `_repr_svg_`), and the pieces of a diagram it is built of.

This is the public path of these names; their code lives in `conquian.render.svg`.
"""

from .render.svg import Diagram as Diagram
from .render.svg import Item as Item
from .render.svg import Row as Row
from .render.svg import diagram_of as diagram_of
from .render.svg import parse_block as parse_block
from .render.svg import render as render
from .render.svg import render_block as render_block
from .render.svg import render_diagram as render_diagram
from .render.svg import render_row as render_row
from .render.svg import render_svg as render_svg

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
