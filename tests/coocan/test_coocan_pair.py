"""The exact draw of a Coo-Can view in a deal of two (C6, K8): `conquian.coocan.pair`, held
against the general count `conquian.coocan.posterior` (the same total weight and chances,
to 1e-9), its backward pass against its forward pass (exactly), and its samples against
the general draw's (a two-sample chi-square) and the view (every card in its place)."""

from __future__ import annotations

import math
import random
from collections import Counter

from conquian.cards import shuffle
from conquian.coocan import CooCanRules, CooCanView, deal
from conquian.coocan.pair import pair_posterior
from conquian.coocan.posterior import posterior, uncertain
from test_coocan_posterior import _bound, _views


def _pair_views() -> list[CooCanView]:
    """Views of both seats of seeded deals of two: before a reshuffle, with and without
    plays of a value taken, and after one reshuffle or several (K8); some drawn heavy,
    some of random actions (many takes, K3)."""
    out = [view for view in _views(90, seats=2) if uncertain(view) or view.reshuffles]
    rules = CooCanRules(players=2, turn_limit=300)
    for seed in range(4):
        rng = random.Random(seed)
        state = deal(rules, shuffle(rules.pack_cards(), seed), seed % 2)
        for k in range(400):
            if state.is_over:
                break
            if k % 23 == 22:
                out.extend(state.view(p) for p in range(2))
            state = state.apply(rng.choice(state.legal_actions()))
    return [view for view in out if uncertain(view) or view.reshuffles]


def test_c6_k8_the_pair_count_gives_the_general_count() -> None:
    """C6, K8: on more than 100 views of two, the lean count of `pair` has the total
    weight of `posterior` (the general count, from the last reshuffle), and the same exact
    chances of how many of the other player's places gave his plays as the general count
    from the last reshuffle and over the whole history (to 1e-9)."""
    checked = mixed = taken = 0
    for view in _pair_views():
        pair = pair_posterior(view)
        short = posterior(view)
        whole = posterior(view, whole=True)
        assert pair is not None and short is not None and whole is not None
        assert math.isclose(pair.log_z, short.log_z, rel_tol=1e-9, abs_tol=1e-9)
        mine = pair.given()
        for chances in (short.given(0), whole.given(view.reshuffles)):
            assert set(mine) == {x for x, p in chances.items() if p > 0}
            assert all(abs(mine[x] - chances[x]) < 1e-9 for x in chances)
        checked += 1
        mixed += view.reshuffles > 0
        taken += view.reshuffles == 0
    assert checked >= 100 and mixed >= 40 and taken >= 40


def test_c6_k8_the_pair_draw_goes_back_the_way_the_count_came() -> None:
    """C6, K8: for every play with a choice and every partial sum after it, the weights the
    draw goes back through (each sum before it times the play's factor) add up to that sum
    (the same scale for every sum of a play, to 1e-9), and a sum is reached from none only
    where it is zero."""
    steps = 0
    for view in _pair_views():
        pair = pair_posterior(view)
        assert pair is not None
        for e in range(pair.choices):
            after = pair.sums(e)
            scale = None
            for key, weight in after.items():
                back = sum(w for _, w in pair.before(e, key))
                if weight <= 0:
                    assert back == 0
                    continue
                scale = scale or back / weight
                assert math.isclose(back / weight, scale, rel_tol=1e-9)
            steps += 1
    assert steps >= 300


def test_c6_k8_pair_samples_follow_the_general_draw() -> None:
    """C6, K8: on views of two after a reshuffle and before one, with many plays with a
    choice, the other hand of `sample_state` counted by its cards of values the other
    player took or held at the reshuffle follows the general exact draw (a two-sample
    chi-square); every sample gives the view back, its hidden cards the unseen ones."""

    def most(views: list[CooCanView]) -> CooCanView:
        return max(views, key=lambda v: pair_posterior(v).choices)  # type: ignore[union-attr]

    found = _pair_views()
    views = [most([v for v in found if v.reshuffles]), most([v for v in found if not v.reshuffles])]
    assert all(pair_posterior(v).choices >= 8 for v in views)  # type: ignore[union-attr]
    for view in views:
        post = posterior(view)
        assert post is not None
        other = 1 - view.player
        pair = pair_posterior(view)
        assert pair is not None
        marked = sorted({pair.value(e) for e in range(pair.choices)})[:6]
        runs = 1200
        rng_a, rng_b = random.Random(5), random.Random(6)
        general: Counter[tuple[int, ...]] = Counter()
        ours: Counter[tuple[int, ...]] = Counter()
        draw = view.samples()
        for k in range(runs):
            hands, _ = post.draw(rng_a)
            general[tuple(hands[0].count(v) for v in marked)] += 1
            sample = draw(rng_b)
            hand = [c.index for c in sample.hand(other)]
            ours[tuple(hand.count(v) for v in marked)] += 1
            if k < 20:
                assert sample.view(view.player) == view
                hidden = Counter(sample.deck_cards) + Counter(sample.hand(other))
                assert hidden - Counter(view.known[other]) == Counter(view.unseen)
        cells = [x for x in set(general) | set(ours) if general[x] + ours[x] >= 10]
        chi = sum((general[x] - ours[x]) ** 2 / (general[x] + ours[x]) for x in cells)
        assert len(cells) >= 3 and chi < _bound(len(cells) + 1), (chi, len(cells))
