"""Game records, positions and views as JSON (conquian.formats.records; RULES.md C6, C7, E2, E3).

Each kind of bad input has a test that asserts the text of the problem it
gives; every problem comes in one `RecordError`.
"""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conquian import (
    ConquianError,
    ConquianRules,
    ConquianState,
    CooCanRules,
    CooncanRules,
    CooncanState,
    IllegalActionError,
    RecordError,
    State,
    card,
    new_game,
)
from conquian.formats.records import (
    MAX_ACTION_TEXT,
    MAX_ACTIONS,
    MAX_INT,
    MAX_KEY,
    MAX_METADATA,
    MAX_PROBLEMS,
    MAX_STRING,
    MAX_TEXT,
    GameRecord,
)

ROOT = Path(__file__).resolve().parents[2]

Loader = Callable[[str], object]


def two_hand() -> ConquianState:
    """A two-hand deal mid-turn: the pone took the starter and melded it, nothing pending."""
    state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
    assert isinstance(state, ConquianState)
    return state


def three_hand() -> CooncanState:
    """A three-hand deal with a joker, a few turns in."""
    state = new_game(CooncanRules.three_hand(jokers=1, turn_limit=40), seed=3)
    assert isinstance(state, CooncanState)
    state = state.apply("take 8D")
    state = state.apply("discard 7S").apply("draw")
    assert isinstance(state, CooncanState)
    return state


def record_data(state: State | None = None) -> dict[str, Any]:
    """The JSON data of a record of `state` (default: the two-hand deal)."""
    return json.loads(GameRecord.from_state(state or two_hand()).to_json())  # type: ignore[no-any-return]


def position_data(state: State | None = None) -> dict[str, Any]:
    """The JSON data of the position of `state` (default: the two-hand deal)."""
    return json.loads((state or two_hand()).to_json())  # type: ignore[no-any-return]


def problems(load: Loader, data: object) -> tuple[str, ...]:
    """The problems `load` reports for `data` (JSON-encoded unless it is text or bytes)."""
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(RecordError) as info:
        load(text)  # type: ignore[arg-type]
    err = info.value
    assert str(err).endswith("; ".join(err.problems))
    return err.problems


def record_problems(data: object) -> tuple[str, ...]:
    """The problems of `data` as a game record."""
    return problems(GameRecord.from_json, data)


def position_problems(data: object) -> tuple[str, ...]:
    """The problems of `data` as a position."""
    return problems(State.from_json, data)


# -- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        ConquianRules(),
        ConquianRules.pagat(pack="american", hand_size=8),
        CooncanRules.three_hand(jokers=1, stock="open", splash_bonus=25, turn_limit=30),
        CooncanRules.double_pack(players=5, turn_limit=20),
    ],
    ids=["foster", "pagat-american-8", "three-hand-open", "double-pack-5"],
)
def test_record_and_position_round_trip_through_a_whole_deal(rules: Any) -> None:
    """C7: a finished deal's record and position load back to an equal state, text unchanged."""
    from conquian import HeuristicAgent, play

    final = play([HeuristicAgent() for _ in range(rules.players)], rules, seed=2)
    text = GameRecord.from_state(final).to_json()
    record = GameRecord.from_json(text)
    assert record.replay() == final
    assert record.to_json() == text
    assert State.from_json(final.to_json()) == final
    assert State.from_json(final.to_json()).to_json() == final.to_json()


def test_record_keeps_names_and_metadata() -> None:
    """Player names and metadata survive the round trip; metadata is kept sorted by key."""
    record = GameRecord.from_state(
        two_hand(),
        player_names=("Ann", "Bóris"),
        metadata={"event": "club night", "date": "1913-05-01"},
    )
    again = GameRecord.from_json(record.to_json())
    assert again == record and hash(again) == hash(record)
    assert again.player_names == ("Ann", "Bóris")
    assert again.metadata == (("date", "1913-05-01"), ("event", "club night"))
    assert '"Bóris"' in record.to_json()  # UTF-8 text, not \\u escapes


def test_record_accepts_bytes_and_replays_once() -> None:
    """from_json reads UTF-8 bytes too; replay gives the state it checked, at no cost."""
    state = two_hand()
    record = GameRecord.from_json(GameRecord.from_state(state).to_json().encode())
    assert record.replay() is record.replay()
    assert record.replay() == state


def test_record_is_a_value() -> None:
    """Records compare by value, hash, pickle, and are built from text too."""
    pack = ConquianRules().pack_cards()
    a = GameRecord(ConquianRules(), deck=pack, actions=["pass"])
    b = GameRecord(ConquianRules(), deck=" ".join(map(str, pack)), actions=("pass",))
    assert a == b and hash(a) == hash(b)
    assert pickle.loads(pickle.dumps(a)) == a
    assert a.replay().history == b.replay().history


