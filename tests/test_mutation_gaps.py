"""Tests written for the mutants that survived the suite (see docs/testing.md).

A mutation run changes one operator or constant of the library at a time and
reruns the tests; a mutant that no test notices marks a behaviour nobody
checks. Each test here pins one such behaviour of `conquian.combos.core` or of the
two engines (two-hand and Cooncan), with an answer worked out from the rules'
text; the positions are dealt with the helpers of `test_offer` and
`test_rummy`.
"""

from __future__ import annotations

import itertools
import json
import os
import pickle
import random
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path

import pytest

from conquian import (
    Card,
    Combination,
    ConquianRules,
    ConquianState,
    CooncanRules,
    CooncanState,
    Kind,
    NamedJoker,
    Order,
    Suit,
    card,
    cards,
    joker,
    make_pack,
    new_game,
)
from conquian.cards import Face, card_at, face_code, parse_face, sort_key
from conquian.combos import core as combos
from conquian.combos.core import (
    borrow,
    borrowable,
    build,
    combination_of,
    explain,
    extend,
    extensions,
    fitting,
    melds_in,
    shifts,
)
from conquian.errors import RecordError
from conquian.offer import turn_finishes
from conquian.rummy import cut_for_deal
from conquian.rummy.explain import why
from test_offer import (
    DEALER_HAND,
    FOSTER,
    HOYLE,
    NINE_DOWN,
    PAGAT,
    assert_illegal,
    build_deck,
    deal_game,
)
from test_offer import play as two_hand_play
from test_offer import texts as two_hand_texts
from test_rummy import THREE_JK, rejects
from test_rummy import game as cooncan_game
from test_rummy import play as cooncan_play
from test_rummy import texts as cooncan_texts

STANDARD = Order.of("standard")
SRC = Path(__file__).resolve().parent.parent / "src"


# -- combos: the order of a pack ------------------------------------------------------------------


def test_c4_an_unknown_pack_has_no_order() -> None:
    """C4: only the spanish, american and standard packs (and Conquian's full pack, T20) have an
    order of ranks."""
    with pytest.raises(ValueError, match="unknown pack 'pinochle'"):
        Order("pinochle")
    with pytest.raises(ValueError, match="unknown pack 'pinochle'"):
        Order.of("pinochle", 8)


@pytest.mark.parametrize(
    ("pack", "max_sequence", "longest"),
    [
        ("spanish", None, 10),  # A-7 J Q K: all ten ranks (C4)
        ("american", None, 10),
        ("standard", None, 13),  # the ace low or high, never both (law 16)
        ("spanish", 8, 8),  # T14: a cap shorter than the pack
        ("standard", 12, 12),
        ("standard", 13, 13),
        ("american", 11, 10),  # a cap longer than the pack changes nothing
        ("standard", 14, 13),
        ("full", None, 13),  # T20: Conquian's full pack, the ace low only
        ("full", 8, 8),
    ],
)
def test_t14_longest_sequence_of_an_order(
    pack: str, max_sequence: int | None, longest: int
) -> None:
    """T14, C4: the longest sequence is the pack's run of ranks, or the cap if it is shorter."""
    order = Order.of(pack, max_sequence)
    assert order.longest == longest
    suit = Suit.HEARTS
    run = tuple(order.card_at(p, suit) for p in range(longest))
    assert build(run, order) is not None
    if longest < order.top + 1:
        assert build((*run, order.card_at(longest, suit)), order) is None


def test_t14_explain_names_the_cap() -> None:
    """T14: a sequence longer than `max_sequence` is refused for its length, citing T14."""
    order = Order.of("spanish", 8)
    nine = cards("AH 2H 3H 4H 5H 6H 7H JH QH")
    assert build(nine, Order.of("spanish")) is not None
    assert explain(nine, order) == "a sequence may hold at most 8 cards (T14)"
    # Eight cards are within the cap: a gap, not the length, is what is wrong.
    broken = cards("AH 2H 3H 4H 5H 6H 7H KH")
    assert "T14" not in explain(broken, order)
    assert "(C4)" in explain(broken, order)


# -- combos: law 16, the ace at one end only ------------------------------------------------------


@pytest.mark.parametrize(
    ("run", "fit"),
    [
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH"),  # the ace low or high: one card
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", "KH"),  # ace low: only the king above
        ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "2H"),  # ace high: only the two below
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", ""),  # full: an ace at both ends is not
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", ""),  # allowed (law 16)
    ],
)
def test_law16_fitting_a_long_sequence_of_the_52_card_pack(run: str, fit: str) -> None:
    """Law 16 (Foster p. 9), C4: the ace ends a sequence low or high, never both."""
    combo = build(cards(run), STANDARD)
    assert combo is not None and combo.kind is Kind.SEQUENCE
    assert fitting(combo, STANDARD) == cards(fit)
    for c in cards(fit):  # each card that fits makes a valid sequence
        assert build((*combo.cards, c), STANDARD) is not None


