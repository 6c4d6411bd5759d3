"""The typed actions and their text notation (DESIGN.md; RULES.md C2, E2)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import (
    Action,
    Borrow,
    Discard,
    Draw,
    Force,
    Meld,
    NotationError,
    Pass,
    Take,
    card,
    cards,
    joker,
    parse_action,
)
from strategies import actions

EXAMPLES: list[tuple[str, Action]] = [
    ("take 5H", Take(card("5H"))),
    ("pass", Pass()),
    ("draw", Draw()),
    ("meld 4H 5H 6H", Meld(cards("4H 5H 6H"))),
    ("meld 7H @2", Meld(cards("7H"), onto=2)),
    ("meld 6S 7S @1", Meld(cards("6S 7S"), onto=1)),
    ("meld 5D 6D JK=4D", Meld((*cards("5D 6D"), joker("4D")))),
    ("meld 9H @3 shift", Meld(cards("9H"), onto=3, shift=True)),
    ("force 9H @0 shift", Force(card("9H"), onto=0, shift=True)),
    ("borrow 10S @0", Borrow(card("10S"), source=0)),
    ("force 6S @1", Force(card("6S"), onto=1)),
    ("force JK=10H @0", Force(joker("10H"), onto=0)),
    ("discard KD", Discard(card("KD"))),
    ("meld QS KS AS", Meld(cards("AS KS QS"))),
    ("meld 5C 5H 5S JK=5", Meld((joker("5"), *cards("5S 5H 5C")))),
    ("discard JK", Discard(card("JK"))),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES)
def test_every_form_of_design_md_parses_and_prints(text: str, action: Action) -> None:
    """Each text form of DESIGN.md reads to its action and prints back canonically."""
    assert parse_action(text) == action
    assert str(action) == text


def test_meld_cards_are_a_set() -> None:
    """The order of a meld's cards in the text does not matter."""
    assert parse_action("meld 6H 4H 5H") == parse_action("meld 4H 5H 6H")
    assert str(parse_action("meld AS 2S 3S")) == "meld AS 2S 3S"
    assert str(parse_action("meld KS AS QS")) == "meld QS KS AS"


def test_parsing_is_case_insensitive_and_takes_symbols() -> None:
    """Verbs, cards and shift are case-insensitive; suit symbols and T are read (C2)."""
    assert parse_action("MELD 9♥ @3 SHIFT") == Meld(cards("9H"), onto=3, shift=True)
    assert parse_action("Take ts") == Take(card("10S"))


def test_repr_is_eval_able() -> None:
    """repr() of an action is Python that rebuilds it."""
    action = parse_action("force JK=10H @0")
    assert repr(action) == "parse_action('force JK=10H @0')"
    assert eval(repr(action)) == action


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("", ""),
        ("jump 5H", "jump"),
        ("take", "take"),
        ("take 5X", "5X"),
        ("take 5H 6H", "6H"),
        ("meld", "meld"),
        ("meld 4H 5H @x", "@x"),
        ("meld 4H shift", "shift"),
        ("borrow 5H", "borrow"),
        ("borrow 5H 0", "0"),
        ("force JK=ZZ @0", "JK=ZZ"),
        ("pass now", "now"),
        ("discard @1", "@1"),
    ],
)
def test_e2_bad_action_text_names_the_token(text: str, token: str) -> None:
    """Bad action text raises NotationError naming the bad token (E2)."""
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert info.value.token == token


def test_constructor_checks() -> None:
    """A meld needs a card, and a shift needs the meld it is made on."""
    with pytest.raises(ValueError):
        Meld(())
    with pytest.raises(ValueError):
        Meld(cards("9H"), shift=True)


@given(actions)
def test_notation_round_trip(action: Action) -> None:
    """parse_action(str(a)) == a for every action, and repr() evaluates back."""
    assert parse_action(str(action)) == action
    assert eval(repr(action)) == action
    assert hash(parse_action(str(action))) == hash(action)


@given(st.text(max_size=30))
def test_parsing_never_fails_with_an_undocumented_error(text: str) -> None:
    """Any text is an action or a NotationError, never another exception (E2)."""
    with contextlib.suppress(NotationError):
        parse_action(text)
