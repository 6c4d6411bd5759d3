"""Properties of `view.sample_state` (C6): consistency, determinism and uniformity.

A sample is a whole state drawn among the deals that would show the player
exactly his view, with the history replayed on it: its ``view(player)`` is
the view itself, the same seed gives the same state, and in small positions
each unseen card lands in each unknown place as often as a uniform draw says.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import (
    ConquianRules,
    CooncanRules,
    CooncanView,
    PlayerView,
    RecordError,
    new_game,
)
from conquian.determinize import sample_state
from conquian.rummy.sampling import _rummy_starter
from strategies import random_states

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


cooncan_rules = st.sampled_from(
    [
        CooncanRules.three_hand(turn_limit=40),
        CooncanRules.three_hand(jokers=1, stock="open", turn_limit=40),
        CooncanRules.three_hand(players=2, turn_limit=40),
        CooncanRules.double_pack(turn_limit=24),
        CooncanRules.double_pack(players=5, turn_limit=24),
    ]
)


@settings(max_examples=12)
@given(cooncan_rules, seeds)
def test_c6_cooncan_sample_gives_the_view(rules: CooncanRules, seed: int) -> None:
    """C6: a Cooncan sample's view is the view sampled from, and a seed repeats it."""
    for k, state in enumerate(random_states(rules, seed, every=9)):
        _check_sample(state.view(k % rules.players), seed)


def test_c6_cooncan_turned_over_stock_is_kept() -> None:
    """M11, C6: after the stock is turned over, samples keep the known pack and known cards."""
    rules = CooncanRules.three_hand(players=2)
    rng = random.Random(2)
    state = new_game(rules, seed=2)
    while not state.pack_is_known and not state.is_over:  # type: ignore[attr-defined]
        actions = state.legal_actions()
        plain = [a for a in actions if str(a).split()[0] in ("draw", "discard")]
        state = state.apply(rng.choice(plain or actions))
    assert state.pack_is_known  # type: ignore[attr-defined]
    for k in range(6):
        state = state.apply(rng.choice(state.legal_actions()))
        view = state.view(k % 2)
        sample = view.sample_state(random.Random(k))
        assert sample.view(view.player) == view
        assert sample.known == state.known  # type: ignore[attr-defined]


def test_c6_cooncan_unseen_cards_land_uniformly() -> None:
    """C6: after a few turns of three-hand, each unseen card is in seat 2's hand with
    probability 7/42 and is the next card of the pack with probability 1/42, whatever the
    cards the others drew and played; the real hand is not favoured."""
    state = new_game(CooncanRules.three_hand(), seed=8)
    state = state.apply("draw")
    seat1 = state.hand(1)
    state = state.apply(f"discard {seat1[0]}")  # seat 1 drew unseen, then discarded
    state = state.apply("draw")
    state = state.apply(f"discard {state.hand(2)[-1]}")
    view = state.view(0)
    unseen = list(view.unseen)
    assert len(unseen) == 42  # two hands of seven, 28 cards in the pack
    in_hand: Counter[object] = Counter()
    next_up: Counter[object] = Counter()
    true_hand = set(state.hand(2))
    overlap = 0
    runs = 900
    rng = random.Random(4)
    for _ in range(runs):
        sample = view.sample_state(rng)
        in_hand.update(sample.hand(2))
        overlap += len(true_hand.intersection(sample.hand(2)))
        next_up[sample.pack[0]] += 1  # type: ignore[attr-defined]
    assert _chi_square(in_hand, unseen, runs * 7 / 42) < _bound(42)
    assert _chi_square(next_up, unseen, runs / 42) < _bound(42)
    assert abs(overlap / runs - 7 * 7 / 42) < 0.3


# -- views read back from JSON ----------------------------------------------------------------


@settings(max_examples=12)
@given(two_hand_rules | cooncan_rules, seeds)
def test_view_from_json_is_the_view_and_samples_the_same(rules: object, seed: int) -> None:
    """A view read back with `PlayerView.from_json` equals the view written and samples the
    same states for the same seed (it uses nothing but the view)."""
    players = rules.players  # type: ignore[attr-defined]
    for k, state in enumerate(random_states(rules, seed, every=11)):
        view = state.view(k % players)
        read = PlayerView.from_json(view.to_json())
        assert read == view
        rng_seed = seed + k
        assert read.sample_state(random.Random(rng_seed)) == view.sample_state(  # type: ignore[attr-defined]
            random.Random(rng_seed)
        )


