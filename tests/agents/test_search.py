"""The searching bot: legal, reproducible, blind to hidden cards, and registered by name."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from conquian import Action, ConquianRules, CooncanRules, PlayerView, Rules, State, new_game
from conquian.agents import AGENTS, HeuristicAgent, ISMCTSAgent, RandomAgent, make_agent, play

TWO_HAND = ConquianRules()
GAMES = [
    TWO_HAND,
    ConquianRules.pagat(),
    CooncanRules.three_hand(turn_limit=20),
    CooncanRules.double_pack(players=4, turn_limit=12),
]


def _has_sampling(rules: Rules) -> bool:
    view = new_game(rules, seed=1).view(0)
    return hasattr(view, "sample_state")


class Watched:
    """Wraps an agent; checks it is given views of its seat and answers with a legal action."""

    def __init__(self, inner: ISMCTSAgent) -> None:
        self.inner = inner
        self.searched = 0

    def __call__(self, view: PlayerView) -> Action:
        assert isinstance(view, PlayerView) and not isinstance(view, State)
        action = self.inner(view)
        assert action in view.legal_actions
        self.searched += len(view.legal_actions) > 1
        return action


@pytest.mark.parametrize("rules", GAMES, ids=repr)
def test_ismcts_plays_legal_actions_in_every_game(rules: Rules) -> None:
    """With a small budget the searching bot finishes a deal of each game, always legally."""
    if not _has_sampling(rules):
        pytest.skip("this game's views cannot sample deals yet")
    method = "ismcts" if rules.players > 2 else "pimc"
    bot = Watched(ISMCTSAgent(seed=3, iterations=2, method=method, reading=0.05, rollout_limit=12))
    seats: list[object] = [bot] + [RandomAgent(seed=s) for s in range(rules.players - 1)]
    final = play(seats, rules, seed=4)  # type: ignore[arg-type]
    assert final.is_over and bot.searched > 0


@pytest.mark.parametrize("method", ["pimc", "ismcts"])
def test_ismcts_is_reproducible_for_a_seed_and_budget(method: str) -> None:
    """The same seed and iteration budget make the same choices; the deal replays exactly."""

    def deal(seed: int) -> tuple[Action, ...]:
        bot = ISMCTSAgent(seed=seed, iterations=3, method=method)
        return play([bot, HeuristicAgent()], TWO_HAND, seed=12, dealer=1).history

    assert deal(5) == deal(5)


@pytest.mark.parametrize("reading", [None, 0.05])
def test_ismcts_sees_only_the_view_and_its_samples(reading: float | None) -> None:
    """Given a view rebuilt from its JSON, the bot makes the same choices (C6).

    A view carries nothing but what its seat may know, so a bot that gives the
    same answers for the view and for its JSON copy cannot have looked at the
    hidden cards through it.
    """
    view_type = type(new_game(TWO_HAND, seed=1).view(0))
    from_json = getattr(view_type, "from_json", None)
    if from_json is None:
        pytest.skip("views cannot be read back from JSON yet")
    rng = random.Random(8)
    state = new_game(TWO_HAND, seed=8)
    compared = 0
    while not state.is_over and compared < 4:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        if len(view.legal_actions) > 1:
            copy = from_json(view.to_json())
            assert copy == view
            a = ISMCTSAgent(seed=1, iterations=3, reading=reading)(view)
            b = ISMCTSAgent(seed=1, iterations=3, reading=reading)(copy)
            assert a == b
            compared += 1
        actions = state.legal_actions()
        state = state.apply(actions[int(rng.random() * len(actions))])
    assert compared > 0


def test_ismcts_samples_from_the_view_it_is_given() -> None:
    """Every deal the bot thinks about is one its view allows: sample.view(seat) == view."""
    seen: list[bool] = []

    class Spy:
        """A view stand-in that records what it sampled."""

        def __init__(self, view: PlayerView) -> None:
            self._view = view

        def __getattr__(self, name: str) -> object:
            return getattr(self._view, name)

        def sample_state(self, rng: random.Random) -> State:
            sample: State = self._view.sample_state(rng)  # type: ignore[attr-defined]
            seen.append(sample.view(self._view.player) == self._view)
            return sample

        def samples(self) -> Callable[[random.Random], State]:
            """The view's many samples (`conquian.determinize.samples`), each recorded."""
            draw = self._view.samples()  # type: ignore[attr-defined]

            def recorded(rng: random.Random) -> State:
                sample: State = draw(rng)
                seen.append(sample.view(self._view.player) == self._view)
                return sample

            return recorded

    state = new_game(TWO_HAND, seed=5)
    view = state.view(state.current_player or 0)
    assert len(view.legal_actions) > 1
    ISMCTSAgent(seed=2, iterations=4)(Spy(view))  # type: ignore[arg-type]
    assert seen and all(seen)


def test_ismcts_is_registered_and_checks_its_budget() -> None:
    """make_agent("pimc", seed) builds it, and "ismcts" (its name in 0.1.0) too; a budget
    below one iteration is refused."""
    assert {"pimc", "ismcts"} <= set(AGENTS)
    for name in ("pimc", "ismcts"):
        bot = make_agent(name, 4)
        assert isinstance(bot, ISMCTSAgent) and bot.seed == 4
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSAgent(iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        ISMCTSAgent(seconds=0)
    with pytest.raises(ValueError, match="method"):
        ISMCTSAgent(method="minimax")


def test_ismcts_stops_at_its_time_budget() -> None:
    """With seconds set, a decision ends soon after the time is up, whatever the iterations."""
    import time

    state = new_game(TWO_HAND, seed=5)
    view = state.view(state.current_player or 0)
    bot = ISMCTSAgent(seed=1, iterations=100_000, seconds=0.05)
    started = time.perf_counter()
    assert bot(view) in view.legal_actions
    assert time.perf_counter() - started < 2.0


def test_ismcts_repr_shows_the_settings_that_differ_from_the_defaults() -> None:
    """The repr names seed, budget and every other setting not at its default, and reads back."""
    bot = ISMCTSAgent(seed=1, iterations=32, candidates=3, margin=0.5, reading=0.02)
    assert repr(bot) == "ISMCTSAgent(seed=1, iterations=32, candidates=3, reading=0.02, margin=0.5)"
    assert repr(eval(repr(bot), {"ISMCTSAgent": ISMCTSAgent})) == repr(bot)
    assert repr(ISMCTSAgent()) == "ISMCTSAgent(seed=0, iterations=8)"
