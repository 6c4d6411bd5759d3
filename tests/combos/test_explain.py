"""Why a set of cards is no combination: `combos.explain` and the errors it words (C3, C4, E1, E3).

A broken sequence is blamed on its gap, naming the missing cards; the ace is
blamed only when the cards would be a sequence with the ace high (40-card
packs, C4) or round the corner (the 52-card pack, law 16).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import (
    Card,
    ConquianRules,
    CooncanRules,
    IllegalActionError,
    RecordError,
    State,
    cards,
    new_game,
)
from conquian.combos.core import Order, build, explain


@pytest.mark.parametrize(
    ("text", "pack", "missing"),
    [
        ("AC 2C 4C", "spanish", "3C is missing"),
        ("AC 2C 4C", "american", "3C is missing"),
        ("AH 2H 4H", "standard", "3H is missing"),
        ("AS 3S 4S", "standard", "2S is missing"),
        ("AH 3H 5H 6H", "american", "2H and 4H are missing"),
        ("7C JC AC", "spanish", "2C to 6C are missing"),
        ("JH KH AH", "standard", "QH is missing"),
        ("JD QD 2D", "spanish", "3D to 7D are missing"),
        ("4C 6C 7C", "spanish", "5C is missing"),
    ],
)
def test_c4_broken_run_is_blamed_on_its_gap(text: str, pack: str, missing: str) -> None:
    """C3, C4: a run with a gap, ace or not, is blamed on the gap and names what is missing."""
    faces = cards(text)
    order = Order.of(pack)
    assert build(faces, order) is None
    why = explain(faces, order)
    assert why == f"{text} is not an unbroken sequence of the {pack} pack: {missing} (C4)"
    assert "ace" not in why


@pytest.mark.parametrize(
    ("text", "pack"),
    [("QC KC AC", "spanish"), ("KC AC 2C", "spanish"), ("9C 10C AC", "american")],
)
def test_c4_ace_high_in_a_40_card_pack_is_blamed_on_the_ace(text: str, pack: str) -> None:
    """C4: in both 40-card packs the ace is low only; cards unbroken with it high say so."""
    assert explain(cards(text), Order.of(pack)) == (
        f"{text} is not a sequence: in the {pack} pack the ace is low only (C4)"
    )


@pytest.mark.parametrize(
    "text", ["KH AH 2H", "QH KH AH 2H 3H", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"]
)
def test_law_16_round_the_corner_is_blamed_on_the_ace(text: str) -> None:
    """C4, Foster law 16: the ace may be low or high but never both at once."""
    assert explain(cards(text), Order.of("standard")) == (
        f"{text} is not a sequence: the ace may be low or high, never both (C4, law 16)"
    )


def test_c3_a_run_holding_one_card_twice_says_so() -> None:
    """C3 (M5 in the double pack): a sequence holds each card once."""
    assert explain(cards("5H 5H 6H"), Order.of("standard")) == (
        "5H 5H 6H is not a sequence: it holds 5H twice (C3)"
    )


@given(
    st.sampled_from(["spanish", "american", "standard"]).flatmap(
        lambda pack: st.tuples(
            st.just(pack),
            st.lists(st.sampled_from(clubs(pack)), min_size=3, max_size=7, unique=True),
        )
    )
)
def test_c4_explain_blames_the_ace_only_when_the_ace_is_the_trouble(
    case: tuple[str, list[Card]],
) -> None:
    """C4 over random sets of clubs: the ace is blamed only when there is one; otherwise the
    cards named missing (never an ace), put back, make a sequence."""
    pack, faces = case
    order = Order.of(pack)
    if build(faces, order) is not None:
        return
    why = explain(faces, order)
    if "ace" in why:
        assert any(c.rank == 1 for c in faces)
        return
    head = f"{' '.join(map(str, faces))} is not an unbroken sequence of the {pack} pack: "
    assert why.startswith(head) and why.endswith(" missing (C4)")
    named = why.removeprefix(head).removesuffix(" missing (C4)")
    named = named.removesuffix(" is").removesuffix(" are")
    filled = set(faces)
    for piece in named.replace(" and ", ", ").split(", "):
        low, _, high = piece.partition(" to ")
        first, last = (order.position[cards(t)[0].rank] for t in (low, high or low))
        assert 0 < first <= last  # never the ace
        filled.update(c for c in clubs(pack) if first <= order.position[c.rank] <= last)
    assert len(filled) > len(faces)
    assert build(tuple(filled), order) is not None


def clubs(pack: str) -> list[Card]:
    """The clubs of `pack` ("spanish", "american" or "standard")."""
    return [c for c in new_game_pack(pack) if c.suit == 0]


def new_game_pack(pack: str) -> tuple[Card, ...]:
    """One copy of the cards of `pack` ("spanish", "american" or "standard")."""
    if pack == "standard":
        return CooncanRules.three_hand().pack_cards()
    return ConquianRules(pack=pack).pack_cards()  # type: ignore[arg-type]


# -- the messages the engines and the formats give -----------------------------------------


def two_hand_deck(rules: ConquianRules, pone: str, dealer: str, starter: str) -> list[Card]:
    """A deck dealing these hands (two at a time, the pone first), then turning `starter`."""
    p, d = cards(pone), cards(dealer)
    deck: list[Card] = []
    for i in range(0, rules.hand_size, 2):
        deck += [*p[i : i + 2], *d[i : i + 2]]
    deck.append(cards(starter)[0])
    return deck + [c for c in rules.pack_cards() if c not in deck]


@pytest.mark.parametrize("rules", [ConquianRules(), ConquianRules(pack="american")])
def test_e1_two_hand_meld_with_a_gap_names_the_gap(rules: ConquianRules) -> None:
    """E1, C4: `meld AC 2C 4C` from the hand (T8 "say") is refused for its gap, not its ace."""
    deck = two_hand_deck(
        rules, pone="AC 2C 4C 5H 5D 6S 7D 3H 4S 6D", dealer="2D 3D 4D 4H 6C 6H 3S 2S AS 7S",
        starter="7H",
    )  # fmt: skip
    state = new_game(rules, deck=deck, dealer=0)
    with pytest.raises(IllegalActionError) as info:
        state.apply("meld AC 2C 4C")
    assert "3C is missing" in str(info.value) and "ace" not in str(info.value)
    assert info.value.rule == "C4"


def test_e1_cooncan_meld_with_a_gap_names_the_gap() -> None:
    """E1, C4: in Cooncan's 52-card pack `meld AH 2H 4H` is refused for its gap, not its ace."""
    rules = CooncanRules.three_hand()
    first = cards("AH 2H 4H 5C 5D 9S 10D")  # seat 1, at the dealer's left, plays first
    others = [c for c in rules.pack_cards() if c not in first]
    deck = []
    for k in range(7):
        deck += [first[k], others[2 * k], others[2 * k + 1]]
    deck += [c for c in rules.pack_cards() if c not in deck]
    state = new_game(rules, deck=deck, dealer=0).apply("draw")
    assert state.current_player == 1
    with pytest.raises(IllegalActionError) as info:
        state.apply("meld AH 2H 4H")
    assert "3H is missing" in str(info.value) and "ace" not in str(info.value)
    assert info.value.rule == "C4"


def test_e3_position_with_a_broken_ace_run_names_the_gap() -> None:
    """E3, C4: a position whose table holds `AC 2C 4C` is refused for the gap, not the ace."""
    state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
    data = json.loads(state.to_json())
    data["snapshot"]["table"][0]["cards"] = ["AC", "2C", "4C"]
    with pytest.raises(RecordError) as info:
        State.from_json(json.dumps(data))
    found = info.value.problems
    assert (
        "snapshot.table[0]: AC 2C 4C is not an unbroken sequence of the spanish pack: "
        "3C is missing (C4)" in found
    )
