"""Cards, jokers, packs and card notation (RULES.md C1, C2, C4, C5, M7)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import (
    JOKER,
    Card,
    NamedJoker,
    NotationError,
    Suit,
    card,
    cards,
    joker,
    make_pack,
    pip_value,
)

ALL = make_pack("standard", jokers=1)


def test_c1_a_card_is_a_rank_and_a_suit_or_the_joker() -> None:
    """A card has a rank 1–13 and a suit; the joker has neither."""
    assert card("5H") == Card(5, Suit.HEARTS)
    assert Card(0, None) == JOKER and JOKER.is_joker
    with pytest.raises(ValueError):
        Card(14, Suit.HEARTS)
    with pytest.raises(ValueError):
        Card(3, None)


def test_c1_copies_of_a_card_are_equal() -> None:
    """The two copies of a card in the double pack are equal and hash alike (a multiset)."""
    double = make_pack("standard", copies=2, jokers=2)
    assert len(double) == 106
    assert double.count(card("5H")) == 2 and double.count(JOKER) == 2
    assert len(set(double)) == 53


def test_c2_canonical_text_and_repr() -> None:
    """str() is the canonical notation and repr() evaluates back to the card."""
    assert [str(c) for c in cards("AC 10d qh 7S JK")] == ["AC", "10D", "QH", "7S", "JK"]
    assert repr(card("10S")) == "card('10S')"
    assert eval(repr(card("10S"))) == card("10S")


@pytest.mark.parametrize("text", ["5h", "5H", "5♥", " 5H ", "5♥"])
def test_c2_parsing_accepts_case_and_symbols(text: str) -> None:
    """Parsing ignores case and surrounding blanks and accepts suit symbols."""
    assert card(text) == card("5H")


def test_c2_t_is_ten() -> None:
    """T is accepted for 10 on input; the canonical form is 10."""
    assert card("TS") == card("10S") and str(card("ts")) == "10S"


@pytest.mark.parametrize("text", ["", "1H", "11H", "5X", "H5", "JKR", "10", "♥", "JK=5"])
def test_e2_bad_card_text_names_the_token(text: str) -> None:
    """Bad card text raises NotationError naming the bad token (E2)."""
    with pytest.raises(NotationError) as info:
        card(text)
    assert info.value.token == text
    assert repr(text) in str(info.value)


def test_e2_bad_token_in_a_list_is_named() -> None:
    """cards() reports the bad token, not a bare KeyError."""
    with pytest.raises(NotationError, match="'5X'"):
        cards("4H 5X 6H")


def test_canonical_order() -> None:
    """Cards sort by suit C D H S, then rank with the ace first, jokers last."""
    assert sorted(cards("JK KS AS 5D 2C QC")) == list(cards("2C QC 5D AS KS JK"))
    assert [c.index for c in make_pack("standard", jokers=1)] == list(range(53))


def test_c4_packs() -> None:
    """The Spanish pack has A-7 J Q K, the American pack A-10 (C4, T1)."""
    spanish = make_pack("spanish")
    american = make_pack("american")
    assert len(spanish) == len(american) == 40
    assert {c.rank for c in spanish} == {1, 2, 3, 4, 5, 6, 7, 11, 12, 13}
    assert {c.rank for c in american} == set(range(1, 11))
    assert len(make_pack("standard")) == 52 and len(make_pack("standard", jokers=1)) == 53
    with pytest.raises(ValueError, match="unknown pack"):
        make_pack("tarot")


def test_c5_named_jokers() -> None:
    """A joker on the table names a card in a sequence, a rank in a group (C5, M9)."""
    assert str(joker("4d")) == "JK=4D" and joker("4D").card == card("4D")
    assert str(joker("10")) == "JK=10" and joker("T").suit is None
    assert joker("5") == NamedJoker(5) and joker("5", shifted=True) != NamedJoker(5)
    assert eval(repr(joker("9H", shifted=True))) == joker("9H", shifted=True)
    with pytest.raises(NotationError):
        joker("X")


def test_m7_pip_values() -> None:
    """Joker 15, ace 11, K Q J 10 count ten, others their face (M7, laws 23-24)."""
    assert [pip_value(c) for c in cards("JK AH KH QH JH 10H 9H 2C")] == [
        15,
        11,
        10,
        10,
        10,
        10,
        9,
        2,
    ]


@given(st.sampled_from(ALL))
def test_notation_round_trip(c: Card) -> None:
    """Every card reads back from its text and its repr, and pickles to an equal card."""
    assert card(str(c)) is c
    assert card(str(c).lower()) is c
    assert eval(repr(c)) == c
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy(c) is c and copy.copy(c) is c


@given(st.text(max_size=4))
def test_parsing_never_fails_with_an_undocumented_error(text: str) -> None:
    """Any text is a card or a NotationError, never another exception (E2)."""
    try:
        result = card(text)
    except NotationError:
        return
    assert isinstance(result, Card)
