"""Properties of `view.sample_state` (C6): consistency, determinism and uniformity.

A sample is a whole state drawn among the deals that would show the player
exactly his view, with the history replayed on it: its ``view(player)`` is
the view itself, the same seed gives the same state, and in small positions
each unseen card lands in each unknown place as often as a uniform draw says.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianRules, PlayerView, State, new_game
from conquian.determinize import sample_state

seeds = st.integers(min_value=0, max_value=2**32 - 1)
two_hand_rules = st.sampled_from(
    [
        ConquianRules(),
        ConquianRules.pagat(),
        ConquianRules.hoyle(),
        ConquianRules(pack="american", hand_size=9),
        ConquianRules(hand_size=8, max_sequence=5),
    ]
)


def random_states(rules: object, seed: int, every: int = 1) -> Iterator[State]:
    """Every `every`-th state of a deal played with random legal actions (and the last)."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % rules.players)  # type: ignore[arg-type]
    k = 0
    while True:
        if k % every == 0 or state.is_over:
            yield state
        if state.is_over:
            return
        state = state.apply(rng.choice(state.legal_actions()))
        k += 1


def _check_sample(view: PlayerView, seed: int) -> None:
    sample = view.sample_state(random.Random(seed))  # type: ignore[attr-defined]
    assert sample.view(view.player) == view
    again = view.sample_state(random.Random(seed))  # type: ignore[attr-defined]
    assert again == sample  # the same seed, the same state
    assert again.deck == sample.deck  # type: ignore[attr-defined]


@settings(max_examples=15)
@given(two_hand_rules, seeds)
def test_c6_two_hand_sample_gives_the_view(rules: ConquianRules, seed: int) -> None:
    """C6: a two-hand sample's view is the view sampled from, and a seed repeats it."""
    for state in random_states(rules, seed, every=7):
        for player in (0, 1):
            _check_sample(state.view(player), seed)


def test_c6_sample_state_function_is_the_method() -> None:
    """`conquian.determinize.sample_state(view, rng)` is `view.sample_state(rng)`."""
    view = new_game(ConquianRules(), seed=4).apply("pass").view(1)
    assert sample_state(view, random.Random(9)) == view.sample_state(random.Random(9))


def _chi_square(counts: Counter[object], keys: list[object], expected: float) -> float:
    return sum((counts[k] - expected) ** 2 / expected for k in keys)


# A chi-square of k - 1 degrees of freedom exceeds k - 1 + 6 * sqrt(2 * (k - 1)) with a
# probability far below one in a million for the sizes used here: a bound that can fail.
def _bound(cells: int) -> float:
    return cells - 1 + 6 * (2 * (cells - 1)) ** 0.5


def test_c6_two_hand_unseen_cards_land_uniformly() -> None:
    """C6: at the deal, each unseen card is in the dealer's hand with probability 10/29,
    and each is the next card of the stock with probability 1/29; the real hand is not
    favoured."""
    state = new_game(ConquianRules(), seed=11)
    view = state.view(1)  # the pone: the dealer's hand and the stock are unseen
    unseen = list(view.unseen)
    assert len(unseen) == 29
    in_hand: Counter[object] = Counter()
    next_up: Counter[object] = Counter()
    true_hand = set(state.hand(0))
    overlap = 0
    runs = 900
    rng = random.Random(5)
    for _ in range(runs):
        sample = view.sample_state(rng)
        hand = sample.hand(0)
        in_hand.update(hand)
        overlap += len(true_hand.intersection(hand))
        after = sample.apply("pass").apply("pass")  # the starter buried, the next card turned
        next_up[after.offer] += 1
    assert _chi_square(in_hand, unseen, runs * 10 / 29) < _bound(29)
    assert _chi_square(next_up, unseen, runs / 29) < _bound(29)
    # The real hidden hand: 10 * 10 / 29 of its cards on average, not more.
    assert abs(overlap / runs - 100 / 29) < 0.35


def test_c6_two_hand_known_places_are_kept() -> None:
    """C6, T6: the cards turned and buried keep their order, and the cards the opponent
    played stay his; only unseen cards move."""
    state = new_game(ConquianRules(), seed=3)
    rng = random.Random(3)
    while len(state.buried) < 4 and not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)
    for k in range(30):
        sample = view.sample_state(random.Random(k))
        assert sample.buried == state.buried
        assert sample.offer == state.offer
        assert sample.hand(0) == state.hand(0)
        assert set(sample.hand(1)) <= set(view.unseen)
