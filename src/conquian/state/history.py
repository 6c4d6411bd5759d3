"""`History`, the actions of a deal as a sequence shared between its states.

`conquian.state.base` gives it; it lives apart because the compiled build leaves it
Python: it is a `collections.abc.Sequence`, and mypyc compiles no class that
inherits a Python class.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from ..actions import Action
from .line import extend_line

__all__ = ["History", "owned_history"]


class History(Sequence[Action]):
    """The actions of a deal, oldest first: a sequence shared between its states.

    `State.history` is one of these. It reads as a tuple of actions does
    (`len`, indexing, slicing to a tuple, iteration, ``==`` with a tuple or
    another history, the same hash and repr as the tuple of its actions), and
    costs O(1) to get and to extend: each state holds its history, and
    `append` gives the next state's in O(1) amortised time.

    The states of one line of play share one list of actions, each seeing its
    first `len(history)` entries. A list only ever grows, so what a history
    sees never changes; the second successor made from one state starts a
    list of its own. A view holds a history of its own (`snapshot`), which
    shares nothing that grows. Pickles as the tuple of its actions.

    >>> h = History().append(Pass()).append(Draw())
    >>> len(h), h[-1], h
    (2, parse_action('draw'), (parse_action('pass'), parse_action('draw')))
    >>> h == (Pass(), Draw()), h[:1], History([Pass()]).append(Pass()) == h
    (True, (parse_action('pass'),), False)
    """

    __slots__ = ("_actions", "_length", "_line")

    def __init__(self, actions: Iterable[Action] = ()) -> None:
        line = list(actions)
        self._line: list[Action] | tuple[Action, ...] = line
        self._length: int = len(line)
        self._actions: tuple[Action, ...] | None = None

    @classmethod
    def of_line(cls, line: list[Action], length: int) -> History:
        """The history of the first `length` actions of a line of play (see `extend_line`)."""
        new = cls.__new__(cls)
        new._line = line
        new._length = length
        new._actions = None
        return new

    def append(self, action: Action) -> History:
        """A history with `action` added at the end (this one is unchanged)."""
        n = self._length
        line = self._line
        if isinstance(line, tuple):  # a snapshot's: a new line starts from it
            return History.of_line([*line, action], n + 1)
        return History.of_line(extend_line(line, n, action), n + 1)

    def snapshot(self) -> History:
        """This history holding its actions alone: the tuple of them, shared with nothing that
        grows (a view's, C6: it shows none of the actions applied after it was made)."""
        actions = self.actions()
        new = History.__new__(History)
        new._line = actions
        new._length = len(actions)
        new._actions = actions
        return new

    def actions(self) -> tuple[Action, ...]:
        """The actions as a tuple, oldest first (made once, then kept)."""
        found = self._actions
        if found is None:
            line = self._line
            found = tuple(line) if len(line) == self._length else tuple(line[: self._length])
            self._actions = found
        return found

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, i: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(i, slice):
            return self.actions()[i]
        n = self._length
        if not -n <= i < n:
            raise IndexError("history index out of range")
        return self._line[i if i >= 0 else n + i]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions())

    def __reversed__(self) -> Iterator[Action]:
        return reversed(self.actions())

    def __add__(self, other: object) -> tuple[Action, ...]:
        if isinstance(other, (tuple, History)):
            return (*self.actions(), *other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[Action, ...]:
        if isinstance(other, tuple):
            return (*other, *self.actions())
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            if self._length != other._length:
                return False
            return self._line is other._line or self.actions() == other.actions()
        if isinstance(other, tuple):
            return len(other) == self._length and self.actions() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.actions())  # as the tuple's, which compares equal

    def __repr__(self) -> str:
        return repr(self.actions())

    def __reduce__(self) -> tuple[object, ...]:
        return (History, (self.actions(),))


def owned_history(actions: Sequence[Action]) -> History:
    """`actions` as a history that shares nothing that grows (`History.snapshot`): what a view
    holds (C6)."""
    if isinstance(actions, History):
        return actions.snapshot()
    return History(tuple(actions)).snapshot()