def test_from_state_of_a_new_deal_has_no_actions() -> None:
    """The record of a fresh deal has its deck and dealer and no action."""
    state = new_game(CooncanRules.double_pack(players=6), seed=4, dealer=5)
    record = GameRecord.from_state(state)
    assert record.actions == () and record.dealer == 5 and record.deck == state.deck
    assert GameRecord.from_json(record.to_json()).replay() == state


@pytest.mark.parametrize("make", [two_hand, three_hand], ids=["two-hand", "three-hand"])
def test_position_snapshot_names_every_zone(make: Callable[[], State]) -> None:
    """A position holds the record and a snapshot of every zone of its game."""
    state = make()
    data = position_data(state)
    assert list(data) == ["format", "version", "rules", "dealer", "deck", "actions", "snapshot"]
    assert data["format"] == "conquian-position" and data["version"] == 1
    snap = data["snapshot"]
    if isinstance(state, ConquianState):
        assert list(snap) == [
            "current_player", "hands", "table", "offer", "offer_origin",
            "pending", "stock", "buried", "result",
        ]  # fmt: skip
        assert snap["stock"] == [str(c) for c in state.deck[-state.stock_size :]]
    else:
        assert isinstance(state, CooncanState)
        assert list(snap) == [
            "current_player", "phase", "hands", "table", "stock", "pack",
            "pack_known", "taken", "known", "turns", "result",
        ]  # fmt: skip
        assert snap["pack"] == [str(c) for c in state.pack]
        assert snap["taken"] is None and snap["known"][1] == ["8D"]
    assert snap["hands"] == [[str(c) for c in state.hand(p)] for p in range(state.rules.players)]
    assert State.from_json(state.to_json()) == state


def test_shifted_jokers_are_marked_in_a_position() -> None:
    """M9: a shifted joker is listed under "shifted" of its meld, and read back as shifted."""
    rules = CooncanRules.three_hand(jokers=1, players=2, turn_limit=150)
    import random

    for seed in range(200):
        state: State = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            actions = state.legal_actions()
            shifts = [a for a in actions if getattr(a, "shift", False)]
            lays = [a for a in actions if type(a).__name__ in ("Meld", "Force")]
            pool = shifts or (lays if lays and rng.random() < 0.9 else actions)
            state = state.apply(rng.choice(pool))
            if shifts:
                break
        if any('"shifted"' in line for line in state.to_json().splitlines()):
            break
    else:  # pragma: no cover - the search above always finds one
        pytest.fail("no joker shift found")
    data = position_data(state)
    meld = next(m for m in data["snapshot"]["table"] if "shifted" in m)
    assert all(j.startswith("JK=") and j in meld["cards"] for j in meld["shifted"])
    assert State.from_json(state.to_json()) == state
    del meld["shifted"]
    found = position_problems(data)
    assert any(p.startswith("snapshot.table[") and "but the actions lead to" in p for p in found)


def test_state_from_json_on_a_subclass_checks_the_game() -> None:
    """ConquianState.from_json refuses a Cooncan position; CooncanState.from_json reads it."""
    text = three_hand().to_json()
    assert CooncanState.from_json(text) == three_hand()
    assert problems(ConquianState.from_json, text) == (
        "rules.game: a three-hand position is not a ConquianState",
    )


# -- views -------------------------------------------------------------------------------------


def test_two_hand_view_json_has_exactly_the_view_fields() -> None:
    """C6: a two-hand view's JSON holds the view's public fields, never the deck or unseen."""
    state = new_game(ConquianRules(), seed=7)
    view = state.view(1)
    data = json.loads(view.to_json())
    assert list(data) == [
        "format", "version", "rules", "player", "dealer", "current_player", "decision", "hand",
        "hand_sizes", "table", "offer", "offer_origin", "pending", "stock_size", "buried",
        "hands", "history", "result", "legal_actions",
    ]  # fmt: skip
    assert data["format"] == "conquian-view" and data["player"] == 1 and data["hands"] is None
    assert data["hand"] == [str(c) for c in view.hand]
    assert data["legal_actions"] == ["pass"] and data["stock_size"] == 19
    assert "\n" not in view.to_json()


def test_cooncan_view_json_has_exactly_the_view_fields() -> None:
    """C6: a Cooncan view's JSON holds the view's public fields; known_pack is null when hidden."""
    view = three_hand().view(0)
    data = json.loads(view.to_json())
    assert list(data) == [
        "format", "version", "rules", "player", "dealer", "current_player", "decision", "hand",
        "hand_sizes", "table", "phase", "stock", "pack_size", "known", "known_pack", "turns",
        "hands", "history", "result", "legal_actions",
    ]  # fmt: skip
    assert data["known"][1] == ["8D"] and data["known_pack"] is None
    assert data["hands"] is None  # shown only once the deal is over (C6 "Showing")
    assert data["history"] == ["take 8D", "discard 7S", "draw"]
    assert data["legal_actions"] == []  # not his turn


