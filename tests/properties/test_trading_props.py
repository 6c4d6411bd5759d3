"""Properties of T21, trading in Conquian, over random deals with trade rounds.

For 2 to 4 seats and 1 to 3 rounds, at every state of deals played with random legal
actions: conservation of the pack, the hand sizes of the rounds, legality agreement
(every legal action applies; random actions, trades of random cards among them, are legal
exactly when offered, and an illegal one leaves the state unchanged, naming its rule),
determinism and the record round trip; and in the rounds the view's sample gives the view
back (C6).
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import (
    ConquianRules,
    Discard,
    GameRecord,
    IllegalActionError,
    Pass,
    Take,
    Trade,
    new_game,
)
from conquian.offer import ConquianState
from strategies import conquian_trading_rules

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _zones(state: ConquianState) -> Counter[object]:
    zones: Counter[object] = Counter(state.pending + state.buried)
    for p in range(state.rules.players):
        zones.update(state.hand(p))
    for meld in state.table:
        zones.update(meld.physical_cards)
    if state.offer is not None:
        zones[state.offer] += 1
    zones.update(state.deck[len(state.deck) - state.stock_size :])
    return zones


def _random_action(rng: random.Random, state: ConquianState) -> object:
    c = rng.choice(state.rules.pack_cards())
    return rng.choice([Trade(c), Trade(c), Take(c), Discard(c), Pass(), Trade()])


@settings(max_examples=20, deadline=None)
@given(conquian_trading_rules(), seeds)
def test_t21_random_deals_with_trade_rounds(rules: ConquianRules, seed: int) -> None:
    """T21 (with T1–T19, C6, E1): the properties of the module, at every state."""
    rng = random.Random(seed)
    n, size = rules.players, rules.hand_size
    state = new_game(rules, seed=seed, dealer=seed % n)
    assert isinstance(state, ConquianState)
    pack = Counter(rules.pack_cards())
    rounds = n * rules.trades
    steps = 0
    while True:
        assert _zones(state) == pack  # conservation
        if steps < rounds:  # T21: the trade rounds, before the starter
            assert state.trading and state.offer is None and state.decision == "trade"
            assert state.current_player == (state.dealer + 1 + steps) % n
            assert all(len(state.hand(p)) == size for p in range(n))
            mine = state.hand(state.current_player)
            assert set(state.legal_actions()) == {Trade(c) for c in mine}
        elif steps == rounds:
            assert not state.trading and state.offer == state.deck[n * size]  # T11
        legal = set(state.legal_actions())
        for _ in range(3):
            action = _random_action(rng, state)
            if action in legal:
                continue
            before = state.to_json()
            try:
                state.apply(action)  # type: ignore[arg-type]
            except IllegalActionError as e:
                assert e.rule is not None
            else:
                raise AssertionError(f"{action} applied but was not offered")
            assert state.to_json() == before
        if steps <= rounds:  # C6: in the rounds and at the starter (later the draws of
            # three or four seats may need many deals, as without trading)
            seat = rng.randrange(n)
            view = state.view(seat)
            assert view.sample_state(random.Random(steps)).view(seat) == view
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        nxt = state.apply(action)
        assert nxt == state.apply(action)  # determinism
        state = nxt  # type: ignore[assignment]
        steps += 1
        assert steps < 400
    record = GameRecord.from_json(GameRecord.from_state(state).to_json())
    assert record.replay() == state
