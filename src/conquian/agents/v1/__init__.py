"""The frozen reference bots: ``heuristic@v1`` and ``pimc@v1``, the heuristic and the default
searching bot of 0.1.0, kept as they played so that every later bot is measured against the
same players (`make_agent("heuristic@v1", seed)`, `make_agent("pimc@v1", seed)`).

Their code is a copy, not a link to the live bots: a change of `HeuristicAgent` does not
change them. ``tests/agents/test_bots_golden.py`` holds them to transcripts of 0.1.0.
"""

from __future__ import annotations

from .heuristic import HeuristicV1
from .pimc import PIMCV1

__all__ = ["PIMCV1", "HeuristicV1"]
