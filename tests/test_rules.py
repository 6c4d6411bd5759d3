"""Rules objects, their options and presets (RULES.md Options)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from conquian import ConquianRules, CooncanRules, RulesError


def test_conquian_defaults_are_foster_1913() -> None:
    """ConquianRules() is Foster 1913: Spanish pack, ten cards, every option on, no cap."""
    rules = ConquianRules()
    assert (rules.pack, rules.hand_size, rules.lay_down_from_hand, rules.borrow_middle) == (
        "spanish", 10, True, True,
    )
    assert rules.max_sequence is None and rules.win_size == 11 and rules.game == "two-hand"


def test_presets_pagat_and_hoyle() -> None:
    """pagat() forbids laying down from the hand and caps sequences at 8; hoyle() the middle."""
    assert ConquianRules.pagat() == ConquianRules(lay_down_from_hand=False, max_sequence=8)
    assert ConquianRules.hoyle() == ConquianRules(borrow_middle=False)


def test_presets_take_overrides() -> None:
    """A keyword given to a preset overrides the preset's value."""
    assert ConquianRules.pagat(max_sequence=None).max_sequence is None
    assert ConquianRules.hoyle(pack="american").pack == "american"
    assert CooncanRules.three_hand(jokers=1, stock="open").stock == "open"


def test_cooncan_presets() -> None:
    """three_hand(): 3 players, 7 cards, no joker; double_pack(): 4 players, 10 cards, 2 jokers."""
    three = CooncanRules.three_hand()
    double = CooncanRules.double_pack()
    assert (three.players, three.hand_size, three.jokers, three.stock) == (3, 7, 0, "closed")
    assert (double.players, double.hand_size, double.jokers, double.stock) == (4, 10, 2, "closed")
    assert len(three.pack_cards()) == 52 and len(double.pack_cards()) == 106
    assert CooncanRules() == three


@pytest.mark.parametrize(
    ("make", "option", "value"),
    [
        (ConquianRules, "pack", "tarot"),
        (ConquianRules, "hand_size", 7),
        (ConquianRules, "hand_size", True),
        (ConquianRules, "lay_down_from_hand", 1),
        (ConquianRules, "borrow_middle", "yes"),
        (ConquianRules, "max_sequence", 2),
        (ConquianRules, "max_sequence", 8.0),
        (CooncanRules.three_hand, "players", 4),
        (CooncanRules.three_hand, "jokers", 2),
        (CooncanRules.three_hand, "stock", "half"),
        (CooncanRules.double_pack, "players", 7),
        (CooncanRules.double_pack, "jokers", 1),
        (CooncanRules.double_pack, "stock", "open"),
        (CooncanRules.double_pack, "splash_bonus", 30),
        (CooncanRules.three_hand, "turn_limit", 0),
        (CooncanRules, "variant", "four-hand"),
    ],
)
def test_bad_options_raise_rules_error_naming_them(make: Any, option: str, value: object) -> None:
    """A bad option value raises RulesError naming the option and the values allowed."""
    with pytest.raises(RulesError) as info:
        make(**{option: value})
    assert info.value.option == option
    assert str(info.value).startswith(option) and repr(value) in str(info.value)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_double_pack_player_range(players: int) -> None:
    """The double pack takes 2 to 6 players (the range is the library's; law 3 sets five)."""
    assert CooncanRules.double_pack(players=players).players == players


def test_rules_are_frozen_and_hashable() -> None:
    """Rules are values: frozen, hashable, equal by their options."""
    rules = ConquianRules()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.pack = "american"  # type: ignore[misc]
    assert hash(rules) == hash(ConquianRules()) and rules != ConquianRules.hoyle()