def test_view_json_names_no_hidden_card() -> None:
    """C6: no card of the other hand or of the stock appears in a two-hand view's JSON."""
    state = two_hand()
    for p in (0, 1):
        text = state.view(p).to_json()
        hidden = set(state.hand(1 - p)) | set(state.deck[-state.stock_size :])
        tokens = set(re.findall(r"[0-9AJQK]{1,2}[CDHS]|JK", text))
        assert not {str(c) for c in hidden} & tokens


# -- bad text and structure --------------------------------------------------------------------


def test_not_json() -> None:
    """E2: text that is not JSON names the line and column."""
    assert record_problems('{"format": ') == ("not JSON: Expecting value at line 1, column 12",)
    assert record_problems("") == ("not JSON: Expecting value at line 1, column 1",)


def test_not_text() -> None:
    """A record is text or bytes: anything else is refused with its type."""
    assert record_problems_of(None) == ("a record is JSON text (str or bytes), not NoneType",)
    assert record_problems_of({"format": "x"}) == (
        "a record is JSON text (str or bytes), not dict",
    )


def record_problems_of(value: object) -> tuple[str, ...]:
    """The problems of a Python value passed as it is to GameRecord.from_json."""
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(value)  # type: ignore[arg-type]
    return info.value.problems


def test_bytes_that_are_not_utf8() -> None:
    """Bytes must be UTF-8; the bad byte is named."""
    assert record_problems(b'{"a": "\xff"}') == ("not UTF-8 text: invalid start byte at byte 7",)


def test_not_an_object() -> None:
    """The top level must be an object."""
    assert record_problems("[1, 2]") == ("the top level is a list of 2 items, not a JSON object",)
    assert position_problems('"x"') == ("the top level is the string 'x', not a JSON object",)


def test_text_too_long_is_refused_before_parsing() -> None:
    """Sizes: text over MAX_TEXT characters (or bytes) is refused without being parsed."""
    text = " " * MAX_TEXT + "{"
    assert record_problems(text) == (
        f"{MAX_TEXT + 1} characters, more than the limit of {MAX_TEXT}",
    )
    assert record_problems(text.encode()) == (
        f"{MAX_TEXT + 1} bytes, more than the limit of {MAX_TEXT}",
    )


def test_deep_nesting_is_reported_not_raised() -> None:
    """Deeply nested JSON gives a RecordError, never a RecursionError."""
    assert record_problems("[" * 100_000) == ("not JSON that can be read: nested too deeply",)
    deep = (
        '{"format": "conquian-record", "version": 1, "rules": ' + "[" * 50_000 + "]" * 50_000 + "}"
    )
    assert record_problems(deep) == ("not JSON that can be read: nested too deeply",)


def test_nan_infinity_and_huge_numbers() -> None:
    """NaN and Infinity are not JSON; integers past the parser's limit are refused too."""
    assert record_problems('{"a": NaN}') == ("not JSON that can be read: NaN is not a JSON number",)
    assert record_problems("[-Infinity]") == (
        "not JSON that can be read: -Infinity is not a JSON number",
    )
    assert record_problems("1" * 5000) == (
        "not JSON that can be read: Exceeds the limit (4300 digits) for integer string conversion",
    )


def test_duplicate_fields() -> None:
    """A field given twice in one object is a problem (JSON readers disagree on which wins)."""
    text = (
        GameRecord.from_state(two_hand())
        .to_json()
        .replace('"dealer": 0', '"dealer": 0, "dealer": 1')
    )
    assert record_problems(text) == ("the field dealer appears more than once in an object",)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format": None}, "format: missing"),
        (
            {"format": "chess-pgn"},
            "format: expected 'conquian-record' (got the string 'chess-pgn')",
        ),
        ({"format": 1}, "format: expected 'conquian-record' (got the number 1)"),
        (
            {"format": "conquian-position"},
            "format: expected 'conquian-record' (got the string 'conquian-position'); "
            "this is a position: load it with State.from_json",
        ),
        ({"version": None}, "version: missing"),
        ({"version": 2}, "version: this library reads version 1 (got the number 2)"),
        ({"version": "1"}, "version: this library reads version 1 (got the string '1')"),
        ({"version": True}, "version: this library reads version 1 (got true)"),
    ],
)
def test_unknown_format_or_version_stops_there(change: dict[str, Any], expected: str) -> None:
    """An unknown format or version is the only problem reported: nothing else can be read."""
    data = record_data()
    for key, value in change.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    data["deck"] = "garbage that would be a problem"
    assert record_problems(data) == (expected,)


def test_a_record_is_not_a_position_and_a_view_is_not_loadable() -> None:
    """The format names what the text is, and the message says how to load it."""
    assert position_problems(record_data()) == (
        "format: expected 'conquian-position' (got the string 'conquian-record'); "
        "this is a game record: load it with GameRecord.from_json",
    )
    view = json.loads(two_hand().view(0).to_json())
    assert record_problems(view)[0].endswith(
        "this is a player's view: load it with PlayerView.from_json"
    )


