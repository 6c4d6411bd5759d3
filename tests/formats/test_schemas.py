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

from conquian import (
    ConquianRules,
    CooCanRules,
    CooncanRules,
    GameRecord,
    RecordError,
    Rules,
    RulesError,
    State,
    new_game,
)
from conquian.formats.schemas import FILES, rules_defs, written
from conquian.rules import options

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
    ConquianRules(ace="both", cut="low"),  # T26: the ace above the king too, written
    CooCanRules(players=3, turn_limit=60),
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


def test_the_rules_objects_of_the_schemas_are_those_the_fields_declare() -> None:
    """Each schema's rules objects are written from the options the rules classes declare
    (`conquian.rules.options`): a schema edited by hand, or an option added to a class
    without running ``python -m conquian.formats.schemas``, fails here."""
    assert set(FILES) == set(NAMES)
    for name in FILES:
        document = schema(name)
        assert document == written(document), (
            f"{name}.schema.json and the rules classes disagree: "
            "run python -m conquian.formats.schemas"
        )
    ace = copy.deepcopy(schema("record"))
    del ace["$defs"]["twoHandRules"]["properties"]["ace"]  # as the schema before T26
    assert ace != written(ace)


def _make(cls: type, game: str, option: str, value: object) -> Rules:
    if cls is CooncanRules:
        return CooncanRules(variant=game, **{option: value})  # type: ignore[arg-type]
    if cls is ConquianRules and option == "hand_size" and value == 7:
        return ConquianRules(players=4)  # T16: seven cards with four seats
    made: Rules = cls(**{option: value})
    return made


CLASSES = (
    (ConquianRules, ("conquian",)),
    (CooncanRules, ("three-hand", "double-pack")),
    (CooCanRules, ("coo-can",)),
)


@pytest.mark.parametrize(("cls", "games"), CLASSES, ids=lambda v: getattr(v, "__name__", ""))
def test_every_value_of_every_option_is_a_valid_document(cls: type, games: tuple[str]) -> None:
    """For every declared option and every value it allows in each game (or the ends of its
    range), the record of a deal under those rules validates against the schema and reads
    back; a value the option refuses is refused by the schema and by the reader alike."""
    assert rules_defs().keys() == {"twoHandRules", "cooncanRules", "coocanRules"}
    for game in games:
        for option in options(cls):
            for value in option.choices(game):
                rules = _make(cls, game, option.name, value)
                record = GameRecord.from_state(new_game(rules, seed=1))
                data = json.loads(record.to_json())
                assert errors("record", data) == [], (option.name, value)
                assert GameRecord.from_json(record.to_json()).rules == rules
            bad = "nonsense" if option.values else (option.minimum or 0) - 1
            with pytest.raises(RulesError):
                _make(cls, game, option.name, bad)
            data = json.loads(
                GameRecord.from_state(
                    new_game(_make(cls, game, option.name, option.choices(game)[0]), seed=1)
                ).to_json()
            )
            data["rules"][option.name] = bad
            assert errors("record", data) != [], (option.name, bad)
            with pytest.raises(RecordError, match=option.name):
                GameRecord.from_json(json.dumps(data))
