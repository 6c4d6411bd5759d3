"""`view.sample_state` builds the position without replaying the history (C6).

The sample drawn from a view is built from the view and the drawn deck
(`conquian.offer.sample.position`, `conquian.rummy.sample.position`); the
reference is the registry's sampler, which deals the same drawn deck and
replays the whole history on it. From the same random numbers both must
give the same state: equal as values, with equal views for every seat,
equal legal actions, and the same states after a few more random actions.
The chi-square tests of `test_determinize` then hold for the built samples
as they did for the replayed ones.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianRules, CooncanRules, State, new_game
from conquian.cards import Card
from conquian.determinize import samples
from conquian.games import game_of
from conquian.offer.sample import position as offer_position
from conquian.offer.sample import rebuildable
from conquian.rummy.sampling import _rummy_starter
from strategies import random_states

seeds = st.integers(min_value=0, max_value=2**32 - 1)

RULES: list[Any] = [
    ConquianRules(),
    ConquianRules(after_starter="pone"),
    ConquianRules.hoyle(),
    ConquianRules(players=3),
    ConquianRules(players=4, lay_down="say"),
    CooncanRules.three_hand(turn_limit=60),
    CooncanRules.three_hand(jokers=1, turn_limit=60),
    CooncanRules.three_hand(jokers=1, stock="open", players=2, turn_limit=60),
    CooncanRules.double_pack(players=4, turn_limit=30),
    CooncanRules.double_pack(players=6, turn_limit=60),
    CooncanRules.double_pack(players=7, turn_limit=20),
]


def _same_sample(view: Any, seed: int) -> None:
    """C6: the built sample is the replayed one, and plays on as it does."""
    # Cooncan's whole deal (its `sample_state` may draw the position alone, with no deck).
    built = getattr(view, "sample_deal", view.sample_state)(random.Random(seed))
    replayed = game_of(view.rules).sample(view, random.Random(seed))
    assert built == replayed
    assert built.deck == replayed.deck  # its record replays
    assert built.view(view.player) == view
    for seat in range(view.rules.players):
        assert built.view(seat) == replayed.view(seat)
    rng = random.Random(seed)
    for _ in range(4):
        assert built.legal_actions() == replayed.legal_actions()
        if built.is_over:
            break
        action = rng.choice(built.legal_actions())
        built, replayed = built.apply(action), replayed.apply(action)
        assert built == replayed


@settings(max_examples=25)
@given(st.sampled_from(RULES), seeds)
def test_c6_built_sample_is_the_replayed_sample(rules: Any, seed: int) -> None:
    """C6: for random views of random deals (every game, 2 to 7 seats, finished deals and
    turns in progress), the sample built from a seed is the one the replay gives."""
    n = rules.players
    for k, state in enumerate(random_states(rules, seed, every=6)):
        _same_sample(state.view(k % n), seed + k)
        if state.is_over:
            for seat in range(n):  # C6 Showing: every hand shown, only the pack drawn
                _same_sample(state.view(seat), seed + seat)


def _taken_by_the_next_seat(rules: ConquianRules) -> State:
    """A deal where the pone took the starter (T4, T8): his take is pending, unmelded."""
    for seed in range(200):
        state = new_game(rules, seed=seed, dealer=0)
        take = [a for a in state.legal_actions() if str(a).startswith("take")]
        if take:
            return state.apply(take[0])
    raise AssertionError("no deal lets the pone take the starter")


@pytest.mark.parametrize("rules", [ConquianRules(), ConquianRules(players=3)])
def test_t8_a_take_of_another_seat_rejects_hands_that_cannot_meld_it(rules: Any) -> None:
    """T3, T8: seen by the dealer, the pone took the starter and has not melded it. A hand
    drawn for him with no card of its rank or suit could not have taken it: `position`
    refuses it, as the replay would refuse the take; his own hand is accepted."""
    state = _taken_by_the_next_seat(rules)
    taker = state.current_player
    view = state.view(0)
    assert view.pending and taker != 0
    (card,) = view.pending
    misfits = [c for c in view.unseen if c.rank != card.rank and c.suit != card.suit]
    hands: list[tuple[Card, ...]] = [state.hand(p) for p in range(rules.players)]
    assert offer_position(view, state.deck, hands) == state
    hands[taker] = tuple(misfits[: len(hands[taker])])
    assert offer_position(view, state.deck, hands) is None
    for k in range(20):  # and no sample gives him such a hand
        sample = view.sample_state(random.Random(k))
        assert sample.legal_actions()


def test_t9_a_borrowed_card_pending_is_sampled_by_the_replay() -> None:
    """T9: while a card borrowed this turn is pending, the view does not show which melds it
    may not go back to: such a view is sampled by the replay, and still gives the view."""
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = new_game(ConquianRules(), seed=seed)
        while not state.is_over and found < 3:
            borrows = [a for a in state.legal_actions() if str(a).startswith("borrow")]
            state = state.apply(rng.choice(borrows or state.legal_actions()))
            if borrows:
                view = state.view(state.current_player)  # type: ignore[arg-type]
                assert not rebuildable(view)
                assert view.sample_state(random.Random(seed)).view(view.player) == view
                found += 1
                break
        if found >= 3:
            break
    assert found >= 3


def test_m11_built_sample_keeps_the_turned_over_stock() -> None:
    """M11, C6: after the stock is turned over, the built sample's pack is the turned stock
    (the cards drawn from it first) and equals the replayed sample."""
    rules = CooncanRules.three_hand(players=2)
    rng = random.Random(2)
    state = new_game(rules, seed=2)
    while not state.pack_is_known and not state.is_over:  # type: ignore[attr-defined]
        actions = state.legal_actions()
        plain = [a for a in actions if str(a).split()[0] in ("draw", "discard")]
        state = state.apply(rng.choice(plain or actions))
    assert state.pack_is_known  # type: ignore[attr-defined]
    for k in range(8):
        state = state.apply(rng.choice(state.legal_actions()))
        view = state.view(k % 2)
        _same_sample(view, k)
        sample = view.sample_state(random.Random(k))
        assert sample.pack_is_known and sample.pack == state.pack  # type: ignore[attr-defined]


@settings(max_examples=15)
@given(st.sampled_from(RULES), seeds)
def test_c6_many_samples_of_one_view_are_its_samples(rules: Any, seed: int) -> None:
    """C6: `samples(view)` reads the view's history once and then draws, call after call,
    the very states `view.sample_state` draws from the same random numbers."""
    n = rules.players
    for k, state in enumerate(random_states(rules, seed, every=9)):
        view = state.view(k % n)
        draw = samples(view)
        mine, theirs = random.Random(seed), random.Random(seed)
        for _ in range(3):
            assert draw(mine) == view.sample_state(theirs)


def test_c6_many_samples_of_a_view_that_leaves_the_starter_open() -> None:
    """M1, M11, C6: a three-hand view whose starter went round the turned-over stock into a
    hand and was played leaves the starter open; its many samples are its samples, and
    each gives the view."""
    rules = CooncanRules.three_hand(turn_limit=200)
    for seed in range(40):
        for state in random_states(rules, seed, every=5):
            view = state.view(state.current_player or 0)
            if len(_rummy_starter(view)) < 2:
                continue
            draw = samples(view)
            mine, theirs = random.Random(seed), random.Random(seed)
            for _ in range(4):
                sample = draw(mine)
                assert sample == view.sample_state(theirs)
                assert sample.view(view.player) == view
            return
    raise AssertionError("no view leaves the starter open")
