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
- **an illegal id** (one not in ``info["legal_ids"]``, as a checker sampling the
  action space plays) ends the deal as a loss for the agent that played it, as in
  PettingZoo's classic games: its reward is the most a seat can lose in a deal
  (`loss_bound`), the others get 0, every agent is terminated, and every ``info``
  has ``"illegal"``, the id played. ``illegal="raise"`` raises `ValueError` instead;
- ``skip_forced=True``: a decision with one legal action is applied for the
  player, and the turn passes to the next real decision; rewards still arrive;
- rewards come at the end of the deal: its payments (T13; M7, M8; K9), or with
  ``reward="scaled"`` the payments divided by `reward_scale` (the most a deal pays
  one seat), so that every reward lies in [-1, 1];
- the end of a deal: a win or a tableau terminates every agent; a deal stopped
  at the rules' ``turn_limit`` (M11, K8: abandoned, nobody pays) truncates every
  agent instead; each final ``info`` has ``"outcome"``: ``"win"`` (the winner),
  ``"loss"`` (every other seat, and the seat that played an illegal id),
  ``"tableau"`` (T12) or ``"abandoned"`` (the turn limit, or the others after an
  illegal id);
- rules with a ``turn_limit`` option left None (Cooncan, Coo-Can) play with
  `TURN_LIMIT` turns, as in OpenSpiel, so that random play ends;
- ``reset(seed=s)`` deals ``new_game(rules, seed=s)`` (C7); without a seed,
  the environment draws one from its own seeded generator;
- ``game_state``: the library's `State` of the deal (read-only); ``state()`` is
  PettingZoo's global state: the observations of every seat, seat 0 first, for
  centralised critics (they show every hand);
- ``render_mode="human"`` prints the diagram of the deal (every hand, the table)
  after each step; ``render_mode="ansi"``: `render` returns it as text;
- the environments pickle and deep-copy (a copy plays on as the original), their
  classes made at first use and rebuilt on loading from this module.

``single_agent_env(rules)`` is a Gymnasium environment for one seat, the
other seats played by an agent of the library (`HeuristicAgent` by default).
Its `reset` never hands over a finished deal: when the other seats end the deal
before the learner's first decision, it deals again (the next deal of its
generator) and counts it in ``info["redeals"]``. ``observation="box"`` makes
its observation the float32 array alone (a ``Box``), the legal ids in
``info["legal_ids"]`` and the mask from ``action_masks()``: the form
`conquian.gymnasium`'s ids give.

>>> from conquian.pettingzoo import env  # doctest: +SKIP
>>> game = env(ConquianRules(), skip_forced=True)  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from .agents import Agent, HeuristicAgent, ProcessAgent
from .encoding import ActionSpace, Observer
from .game import new_game
from .games import game_of
from .rules import ConquianRules, Rules
from .state.result import Outcome

__all__ = [
    "DENSE_MASK_LIMIT",
    "TURN_LIMIT",
    "bounded",
    "env",
    "loss_bound",
    "raw_env",
    "reward_scale",
    "single_agent_env",
]

DENSE_MASK_LIMIT = 50_000
"""The most action ids for which the environments give the dense mask by default."""

TURN_LIMIT = 200
"""The `turn_limit` of rules that have the option and leave it None (Cooncan M11, Coo-Can
K8) in the environments: OpenSpiel's games take the same."""

_ILLEGAL = ("loss", "raise")
_REWARDS = ("payment", "scaled")
_OBSERVATIONS = ("dict", "box")


def bounded(rules: Rules) -> Rules:
    """`rules`, with `TURN_LIMIT` turns where it has a ``turn_limit`` option left None.

    >>> bounded(CooCanRules()).turn_limit, bounded(ConquianRules()) == ConquianRules()
    (200, True)
    """
    game_of(rules)  # a TypeError for anything but a rules object
    some: Any = rules
    if "turn_limit" in attrs.fields_dict(type(some)) and some.turn_limit is None:
        some = attrs.evolve(some, turn_limit=TURN_LIMIT)
    bounded_rules: Rules = some
    return bounded_rules


def loss_bound(rules: Rules) -> float:
    """The most one seat can lose in a deal under `rules`: one counter in Conquian (T13),
    15 pips a card of a hand and the splash bonus in Cooncan (M7, M8), two stakes on ten
    cards of ten spots in Coo-Can (K9); the game's `utility`, OpenSpiel's bound too."""
    return game_of(rules).utility(rules)


