"""Groups and sequences (RULES.md C3, C4, C5, T9, T10, T14, M5, M9).

The properties check `conquian.combos.core` against a small brute-force oracle
written here from the rules' text, not from the library's code.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import Card, Face, Kind, NamedJoker, Order, card, cards, joker, make_pack
from conquian.combos.core import (
    borrow,
    borrowable,
    build,
    explain,
    extend,
    extensions,
    fits,
    fitting,
    melds_in,
    shifts,
)

SPANISH = Order.of("spanish")
AMERICAN = Order.of("american")
STANDARD = Order.of("standard")

# -- the oracle ---------------------------------------------------------------

# Each pack's unbroken orders of ranks (C4): the 52-card pack has two, ace low
# and ace high; a sequence's ranks must be a slice of one of them.
RUNS = {
    "spanish": [[1, 2, 3, 4, 5, 6, 7, 11, 12, 13]],
    "american": [list(range(1, 11))],
    "standard": [list(range(1, 14)), [*range(2, 14), 1]],
    "full": [list(range(1, 14))],  # Conquian's full pack: the ace low only (T20)
    # T26: the Spanish pack with the ace above the king as well ("A 2 3 4 5 6 7 J Q K A").
    "spanish-both": [[1, 2, 3, 4, 5, 6, 7, 11, 12, 13], [2, 3, 4, 5, 6, 7, 11, 12, 13, 1]],
}


def oracle(faces: Sequence[Face], pack: str, cap: int | None = None) -> Kind | None:
    """What the rules' text says these faces make, if anything."""
    if len(faces) < 3 or any(isinstance(f, Card) and f.is_joker for f in faces):
        return None
    ranks = [f.rank for f in faces]
    if len(set(ranks)) == 1:
        if all(not isinstance(f, NamedJoker) or f.suit is None for f in faces):
            return Kind.GROUP
        return None
    if len({f.suit for f in faces}) != 1 or faces[0].suit is None:
        return None
    if cap is not None and len(faces) > cap:
        return None
    for run in RUNS[pack]:
        for start in range(len(run) - len(ranks) + 1):
            if sorted(run[start : start + len(ranks)]) == sorted(ranks):
                return Kind.SEQUENCE
    return None


def faces_of(pack: str, jokers: bool) -> st.SearchStrategy[list[Face]]:
    """Random small sets of faces of a pack, biased towards one suit or one rank."""
    deck = make_pack(pack)
    suit_runs = st.sampled_from(deck).flatmap(
        lambda c: st.lists(
            st.sampled_from([d for d in deck if d.suit is c.suit]),
            min_size=2,
            max_size=8,
            unique=True,
        )
    )
    rank_sets = st.sampled_from(deck).flatmap(
        lambda c: st.lists(
            st.sampled_from([d for d in deck if d.rank == c.rank]),
            min_size=2,
            max_size=4,
            unique=True,
        )
    )
    base: st.SearchStrategy[list[Face]] = st.one_of(
        suit_runs, rank_sets, st.lists(st.sampled_from(deck), max_size=6, unique=True)
    )
    if not jokers:
        return base
    named = st.builds(
        NamedJoker,
        st.integers(1, 13),
        st.none() | st.sampled_from(sorted({c.suit for c in deck if c.suit is not None})),
    )
    return st.tuples(base, st.lists(named, max_size=2)).map(lambda t: t[0] + t[1])


@pytest.mark.parametrize("pack", ["spanish", "american"])
@given(data=st.data())
def test_c3_c4_build_agrees_with_the_oracle_40(pack: str, data: st.DataObject) -> None:
    """build() accepts exactly the groups and sequences of the 40-card packs (C3, C4)."""
    faces = data.draw(faces_of(pack, jokers=False))
    cap = data.draw(st.sampled_from([None, 8]))
    combo = build(faces, Order.of(pack, cap))
    assert (combo.kind if combo else None) == oracle(faces, pack, cap)
    if combo is None:
        assert explain(faces, Order.of(pack, cap))


@given(data=st.data())
def test_t20_build_agrees_with_the_oracle_full_pack(data: st.DataObject) -> None:
    """build() in the order ``full`` accepts exactly the groups and the ace-low sequences of
    the 52 cards (T20: "The Ace is not in sequence with the King"), with or without a cap."""
    faces = data.draw(faces_of("standard", jokers=False))
    cap = data.draw(st.sampled_from([None, 8]))
    combo = build(faces, Order.of("full", cap))
    assert (combo.kind if combo else None) == oracle(faces, "full", cap)
    if combo is None:
        assert explain(faces, Order.of("full", cap))


