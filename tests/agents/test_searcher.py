"""The searching bot ``"search"`` (`SearchAgent`), its exact end (`solve`) and the tells."""

from __future__ import annotations

import random

import pytest

from conquian import ConquianRules, CooCanRules, CooncanRules, new_game
from conquian.actions import Pass
from conquian.agents import make_agent, searcher
from conquian.agents.heuristic import HeuristicAgent, ranked
from conquian.agents.search import _worth
from conquian.agents.searcher import SearchAgent, solve
from conquian.agents.tells import Tells, mates
from conquian.cards import cards
from conquian.offer.tables import sequence_order
from conquian.state.base import PlayerView, State


def late(rules: object, seed: int, left: int) -> State:
    """The first deal from `seed` on that the heuristic plays until at most `left` cards are
    face down with a choice to make (a deal that ends before is skipped)."""
    policy = HeuristicAgent()
    for s in range(seed, seed + 50):
        state = new_game(rules, seed=s)  # type: ignore[arg-type]
        while state.current_player is not None:
            view = state.view(state.current_player)
            size = getattr(view, "pack_size", None)
            if size is None:
                size = getattr(view, "deck_size", 0)
            if size <= left and len(view.legal_actions) > 1:
                return state
            state = state.apply(policy(view))
    raise AssertionError("no deal reached the end with a choice")


def minimax(state: State, seat: int) -> float:
    """The plain minimax worth of a two-seat deal to `seat`: the reference for `solve`."""
    mover = state.current_player
    if mover is None:
        return _worth(state, seat, 0.5)  # a tableau: a half to each seat (T12)
    values = [minimax(state.apply(a), seat) for a in state.legal_actions()]
    return max(values) if mover == seat else min(values)


def test_search_is_registered_and_plays_legal_reproducible_moves() -> None:
    agent = make_agent("search", 3)
    assert isinstance(agent, SearchAgent)
    for rules, left in (
        (ConquianRules(), 5),
        (CooncanRules.three_hand(turn_limit=300), 12),
        (CooCanRules(players=2, turn_limit=300), 30),
    ):
        state = late(rules, 4, left)
        assert state.current_player is not None
        view = state.view(state.current_player)
        a = SearchAgent(1, late_samples=3, samples=3)(view)
        b = SearchAgent(1, late_samples=3, samples=3)(view)
        assert a in view.legal_actions and a == b


def test_early_in_the_deal_without_early_deals_it_plays_the_heuristic_choice() -> None:
    state = new_game(ConquianRules(), seed=11)
    for _ in range(6):
        view = state.view(state.current_player)  # type: ignore[arg-type]
        assert view.pack_size > 14
        assert SearchAgent(2, early=0)(view) == HeuristicAgent()(view)
        state = state.apply(HeuristicAgent()(view))


def test_the_search_plays_out_the_heuristics_five_best_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The middle search compares the heuristic's 5 best actions, not only its 2 best.
    def wide(seed: int) -> PlayerView | None:
        """A decision of the middle search with more than five actions, if the deal has one."""
        state = new_game(ConquianRules(), seed=seed)
        while state.current_player is not None:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 5 and 3 < view.pack_size <= 14:
                return view
            state = state.apply(HeuristicAgent()(view))
        return None

    view = next(v for v in map(wide, range(100)) if v is not None)
    tried: set[object] = set()
    played = searcher._rollout

    def rollout(after: State, policy: HeuristicAgent, limit: int) -> State:
        tried.add(after.history[-1])
        return played(after, policy, limit)

    monkeypatch.setattr(searcher, "_rollout", rollout)
    SearchAgent(1, samples=2, late_samples=2)(view)
    assert tried == set(ranked(view)[:5])


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_solve_agrees_with_plain_minimax(seed: int) -> None:
    # T12: the deal of two is won by one seat or drawn; alpha-beta finds minimax's worth.
    state = late(ConquianRules(), seed, 0)
    for seat in (0, 1):
        assert solve(state, seat, nodes=100_000) == minimax(state, seat)


def test_solve_gives_up_past_its_budget() -> None:
    state = new_game(ConquianRules(), seed=7)
    assert solve(state, 0, nodes=50) is None


def test_mates_are_the_pairs_that_make_a_combination() -> None:
    order = sequence_order("spanish", None)
    five = cards("5H")[0]
    found = {
        frozenset(str(c) for c in p) for p in mates(five, list(cards("3H 4H 6H 5C KD")), order)
    }
    # C3: three of a rank need two other fives; C4: 3-4-5, 4-5-6 of hearts (not 3-6).
    assert found == {frozenset({"3H", "4H"}), frozenset({"4H", "6H"})}


def test_a_hand_that_could_have_melded_a_refused_card_weighs_less() -> None:
    view = new_game(ConquianRules(), seed=7).view(0)
    a, b, c = cards("4H 6H KD")
    tells = Tells(view, refused=[[frozenset((a, b))]], thrown=[[frozenset((c, a))]], refuse=0.3,
                  throw=0.2)  # fmt: skip
    assert tells.weight({a, b}) == pytest.approx(0.3)
    assert tells.weight({a, c}) == pytest.approx(0.2)
    assert tells.weight({a, b, c}) == pytest.approx(0.06)
    assert tells.weight({b}) == 1.0


def test_the_tells_read_the_opponents_refusals_and_deal_only_consistent_deals() -> None:
    # Play the heuristic on both sides and read seat 0's view: every refusal of the
    # opponent's the tells hold is a card he passed or forced with mates among the unseen.
    policy = HeuristicAgent()
    state = new_game(ConquianRules(), seed=13)
    passes = 0
    while True:
        seat = state.current_player
        assert seat is not None, "the deal ended before the opponent refused three cards"
        view: PlayerView = state.view(seat)
        if seat == 0 and passes >= 3 and view.hand_sizes[1] >= 3:
            break
        action = policy(view)
        passes += seat == 1 and isinstance(action, Pass)
        state = state.apply(action)
    tells = Tells.read(view, random.Random(1))
    assert tells is not None
    unseen = set(view.unseen)
    for pairs in (*tells.refused, *tells.thrown):
        assert pairs and all(p <= unseen for p in pairs)
    draw = tells.draw(random.Random(5))
    for _ in range(5):
        assert draw().view(0) == view  # C6: every deal gives the view


def test_the_tells_decline_other_games() -> None:
    view = new_game(CooncanRules.three_hand(turn_limit=300), seed=1).view(0)
    assert Tells.read(view, random.Random(1)) is None