def reward_scale(rules: Rules) -> float:
    """The divisor of ``reward="scaled"``: the most a deal can pay one seat, `loss_bound`
    from each other seat (OpenSpiel's ``max_utility``). Every payment divided by it lies in
    [-1, 1]: 1 in two-hand Conquian, 2 × (15 × 7) = 210 pips in three-hand Cooncan.

    >>> reward_scale(ConquianRules()), reward_scale(CooncanRules.three_hand())
    (1.0, 210.0)
    """
    return loss_bound(rules) * (rules.players - 1)


def env(
    rules: Rules | None = None,
    render_mode: str | None = None,
    *,
    skip_forced: bool = False,
    action_mask: bool | None = None,
    normalize: bool = True,
    illegal: str = "loss",
    reward: str = "payment",
) -> Any:
    """A PettingZoo AEC environment of the deal under `rules` (default: two-hand, Foster),
    wrapped in PettingZoo's order-enforcing checks.

    `skip_forced` applies single-choice decisions for the player; `action_mask`
    (None: on up to `DENSE_MASK_LIMIT` ids) puts the dense mask in the observation;
    `normalize` keeps every observation entry in [0, 1]; `illegal` is ``"loss"`` (an
    illegal id loses the deal) or ``"raise"``; `reward` is ``"payment"`` or ``"scaled"``.
    """
    return _wrapped(
        raw_env(
            rules,
            render_mode=render_mode,
            skip_forced=skip_forced,
            action_mask=action_mask,
            normalize=normalize,
            illegal=illegal,
            reward=reward,
        )
    )


def raw_env(
    rules: Rules | None = None,
    render_mode: str | None = None,
    *,
    skip_forced: bool = False,
    action_mask: bool | None = None,
    normalize: bool = True,
    illegal: str = "loss",
    reward: str = "payment",
) -> Any:
    """The environment of `env` without PettingZoo's wrappers (the same options)."""
    options = _Options(
        bounded(rules or ConquianRules()),
        render_mode,
        bool(skip_forced),
        action_mask,
        bool(normalize),
        illegal,
        reward,
    )
    return _env_class()(options)


@attrs.frozen
class _Options:
    """What an AEC environment is made from (its pickle carries these)."""

    rules: Rules
    render_mode: str | None
    skip_forced: bool
    action_mask: bool | None
    normalize: bool
    illegal: str
    reward: str

    def check(self, modes: list[str]) -> None:
        if self.render_mode is not None and self.render_mode not in modes:
            raise ValueError(
                f"render_mode must be None or one of {modes} (got {self.render_mode!r})"
            )
        if self.illegal not in _ILLEGAL:
            raise ValueError(f"illegal must be one of {_ILLEGAL} (got {self.illegal!r})")
        if self.reward not in _REWARDS:
            raise ValueError(f"reward must be one of {_REWARDS} (got {self.reward!r})")


_RENDER_MODES = ["human", "ansi"]

_CLASS: list[type] = []
_WRAPPER: list[type] = []
_SINGLE: list[type] = []

# What an AEC environment rebuilds from its options when it is loaded: the action space (shared),
# the observer and its buffer, the spaces and the numpy module.
_REBUILT = frozenset(
    {
        "space",
        "observer",
        "_buffer",
        "_array",
        "_np",
        "_by_id",
        "observation_spaces",
        "action_spaces",
        "state_space",
    }
)


def _new_raw() -> Any:
    """A blank AEC environment, which its pickled state fills (`ConquianEnv.__setstate__`)."""
    cls: Any = _env_class()
    return cls.__new__(cls)


def _new_wrapped(raw: Any, flags: dict[str, Any]) -> Any:
    """The order-enforcing wrapper around a loaded AEC environment, its flags restored."""
    wrapper = _wrapped(raw)
    wrapper.__dict__.update(flags)
    return wrapper


def _new_single() -> Any:
    """A blank single-agent environment, which its pickled state fills."""
    cls: Any = _single_class()
    return cls.__new__(cls)


