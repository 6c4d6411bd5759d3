"""What the library writes it reads back: the limits checked at writing, long Cooncan deals, large
turn limits, the rules' player count, and the arguments of `GameRecord` (RULES.md C7, E2, E3)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import conquian.formats.codec
import conquian.formats.records
from conquian import (
    ConquianRules,
    CooncanRules,
    Discard,
    Draw,
    GameRecord,
    Outcome,
    RecordError,
    State,
    new_game,
)
from conquian.formats.jsonio import OUTCOMES
from conquian.formats.records import MAX_ACTIONS, MAX_INT, MAX_TEXT, MAX_TURNS
from conquian.rummy import CooncanState


def _long_deal(actions: int, rules: CooncanRules | None = None) -> CooncanState:
    """A three-hand deal with no turn limit, played by drawing and discarding only."""
    rules = rules or CooncanRules.three_hand()
    rng = random.Random(1)
    state = new_game(rules, seed=1)
    assert isinstance(state, CooncanState)
    while len(state.history) < actions:
        assert not state.is_over
        plain = [a for a in state.legal_actions() if isinstance(a, (Draw, Discard))]
        state = state.apply(plain[int(rng.random() * len(plain))])
    return state


def test_a_cooncan_deal_past_ten_thousand_actions_is_written_and_read_back() -> None:
    """M11 (no turn limit): a deal of 10,001 actions, written as a position and as a record,
    loads back to the same state."""
    state = _long_deal(10_001)
    assert State.from_json(state.to_json()) == state
    record = GameRecord.from_state(state)
    assert GameRecord.from_json(record.to_json()).replay() == state


def test_a_deal_past_the_action_limit_is_refused_when_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The action limit is checked at writing, with the RecordError the reader gives (a limit
    of 100 stands in for MAX_ACTIONS, so that the deal is short)."""
    state = _long_deal(101)
    monkeypatch.setattr(conquian.formats.codec, "MAX_ACTIONS", 100)
    monkeypatch.setattr(conquian.formats.records, "MAX_ACTIONS", 100)
    said = "actions: 101 actions, more than the limit of 100"
    with pytest.raises(RecordError, match=said):
        state.to_json()
    with pytest.raises(RecordError, match=said):
        GameRecord.from_state(state)
    monkeypatch.undo()
    text = state.to_json()
    monkeypatch.setattr(conquian.formats.codec, "MAX_ACTIONS", 100)
    with pytest.raises(RecordError, match=said):
        State.from_json(text)


