"""The rummy engine's legal actions against a brute-force reading of the rules (M2-M5, M9).

The oracle (`tests/oracles/rummy.py`) knows nothing of the engine's
enumeration. Over many states reached by random play, the engine must offer
exactly the oracle's actions, and each must lead to the table and hand the
oracle expects.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from conquian import JOKER, CooncanRules, Force, Meld, new_game
from conquian.rummy import CooncanState
from oracles.rummy import oracle


def check(state: CooncanState) -> None:
    """The engine's legal actions are the oracle's, without repeats, with the same effect."""
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal)
    expected = oracle(state)
    assert set(legal) == set(expected), (
        f"missing {sorted(map(str, set(expected) - set(legal)))}, "
        f"extra {sorted(map(str, set(legal) - set(expected)))}"
    )
    p = state.current_player
    assert p is not None
    for action, (rest, after) in expected.items():
        if isinstance(action, (Meld, Force)):
            nxt = state.apply(action)
            assert Counter(nxt.hand(p)) == Counter(rest)
            assert nxt.table == after


def random_states(rules: CooncanRules, seed: int, cap: int) -> Iterator[CooncanState]:
    """States of one random game; melds and forces are played more often than chance would.

    Laying out more often puts more combinations, jokers and shifts on the
    table, which is where the rules are subtle.
    """
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    assert isinstance(state, CooncanState)
    while not state.is_over and cap:
        yield state
        cap -= 1
        actions = state.legal_actions()
        lays = [a for a in actions if isinstance(a, (Meld, Force))]
        pool = lays if lays and rng.random() < 0.7 else actions
        state = state.apply(pool[int(rng.random() * len(pool))])


@pytest.mark.parametrize(
    "rules",
    [
        CooncanRules.three_hand(turn_limit=60),
        CooncanRules.three_hand(jokers=1, turn_limit=60),
        CooncanRules.three_hand(jokers=1, stock="open", players=2, turn_limit=60),
    ],
    ids=["three-hand", "three-hand-joker", "three-hand-open-2p"],
)
def test_legal_actions_match_brute_force_three_hand(rules: CooncanRules) -> None:
    """M2-M5, M9: every state of several random three-hand games agrees with the oracle."""
    checked = 0
    for seed in range(6):
        for state in random_states(rules, seed, cap=120):
            check(state)
            checked += 1
    assert checked > 300


def test_legal_actions_match_brute_force_double_pack() -> None:
    """M2-M5, M9: double-pack states with hands of up to nine cards agree with the oracle."""
    checked = 0
    for seed in range(8):
        rules = CooncanRules.double_pack(players=2 + seed % 3, turn_limit=80)
        for state in random_states(rules, seed, cap=200):
            p = state.current_player
            assert p is not None
            hand = state.hand(p)
            if len(hand) <= 9 - 2 * hand.count(JOKER):
                check(state)
                checked += 1
    assert checked > 100