def _wrapped(raw: Any) -> Any:
    return _wrapper_class()(raw)


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

        def __reduce__(self) -> tuple[Any, ...]:
            flags = {k: v for k, v in self.__dict__.items() if k.startswith("_has_")}
            return (_new_wrapped, (self.env, flags))

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
            "render_modes": _RENDER_MODES,
            "name": "conquian_v1",
            "is_parallelizable": False,
            "render_fps": 1,
        }

        def __init__(self, options: _Options) -> None:
            super().__init__()
            options.check(_RENDER_MODES)
            rules = options.rules
            self.options = options
            self.rules = rules
            self.render_mode = options.render_mode
            self.skip_forced = options.skip_forced
            self._build()
            self.possible_agents = [f"player_{p}" for p in range(rules.players)]
            self._seat = {a: p for p, a in enumerate(self.possible_agents)}
            self._game: Any = None
            self._legal: tuple[Any, ...] = ()
            self._ids: tuple[int, ...] = ()
            self._illegal: int | None = None
            self._seeds = np.random.default_rng()
            self.action_spaces = {a: spaces.Discrete(len(self.space)) for a in self.possible_agents}
            # The seats whose legal ids nobody reads (a single-agent environment's others,
            # which library agents play from their views).
            self._quiet: frozenset[int] = frozenset()

        def _build(self) -> None:
            """What the options give and a pickle leaves out: spaces, observer, buffer."""
            options, rules = self.options, self.rules
            self.space = ActionSpace.of(rules)
            n_ids = len(self.space)
            mask = options.action_mask
            self.dense_mask = n_ids <= DENSE_MASK_LIMIT if mask is None else bool(mask)
            self.observer = Observer(rules, normalize=options.normalize)
            high = np.asarray(self.observer.high, np.float32)
            parts: dict[str, Any] = {
                "observation": spaces.Box(np.zeros_like(high), high, dtype=np.float32)
            }
            if self.dense_mask:
                parts["action_mask"] = spaces.Box(0, 1, (n_ids,), np.int8)
            observe = spaces.Dict(parts)
            self.observation_spaces = dict.fromkeys(
                [f"player_{p}" for p in range(rules.players)], observe
            )
            whole = np.tile(high, rules.players)
            self.state_space = spaces.Box(np.zeros_like(whole), whole, dtype=np.float32)
            self._buffer = self.observer.buffer()
            self._array = np.frombuffer(self._buffer, np.float32)
            self._n_ids = n_ids
            self._scale = reward_scale(rules) if options.reward == "scaled" else 1.0
            self._np = np

        def __reduce__(self) -> tuple[Any, ...]:
            state = {k: v for k, v in self.__dict__.items() if k not in _REBUILT}
            state["action_seeds"] = {a: s.np_random for a, s in self.action_spaces.items()}
            return (_new_raw, (), state)

        def __setstate__(self, state: dict[str, Any]) -> None:
            seeds = state.pop("action_seeds")
            self.__dict__.update(state)
            self._build()
            self.action_spaces = {a: spaces.Discrete(self._n_ids) for a in seeds}
            for a, rng in seeds.items():
                self.action_spaces[a]._np_random = rng
            index = self.space.index
            self._by_id = {index(a): a for a in self._legal} if self._ids else {}

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
            self._deal(int(self._seeds.integers(2**31)) if seed is None else seed)

        def _deal(self, deal_seed: int) -> None:
            """Deal ``new_game(rules, seed=deal_seed)`` (C7), the generators left as they are."""
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {"legal_ids": ()} for a in self.agents}
            self._illegal = None
            self._moved(new_game(self.rules, seed=deal_seed), None)
            if self.render_mode == "human":
                self.render()

        def _moved(self, state: Any, agent: str | None) -> None:
            """Take `state` as the deal's state after `agent` acted (None: the deal)."""
            legal: tuple[Any, ...] = ()
            if state.result is None and (
                self.skip_forced or state.current_player not in self._quiet
            ):  # a quiet seat's agent reads the legal actions of its view
                legal = state.legal_actions()
            while self.skip_forced and len(legal) == 1:
                state = state.apply(legal[0])
                legal = state.legal_actions() if state.result is None else ()
            self._game = state
            self._legal = legal
            if agent is not None:
                self.infos[agent] = {"legal_ids": ()}
            result = state.result
            if result is None:
                player = state.current_player
                if player in self._quiet:
                    self._ids = ()
                    self._by_id = {}
                else:
                    index = self.space.index
                    self._by_id = by_id = {index(a): a for a in legal}
                    self._ids = ids = tuple(sorted(by_id))
                    self.infos[self.agents[player]] = {"legal_ids": ids}
                self.agent_selection = self.agents[player]
                return
            self._ids = ()
            self._by_id = {}
            cut = result.outcome is Outcome.ABANDONED  # the turn limit (M11, K8)
            ends = self.truncations if cut else self.terminations
            for seat, (a, paid) in enumerate(zip(self.agents, result.payments, strict=True)):
                self.rewards[a] = paid / self._scale
                ends[a] = True
                self.infos[a] = {"legal_ids": (), "outcome": _outcome(result, seat)}
            self._next_after(agent)

        def _next_after(self, agent: str | None) -> None:
            if agent is not None:
                self.agent_selection = self.agents[(self._seat[agent] + 1) % len(self.agents)]
            else:
                self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> dict[str, Any]:
            player = self._seat[agent]
            self.observer.write(self._game, self._buffer, player)
            obs: dict[str, Any] = {"observation": self._array.copy()}
            if self.dense_mask:
                obs["action_mask"] = self._mask(player, self._np.int8)
            return obs

        def _mask(self, player: int, dtype: Any) -> Any:
            """The dense mask of `player`'s legal ids (zeros unless he is to act), fresh."""
            mask = bytearray(self._n_ids)  # zeros, fresh: the array keeps it
            if self._game.current_player == player and self._illegal is None:
                for i in self._ids:
                    mask[i] = 1
            return self._np.frombuffer(mask, dtype)

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
                self._forfeit(agent, int(action))  # type: ignore[arg-type]
                return
            self._moved(self._game.apply(chosen), agent)
            if self._game.result is not None:  # the only rewards: the payments (T13; M7, M8)
                self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def _act(self, action: Any) -> None:
            """Apply the library's `action` for the seat to act (a single-agent environment's
            other seats, whose agents choose among the legal actions of their views)."""
            agent = self.agent_selection
            self._cumulative_rewards[agent] = 0.0
            self._moved(self._game.apply(action), agent)
            if self._game.result is not None:
                self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def _forfeit(self, agent: str, action: int) -> None:
            """An illegal id: the deal ends as a loss for `agent` (the most a seat can lose)
            and 0 for the others, every agent terminated, every info naming the id."""
            if self.options.illegal == "raise":
                legal_ids = list(self._ids)
                raise ValueError(f"action id {action} is not legal now; legal ids: {legal_ids}")
            self._illegal = action
            self._ids = ()
            self._by_id = {}
            for a in self.agents:
                mine = a == agent
                self.rewards[a] = -loss_bound(self.rules) / self._scale if mine else 0.0
                self.terminations[a] = True
                outcome = "loss" if mine else "abandoned"
                self.infos[a] = {"legal_ids": (), "outcome": outcome, "illegal": action}
            self._next_after(agent)
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def render(self) -> str | None:
            if self.render_mode is None:
                return None
            text = str(self._game)
            if self._illegal is not None:
                text += f"\nstopped: illegal action id {self._illegal}"
            if self.render_mode == "human":
                print(text)
                return None
            return text

        def close(self) -> None:
            pass

    _CLASS.append(ConquianEnv)
    return ConquianEnv