def test_a_record_past_the_text_limit_is_refused_when_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MAX_TEXT is checked at writing too (a limit of 500 characters stands in for it)."""
    state = new_game(CooncanRules.three_hand(), seed=1)
    monkeypatch.setattr(conquian.formats.codec, "MAX_TEXT", 500)
    monkeypatch.setattr(conquian.formats.records, "MAX_TEXT", 500)
    with pytest.raises(RecordError, match="more than the limit of 500"):
        state.to_json()
    with pytest.raises(RecordError, match="more than the limit of 500"):
        GameRecord.from_state(state).to_json()


def test_every_deal_under_the_largest_recordable_turn_limit_fits() -> None:
    """MAX_TURNS (M6, M11): a turn is a draw or take and a discard, plus the cards laid, and a
    card laid stays on the table, so a deal of MAX_TURNS turns fits in MAX_ACTIONS; its text
    fits in MAX_TEXT (each meld action at most 40 characters plus 8 a card; 20,000 for the
    deck, the snapshot and the rest)."""
    pack = CooncanRules.double_pack().pack_cards()
    assert 2 * MAX_TURNS + len(pack) <= MAX_ACTIONS
    longest = max(len(json.dumps(f"{verb} {c}")) + 2 for verb in ("take", "discard") for c in pack)
    assert 2 * MAX_TURNS * longest + len(pack) * (40 + 8) + 20_000 <= MAX_TEXT


@pytest.mark.parametrize("limit", [2**53, 2**60, MAX_INT])
def test_rules_with_a_huge_turn_limit_are_recorded(limit: int) -> None:
    """M11: any turn limit up to MAX_INT is written and read back, in records and positions."""
    rules = CooncanRules.three_hand(turn_limit=limit)
    state = new_game(rules, seed=2).apply("draw")
    assert State.from_json(state.to_json()) == state
    record = GameRecord.from_state(state)
    again = GameRecord.from_json(record.to_json())
    assert again.rules == rules and again.replay() == state
    assert json.loads(record.to_json())["rules"]["turn_limit"] == limit


def test_a_turn_limit_past_the_largest_integer_is_refused_when_written() -> None:
    rules = CooncanRules.three_hand(turn_limit=MAX_INT + 1)
    state = new_game(rules, seed=2)
    with pytest.raises(RecordError, match=r"rules\.turn_limit"):
        state.to_json()
    with pytest.raises(RecordError, match=r"rules\.turn_limit"):
        GameRecord(rules, deck=rules.pack_cards())


def test_two_hand_rules_name_their_two_players() -> None:
    """The two-hand rules object in JSON names its player count; reading checks it, and
    documents without it still load."""
    state = new_game(ConquianRules(), seed=5)
    data: dict[str, Any] = json.loads(state.to_json())
    assert data["rules"]["players"] == 2
    del data["rules"]["players"]
    assert State.from_json(json.dumps(data)) == state
    data["rules"]["players"] = 5
    with pytest.raises(RecordError, match=r"rules\.players: the offer game has 2, 3 or 4 play"):
        State.from_json(json.dumps(data))
    data["rules"]["players"] = 3  # T16: three players hold eight cards, not ten
    with pytest.raises(RecordError, match=r"rules\.hand_size must be 8 with players=3"):
        State.from_json(json.dumps(data))


def test_the_outcomes_a_result_may_hold_are_the_outcome_values() -> None:
    assert tuple(o.value for o in Outcome) == OUTCOMES


# -- GameRecord's arguments ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"deck": None}, "deck"),
        ({"deck": 5}, "deck"),
        ({"metadata": 5}, "metadata"),
        ({"metadata": [("a",)]}, "metadata"),
        ({"metadata": "event"}, "metadata"),
        ({"player_names": 5}, "player_names"),
        ({"actions": 5}, "actions"),
    ],
)
def test_record_arguments_of_the_wrong_kind_name_the_argument(
    options: dict[str, Any], argument: str
) -> None:
    """E2: a bad argument raises a TypeError that names it, never an error from inside."""
    rules = ConquianRules()
    options = {"deck": rules.pack_cards(), **options}
    with pytest.raises(TypeError, match=argument):
        GameRecord(rules, **options)


def test_a_state_that_is_not_an_engines_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="a state made by new_game"):
        GameRecord.from_state(object())  # type: ignore[arg-type]
    # The unbound method on a non-state: in the compiled build, where State is a native
    # class, Python's own descriptor check refuses it first (still a TypeError).
    with pytest.raises(TypeError, match=r"a state made by new_game|doesn't apply to"):
        State.to_json(object())  # type: ignore[arg-type]


def test_an_action_text_past_its_limit_is_refused_when_recorded() -> None:
    """MAX_ACTION_TEXT is checked at writing too: a record cannot hold an action it could not
    read back (a meld of every card of the pack, never legal, stands in for a long one)."""
    from conquian import Meld
    from conquian.formats.records import MAX_ACTION_TEXT

    rules = CooncanRules.double_pack()
    long = Meld(rules.pack_cards()[:80])
    assert len(str(long)) > MAX_ACTION_TEXT
    with pytest.raises(RecordError, match=r"actions\[0\]: \d+ characters, more than the limit"):
        GameRecord(rules, deck=rules.pack_cards(), actions=[long])
