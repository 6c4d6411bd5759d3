"""What the states of both engines share: results, the State and PlayerView bases.

A deal's state is an immutable value. Both engines (`conquian.two_hand`, the
offer game of RULES.md T, and `conquian.cooncan`, the rummy game of RULES.md
M) build their states on `State`, so code that drives a game needs only this
interface:

- `State.current_player`, `State.legal_actions`, `State.is_legal`, `State.apply`;
- `State.is_over`, `State.result` (a `Result`);
- `State.hand`, `State.table`, `State.history`, `State.view`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar, overload

import attrs

from . import _codec, _view_json, svg
from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, parse_action
from .diagram import diagram
from .errors import IllegalActionError, NotationError

if TYPE_CHECKING:
    from .cards import Card
    from .combos import Combination
    from .rules import Rules

__all__ = ["History", "Outcome", "PlayerView", "Result", "State"]


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


def _payments(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(value)


@attrs.frozen
class Result:
    """The end of a deal: its `outcome`, the `winner`'s seat, and `payments` per seat.

    Payments sum to zero: in the two-hand game the loser pays the winner one
    counter (T13); in Cooncan every other player pays the winner his pips,
    plus any splash bonus (M7, M8).

    >>> Result(outcome="win", winner=1, payments=(-1, 1))
    Result(outcome=<Outcome.WIN: 'win'>, winner=1, payments=(-1, 1))
    >>> Result(outcome="tableau", payments=(0, 0)).winner is None
    True
    """

    outcome: Outcome = attrs.field(converter=Outcome)
    winner: int | None = None
    payments: tuple[int, ...] = attrs.field(default=(), converter=_payments)

    def __attrs_post_init__(self) -> None:
        if (self.outcome is Outcome.WIN) != (self.winner is not None):
            raise ValueError("a result has a winner exactly when its outcome is a win")
        if sum(self.payments) != 0:
            raise ValueError(f"payments must sum to zero (got {self.payments})")
        if self.winner is not None and not 0 <= self.winner < len(self.payments):
            raise ValueError(f"no seat {self.winner} among {len(self.payments)} players")


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
    list of its own. Pickles as the tuple of its actions.

    >>> h = History().append(Pass()).append(Draw())
    >>> len(h), h[-1], h
    (2, parse_action('draw'), (parse_action('pass'), parse_action('draw')))
    >>> h == (Pass(), Draw()), h[:1], History([Pass()]).append(Pass()) == h
    (True, (parse_action('pass'),), False)
    """

    __slots__ = ("_actions", "_length", "_line")

    def __init__(self, actions: Iterable[Action] = ()) -> None:
        line = list(actions)
        self._line: list[Action] = line
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
        return History.of_line(extend_line(self._line, n, action), n + 1)

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


Legal = tuple[tuple[Action, ...], tuple[object, ...]]
"""The legal actions of a state in order, and in the same order what `apply` needs to make
the state each one leads to (the engine's *plan* for it)."""


StateT = TypeVar("StateT", bound="State")


def _init_fields(cls: type) -> tuple[attrs.Attribute, ...]:  # type: ignore[type-arg]
    """The fields a state class's ``__init__`` takes, in order."""
    return tuple(a for a in attrs.fields(cls) if a.init)


def _rebuild(cls: type[StateT], values: tuple[object, ...]) -> StateT:
    """A pickled state, made again from its init fields (`State.__reduce__`)."""
    return cls(*values)