@given(data=st.data())
def test_t26_build_agrees_with_the_oracle_spanish_ace_both(data: st.DataObject) -> None:
    """build() in the order ``spanish-both`` accepts exactly the groups and the sequences of
    "A 2 3 4 5 6 7 J Q K A" with the ace at one end only (T26), with or without a cap; the
    cards of a sequence come from its low end, a high ace last."""
    faces = data.draw(faces_of("spanish", jokers=False))
    cap = data.draw(st.sampled_from([None, 8, 4]))
    order = Order.of("spanish-both", cap)
    combo = build(faces, order)
    assert (combo.kind if combo else None) == oracle(faces, "spanish-both", cap)
    if combo is None:
        assert explain(faces, order)
    elif combo.kind is Kind.SEQUENCE:
        ranks = [c.rank for c in combo.cards]
        assert any(
            ranks == run[i : i + len(ranks)] for run in RUNS["spanish-both"] for i in range(11)
        )


SPANISH_BOTH = Order.of("spanish-both")


@pytest.mark.parametrize(
    ("text", "made"),
    [
        ("QC KC AC", "QC KC AC"),
        ("AC KC QC", "QC KC AC"),
        ("JH AH QH KH", "JH QH KH AH"),
        ("AS 2S 3S", "AS 2S 3S"),
        ("KS AS 2S", None),  # never both ends in one sequence
        ("QD KD AD 2D", None),
        ("2C 3C 4C 5C 6C 7C JC QC KC AC", "AC 2C 3C 4C 5C 6C 7C JC QC KC"),  # ten: the ace low
    ],
)
def test_t26_positions_of_the_high_ace(text: str, made: str | None) -> None:
    """T26: Q K A and J Q K A are sequences, the ace last; K A 2 is not, and says why."""
    combo = build(cards(text), SPANISH_BOTH)
    assert (None if combo is None else str(combo)) == made
    assert str(build(cards("AC KC QC"), STANDARD)) == "QC KC AC"  # the full pack under T26
    if made is None:
        assert explain(cards(text), SPANISH_BOTH).endswith("never both (T26)")
    assert build(cards("QC KC AC"), SPANISH) is None  # the default: the ace low only
    assert build(cards("QC KC AC"), Order.of("full")) is None  # T20


def test_t26_fitting_extending_and_borrowing_at_the_high_end() -> None:
    """T26: the ace fits above Q K or J Q K, and below 2 3; from 2 up to K it fits either end
    (one card); J Q K A lends its ace (or its jack) and keeps J Q K; the ace is found in new
    melds at both ends."""
    qka = build(cards("QH KH AH"), SPANISH_BOTH)
    assert qka is not None
    assert fitting(qka, SPANISH_BOTH) == (card("JH"),)
    jqk = build(cards("JH QH KH"), SPANISH_BOTH)
    assert jqk is not None and card("AH") in fitting(jqk, SPANISH_BOTH)
    assert str(fits(jqk, card("AH"), SPANISH_BOTH)) == "JH QH KH AH"
    assert fits(jqk, card("AH"), SPANISH) is None
    two_to_king = build(cards("2H 3H 4H 5H 6H 7H JH QH KH"), SPANISH_BOTH)
    assert two_to_king is not None
    assert fitting(two_to_king, SPANISH_BOTH) == (card("AH"),)
    assert extensions(two_to_king, cards("AH"), SPANISH_BOTH) == ((card("AH"),),)
    jqka = build(cards("JH QH KH AH"), SPANISH_BOTH)
    assert jqka is not None
    assert borrowable(jqka, middle=True) == (card("AH"), card("JH"))
    assert [str(m) for m in borrow(jqka, card("AH")) or ()] == ["JH QH KH"]
    assert [str(m) for m in melds_in(cards("AH 2H 3H QH KH"), SPANISH_BOTH)] == [
        "AH 2H 3H",
        "QH KH AH",
    ]
    assert [" ".join(map(str, e)) for e in extensions(qka, cards("JH 7H 2H"), SPANISH_BOTH)] == [
        "JH",
        "7H JH",
    ]


@given(faces_of("standard", jokers=True))
def test_c3_c4_c5_build_agrees_with_the_oracle_52(faces: list[Face]) -> None:
    """build() accepts exactly the combinations of the 52-card pack, named jokers included."""
    combo = build(faces, STANDARD)
    assert (combo.kind if combo else None) == oracle(faces, "standard")
    if combo is not None:
        assert sorted(map(str, combo.cards)) == sorted(map(str, faces))


@given(faces_of("standard", jokers=True), st.sampled_from(make_pack("standard")))
def test_fits_agrees_with_the_oracle(faces: list[Face], extra: Card) -> None:
    """A card fits a combination iff the two together are a combination of the same kind."""
    combo = build(faces, STANDARD)
    if combo is None:
        return
    bigger = fits(combo, extra, STANDARD)
    assert (bigger is not None) == (oracle([*faces, extra], "standard") == combo.kind)
    assert (extra in fitting(combo, STANDARD)) == (bigger is not None)


