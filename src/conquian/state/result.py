"""How a deal ends: `Outcome` and `Result` (T2, T12, T13, M7, M8, M10, M11).

`conquian.state.base` gives both; the states and the views of both engines use them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

import attrs

__all__ = ["Outcome", "Result"]


class Outcome(str, enum.Enum):
    """How a deal ended.

    >>> Outcome("tableau") is Outcome.TABLEAU, str(Outcome.WIN)
    (True, 'win')
    """

    WIN = "win"
    """A player won: melded one card more than his hand (T2) or went out (M10)."""
    TABLEAU = "tableau"
    """Two-hand: the stock ran out with no winner, a tie (T12)."""
    ABANDONED = "abandoned"
    """Cooncan: the deal reached the rules' `turn_limit` (M11); no payments."""

    def __str__(self) -> str:
        return self.value


@attrs.frozen(init=False)
class Result:
    """The end of a deal: its `outcome`, the `winner`'s seat, and `payments` per seat.

    Payments sum to zero: in the two-hand game the loser pays the winner one
    counter (T13); in Cooncan every other player pays the winner his pips,
    plus any splash bonus (M7, M8). A payment is an `int` counted in counters
    or pips: a bool, a float or a string raises `TypeError` naming `payments`.

    >>> Result(outcome="win", winner=1, payments=(-1, 1))
    Result(outcome=<Outcome.WIN: 'win'>, winner=1, payments=(-1, 1))
    >>> Result(outcome="tableau", payments=(0, 0)).winner is None
    True
    """

    outcome: Outcome
    winner: int | None = None
    payments: tuple[int, ...] = ()

    def __init__(
        self, outcome: Outcome | str, winner: int | None = None, payments: Iterable[int] = ()
    ) -> None:
        object.__setattr__(self, "outcome", Outcome(outcome))
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "payments", _payments(payments))
        self.__attrs_post_init__()

    def __attrs_post_init__(self) -> None:
        if (self.outcome is Outcome.WIN) != (self.winner is not None):
            raise ValueError("a result has a winner exactly when its outcome is a win")
        if sum(self.payments) != 0:
            raise ValueError(f"payments must sum to zero (got {self.payments})")
        if self.winner is not None:
            if type(self.winner) is not int:
                raise TypeError(f"winner must be an int seat, not {type(self.winner).__name__}")
            if not 0 <= self.winner < len(self.payments):
                raise ValueError(
                    f"winner: no seat {self.winner} among the {len(self.payments)} "
                    "seats of payments"
                )


def _payments(payments: object) -> tuple[int, ...]:
    """`payments` as a tuple of ints, one per seat, or the `TypeError` that says why not."""
    if not isinstance(payments, Iterable) or isinstance(payments, (str, bytes)):
        raise TypeError(f"payments must be ints, one per seat, not {type(payments).__name__}")
    out = tuple(payments)
    for p in out:
        if type(p) is not int and (not isinstance(p, int) or isinstance(p, bool)):
            raise TypeError(f"payments must be ints, not {type(p).__name__} ({p!r})")
    return tuple(int(p) for p in out)
