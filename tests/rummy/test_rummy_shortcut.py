"""Cooncan's samples drawn as positions, without reading the history (C6).

With no two equal cards in the pack (three-hand, the joker being one card),
every card a seat plays is seen and no action depends on a hidden card but
through them (M2–M11): every way the unseen cards lie in the other hands and
the face-down pack is allowed by as many deals. `CooncanView.sample_state`
then shuffles `view.unseen` into them (`conquian.rummy.sample.current`),
and the state has no deck. The double pack's full sampler draws its positions
by that shuffle too (placing the cards never fails for one shuffle and not for
another, see `conquian.determinize`), so they are drawn the same way.
These tests hold it against the full sampler, which reads the history and
draws a whole deal (`sample_deal`, and the replay `sample_rummy` without
rebuild): the same views, the same cards from the same random numbers, the
same distribution, and the routing of the views the shortcut does not serve.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import CooncanRules, State, new_game
from conquian.cards import Card
from conquian.determinize import DeterminizationError, sample_rummy
from conquian.formats.records import GameRecord
from conquian.rummy.sample import current
from conquian.rummy.sampling import _rummy_starter
from strategies import random_states

seeds = st.integers(min_value=0, max_value=2**32 - 1)

THREE_HAND: list[Any] = [
    CooncanRules.three_hand(turn_limit=80),
    CooncanRules.three_hand(jokers=1, turn_limit=80),
    CooncanRules.three_hand(stock="open", turn_limit=80),
    CooncanRules.three_hand(jokers=1, stock="open", turn_limit=80),
    CooncanRules.three_hand(players=2, turn_limit=80),
    CooncanRules.three_hand(jokers=1, players=2, stock="open", turn_limit=80),
    CooncanRules.double_pack(players=4, turn_limit=60),
    CooncanRules.double_pack(players=5, jokers=2, turn_limit=60),
]


def _hidden(view: Any, sample: Any) -> Counter[Card]:
    """The cards of `sample` that `view` does not show: the unknown part of every other
    hand, and the face-down pack unless it is the turned-over stock (M11)."""
    out: Counter[Card] = Counter()
    for q in range(view.rules.players):
        if q != view.player and view.hands is None:
            out += Counter(sample.hand(q)) - Counter(view.known[q])
    if view.known_pack is None:
        out += Counter(sample.pack)
    return out


def _check(view: Any, seed: int) -> None:
    """C6: the shortcut's sample gives the view, hides exactly `view.unseen`, holds the
    full sampler's cards from the same random numbers, and plays on legally."""
    draw = current(view)
    if draw is None:  # M2: a mover (not the viewer) left with as many cards as a card has copies
        copies = max(Counter(view.rules.pack_indices()).values())
        assert view.current_player != view.player
        assert view.hand_sizes[view.current_player] <= copies
        return
    sample = view.sample_state(random.Random(seed))
    assert sample == draw(random.Random(seed))
    assert sample.deck == ()  # a position, no deal behind it
    assert sample.view(view.player) == view
    assert _hidden(view, sample) == Counter(view.unseen)
    whole = view.sample_deal(random.Random(seed))
    if len(_rummy_starter(view)) == 1:  # the full sampler's first deck is the one kept
        for q in range(view.rules.players):
            assert sample.view(q) == whole.view(q)
            assert sample.hand(q) == whole.hand(q)
        assert sample.legal_actions() == whole.legal_actions()
    rng = random.Random(seed)
    for _ in range(4):
        if sample.is_over:
            break
        actions = sample.legal_actions()
        assert actions  # no dead end (M2)
        sample = sample.apply(rng.choice(actions))
        assert sample.view(view.player).history[: len(view.history)] == view.history


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(THREE_HAND), seeds)
def test_c6_shortcut_sample_gives_the_view(rules: Any, seed: int) -> None:
    """C6: for random three-hand views (with and without the joker, open and closed stock,
    two and three seats, turns in progress, finished deals with every hand shown) and
    double-pack views (four and five seats), the sample drawn without reading the history
    gives the view back, with the full sampler's cards from the same random numbers."""
    n = rules.players
    for k, state in enumerate(random_states(rules, seed, every=5)):
        _check(state.view(k % n), seed + k)
        if state.is_over:
            for seat in range(n):  # C6 Showing: every hand shown, only the pack drawn
                _check(state.view(seat), seed + seat)


