"""The State base and what every engine's state is made of.

- `base`: the `State` base class, its contract with the engines, and `Legal`;
- `line`: the line of play (the actions of a deal, extended one at a time);
- `history`: `History`, the sequence of actions a state remembers;
- `view`: `PlayerView`, what one player may know;
- `result`: `Result` and `Outcome`, how a deal ends.

This package gives the public names of `conquian.state` (they were one module).
"""

from .base import State as State
from .history import History as History
from .result import Outcome as Outcome
from .result import Result as Result
from .view import PlayerView as PlayerView

__all__ = [
    "History",
    "Outcome",
    "PlayerView",
    "Result",
    "State",
]