def test_unknown_and_missing_fields() -> None:
    """Every unknown field and every missing one is named."""
    data = record_data()
    del data["deck"], data["actions"]
    data["seed"] = 7
    data["line\nbreak"] = 1
    assert record_problems(data) == (
        "seed: unknown field",
        "'line\\nbreak': unknown field",
        "deck: missing",
        "actions: missing",
    )


# -- rules -------------------------------------------------------------------------------------


def test_rules_must_be_an_object_with_a_known_game() -> None:
    """The rules name one of the three games."""
    data = record_data()
    data["rules"] = ["two-hand"]
    assert record_problems(data)[0] == "rules: expected an object (got a list of 1 item)"
    data["rules"] = {"pack": "spanish"}
    assert record_problems(data)[0] == "rules.game: missing"
    data["rules"] = {"game": "gin"}
    assert record_problems(data)[0] == (
        "rules.game: unknown game 'gin' (use conquian, three-hand, double-pack or coo-can)"
    )


def test_every_bad_option_is_reported_with_the_rules_error_text() -> None:
    """Each bad option gives its RulesError message; unknown and missing options are named."""
    data = record_data()
    data["rules"] = {
        "game": "two-hand",
        "pack": "french",
        "hand_size": 7,
        "lay_down": 1,
        "borrow_middle": True,
        "jokers": 1,
    }
    assert record_problems(data) == (
        "rules.jokers: unknown option of the conquian game (its options are pack, hand_size, "
        "lay_down, borrow_middle, borrow_other_kind, max_sequence, players, after_starter, cut, "
        "trades, ace)",
        "rules.pack must be one of spanish, american, standard (got 'french')",
        "rules.hand_size must be one of 8, 9, 10 (got 7)",
        "rules.lay_down must be one of say, turn, meld (got 1)",
        "rules.borrow_other_kind: missing",
        "rules.max_sequence: missing",
    )


@pytest.mark.parametrize(("old", "lay_down"), [(True, "say"), (False, "meld")])
def test_t8_old_lay_down_from_hand_still_loads(old: bool, lay_down: str) -> None:
    """T8: records and positions written with the boolean lay_down_from_hand load as
    lay_down "say" (true) or "meld" (false), without borrow_other_kind (T9: off)."""
    for data, load in ((record_data(), GameRecord.from_json), (position_data(), State.from_json)):
        rules = data["rules"]
        del rules["lay_down"], rules["borrow_other_kind"]
        rules["lay_down_from_hand"] = old
        loaded = load(json.dumps(data))
        assert loaded.rules == ConquianRules(lay_down=lay_down)  # type: ignore[attr-defined]
    data = record_data()
    data["rules"]["lay_down_from_hand"] = old
    assert record_problems(data) == (
        "rules.lay_down_from_hand: unknown option of the conquian game (its options are pack, "
        "hand_size, lay_down, borrow_middle, borrow_other_kind, max_sequence, players, "
        "after_starter, cut, trades, ace)",
    )


def test_cooncan_options_are_checked_per_game() -> None:
    """Double pack: jokers are 2 and the stock closed; the limits of RULES.md Options apply."""
    data = record_data(three_hand())
    data["rules"] = {
        "game": "double-pack",
        "players": 8,
        "jokers": 1,
        "stock": "open",
        "splash_bonus": 30,
        "turn_limit": 0,
    }
    assert record_problems(data) == (
        "rules.players must be one of 2, 3, 4, 5, 6, 7 (got 8)",
        "rules.jokers must be one of 2 (got 1)",
        "rules.stock must be one of closed (got 'open')",
        "rules.splash_bonus must be one of None, 25, 50 (got 30)",
        "rules.turn_limit must be an int of at least 1 or None (got 0)",
    )


def test_option_values_of_the_wrong_kind() -> None:
    """Lists, objects, long strings and integers past MAX_INT never reach the rules class."""
    data = record_data(three_hand())
    data["rules"].update(players=[3], stock="x" * 100, turn_limit=MAX_INT + 1)
    assert record_problems(data) == (
        "rules.players: not a value of this option (got a list of 1 item)",
        f"rules.stock: not a value of this option (got the string '{'x' * 40}…')",
        f"rules.turn_limit: the number {MAX_INT + 1} is larger than {MAX_INT}, the largest allowed",
    )


# -- dealer, deck, actions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "expected"),
    [
        ("0", "dealer: expected a seat number (got the string '0')"),
        (True, "dealer: expected a seat number (got true)"),
        (0.0, "dealer: expected a seat number (got the number 0.0)"),
        (2, "dealer: no seat 2 among 2 players (0 to 1)"),
        (-1, "dealer: no seat -1 among 2 players (0 to 1)"),
        (10**40, "dealer: no seat of 41 digits among 2 players (0 to 1)"),
    ],
)
def test_bad_dealer(dealer: object, expected: str) -> None:
    """The dealer is a seat of the game."""
    data = record_data()
    data["dealer"] = dealer
    assert record_problems(data) == (expected,)


