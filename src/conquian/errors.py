"""The exceptions of `conquian`.

Every error the library raises on purpose belongs to one tree::

    ConquianError
    ├── IllegalActionError (also a ValueError)  an action the rules forbid now (E1)
    ├── DeterminizationError (also a ValueError)  a view no deal can produce (C6)
    ├── NotationError (also a ValueError)       text that does not parse (E2)
    ├── RecordError (also a ValueError)         a bad deal, record or position (E2, E3)
    └── RulesError (also a ValueError)          a bad rule option

Catch `ConquianError` to catch them all, or `ValueError` to treat them as bad
input like any other. An argument of the wrong type (a seat given as ``1.0``
or ``True``, a card given as None) raises a `TypeError` whose message names
the argument; `check_seat` is the one check of a seat argument.
"""

from __future__ import annotations

__all__ = [
    "ConquianError",
    "DeterminizationError",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesError",
    "check_seat",
]


class ConquianError(Exception):
    """The root of every error `conquian` raises on purpose.

    >>> issubclass(IllegalActionError, ConquianError)
    True
    """


class IllegalActionError(ConquianError, ValueError):
    """An action that the rules do not allow in this state (rule E1).

    The message names the action, says in the game's words what forbids it
    and cites the rule id; `rule` holds that id. The state the action was
    applied to is unchanged.

    >>> err = IllegalActionError("illegal action 'pass': no card is on offer", rule="T4")
    >>> err.rule
    'T4'
    """

    def __init__(self, message: str, *, action: str | None = None, rule: str | None = None):
        super().__init__(f"{message} ({rule})" if rule else message)
        self.action = action
        self.rule = rule


class NotationError(ConquianError, ValueError):
    """Card or action text that does not parse (rule E2).

    `token` is the offending piece of text and `column` its 0-based offset in
    the input, when known.

    >>> err = NotationError("unknown card '5X'", token="5X", column=5)
    >>> (err.token, err.column)
    ('5X', 5)
    """

    def __init__(self, message: str, *, token: str | None = None, column: int | None = None):
        super().__init__(message)
        self.token = token
        self.column = column


class RecordError(ConquianError, ValueError):
    """A deal, game record or position that is not valid (rules E2, E3).

    `problems` lists every problem found, so one load reports them all.

    >>> err = RecordError(["card 5H appears twice", "card 6H is missing"])
    >>> str(err)
    'invalid record: card 5H appears twice; card 6H is missing'
    """

    def __init__(self, problems: list[str] | tuple[str, ...] | str, *, what: str = "record"):
        self.problems: tuple[str, ...] = (
            (problems,) if isinstance(problems, str) else tuple(problems)
        )
        super().__init__(f"invalid {what}: " + "; ".join(self.problems))


class DeterminizationError(ConquianError, ValueError):
    """A view that no deal can produce: its cards or history contradict each other (C6).

    Raised by `view.sample_state` (`conquian.determinize`, which names it too).
    """


class RulesError(ConquianError, ValueError):
    """A rule option with a value the rules object does not allow.

    `option` names the option.

    >>> err = RulesError("hand_size", "must be one of 8, 9, 10 (got 7)")
    >>> str(err)
    'hand_size must be one of 8, 9, 10 (got 7)'
    """

    def __init__(self, option: str, problem: str):
        super().__init__(f"{option} {problem}")
        self.option = option


def check_seat(value: object, players: int, name: str = "player") -> int:
    """`value` as a seat among `players` (``0 … players-1``), or the error that says why not.

    A seat is an `int`: a bool, a float or a string raises `TypeError` naming
    the argument; an int outside the seats raises `ValueError` naming it too.

    >>> check_seat(1, 2)
    1
    >>> check_seat(True, 2)
    Traceback (most recent call last):
    ...
    TypeError: player must be an int seat (0 to 1), not bool
    >>> check_seat(3, 3, "dealer")
    Traceback (most recent call last):
    ...
    ValueError: dealer: no seat 3 among 3 players (0 to 2)
    """
    if type(value) is not int:
        if isinstance(value, int) and not isinstance(value, bool):
            value = int(value)  # an int subclass, such as an IntEnum member
        else:
            raise TypeError(
                f"{name} must be an int seat (0 to {players - 1}), not {type(value).__name__}"
            )
    if not 0 <= value < players:
        shown = str(value) if -(10**6) < value < 10**6 else f"of {len(str(abs(value)))} digits"
        raise ValueError(f"{name}: no seat {shown} among {players} players (0 to {players - 1})")
    return value
