"""The old path of `conquian.render.text`: the same public names.

The code lives in `conquian.render.text` since the package was grouped by meaning;
this module keeps `conquian.diagram` (a public path) working by re-exporting
the public names of `conquian.render.text`.
"""

from .render.text import card_text as card_text
from .render.text import cards_text as cards_text
from .render.text import diagram as diagram
from .render.text import origin as origin
from .render.text import shown_hand as shown_hand
from .render.text import status as status

__all__ = [
    "card_text",
    "cards_text",
    "diagram",
    "origin",
    "shown_hand",
    "status",
]