def _all_sequences(hand: tuple[object, ...], order: Order) -> set[tuple[object, ...]]:
    """Every sequence some sub-multiset of `hand` makes, by trying each one (the oracle)."""
    found = set()
    for size in range(3, len(hand) + 1):
        for sub in itertools.combinations(hand, size):
            combo = build(sub, order)  # type: ignore[arg-type]
            if combo is not None and combo.kind is Kind.SEQUENCE:
                found.add(combo.cards)
    return found


@pytest.mark.parametrize("max_sequence", [None, 13, 12, 5])
def test_law16_melds_in_a_full_suit_of_the_52_card_pack(max_sequence: int | None) -> None:
    """Law 16, M4: a full suit holds each sequence once, the ace low or high, not both."""
    order = Order.of("standard", max_sequence)
    hand = tuple(c for c in make_pack("standard") if c.suit is Suit.SPADES)
    melds = melds_in(hand, order)
    found = [m.cards for m in melds]
    assert len(found) == len(set(found))  # no sequence twice
    assert set(found) == _all_sequences(hand, order)
    longest = order.longest
    # Spans of n cards among positions 0-13 (the ace at 0 and at 13): 15 - n of them; at
    # n = 13, ace-to-king and two-to-ace are one set of cards, counted once.
    expected = sum(15 - n for n in range(3, longest + 1)) - (1 if longest == 13 else 0)
    assert len(found) == expected
    assert cards("QS KS AS") in found and cards("AS 2S 3S") in found


def test_c4_a_card_outside_the_pack_never_joins_a_sequence() -> None:
    """C4: the spanish pack has no 8, so 8 A 2 is no sequence, though their ranks touch."""
    spanish = Order.of("spanish")
    assert build(cards("8H AH 2H"), spanish) is None
    assert build(cards("KH 8H AH"), spanish) is None
    assert build(cards("JH QH KH"), Order.of("american")) is None


def test_c3_build_makes_combinations_for_seat_0_unless_told() -> None:
    """C3: a combination built without an owner belongs to seat 0."""
    seq = build(cards("5H 6H 7H"), STANDARD)
    group = build(cards("5H 5C 5D"), STANDARD, owner=3)
    assert seq is not None and seq.owner == 0
    assert group is not None and group.owner == 3


def test_m4_melds_in_belong_to_seat_0_unless_told() -> None:
    """M4: `melds_in` builds combinations for seat 0 by default, for `owner` when given."""
    hand = cards("5C 5D 5H 6H 7H JK")
    order = Order.of("standard")
    mine = melds_in(hand, order)
    theirs = melds_in(hand, order, owner=2)
    assert mine and all(isinstance(m, Combination) and m.owner == 0 for m in mine)
    assert [m.cards for m in theirs] == [m.cards for m in mine]
    assert all(m.owner == 2 for m in theirs)


# -- combos: why a set is no combination (E1) -----------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "pack", "reason"),
    [
        ("5H 6H", "spanish", "a combination needs at least three cards (C3)"),
        ("5H 6H JK", "standard", "a joker in a combination must be named, as JK=4D or JK=5 (C5)"),
        ("5H 5D JK=5C", "standard", "a joker in a group is named by rank only, as JK=5 (M9)"),
        (
            "5H 6H 7D",
            "standard",
            "5H 6H 7D is neither a group (one rank) nor a sequence (one suit) (C3)",
        ),
        (
            "5H 6D 7C 8S",
            "standard",
            "5H 6D 7C 8S is neither a group (one rank) nor a sequence (one suit) (C3)",
        ),
        ("7H 8H 9H", "spanish", "7H 8H 9H has a card that is not in the spanish pack (C4)"),
        ("JH QH KH", "american", "JH QH KH has a card that is not in the american pack (C4)"),
        (
            "QC KC AC",
            "spanish",
            "QC KC AC is not a sequence: in the spanish pack the ace is low only (C4)",
        ),
        (
            "KH AH 2H",
            "standard",
            "KH AH 2H is not a sequence: the ace may be low or high, never both (C4, law 16)",
        ),
        (
            "5H 6H 8H",
            "standard",
            "5H 6H 8H is not an unbroken sequence of the standard pack: 7H is missing (C4)",
        ),
        ("5H 6H 8H", "spanish", "5H 6H 8H has a card that is not in the spanish pack (C4)"),
        (
            "2C 3C 5C",
            "american",
            "2C 3C 5C is not an unbroken sequence of the american pack: 4C is missing (C4)",
        ),
        (
            "2H 3H 5H",
            "standard",
            "2H 3H 5H is not an unbroken sequence of the standard pack: 4H is missing (C4)",
        ),
    ],
)
def test_e1_explain_gives_the_reason_of_each_rule(faces: str, pack: str, reason: str) -> None:
    """E1: each way a set of cards fails to be a combination has its own reason and rule id."""
    text = [parse_face(t) for t in faces.split()]
    assert build(text, Order.of(pack)) is None
    assert explain(text, Order.of(pack)) == reason


