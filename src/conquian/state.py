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
from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeVar

import attrs

from . import svg
from .actions import Action, parse_action
from .diagram import diagram
from .errors import NotationError

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


def _history_of(actions: tuple[Action, ...]) -> History:
    history = History()
    for action in actions:
        history = history.append(action)
    return history


@attrs.frozen(eq=False, repr=False)
class History:
    """The actions of a deal, as a persistent list shared between states.

    Each state keeps the history of the state it came from and adds one
    action, so a long deal stores every action once, not once per state.
    Compares equal to other histories with the same actions.

    >>> h = History().append(Pass()).append(Draw())
    >>> len(h), h.actions()
    (2, (parse_action('pass'), parse_action('draw')))
    """

    last: Action | None = None
    before: History | None = None
    length: int = 0

    def append(self, action: Action) -> History:
        """A history with `action` added at the end."""
        return History(action, self, self.length + 1)

    def actions(self) -> tuple[Action, ...]:
        """The actions, oldest first."""
        out: list[Action] = []
        node: History | None = self
        while node is not None and node.last is not None:
            out.append(node.last)
            node = node.before
        out.reverse()
        return tuple(out)

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        return self is other or (self.length == other.length and self.actions() == other.actions())

    def __hash__(self) -> int:
        return hash(self.actions())

    def __repr__(self) -> str:
        return f"History({len(self)} actions)"

    def __reduce__(self) -> tuple[object, ...]:
        # A flat tuple: pickling the linked nodes would recurse once per action.
        return (_history_of, (self.actions(),))


StateT = TypeVar("StateT", bound="State")


class State:
    """The interface of a deal's state; `new_game` makes one.

    Subclasses are frozen attrs classes: `apply` returns a new state and the
    old one stays valid. `apply` and `is_legal` accept an action or its text.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> isinstance(state, State), state.is_legal("pass"), state.apply("pass") == state
    (True, True, False)
    """

    __slots__ = ()

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
    def history(self) -> tuple[Action, ...]:
        """The actions applied since the deal, in order."""
        raise NotImplementedError

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order."""
        raise NotImplementedError

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the current player may take, in a deterministic order."""
        raise NotImplementedError

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
        return action in self.legal_actions()

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
        from .records import _position_to_json

        return _position_to_json(self)

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
        from .records import _position_from_json

        state = _position_from_json(text, cls)
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
    def history(self) -> tuple[Action, ...]:
        """The actions of the deal so far (all of them are public)."""
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
        from .records import _view_to_json

        return _view_to_json(self)

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
        from ._view_json import view_from_json

        return view_from_json(text, cls)
