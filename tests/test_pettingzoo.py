"""The PettingZoo adapter (`conquian.pettingzoo`): PettingZoo's own API and seed tests.

Skipped when ``pettingzoo`` is not installed (the ``[pettingzoo]`` extra); CI installs it.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from conquian import ActionSpace, ConquianRules, CooCanRules, CooncanRules, Rules  # noqa: E402
from conquian.encoding import Observer  # noqa: E402
from conquian.pettingzoo import env, raw_env, single_agent_env  # noqa: E402

RULES = [
    (ConquianRules(), 300),
    (ConquianRules.pagat(), 300),
    (ConquianRules(players=3), 200),
    (ConquianRules.pagat(players=4), 200),
    (ConquianRules(pack="standard"), 300),  # T20: the full pack
    (CooncanRules.three_hand(turn_limit=30), 300),
    (CooncanRules.three_hand(jokers=1, stock="open", turn_limit=30), 200),
    (CooncanRules.double_pack(players=4, turn_limit=6), 40),
    (CooCanRules(players=3, turn_limit=20), 100),
    (ConquianRules(trades=2), 200),
    (ConquianRules(players=3, trades=1), 150),
]
IDS = [
    "two-hand",
    "pagat",
    "three-seats",
    "four-seats-pagat",
    "full-pack",
    "three-hand",
    "three-hand-joker",
    "double-pack",
    "coo-can",
    "two-hand-trades",
    "three-seats-trades",
]

# PettingZoo warns that a dict observation (observation and action mask) is not a Box: the
# masked form is the one its own classic games use.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("rules", "cycles"), RULES, ids=IDS)
def test_api_test(rules: Rules, cycles: int) -> None:
    """PettingZoo's conformance test passes for each game (its random agent needs the dense
    mask, so the mask is on here even where it is off by default)."""
    api_test(
        env(rules, render_mode="ansi", action_mask=True), num_cycles=cycles, verbose_progress=False
    )


def test_api_test_skip_forced() -> None:
    """PettingZoo's conformance test passes with single-choice decisions skipped."""
    api_test(env(ConquianRules(), skip_forced=True), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize(("rules", "cycles"), RULES, ids=IDS)
def test_seed_test(rules: Rules, cycles: int) -> None:
    """PettingZoo's seed test: the same seed gives the same deal and observations (C7)."""
    seed_test(lambda: env(rules, action_mask=True), num_cycles=cycles)


def _play(game: object, seed: int, check: object = None) -> None:
    """A deal of random legal ids (from ``info["legal_ids"]``), `check` called per step."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)  # type: ignore[attr-defined]
    for agent in game.agent_iter():  # type: ignore[attr-defined]
        obs, _reward, terminated, truncated, info = game.last()  # type: ignore[attr-defined]
        if terminated or truncated:
            game.step(None)  # type: ignore[attr-defined]
            continue
        if check is not None:
            check(game, agent, obs, info)  # type: ignore[operator]
        game.step(int(rng.choice(info["legal_ids"])))  # type: ignore[attr-defined]


def test_observations_carry_the_mask_and_the_legal_ids() -> None:
    """The action mask has a 1 exactly at the ids of the legal actions, which
    ``info["legal_ids"]`` lists in increasing order; observations stay in their space."""
    rules = CooncanRules.three_hand(turn_limit=20)
    game = env(rules)
    space = ActionSpace(rules)
    steps = []

    def check(game: object, agent: str, obs: dict[str, object], info: dict[str, object]) -> None:
        state = game.unwrapped.game_state  # type: ignore[attr-defined]
        legal = sorted(space.index(a) for a in state.legal_actions())
        assert list(info["legal_ids"]) == legal  # type: ignore[call-overload]
        assert list(np.flatnonzero(obs["action_mask"])) == legal
        assert game.observation_space(agent).contains(obs)  # type: ignore[attr-defined]
        assert game.unwrapped.possible_agents.index(agent) == state.current_player  # type: ignore[attr-defined]
        steps.append(agent)

    _play(game, 5, check)
    assert steps and game.unwrapped.game_state.result is not None


MASKED = [
    (ConquianRules(), 4),
    (ConquianRules.pagat(players=3), 3),
    (ConquianRules.hoyle(players=4), 3),
    (CooncanRules.three_hand(turn_limit=30), 2),
    (CooncanRules.three_hand(players=2, jokers=1, stock="open", turn_limit=30), 2),
    (CooCanRules(players=4, turn_limit=20), 1),
    (CooncanRules.double_pack(players=4, turn_limit=3), 1),
]


@pytest.mark.parametrize(
    ("rules", "deals"),
    MASKED,
    ids=["two-hand", "three-seats", "four-seats", "three-hand", "joker", "coo-can", "double"],
)
def test_dense_mask_is_the_action_space_mask(rules: Rules, deals: int) -> None:
    """On every state of seeded random deals, each agent's ``action_mask`` is
    `ActionSpace.mask` of its seat's view: the legal ids for the seat to act (E1), none for
    the others (C6). An observation handed out is never changed by later steps."""
    game = env(rules, action_mask=True)
    space = ActionSpace(rules)
    kept: list[tuple[object, bytes, bytes]] = []

    def check(game: object, agent: str, obs: dict[str, object], info: dict[str, object]) -> None:
        state = game.unwrapped.game_state  # type: ignore[attr-defined]
        seats = game.unwrapped.possible_agents  # type: ignore[attr-defined]
        # Double pack: 1.8 million ids, so the seat to act only (ActionSpace.mask is a tuple).
        others = seats if len(space) <= 50_000 else [agent]
        for other in others:
            mask = game.observe(other)["action_mask"]  # type: ignore[attr-defined]
            plain = space.mask(state.view(seats.index(other)))
            assert mask.dtype == np.int8 and mask.shape == (len(space),)
            assert mask.tobytes() == bytes(plain)
        mask, observation = obs["action_mask"], obs["observation"]
        kept.append((obs, mask.tobytes(), observation.tobytes()))  # type: ignore[attr-defined]

    for seed in range(deals):
        _play(game, seed, check)
    assert kept
    for obs, mask, observation in kept:  # handed out earlier: as they were then
        assert obs["action_mask"].tobytes() == mask  # type: ignore[index]
        assert obs["observation"].tobytes() == observation  # type: ignore[index]


def test_double_pack_has_sparse_ids_and_no_dense_mask() -> None:
    """The double pack (1.8 million ids) gives no dense mask by default: the legal ids
    come in ``info``, and each is a legal action of the deal."""
    rules = CooncanRules.double_pack(players=4, turn_limit=8)
    game = env(rules)
    space = ActionSpace(rules)
    assert "action_mask" not in game.observation_space("player_0").spaces

    def check(game: object, agent: str, obs: dict[str, object], info: dict[str, object]) -> None:
        assert set(obs) == {"observation"}
        state = game.unwrapped.game_state  # type: ignore[attr-defined]
        ids = info["legal_ids"]
        assert {space.action(i) for i in ids} == set(state.legal_actions())  # type: ignore[attr-defined]

    _play(game, 2, check)


@pytest.mark.parametrize("normalize", [True, False])
def test_observation_space_has_true_bounds(normalize: bool) -> None:
    """The observation space is bounded (no infinity): [0, 1] normalised, else the raw
    counts' maxima; every observation of random deals lies inside."""
    rules = ConquianRules()
    game = env(rules, normalize=normalize)
    box = game.observation_space("player_0")["observation"]
    assert np.isfinite(box.high).all()
    assert (box.high == 1.0).all() == normalize
    assert box.high.max() == (1.0 if normalize else 20.0)  # the stock after the deal

    def check(game: object, agent: str, obs: dict[str, object], info: dict[str, object]) -> None:
        assert box.contains(obs["observation"])

    for seed in range(3):
        _play(game, seed, check)


def test_observation_is_the_observer_of_the_state() -> None:
    """The env's observation is `Observer(rules, normalize=True)` of the deal's state, and
    raw (``normalize=False``) the view's `observation()`; each is a fresh array."""
    game = raw_env(ConquianRules(), normalize=False)
    game.reset(seed=11)
    first = game.observe("player_0")["observation"]
    view = game.game_state.view(0)
    assert tuple(first) == view.observation()
    game.step(game.infos[game.agent_selection]["legal_ids"][0])
    assert tuple(first) == view.observation()  # not overwritten by the next observation
    normal = raw_env(ConquianRules())
    normal.reset(seed=11)
    observer = Observer(ConquianRules(), normalize=True)
    buf = observer.buffer()
    observer.write(normal.game_state, buf, 1)
    assert np.array_equal(normal.observe("player_1")["observation"], np.frombuffer(buf, np.float32))


def test_skip_forced_applies_single_choices() -> None:
    """``skip_forced=True``: no agent is asked a decision with one legal action, the
    deal still ends with its payments as rewards, and fewer steps are asked."""
    rules = ConquianRules()
    asked = {True: 0, False: 0}
    for skip in (True, False):
        game = env(rules, skip_forced=skip)

        for seed in range(4):
            totals = dict.fromkeys(game.possible_agents, 0.0)
            game.reset(seed=seed)
            rng = np.random.default_rng(seed)
            for agent in game.agent_iter():
                _obs, reward, terminated, truncated, info = game.last()
                totals[agent] += reward
                if terminated or truncated:
                    game.step(None)
                    continue
                if skip:
                    assert len(info["legal_ids"]) >= 2
                asked[skip] += 1
                game.step(int(rng.choice(info["legal_ids"])))
            result = game.unwrapped.game_state.result
            assert [totals[a] for a in game.possible_agents] == [float(p) for p in result.payments]
    assert asked[True] < asked[False]


def test_state_is_the_global_state() -> None:
    """``env.state()`` is PettingZoo's global state: every seat's observation, seat 0
    first, in `state_space`; ``game_state`` is the library's state."""
    rules = CooncanRules.three_hand(turn_limit=10)
    game = env(rules)
    game.reset(seed=3)
    whole = game.state()
    assert game.unwrapped.state_space.contains(whole)
    size = len(game.observe("player_0")["observation"])
    for p, agent in enumerate(game.possible_agents):
        part = whole[p * size : (p + 1) * size]
        assert np.array_equal(part, game.observe(agent)["observation"])
    assert game.unwrapped.game_state.rules == rules


def test_single_agent_env_plays_a_deal() -> None:
    """The Gymnasium wrapper: one seat against `HeuristicAgent`, to the end of a deal."""
    one = single_agent_env(ConquianRules(), seat=1)
    obs, info = one.reset(seed=3)
    assert one.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    for _ in range(500):
        obs, reward, terminated, _truncated, info = one.step(int(rng.choice(info["legal_ids"])))
        if terminated:
            assert reward in (-1.0, 0.0, 1.0)
            return
        assert list(info["legal_ids"]) == list(np.flatnonzero(obs["action_mask"]))
    pytest.fail("the deal did not end")


def test_single_agent_reset_never_returns_a_finished_deal() -> None:
    """Regression: with seed 4585 the heuristic seat 1 goes out before seat 0's first
    decision in the first deal drawn; `reset` deals the next one instead of handing
    over a finished deal (an all-zero mask, whose next step raised)."""
    one = single_agent_env(ConquianRules(), seat=0)
    obs, info = one.reset(seed=4585)
    assert info["redeals"] == 1
    assert one.game.game_state.result is None
    assert one.game.game_state.current_player == 0
    assert obs["action_mask"].any() and len(info["legal_ids"]) > 0
    one.step(info["legal_ids"][0])  # raised before the fix
    _obs, info = one.reset(seed=4586)
    assert info["redeals"] == 0


def test_single_agent_skip_forced() -> None:
    """The Gymnasium wrapper with ``skip_forced=True`` asks only real choices."""
    one = single_agent_env(ConquianRules(), seat=0, skip_forced=True)
    for seed in range(3):
        _obs, info = one.reset(seed=seed)
        rng = np.random.default_rng(seed)
        terminated = False
        while not terminated:
            assert len(info["legal_ids"]) >= 2
            action = int(rng.choice(info["legal_ids"]))
            _obs, reward, terminated, _truncated, info = one.step(action)
        assert reward in (-1.0, 0.0, 1.0)


def test_coo_can_has_a_dense_mask_and_plays_single_agent() -> None:
    """Coo-Can's 9,222 ids (`conquian.coocan.ids`) are under `DENSE_MASK_LIMIT`: the mask is
    in the observation and is the engine's own `ActionIds.mask` of the legal actions; the
    Gymnasium wrapper plays a deal to its end against the heuristic, rewards its payments."""
    from conquian.coocan.ids import ActionIds
    from conquian.pettingzoo import DENSE_MASK_LIMIT

    rules = CooCanRules(players=3, turn_limit=60)
    assert len(ActionSpace(rules)) == len(ActionIds()) == 9_222 <= DENSE_MASK_LIMIT
    one = single_agent_env(rules, seat=1)
    obs, info = one.reset(seed=3)
    assert one.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    for _ in range(500):
        view = one.game.game_state.view(1)
        assert tuple(obs["action_mask"]) == ActionIds().mask(view.legal_actions)
        assert list(info["legal_ids"]) == list(np.flatnonzero(obs["action_mask"]))
        obs, reward, terminated, truncated, info = one.step(int(rng.choice(info["legal_ids"])))
        assert one.observation_space.contains(obs)
        if terminated or truncated:  # truncated at the turn limit (K8)
            assert reward == one.game.game_state.result.payments[1]
            assert truncated == (info["outcome"] == "abandoned") != terminated
            return
    pytest.fail("the deal did not end")


GAMES = [
    ConquianRules(),
    CooncanRules.three_hand(turn_limit=30),
    CooncanRules.double_pack(players=4, turn_limit=6),
    CooCanRules(players=3, turn_limit=20),
]
GAME_IDS = ["two-hand", "three-hand", "double-pack", "coo-can"]


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_render_test(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's ``render_test`` passes for every game, in ``"human"`` (prints the
    diagram, returns None) and ``"ansi"`` (returns it). Where the observation has no mask
    (the double pack) it samples ids: the illegal ones end the deal (a loss)."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env(rules, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert "seat 0" in printed
    table = env(rules, render_mode="ansi")
    table.reset(seed=1)
    assert table.render() == str(table.unwrapped.game_state)


def _raw_deal(rules: Rules, seed: int, **options: object) -> object:
    game = raw_env(rules, **options)
    _play(game, seed)
    return game


def test_an_illegal_id_ends_the_deal_as_a_loss() -> None:
    """The AEC env's documented answer to an illegal id (PettingZoo's classic convention):
    the agent that played it loses what a seat can lose most (one counter, T13), the
    others get 0 and the outcome "abandoned", every agent is terminated and every info
    names the id; ``illegal="raise"`` raises and leaves the deal as it was."""
    game = env(ConquianRules())
    game.reset(seed=4)
    agent = game.agent_selection
    legal = game.last()[4]["legal_ids"]
    wrong = next(i for i in range(4247) if i not in legal)
    game.step(wrong)
    other = next(a for a in game.possible_agents if a != agent)
    assert game.terminations == {agent: True, other: True}
    assert not any(game.truncations.values())
    assert game._cumulative_rewards == {agent: -1.0, other: 0.0}
    assert game.infos[agent] == {"legal_ids": (), "outcome": "loss", "illegal": wrong}
    assert game.infos[other] == {"legal_ids": (), "outcome": "abandoned", "illegal": wrong}
    assert not game.observe(agent)["action_mask"].any()
    for _agent in game.agent_iter():
        assert game.last()[2]
        game.step(None)
    strict = env(ConquianRules(), illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(ValueError, match=f"action id {wrong} is not legal now"):
        strict.step(wrong)
    assert strict.unwrapped.game_state.history == ()
    with pytest.raises(ValueError, match="illegal must be one of"):
        env(ConquianRules(), illegal="ignore")


def test_turn_limit_truncates_every_agent() -> None:
    """M11: a deal stopped at the turn limit is abandoned: every agent truncated, not
    terminated, reward 0, ``info["outcome"] == "abandoned"``."""
    game = _raw_deal(CooncanRules.three_hand(turn_limit=3), 2)
    assert game.game_state.result.outcome == "abandoned"  # type: ignore[attr-defined]
    agents = game.possible_agents  # type: ignore[attr-defined]
    assert not game.terminations and not game.truncations  # type: ignore[attr-defined]
    again = raw_env(CooncanRules.three_hand(turn_limit=3))
    again.reset(seed=2)
    rng = np.random.default_rng(2)
    while again.game_state.result is None:
        again.step(int(rng.choice(again.infos[again.agent_selection]["legal_ids"])))
    assert again.truncations == dict.fromkeys(agents, True)
    assert again.terminations == dict.fromkeys(agents, False)
    assert {a: i["outcome"] for a, i in again.infos.items()} == dict.fromkeys(agents, "abandoned")
    assert set(again.rewards.values()) == {0.0}


def test_outcomes_of_a_won_deal() -> None:
    """The winner's final info says "win", every other seat's "loss" (M7: they pay)."""
    rules = CooncanRules.three_hand(turn_limit=200)
    for seed in range(20):
        game = raw_env(rules)
        game.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while game.game_state.result is None:
            game.step(int(rng.choice(game.infos[game.agent_selection]["legal_ids"])))
        result = game.game_state.result
        if result.outcome == "win":
            outcomes = [game.infos[a]["outcome"] for a in game.possible_agents]
            assert outcomes == ["win" if p == result.winner else "loss" for p in range(3)]
            assert all(game.terminations.values()) and not any(game.truncations.values())
            return
    pytest.fail("no deal was won")


def test_scaled_reward_and_coo_can_turn_limit_default() -> None:
    """``reward="scaled"`` divides the payments by `reward_scale` (Coo-Can's: two stakes on
    ten cards of ten spots, K9, from each other seat); Coo-Can rules with no turn limit
    play with `TURN_LIMIT` turns (K8), so a random deal ends."""
    from conquian.pettingzoo import TURN_LIMIT, reward_scale

    game = raw_env(CooCanRules(players=2), reward="scaled")
    assert game.rules == CooCanRules(players=2, turn_limit=TURN_LIMIT)
    game.reset(seed=1)
    rng = np.random.default_rng(1)
    while game.game_state.result is None:
        game.step(int(rng.choice(game.infos[game.agent_selection]["legal_ids"])))
    scale = reward_scale(game.rules)
    assert scale == 2 * (game.rules.game_stake + 100 * game.rules.spot_stake)
    paid = game.game_state.result.payments
    assert [game.rewards[a] for a in game.possible_agents] == [p / scale for p in paid]
    assert all(-1.0 <= r <= 1.0 for r in game.rewards.values())


@pytest.mark.parametrize("rules", GAMES, ids=GAME_IDS)
def test_pickle_and_deepcopy_of_the_aec_env(rules: Rules) -> None:
    """The wrapped and the raw AEC env pickle and deep-copy in the middle of a deal; each
    copy plays on as the original (the same observations, rewards and ends)."""
    import copy
    import pickle

    game = env(rules)
    game.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(5):
        game.step(int(rng.choice(game.last()[4]["legal_ids"])))
    copies = [
        pickle.loads(pickle.dumps(game)),
        copy.deepcopy(game),
        pickle.loads(pickle.dumps(game.unwrapped)),
    ]
    choices = [int(k) for k in rng.integers(1 << 30, size=400)]
    runs = []
    for table in [game, *copies]:
        run = []
        for k, agent in zip(choices, table.agent_iter(), strict=False):
            obs, reward, terminated, truncated, info = table.last()
            run.append((agent, obs["observation"].tobytes(), reward, terminated, truncated))
            ids = info["legal_ids"]
            table.step(None if terminated or truncated else ids[k % len(ids)])
        runs.append(run)
    assert runs[0] == runs[1] == runs[2] == runs[3]


def test_one_action_space_per_rules() -> None:
    """One `ActionSpace` per rules object: environments of equal rules share it, and five
    double-pack environments take at most 10 MiB together (one space of about 4.6 MiB; the
    pattern tables behind it, shared by every double pack, are built before)."""
    import gc
    import tracemalloc

    from conquian import encoding

    rules = CooncanRules.double_pack(players=4, turn_limit=50)
    encoding._patterns(rules)  # the tables of every double pack, made once
    encoding._shared_space.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tables = [raw_env(rules) for _ in range(5)]
        for table in tables:
            table.reset(seed=1)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len({id(t.space) for t in tables}) == 1
    assert tables[0].space is ActionSpace.of(CooncanRules.double_pack(players=4, turn_limit=50))
    assert used <= 10 * 2**20, used / 2**20
