"""Reading the other hand (two-hand game): deals that give the view and favour the hands
that explain the opponent's play."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianRules, CooncanRules, State, new_game
from conquian.agents import HeuristicAgent, ISMCTSAgent, play
from conquian.agents.reading import HandReader
from conquian.determinize import TwoHandDeals

two_hand_rules = st.sampled_from(
    [ConquianRules(), ConquianRules.pagat(), ConquianRules.hoyle(), ConquianRules(hand_size=8)]
)


def _heuristic_position(rules: ConquianRules, seed: int, moves: int) -> State:
    """A position after up to `moves` actions of two heuristic players."""
    policy = HeuristicAgent()
    state = new_game(rules, seed=seed)
    for _ in range(moves):
        seat = state.current_player
        if seat is None or len(state.legal_actions()) == 0:
            break
        following = state.apply(policy(state.view(seat)))
        if following.is_over:
            break
        state = following
    return state


@settings(max_examples=15, deadline=None)
@given(two_hand_rules, st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_every_read_deal_gives_the_view(rules: ConquianRules, seed: int, moves: int) -> None:
    """A deal the reader draws is one the seat's view allows: ``deal.view(seat) == view`` (C6)."""
    state = _heuristic_position(rules, seed, moves)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    reader = HandReader(HeuristicAgent(), slip=0.05)
    rng = random.Random(seed)
    if not reader.start(view, rng):
        assert view.hand_sizes[1 - seat] == 0
        return
    for _ in range(3):
        deal = reader.deal(rng)
        assert deal.view(seat) == view
        assert deal.history == state.history


def test_the_deals_of_a_view_put_the_given_cards_in_the_other_hand() -> None:
    """`TwoHandDeals` gives the opponent the hidden cards it is given, the rest to the stock."""
    state = _heuristic_position(ConquianRules(), 11, 12)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    deals = TwoHandDeals(view)
    unseen = sorted(view.unseen)
    held, stock = unseen[-deals.hidden :], unseen[: -deals.hidden]
    first = deals(held, stock, None)
    assert deals.hidden == len(state.hand(1 - seat))
    assert list(first.deck[len(first.deck) - len(stock) :]) == stock
    replayed = first
    for action in state.history:
        replayed = replayed.apply(action)
    assert sorted(replayed.hand(1 - seat)) == held


def test_reading_a_heuristic_opponent_finds_more_of_his_hand_than_chance() -> None:
    """Against a heuristic opponent the hands read share more cards with his true hand than
    a uniform draw does: his passes, takes and discards tell on him."""
    read = uniform = 0.0
    positions = 0
    for seed in range(12):
        state = _heuristic_position(ConquianRules(), 900 + seed, 16 + seed % 3 * 8)
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        true = set(state.hand(1 - seat))
        reader = HandReader(HeuristicAgent(), slip=0.02)
        rng = random.Random(seed)
        if not true or not reader.start(view, rng):
            continue
        positions += 1
        for _ in range(8):
            read += len(true & set(reader.deal(rng).hand(1 - seat))) / len(true) / 8
            sample: State = view.sample_state(rng)  # type: ignore[attr-defined]
            uniform += len(true & set(sample.hand(1 - seat))) / len(true) / 8
    assert positions >= 8
    assert read / positions > uniform / positions + 0.05


def test_reading_is_only_for_the_two_hand_game() -> None:
    """A Cooncan view has no hand to read: the reader declines and the bot samples uniformly."""
    rules = CooncanRules.three_hand(turn_limit=10)
    view = new_game(rules, seed=3).view(0)
    assert not HandReader(HeuristicAgent(), slip=0.05).start(view, random.Random(1))
    bot = ISMCTSAgent(seed=1, iterations=2, reading=0.05)
    final = play([bot, HeuristicAgent(), HeuristicAgent()], rules, seed=3)
    assert final.is_over


def test_a_reading_bot_is_reproducible() -> None:
    """With `reading`, the same seed and budget still make the same choices."""

    def deal(seed: int) -> tuple[object, ...]:
        bot = ISMCTSAgent(seed=seed, iterations=3, reading=0.05)
        return tuple(play([bot, HeuristicAgent()], ConquianRules(), seed=21, dealer=0).history)

    assert deal(2) == deal(2)


@pytest.mark.parametrize("slip", [0.0, 1.0, -0.5])
def test_reading_must_be_a_chance(slip: float) -> None:
    """`reading` is None or strictly between 0 and 1."""
    with pytest.raises(ValueError, match="reading"):
        ISMCTSAgent(reading=slip)
    with pytest.raises(ValueError, match="slip"):
        HandReader(HeuristicAgent(), slip)
