"""The exact draw of a Coo-Can view (C6, K8): `conquian.coocan.posterior`, which counts the
other players' plays seat by seat, held against `coocan_reference`, which counts them in
time order: the same total weight and chances, the same samples' distribution; and
against the fast draw (a shuffle of the unseen cards), which a test shows wrong."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from conquian.cards import Card, shuffle
from conquian.coocan import CooCanRules, CooCanState, CooCanView, deal
from conquian.coocan.posterior import posterior, uncertain
from conquian.coocan.sampling import LIMIT, UNCERTAIN, _fast_draw
from coocan_reference import exact_sampler, reference
from strategies import draw_heavy


def _bound(cells: int) -> float:
    """A chi-square of cells-1 degrees of freedom passes this with probability near 1 - 1e-6."""
    return cells - 1 + 6 * (2 * (cells - 1)) ** 0.5


def _views(count: int, seats: int | None = None) -> Iterator[CooCanView]:
    """Views of every seat of seeded deals of 2 to 5 players (or `players`), some after a
    reshuffle or two (draw heavy), some with takes (random actions)."""
    for seed in range(count):
        players = seats or 2 + seed % 4
        rules = CooCanRules(players=players)
        rng = random.Random(seed)
        state = deal(rules, shuffle(rules.pack_cards(), seed), seed % players)
        if seed % 3 == 2:  # random actions, takes among them
            for _ in range(20 + seed):
                if state.is_over:
                    break
                state = state.apply(rng.choice(state.legal_actions()))
        else:
            state = draw_heavy(state, rng, 40 + 30 * (seed % 11))
        if not state.is_over:
            yield from (state.view(p) for p in range(players))


@pytest.mark.slow  # a long statistical test: CI runs it (.ci/run)
def test_c6_k8_counting_seat_by_seat_gives_the_time_ordered_weights() -> None:
    """C6, K8: on views of 2 to 5 players, before and after reshuffles, with takes, the
    seat-by-seat count's total weight equals the time-ordered count's (the whole history
    read, where that one finishes), and so do the exact chances of how many places of
    each source gave the plays (to 1e-9)."""
    checked = mixed = 0
    for view in _views(42):
        ref = reference(view, 2000)
        if ref is None:
            continue
        total, given = ref
        post = posterior(view, 3000, whole=True)
        if post is None:  # counted seat by seat, some views keep too many sums
            continue
        assert math.isclose(math.exp(post.log_z), total, rel_tol=1e-9)
        for k, chances in enumerate(given):
            mine = post.given(k)
            assert set(mine) == set(chances)
            assert all(abs(mine[x] - chances[x]) < 1e-9 for x in chances)
        checked += 1
        mixed += view.reshuffles > 0 and view.rules.players > 2
    assert checked >= 60 and mixed >= 8


def test_c6_k8_a_deal_of_two_counted_from_the_last_reshuffle_is_the_same_draw() -> None:
    """C6, K8: in a deal of two the other hand is known at a reshuffle; counting from the
    last one (the shortcut `sample_state` takes) gives the same chances of how many of the
    mixed pile's places gave his plays as counting the whole history."""
    checked = 0
    for view in _views(30, seats=2):
        if view.reshuffles == 0:
            continue
        short = posterior(view)
        whole = posterior(view, whole=True)
        assert short is not None and whole is not None
        last = whole.given(view.reshuffles)
        first = short.given(0)
        assert set(first) == set(last)
        assert all(abs(first[x] - last[x]) < 1e-9 for x in last)
        checked += 1
    assert checked >= 6


def _after_a_reshuffle(seed: int) -> tuple[CooCanView, int, int]:
    """A view of three players just after the pile was mixed (K8) and one other player drew
    from it: the view, that player and the one who has not drawn since."""
    rng = random.Random(seed)
    rules = CooCanRules(players=3)
    state = deal(rules, shuffle(rules.pack_cards(), seed), 0)
    while state.reshuffles == 0:
        state = draw_heavy(state, rng, 1)
    drew = state.current_player
    while state.current_player == drew:
        state = draw_heavy(state, rng, 1)
    me = state.current_player
    assert me is not None and drew is not None
    return state.view(me), drew, 3 - me - drew


