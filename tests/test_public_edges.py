"""The public edge refuses bad input with a documented error (E1, E2).

Each case is one of the escapes found by fuzzing the library: an argument of
the wrong type or value that used to leave a bare `IndexError`, `TypeError`
or `AttributeError` from deep inside, or to be accepted silently.
"""

from __future__ import annotations

import pytest

from conquian import (
    Borrow,
    Card,
    ConquianRules,
    CooncanRules,
    Discard,
    Force,
    Meld,
    NamedJoker,
    NotationError,
    Suit,
    Take,
    card,
    cards,
    joker,
    make_pack,
    new_game,
    parse_action,
    pip_value,
)
from conquian.cards import parse_face
from conquian.errors import check_seat

# -- meld indices are refused when the action is built ----------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: Borrow(card("5H"), source=-1),
        lambda: Force(card("5H"), onto=-1),
        lambda: Force(joker("5H"), onto=-3, shift=True),
        lambda: Meld(cards("5H"), onto=-1),
    ],
)
def test_negative_meld_index_is_refused_when_the_action_is_built(build: object) -> None:
    """A negative meld index raises ValueError at construction, never IndexError at apply."""
    with pytest.raises(ValueError, match=r"(source|onto): a meld index is 0 or more \(got -\d\)"):
        build()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("build", "argument"),
    [
        (lambda: Borrow(card("5H"), source=1.0), "source"),
        (lambda: Borrow(card("5H"), source=True), "source"),
        (lambda: Borrow(card("5H"), source="0"), "source"),
        (lambda: Force(card("5H"), onto=None), "onto"),
        (lambda: Meld(cards("5H"), onto=2.0), "onto"),
        (lambda: Meld(cards("5H"), onto=1, shift=1), "shift"),
        (lambda: Force(card("5H"), onto=1, shift="yes"), "shift"),
        (lambda: Take(None), "card"),
        (lambda: Take("5H"), "card"),
        (lambda: Discard(joker("5H")), "card"),
        (lambda: Borrow(joker("5H"), source=0), "card"),
        (lambda: Force(5, onto=0), "card"),
        (lambda: Meld(None), "cards"),
        (lambda: Meld("5H 6H 7H"), "cards"),
        (lambda: Meld([card("5H"), "6H"]), "cards"),
    ],
)
def test_action_fields_of_the_wrong_type_raise_a_type_error_naming_them(
    build: object, argument: str
) -> None:
    """An action built from values of the wrong type raises TypeError naming the field."""
    with pytest.raises(TypeError, match=argument):
        build()  # type: ignore[operator]


def test_borrow_and_force_at_index_zero_and_beyond_are_still_built() -> None:
    """The check refuses only what no table holds: index 0 and large indices are kept."""
    assert str(Borrow(card("5H"), source=0)) == "borrow 5H @0"
    assert str(Force(joker("5"), onto=999_999, shift=True)) == "force JK=5 @999999 shift"
    assert parse_action("force 5H @12") == Force(card("5H"), onto=12)


def test_two_hand_apply_of_a_far_meld_index_is_an_illegal_action() -> None:
    """A meld index past the table is an illegal action (E1), not an IndexError."""
    state = new_game(ConquianRules(), seed=3)
    for action in (Borrow(state.deck[20], source=7), Force(state.deck[20], onto=7)):
        assert not state.is_legal(action)


# -- card helpers --------------------------------------------------------------------------------


def test_e2_cards_names_the_column_of_the_bad_token() -> None:
    """E2: `cards("5H 6H XX 7H")` blames 'XX' at column 6 (0-based, as `parse_action`)."""
    with pytest.raises(NotationError) as info:
        cards("5H 6H XX 7H")
    assert (info.value.token, info.value.column) == ("XX", 6)
    with pytest.raises(NotationError) as info:
        cards("5H,6H, 7H,QX")
    assert (info.value.token, info.value.column) == ("QX", 10)
    with pytest.raises(NotationError) as info:
        parse_action("meld 5H 6H XX")
    assert (info.value.token, info.value.column) == ("XX", 11)


