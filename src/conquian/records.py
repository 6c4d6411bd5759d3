"""Game records and positions: `GameRecord` (also `conquian.GameRecord`), the formats'
names and version, and the limits every reader checks (E2).

This is the public path of these names; their code lives in `conquian.formats.records`.
The formats are described on the *Records and positions* page.
"""

from .formats.records import FORMAT_POSITION as FORMAT_POSITION
from .formats.records import FORMAT_RECORD as FORMAT_RECORD
from .formats.records import FORMAT_VIEW as FORMAT_VIEW
from .formats.records import MAX_ACTION_TEXT as MAX_ACTION_TEXT
from .formats.records import MAX_ACTIONS as MAX_ACTIONS
from .formats.records import MAX_CARDS as MAX_CARDS
from .formats.records import MAX_INT as MAX_INT
from .formats.records import MAX_KEY as MAX_KEY
from .formats.records import MAX_METADATA as MAX_METADATA
from .formats.records import MAX_PROBLEMS as MAX_PROBLEMS
from .formats.records import MAX_STRING as MAX_STRING
from .formats.records import MAX_TEXT as MAX_TEXT
from .formats.records import MAX_TURNS as MAX_TURNS
from .formats.records import VERSION as VERSION
from .formats.records import GameRecord as GameRecord

__all__ = [
    "FORMAT_POSITION",
    "FORMAT_RECORD",
    "FORMAT_VIEW",
    "MAX_ACTIONS",
    "MAX_ACTION_TEXT",
    "MAX_CARDS",
    "MAX_INT",
    "MAX_KEY",
    "MAX_METADATA",
    "MAX_PROBLEMS",
    "MAX_STRING",
    "MAX_TEXT",
    "MAX_TURNS",
    "VERSION",
    "GameRecord",
]
