"""Rules objects, their options and presets (the options tables of docs/rules)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from conquian import ConquianRules, CooCanRules, CooncanRules, RulesError, new_game
from conquian.rules import options


def test_conquian_defaults_are_foster_1913() -> None:
    """ConquianRules() is Foster 1913: Spanish pack, ten cards, laying down whenever he has the
    say (T8), borrowing from the middle (T9) into any meld, no cap (T14)."""
    rules = ConquianRules()
    assert (rules.pack, rules.hand_size, rules.lay_down, rules.borrow_middle) == (
        "spanish",
        10,
        "say",
        True,
    )
    assert rules.borrow_other_kind is False
    assert rules.max_sequence is None and rules.win_size == 11 and rules.game == "conquian"


def test_presets_pagat_blog_and_hoyle() -> None:
    """Options: pagat() lays down in a turn using a card (T8 "turn") and caps sequences at 8
    (T14); blog() makes every meld hold a pending card (T8 "meld"); hoyle() forbids the middle
    and makes a borrowed card change kind (T9)."""
    assert ConquianRules.pagat() == ConquianRules(lay_down="turn", max_sequence=8)
    assert ConquianRules.blog() == ConquianRules(lay_down="meld")
    assert ConquianRules.hoyle() == ConquianRules(
        borrow_middle=False, borrow_other_kind=True, cut="low"
    )
    presets = {ConquianRules(), ConquianRules.pagat(), ConquianRules.blog(), ConquianRules.hoyle()}
    assert len(presets) == 4


@pytest.mark.parametrize(("old", "new"), [(True, "say"), (False, "meld")])
@pytest.mark.parametrize("make", [ConquianRules, ConquianRules.pagat, ConquianRules.blog])
def test_t8_old_lay_down_from_hand_is_refused_naming_lay_down(
    make: Any, old: bool, new: str
) -> None:
    """T8: the boolean lay_down_from_hand is refused with a RulesError naming lay_down, which
    says what the old values became (True: "say", False: "meld")."""
    with pytest.raises(RulesError) as info:
        make(lay_down_from_hand=old)
    assert info.value.option == "lay_down"
    assert 'lay_down="say" for True' in str(info.value)
    assert 'lay_down="meld" for False' in str(info.value)
    assert make(lay_down=new).lay_down == new


@pytest.mark.parametrize("lay_down", ["say", "turn", "meld"])
@pytest.mark.parametrize("borrow_other_kind", [True, False])
def test_t8_t9_every_value_is_accepted(lay_down: str, borrow_other_kind: bool) -> None:
    """T8's three readings and T9's borrow_other_kind combine freely, also with any preset."""
    rules = ConquianRules.hoyle(lay_down=lay_down, borrow_other_kind=borrow_other_kind)
    assert (rules.lay_down, rules.borrow_other_kind, rules.borrow_middle) == (
        lay_down,
        borrow_other_kind,
        False,
    )


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
        (ConquianRules, "lay_down", True),
        (ConquianRules, "lay_down", 1),
        (ConquianRules, "lay_down", "Say"),
        (ConquianRules, "lay_down", "hand"),
        (ConquianRules, "lay_down", None),
        (ConquianRules, "borrow_other_kind", 1),
        (ConquianRules, "borrow_other_kind", 0),
        (ConquianRules, "borrow_other_kind", "yes"),
        (ConquianRules, "borrow_other_kind", None),
        (ConquianRules, "borrow_middle", 0),
        (ConquianRules, "borrow_middle", "yes"),
        (ConquianRules, "max_sequence", 2),
        (ConquianRules, "max_sequence", 8.0),
        (CooncanRules.three_hand, "players", 4),
        (CooncanRules.three_hand, "jokers", 2),
        (CooncanRules.three_hand, "stock", "half"),
        (CooncanRules.double_pack, "players", 8),
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


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_double_pack_player_range(players: int) -> None:
    """The double pack takes 2 to 7 players (M14: Foster p. 2, "in some circles six or seven")."""
    assert CooncanRules.double_pack(players=players).players == players


def test_m14_seven_players_leave_35_cards_after_the_starter() -> None:
    """M14: seven players are dealt ten each; 106 - 70 - 1 = 35 cards stay in the pack."""
    state = new_game(CooncanRules.double_pack(players=7), seed=3)
    assert [len(state.hand(p)) for p in range(7)] == [10] * 7
    assert state.pack_size == 35
    with pytest.raises(RulesError, match="players must be one of 2, 3, 4, 5, 6, 7"):
        CooncanRules.double_pack(players=8)


def test_rules_are_frozen_and_hashable() -> None:
    """Rules are values: frozen, hashable, equal by their options."""
    rules = ConquianRules()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rules.pack = "american"  # type: ignore[misc]
    assert hash(rules) == hash(ConquianRules()) and rules != ConquianRules.hoyle()


# -- T26 and the options declared once ----------------------------------------------------------


def test_t26_ace_low_by_default_both_on_request_not_with_the_american_pack() -> None:
    """T26: `ace` is "low" by default (Hoyle 1897); "both" is allowed with the Spanish and the
    full pack and shown in the repr; the American pack has no king, so it is refused."""
    assert ConquianRules().ace == "low" and ConquianRules.hoyle().ace == "low"
    assert ConquianRules(ace="both").ace == "both"
    assert ConquianRules(pack="standard", ace="both").ace == "both"
    assert "ace='both'" in repr(ConquianRules(ace="both"))
    assert "ace" not in repr(ConquianRules())
    with pytest.raises(RulesError) as info:
        ConquianRules(pack="american", ace="both")
    assert info.value.option == "ace" and "T26" in str(info.value)
    with pytest.raises(RulesError, match="ace must be one of low, both"):
        ConquianRules(ace="high")  # type: ignore[arg-type]


RULES_CLASSES = (ConquianRules, CooncanRules, CooCanRules)


@pytest.mark.parametrize("cls", RULES_CLASSES, ids=lambda c: c.__name__)
def test_every_field_declares_its_option_once(cls: type) -> None:
    """Every field of a rules class but Cooncan's variant (the game's name) declares its option
    (`conquian.rules.Option`): a rule id, a text, values or a range; the declared default is
    the field's, and every value the declaration offers makes a rules object."""
    declared = {o.name: o for o in options(cls)}
    assert set(declared) == {f.name for f in attrs.fields(cls)} - {"variant"}
    games = ("three-hand", "double-pack") if cls is CooncanRules else (cls().game,)
    for option in declared.values():
        assert option.rule and option.text and (option.values or option.minimum is not None)
        if option.default is not None:  # None: no limit, or a default set by the variant
            assert getattr(cls(), option.name) == option.default
        for game in games:
            for value in option.choices(game):
                given = {option.name: value}
                if cls is CooncanRules:
                    given["variant"] = game
                if cls is ConquianRules and option.name == "hand_size" and value == 7:
                    given["players"] = 4  # T16: seven cards only with four seats
                assert getattr(cls(**given), option.name) == value


def _options_hook() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[1] / "docs" / "_ext" / "options_table.py"
    spec = importlib.util.spec_from_file_location("options_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_options_table_is_written_from_the_declarations() -> None:
    """docs/rules/variants.md holds the marker the docs' hook replaces with a row per declared
    option of every rules class, with its rule ids (T26's `ace` among them); the page names
    no option the classes do not declare."""
    from pathlib import Path

    hook = _options_hook()
    page = (Path(__file__).parents[1] / "docs" / "rules" / "variants.md").read_text("utf-8")
    assert hook.MARKER in page
    built = hook.on_page_markdown(page, page=None)
    assert hook.MARKER not in built
    rows = [line for line in built.splitlines() if line.startswith("| `")]
    for cls in RULES_CLASSES:
        for option in options(cls):
            row = f"| `{option.name}` | `{cls.__name__}` | {option.rule} |"
            assert sum(r.startswith(row) for r in rows) == 1, row
    assert any(r.startswith("| `ace` | `ConquianRules` | T26 |") and '`"both"`' in r for r in rows)