@pytest.mark.parametrize(
    "call",
    [
        lambda: card(None),
        lambda: card(5),
        lambda: cards(None),
        lambda: cards(5),
        lambda: cards(b"5H"),
        lambda: cards([None]),
        lambda: cards(["5H", 6]),
        lambda: joker(None),
        lambda: joker(4),
        lambda: parse_face(None),
        lambda: parse_action(None),
    ],
)
def test_e2_card_text_that_is_not_text_is_a_notation_error(call: object) -> None:
    """E2: None or a number given where card text is expected raises NotationError."""
    with pytest.raises(NotationError, match="text"):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("call", "error", "argument"),
    [
        (lambda: make_pack(copies=-1), ValueError, "copies"),
        (lambda: make_pack(copies=0), ValueError, "copies"),
        (lambda: make_pack(copies=10**9), ValueError, "copies"),
        (lambda: make_pack(copies=1.0), TypeError, "copies"),
        (lambda: make_pack(copies=True), TypeError, "copies"),
        (lambda: make_pack(jokers=-1), ValueError, "jokers"),
        (lambda: make_pack(jokers="2"), TypeError, "jokers"),
        (lambda: make_pack(None), ValueError, "pack"),
        (lambda: make_pack(["standard"]), ValueError, "pack"),
        (lambda: pip_value(None), TypeError, "Card"),
        (lambda: pip_value("5H"), TypeError, "Card"),
        (lambda: Card("5", Suit.HEARTS), TypeError, "rank"),
        (lambda: Card(None, None), TypeError, "rank"),
        (lambda: Card(5, "H"), ValueError, "rank"),
        (lambda: NamedJoker(2.0), TypeError, "rank"),
        (lambda: NamedJoker(14), ValueError, "rank"),
        (lambda: NamedJoker(2, shifted=None), TypeError, "shifted"),
    ],
)
def test_card_helpers_refuse_bad_arguments_naming_them(
    call: object, error: type[Exception], argument: str
) -> None:
    """The card helpers raise TypeError or ValueError whose message names the argument."""
    with pytest.raises(error, match=argument):
        call()  # type: ignore[operator]


def test_make_pack_keeps_few_packs() -> None:
    """The packs are made once per (name, copies, jokers), and at most 64 are kept."""
    assert make_pack("standard", copies=2, jokers=2) is make_pack("standard", copies=2, jokers=2)
    for copies in range(1, 9):
        for jokers in range(17):
            assert len(make_pack("american", copies=copies, jokers=jokers)) == 40 * copies + jokers
    from conquian.cards import _pack

    info = _pack.cache_info()
    assert info.maxsize is not None and info.currsize <= info.maxsize == 64


# -- seats ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, "0", None, [0]])
def test_check_seat_refuses_what_is_not_an_int(seat: object) -> None:
    """A seat is an int: bools, floats and strings raise TypeError naming the argument."""
    with pytest.raises(TypeError, match=r"^player must be an int seat"):
        check_seat(seat, 2)
    with pytest.raises(TypeError, match=r"^dealer must be an int seat"):
        check_seat(seat, 4, "dealer")


@pytest.mark.parametrize("players", [2, 3, 6])
def test_check_seat_takes_each_seat_and_refuses_the_others(players: int) -> None:
    """Seats 0 to n-1 are returned as they are; others raise ValueError naming the argument."""
    assert [check_seat(s, players) for s in range(players)] == list(range(players))
    for seat in (-1, players, 10**40):
        with pytest.raises(ValueError, match=rf"^player: no seat .* among {players} players"):
            check_seat(seat, players)


def test_check_seat_shows_a_huge_seat_by_its_digits() -> None:
    """A huge int is not copied into the message whole."""
    with pytest.raises(ValueError, match="no seat of 41 digits"):
        check_seat(-(10**40), 2)


@pytest.mark.parametrize(
    "rules", [ConquianRules(), CooncanRules.three_hand(), CooncanRules.double_pack()]
)
def test_hand_and_view_refuse_seats_out_of_range(rules: ConquianRules | CooncanRules) -> None:
    """An int seat past the players raises ValueError from `hand` and `view`."""
    state = new_game(rules, seed=1)
    for seat in (-1, rules.players, 99):
        with pytest.raises(ValueError):
            state.hand(seat)
        with pytest.raises(ValueError):
            state.view(seat)