def _turned_over(rules: Any, seed: int) -> State:
    """A deal played on past the turned-over stock (M11): draws and discards only."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while not state.pack_is_known and not state.is_over:  # type: ignore[attr-defined]
        actions = state.legal_actions()
        plain = [a for a in actions if str(a).split()[0] in ("draw", "discard")]
        state = state.apply(rng.choice(plain or actions))
    assert state.pack_is_known  # type: ignore[attr-defined]
    return state


@pytest.mark.parametrize(
    "rules", [CooncanRules.three_hand(players=2), CooncanRules.three_hand(jokers=1)]
)
def test_m11_shortcut_after_the_turned_over_stock(rules: Any) -> None:
    """M11, C6: once the stock is turned over the pack is known: the shortcut's pack is the
    view's, and only the other hands are drawn."""
    state = _turned_over(rules, 2)
    rng = random.Random(5)
    for k in range(10):
        if state.is_over:
            break
        view = state.view(k % rules.players)
        _check(view, k)
        sample = view.sample_state(random.Random(k))
        assert sample.pack_is_known and sample.pack == state.pack  # type: ignore[attr-defined]
        state = state.apply(rng.choice(state.legal_actions()))


def _starter_open(rules: Any = None) -> Any:
    """A view whose starter went round the turned-over stock into a hand and was played: the
    history leaves it open (M1, M11). Three-hand unless `rules` say otherwise."""
    rules = rules or CooncanRules.three_hand(turn_limit=200)
    for seed in range(40):
        for state in random_states(rules, seed, every=5):
            view = state.view(state.current_player or 0)
            if len(_rummy_starter(view)) > 1 and view.hands is None:
                return view
    raise AssertionError("no view leaves the starter open")


def _double_pack_starter_open() -> Any:
    """A double-pack view (five seats) that leaves the starter open (M1, M11)."""
    return _starter_open(CooncanRules.double_pack(players=5, turn_limit=300))


def test_m11_shortcut_when_the_starter_is_left_open() -> None:
    """M1, M11, C6: a view that leaves the starter open is drawn by the shortcut too (the
    starter changes the past, not where the unseen cards may lie now)."""
    view = _starter_open()
    for k in range(6):
        _check(view, k)


# -- the same distribution as the full sampler -------------------------------------------------


def _where(sample: Any, card: Card, players: int) -> object:
    """Where `card` is in `sample`: the seat holding it, else its place in the pack (the
    first three places apart, the rest together)."""
    for q in range(players):
        if card in sample.hand(q):
            return q
    return ("pack", min(sample.pack.index(card), 3))


# Two samples of `runs` each: their chi-square of k - 1 degrees of freedom exceeds
# k - 1 + 6 * sqrt(2 * (k - 1)) with a probability far below one in a million here.
def _same_law(a: Counter[object], b: Counter[object]) -> None:
    keys = set(a) | set(b)
    chi = sum((a[k] - b[k]) ** 2 / (a[k] + b[k]) for k in keys)
    cells = len(keys)
    assert chi < cells - 1 + 6 * (2 * max(cells - 1, 1)) ** 0.5, (a, b)


def _constructed() -> Any:
    """Three-hand, dealer 0: seat 1 draws and discards, seat 2 takes that card from the
    stock and discards, seat 0 draws and discards; seen by seat 0."""
    state = new_game(CooncanRules.three_hand(jokers=1), seed=8)
    state = state.apply("draw")
    given = state.hand(1)[0]
    state = state.apply(f"discard {given}")
    state = state.apply(f"take {given}")
    state = state.apply(f"discard {next(c for c in state.hand(2) if c != given)}")
    state = state.apply("draw")
    return state.apply(f"discard {state.hand(0)[-1]}").view(0)


def _late() -> Any:
    """A view late in a two-seat deal with an open stock and the joker."""
    rules = CooncanRules.three_hand(jokers=1, players=2, stock="open", turn_limit=80)
    states = list(random_states(rules, 17, every=1))
    return states[min(60, len(states) - 2)].view(1)


