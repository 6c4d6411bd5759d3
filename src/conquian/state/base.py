"""What the states of both engines share: results, the State and PlayerView bases.

A deal's state is an immutable value. Both engines (`conquian.offer`, the
offer game of rules T, and `conquian.rummy`, the rummy game of rules M)
build their states on `State`, so code that drives a game needs only this
interface:

- `State.current_player`, `State.legal_actions`, `State.is_legal`, `State.apply`;
- `State.is_over`, `State.result` (a `Result`);
- `State.hand`, `State.table`, `State.history`, `State.view`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .._mypyc import mypyc_attr
from ..actions import (
    Action,
    Borrow,
    Discard,
    Draw,
    Force,
    Meld,
    Pass,
    Take,
    Trade,
    parse_action,
)
from ..cards import NamedJoker
from ..errors import IllegalActionError, NotationError
from .game import Game, game_of
from .history import History
from .line import extend_line as extend_line
from .result import Outcome, Result
from .view import PlayerView

if TYPE_CHECKING:
    from ..cards import Card
    from ..combos.core import Combination
    from ..events import Decision
    from ..rules import Rules

__all__ = ["History", "Outcome", "PlayerView", "Result", "State"]


Legal = tuple[tuple[Action, ...], tuple[object, ...]]
"""The legal actions of a state in order, and in the same order what `apply` needs to make
the state each one leads to (the engine's *plan* for it)."""


StateT = TypeVar("StateT", bound="State")

_LONGEST_TEXT = 200
"""The longest action text `parse_action` reads (`conquian.records.MAX_ACTION_TEXT`): an
error message quotes no more of an action."""


@mypyc_attr(acyclic=True, allow_interpreted_subclasses=True)
class State:
    """The interface of a deal's state; `new_game` makes one.

    Subclasses are immutable values (classes whose fields are read-only
    properties): `apply` returns a new state and the old
    one stays valid. `apply` and `is_legal` accept an action or its text.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> isinstance(state, State), state.is_legal("pass"), state.apply("pass") == state
    (True, True, False)

    What the engines share (each engine's state class fills in the hooks):

    - **Legal actions**, worked out once per state: the engine's `_generate_legal`
      gives them with their plans (`Legal`), kept in the state's
      ``_legal_cache`` (declared here, None until `_legal_plans` fills it on
      first use; not part of the value). A native subclass does not declare it again.
      `legal_actions`, `is_legal` and `_plan` read it; an action that is
      not legal gets `IllegalActionError` with the engine's `_why_illegal`.
      The two-hand and Cooncan engines read the cache in their own
      `legal_actions` and look up the action they were given by identity at
      the top of their `apply`, falling back on `_plan`: these are the two
      calls a bot makes at every step (see the Performance page).
    - **History**: a `History` field, extended with `History.append` by each
      successor (or a line of play, `extend_line`); `history` reads it.
    - **Value**: `__eq__` and `__hash__` are the engine's fields (`_value`) and
      the actions of its history (`_line_of`).
    - **Successors** are made with the class's own ``__init__`` (every
      field given, the cache empty), so they are values like any other.
    - **Pickling**: each engine's `__reduce__` keeps its constructor's
      arguments, never the cache; a field that holds engine tables pickles
      itself by its rules.

    In the compiled build this is a native class that interpreted subclasses
    may extend, and that the cyclic garbage collector does not track: a state
    never refers back to itself.
    """

    __slots__ = ()

    _legal_cache: Legal | None = None  # each state's own, set once worked out

    @property
    def rules(self) -> Rules:
        """The rules this deal is played under."""
        raise NotImplementedError

    @property
    def game(self) -> Game:
        """The game this deal is of (`conquian.GAMES`), through its rules.

        >>> new_game(CooncanRules.double_pack(), seed=1).game
        <Game 'double-pack': Foster's double-pack Cooncan>
        """
        return game_of(self.rules)

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

    def _value(self) -> tuple[object, ...]:
        """The fields that make this state's value, but its history (the engine's fields)."""
        raise NotImplementedError

    def _line_of(self) -> tuple[list[Action], int]:
        """The line of play this state's history is the start of, and its length
        (`extend_line`)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        """Two states are equal when they are of one engine, their fields (`_value`) are
        equal and their histories hold the same actions."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        if self._value() != other._value():
            return False
        line, n = self._line_of()
        other_line, _ = other._line_of()
        return line is other_line or line[:n] == other_line[:n]

    def __hash__(self) -> int:
        """The hash of the fields and of the history's actions, as `__eq__` compares them."""
        line, n = self._line_of()
        return hash((self._value(), tuple(line[:n])))

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
            if not isinstance(action, (Take, Pass, Draw, Meld, Borrow, Force, Discard, Trade)):
                raise TypeError(
                    f"apply needs an action or its text (got {type(action).__name__})"
                ) from None
            why, rule = self._not_in_pack(action) or self._why_illegal(action)
            text = str(action)
            if len(text) > _LONGEST_TEXT:  # no text that parses is longer (E2: short errors)
                text = text[:_LONGEST_TEXT] + "..."
            if len(why) > 2 * _LONGEST_TEXT:  # a reason that names the cards of a long meld
                why = why[: 2 * _LONGEST_TEXT] + "..."
            raise IllegalActionError(
                f"illegal action '{text}': {why}", action=str(action), rule=rule
            ) from None

    def _not_in_pack(self, action: Action) -> tuple[str, str] | None:
        """Why `action` names a card the pack in play does not hold (C4), or None."""
        faces: tuple[object, ...] = ()
        if isinstance(action, (Take, Discard, Force, Borrow, Trade)):
            faces = () if action.card is None else (action.card,)
        elif isinstance(action, Meld):
            faces = action.cards
        pack = self.rules.pack_cards()
        for face in faces:  # a joker where there is none: each engine says so in its words
            if not isinstance(face, NamedJoker) and face not in pack:
                return f"{face} is not in the pack of this game", "C4"
        return None

    @property
    def decision(self) -> Decision | None:
        """What the player to move is asked (`conquian.events.decision_of`): ``"trade"``,
        ``"say"`` or ``"meld"`` in the offer game, ``"draw"`` or ``"play"`` in the rummy
        games; None when the deal is over.

        >>> new_game(CooncanRules.three_hand(), seed=3).decision
        'draw'
        """
        from ..events import decision_of

        return decision_of(self)

    def __str__(self) -> str:
        """The position as a multi-line text diagram: every hand, the table, the offer or
        stock, the counts (`conquian.render.text`). `repr` stays a one-line summary."""
        from ..render.text import diagram

        return diagram(self)

    def _repr_svg_(self) -> str:
        """The position as an SVG picture of the cards, shown by Jupyter (`conquian.render.svg`)."""
        from ..render.svg import render

        return render(self)

    def to_json(self) -> str:
        """This position as JSON: its rules, deal and actions, and a snapshot of every zone.

        The format is ``conquian-position`` (see `conquian.formats.records` and the
        docs page *Records and positions*). `State.from_json` reads it back.

        >>> state = new_game(ConquianRules(), seed=5).apply("take KD")
        >>> text = state.to_json()
        >>> '"pending": ["KD"]' in text
        True
        """
        from ..formats.codec import write_position

        return write_position(self)  # through the codec of its game (`conquian.games`)

    def to_dict(self) -> dict[str, Any]:
        """This position as Python data: the ``conquian-position`` document that `to_json`
        writes (dicts, lists, strings, integers, None), to embed in a message of your own.

        >>> state = new_game(ConquianRules(), seed=5).apply("take KD")
        >>> data = state.to_dict()
        >>> data["format"], data["actions"], data["snapshot"]["pending"]
        ('conquian-position', ['take KD'], ['KD'])
        """
        from ..formats.codec import position_document

        return position_document(self)

    @classmethod
    def from_json(cls: type[StateT], text: object) -> StateT:
        """Read a position (JSON text, `str` or `bytes`), check it and replay it (E2, E3).

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
        from ..formats.codec import read_position

        state = read_position(text, cls)  # through the codec of the rules' game
        assert isinstance(state, cls)
        return state
