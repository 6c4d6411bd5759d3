"""`PlayerView`, the interface of what one player may know (C6).

`conquian.state.base` gives it. It lives apart because the compiled build leaves
it Python: each engine's view is an attrs class built on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .game import Game, game_of
from .result import Result

if TYPE_CHECKING:
    from ..actions import Action
    from ..cards import Card
    from ..combos.core import Combination
    from ..events import Decision, Event

__all__ = ["PlayerView"]


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
    def game(self) -> Game:
        """The game this view is of (`conquian.GAMES`), through its rules.

        >>> new_game(ConquianRules(), seed=7).view(0).game
        <Game 'conquian': Conquian>
        """
        return game_of(self.rules)  # type: ignore[attr-defined]  # every engine's view has rules

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

    @property
    def decision(self) -> Decision | None:
        """What the player to move is asked (`conquian.events.decision_of`): ``"trade"``,
        ``"say"`` or ``"meld"`` in the offer game, ``"draw"`` or ``"play"`` in the rummy
        games; None when the deal is over. Every seat's view says it, not only the mover's.

        >>> new_game(ConquianRules(), seed=7).view(0).decision
        'say'
        """
        from ..events import decision_of

        return decision_of(self)

    def events(self, since: int | None = None) -> tuple[Event, ...]:
        """What happened after the first `since` actions, as this player saw it, or with
        `since` None the whole deal, its dealing included (`conquian.events.events`):
        never a card he may not know (C6). Start a deal with None, then pass
        ``len(view.history)`` of the last view told: nothing is told twice.

        >>> state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
        >>> [str(e) for e in state.view(0).events(since=1)]
        ['Seat 1 melds JD QD KD.']
        """
        from ..events import events

        return events(self, since)

    def __str__(self) -> str:
        """What this player may know as a multi-line text diagram (`conquian.render.text`)."""
        from ..render.text import diagram

        return diagram(self)

    def _repr_svg_(self) -> str:
        """This view as an SVG picture of the cards, shown by Jupyter (`conquian.render.svg`)."""
        from ..render.svg import render

        return render(self)

    def to_json(self) -> str:
        """This view as one line of JSON, to send to its player (format ``conquian-view``).

        Written field by field from what the player may know (C6): never the
        deck, the order of a hidden pack or stock, another hand beyond its
        known cards, nor `unseen`, which names the cards he cannot place.

        >>> view = new_game(ConquianRules(), seed=7).view(1)
        >>> view.to_json()[:60]
        '{"format":"conquian-view","version":1,"rules":{"game":"conqu'
        """
        from ..formats.codec import write_view

        return write_view(self)  # through its game's codec (conquian.games)

    def to_dict(self) -> dict[str, Any]:
        """This view as Python data: the ``conquian-view`` document that `to_json` writes
        (dicts, lists, strings, integers, None), to embed in a message of your own. It holds
        what the player may know and nothing more (C6), as `to_json` does.

        >>> view = new_game(ConquianRules(), seed=7).view(1)
        >>> data = view.to_dict()
        >>> data["format"], data["player"], len(data["hand"])
        ('conquian-view', 1, 10)
        """
        from ..formats.codec import view_document

        return view_document(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlayerView:
        """A view back from its JSON (format ``conquian-view``), checked (E2, E3, C6).

        Raises `RecordError` listing every problem: a malformed field, a card
        the pack does not hold, or a view no deal and history could show. The
        view read equals the view written, so it samples the same states
        (`sample_state`) for the same seed. Called on a subclass, the view
        must be of that game. Its cost is bounded whatever the text holds
        (E2): at most three replays of the history plus 20,000 actions, and a
        history no deal explains is refused naming the action at fault
        (``history[12]: illegal action ...``).

        >>> view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(2)
        >>> PlayerView.from_json(view.to_json()) == view
        True
        """
        from ..formats.views import view_from_json

        view: PlayerView = view_from_json(text, cls)
        return view
