"""Properties of the Coo-Can engine over random legal play (RULES.md K1-K9, C6, C7, E1).

Each example draws the number of players (2 to 6), a turn limit (so that
every deal ends), a deal seed and a seed for a random player, plays a whole
deal choosing among the legal actions (melding more or less eagerly), and
checks a property at every state reached.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from conquian import Discard, Draw, IllegalActionError, Meld, Outcome, State, Take
from conquian.cards import Card, shuffle
from conquian.coocan import CooCanRules, CooCanState, deal
from conquian.coocan.melds import spots

players = st.integers(2, 6)
limits = st.integers(1, 250)
seeds = st.integers(0, 2**32 - 1)
eagerness = st.sampled_from([0.0, 0.6, 0.95])


def first(n: int, limit: int | None, seed: int) -> CooCanState:
    rules = CooCanRules(players=n, turn_limit=limit)
    return deal(rules, shuffle(rules.pack_cards(), seed), seed % n)


def random_play(state: CooCanState, policy: int, eager: float) -> Iterator[CooCanState]:
    """Every state of a deal played by a random player, the last one over."""
    rng = random.Random(policy)
    yield state
    while not state.is_over:
        legal = state.legal_actions()
        melds = [a for a in legal if isinstance(a, Meld)]
        action = rng.choice(melds) if melds and rng.random() < eager else rng.choice(legal)
        state = state.apply(action)
        yield state


def zones(state: CooCanState) -> Counter[Card]:
    """Every card of every zone: the hands, the table, the discard pile and the deck."""
    out: Counter[Card] = Counter(state.discard_pile) + Counter(state.deck_cards)
    for p in range(state.rules.players):
        out.update(state.hand(p))
    for meld in state.table:
        out.update(meld.physical_cards)
    return out


@given(players, limits, seeds, seeds, eagerness)
def test_k1_conservation_of_the_104_cards(n: int, limit: int, seed: int, policy: int,
                                          eager: float) -> None:  # fmt: skip
    """K1, K8: every state holds each of the 104 cards in exactly one zone, reshuffles too."""
    pack = Counter(CooCanRules().pack_cards())
    for state in random_play(first(n, limit, seed), policy, eager):
        assert zones(state) == pack
        assert all(len(m) >= 4 for m in state.table)  # K4: nothing smaller is ever laid


@given(players, limits, seeds, seeds, eagerness)
def test_k8_termination_within_the_turn_limit(n: int, limit: int, seed: int, policy: int,
                                              eager: float) -> None:  # fmt: skip
    """K8: with a turn limit every deal ends, within three actions a turn; a deal ends by a
    win (payments to the winner summing to zero, K9) or abandoned at the limit (no payments)."""
    states = list(random_play(first(n, limit, seed), policy, eager))
    assert len(states) <= 3 * limit + 2
    state = states[-1]
    result = state.result
    assert result is not None and sum(result.payments) == 0
    if result.outcome is Outcome.ABANDONED:
        assert state.turns == limit and result.payments == (0,) * n
    else:
        winner = result.winner
        assert winner is not None and state.hand(winner) == ()
        stake = state.rules.game_stake
        cooch = any(isinstance(a, Meld) and len(a.cards) == 10 for a in state.history)
        factor = 2 if cooch else 1  # K9: the Cooch pays double
        for q in range(n):
            if q != winner:
                assert result.payments[q] == -factor * (stake + 2 * spots(state.hand(q)))


@given(players, limits, seeds, seeds, eagerness)
def test_k7_no_dead_ends_and_the_one_meld_rule(n: int, limit: int, seed: int, policy: int,
                                               eager: float) -> None:  # fmt: skip
    """K3, K7: a state that is not over has a legal action, each of which applies; a turn is
    a draw or a take, at most one meld, then one discard; the card taken is not discarded."""
    state = None
    for state in random_play(first(n, limit, seed), policy, eager):
        if not state.is_over:
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            if state.melded:
                assert not any(isinstance(a, Meld) for a in legal)
            if state.taken is not None:
                assert Discard(state.taken) not in legal
    assert state is not None
    turn: list[object] = []
    for action in state.history[1:]:  # the opening discard (K2) stands alone
        turn.append(type(action))
        if isinstance(action, Discard):
            assert turn[0] in (Draw, Take) and turn.count(Meld) <= 1 and len(turn) <= 3
            turn = []
    assert isinstance(state.history[0], Discard)


@settings(max_examples=25)
@given(players, st.integers(150, 400), seeds, seeds)
def test_c7_determinism_across_the_reshuffle(n: int, limit: int, seed: int,
                                             policy: int) -> None:  # fmt: skip
    """C7, K8: the same rules, deck, dealer and actions give equal states, reshuffles and all;
    the position's JSON reads back equal, and a state pickles to an equal one."""
    state = list(random_play(first(n, limit, seed), policy, 0.6))[-1]
    note(f"{state.reshuffles} reshuffles")
    again = deal(state.rules, state.deck, state.dealer)
    for action in state.history:
        again = again.apply(str(action))
    assert again == state and hash(again) == hash(state)
    assert State.from_json(state.to_json()) == state
    assert pickle.loads(pickle.dumps(state)) == state


@settings(max_examples=25)
@given(players, st.integers(1, 300), seeds, seeds)
def test_c6_views_and_samples(n: int, limit: int, seed: int, policy: int) -> None:
    """C6: at some states of a deal, a sample drawn from each seat's view gives that view;
    the unseen cards are the deck's and the other hands' unknown ones, and the view's JSON
    names no deck; an illegal action raises citing its rule and leaves the state unchanged
    (E1)."""
    rng = random.Random(policy)
    for k, state in enumerate(random_play(first(n, limit, seed), policy, 0.6)):
        if k % 23:
            continue
        for p in range(n):
            view = state.view(p)
            assert view.sample_state(rng).view(p) == view
            if not state.is_over:
                hidden = sum(view.hand_sizes[q] - len(view.known[q]) for q in range(n) if q != p)
                assert len(view.unseen) == view.deck_size + hidden
                assert '"deck"' not in view.to_json()
        if not state.is_over:
            saved = pickle.dumps(state)
            with pytest.raises(IllegalActionError, match=r"\(K\d\)$"):
                state.apply("meld AC 2C 3C")
            assert pickle.loads(saved) == state