# -- combos: the ends of a sequence with the ace high (law 16) ------------------------------------


def test_law16_a_sequence_ending_with_the_high_ace_grows_only_below() -> None:
    """Law 16: Q K A of the 52-card pack takes the jack, never the two (no way round the corner)."""
    seq = build(cards("QH KH AH"), STANDARD)
    assert seq is not None
    assert fitting(seq, STANDARD) == cards("JH")
    grown = [" ".join(map(str, e)) for e in extensions(seq, cards("2H 3H 10H JH"), STANDARD)]
    assert sorted(grown) == ["10H JH", "JH"]


# -- combos: the joker shift (M9, law 18) ---------------------------------------------------------


def _seq(text: str, order: Order = STANDARD, owner: int = 0) -> Combination:
    combo = build([parse_face(t) for t in text.split()], order, owner)
    assert combo is not None
    return combo


def _shifted(combo: Combination, face: str, order: Order = STANDARD) -> list[str]:
    return [str(c) for c in shifts(combo, parse_face(face), order)]


def test_m9_a_joker_at_the_low_end_shifts_to_the_high_end() -> None:
    """M9: JK=6H 7H 8H: the joker moves above the 8, and the 6 fills its place or the 10 follows."""
    seq = _seq("JK=6H 7H 8H")
    assert _shifted(seq, "6H") == ["6H 7H 8H JK=9H"]
    assert _shifted(seq, "10H") == ["7H 8H JK=9H 10H"]
    assert _shifted(seq, "5H") == []
    (moved,) = shifts(seq, card("6H"), STANDARD)
    assert moved.cards[-1] == joker("9H", shifted=True)


def test_m9_a_joker_shifts_once_only() -> None:
    """M9: a joker that was shifted never moves again, even where a second shift would fit."""
    (moved,) = shifts(_seq("7H 8H JK=9H"), card("9H"), STANDARD)
    assert str(moved) == "JK=6H 7H 8H 9H"
    assert shifts(moved, card("6H"), STANDARD) == ()
    assert shifts(moved, card("10H"), STANDARD) == ()


def test_m9_a_joker_may_shift_to_either_end_of_the_order() -> None:
    """M9, law 16: the joker may move to the ace low (position 0) or the ace high (the top)."""
    assert _shifted(_seq("2H 3H JK=4H"), "4H") == ["JK=AH 2H 3H 4H"]
    assert _shifted(_seq("JK=JH QH KH"), "JH") == ["JH QH KH JK=AH"]
    spanish = Order.of("spanish")
    assert _shifted(_seq("JK=JS QS KS", spanish), "JS", spanish) == []  # the king is the top
    assert _shifted(_seq("JK=6S 7S JS", spanish), "6S", spanish) == ["6S 7S JS JK=QS"]
    assert _shifted(_seq("AH 2H JK=3H"), "3H") == []  # nothing below the low ace


def test_m9_a_shifted_sequence_keeps_its_owner() -> None:
    """M9: the combination a shift makes still belongs to the player who laid it."""
    for combo in shifts(_seq("7H 8H JK=9H", owner=2), card("5H"), STANDARD):
        assert combo.owner == 2
    assert shifts(_seq("7H 8H JK=9H", owner=2), card("5H"), STANDARD)


# -- combos: melds_in finds every combination, jokers included (M4, C5) ---------------------------


def _every_meld(hand: list[Card], order: Order) -> set[tuple[object, ...]]:
    """The oracle: every sub-multiset holding a natural card, each joker named every way, built."""
    naturals = [c for c in hand if not c.is_joker]
    jokers = len(hand) - len(naturals)
    namings = [NamedJoker(r) for r in range(1, 14)]
    namings += [NamedJoker(r, s) for r in range(1, 14) for s in Suit]
    found: set[tuple[object, ...]] = set()
    for size in range(1, len(naturals) + 1):
        for sub in set(itertools.combinations(naturals, size)):
            for k in range(jokers + 1):
                if size + k < 3:
                    continue
                for named in itertools.combinations_with_replacement(namings, k):
                    combo = build((*sub, *named), order)
                    if combo is not None:
                        found.add(combo.cards)
    return found


