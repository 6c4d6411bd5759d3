"""The games as PettingZoo AEC environments (optional extra ``conquian[pettingzoo]``).

``env(rules)`` makes an environment for a rules object; ``pettingzoo``,
``gymnasium`` and ``numpy`` are imported when it is called, never before.

- agents ``player_0`` … ``player_{n-1}``, seat for seat;
- the observation of an agent is a dict: ``"observation"``, a float32 array
  written by `conquian.encoding.Observer` (the layout of `observation_layout`,
  every entry normalised to [0, 1]; ``normalize=False`` keeps the raw counts of
  `PlayerView.observation`), and, where the dense mask is on, ``"action_mask"``,
  an int8 array over the action ids (`ActionSpace`). The observation space has
  the true bounds of every entry;
- ``info["legal_ids"]``: the ids of the legal actions of the agent to act, in
  increasing order (empty for the others): the sparse interface every game has.
  The dense mask is on by default where it is cheap (at most 50,000 ids: two-hand
  and three-hand without joker), off elsewhere (``action_mask=True`` forces it);
- an action is an id of `conquian.ActionSpace`; the action space is
  ``Discrete(len(ActionSpace(rules)))``. For the double pack a network may rather
  output the factored form of `conquian.encoding.FactoredActions`;
- ``skip_forced=True``: a decision with one legal action is applied for the
  player, and the turn passes to the next real decision; rewards still arrive;
- rewards come at the end of the deal: its payments (T13; M7, M8);
- ``reset(seed=s)`` deals ``new_game(rules, seed=s)`` (C7); without a seed,
  the environment draws one from its own seeded generator;
- ``game_state``: the library's `State` of the deal (read-only); ``state()`` is
  PettingZoo's global state: the observations of every seat, seat 0 first, for
  centralised critics (they show every hand);
- ``render_mode="ansi"``: `render` returns the state as text.

``single_agent_env(rules)`` is a Gymnasium environment for one seat, the
other seats played by an agent of the library (`HeuristicAgent` by default).
Its `reset` never hands over a finished deal: when the other seats end the deal
before the learner's first decision, it deals again (the next deal of its
generator) and counts it in ``info["redeals"]``.

>>> from conquian.pettingzoo import env  # doctest: +SKIP
>>> game = env(ConquianRules(), skip_forced=True)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, ClassVar

from .agents import Agent, HeuristicAgent
from .encoding import ActionSpace, Observer
from .game import new_game
from .games import game_of
from .rules import ConquianRules, Rules

__all__ = ["DENSE_MASK_LIMIT", "env", "raw_env", "single_agent_env"]

DENSE_MASK_LIMIT = 50_000
"""The most action ids for which the environments give the dense mask by default."""


def env(
    rules: Rules | None = None,
    render_mode: str | None = None,
    *,
    skip_forced: bool = False,
    action_mask: bool | None = None,
    normalize: bool = True,
) -> Any:
    """A PettingZoo AEC environment of the deal under `rules` (default: two-hand, Foster),
    wrapped in PettingZoo's order-enforcing checks.

    `skip_forced` applies single-choice decisions for the player; `action_mask`
    (None: on up to `DENSE_MASK_LIMIT` ids) puts the dense mask in the observation;
    `normalize` keeps every observation entry in [0, 1].
    """
    return _wrapper_class()(
        raw_env(
            rules,
            render_mode=render_mode,
            skip_forced=skip_forced,
            action_mask=action_mask,
            normalize=normalize,
        )
    )


def raw_env(
    rules: Rules | None = None,
    render_mode: str | None = None,
    *,
    skip_forced: bool = False,
    action_mask: bool | None = None,
    normalize: bool = True,
) -> Any:
    """The environment of `env` without PettingZoo's wrappers (the same options)."""
    return _env_class()(rules or ConquianRules(), render_mode, skip_forced, action_mask, normalize)


_CLASS: list[type] = []
_WRAPPER: list[type] = []


def _wrapper_class() -> type:
    """PettingZoo's order-enforcing wrapper, with the same checks, whose hot paths
    (``last``, ``agents``, ``agent_selection``) reach the environment directly instead of
    through ``__getattr__`` (which runs only after a failed lookup: an exception each)."""
    if _WRAPPER:
        return _WRAPPER[0]
    from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class Checked(OrderEnforcingWrapper):  # type: ignore[misc]
        """`OrderEnforcingWrapper` with direct hot paths."""

        @property
        def agents(self) -> list[str]:
            if not self._has_reset:
                raise AttributeError("agents cannot be accessed before reset")
            agents: list[str] = self.env.agents
            return agents

        @property
        def agent_selection(self) -> str:
            if not self._has_reset:
                raise AttributeError("agent_selection cannot be accessed before reset")
            agent: str = self.env.agent_selection
            return agent

        def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            if not self._has_reset:
                EnvLogger.error_observe_before_reset()
            last: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
            return last

    _WRAPPER.append(Checked)
    return Checked