def _outcome(result: Any, seat: int) -> str:
    """How the deal ended for `seat`: win, loss, tableau (T12) or abandoned (M11, K8)."""
    if result.outcome is Outcome.WIN:
        return "win" if result.winner == seat else "loss"
    return str(result.outcome)


@attrs.frozen
class _SingleOptions:
    """What a single-agent environment is made from, besides the AEC options."""

    opponent: Any
    seat: int
    observation: str


def single_agent_env(
    rules: Rules | None = None,
    opponent: Any = HeuristicAgent,
    seat: int = 0,
    render_mode: str | None = None,
    *,
    skip_forced: bool = False,
    action_mask: bool | None = None,
    normalize: bool = True,
    illegal: str = "loss",
    reward: str = "payment",
    observation: str = "dict",
) -> Any:
    """A Gymnasium environment: one deal from `seat`'s side, the other seats played by
    agents made by ``opponent(seed)`` (an agent factory, `HeuristicAgent` by default),
    each seeded from the environment's generator (`reset(seed=...)` repeats them).

    Observations, actions and options are those of `env`; ``info["legal_ids"]`` holds
    the legal ids, and `action_masks()` the dense mask as booleans (sb3-contrib's
    ``MaskablePPO`` finds it). `observation` is ``"dict"`` (the dict of `env`) or
    ``"box"`` (its ``observation`` array alone). The reward is the seat's payment at the
    end (`reward` as in `env`): ``terminated`` after a win, a tableau or an illegal id,
    ``truncated`` at the turn limit, ``info["outcome"]`` saying which. `reset` never
    returns a finished deal: if the others end it before the seat's first decision, it
    deals the next one (``info["redeals"]`` counts them).
    """
    base = _Options(
        bounded(rules or ConquianRules()),
        render_mode,
        bool(skip_forced),
        action_mask,
        bool(normalize),
        illegal,
        reward,
    )
    return _single_class()(base, _SingleOptions(opponent, seat, observation))