@pytest.mark.parametrize(
    "hand",
    [
        "5H JK JK",  # two jokers with one card: 5H JK=6H JK=7H and the rest (C5)
        "5H 6H JK JK",
        "5H 7H 5C JK",
        "QS KS AS 2S JK",  # the ace high and low (law 16)
        "AS 2S 3S 5S JK",
        "9D 10D JD QD KD AD JK",
        "5H 5H 6H JK",  # the double pack: two of one card (M1)
        "4C 5C 5C 7C 7C JK",
    ],
)
def test_c5_melds_in_finds_what_every_naming_of_the_jokers_makes(hand: str) -> None:
    """C5, M4: melds_in finds each combination the oracle builds, once."""
    held = list(cards(hand))
    melds = [m.cards for m in melds_in(held, STANDARD)]
    assert len(melds) == len(set(melds))
    assert set(melds) == _every_meld(held, STANDARD)


# -- combos: what may be added to a combination (M5, T8, T9) --------------------------------------


def _every_extension(combo: Combination, hand: list[Card], order: Order) -> set[tuple[object, ...]]:
    """The oracle: every sub-multiset of the hand, each joker named every way, that extends."""
    namings = [NamedJoker(r) for r in range(1, 14)]
    namings += [NamedJoker(r, s) for r in range(1, 14) for s in Suit]
    naturals = [c for c in hand if not c.is_joker]
    jokers = len(hand) - len(naturals)
    found: set[tuple[object, ...]] = set()
    for size in range(len(naturals) + 1):
        for sub in set(itertools.combinations(naturals, size)):
            for k in range(jokers + 1):
                if size + k == 0:
                    continue
                for named in itertools.combinations_with_replacement(namings, k):
                    faces = (*sub, *named)
                    if extend(combo, faces, order) is not None:
                        found.add(tuple(sorted(faces, key=sort_key)))
    return found


@pytest.mark.parametrize(
    ("combo", "hand", "pack", "cap"),
    [
        ("5H 6H 7H", "3H 4H 8H 9H 5C 6D KS", "standard", None),
        ("5H 6H 7H", "2H 3H 4H 8H 9H 10H", "standard", 5),  # T14: two cards more at most
        ("5H 6H 7H", "4H 8H JK", "standard", None),
        ("5H JK=6H 7H", "3H 4H 8H 6H JK", "standard", None),
        ("QH KH AH", "10H JH 2H 3H JK", "standard", None),  # law 16: the high ace ends it
        ("AD 2D 3D", "4D 5D KD QD JK", "standard", None),  # and the low ace too
        ("2S 3S 4S", "AS 5S 6S 7S AC", "american", None),
        ("6C 7C JC", "4C 5C QC KC 7D", "spanish", None),
        ("5H 6H 7H", "8C 4D 8S 9H", "standard", None),  # only hearts extend hearts
        ("5H 6H 7H", "8H 8H 9H 4H 4H JK", "standard", None),  # the double pack (M1)
        ("5C 5D 5H", "5S 5H 6H 5D JK", "standard", None),  # a group takes every other 5 (M5)
        ("9C 9D JK=9", "9H 9S 9C JK 10C", "standard", None),
    ],
)
def test_m5_extensions_are_every_addable_set_of_hand_cards(
    combo: str, hand: str, pack: str, cap: int | None
) -> None:
    """M5, T8: extensions lists each set of hand cards that may be added at once, once."""
    order = Order.of(pack, cap)
    base = _seq(combo, order)
    held = list(cards(hand))
    found = extensions(base, held, order)
    assert len(found) == len(set(found))
    assert set(found) == _every_extension(base, held, order)


def test_c4_fitting_a_run_from_the_two_takes_the_low_ace() -> None:
    """C4: 2 3 4 takes the ace below it and the 5 above, in every pack."""
    for pack in ("standard", "american", "spanish"):
        order = Order.of(pack)
        assert fitting(_seq("2H 3H 4H", order), order) == cards("AH 5H")
    assert fitting(_seq("JH QH KH"), STANDARD) == cards("AH 10H")  # canonical order
    assert fitting(_seq("JS QS KS", Order.of("spanish")), Order.of("spanish")) == cards("7S")


def test_t9_borrowing_from_the_middle_is_allowed_unless_told() -> None:
    """T9: by default an inner card may be borrowed, splitting the sequence in two."""
    seven = _seq("AC 2C 3C 4C 5C 6C 7C", Order.of("spanish"))
    assert borrowable(seven) == cards("AC 4C 7C")
    assert [str(c) for c in borrow(seven, card("4C")) or ()] == ["AC 2C 3C", "5C 6C 7C"]
    assert borrow(seven, card("4C"), middle=False) is None


def test_t9_a_meld_of_three_lends_no_card() -> None:
    """T9: a group or a sequence of three lends nothing: what it would leave is no meld."""
    order = Order.of("spanish")
    assert borrowable(_seq("5C 6C 7C", order)) == ()
    assert borrowable(_seq("5C 5D 5H", order)) == ()