def test_view_from_json_where_the_history_leaves_the_starter_open() -> None:
    """M11, C6: the card that started the stock went round the turned-over stock into a hand,
    and a card equal to one it may be was played since, so the history leaves the starter
    open (seven cards here). A deal drawn with another starter replays the history but gives
    other known cards: the view read back draws again (it used to refuse the view, naming
    `known`), and a view edited so gets the same message once no deal gives it."""
    rules = CooncanRules.double_pack(players=5, turn_limit=200)
    rng = random.Random(14)
    state = new_game(rules, seed=14, dealer=0)
    for _ in range(267):
        state = state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)
    assert len(_rummy_starter(view)) == 7
    assert PlayerView.from_json(view.to_json()) == view
    data = json.loads(view.to_json())
    data["known"][1] = data["known"][1][1:]  # one card less known in seat 1's hand
    with pytest.raises(RecordError, match="lead to other known than those written"):
        PlayerView.from_json(json.dumps(data))


def _tampered(text: str, key: str, value: object) -> str:
    data = json.loads(text)
    data[key] = value
    return json.dumps(data)


def test_view_from_json_refuses_bad_views() -> None:
    """E2, E3: malformed fields, cards the pack lacks, and views no deal could show (a hand
    changed, a history changed) raise `RecordError` naming the problem."""
    state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
    text = state.view(1).to_json()
    hand = json.loads(text)["hand"]
    cases = {
        "not JSON": "{",
        "format": _tampered(text, "format", "conquian-record"),
        "hand[0]": _tampered(text, "hand", ["ZZ", *hand[1:]]),
        "9H: more copies": _tampered(text, "hand", ["9H", *hand[1:]]),
        "other": _tampered(text, "legal_actions", ["pass"]),
        "history": _tampered(text, "history", ["take KD", "meld JD QD KD", "discard AC"]),
        "player": _tampered(text, "player", 2),
    }
    for expected, bad in cases.items():
        with pytest.raises(RecordError, match=re.escape(expected)):
            PlayerView.from_json(bad)
    with pytest.raises(RecordError, match="not a CooncanView"):
        CooncanView.from_json(text)


def test_c6_cooncan_a_card_played_was_in_hand_before() -> None:
    """M2, C6: a card a player discarded was dealt to him or drawn before the discard, never
    drawn after it; the card he drew last is each of his possible cards as often as a uniform
    draw says (his later discard 1 time in 8, each unseen card 7 in 8 shared by seven places)."""
    rules = CooncanRules.three_hand()
    state = new_game(rules, seed=12)  # dealer 0: seat 1 plays first; the pack starts at 22
    state = state.apply("draw")
    first = state.hand(1)[0]
    state = state.apply(f"discard {first}")  # seat 1: drawn at 22, then a discard
    for _ in range(2):  # seats 2 and 0 draw (23, 24) and discard
        player = state.current_player
        state = state.apply("draw")
        state = state.apply(f"discard {state.hand(player)[-1]}")  # type: ignore[index]
    state = state.apply("draw")  # seat 1 again: drawn at 25
    second = state.hand(1)[-1]
    state = state.apply(f"discard {second}")
    view = state.view(0)
    unseen = [c for c in view.unseen]
    at_25: Counter[object] = Counter()
    runs = 1200
    rng = random.Random(6)
    for _ in range(runs):
        deck = view.sample_deal(rng).deck  # type: ignore[attr-defined]
        at_25[deck[25]] += 1
    assert at_25[first] == 0
    assert abs(at_25[second] / runs - 1 / 8) < 0.04
    expected = runs * 7 / 8 / len(unseen)
    assert _chi_square(at_25, unseen, expected) < _bound(len(unseen))
    assert sum(at_25[c] for c in unseen) + at_25[second] == runs