def _single_class() -> type:
    if _SINGLE:
        return _SINGLE[0]
    import gymnasium  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import numpy as np  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
        """One seat of a deal as a Gymnasium environment; the others are library agents."""

        metadata: ClassVar[dict[str, Any]] = {  # type: ignore[misc, unused-ignore]
            "render_modes": _RENDER_MODES,
            "render_fps": 1,
        }

        def __init__(self, base: _Options, options: _SingleOptions) -> None:
            rules, seat = base.rules, options.seat
            if type(seat) is not int or not 0 <= seat < rules.players:
                raise ValueError(f"seat must be from 0 to {rules.players - 1} (got {seat!r})")
            if options.observation not in _OBSERVATIONS:
                raise ValueError(
                    f"observation must be one of {_OBSERVATIONS} (got {options.observation!r})"
                )
            # The deal shows itself at the seat's decisions, not at every other seat's.
            inner = "ansi" if base.render_mode == "human" else base.render_mode
            self.game = _env_class()(attrs.evolve(base, render_mode=inner))
            self.opponent = options.opponent
            self.seat = seat
            self.render_mode = base.render_mode
            self.agent = self.game.possible_agents[seat]
            self.box = options.observation == "box"
            spaces = self.game.observation_space(self.agent)
            self.observation_space = spaces["observation"] if self.box else spaces
            self.action_space = self.game.action_space(self.agent)
            self.others: dict[int, Agent] = {}
            self.game._quiet = frozenset(range(rules.players)) - {seat}

        def __reduce__(self) -> tuple[Any, ...]:
            for agent in self.others.values():
                if isinstance(agent, ProcessAgent):
                    raise TypeError(
                        "an environment whose opponent is a process bot (ProcessAgent) does "
                        "not pickle: its program runs in a process of its own, which a copy "
                        "cannot share"
                    )
            return (_new_single, (), dict(self.__dict__))

        def _play_others(self) -> None:
            game = self.game
            state = game._game
            while state.result is None and state.current_player != self.seat:
                if game._illegal is not None:
                    return
                who = state.current_player
                game._act(self.others[who](state.view(who)))
                state = game._game

        def _observation(self) -> Any:
            if self.box:
                game = self.game
                game.observer.write(game._game, game._buffer, self.seat)
                return game._array.copy()
            return self.game.observe(self.agent)

        def _info(self) -> dict[str, Any]:
            info: dict[str, Any] = self.game.infos[self.agent]  # a fresh dict at every step
            return info

        def action_masks(self) -> Any:
            """The seat's legal ids as a boolean array over every id (all False once the
            deal is over): sb3-contrib's ``MaskablePPO`` calls it."""
            return self.game._mask(self.seat, np.bool_)

        def reset(
            self, *, seed: int | None = None, options: dict[str, Any] | None = None
        ) -> tuple[Any, dict[str, Any]]:
            super().reset(seed=seed)
            redeals = 0
            while True:
                self.game._deal(int(self.np_random.integers(2**31)))
                self.others = {  # each seed drawn apart from the deal's: none rebuilds the deck
                    p: self.opponent(int(self.np_random.integers(2**31)))
                    for p in range(len(self.game.possible_agents))
                    if p != self.seat
                }
                self._play_others()
                if self.game._game.result is None:
                    break
                redeals += 1  # the others ended the deal first: deal the next one
            info = dict(self._info())
            info["redeals"] = redeals
            if self.render_mode == "human":
                print(self.game.render())
            return self._observation(), info

        def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            game = self.game
            game.step(int(action))
            self._play_others()
            agent = self.agent
            done = game.terminations[agent]
            cut = game.truncations[agent]
            reward = float(game.rewards[agent]) if done or cut else 0.0
            if self.render_mode == "human":
                print(game.render())
            return self._observation(), reward, done, cut, self._info()

        def render(self) -> str | None:
            if self.render_mode == "human":
                print(self.game.render())
                return None
            rendered: str | None = self.game.render()
            return rendered

    _SINGLE.append(SingleAgentEnv)
    return SingleAgentEnv
