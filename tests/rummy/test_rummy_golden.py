"""Golden counts for the rummy engine: distinct action sequences from fixed positions.

Like a chess engine's perft numbers, these count every sequence of legal
actions of length 1, 2, ... from a few fixed positions (a deal, then some
actions), stored in ``tests/data/cooncan_golden.json``. Any change to what is
legal anywhere in those trees changes a count: a silent change of the rules
(M2-M5, M9) fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conquian import CooncanRules, cards, new_game
from conquian.rummy import CooncanState

GOLDEN = json.loads((Path(__file__).parent.parent / "data" / "cooncan_golden.json").read_text())


def perft(state: CooncanState, depth: int) -> int:
    """The number of distinct action sequences of length `depth` (shorter if the deal ends)."""
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def position(entry: dict[str, Any]) -> CooncanState:
    """The position an entry describes: its deal, then its prefix of actions."""
    rules = CooncanRules(**entry["rules"])
    if "seed" in entry:
        state = new_game(rules, seed=entry["seed"], dealer=entry["dealer"])
    else:
        state = new_game(rules, deck=cards(entry["deck"]), dealer=entry["dealer"])
    assert isinstance(state, CooncanState)
    for action in entry["prefix"]:
        state = state.apply(action)
    return state


@pytest.mark.parametrize("entry", GOLDEN["positions"], ids=lambda e: e["name"])
def test_golden_action_sequence_counts(entry: dict[str, Any]) -> None:
    """M2-M5, M9: the number of action sequences to each depth is the stored one."""
    state = position(entry)
    assert [perft(state, d) for d in range(1, len(entry["counts"]) + 1)] == entry["counts"]
