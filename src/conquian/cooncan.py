"""The old path of `conquian.rummy`: the same public names.

The code lives in `conquian.rummy` since the package was grouped by meaning;
this module keeps `conquian.cooncan` (a public path) working by re-exporting
the public names of `conquian.rummy`.
"""

from .rummy import CooncanState as CooncanState
from .rummy import CooncanView as CooncanView
from .rummy import Cut as Cut
from .rummy import cut_for_deal as cut_for_deal
from .rummy import deal as deal
from .rummy import pips as pips

__all__ = [
    "CooncanState",
    "CooncanView",
    "Cut",
    "cut_for_deal",
    "deal",
    "pips",
]
