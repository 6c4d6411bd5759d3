"""Text diagrams: `diagram` draws a state or a view as the lines `print(state)` shows
(every hand, the table with each meld's number and owner, the card on offer), and the
helpers that write cards and hands in the notation.

This is the public path of these names; their code lives in `conquian.render.text`.
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
