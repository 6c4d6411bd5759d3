"""The JSON Schemas shipped in ``conquian/formats/schemas`` describe the documents the library
writes.

Documents generated from random deals of every game (records, positions and
every player's view, at every stage of a deal) validate against their
schema; documents the readers refuse for their shape (an unknown field, a
hidden card in a view, bad notation) do not.
"""

from __future__ import annotations

import copy
import json
import random
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianRules, CooncanRules, GameRecord, Rules, State, new_game

jsonschema = pytest.importorskip("jsonschema")

NAMES = ("record", "position", "view")
GAMES: tuple[Rules, ...] = (
    ConquianRules(),
    ConquianRules(pack="american", hand_size=8, max_sequence=5, borrow_middle=False),
    ConquianRules(players=3, trades=2),  # T21: trade rounds, hidden trades in views
    ConquianRules(pack="standard", players=3),  # T20: the full pack
    CooncanRules.three_hand(turn_limit=80),
    CooncanRules.three_hand(players=2, jokers=1, stock="open", splash_bonus=25),
    CooncanRules.double_pack(players=6, turn_limit=80),
)


def schema(name: str) -> dict[str, Any]:
    text = (
        resources.files("conquian.formats")
        .joinpath(f"schemas/{name}.schema.json")
        .read_text("utf-8")
    )
    loaded: dict[str, Any] = json.loads(text)
    return loaded


VALIDATORS = {
    name: jsonschema.Draft202012Validator(
        schema(name), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    for name in NAMES
}


def errors(name: str, document: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in VALIDATORS[name].iter_errors(document)
    ]


def walk(rules: Rules, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=rng.randrange(rules.players))
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


positions = st.builds(walk, st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 150))


@pytest.mark.parametrize("name", NAMES)
def test_each_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    """The files are schemas (checked against the meta-schema), named by their format."""
    document = schema(name)
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$id"].endswith(f"/{name}.schema.json")


def test_the_shared_definitions_agree() -> None:
    """Each file is self-contained; the definitions they share are the same in all three."""
    shared = set.intersection(*(set(schema(n)["$defs"]) for n in NAMES))
    assert {"card", "action", "rules", "meld", "result"} <= shared
    for key in shared:
        assert (
            schema("record")["$defs"][key]
            == schema("view")["$defs"][key]
            == schema("position")["$defs"][key]
        ), key


@settings(max_examples=40)
@given(positions, st.data())
def test_generated_documents_validate(state: State, data: st.DataObject) -> None:
    """A record, a position and every player's view of a random deal are valid documents."""
    record = GameRecord.from_state(
        state, player_names=[f"seat {s}" for s in range(state.rules.players)], metadata={"a": "b"}
    )
    assert errors("record", json.loads(record.to_json())) == []
    assert errors("position", json.loads(state.to_json())) == []
    for seat in range(state.rules.players):
        assert errors("view", json.loads(state.view(seat).to_json())) == []


def test_a_finished_deal_validates() -> None:
    """Results (win, tableau) are described too."""
    for rules in GAMES:
        for seed in range(3):
            state = walk(rules, seed, 10_000)
            assert state.is_over
            assert errors("position", json.loads(state.to_json())) == []
            assert errors("view", json.loads(state.view(0).to_json())) == []


def document(kind: str) -> dict[str, Any]:
    state = walk(CooncanRules.double_pack(players=3), 4, 60)
    text = {
        "record": GameRecord.from_state(state).to_json(),
        "position": state.to_json(),
        "view": state.view(1).to_json(),
    }[kind]
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        ("record", lambda d: d.update(format="conquian-position")),
        ("record", lambda d: d.update(seed=3)),
        ("record", lambda d: d["deck"].__setitem__(0, "1H")),
        ("record", lambda d: d["actions"].append("frobnicate 5H")),
        ("record", lambda d: d["rules"].update(jokers=1)),  # the double pack has 2 (C5)
        ("position", lambda d: d["snapshot"].pop("pack")),
        ("position", lambda d: d["snapshot"].update(offer="5H")),  # a two-hand field
        ("view", lambda d: d.update(deck=[])),  # a hidden zone
        ("view", lambda d: d.update(unseen=["5H"])),
        ("view", lambda d: d.update(pack=["5H"])),
        ("view", lambda d: d.pop("hand")),
        ("view", lambda d: d["table"].append({"owner": 0, "cards": ["5H", "6H"]})),
    ],
)
def test_misshapen_documents_are_refused(kind: str, change: Any) -> None:
    """A wrong format, an unknown or missing field, bad notation or a hidden zone is invalid."""
    good = document(kind)
    assert errors(kind, good) == []
    bad = copy.deepcopy(good)
    change(bad)
    assert errors(kind, bad) != []
