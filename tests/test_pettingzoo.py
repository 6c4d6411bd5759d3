"""The PettingZoo adapter (`conquian.pettingzoo`): PettingZoo's own API and seed tests.

Skipped when ``pettingzoo`` is not installed (the ``[pettingzoo]`` extra); CI installs it.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from conquian import ActionSpace, ConquianRules, CooncanRules, Rules  # noqa: E402
from conquian.pettingzoo import env, single_agent_env  # noqa: E402

RULES = [
    (ConquianRules(), 300),
    (ConquianRules.pagat(), 300),
    (CooncanRules.three_hand(jokers=1, stock="open", turn_limit=30), 300),
    (CooncanRules.double_pack(players=4, turn_limit=6), 40),
]

# PettingZoo warns that a dict observation (observation and action mask) is not a Box: the
# masked form is the one its own classic games use.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("rules", "cycles"), RULES)
def test_api_test(rules: Rules, cycles: int) -> None:
    """PettingZoo's conformance test passes for each game."""
    api_test(env(rules, render_mode="ansi"), num_cycles=cycles, verbose_progress=False)


@pytest.mark.parametrize(("rules", "cycles"), RULES)
def test_seed_test(rules: Rules, cycles: int) -> None:
    """PettingZoo's seed test: the same seed gives the same deal and observations (C7)."""
    seed_test(lambda: env(rules), num_cycles=cycles)


def test_observations_carry_the_mask_of_legal_ids() -> None:
    """The action mask has a 1 exactly at the ids of the legal actions; rewards are the
    payments of the deal (T13)."""
    rules = CooncanRules.three_hand(turn_limit=20)
    game = env(rules)
    game.reset(seed=5)
    space = ActionSpace(rules)
    rng = np.random.default_rng(5)
    for agent in game.agent_iter():
        obs, _reward, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        state = game.unwrapped.state
        legal = {space.index(a) for a in state.legal_actions()}
        assert set(np.flatnonzero(obs["action_mask"])) == legal
        assert game.unwrapped.possible_agents.index(agent) == state.current_player
        game.step(int(rng.choice(sorted(legal))))
    result = game.unwrapped.state.result
    assert result is not None


def test_single_agent_env_plays_a_deal() -> None:
    """The Gymnasium wrapper: one seat against `HeuristicAgent`, to the end of a deal."""
    one = single_agent_env(ConquianRules(), seat=1)
    obs, _ = one.reset(seed=3)
    assert one.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    for _ in range(500):
        obs, reward, terminated, _truncated, _ = one.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated:
            assert reward in (-1.0, 0.0, 1.0)
            return
    pytest.fail("the deal did not end")