def test_deck_with_bad_cards() -> None:
    """E2: each bad card is named with its index; the conservation check waits for good cards."""
    data = record_data()
    data["deck"][3] = "5X"
    data["deck"][7] = 5
    data["deck"][9] = "x" * 50
    found = record_problems(data)
    assert found[0].startswith("deck[3]: unknown card '5X': write a rank")
    assert found[1:] == (
        "deck[7]: expected a card in notation, as '5H' (got the number 5)",
        f"deck[9]: expected a card in notation, as '5H' (got the string '{'x' * 40}…')",
    )


def test_deck_that_breaks_conservation() -> None:
    """E3: a card twice, a card missing, a card not in the pack, the wrong number of cards."""
    data = record_data()
    deck = data["deck"]
    lost = sorted(card(t) for t in deck[1:3])
    deck[1] = deck[0]
    deck[2] = "8H"  # not in the Spanish pack
    deck.append("JK")
    assert record_problems(data) == (
        "deck: 41 cards, but the conquian pack has 40",
        f"deck: {deck[0]} appears twice, the pack has it once (found in deck[0], deck[1])",
        "deck: 8H is not a card of the conquian pack (found in deck[2])",
        "deck: JK is not a card of the conquian pack (found in deck[40])",
        f"deck: {lost[0]} is missing",
        f"deck: {lost[1]} is missing",
    )


def test_deck_of_the_double_pack_counts_copies() -> None:
    """E3: in the double pack every card is there twice; a third copy is named."""
    state = new_game(CooncanRules.double_pack(), seed=1)
    data = record_data(state)
    first = data["deck"][0]
    other = next(i for i, c in enumerate(data["deck"]) if c != first)
    lost = data["deck"][other]
    data["deck"][other] = first
    found = record_problems(data)
    assert found[0].startswith(f"deck: {first} appears 3 times, the pack has it 2 times (found in")
    assert found[1] == f"deck: {lost} is missing"


def test_deck_too_long_is_not_read() -> None:
    """Sizes: a list of more than MAX_CARDS cards is refused without reading its cards."""
    data = record_data()
    data["deck"] = ["??"] * 10_000
    assert record_problems(data) == ("deck: 10000 cards, more than the limit of 200",)


def test_actions_with_bad_notation_name_index_and_column() -> None:
    """E2: actions[12]: unknown card '5X' at column 5; every bad action is named."""
    data = record_data()
    data["actions"] = ["take KD", "meld JD QD KD", *(["pass"] * 10), "take 5X", 7, "x" * 201]
    found = record_problems(data)
    assert found[0].startswith("actions[12]: unknown card '5X' at column 5: write a rank")
    assert found[1:3] == (
        "actions[13]: expected an action in notation, as 'take 5H' (got the number 7)",
        f"actions[14]: 201 characters, more than the limit of {MAX_ACTION_TEXT}",
    )
    # the actions before the first bad one are replayed: the pass after a meld is illegal
    assert found[3].startswith("actions[2]: illegal action 'pass': ")
    assert len(found) == 4


def test_illegal_action_names_its_index_and_rule() -> None:
    """E1 in a record: the first illegal action, its index and the IllegalActionError text."""
    data = record_data()
    data["actions"] = ["take KD", "discard 2C"]
    found = record_problems(data)
    assert len(found) == 1
    assert found[0].startswith("actions[1]: illegal action 'discard 2C': ")
    assert re.search(r"\(T\d+\)$", found[0])
    with pytest.raises(IllegalActionError) as info:
        new_game(ConquianRules(), seed=5).apply("take KD").apply("discard 2C")
    assert found[0] == f"actions[1]: {info.value}"


def test_illegal_action_before_a_bad_one_is_still_found() -> None:
    """Every problem at once: the illegal action before a notation error is reported too."""
    data = record_data()
    data["actions"] = ["pass", "draw", "pass", "take 5Q"]
    found = record_problems(data)
    assert found[0].startswith("actions[3]: unknown card '5Q'")
    assert found[1].startswith("actions[1]: illegal action 'draw'")
    assert len(found) == 2


def test_shuffled_actions_are_illegal() -> None:
    """C7: the order of the actions matters; replaying them out of order breaks a rule."""
    data = record_data()
    data["actions"].reverse()
    found = record_problems(data)
    assert len(found) == 1 and found[0].startswith("actions[0]: illegal action 'meld JD QD KD'")


def test_too_many_actions_are_not_read() -> None:
    """Sizes: more than MAX_ACTIONS actions are refused before any is parsed."""
    data = record_data()
    data["actions"] = ["pass"] * (MAX_ACTIONS + 1)
    assert record_problems(data) == (
        f"actions: {MAX_ACTIONS + 1} actions, more than the limit of {MAX_ACTIONS}",
    )


