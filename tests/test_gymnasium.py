"""The Gymnasium ids (`conquian.gymnasium`), checked with Gymnasium's own clients: ``make``,
``check_env``, ``AsyncVectorEnv`` with spawned workers, and sb3-contrib's ``MaskablePPO``.

Skipped without the ``[pettingzoo]`` extra (Gymnasium, numpy); the sb3-contrib test without
the ``[learn]`` extra. CI installs both.
"""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import textwrap
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import conquian.gymnasium  # noqa: E402
from conquian import (  # noqa: E402
    ActionSpace,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    HeuristicAgent,
    RandomAgent,
)
from conquian.agents import ProcessAgent  # noqa: E402
from conquian.pettingzoo import TURN_LIMIT, loss_bound, reward_scale  # noqa: E402

IDS = list(conquian.gymnasium.IDS)
OUTCOMES = {"win", "loss", "tableau", "abandoned"}


def _play(env: Any, seed: int, limit: int = 2000) -> list[tuple[Any, ...]]:
    """A deal of random legal ids from ``info["legal_ids"]``: every step's returns."""
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    steps = []
    for _ in range(limit):
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(info["legal_ids"])))
        steps.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            return steps
    pytest.fail("the deal did not end")


def test_import_conquian_stays_free_of_gymnasium() -> None:
    """``import conquian`` imports no framework; the prefixed id imports the module itself."""
    code = textwrap.dedent(
        """
        import sys
        import conquian
        assert not {"gymnasium", "pettingzoo", "pyspiel", "numpy"} & set(sys.modules)
        import gymnasium
        env = gymnasium.make("conquian.gymnasium:conquian/Conquian-v0")
        obs, info = env.reset(seed=1)
        print(type(env.unwrapped).__name__, obs.shape, "conquian/CooCan-v0" in gymnasium.registry)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["SingleAgentEnv", "(467,)", "True"]


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id: str) -> None:
    """Gymnasium's ``check_env`` passes on ``gymnasium.make(id).unwrapped`` for every id: the
    seeded resets and steps repeat (the deal and the other seats' agents are drawn from
    ``reset(seed=)``), the ids it samples are answered (an illegal id loses the deal), and
    both render modes work (the human mode prints)."""
    env = gymnasium.make(env_id)
    check_env(env.unwrapped)
    assert env.unwrapped.spec.id == env_id
    assert env.unwrapped.metadata["render_modes"] == ["human", "ansi"]


@pytest.mark.parametrize(
    ("env_id", "rules"),
    [
        ("conquian/Conquian-v0", ConquianRules()),
        ("conquian/ThreeHand-v0", CooncanRules.three_hand(turn_limit=TURN_LIMIT)),
        ("conquian/DoublePack-v0", CooncanRules.double_pack(turn_limit=TURN_LIMIT)),
        ("conquian/CooCan-v0", CooCanRules(turn_limit=TURN_LIMIT)),
    ],
)
def test_each_id_plays_its_game_with_a_turn_limit(env_id: str, rules: object) -> None:
    """Each id's default rules are its game's, with `TURN_LIMIT` turns for Cooncan and
    Coo-Can (M11, K8), so that random play ends; the observation is a ``Box``."""
    env = gymnasium.make(env_id, opponent=RandomAgent)
    assert env.unwrapped.game.rules == rules
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    assert env.action_space.n == len(ActionSpace(rules))  # type: ignore[arg-type]


def test_rules_of_another_game_are_refused() -> None:
    """An id takes rules of its own game only."""
    with pytest.raises(ValueError, match="three-hand takes rules of its own game"):
        gymnasium.make("conquian/ThreeHand-v0", rules=ConquianRules())
    with pytest.raises(ValueError, match="coo-can takes rules"):
        gymnasium.make("conquian/CooCan-v0", rules=CooncanRules.double_pack())


def test_arguments_reach_the_environment() -> None:
    """``rules=``, ``opponent=``, ``seat=`` and the options of ``single_agent_env``."""
    rules = ConquianRules.pagat(players=3)
    env = gymnasium.make(
        "conquian/Conquian-v0", rules=rules, opponent=RandomAgent, seat=2, skip_forced=True
    )
    obs, info = env.reset(seed=4)
    inner = env.unwrapped
    assert inner.game.rules == rules and inner.seat == 2 and inner.game.skip_forced
    assert all(isinstance(a, RandomAgent) for a in inner.others.values())
    assert sorted(inner.others) == [0, 1]
    assert inner.game.game_state.current_player == 2
    assert len(info["legal_ids"]) >= 2  # skip_forced: a real choice
    as_dict = gymnasium.make("conquian/Conquian-v0", observation="dict")
    obs, _info = as_dict.reset(seed=4)
    assert set(obs) == {"observation", "action_mask"}
    with pytest.raises(ValueError, match="observation must be one of"):
        gymnasium.make("conquian/Conquian-v0", observation="image")


@pytest.mark.parametrize("env_id", ["conquian/Conquian-v0", "conquian/CooCan-v0"])
def test_action_masks_are_the_legal_ids(env_id: str) -> None:
    """``action_masks()`` is True exactly at ``info["legal_ids"]``, reached through the
    wrappers of ``make`` as sb3-contrib does (``get_wrapper_attr``), all False at the end."""
    env = gymnasium.make(env_id, opponent=RandomAgent, rules=None)
    masks = env.get_wrapper_attr("action_masks")
    rng = np.random.default_rng(2)
    _obs, info = env.reset(seed=2)
    for _ in range(400):
        mask = masks()
        assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
        assert list(np.flatnonzero(mask)) == list(info["legal_ids"])
        _obs, _r, terminated, truncated, info = env.step(int(rng.choice(info["legal_ids"])))
        if terminated or truncated:
            assert not masks().any()
            return
    pytest.fail("the deal did not end")


def test_turn_limit_truncates() -> None:
    """A deal cut by ``turn_limit`` (Coo-Can K8, random play) is truncated, not terminated,
    with reward 0 and ``info["outcome"] == "abandoned"``."""
    env = gymnasium.make(
        "conquian/CooCan-v0", rules=CooCanRules(turn_limit=12), opponent=RandomAgent
    )
    *_, (_obs, reward, terminated, truncated, info) = _play(env, 3)
    assert (terminated, truncated, reward) == (False, True, 0.0)
    assert info["outcome"] == "abandoned"
    assert env.unwrapped.game.game_state.result.outcome == "abandoned"


@pytest.mark.parametrize("env_id", ["conquian/Conquian-v0", "conquian/ThreeHand-v0"])
def test_every_final_step_names_its_outcome(env_id: str) -> None:
    """``info["outcome"]`` is on every final step and only there, and agrees with the
    reward: a win pays, a loss costs, a tableau (T12) and an abandoned deal pay nothing."""
    env = gymnasium.make(env_id, opponent=HeuristicAgent)
    seen = set()
    for seed in range(6):
        steps = _play(env, seed)
        assert all("outcome" not in info for *_, info in steps[:-1])
        _obs, reward, terminated, truncated, info = steps[-1]
        outcome = info["outcome"]
        assert outcome in OUTCOMES and truncated == (outcome == "abandoned") != terminated
        assert (reward > 0, reward < 0) == (outcome == "win", outcome == "loss")
        seen.add(outcome)
    assert "win" in seen or "loss" in seen


def test_an_illegal_id_loses_the_deal() -> None:
    """The documented answer to an illegal id: the deal ends, terminated, the seat's reward
    the most a seat can lose (one counter, T13), ``info`` naming the id and the loss; with
    ``illegal="raise"``, a `ValueError` instead and the deal goes on."""
    env = gymnasium.make("conquian/Conquian-v0")
    _obs, info = env.reset(seed=5)
    wrong = next(i for i in range(env.action_space.n) if i not in info["legal_ids"])
    _obs, reward, terminated, truncated, info = env.step(wrong)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info == {"legal_ids": (), "outcome": "loss", "illegal": wrong}
    assert not env.unwrapped.action_masks().any()
    strict = gymnasium.make("conquian/Conquian-v0", illegal="raise")
    _obs, info = strict.reset(seed=5)
    with pytest.raises(ValueError, match=f"action id {wrong} is not legal now"):
        strict.step(wrong)
    strict.step(info["legal_ids"][0])  # the deal goes on


def test_scaled_rewards_lie_in_the_unit_interval() -> None:
    """``reward="scaled"``: the payment divided by `reward_scale`, the most a deal pays one
    seat (three-hand: 2 × 15 × 7 = 210 pips, M7); an illegal id costs `loss_bound` scaled."""
    rules = CooncanRules.three_hand(turn_limit=60)
    assert reward_scale(rules) == 210.0 and loss_bound(rules) == 105.0
    env = gymnasium.make("conquian/ThreeHand-v0", rules=rules, reward="scaled")
    paid = []
    for seed in range(5):
        *_, (_obs, reward, _t, _u, _info) = _play(env, seed)
        result = env.unwrapped.game.game_state.result
        assert reward == result.payments[0] / 210.0 and -1.0 <= reward <= 1.0
        paid.append(reward)
    assert any(paid)
    env.reset(seed=1)
    _obs, reward, *_ = env.step(env.action_space.n - 1)
    assert reward == -0.5


@pytest.mark.parametrize("env_id", IDS)
def test_pickle_and_deepcopy_play_on_as_the_original(env_id: str) -> None:
    """An environment pickled or deep-copied in the middle of a deal plays on exactly as
    the original: the same observations, rewards and ends for the same ids."""
    env = gymnasium.make(env_id, opponent=RandomAgent)
    rng = np.random.default_rng(7)
    _obs, info = env.reset(seed=7)
    for _ in range(4):
        _obs, _r, _t, _u, info = env.step(int(rng.choice(info["legal_ids"])))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    ids = [int(i) for i in rng.integers(1 << 30, size=60)]
    runs = []
    for game in [env, *copies]:
        run, legal = [], info["legal_ids"]
        for k in ids:
            obs, reward, terminated, truncated, step_info = game.step(legal[k % len(legal)])
            run.append((obs.tobytes(), reward, terminated, truncated, step_info))
            legal = step_info["legal_ids"]
            if terminated or truncated:
                break
        runs.append(run)
    assert runs[0] == runs[1] == runs[2]


def test_pickle_loads_in_a_fresh_process(tmp_path: Any) -> None:
    """A pickled environment loads in a process that imported nothing of the library (the
    classes, made at first use, come back from `conquian.pettingzoo`)."""
    env = gymnasium.make("conquian/ThreeHand-v0", opponent=HeuristicAgent)
    _obs, info = env.reset(seed=3)
    path = tmp_path / "env.pickle"
    path.write_bytes(pickle.dumps(env.unwrapped))
    expected = env.step(info["legal_ids"][0])
    code = textwrap.dedent(
        f"""
        import pickle
        env = pickle.loads(open({str(path)!r}, "rb").read())
        obs, reward, terminated, truncated, info = env.step({info["legal_ids"][0]})
        print(obs.tobytes().hex(), reward, terminated, truncated, info["legal_ids"])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    obs, reward, terminated, truncated, step_info = expected
    line = f"{obs.tobytes().hex()} {reward} {terminated} {truncated} {step_info['legal_ids']}"
    assert done.stdout.strip() == line


def test_a_process_bot_opponent_refuses_to_pickle() -> None:
    """An environment whose other seats are process bots says why it does not pickle."""
    env = gymnasium.make("conquian/Conquian-v0")
    env.reset(seed=1)
    env.unwrapped.others = {1: ProcessAgent([sys.executable, "-c", "pass"])}
    with pytest.raises(TypeError, match="process bot"):
        pickle.dumps(env)


def test_human_and_ansi_render_the_diagram(capsys: pytest.CaptureFixture[str]) -> None:
    """``"ansi"`` returns the diagram of the deal; ``"human"`` prints it at each decision
    of the seat and returns None."""
    ansi = gymnasium.make("conquian/Conquian-v0", render_mode="ansi")
    ansi.reset(seed=2)
    text = ansi.render()
    assert text.startswith("Two-hand Conquian") and "seat 0" in text
    human = gymnasium.make("conquian/Conquian-v0", render_mode="human")
    _obs, info = human.reset(seed=2)
    assert capsys.readouterr().out.strip() == text
    assert human.render() is None
    human.step(info["legal_ids"][0])
    assert "Two-hand Conquian" in capsys.readouterr().out


def test_async_vector_env_with_spawned_workers() -> None:
    """``AsyncVectorEnv`` with spawned workers (fresh interpreters: the prefixed id imports
    the module there) steps the dict observation; under Gymnasium's default next-step
    autoreset the step that ends a deal carries an all-zero mask (the how-to's guard)."""
    envs = gymnasium.make_vec(
        "conquian.gymnasium:conquian/Conquian-v0",
        num_envs=2,
        vectorization_mode="async",
        vector_kwargs={"context": "spawn"},
        opponent=RandomAgent,
        observation="dict",
        skip_forced=True,
    )
    try:
        obs, _info = envs.reset(seed=11)
        rng = np.random.default_rng(11)
        ended = 0
        for _ in range(400):
            mask = obs["action_mask"].astype(bool)
            mask[~mask.any(axis=1)] = True  # the guard: a finished deal's action is discarded
            actions = [int(rng.choice(np.flatnonzero(row))) for row in mask]
            obs, _r, terminated, truncated, _info = envs.step(np.array(actions))
            done = terminated | truncated
            assert not obs["action_mask"][done].any()  # the final observation: no legal id
            assert obs["action_mask"][~done].any(axis=1).all()
            ended += int(done.sum())
            if ended >= 2:
                break
        assert ended >= 2
    finally:
        envs.close()


@pytest.mark.slow  # a long statistical test: CI runs it (.ci/run)
def test_maskable_ppo_trains_without_wrappers() -> None:
    """sb3-contrib's ``MaskablePPO`` with a default ``MlpPolicy`` trains on the ids as
    ``make`` gives them (no wrapper): the mask from ``action_masks()``, the ``Box``."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # a small network: threads cost more than they give
    for env_id in ["conquian/Conquian-v0", "conquian/ThreeHand-v0", "conquian/CooCan-v0"]:
        env = gymnasium.make(env_id, opponent=RandomAgent)
        model = MaskablePPO(
            "MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu"
        )
        model.learn(32)
        obs, _info = env.reset(seed=0)
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks())
        assert env.unwrapped.action_masks()[int(action)]
