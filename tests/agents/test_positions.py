"""benchmarks/positions.py and its suite benchmarks/positions.json: the stored positions
rebuild, their actions are the views' legal actions, and the valuation's paths work."""

from __future__ import annotations

import json
import math
import random
from itertools import combinations
from typing import Any

import pytest

from benchmark_scripts import BENCHMARKS, benchmark

positions = benchmark("positions")
SUITE: dict[str, Any] = json.loads((BENCHMARKS / "positions.json").read_text())
STORED: list[dict[str, Any]] = SUITE["positions"]


def _smallest(kind: str) -> dict[str, Any]:
    """The stored position of that method quickest to value again: the fewest deals played,
    then the fewest hidden hands to list, among those where the opponent's choices refuse
    some hands but not all but one."""
    return min(
        (
            p
            for p in STORED
            if p["method"]["kind"] == kind
            # some hands refused, and more than one left for the samplers to move between
            and p["method"]["candidates"] > p["method"]["hands"] >= 2
        ),
        key=lambda p: (
            p["method"]["samples"] * len(p["actions"]) if kind == "exact" else 0,
            p["method"]["candidates"],
            len(p["history"]),
        ),
    )


def test_the_suite_has_its_positions_in_every_bin() -> None:
    assert len(STORED) >= 200
    labels = [positions.bin_of(low) for low, _ in positions.BINS]
    assert SUITE["bins"] == labels
    counts = {b: sum(p["bin"] == b for p in STORED) for b in labels}
    assert min(counts.values()) >= 200 // len(labels) - 1, counts
    assert len({p["seed"] for p in STORED}) == len(STORED)  # at most one position a deal


def test_each_position_has_its_fields_and_a_best_action() -> None:
    for p in STORED:
        assert {"seed", "players", "seat", "stock", "bin", "history", "method", "best"} <= set(p)
        opponent = (p["seat"] + 1) % len(p["players"])  # the seat read: his left neighbour
        assert p["players"][opponent] == "heuristic@v1"
        assert p["bin"] == positions.bin_of(p["stock"])
        method = p["method"]
        assert method["kind"] in ("exact", "enumerated", "rejection", "chain")
        if method["kind"] in ("exact", "enumerated"):
            assert 1 <= method["hands"] <= method["candidates"] <= positions.ENUMERATE
        if method["kind"] != "exact":
            assert method["samples"] >= 1000
        actions = p["actions"]
        assert len(actions) >= 2
        best = max(a["value"] for a in actions)
        for a in actions:
            assert 0.0 <= a["value"] <= 1.0
            assert a["se"] >= 0 and a["diff_se"] >= 0
            # T12 scores, ties within two standard errors of the paired difference (the
            # stored figures are rounded to six places: a gap at the bound is not checked).
            bound = positions.TIE * a["diff_se"] - (best - a["value"])
            if abs(bound) > 1e-5:
                assert a["tied"] == (bound > 0)
        assert [a["value"] for a in actions if a["action"] == p["best"]] == [best]


def test_each_stored_view_rebuilds_with_its_legal_actions() -> None:
    for p in STORED:
        state = positions.rebuild(p)
        assert state.current_player == p["seat"]
        view = state.view(p["seat"])
        assert view.pack_size == p["stock"]
        assert sorted(str(a) for a in view.legal_actions) == sorted(
            a["action"] for a in p["actions"]
        )


def test_an_exact_position_values_again_to_its_stored_values() -> None:
    p = _smallest("exact")
    again = positions.value(p, 10, random.Random(0))
    assert again["method"]["hands"] == p["method"]["hands"]
    assert [(a["action"], a["value"]) for a in again["actions"]] == [
        (a["action"], a["value"]) for a in p["actions"]
    ]


def test_the_hands_found_consistent_are_those_the_bot_explains() -> None:
    p = _smallest("enumerated")
    here = positions.Position(p)
    assert here.consistent(here.true_hand)  # the opponent played heuristic@v1 on it
    found = [h for h in combinations(here.unseen, here.hidden) if here.consistent(h)]
    assert len(found) == p["method"]["hands"]
    assert math.comb(len(here.unseen), here.hidden) == p["method"]["candidates"]
    valued = positions.value(p, 12, random.Random(3))
    assert valued["method"]["samples"] == 12
    assert all(0.0 <= a["value"] <= 1.0 for a in valued["actions"])


@pytest.mark.parametrize("kind", ["rejection", "chain"])
def test_the_sampled_hands_are_consistent(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    p = _smallest("enumerated")
    monkeypatch.setattr(positions, "ENUMERATE", 0)
    monkeypatch.setattr(positions, "PILOT", 10)
    monkeypatch.setattr(positions, "ACCEPT", 0.0 if kind == "rejection" else 1.1)
    monkeypatch.setattr(positions, "BURN", 2)
    valued = positions.value(p, 20, random.Random(5))
    method = valued["method"]
    assert method["kind"] == kind
    assert method["samples"] == 20
    if kind == "chain":
        assert method["distinct_hands"] <= p["method"]["hands"]
    assert all(0.0 <= a["value"] <= 1.0 for a in valued["actions"])


def test_regret_is_nothing_for_a_tie_and_the_gap_otherwise() -> None:
    p = {
        "seed": 1,
        "actions": [
            {"action": "pass", "value": 0.6, "tied": True},
            {"action": "take 2D", "value": 0.55, "tied": True},
            {"action": "meld 2C 2H 2S", "value": 0.4, "tied": False},
        ],
    }
    assert positions.regret(p, "pass") == 0.0
    assert positions.regret(p, "take 2D") == 0.0
    assert positions.regret(p, "meld 2C 2H 2S") == pytest.approx(0.2)
    with pytest.raises(ValueError):
        positions.regret(p, "discard 7S")
