"""The agent protocol, the random agent, and `play`: one deal between agents.

An **agent** is any callable that takes a `PlayerView` and returns one of its
`legal_actions`. It is given what its seat may know (C6) and never a state,
so a bot cannot look at hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeAlias, runtime_checkable

from ..actions import Action
from ..cards import Card
from ..errors import IllegalActionError
from ..game import new_game
from ..games import game_of
from ..rules import Rules
from ..state.base import PlayerView, State


@runtime_checkable
class Agent(Protocol):
    """A player: a callable from a `PlayerView` to one of its `legal_actions`.

    Agents only ever see views (C6), never states. Any function
    with this shape is an agent:

    >>> def first(view: PlayerView) -> Action:
    ...     return view.legal_actions[0]
    >>> isinstance(first, Agent), isinstance(RandomAgent(seed=1), Agent)
    (True, True)
    """

    def __call__(self, view: PlayerView) -> Action:
        """The action this agent chooses in `view`; a member of ``view.legal_actions``."""
        ...  # pragma: no cover


AgentFactory: TypeAlias = Callable[[int], Agent]
"""Makes a fresh agent from a seed: `RandomAgent` and `HeuristicAgent` are factories."""


def _no_actions(view: PlayerView) -> ValueError:
    return ValueError(
        f"seat {view.player} has no legal action: it is not his turn, or the deal is over"
    )


class RandomAgent:
    """Chooses uniformly among the legal actions, from its own seeded random source.

    Two agents made with the same seed make the same choices in the same
    views, so games between random agents are reproducible.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> view = state.view(state.current_player)
    >>> RandomAgent(seed=3)(view) == RandomAgent(seed=3)(view)
    True
    >>> RandomAgent(seed=3)(view) in view.legal_actions
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __call__(self, view: PlayerView) -> Action:
        """A legal action of `view`, each with the same chance."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        return actions[int(self._rng.random() * len(actions))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


Observer: TypeAlias = Callable[[State, int, Action, State], None]


def _check_rules(rules: object) -> None:
    """Refuse `rules` that are not a rules object of a game of the registry."""
    game_of(rules)  # type: ignore[arg-type]


def _check_ends(rules: Rules) -> None:
    game = game_of(rules)
    # Rules with a turn_limit option play on for ever without one (M11).
    if getattr(rules, "turn_limit", 0) is None:
        preset = game.rules_maker
        raise ValueError(
            f"{game.title} rules need a turn_limit for bots, so that every deal ends (M11): "
            f"use {preset}(turn_limit=300)"
        )


def describe(agent: object) -> str:
    """A short name of an agent for messages: its repr, or its name when that repr is opaque.

    >>> describe(RandomAgent(seed=2))
    'RandomAgent(seed=2)'
    >>> def first(view): return view.legal_actions[0]
    >>> describe(first)
    'first'
    """
    text = repr(agent)
    if not text.startswith("<"):
        return text
    name = getattr(agent, "__qualname__", None) or type(agent).__qualname__
    return str(name)


def play(
    agents: Sequence[Agent],
    rules: Rules,
    seed: int | None = None,
    dealer: int = 0,
    *,
    deck: Sequence[Card] | None = None,
    observe: Observer | None = None,
) -> State:
    """Play one deal between `agents` (one per seat) and return its final state.

    Each agent only ever receives ``state.view(seat)`` for its own seat. The
    deal is made by `new_game` from `seed` or `deck` and `dealer`;
    `observe`, if given, is called after every action with (state before,
    seat, action, state after). Cooncan rules need a `turn_limit`, so that
    every deal ends.

    An agent that returns an illegal action, or anything but an `Action`
    (None, a string), stops the deal with an `IllegalActionError` that names
    the seat, the agent and the move number (1 for the deal's first action).
    `agents` that are not a sequence of callables, or `rules` that are not a
    rules object, raise `TypeError` naming the argument.

    >>> final = play([RandomAgent(1), RandomAgent(2)], ConquianRules(), seed=7)
    >>> final.is_over, final.result.outcome in ("win", "tableau")
    (True, True)
    """
    _check_ends(rules)
    if not isinstance(agents, Sequence) or isinstance(agents, str):
        raise TypeError(
            f"agents must be a sequence of agents, one per seat, not {type(agents).__name__}"
        )
    if len(agents) != rules.players:
        raise ValueError(f"{rules.game} needs {rules.players} agents (got {len(agents)})")
    for agent in agents:
        if not callable(agent):
            raise TypeError(f"agents must be callables taking a view (got {describe(agent)})")
    state = new_game(rules, seed=seed, deck=deck, dealer=dealer)
    while state.current_player is not None:
        seat = state.current_player
        agent = agents[seat]
        action = agent(state.view(seat))
        move = len(state.history) + 1
        if not isinstance(action, Action):
            raise IllegalActionError(
                f"seat {seat} ({describe(agent)}), move {move}: the agent returned "
                f"{action!r}, which is not an action; an agent returns one of "
                "view.legal_actions"
            )
        try:
            after = state.apply(action)
        except IllegalActionError as err:
            named = IllegalActionError(
                f"seat {seat} ({describe(agent)}), move {move}: {err.args[0]}",
                action=err.action,
            )
            named.rule = err.rule  # the message already ends with the rule id
            raise named from err
        if observe is not None:
            observe(state, seat, action, after)
        state = after
    return state