@pytest.mark.parametrize("middle", [True, False])
@given(faces=faces_of("spanish", jokers=False))
def test_t9_borrowable_agrees_with_the_oracle(middle: bool, faces: list[Face]) -> None:
    """A card may be borrowed iff what remains is one or two valid combinations (T9)."""
    combo = build(faces, SPANISH)
    if combo is None:
        return
    for i, taken in enumerate(combo.cards):
        assert isinstance(taken, Card)
        pieces = [list(combo.cards[:i]), list(combo.cards[i + 1 :])]
        if combo.kind is Kind.GROUP:
            pieces = [pieces[0] + pieces[1]]
        pieces = [p for p in pieces if p]
        ok = all(oracle(p, "spanish") == combo.kind for p in pieces)
        if len(pieces) == 2 and not middle:
            ok = False
        assert (taken in borrowable(combo, middle)) == ok
        left = borrow(combo, taken, middle)
        assert (left is not None) == ok
        if left is not None:
            assert [list(c.cards) for c in left] == pieces


# -- unit tests ----------------------------------------------------------------


def test_c3_groups_need_three_cards_of_one_rank() -> None:
    """Three or four of a rank make a group; two do not (C3)."""
    assert build(cards("5C 5D 5H"), SPANISH).kind is Kind.GROUP  # type: ignore[union-attr]
    assert build(cards("5C 5D 5H 5S"), SPANISH) is not None
    assert build(cards("5C 5D"), SPANISH) is None


def test_c4_spanish_seven_is_next_to_the_jack() -> None:
    """In the Spanish pack 6-7-J is a sequence; in the American pack it is not (C4)."""
    assert build(cards("6S 7S JS"), SPANISH) is not None
    assert build(cards("6S 7S JS"), AMERICAN) is None
    assert build(cards("8S 9S 10S"), AMERICAN) is not None


def test_c4_ace_low_only_in_forty_card_packs() -> None:
    """A-2-3 is a sequence, Q-K-A is not, in both 40-card packs (C4)."""
    for order in (SPANISH, AMERICAN):
        assert build(cards("AD 2D 3D"), order) is not None
    assert build(cards("QD KD AD"), SPANISH) is None
    assert build(cards("9D 10D AD"), AMERICAN) is None


def test_c4_ace_high_or_low_never_round_the_corner() -> None:
    """In the 52-card pack A-2-3 and Q-K-A are sequences, K-A-2 is not (law 16)."""
    assert str(build(cards("AD QD KD"), STANDARD)) == "QD KD AD"
    assert str(build(cards("3D AD 2D"), STANDARD)) == "AD 2D 3D"
    assert build(cards("KD AD 2D"), STANDARD) is None
    full = build(make_pack("standard")[13:26], STANDARD)
    assert full is not None and len(full) == 13
    assert fitting(full, STANDARD) == ()


def test_c5_jokers_must_be_named_properly() -> None:
    """An unnamed joker, or a joker named with a suit in a group, makes no combination (C5)."""
    assert build((*cards("5C 5D"), joker("5")), STANDARD) is not None
    assert build((*cards("5C 5D"), joker("5H")), STANDARD) is None
    assert build(cards("5C 5D JK"), STANDARD) is None
    assert "named" in explain(cards("5C 5D JK"), STANDARD)
    seq = build((*cards("4H 5H 7H 8H"), joker("6H")), STANDARD)
    assert str(seq) == "4H 5H JK=6H 7H 8H"


def test_m5_double_pack_group_takes_identical_cards() -> None:
    """In the double pack two identical cards may stand in one group (M5)."""
    group = build(cards("5H 5H 5S"), STANDARD)
    assert group is not None and fits(group, card("5S"), STANDARD) is not None


def test_m5_sequence_never_holds_two_cards_in_one_place() -> None:
    """A sequence cannot take a second card of a position it has (M5)."""
    seq = build(cards("4H 5H 6H"), STANDARD)
    assert seq is not None
    assert extend(seq, cards("5H"), STANDARD) is None
    assert extend(seq, (joker("6H"),), STANDARD) is None


def test_t14_max_sequence_caps_fitting() -> None:
    """With a cap of 8, a card that would make a ninth does not fit (T14)."""
    capped = Order.of("spanish", 8)
    seq = build(cards("AH 2H 3H 4H 5H 6H 7H JH"), capped)
    assert seq is not None
    assert fits(seq, card("QH"), capped) is None and fitting(seq, capped) == ()
    assert fits(build(seq.cards, SPANISH), card("QH"), SPANISH) is not None  # type: ignore[arg-type]