def _env_class() -> type:
    """The environment class, made once: ``pettingzoo.AECEnv`` is imported lazily."""
    if _CLASS:
        return _CLASS[0]
    import numpy as np  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from gymnasium import spaces  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class ConquianEnv(AECEnv):  # type: ignore[misc]
        """One deal of Conquian or Cooncan as a PettingZoo AEC environment."""

        metadata: ClassVar[dict[str, Any]] = {
            "render_modes": ["ansi"],
            "name": "conquian_v1",
            "is_parallelizable": False,
        }

        def __init__(
            self,
            rules: Rules,
            render_mode: str | None,
            skip_forced: bool = False,
            action_mask: bool | None = None,
            normalize: bool = True,
        ) -> None:
            super().__init__()
            game_of(rules)  # a TypeError for anything but a rules object
            if render_mode not in (None, "ansi"):
                raise ValueError(f"render_mode must be None or 'ansi' (got {render_mode!r})")
            self.rules = rules
            self.render_mode = render_mode
            self.skip_forced = bool(skip_forced)
            self.space = ActionSpace(rules)
            n_ids = len(self.space)
            self.dense_mask = n_ids <= DENSE_MASK_LIMIT if action_mask is None else action_mask
            self.observer = Observer(rules, normalize=normalize)
            self.possible_agents = [f"player_{p}" for p in range(rules.players)]
            self._seat = {a: p for p, a in enumerate(self.possible_agents)}
            high = np.asarray(self.observer.high, np.float32)
            parts: dict[str, Any] = {
                "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32)
            }
            if self.dense_mask:
                parts["action_mask"] = spaces.Box(0, 1, (n_ids,), np.int8)
            observe = spaces.Dict(parts)
            self.observation_spaces = dict.fromkeys(self.possible_agents, observe)
            self.action_spaces = {a: spaces.Discrete(n_ids) for a in self.possible_agents}
            whole = np.tile(high, rules.players)
            self.state_space = spaces.Box(np.zeros_like(whole), whole, dtype=np.float32)
            self._buffer = self.observer.buffer()
            self._array = np.frombuffer(self._buffer, np.float32)
            self._n_ids = n_ids
            self._game: Any = None
            self._legal: tuple[Any, ...] = ()
            self._ids: tuple[int, ...] = ()
            self._by_id: dict[int, Any] = {}
            self._seeds = np.random.default_rng()
            self._np = np

        @property
        def game_state(self) -> Any:
            """The library's `State` of the deal (None before the first `reset`)."""
            return self._game

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            if seed is not None:
                self._seeds = self._np.random.default_rng(seed)
                for k, a in enumerate(self.possible_agents):
                    self.action_spaces[a].seed(seed + k)
            deal_seed = int(self._seeds.integers(2**31)) if seed is None else seed
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {"legal_ids": ()} for a in self.agents}
            self._moved(new_game(self.rules, seed=deal_seed), None)

        def _moved(self, state: Any, agent: str | None) -> None:
            """Take `state` as the deal's state after `agent` acted (None: the deal)."""
            legal: tuple[Any, ...] = state.legal_actions() if state.result is None else ()
            while self.skip_forced and len(legal) == 1:
                state = state.apply(legal[0])
                legal = state.legal_actions() if state.result is None else ()
            self._game = state
            self._legal = legal
            index = self.space.index
            self._by_id = {index(a): a for a in legal}
            self._ids = tuple(sorted(self._by_id))
            if agent is not None:
                self.infos[agent] = {"legal_ids": ()}
            result = state.result
            if result is None:
                self.agent_selection = self.agents[state.current_player]
                self.infos[self.agent_selection] = {"legal_ids": self._ids}
                return
            for a, paid in zip(self.agents, result.payments, strict=True):
                self.rewards[a] = float(paid)
                self.terminations[a] = True
            if agent is not None:
                self.agent_selection = self.agents[(self._seat[agent] + 1) % len(self.agents)]
            else:
                self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> dict[str, Any]:
            player = self._seat[agent]
            self.observer.write(self._game, self._buffer, player)
            obs: dict[str, Any] = {"observation": self._array.copy()}
            if self.dense_mask:
                mask = bytearray(self._n_ids)  # zeros, fresh: the array keeps it
                if self._game.current_player == player:
                    for i in self._ids:
                        mask[i] = 1
                obs["action_mask"] = self._np.frombuffer(mask, self._np.int8)
            return obs

        def state(self) -> Any:
            """The observations of every seat, seat 0 first (every hand shows: a global
            state for centralised training), as one float32 array (`state_space`)."""
            out = []
            for p in range(self.rules.players):
                self.observer.write(self._game, self._buffer, p)
                out.append(self._array.copy())
            return self._np.concatenate(out)

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            chosen = self._by_id.get(int(action))  # type: ignore[arg-type]
            if chosen is None:
                legal_ids = list(self._ids)
                raise ValueError(f"action id {action} is not legal now; legal ids: {legal_ids}")
            self._moved(self._game.apply(chosen), agent)
            if self._game.result is not None:  # the only rewards: the payments (T13; M7, M8)
                self._accumulate_rewards()
            if self.render_mode == "ansi":
                self.render()

        def render(self) -> str | None:
            if self.render_mode is None:
                return None
            return repr(self._game)

        def close(self) -> None:
            pass

    _CLASS.append(ConquianEnv)
    return ConquianEnv


