"""A line of play: the list of actions the states of one deal share (`extend_line`)."""

from __future__ import annotations

from ..actions import Action

__all__ = ["extend_line"]


def extend_line(line: list[Action], length: int, action: Action) -> list[Action]:
    """A line of play whose first actions are ``line[:length]`` and then `action`.

    `line` itself, with `action` appended, when nothing follows its first
    `length` actions (O(1) amortised); else a new list (the second successor
    of one state starts a line of its own). A line only ever grows, so what
    a state sees of it, its first actions, never changes. Another thread may
    append to the same list at the same moment: the entry at `length` must
    be this action, or a new list is made.
    """
    if len(line) == length:
        line.append(action)
        if line[length] is action:
            return line
    return [*line[:length], action]
