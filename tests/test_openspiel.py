"""The OpenSpiel adapter (`conquian.openspiel`): conformance and OpenSpiel's own bots.

Skipped when ``pyspiel`` is not installed (the ``[openspiel]`` extra); CI installs it.
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from conquian import (  # noqa: E402
    ActionSpace,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    PlayerView,
    new_game,
)
from conquian import openspiel as conquian_openspiel  # noqa: E402
from conquian.encoding import observation_layout  # noqa: E402

GAMES = [
    ("conquian_two_hand", {}),
    ("conquian_two_hand", {"lay_down": "turn", "max_sequence": 8}),
    ("conquian_two_hand", {"pack": "american", "hand_size": 8, "max_sequence": 5}),
    ("conquian_two_hand", {"players": 3, "hand_size": 8}),
    ("conquian_two_hand", {"players": 4, "hand_size": 7, "lay_down": "turn"}),
    ("conquian_two_hand", {"pack": "standard", "players": 3, "hand_size": 8}),  # T20
    ("conquian_three_hand", {"turn_limit": 20}),
    ("conquian_three_hand", {"jokers": 1, "stock": "open", "players": 2, "turn_limit": 20}),
    ("conquian_double_pack", {"players": 5, "turn_limit": 12}),
    ("conquian_coo_can", {"players": 3, "turn_limit": 30}),
    ("conquian_two_hand", {"trades": 2}),  # T21: trade rounds before the starter
    ("conquian_two_hand", {"players": 3, "hand_size": 8, "trades": 1}),
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


def _observer(game: object, **kinds: object) -> object:
    from open_spiel.python.observation import make_observation

    return make_observation(game, pyspiel.IIGObservationType(**kinds))


@pytest.mark.parametrize(("name", "values"), GAMES[::2])
def test_observer_honours_the_observation_type(name: str, values: dict[str, object]) -> None:
    """A public-only request gets the public observation (the same for every seat, no hand);
    the private one names its pieces as `observation_layout`; the information-state tensor
    (perfect recall) is refused with a clear error, its string is the view's JSON."""
    game = pyspiel.load_game(name, values)
    rules = conquian_openspiel.rules_of(name, game.get_parameters())
    state = _dealt(game, 4)
    public = _observer(
        game, perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    private = _observer(game, perfect_recall=False)
    seen = set()
    for player in range(game.num_players()):
        public.set_from(state, player)  # type: ignore[attr-defined]
        seen.add(public.tensor.tobytes())  # type: ignore[attr-defined]
        seen.add(public.string_from(state, player))  # type: ignore[attr-defined]
        assert '"hand":' not in public.string_from(state, player)  # type: ignore[attr-defined]
        private.set_from(state, player)  # type: ignore[attr-defined]
        hand = private.dict["hand"]  # type: ignore[attr-defined]
        copy = 0.5 if name == "conquian_coo_can" else 1.0  # Coo-Can halves the two copies
        assert hand.sum() == copy * len(state.view(player).hand)  # type: ignore[attr-defined]
    assert len(seen) == 2  # one tensor and one string for every seat
    assert len(public.tensor) == sum(n for _, n in observation_layout(rules, public=True))  # type: ignore[attr-defined]
    names = [n.replace(" ", "_") for n, _ in observation_layout(rules)]
    assert list(private.dict) == names  # type: ignore[attr-defined]
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        game.information_state_tensor_shape()
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        state.information_state_tensor(0)  # type: ignore[attr-defined]
    assert PlayerView.from_json(state.information_state_string(0)) == state.view(0)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "rules",
    [
        ConquianRules(),
        ConquianRules.pagat(),
        ConquianRules(hand_size=9),
        ConquianRules(pack="standard"),
        CooncanRules.three_hand(turn_limit=200),
        CooncanRules.double_pack(players=6, turn_limit=200),
        CooCanRules(players=2, turn_limit=200),
        CooCanRules(players=6, turn_limit=200),
    ],
    ids=[
        "two-hand",
        "pagat",
        "nine",
        "full-pack",
        "three-hand",
        "double-pack-6",
        "coo-can-2",
        "coo-can-6",
    ],
)
def test_random_deals_stay_inside_the_bounds(rules: object) -> None:
    """`max_game_length` (measured with a margin) holds for random deals, and the deal's
    chance nodes are `max_chance_nodes_in_history`: one per card of the pack."""
    game = conquian_openspiel.load(rules)
    assert game.max_chance_nodes_in_history() == len(rules.pack_cards())  # type: ignore[attr-defined]
    bound = game.max_game_length()
    longest = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)  # type: ignore[arg-type]
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        longest = max(longest, len(state.history))
    assert longest <= bound < 4 * longest  # a bound, and not a loose one
    state = _dealt(game, 9)
    assert len(state.history()) == len(rules.pack_cards())  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_coo_can_utility_bounds_every_payment(players: int) -> None:
    """K9: the worst a loser can pay is a hand of ten cards of ten spots after a Cooch
    (`conquian.coocan.tables.settle`), which is the adapter's bound; the winner takes at
    most that from each loser; random deals pay inside the bounds, and the payments sum
    to zero."""
    from conquian.cards import cards
    from conquian.coocan.tables import settle

    rules = CooCanRules(players=players, turn_limit=200, game_stake=50, spot_stake=3)
    game = conquian_openspiel.load(rules)
    worst = 2 * (50 + 3 * 10 * 10)
    assert -game.min_utility() == worst * (players - 1) == game.max_utility()
    tens = cards("KC KD KH KS KC KD KH KS QC QD")  # ten cards of ten spots (K9)
    hands = (tens,) * (players - 1) + ((),)
    paid = settle(rules, hands, players - 1, cooch=True).payments
    assert paid == (-worst,) * (players - 1) + (worst * (players - 1),)
    for seed in range(40):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            waiting = [p for p in range(players) if p != state.current_player]
            assert all(len(state.hand(p)) <= 10 for p in waiting)  # K1, K2, K3
        payments = state.result.payments  # type: ignore[union-attr]
        assert sum(payments) == 0
        assert all(-worst <= x <= worst * (players - 1) for x in payments)
    free = conquian_openspiel.load(
        CooCanRules(players=players, game_stake=0, spot_stake=0, turn_limit=50)
    )
    assert free.max_utility() == players - 1  # no stakes: a range of 1 a loser, never empty