class State:
    """The interface of a deal's state; `new_game` makes one.

    Subclasses are frozen attrs classes: `apply` returns a new state and the
    old one stays valid. `apply` and `is_legal` accept an action or its text.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> isinstance(state, State), state.is_legal("pass"), state.apply("pass") == state
    (True, True, False)

    What the engines share (each engine's state class fills in the hooks):

    - **Legal actions**, worked out once per state: the engine's `_generate_legal`
      gives them with their plans (`Legal`), kept in the state's
      ``_legal_cache`` field (an attrs field with ``init=False, default=None,
      eq=False, hash=False, repr=False``), which `_legal_plans` fills on first
      use. `legal_actions`, `is_legal` and `_plan` read it; an action that is
      not legal gets `IllegalActionError` with the engine's `_why_illegal`.
    - **History**: a `History` field, extended with `History.append` by each
      successor; `history` reads it.
    - **Successors** are made with the class's own attrs ``__init__`` (every
      field given, the cache empty), so they are values like any other.
    - **Pickling**: `__reduce__` keeps the init fields in order, not the cache;
      a field that holds engine tables pickles itself by its rules.
    """

    __slots__ = ()

    _legal_cache: Legal | None

    @property
    def rules(self) -> Rules:
        """The rules this deal is played under."""
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        """The seat that acts next, or None when the deal is over."""
        raise NotImplementedError

    @property
    def result(self) -> Result | None:
        """None while the deal goes on, then its `Result`."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.result is not None

    @property
    def table(self) -> tuple[Combination, ...]:
        """The combinations on the table, in the order they were laid down."""
        raise NotImplementedError

    @property
    def history(self) -> Sequence[Action]:
        """The actions applied since the deal, in order (a tuple, or a `History`)."""
        raise NotImplementedError

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order."""
        raise NotImplementedError

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the current player may take, in a deterministic order."""
        return self._legal_plans()[0]

    def apply(self: StateT, action: Action | str) -> StateT:
        """The state after `action`; raises `IllegalActionError` if it is not legal (E1)."""
        raise NotImplementedError

    def view(self, player: int) -> PlayerView:
        """All that `player` may know of this state, and nothing more (C6)."""
        raise NotImplementedError

    def is_legal(self, action: Action | str) -> bool:
        """Whether `action` (or its text) is legal now: exactly when it is in `legal_actions()`."""
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except NotationError:
                return False
        actions = self.legal_actions()
        for a in actions:
            if a is action:
                return True
        try:
            return action in dict.fromkeys(actions)  # the actions' own equality, by hash
        except TypeError:  # an unhashable object is no action
            return False

    # -- the hooks and the machinery the engines share ------------------------------

    def _generate_legal(self) -> Legal:
        """The legal actions of this state and their plans, worked out (the engine's rules)."""
        raise NotImplementedError

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        """Why `action` is not legal now, in the game's words, and the rule's id (E1)."""
        raise NotImplementedError

    def _legal_plans(self) -> Legal:
        """The legal actions and their plans: worked out on first use, then kept."""
        legal = self._legal_cache
        if legal is None:
            legal = self._generate_legal()
            # The one field written after construction: a cache, not part of the value.
            object.__setattr__(self, "_legal_cache", legal)
        return legal

    def _plan(self, action: object) -> object:
        """The plan of `action` if it is legal now; else `IllegalActionError` saying why (E1).

        The action is found by identity first (the object `legal_actions`
        gave), else by equality (a parsed text, say).
        """
        actions, plans = self._legal_plans()
        i = 0
        for a in actions:
            if a is action:
                return plans[i]
            i += 1  # noqa: SIM113
        try:
            lookup: dict[object, object] = dict(zip(actions, plans, strict=True))
            return lookup[action]
        except (KeyError, TypeError):
            if not isinstance(action, (Take, Pass, Draw, Meld, Borrow, Force, Discard)):
                raise TypeError(
                    f"apply needs an action or its text (got {type(action).__name__})"
                ) from None
            why, rule = self._why_illegal(action)
            raise IllegalActionError(
                f"illegal action '{action}': {why}", action=str(action), rule=rule
            ) from None

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle (and copy) as the class and its init fields, without the cache."""
        cls = type(self)
        return (_rebuild, (cls, tuple(getattr(self, a.name) for a in _init_fields(cls))))

    def __str__(self) -> str:
        """The position as a multi-line text diagram: every hand, the table, the offer or
        stock, the counts (`conquian.diagram`). `repr` stays a one-line summary."""
        return diagram(self)

    def _repr_svg_(self) -> str:
        """The position as an SVG picture of the cards, shown by Jupyter (`conquian.svg`)."""
        return svg.render(self)

    def to_json(self) -> str:
        """This position as JSON: its rules, deal and actions, and a snapshot of every zone.

        The format is ``conquian-position`` (see `conquian.records` and the
        docs page *Records and positions*). `State.from_json` reads it back.

        >>> state = new_game(ConquianRules(), seed=5).apply("take KD")
        >>> text = state.to_json()
        >>> '"pending": ["KD"]' in text
        True
        """
        return _codec.write_position(self)  # through the codec its engine registered

    @classmethod
    def from_json(cls: type[StateT], text: str | bytes) -> StateT:
        """Read a position, check it and replay it: the state it describes (E2, E3).

        The snapshot is checked on its own (every card once, hand sizes,
        valid melds), the actions are replayed from the deal, and the
        snapshot must match the state they lead to. Raises `RecordError`
        listing every problem found. Called on a subclass, the position must
        be of that game.

        >>> state = new_game(CooncanRules.three_hand(), seed=3).apply("draw")
        >>> State.from_json(state.to_json()) == state
        True
        >>> ConquianState.from_json(state.to_json())
        Traceback (most recent call last):
        ...
        conquian.errors.RecordError: invalid position: rules.game: a three-hand position \
is not a ConquianState
        """
        state = _codec.read_position(text, cls)  # through the codec of the rules' game
        assert isinstance(state, cls)
        return state


class PlayerView:
    """The interface of what one player may know (C6); `State.view` makes one.

    Subclasses are frozen attrs values, so two views compare equal exactly
    when they show the same things.

    >>> view = new_game(ConquianRules(), seed=7).view(0)
    >>> isinstance(view, PlayerView), len(view.hand), view.legal_actions
    (True, 10, ())
    """

    __slots__ = ()

    @property
    def player(self) -> int:
        """The seat whose view this is."""
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        """The seat that acts next, or None when the deal is over."""
        raise NotImplementedError

    @property
    def hand(self) -> tuple[Card, ...]:
        """This player's own cards, in canonical order."""
        raise NotImplementedError

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        raise NotImplementedError

    @property
    def table(self) -> tuple[Combination, ...]:
        """The combinations on the table, as in `State.table`."""
        raise NotImplementedError

    @property
    def history(self) -> Sequence[Action]:
        """The actions of the deal so far (all of them are public), as `State.history`."""
        raise NotImplementedError

    @property
    def result(self) -> Result | None:
        """The deal's `Result` once it is over."""
        raise NotImplementedError

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards whose place this player cannot know, in canonical order (copies repeated)."""
        raise NotImplementedError

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        """What this player may do now; empty when it is not his turn."""
        raise NotImplementedError

    def __str__(self) -> str:
        """What this player may know as a multi-line text diagram (`conquian.diagram`)."""
        return diagram(self)

    def _repr_svg_(self) -> str:
        """This view as an SVG picture of the cards, shown by Jupyter (`conquian.svg`)."""
        return svg.render(self)

    def to_json(self) -> str:
        """This view as one line of JSON, to send to its player (format ``conquian-view``).

        Written field by field from what the player may know (C6): never the
        deck, the order of a hidden pack or stock, another hand beyond its
        known cards, nor `unseen`, which names the cards he cannot place.

        >>> view = new_game(ConquianRules(), seed=7).view(1)
        >>> view.to_json()[:60]
        '{"format":"conquian-view","version":1,"rules":{"game":"two-h'
        """
        return _codec.write_view(self)  # through the codec its engine registered

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """A view back from its JSON (format ``conquian-view``), checked (E2, E3, C6).

        Raises `RecordError` listing every problem: a malformed field, a card
        the pack does not hold, or a view no deal and history could show. The
        view read equals the view written, so it samples the same states
        (`sample_state`) for the same seed. Called on a subclass, the view
        must be of that game.

        >>> view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(2)
        >>> PlayerView.from_json(view.to_json()) == view
        True
        """
        view: PlayerView = _view_json.view_from_json(text, cls)
        return view