def test_t9_borrow_middle_of_seven_leaves_two_threes() -> None:
    """The middle card of seven splits it into two sequences of three (T9, Foster p. 54)."""
    seq = build(cards("AS 2S 3S 4S 5S 6S 7S"), SPANISH, owner=1)
    assert seq is not None
    pieces = borrow(seq, card("4S"), middle=True)
    assert pieces is not None and [str(p) for p in pieces] == ["AS 2S 3S", "5S 6S 7S"]
    assert all(p.owner == 1 for p in pieces)
    assert borrow(seq, card("4S"), middle=False) is None
    assert borrow(seq, card("3S"), middle=True) is None


def test_t9_pagat_borrow_of_the_club_six() -> None:
    """From 3-4-5-6 of clubs the 6 may be borrowed, the 4 may not (T9, pagat)."""
    seq = build(cards("3C 4C 5C 6C"), SPANISH)
    assert seq is not None
    assert borrowable(seq) == cards("3C 6C")
    assert borrow(seq, card("4C")) is None


def test_m9_joker_shift_foster_page_ten() -> None:
    """7-8 of hearts with the joker as 9: a 9 or a 5 may be played by shifting it (p. 10)."""
    seq = build((*cards("7H 8H"), joker("9H")), STANDARD)
    assert seq is not None
    assert [str(c) for c in shifts(seq, card("9H"), STANDARD)] == ["JK=6H 7H 8H 9H"]
    assert [str(c) for c in shifts(seq, card("5H"), STANDARD)] == ["5H JK=6H 7H 8H"]
    assert shifts(seq, card("10H"), STANDARD) == ()
    (moved,) = shifts(seq, card("9H"), STANDARD)
    assert moved.cards[0] == joker("6H", shifted=True)
    assert shifts(moved, card("10H"), STANDARD) == ()


def test_m9_inner_and_group_jokers_never_move() -> None:
    """A joker inside a sequence or in a group cannot shift (M9)."""
    inner = build((*cards("5H 7H"), joker("6H")), STANDARD)
    group = build((*cards("5H 5S"), joker("5")), STANDARD)
    assert inner is not None and group is not None
    assert shifts(inner, card("8H"), STANDARD) == ()
    assert shifts(group, card("5D"), STANDARD) == ()


def test_m9_ace_end_counts_as_open() -> None:
    """A joker standing for an ace at the end may move to the other end (library's reading)."""
    seq = build((*cards("QH KH"), joker("AH")), STANDARD)
    assert seq is not None
    assert [str(c) for c in shifts(seq, card("AH"), STANDARD)] == ["JK=JH QH KH AH"]


def test_melds_in_finds_every_combination() -> None:
    """melds_in lists each group and sequence that the hand can lay down, once."""
    found = {str(c) for c in melds_in(cards("5C 5D 5H 5S 6H 7H"), SPANISH)}
    assert found == {
        "5C 5D 5H",
        "5C 5D 5S",
        "5C 5H 5S",
        "5D 5H 5S",
        "5C 5D 5H 5S",
        "5H 6H 7H",
    }


def test_melds_in_names_jokers_every_useful_way() -> None:
    """With a joker, melds_in offers it as any rank or card that completes a combination (C5)."""
    found = {str(c) for c in melds_in(cards("4D 6D JK"), STANDARD)}
    assert found == {"4D JK=5D 6D"}
    found = {str(c) for c in melds_in(cards("5C 5D JK"), STANDARD)}
    assert found == {"5C 5D JK=5"}


@given(st.lists(st.sampled_from(make_pack("standard", copies=2, jokers=2)), max_size=9))
def test_melds_in_agrees_with_the_oracle(hand: list[Card]) -> None:
    """Every combination melds_in finds is valid and uses only cards of the hand."""
    from collections import Counter

    have = Counter(hand)
    for combo in melds_in(hand, STANDARD):
        assert oracle(list(combo.cards), "standard") == combo.kind
        assert not Counter(combo.physical_cards) - have


@given(
    faces_of("standard", jokers=False),
    st.lists(st.sampled_from(make_pack("standard", jokers=1)), max_size=7, unique=True),
)
def test_extensions_agree_with_extend(faces: list[Face], hand: list[Card]) -> None:
    """Every extension is addable, and every single hand card that fits is among them."""
    combo = build(faces, STANDARD)
    if combo is None:
        return
    found = extensions(combo, hand, STANDARD)
    assert len(set(found)) == len(found)
    for added in found:
        assert extend(combo, added, STANDARD) is not None
    singles = {e[0] for e in found if len(e) == 1 and isinstance(e[0], Card)}
    assert singles == {c for c in hand if not c.is_joker and fits(combo, c, STANDARD)}
