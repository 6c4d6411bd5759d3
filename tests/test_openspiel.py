"""The OpenSpiel adapter (`conquian.openspiel`): conformance and OpenSpiel's own bots.

Skipped when ``pyspiel`` is not installed (the ``[openspiel]`` extra); CI installs it.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from conquian import ActionSpace, ConquianRules, CooncanRules, PlayerView  # noqa: E402
from conquian import openspiel as conquian_openspiel  # noqa: E402

GAMES = [
    ("conquian_two_hand", {}),
    ("conquian_two_hand", {"pack": "american", "hand_size": 8, "max_sequence": 5}),
    ("conquian_three_hand", {"turn_limit": 20}),
    ("conquian_three_hand", {"jokers": 1, "stock": "open", "players": 2, "turn_limit": 20}),
    ("conquian_double_pack", {"players": 5, "turn_limit": 12}),
]


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    conquian_openspiel.register()
    conquian_openspiel.register()  # a second call does nothing


def _dealt(game: object, seed: int) -> object:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


class RestartableISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS bot, which `evaluate_bots` can restart."""

    def restart_at(self, state: object) -> None:
        self.reset()

    def inform_action(self, state: object, player: int, action: int) -> None:
        pass


@pytest.mark.parametrize(("name", "values"), GAMES)
def test_random_sim_test(name: str, values: dict[str, object]) -> None:
    """OpenSpiel's own conformance check plays random deals of each game."""
    game = pyspiel.load_game(name, values)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "values"), GAMES)
def test_parameters_are_the_rules_options(name: str, values: dict[str, object]) -> None:
    """Game parameters round-trip to the rules; actions are numbered by ActionSpace."""
    game = pyspiel.load_game(name, values)
    rules = conquian_openspiel.rules_of(name, game.get_parameters())
    assert conquian_openspiel.params(rules) == game.get_parameters()
    state = _dealt(game, 1)
    space = ActionSpace(rules)
    assert game.num_distinct_actions() == len(space)
    view = state.view(state.current_player())
    assert sorted(space.ids(view)) == state.legal_actions()


@pytest.mark.parametrize(("name", "values"), GAMES[::2])
def test_information_state_and_resampling(name: str, values: dict[str, object]) -> None:
    """C6: the information state is the view's JSON; a resampled state has the same one,
    and the observation tensor is the view's observation."""
    game = pyspiel.load_game(name, values)
    state = _dealt(game, 2)
    rng = random.Random(2)
    for _ in range(12):
        if state.is_terminal():
            break
        player = state.current_player()
        info = state.information_state_string(player)
        assert PlayerView.from_json(info) == state.view(player)
        assert list(state.observation_tensor(player)) == pytest.approx(
            state.view(player).observation()
        )
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
        assert sample.information_state_string(player) == info
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "values"), GAMES[::2])
def test_openspiel_bots_decide(name: str, values: dict[str, object]) -> None:
    """A few decisions of OpenSpiel's ISMCTSBot and MCTSBot are legal actions."""
    game = pyspiel.load_game(name, values)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    searchers = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2)),
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(3)),
    ]
    state = _dealt(game, 3)
    for k in range(4):
        if state.is_terminal():
            break
        action = searchers[k % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_evaluate_bots_against_the_heuristic() -> None:
    """`evaluate_bots` plays IS-MCTS against `HeuristicAgent` (as a pyspiel bot) to the end
    of a two-hand deal: the returns are one counter won and lost, or a tableau (T13)."""
    rules = ConquianRules()
    game = conquian_openspiel.load(rules)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(4))
    bots = [
        RestartableISMCTS(game, evaluator, 2.0, 6, random_state=np.random.RandomState(4)),
        conquian_openspiel.heuristic_bot(game, 1, seed=4),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_cooncan_needs_a_turn_limit() -> None:
    """M11: OpenSpiel needs bounded games, so a Cooncan game without turn limit is refused."""
    with pytest.raises(ValueError, match="turn_limit"):
        conquian_openspiel.rules_of("conquian_three_hand", {"turn_limit": 0})
    assert conquian_openspiel.rules_of("conquian_double_pack", {}) == CooncanRules.double_pack(
        turn_limit=200
    )