def single_agent_env(
    rules: Rules | None = None,
    opponent: Any = HeuristicAgent,
    seat: int = 0,
    render_mode: str | None = None,
    *,
    skip_forced: bool = False,
    action_mask: bool | None = None,
    normalize: bool = True,
) -> Any:
    """A Gymnasium environment: one deal from `seat`'s side, the other seats played by
    agents made by ``opponent(seed)`` (an agent factory, `HeuristicAgent` by default).

    Observations, actions and options are those of `env`; ``info["legal_ids"]`` holds
    the legal ids. The reward is the seat's payment at the end. `reset` never returns
    a finished deal: if the others end it before the seat's first decision, it deals
    the next one (``info["redeals"]`` counts them).
    """
    return _single_class()(
        rules or ConquianRules(), opponent, seat, render_mode, skip_forced, action_mask, normalize
    )


_SINGLE: list[type] = []


def _single_class() -> type:
    if _SINGLE:
        return _SINGLE[0]
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
        """One seat of a deal as a Gymnasium environment; the others are library agents."""

        metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}  # type: ignore[misc, unused-ignore]

        def __init__(
            self,
            rules: Rules,
            opponent: Any,
            seat: int,
            render_mode: str | None,
            skip_forced: bool = False,
            action_mask: bool | None = None,
            normalize: bool = True,
        ) -> None:
            if not 0 <= seat < rules.players:
                raise ValueError(f"seat must be from 0 to {rules.players - 1} (got {seat!r})")
            self.game = _env_class()(rules, render_mode, skip_forced, action_mask, normalize)
            self.opponent = opponent
            self.seat = seat
            self.render_mode = render_mode
            self.agent = self.game.possible_agents[seat]
            self.observation_space = self.game.observation_space(self.agent)
            self.action_space = self.game.action_space(self.agent)
            self.others: dict[int, Agent] = {}

        def _play_others(self) -> None:
            game = self.game
            state = game.game_state
            while state.result is None and state.current_player != self.seat:
                who = state.current_player
                action = self.others[who](state.view(who))
                game.step(game.space.index(action))
                state = game.game_state

        def _info(self) -> dict[str, Any]:
            return {"legal_ids": self.game.infos[self.agent]["legal_ids"]}

        def reset(
            self, *, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            super().reset(seed=seed)
            redeals = 0
            while True:
                deal = int(self.np_random.integers(2**31))
                self.game.reset(seed=deal)
                self.others = {  # each seed drawn apart from the deal's: none rebuilds the deck
                    p: self.opponent(int(self.np_random.integers(2**31)))
                    for p in range(len(self.game.possible_agents))
                    if p != self.seat
                }
                self._play_others()
                if self.game.game_state.result is None:
                    break
                redeals += 1  # the others ended the deal first: deal the next one
            info = self._info()
            info["redeals"] = redeals
            return self.game.observe(self.agent), info

        def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
            self.game.step(int(action))
            self._play_others()
            result = self.game.game_state.result
            reward = 0.0 if result is None else float(result.payments[self.seat])
            return self.game.observe(self.agent), reward, result is not None, False, self._info()

        def render(self) -> str | None:
            rendered: str | None = self.game.render()
            return rendered

    _SINGLE.append(SingleAgentEnv)
    return SingleAgentEnv