@pytest.mark.slow  # a long statistical test: CI runs it (.ci/run)
@pytest.mark.parametrize("make", [_constructed, _late, _starter_open, _double_pack_starter_open])
def test_c6_shortcut_draws_as_the_full_sampler(make: Any) -> None:
    """C6: where a hidden card lies (which other hand, or where in the pack) is drawn by the
    shortcut as by the replay reference (`sample_rummy` without rebuild), from
    independent random numbers: a two-sample chi-square test on each unseen card tried."""
    view = make()
    n = view.rules.players
    runs = 300
    mine, theirs = random.Random(1), random.Random(2)
    shortcut = [view.sample_state(mine) for _ in range(runs)]
    replayed = [sample_rummy(view, theirs) for _ in range(runs)]
    assert all(s.deck == () for s in shortcut)
    for card in view.unseen[:: max(1, len(view.unseen) // 4)]:
        a = Counter(_where(s, card, n) for s in shortcut)
        b = Counter(_where(s, card, n) for s in replayed)
        _same_law(a, b)


# -- routing ---------------------------------------------------------------------------------


def test_c6_the_double_pack_is_sampled_as_positions() -> None:
    """C6: a double-pack view is drawn as a position (no deck), the full sampler's cards
    from the same random numbers, and `sample_deal` still draws the whole deal."""
    state = new_game(CooncanRules.double_pack(players=4), seed=3)
    for _ in range(9):
        state = state.apply(random.Random(3).choice(state.legal_actions()))
    view = state.view(0)
    assert current(view) is not None
    sample = view.sample_state(random.Random(4))
    whole = view.sample_deal(random.Random(4))
    assert sample.deck == () and len(whole.deck) == len(view.rules.pack_cards())
    assert [sample.hand(q) for q in range(4)] == [whole.hand(q) for q in range(4)]
    assert sample.pack == whole.pack and sample.view(0) == view
    draw = view.samples()
    assert draw(random.Random(4)) == sample


def test_c6_a_view_whose_unseen_cards_do_not_fit_goes_to_the_full_sampler() -> None:
    """C6: a view whose unseen cards do not fill its hidden places is no view of a deal: the
    shortcut declines it and the full sampler says so."""
    view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(0)
    assert current(view) is not None
    broken = attrs.evolve(view, unseen=view.unseen[1:])
    assert current(broken) is None
    with pytest.raises(DeterminizationError):
        broken.sample_state(random.Random(0))


@pytest.mark.parametrize(
    ("rules", "cards"),
    [(CooncanRules.three_hand(turn_limit=200), 1), (CooncanRules.double_pack(turn_limit=200), 2)],
)
def test_c6_a_mover_with_few_cards_goes_to_the_full_sampler(rules: Any, cards: int) -> None:
    """M2, C6: another seat in his turn with one card left (two in the double pack, where he
    may hold the twin of the card he took): the shortcut declines the view (the full sampler
    checks that he can finish his turn), and the sample is a whole deal."""
    for seed in range(60):
        for state in random_states(rules, seed, every=1):
            mover = state.current_player
            if mover is None or state.phase != "play" or len(state.hand(mover)) != cards:  # type: ignore[attr-defined]
                continue
            view = state.view((mover + 1) % rules.players)
            assert current(view) is None
            sample = view.sample_state(random.Random(seed))
            assert len(sample.deck) == len(rules.pack_cards()) and sample.view(view.player) == view
            return
    raise AssertionError("no deal leaves a mover so few cards in his turn")


def test_c7_a_shortcut_sample_is_written_with_a_deal_found_for_it() -> None:
    """C6, C7: a position drawn by the shortcut has no dealt order: the writer finds a deal
    that gives it, so its position reads back to the same text and its record replays to
    it; `sample_deal`'s whole deal writes and replays."""
    view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(0)
    sample = view.sample_state(random.Random(0))
    assert not sample.deck  # type: ignore[attr-defined]
    text = sample.to_json()
    assert State.from_json(text).to_json() == text
    assert GameRecord.from_state(sample).replay().view(0) == view
    whole = view.sample_deal(random.Random(0))
    assert State.from_json(whole.to_json()) == whole
