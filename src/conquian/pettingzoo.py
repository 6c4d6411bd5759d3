"""The three games as PettingZoo AEC environments (optional extra ``conquian[pettingzoo]``).

``env(rules)`` makes an environment for a rules object; ``pettingzoo`` and
``gymnasium`` are imported when it is called, never before.

- agents ``player_0`` … ``player_{n-1}``, seat for seat;
- the observation of an agent is a dict: ``"observation"``, the player's
  view as `PlayerView.observation` (a float32 array of fixed length), and
  ``"action_mask"``, an int8 array over the action ids (`ActionSpace`);
- an action is an id of `conquian.ActionSpace`; the action space is
  ``Discrete(len(ActionSpace(rules)))``;
- rewards come at the end of the deal: its payments (T13; M7, M8);
- ``reset(seed=s)`` deals ``new_game(rules, seed=s)`` (C7); without a seed,
  the environment draws one from its own seeded generator;
- ``render_mode="ansi"``: `render` returns the state as text.

``single_agent_env(rules)`` is a Gymnasium environment for one seat, the
other seats played by an agent of the library (`HeuristicAgent` by default).

>>> from conquian.pettingzoo import env  # doctest: +SKIP
>>> game = env(ConquianRules())  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, ClassVar

from .agents import Agent, HeuristicAgent
from .encoding import ActionSpace, observation_layout
from .game import new_game
from .rules import ConquianRules, CooncanRules, Rules

__all__ = ["env", "raw_env", "single_agent_env"]


def env(rules: Rules | None = None, render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment of the deal under `rules` (default: two-hand, Foster),
    wrapped in PettingZoo's order-enforcing checks."""
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]

    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode=render_mode))


def raw_env(rules: Rules | None = None, render_mode: str | None = None) -> Any:
    """The environment of `env` without PettingZoo's wrappers."""
    return _env_class()(rules or ConquianRules(), render_mode)


_CLASS: list[type] = []


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
            "name": "conquian_v0",
            "is_parallelizable": False,
        }

        def __init__(self, rules: Rules, render_mode: str | None) -> None:
            super().__init__()
            if not isinstance(rules, (ConquianRules, CooncanRules)):
                raise TypeError(f"expected a rules object (got {type(rules).__name__})")
            if render_mode not in (None, "ansi"):
                raise ValueError(f"render_mode must be None or 'ansi' (got {render_mode!r})")
            self.rules = rules
            self.render_mode = render_mode
            self.space = ActionSpace(rules)
            self.possible_agents = [f"player_{p}" for p in range(rules.players)]
            size = sum(n for _, n in observation_layout(rules))
            observe = spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.space),), np.int8),
                }
            )
            self.observation_spaces = dict.fromkeys(self.possible_agents, observe)
            self.action_spaces = {a: spaces.Discrete(len(self.space)) for a in self.possible_agents}
            self.state: Any = None
            self._seeds = np.random.default_rng()

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            if seed is not None:
                self._seeds = np.random.default_rng(seed)
                for k, a in enumerate(self.possible_agents):
                    self.action_spaces[a].seed(seed + k)
            deal_seed = int(self._seeds.integers(2**31)) if seed is None else seed
            self.state = new_game(self.rules, seed=deal_seed)
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[self.state.current_player]

        def observe(self, agent: str) -> dict[str, Any]:
            view = self.state.view(self.possible_agents.index(agent))
            mask = np.zeros(len(self.space), np.int8)
            mask[list(self.space.ids(view))] = 1
            return {
                "observation": np.asarray(view.observation(), np.float32),
                "action_mask": mask,
            }

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.state = self.state.apply(self.space.action(int(action)))  # type: ignore[arg-type]
            result = self.state.result
            if result is None:
                self.agent_selection = self.agents[self.state.current_player]
            else:
                for a, paid in zip(self.agents, result.payments, strict=True):
                    self.rewards[a] = float(paid)
                    self.terminations[a] = True
                self.agent_selection = self.agents[
                    (self.agents.index(agent) + 1) % len(self.agents)
                ]
            self._accumulate_rewards()
            if self.render_mode == "ansi":
                self.render()

        def render(self) -> str | None:
            if self.render_mode is None:
                return None
            return repr(self.state)

        def close(self) -> None:
            pass

    _CLASS.append(ConquianEnv)
    return ConquianEnv


def single_agent_env(
    rules: Rules | None = None,
    opponent: Any = HeuristicAgent,
    seat: int = 0,
    render_mode: str | None = None,
) -> Any:
    """A Gymnasium environment: one deal from `seat`'s side, the other seats played by
    agents made by ``opponent(seed)`` (an agent factory, `HeuristicAgent` by default).

    Observations and actions are those of `env`: a dict with the observation and the
    action mask, and an action id. The reward is the seat's payment at the end.
    """
    return _single_class()(rules or ConquianRules(), opponent, seat, render_mode)


_SINGLE: list[type] = []


def _single_class() -> type:
    if _SINGLE:
        return _SINGLE[0]
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
        """One seat of a deal as a Gymnasium environment; the others are library agents."""

        metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"]}  # type: ignore[misc, unused-ignore]

        def __init__(self, rules: Rules, opponent: Any, seat: int, render_mode: str | None) -> None:
            self.game = _env_class()(rules, render_mode)
            self.opponent = opponent
            self.seat = seat
            self.render_mode = render_mode
            agent = self.game.possible_agents[seat]
            self.observation_space = self.game.observation_space(agent)
            self.action_space = self.game.action_space(agent)
            self.others: dict[int, Agent] = {}

        def _play_others(self) -> None:
            state = self.game.state
            while state.result is None and state.current_player != self.seat:
                who = state.current_player
                action = self.others[who](state.view(who))
                self.game.step(self.game.space.index(action))
                state = self.game.state

        def _observation(self) -> dict[str, Any]:
            obs: dict[str, Any] = self.game.observe(self.game.possible_agents[self.seat])
            return obs

        def reset(
            self, *, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[dict[str, Any], dict[str, Any]]:
            super().reset(seed=seed)
            deal = int(self.np_random.integers(2**31))
            self.game.reset(seed=deal)
            self.others = {  # each seed drawn apart from the deal's: none rebuilds the deck
                p: self.opponent(int(self.np_random.integers(2**31)))
                for p in range(len(self.game.possible_agents))
                if p != self.seat
            }
            self._play_others()
            return self._observation(), {}

        def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
            self.game.step(int(action))
            self._play_others()
            result = self.game.state.result
            reward = 0.0 if result is None else float(result.payments[self.seat])
            return self._observation(), reward, result is not None, False, {}

        def render(self) -> str | None:
            rendered: str | None = self.game.render()
            return rendered

    _SINGLE.append(SingleAgentEnv)
    return SingleAgentEnv
