"""The JSON Schemas of match files and score sheets describe what the library writes."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianRules, CooncanRules, HeuristicAgent, Match

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")


def _schema(name: str) -> dict[str, Any]:
    text = (
        resources.files("conquian.formats")
        .joinpath(f"schemas/{name}.schema.json")
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


REGISTRY = referencing.Registry().with_resources(
    (_schema(n)["$id"], referencing.Resource.from_contents(_schema(n)))
    for n in ("record", "sheet", "match")
)
VALIDATORS = {
    n: jsonschema.Draft202012Validator(_schema(n), registry=REGISTRY) for n in ("sheet", "match")
}


@pytest.mark.parametrize("name", ["sheet", "match"])
def test_the_schemas_are_valid_draft_2020_12(name: str) -> None:
    """Each schema is itself a valid JSON Schema."""
    jsonschema.Draft202012Validator.check_schema(_schema(name))


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from([ConquianRules(), CooncanRules.three_hand(turn_limit=40)]),
    st.integers(0, 2**31),
    st.sampled_from(["pool", "next", "double", "points"]),
    st.integers(0, 60),
)
def test_match_files_and_sheets_validate(rules: Any, seed: int, scoring: str, moves: int) -> None:
    """Match files and sheets written at any point of a match validate; a file with an
    unknown field, or a deal with both a seed and a deck, does not."""
    match = Match(rules, seed=seed, scoring=scoring, deals=3)  # type: ignore[arg-type]
    agent = HeuristicAgent(seed)
    for _ in range(moves):
        if match.state.is_over:
            if match.is_over:
                break
            match = match.next_deal()
        else:
            match = match.apply(agent(match.state.view(match.state.current_player)))
    document = json.loads(match.to_json())
    VALIDATORS["match"].validate(document)
    VALIDATORS["sheet"].validate(json.loads(match.sheet.to_json()))
    bad = dict(document, colour="red")
    assert not VALIDATORS["match"].is_valid(bad)
    both = json.loads(match.to_json())
    both["played"][0]["deck"] = [str(c) for c in rules.pack_cards()]
    assert not VALIDATORS["match"].is_valid(both)