def test_problems_are_capped_and_counted() -> None:
    """A flood of bad items lists MAX_PROBLEMS problems and counts the rest."""
    data = record_data()
    data["actions"] = [0] * 150
    found = record_problems(data)
    assert len(found) == MAX_PROBLEMS + 1
    assert found[-1] == "and 50 more problems"


# -- names and metadata ------------------------------------------------------------------------


def test_bad_player_names() -> None:
    """Names: one string per seat, each at most MAX_STRING characters of valid Unicode."""
    data = record_data()
    data["player_names"] = ["Ann", 7, "x" * (MAX_STRING + 1)]
    assert record_problems(data) == (
        "player_names[1]: expected a string (got the number 7)",
        f"player_names[2]: {MAX_STRING + 1} characters, more than the limit of {MAX_STRING}",
        "player_names: 3 names for 2 players (give one per seat, or none)",
    )
    data["player_names"] = ["Ann", "\ud800"]
    assert record_problems(data) == (
        "player_names[1]: not valid Unicode text (it holds a lone surrogate)",
    )


def test_bad_metadata() -> None:
    """Metadata: an object of strings, keys at most MAX_KEY long, values MAX_STRING."""
    data = record_data()
    data["metadata"] = {
        "round": 3,
        "event": "x" * (MAX_STRING + 1),
        "k" * (MAX_KEY + 1): "v",
        "": "e",
    }
    assert record_problems(data) == (
        "metadata.round: expected a string (got the number 3)",
        f"metadata.event: {MAX_STRING + 1} characters, more than the limit of {MAX_STRING}",
        f"metadata: {MAX_KEY + 1} characters, more than the limit of {MAX_KEY}",
        "metadata: a key is empty",
    )
    data["metadata"] = ["event", "x"]
    assert record_problems(data) == ("metadata: expected an object (got a list of 2 items)",)
    data["metadata"] = {str(i): "v" for i in range(MAX_METADATA + 1)}
    assert record_problems(data) == (
        f"metadata: {MAX_METADATA + 1} entries, more than the limit of {MAX_METADATA}",
    )


def test_all_problems_at_once() -> None:
    """STYLE.md (python-chess status()): one load reports every problem, each named."""
    data = record_data()
    data["dealer"] = 9
    data["deck"][0] = "ZZ"
    data["actions"][1] = "meld"
    data["metadata"] = {"date": 1913}
    found = record_problems(data)
    assert [p.split(":")[0] for p in found] == ["dealer", "deck[0]", "actions[1]", "metadata.date"]


def test_record_error_is_a_value_error_and_a_conquian_error() -> None:
    """Callers may catch RecordError, ConquianError or ValueError."""
    with pytest.raises(ValueError):
        GameRecord.from_json("{")
    assert issubclass(RecordError, ConquianError)


# -- building a record in Python ---------------------------------------------------------------


def test_constructor_checks_every_field() -> None:
    """E3: GameRecord(...) refuses a bad deck, dealer, names or metadata, all at once."""
    pack = list(ConquianRules().pack_cards())
    pack[0] = pack[1]
    with pytest.raises(RecordError) as info:
        GameRecord(
            ConquianRules(),
            deck=pack,
            dealer=3,
            player_names=("Ann",),
            metadata={"event": 5},  # type: ignore[dict-item]
        )
    assert info.value.problems == (
        "deck: 2C appears twice, the pack has it once (found in deck[0], deck[1])",
        "deck: AC is missing",
        "dealer: no seat 3 among 2 players (0 to 1)",
        "player_names: 1 names for 2 players (give one per seat, or none)",
        "metadata.event: expected a string (got the number 5)",
    )


def test_constructor_refuses_strings_where_sequences_are_meant() -> None:
    """One string for the actions or the names is a mistake, not a sequence of letters."""
    pack = ConquianRules().pack_cards()
    with pytest.raises(TypeError):
        GameRecord(ConquianRules(), deck=pack, actions="pass")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        GameRecord(ConquianRules(), deck=pack, player_names="Ann")


def test_replay_reports_an_illegal_action_of_a_built_record() -> None:
    """E1: replay of a record built in Python names the illegal action."""
    record = GameRecord(ConquianRules(), deck=ConquianRules().pack_cards(), actions=["draw"])
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.problems[0].startswith("actions[0]: illegal action 'draw'")


# -- positions: the snapshot on its own, then against the replay -------------------------------


def test_snapshot_missing_or_with_unknown_fields() -> None:
    """The snapshot has exactly its game's fields."""
    data = position_data()
    del data["snapshot"]
    assert position_problems(data) == ("snapshot: missing",)
    data = position_data()
    del data["snapshot"]["stock"]
    data["snapshot"]["pack"] = []
    assert position_problems(data) == ("snapshot.pack: unknown field", "snapshot.stock: missing")