def test_c5_face_codes_stand_for_every_face_and_back() -> None:
    """C5, C3: `face_code` numbers the cards (the joker at 52), then the jokers named as each
    card, then the jokers named as a rank alone (a group's, ``JK=5``); `combination_of` reads
    them back, in the order given."""
    naturals = [card_at(i) for i in range(53)]
    as_cards = [NamedJoker(c.rank, c.suit) for c in naturals[:52]]
    as_ranks = [NamedJoker(rank) for rank in range(1, 14)]
    faces: list[Face] = [*naturals, *as_cards, *as_ranks]
    assert [face_code(f) for f in faces] == list(range(118))
    assert combination_of((0, *map(face_code, faces)), owner=2) == Combination(
        Kind.GROUP, tuple(faces), 2
    )
    assert face_code(joker("5")) == 109 and face_code(joker("4D")) == 53 + 13 + 3


def test_m4_the_memo_of_sequences_keeps_its_bound_least_recently_used_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`meld_codes` (M4, C4) memoises each suit's sequences within SEQUENCES_KEPT, counting
    each entry's sequences plus one, and lets the least recently used go first. Here each
    hand makes one sequence (two counted): a bound of 4 holds two hands. Speed and memory
    only: what `melds_in` returns is the same either way."""
    if not combos.__file__.endswith(".py"):
        pytest.skip("the compiled build reads SEQUENCES_KEPT as a constant, fixed when built")
    monkeypatch.setattr(combos, "SEQUENCES_KEPT", 4)
    monkeypatch.setattr(combos, "_SEQUENCES", OrderedDict())
    monkeypatch.setattr(combos, "_kept", [0])

    for hand in ("AC 2C 3C", "4C 5C 6C", "AC 2C 3C", "7C 8C 9C"):
        assert [str(c) for c in melds_in(cards(hand), STANDARD)] == [hand]
    # the keys' ranks, a bit per rank: A-3 used again after 4-6, so 4-6 went to make room
    assert [key[3] for key in combos._SEQUENCES] == [0b111, 0b111_000_000]
    assert combos._kept == [4]
    # As if another thread had emptied the memo behind the count: the count starts again.
    monkeypatch.setattr(combos, "_SEQUENCES", OrderedDict())
    monkeypatch.setattr(combos, "_kept", [100])
    assert [str(c) for c in melds_in(cards("4C 5C 6C"), STANDARD)] == ["4C 5C 6C"]
    assert combos._kept == [0] and not combos._SEQUENCES


# -- two-hand: a state unpickled in a fresh process -----------------------------------------------


def _states_to_try() -> list[ConquianState]:
    """Some states of random deals under several rules, melding states among them."""
    rng = random.Random(18)
    picked: list[ConquianState] = []
    presets = (ConquianRules(), ConquianRules.pagat(), ConquianRules.hoyle(pack="american"))
    for seed in range(6):
        state = new_game(presets[seed % 3], seed=seed)
        step = 0
        while not state.is_over:
            if step % 7 == 3 or state.pending:
                picked.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
            step += 1
        picked.append(state)
    return picked


_CHILD = """
import pickle, sys
states = pickle.load(sys.stdin.buffer)
for state in states:
    print("|".join(sorted(map(str, state.legal_actions()))))