def test_c6_k8_samples_of_three_after_a_reshuffle_follow_the_exact_draw() -> None:
    """C6, K8: three players, just after a reshuffle one other player has drawn from the
    mixed pile and the next has not. Counted per sample, the cards of the two hidden hands
    that only the mixed pile may hold: `sample_state` follows the time-ordered exact draw
    (a two-sample chi-square); shuffling the unseen cards (the old draw) fails the test by
    far, as it spreads the pile's cards over both hands."""
    view, drew, waited = _after_a_reshuffle(0)
    assert uncertain(view) <= UNCERTAIN  # the exact draw is taken
    ref = exact_sampler(view, 100_000)
    assert ref is not None
    outside = Counter(view.unseen) - Counter(view.deck_may_hold)
    only = {c for c in view.deck_may_hold or () if not outside[c]}

    def cell(hands: tuple[tuple[Card, ...], ...]) -> tuple[int, int]:
        return sum(c in only for c in hands[drew]), sum(c in only for c in hands[waited])

    samples = 2000
    exact = Counter(cell(ref(random.Random(k))[0]) for k in range(samples))
    draw = view.samples()
    ours = Counter(cell(_hands(draw(random.Random(k)))) for k in range(samples))
    old = Counter(cell(_fast_draw(view, random.Random(k))[0]) for k in range(samples))

    def chi(a: Counter[tuple[int, int]], b: Counter[tuple[int, int]]) -> tuple[float, int]:
        cells = [x for x in set(a) | set(b) if a[x] + b[x] >= 10]
        return sum((a[x] - b[x]) ** 2 / (a[x] + b[x]) for x in cells), len(cells)

    value, cells = chi(exact, ours)
    assert cells >= 3 and value < _bound(cells)
    value, cells = chi(exact, old)
    assert value > 10 * _bound(cells)


def _hands(state: CooCanState) -> tuple[tuple[Card, ...], ...]:
    return tuple(state.hand(q) for q in range(state.rules.players))


def test_c6_samples_of_a_view_are_its_sample_states() -> None:
    """C6: ``view.samples()`` draws, for the same random numbers, the states
    ``view.sample_state`` draws, exact or shuffled, and each gives the view back."""
    for view in _views(12):
        draw = view.samples()
        for k in range(2):
            one, other = draw(random.Random(k)), view.sample_state(random.Random(k))
            assert _hands(one) == _hands(other) and one.deck_cards == other.deck_cards
            assert one.view(view.player) == view


def test_c6_k8_exact_samples_after_a_reshuffle_give_the_view_and_play_on() -> None:
    """C6, K8: with 3 to 6 players, just after the pile is mixed into a new deck, the exact
    draw is taken; its samples give the view back for every seat, their hidden cards are
    the view's unseen cards, and they play on legally to the end of the deal."""
    for players in range(3, 7):
        for seed in range(2):
            rng = random.Random(100 * players + seed)
            rules = CooCanRules(players=players, turn_limit=400)
            state = deal(rules, shuffle(rules.pack_cards(), seed), seed % players)
            while state.reshuffles == 0:
                state = draw_heavy(state, rng, 1)
            state = draw_heavy(state, rng, seed * players)
            for p in range(players):
                view = state.view(p)
                assert uncertain(view, UNCERTAIN) <= UNCERTAIN  # the exact draw is taken
                assert posterior(view, LIMIT) is not None
                sample = view.sample_state(random.Random(p))
                assert sample.view(p) == view
                hidden = Counter(sample.deck_cards)
                for q in range(players):
                    if q != p:
                        hidden.update(Counter(sample.hand(q)) - Counter(view.known[q]))
                assert hidden == Counter(view.unseen)
                line = draw_heavy(sample, rng, 200)
                assert line.is_over or line.legal_actions()


def test_c6_before_a_reshuffle_with_no_uncertain_play_the_shuffle_is_the_exact_draw() -> None:
    """C6, K3: before the first reshuffle, when no other player has played a card of a value
    he took, `sample_state` shuffles the unseen cards; the exact count draws where each
    unseen card lies in the other hands alike: a two-sample chi-square on every sixth
    unseen value of a three-player view with takes."""
    found = None
    for view in _views(60, seats=3):
        if view.reshuffles == 0 and uncertain(view) == 0 and any(view.known):
            found = view
            break
    assert found is not None, "no view with a take and no uncertain play"
    view = found
    post = posterior(view)
    assert post is not None
    runs = 1500
    rng_a, rng_b = random.Random(1), random.Random(2)
    exact: Counter[tuple[int, int]] = Counter()
    shuffled: Counter[tuple[int, int]] = Counter()
    where_exact = [post.draw(rng_a) for _ in range(runs)]
    where_fast = [view.sample_state(rng_b) for _ in range(runs)]
    values = sorted({c.index for c in view.unseen})[::6]
    for held, _deck in where_exact:
        for i, values_held in enumerate(held):
            for v in values:
                exact[(v, post.others[i])] += values_held.count(v)
    for sample in where_fast:
        for q in post.others:
            hand = [c.index for c in sample.hand(q)]
            for v in values:
                shuffled[(v, q)] += hand.count(v)
    keys = set(exact) | set(shuffled)
    chi = sum((exact[k] - shuffled[k]) ** 2 / (exact[k] + shuffled[k]) for k in keys)
    assert chi < _bound(len(keys) + 1), (chi, len(keys))