def test_openspiel_cpp_search_bots_crash_on_python_games() -> None:
    """What the docs say: OpenSpiel's C++ MCTSBot and ISMCTSBot crash (segmentation fault)
    on games written in Python, OpenSpiel's own ``python_kuhn_poker`` as ours; the Python
    bots (`mcts`, `ismcts`) work. If this test fails, OpenSpiel fixed it: update the docs."""
    code = textwrap.dedent(
        """
        import pyspiel
        from open_spiel.python import games  # noqa: F401  (registers python_kuhn_poker)
        game = pyspiel.load_game("python_kuhn_poker")
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 10, 10, False, 1, False)
        print(bot.step(state))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=120, check=False
    )
    assert done.returncode != 0


def test_importing_the_module_registers_the_games() -> None:
    """``import conquian.openspiel`` registers the games, as OpenSpiel's Python games do:
    ``pyspiel.load_game`` knows them with no call to `register`."""
    code = textwrap.dedent(
        """
        import pyspiel
        import conquian.openspiel
        game = pyspiel.load_game("conquian_two_hand")
        print(game.num_distinct_actions(), pyspiel.load_game("conquian_coo_can").num_players())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4247", "4"]


@pytest.mark.parametrize(("name", "values"), GAMES[::3])
def test_games_and_states_pickle_and_deepcopy(name: str, values: dict[str, object]) -> None:
    """A pyspiel game pickles (loaded again by name and parameters) and so does a state in
    the middle of a deal (its history replayed); a copy, pickled or deep-copied, plays on
    as the original: the same legal actions, observations and returns. A state drawn by
    ``resample_from_infostate`` keeps its drawn position."""
    import copy
    import pickle

    game = pyspiel.load_game(name, values)
    again = pickle.loads(pickle.dumps(game))
    assert again.get_parameters() == game.get_parameters()
    assert again.get_type().short_name == name
    state = _dealt(game, 5)
    rng = random.Random(5)
    for _ in range(6):
        if not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    copies = [pickle.loads(pickle.dumps(state)), copy.deepcopy(state)]
    assert all(c.history() == state.history() for c in copies)
    choices = [rng.randrange(1 << 30) for _ in range(300)]
    runs = []
    for s in [state, *copies]:
        run = []
        for k in choices:
            if s.is_terminal():
                break
            player = s.current_player()
            legal = s.legal_actions()
            run.append((legal, s.observation_string(player)))
            s.apply_action(legal[k % len(legal)])
        runs.append((run, s.returns()))
    assert runs[0] == runs[1] == runs[2]
    drawn = _dealt(game, 6)
    drawn = drawn.resample_from_infostate(
        drawn.current_player(), pyspiel.UniformProbabilitySampler(0, 1)
    )
    loaded = pickle.loads(pickle.dumps(drawn))  # a drawn world, which its history does not reach
    assert loaded.state == drawn.state and loaded.legal_actions() == drawn.legal_actions()


def test_a_pickled_state_loads_in_a_fresh_process(tmp_path: object) -> None:
    """A pickled state loads where nothing of the library was imported (loading imports
    `conquian.openspiel`, which registers the games)."""
    import pickle
    from pathlib import Path

    game = pyspiel.load_game("conquian_three_hand", {"turn_limit": 20})
    state = _dealt(game, 8)
    state.apply_action(state.legal_actions()[0])
    path = Path(str(tmp_path)) / "state.pickle"
    path.write_bytes(pickle.dumps(state))
    code = f"import pickle; s = pickle.loads(open({str(path)!r}, 'rb').read()); print(s)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(state)