def test_snapshot_card_twice_and_missing() -> None:
    """E3: a card in two zones and the card then missing are both named, with the zones."""
    data = position_data()
    snap = data["snapshot"]
    lost, snap["hands"][0][0] = snap["hands"][0][0], snap["stock"][0]
    found = position_problems(data)
    assert found[:2] == (
        f"snapshot: {snap['stock'][0]} appears twice, the pack has it once "
        "(found in snapshot.hands[0], snapshot.stock)",
        f"snapshot: {lost} is missing",
    )
    assert found[2].startswith("snapshot.hands[0] is ") and "but the actions lead to" in found[2]


def test_snapshot_unknown_card() -> None:
    """E2: a bad card in a zone is named by its path; no 'missing' noise follows."""
    data = position_data()
    data["snapshot"]["hands"][1][2] = "ZZ"
    data["snapshot"]["offer"] = 5
    found = position_problems(data)
    assert found[0].startswith("snapshot.hands[1][2]: unknown card 'ZZ'")
    assert found[1] == "snapshot.offer: expected a card in notation, as '5H' (got the number 5)"
    assert len(found) == 2


def test_snapshot_hand_sizes_two_hand() -> None:
    """T2, E3: hand and melds make the hand size (one more for the player melding)."""
    data = position_data()
    snap = data["snapshot"]
    snap["stock"].append(snap["hands"][0].pop())
    found = position_problems(data)
    assert found[0] == (
        "snapshot.hands[0]: seat 0 holds 9 cards with 0 melded, 9 in all; there should be 10 (T2)"
    )


def test_snapshot_invalid_meld_and_owner() -> None:
    """E3: a meld that is no combination is named with the reason; an owner must be a seat."""
    data = position_data()
    data["snapshot"]["table"][0]["cards"] = ["JD", "QD", "2D"]
    data["snapshot"]["table"].append({"owner": 2, "cards": ["AC"]})
    found = position_problems(data)
    assert (
        "snapshot.table[0]: JD QD 2D is not an unbroken sequence of the spanish pack: "
        "3D to 7D are missing (C4)" in found
    )
    assert "snapshot.table[1].owner: no seat 2 among 2 players (0 to 1)" in found


def test_snapshot_meld_of_two_cards() -> None:
    """C3: no combination of fewer than three cards stands on the table."""
    data = position_data()
    data["snapshot"]["table"][0]["cards"] = ["JD", "QD"]
    found = position_problems(data)
    assert "snapshot.table[0]: a combination needs at least three cards (C3)" in found


def test_snapshot_consistency_offer_and_result() -> None:
    """T4: an origin only with an offer; the current player is null exactly when it is over."""
    data = position_data()
    data["snapshot"]["offer_origin"] = "turned"
    data["snapshot"]["current_player"] = None
    found = position_problems(data)
    assert found[:2] == (
        "snapshot.current_player: null exactly when the deal is over "
        "(got null with the result null)",
        "snapshot.offer_origin: null exactly when no card is on offer (T4)",
    )


def test_snapshot_bad_result() -> None:
    """A result is an outcome, a winner and payments summing to zero, one per seat."""
    data = position_data()
    data["snapshot"]["result"] = {"outcome": "win", "winner": 0, "payments": [1, 1]}
    assert position_problems(data)[0] == "snapshot.result: payments must sum to zero (got (1, 1))"
    data["snapshot"]["result"] = {"outcome": "draw", "winner": 5, "payments": [0]}
    found = position_problems(data)
    assert found[:3] == (
        'snapshot.result.outcome: expected one of "win", "tableau", "abandoned" '
        "(got the string 'draw')",
        "snapshot.result.winner: no seat 5 among 2 players (0 to 1)",
        "snapshot.result.payments: 1 payments for 2 players",
    )


def test_snapshot_that_does_not_match_the_replay() -> None:
    """C7: a snapshot valid on its own must still be the state the actions lead to."""
    data = position_data()
    snap = data["snapshot"]
    snap["stock"][0], snap["stock"][1] = snap["stock"][1], snap["stock"][0]
    a, b = snap["stock"][:2]
    found = position_problems(data)
    assert len(found) == 1
    assert found[0].startswith(f"snapshot.stock is {a} {b} ")
    assert f"but the actions lead to {b} {a} " in found[0]


def test_snapshot_swapped_hands() -> None:
    """Both hands are named when the snapshot gives them to the wrong seats."""
    data = position_data()
    data["snapshot"]["hands"].reverse()
    found = position_problems(data)
    assert [p.split(" ")[0] for p in found] == [
        "snapshot.hands[0]:",
        "snapshot.hands[1]:",
        "snapshot.hands[0]",
        "snapshot.hands[1]",
    ]