"""


def test_legal_actions_of_states_unpickled_in_a_fresh_process() -> None:
    """DESIGN principle 1: a state pickled here has the same legal actions in a new process.

    The new process has none of this one's caches, so every lookup starts from
    nothing; melding states (cards pending) are among those tried.
    """
    states = _states_to_try()
    assert sum(1 for s in states if s.pending) >= 5
    three = new_game(CooncanRules.three_hand(jokers=1), seed=4)
    for _ in range(30):
        three = three.apply(three.legal_actions()[0])
    batch: list[object] = [*states, three]
    out = subprocess.run(
        [sys.executable, "-c", _CHILD],
        input=pickle.dumps(batch),
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC), "PYTHONHASHSEED": "1"},
        timeout=120,
    ).stdout.decode()
    expected = ["|".join(sorted(map(str, s.legal_actions()))) for s in batch]  # type: ignore[attr-defined]
    assert out.splitlines() == expected


def test_cards_of_an_unpickled_state_are_the_interned_cards() -> None:
    """C1: cards read back from a pickle are the very objects of the card table."""
    state = new_game(ConquianRules(), seed=2)
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    assert all(a is b for a, b in zip(again.hand(0), state.hand(0), strict=True))
    assert again.hand(0)[0] is card(str(state.hand(0)[0]))


# -- Cooncan: the edges a sample of the engine's mutants found unchecked ---------------------------


def _five_of_clubs_taken() -> CooncanState:
    """Seat 0 owns 6C-10C and KC KH KS, holds 5C KD, and has just taken the other 5C (M3)."""
    state = cooncan_game(
        CooncanRules.double_pack(players=2),
        ["6C 7C 8C 9C 10C KC KH KS 5C KD", "5C"],
        starter="2H",
        pack="QS 2D",
    )
    state = cooncan_play(
        state, "draw", "meld 6C 7C 8C 9C 10C", "meld KC KH KS", "discard QS", "draw", "discard 5C"
    )
    return state.apply("take 5C")


def test_m2_an_addition_that_would_strand_the_taken_card_is_refused() -> None:
    """M2 (library's choice: the card taken from the stock is not discarded that turn), E1:
    adding KD to his kings would leave 5C 5C, of which the sequence takes one; the reason is
    the dead end, though KD fits the kings (M5)."""
    state = _five_of_clubs_taken()
    assert cooncan_texts(state) == ["meld 5C @0", "discard KD"]
    rejects(
        state,
        "meld KD @1",
        "M2",
        "you could not finish your turn: only 5C, which you took from the stock",
    )


def test_e3_a_snapshot_names_the_card_taken_from_the_stock() -> None:
    """E3, M3: `snapshot.taken` is read and checked against the actions like every field."""
    state = _five_of_clubs_taken()
    data = json.loads(state.to_json())
    assert data["snapshot"]["taken"] == "5C"
    assert CooncanState.from_json(json.dumps(data)) == state
    data["snapshot"]["taken"] = "KD"
    with pytest.raises(RecordError) as info:
        CooncanState.from_json(json.dumps(data))
    assert info.value.problems == ('snapshot.taken is "KD", but the actions lead to "5C"',)


def test_m9_the_lowest_card_of_a_hand_may_pay_a_joker_shift() -> None:
    """M9 (law 18): 2C, first in a hand without an ace, shifts the joker of JK=2C 3C 4C to the
    five like any other card would (the scan of the hand skips only repeated cards)."""
    state = cooncan_game(
        THREE_JK, ["3C 4C JK 2D 4D 6S 7C", "2C 3D 5D 7S JD KH QH"], starter="KC", pack="QD QS"
    )
    state = cooncan_play(state, "draw", "meld JK=2C 3C 4C", "discard QD", "draw")
    assert str(state.hand(1)[0]) == "2C"
    assert [t for t in cooncan_texts(state) if "shift" in t] == ["force 2C @0 shift"]
    assert str(state.apply("force 2C @0 shift").table[0]) == "2C 3C 4C JK=5C"


def test_m9_a_shift_needs_a_joker_at_an_end_of_a_sequence() -> None:
    """M9, E1: a shift onto a group, or onto a sequence without a joker, is refused with that
    reason, not because the card does not fit."""
    rules = CooncanRules.three_hand()
    state = cooncan_game(rules, ["QC QD QH 5H 6H 7H QS"], starter="AH", pack="8H")
    state = cooncan_play(state, "draw", "meld QC QD QH", "meld 5H 6H 7H")
    for action in ("meld QS @0 shift", "meld 8H @1 shift"):
        rejects(state, action, "M9", "has no joker at an end of a sequence that may be shifted")


def test_m10_going_out_by_laying_down_counts_one_turn() -> None:
    """M10, M8: going out by laying the last cards ends the turn like a discard: `turns` goes
    up by one, and going out in the turn of his first combination is a splash."""
    rules = CooncanRules.three_hand(splash_bonus=25)
    state = cooncan_game(rules, ["5H 6H 7H 8S 9S 10S JS"], starter="AH", pack="QS")
    state = cooncan_play(state, "draw", "meld 5H 6H 7H")
    assert state.turns == 0 and not state.is_over
    state = state.apply("meld 8S 9S 10S JS QS")
    assert state.is_over and state.turns == 1
    assert state.splash


def test_m13_cutting_needs_no_more_players_than_cards() -> None:
    """M13, E2: each player cuts one card, so 53 players cannot cut the 52-card pack."""
    names = [f"p{i}" for i in range(53)]
    three = CooncanRules.three_hand()
    with pytest.raises(ValueError, match="no more players than the pack's 52 cards"):
        cut_for_deal(names, seed=1, rules=three)
    assert sorted(cut_for_deal(names[:52], seed=1, rules=three).seats) == sorted(names[:52])


def test_e1_the_reason_for_a_value_that_is_no_action() -> None:
    """E1: the engine's explanation names a value that is no action at all (`apply` itself
    turns such a value away with TypeError first)."""
    state = new_game(CooncanRules.three_hand(), seed=1)
    assert why(state, "draw") == ("this is not an action", "M2")
    with pytest.raises(TypeError, match="apply needs an action"):
        state.apply(3)  # type: ignore[arg-type]


# -- two-hand: the edges a sample of the engine's mutants found unchecked --------------------------


def test_c1_states_of_one_deck_under_different_rules_differ() -> None:
    """DESIGN principle 1: a state's value holds its rules; two deals of the same deck by the
    same dealer under different rules are different states, though every card lies alike."""
    deck = build_deck(FOSTER, "AC 2C 3C 4C 4D 5D 6D 7D KH KS", DEALER_HAND, "KD")
    foster = new_game(FOSTER, deck=deck, dealer=0)
    hoyle = new_game(HOYLE, deck=deck, dealer=0)
    assert foster.hand(0) == hoyle.hand(0) and foster.offer == hoyle.offer
    assert foster != hoyle
    assert foster == new_game(FOSTER, deck=deck, dealer=0)


def test_t2_after_a_win_every_action_is_refused_naming_the_winner() -> None:
    """T2, E1: once the pone has melded eleven cards, any action is refused with T2 (not T12,
    the tableau)."""
    state = deal_game(FOSTER, "AC 2C 3C 4C 4D 5D 6D 7D KH KS", DEALER_HAND, "KD")
    state = two_hand_play(state, "meld AC 2C 3C 4C", "meld 4D 5D 6D 7D", "take KD", "meld KD KH KS")
    for action in ("pass", "discard 2D"):
        assert_illegal(state, action, "T2", "the deal is over: seat 1 has won")


def test_t10_the_pone_forcing_a_card_that_fits_no_meld_is_told_so() -> None:
    """T5, T10, E1: the pone, with the say to a card he turned, forces it onto the dealer's
    meld, which it does not fit: the reason is the fit (the meld is the opponent's)."""
    state = deal_game(FOSTER, NINE_DOWN, DEALER_HAND, "JH", "KC 5H")
    state = two_hand_play(state, "pass", "meld AD 2D 3D", "pass", "pass", "pass")
    assert (state.current_player, state.offer, state.offer_origin) == (1, card("5H"), "turned")
    assert_illegal(state, "force 5H @0", "T10", "5H does not fit the meld AD 2D 3D")


def test_t9_hoyle_refuses_the_second_card_of_a_sequence_as_a_middle_card() -> None:
    """T9 (hoyle()'s borrow_middle=False): 3H, next to the low end of 2H-8H, is a middle card."""
    rules = ConquianRules.hoyle(pack="american", borrow_other_kind=False)
    state = deal_game(rules, "2H 3H 4H 5H 6H 7H 8H 5C 5D 9C", "AD 2D 3D 4C 6C 7C 8C AS 2S 4S", "5S")
    state = two_hand_play(state, "meld 2H 3H 4H 5H 6H 7H 8H", "take 5S")
    for action in ("borrow 3H @0", "borrow 7H @0"):
        assert_illegal(state, action, "T9", "no card is borrowed from the middle of a sequence")


def test_t9_hoyle_a_card_lent_by_a_sequence_goes_into_a_group() -> None:
    """T9 (hoyle()'s borrow_other_kind): 4H borrowed from 4H-7H may not make 2H 3H 4H."""
    state = deal_game(HOYLE, "4H 5H 6H 7H 4C 2H 3H JS QC KD", "AD 2D 3D 5S 6S 7S QH QS AC JD", "4D")
    state = two_hand_play(state, "meld 4H 5H 6H 7H", "take 4D", "borrow 4H @0")
    assert two_hand_texts(state) == ["meld 4C 4D 4H"]
    assert_illegal(
        state, "meld 2H 3H 4H", "T9", "4H was borrowed from a sequence: it must go into a group"
    )


def test_t14_a_hand_card_may_not_fill_the_sequence_a_taken_card_needs() -> None:
    """T14, T8 (no dead ends): with max_sequence=4, 4H 5H 6H down and 7H taken, 3H may not go
    onto the sequence: 3H-6H would be full and 7H, which must be melded, would have no place."""
    rules = ConquianRules(max_sequence=4)
    state = deal_game(rules, "4H 5H 6H 3H AC 2S 4C JD QS KC", "AD 2D 3D 5S 6S 7S QH JS AS KD", "7H")
    state = two_hand_play(state, "meld 4H 5H 6H")
    assert two_hand_texts(state) == ["take 7H", "pass", "meld 3H @0"]
    state = state.apply("take 7H")
    assert two_hand_texts(state) == ["meld 7H @0"]
    assert_illegal(state, "meld 3H @0", "T8")


def test_c1_an_unpickled_say_with_only_the_ace_of_clubs_in_hand() -> None:
    """DESIGN principle 1, T4, T8: the pone, nine cards down and only AC (the card of index 0)
    in hand, has the say to KH; unpickled (its deal's memo made anew), the state has the
    same legal actions, found from nothing."""
    state = deal_game(FOSTER, "2C 3C 4C 4D 5D 6D 7C 7H 7S AC", DEALER_HAND, "KH")
    state = two_hand_play(state, "meld 2C 3C 4C", "meld 4D 5D 6D", "meld 7C 7H 7S")
    assert state.hand(1) == (card("AC"),) and state.offer == card("KH")
    again = pickle.loads(pickle.dumps(state))
    assert two_hand_texts(again) == ["pass", "meld AC @0"] == two_hand_texts(state)


def test_t10_the_pone_forcing_a_hand_card_that_fits_no_meld_is_told_so() -> None:
    """T8, T10, E1: the pone, melding after a take, ends his turn by forcing KH from his hand
    onto the dealer's meld, which it does not fit: the reason is the fit."""
    state = deal_game(FOSTER, NINE_DOWN, DEALER_HAND, "JH", "KC 7D")
    state = two_hand_play(state, "pass", "meld AD 2D 3D", "pass", "pass", "pass")
    state = two_hand_play(state, "take 7D", "meld 7C 7D 7H 7S")
    assert (
        state.current_player == 1 and state.offer is None and "force 4D @0" in two_hand_texts(state)
    )
    assert_illegal(state, "force KH @0", "T10", "KH does not fit the meld AD 2D 3D")


def test_t8_borrowing_an_end_card_that_helps_nothing_is_refused_for_the_pending_cards() -> None:
    """T9, T8, E1: 3C, an end of 3C-6C, may be borrowed under T9, but with 6D taken it could not
    be melded: the reason is the pending cards (T8), not the shape of the sequence (T9)."""
    state = deal_game(
        PAGAT, "3C 4C 5C 6H KH QD JS 2D 7S 2H", "AC AD AH AS KC KD KS QC QH QS", "6C", "JD 6D"
    )
    state = two_hand_play(state, "take 6C", "meld 3C 4C 5C 6C", "discard KH")
    state = two_hand_play(state, "pass", "pass", "pass", "take 6D")
    assert two_hand_texts(state) == ["borrow 6C @0"]
    assert_illegal(state, "borrow 3C @0", "T8", "the pending 6D 3C could not all be melded")


def test_c1_a_two_hand_state_compared_with_another_value_is_unequal() -> None:
    """DESIGN principle 1: a state is a value; compared with a value of another type it is
    unequal (not an error), also with a Cooncan state."""
    state = new_game(FOSTER, seed=3)
    assert state != "take KD" and state != None  # noqa: E711
    assert state != new_game(CooncanRules.three_hand(), seed=3)
    assert state in [None, 3, state]


def test_the_memo_of_finishable_turns_stays_within_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The turns a two-hand deal remembers as finishable or not (T8, no dead ends: its
    `Memo.finish`) stay within MEMO_LIMIT per player, however long the deal (a count)."""
    from conquian.offer import turn

    if not turn.__file__.endswith(".py"):
        pytest.skip("the compiled build reads MEMO_LIMIT as a constant, fixed when built")
    monkeypatch.setattr(turn, "MEMO_LIMIT", 3)
    most = 0
    for seed in range(30):
        state = new_game(ConquianRules.pagat(), seed=seed)
        assert isinstance(state, ConquianState)
        while not state.is_over:
            actions = state.legal_actions()
            state = state.apply(actions[(seed * 7 + len(state.history)) % len(actions)])
            most = max(most, *map(len, state._deal.memo.finish))
    assert most == 3  # the bound is reached, and held


def test_t8_the_ends_of_a_turn_leave_out_melds_of_hand_cards_alone() -> None:
    """T8, `turn_finishes`: the ends of a turn come from placing the pending cards; laying
    JS QS KS from the hand as well (allowed at the say, T8) is no other end of this search."""
    table = (build(cards("5C 6C 7C"), Order.of("spanish"), 0),)
    ends = list(turn_finishes(FOSTER, 0, cards("JS QS KS 2D"), table, cards("4C")))
    assert [(" ".join(map(str, h)), [str(m) for m in t]) for h, t in ends] == [
        ("2D JS QS KS", ["4C 5C 6C 7C"])
    ]


def test_t9_a_meld_that_strands_the_other_borrowed_card_is_refused() -> None:
    """T9, T14, T8 (no dead ends): forced on (T10), the pone borrows 5C and 6C from his groups;
    with max_sequence=3, 3C 4C 5C would leave 6C with no place (3C-5C is full, and 5C is
    borrowed once a turn), though 5C 6C 7C, a meld of other hand cards, places both."""
    rules = ConquianRules(max_sequence=3)
    state = deal_game(rules, "5C 5D 5H 6C 6D 6H 6S 7C 3C 4C", "AD 2D 3D 4S QH QS QC JD KD KH", "5S")
    state = two_hand_play(state, "meld 5C 5D 5H", "meld 6C 6D 6H 6S", "pass", "force 5S @0")
    state = two_hand_play(state, "borrow 5C @0", "borrow 6C @1")
    assert state.pending == cards("5C 6C")
    assert two_hand_texts(state) == ["meld 4C 5C 6C", "meld 5C 6C 7C"]
    assert_illegal(state, "meld 3C 4C 5C", "T8")
