"""`to_dict()` (DESIGN.md, round 4): each JSON document as Python data, and `to_json()` the
dump of it, byte for byte the text written before `to_dict` existed (the golden file
``tests/data/json_documents_golden.json``, written by the library as it was then)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import conquian
from conquian import ConquianRules, CooCanRules, CooncanRules, HeuristicAgent, Match

GOLDEN = Path(__file__).parent.parent / "data" / "json_documents_golden.json"

RULES: dict[str, Any] = {
    "two-hand": ConquianRules(),
    "three-seats": ConquianRules(players=3),
    "three-hand": CooncanRules.three_hand(jokers=1),
    "double-pack": CooncanRules.double_pack(players=4),
    "coo-can": CooCanRules(players=3),
}


def _played(state: Any, steps: int) -> Any:
    bots = [HeuristicAgent(seed=p) for p in range(state.rules.players)]
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(bots[state.current_player](state.view(state.current_player)))
    return state


def documents() -> dict[str, Any]:
    """Every kind of document of every game, from fixed seeds and fixed bots."""
    out: dict[str, Any] = {}
    for name, rules in RULES.items():
        state = _played(conquian.new_game(rules, seed=11), 9)
        out[f"{name} position"] = state
        out[f"{name} view"] = state.view(1)
        out[f"{name} finished view"] = _played(state, 2000).view(0)
        match = Match(rules, seed=5, deals=2)
        bots = [HeuristicAgent(seed=p) for p in range(match.people)]
        while not match.state.is_over:
            person = match.current_person
            match = match.apply(bots[person](match.view(person).deal_view))
        match = match.next_deal()
        match = match.apply(match.state.legal_actions()[0])
        out[f"{name} match"] = match
        out[f"{name} match view"] = match.view(0)
        out[f"{name} sheet"] = match.sheet
    return out


def test_to_json_is_byte_for_byte_the_golden_text() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    docs = {key: _document(key) for key in golden}
    assert sorted(golden) == sorted(f"{name} {kind}" for name in RULES for kind in KINDS)
    for key, value in docs.items():
        assert value.to_json() == golden[key], key


_DOCUMENTS: dict[str, Any] = {}


def _document(key: str) -> Any:
    if not _DOCUMENTS:
        _DOCUMENTS.update(documents())
    return _DOCUMENTS[key]


KINDS = ("position", "view", "finished view", "match", "match view", "sheet")


@pytest.mark.parametrize("key", [f"{name} {kind}" for name in RULES for kind in KINDS])
def test_to_dict_is_the_json_document_as_python_data(key: str) -> None:
    value = _document(key)
    data = value.to_dict()
    # lists, not tuples: equal to what a JSON reader gives back, and so dumps the same
    assert data == json.loads(value.to_json())
    assert json.loads(json.dumps(data)) == data
    assert data["format"].startswith("conquian-")
    again = value.to_dict()
    assert again == data and again is not data  # a fresh document each call


def test_a_view_document_holds_no_hidden_card() -> None:
    """C6: `PlayerView.to_dict` holds what `to_json` holds, never the deck."""
    state = conquian.new_game(ConquianRules(), seed=7)
    data = state.view(1).to_dict()
    assert "deck" not in data and "unseen" not in data
    assert data["hand"] == [str(c) for c in state.hand(1)]
    assert all(str(c) not in data["hand"] for c in state.hand(0))


def test_a_match_view_embeds_the_view_document() -> None:
    match = Match(ConquianRules(), seed=7)
    data = match.view(1).to_dict()
    assert data["view"] == match.state.view(1).to_dict()
    assert data["sheet"]["players"] == 2
    assert "seed" not in data


if __name__ == "__main__":  # writes the golden file (run it only to change the formats)
    GOLDEN.write_text(
        json.dumps({k: v.to_json() for k, v in documents().items()}, indent=1) + "\n",
        encoding="utf-8",
    )