def test_cooncan_snapshot_checks() -> None:
    """C6, M10, M11: known cards are held, no empty hand mid-deal, turns within the limit."""
    data = position_data(three_hand())
    snap = data["snapshot"]
    snap["known"][0] = ["8D"]
    snap["pack"].extend(snap["hands"][2])
    snap["hands"][2] = []
    snap["turns"] = 41
    snap["phase"] = "discard"
    found = position_problems(data)
    assert "snapshot.known[0]: 8D not in seat 0's hand (C6)" in found
    assert "snapshot.hands[2]: seat 2 holds no card, but the deal is not over (M10)" in found
    assert "snapshot.turns: 41 turns, more than the turn limit of 40 (M11)" in found
    assert 'snapshot.phase: expected one of "draw", "play" (got the string \'discard\')' in found


def test_cooncan_snapshot_wrong_number_of_hands() -> None:
    """One hand per seat."""
    data = position_data(three_hand())
    data["snapshot"]["hands"].pop()
    found = position_problems(data)
    assert found[0] == "snapshot.hands: 2 lists for 3 players"


def test_shifted_must_name_a_joker_of_the_meld() -> None:
    """M9: "shifted" lists named jokers of that meld only."""
    data = position_data()
    data["snapshot"]["table"][0]["shifted"] = ["JD"]
    found = position_problems(data)
    assert found == (
        "snapshot.table[0].shifted[0]: expected a named joker of this meld, as 'JK=6H' "
        "(got the string 'JD')",
    )


def test_position_with_an_illegal_action_and_a_bad_snapshot() -> None:
    """Every problem at once: the snapshot's own problems, then the illegal action."""
    data = position_data()
    data["actions"][1] = "meld JD QD"
    data["snapshot"]["buried"] = ["KD"]
    found = position_problems(data)
    # the snapshot is checked on its own before the actions are replayed
    assert found[0].startswith("snapshot: KD appears twice, the pack has it once ")
    assert found[1].startswith("actions[1]: illegal action 'meld JD QD'")
    assert len(found) == 2


# -- the docs' examples are the library's output -----------------------------------------------


def _json_blocks(path: Path) -> list[str]:
    """The ```json blocks of a Markdown file."""
    return re.findall(r"^```json\n(.*?)^```$", path.read_text(encoding="utf-8"), re.M | re.S)


def test_examples_of_the_format_specification_load_and_are_canonical() -> None:
    """docs/reference/records.md: each record and position example loads and is written back
    unchanged (so the specification's examples are what the library writes)."""
    blocks = _json_blocks(ROOT / "docs" / "reference" / "records.md")
    formats = []
    for text in blocks:
        data = json.loads(text)
        formats.append(data["format"])
        if data["format"] == "conquian-record":
            assert GameRecord.from_json(text).to_json() == text.rstrip("\n")
        elif data["format"] == "conquian-position":
            assert State.from_json(text).to_json() == text.rstrip("\n")
    assert {"conquian-record", "conquian-position", "conquian-view"} <= set(formats)


def test_rules_are_written_with_every_option() -> None:
    """A record writes every field of the rules class that declares an option (the variant
    is the game): an option written only when it is not the default (T21, T22, T25, T26) is
    absent at its default, so documents of before stay as they were, and present otherwise."""
    import attrs

    from conquian.rules import options

    pone = ConquianRules(after_starter="pone", trades=1, cut="low", ace="both")
    games = (ConquianRules(), pone, CooncanRules.three_hand(), CooncanRules.double_pack())
    for rules in (*games, CooCanRules(players=3)):
        data = record_data(new_game(rules, seed=1))["rules"]
        fields = {f.name for f in attrs.fields(type(rules))} - {"variant"}
        for option in options(type(rules)):
            if option.sparse and getattr(rules, option.name) == option.default:
                fields -= {option.name}
        assert set(data) == fields | {"game", "players"}  # two-hand names its 2 players too
        assert data["game"] == rules.game and data["players"] == rules.players
    assert {"after_starter", "cut", "trades", "ace"} <= set(
        record_data(new_game(pone, seed=1))["rules"]
    )
    assert not {"after_starter", "cut", "trades", "ace"} & set(
        record_data(new_game(ConquianRules(), seed=1))["rules"]
    )


# -- the command line ---------------------------------------------------------------------------


def test_cli_replay_prints_names_and_metadata_without_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`conquian replay FILE` shows the names and metadata, escaping control characters."""
    from conquian.cli import main

    record = GameRecord.from_state(
        two_hand(), player_names=("Ann", "Bob"), metadata={"event": "a\x1b[31mred"}
    )
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seat 0: Ann, seat 1: Bob" in out
    assert "event: 'a\\x1b[31mred'" in out and "\x1b" not in out
    assert "2. seat 1: meld J" in out and "the record stops before the end" in out


def test_cli_replay_of_a_bad_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad record exits with status 2 and every problem on one line."""
    from conquian.cli import main

    data = record_data()
    data["dealer"] = "x\ny"
    data["actions"] = ["take 5X"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"conquian: error: {path}: invalid record: dealer: expected a seat")
    assert "actions[0]: unknown card '5X'" in err
