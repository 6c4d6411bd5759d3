"""The combinatorics of melds: what a set of cards is, what it may become, and why not.

- `core`: combinations and every question about them (`build`, `extend`, `fitting`, ...);
- `order`: the rank order of a pack (`Order`), with its sequence limit;
- `reasons`: why cards are not a meld, in words (`explain`).

This package gives the public names of `conquian.combos` (they were one module).
"""

from .core import Combination as Combination
from .core import Kind as Kind
from .core import borrow as borrow
from .core import borrowable as borrowable
from .core import build as build
from .core import extend as extend
from .core import extensions as extensions
from .core import fits as fits
from .core import fitting as fitting
from .core import melds_in as melds_in
from .core import shifts as shifts
from .order import Order as Order
from .reasons import explain as explain

__all__ = [
    "Combination",
    "Kind",
    "Order",
    "borrow",
    "borrowable",
    "build",
    "explain",
    "extend",
    "extensions",
    "fits",
    "fitting",
    "melds_in",
    "shifts",
]
