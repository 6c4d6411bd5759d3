"""Starting a deal: the seeded shuffle and deck checks (RULES.md C7, E3; DESIGN.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import ConquianRules, CooncanRules, RecordError, card, make_pack, new_game, shuffle
from conquian.game import check_deck


def design_shuffle(deck: list[object], seed: int) -> list[object]:
    """The shuffle exactly as DESIGN.md writes it."""
    d = list(deck)
    rng = random.Random(seed)
    for i in range(len(d) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        d[i], d[j] = d[j], d[i]
    return d


PACKS = [
    make_pack("spanish"),
    make_pack("american"),
    make_pack("standard"),
    make_pack("standard", jokers=1),
    make_pack("standard", copies=2, jokers=2),
]


@given(st.integers(-(2**70), 2**70), st.sampled_from(PACKS))
def test_c7_shuffle_is_the_design_shuffle(seed: int, cards: tuple[object, ...]) -> None:
    """The seeded shuffle is DESIGN.md's Fisher-Yates on random.Random(seed).random()."""
    assert list(shuffle(cards, seed)) == design_shuffle(list(cards), seed)


@given(st.integers(-(2**70), 2**70), st.integers(0, 3))
def test_c7_shuffle_of_tiny_packs(seed: int, size: int) -> None:
    """Packs of none to three cards shuffle as DESIGN.md's loop does (its edge cases)."""
    cards = make_pack("spanish")[:size]
    assert list(shuffle(cards, seed)) == design_shuffle(list(cards), seed)


def test_c7_seed_gives_the_same_deal_everywhere() -> None:
    """A pinned seed deals pinned cards: the stream of random() is stable across versions."""
    deck = shuffle(make_pack("spanish"), seed=7)
    assert [str(c) for c in deck[:6]] == ["AH", "JS", "JC", "JH", "5D", "KC"]


def test_e3_check_deck_names_every_problem() -> None:
    """A deck with a card twice and one missing is rejected, naming both (E3)."""
    pack = list(ConquianRules().pack_cards())
    pack[0] = card("5H")
    with pytest.raises(RecordError) as info:
        check_deck(ConquianRules(), pack)
    text = str(info.value)
    assert "5H is one too many" in text and "AC is missing" in text
    assert len(info.value.problems) == 2


def test_e3_check_deck_rejects_non_cards_and_wrong_packs() -> None:
    """Something that is not a card, or a card not in the pack, is named (E3)."""
    with pytest.raises(RecordError, match="'x' is not a card"):
        check_deck(ConquianRules(), [*ConquianRules().pack_cards()[:-1], "x"])
    with pytest.raises(RecordError, match="8H is one too many"):
        check_deck(ConquianRules(), [*ConquianRules().pack_cards()[:-1], card("8H")])
    double = CooncanRules.double_pack()
    assert len(check_deck(double, double.pack_cards())) == 106


def test_new_game_arguments() -> None:
    """new_game takes exactly one of seed and deck, real rules and a real seat."""
    with pytest.raises(TypeError):
        new_game(ConquianRules())
    with pytest.raises(TypeError):
        new_game(ConquianRules(), seed=1, deck=ConquianRules().pack_cards())
    with pytest.raises(TypeError):
        new_game("two-hand", seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        new_game(ConquianRules(), seed=1, dealer=2)
    with pytest.raises(TypeError):
        shuffle(make_pack("spanish"), seed="7")  # type: ignore[arg-type]


def test_the_shuffle_lives_in_cards_and_game_and_the_package_name_it() -> None:
    """C7: one shuffle, at the bottom of the package (cards), exported by game and conquian."""
    from conquian.cards import shuffle as of_cards
    from conquian.game import shuffle as of_game

    assert shuffle is of_cards is of_game


@given(st.sampled_from(PACKS), st.integers(0, 2**64))
def test_any_items_shuffle_as_the_cards_do(pack: tuple[object, ...], seed: int) -> None:
    """C7: the shuffle moves places, not values, so a pack's indices shuffle as its cards do
    (new_game deals a two-hand shuffle from the indices)."""
    indices = shuffle(range(len(pack)), seed)
    assert tuple(pack[i] for i in indices) == shuffle(pack, seed)


@pytest.mark.parametrize("seed", [1.0, "7", None, True])
def test_a_seed_is_an_int(seed: object) -> None:
    with pytest.raises(TypeError, match="seed"):
        shuffle(make_pack("spanish"), seed)  # type: ignore[arg-type]
