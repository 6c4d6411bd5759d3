"""The old path of `conquian.offer`: the same public names.

The code lives in `conquian.offer` since the package was grouped by meaning;
this module keeps `conquian.two_hand` (a public path) working by re-exporting
the public names of `conquian.offer`.
"""

from .offer import ConquianState as ConquianState
from .offer import ConquianView as ConquianView
from .offer import Origin as Origin
from .offer import deal as deal
from .offer import deal_indices as deal_indices
from .offer import turn_finishes as turn_finishes

__all__ = [
    "ConquianState",
    "ConquianView",
    "Origin",
    "deal",
    "deal_indices",
    "turn_finishes",
]
