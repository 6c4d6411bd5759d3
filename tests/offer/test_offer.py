"""Two-hand Conquian, rule by rule (RULES.md T1–T15, E1), and the sources' worked examples.

Positions are dealt with `new_game(rules, deck=..., dealer=...)` from decks that
`build_deck` makes out of the two hands, the starter and the top of the stock.
Unless a test says otherwise the dealer is seat 0, so the pone is seat 1.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterable

import pytest

from conquian import (
    Borrow,
    Card,
    ConquianRules,
    Discard,
    Force,
    IllegalActionError,
    Meld,
    Outcome,
    Pass,
    Take,
    card,
    cards,
    new_game,
    parse_action,
)
from conquian.offer import ConquianState, ConquianView

FOSTER = ConquianRules()
AMERICAN = ConquianRules(pack="american")
PAGAT = ConquianRules.pagat()
HOYLE = ConquianRules.hoyle()
BLOG = ConquianRules.blog()
DEALER, PONE = 0, 1


def _cards(text: str | Iterable[Card]) -> tuple[Card, ...]:
    return cards(text) if isinstance(text, str) else tuple(text)


def build_deck(
    rules: ConquianRules,
    pone: str | Iterable[Card],
    dealer: str | Iterable[Card],
    starter: str,
    stock: str = "",
) -> tuple[Card, ...]:
    """A whole deck (top first) that deals these hands, turns `starter`, then `stock` on top.

    The rest of the stock follows in canonical order. Follows the deal of
    DESIGN.md / T1: two at a time, the pone first; with nine, one each last.
    """
    pone_cards, dealer_cards = _cards(pone), _cards(dealer)
    size = rules.hand_size
    assert len(pone_cards) == size and len(dealer_cards) == size, "give both whole hands"
    slots: list[str] = []
    while len(slots) < 2 * size:
        k = min(2, size - len(slots) // 2)
        slots += ["pone"] * k + ["dealer"] * k
    from_pone, from_dealer = iter(pone_cards), iter(dealer_cards)
    deck = [next(from_pone) if s == "pone" else next(from_dealer) for s in slots]
    deck += [card(starter), *cards(stock)]
    assert len(set(deck)) == len(deck), "a card is given twice"
    deck += [c for c in rules.pack_cards() if c not in set(deck)]
    return tuple(deck)


def deal_game(
    rules: ConquianRules,
    pone: str,
    dealer: str,
    starter: str,
    stock: str = "",
    dealer_seat: int = DEALER,
) -> ConquianState:
    """A new deal with these hands (see `build_deck`)."""
    state = new_game(
        rules, deck=build_deck(rules, pone, dealer, starter, stock), dealer=dealer_seat
    )
    assert isinstance(state, ConquianState)
    return state


def play(state: ConquianState, *actions: str) -> ConquianState:
    """Apply the actions in turn."""
    for action in actions:
        state = state.apply(action)
    return state


def texts(state: ConquianState) -> list[str]:
    """The legal actions as text."""
    return [str(a) for a in state.legal_actions()]


def table_text(state: ConquianState) -> list[tuple[int, str]]:
    """The table as (owner, cards) pairs."""
    return [(m.owner, str(m)) for m in state.table]


def melded(state: ConquianState, player: int) -> int:
    """How many cards `player` has on the table."""
    return sum(len(m.cards) for m in state.table if m.owner == player)


def assert_illegal(state: ConquianState, action: str, rule: str, words: str = "") -> None:
    """`action` raises IllegalActionError citing `rule` (and saying `words`); state unchanged."""
    before = copy.copy(state)
    saved = pickle.dumps(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).endswith(f"({rule})")
    assert f"illegal action '{parse_action(action)}'" in str(info.value)
    assert words in str(info.value)
    assert not state.is_legal(action)
    assert state == before and pickle.loads(saved) == state


# -- T1 pack and deal -------------------------------------------------------------


def test_t1_deal_two_at_a_time_pone_first() -> None:
    """T1: the pone gets deck[0:2] + deck[4:6] + …, the dealer deck[2:4] + …; deck[20] is turned."""
    deck = FOSTER.pack_cards()
    state = new_game(FOSTER, deck=deck, dealer=0)
    assert state.hand(1) == tuple(sorted(deck[i] for i in range(20) if i % 4 < 2))
    assert state.hand(0) == tuple(sorted(deck[i] for i in range(20) if i % 4 >= 2))
    assert state.offer == deck[20] and state.offer_origin == "turned"
    assert state.current_player == 1 and state.stock_size == 19


def test_t1_dealer_one_makes_seat_zero_the_pone() -> None:
    """T1: the pone is seat dealer + 1 (mod 2), and he is dealt first."""
    deck = FOSTER.pack_cards()
    state = new_game(FOSTER, deck=deck, dealer=1)
    assert state.current_player == 0 and state.dealer == 1
    assert state.hand(0) == tuple(sorted(deck[i] for i in range(20) if i % 4 < 2))


def test_t1_nine_card_hands_end_with_one_card_each() -> None:
    """T1: with nine the last round is one card each, and deck[18] is turned."""
    rules = ConquianRules(hand_size=9)
    deck = rules.pack_cards()
    state = new_game(rules, deck=deck, dealer=0)
    pone = [0, 1, 4, 5, 8, 9, 12, 13, 16]
    dealer = [2, 3, 6, 7, 10, 11, 14, 15, 17]
    assert state.hand(1) == tuple(sorted(deck[i] for i in pone))
    assert state.hand(0) == tuple(sorted(deck[i] for i in dealer))
    assert state.offer == deck[18] and state.stock_size == 21


def test_t1_eight_card_hands_are_four_rounds_of_two() -> None:
    """T1: with eight, four rounds of two; deck[16] is turned and 23 cards are left."""
    rules = ConquianRules(hand_size=8)
    deck = rules.pack_cards()
    state = new_game(rules, deck=deck, dealer=0)
    assert state.hand(1) == tuple(sorted(deck[i] for i in range(16) if i % 4 < 2))
    assert state.offer == deck[16] and state.stock_size == 23


def test_t1_american_pack_has_ace_to_ten() -> None:
    """T1, C4: the American pack runs A-10, so 8 9 10 make a sequence and 7 8 9 too."""
    state = deal_game(
        AMERICAN, "7H 8H 9H 2C 3D 4S 6C AD 5S 10C", "AC 2D 3S 4C 5D 6S 7C 8D 9S AS", "10H"
    )
    assert "take 10H" in texts(state)
    state = play(state, "take 10H")
    assert "meld 7H 8H 9H 10H" in texts(state) and "meld 8H 9H 10H" in texts(state)


def test_t1_stock_is_the_rest_top_first() -> None:
    """T1, T6: the card turned after a burial is the next card of the deck."""
    deck = FOSTER.pack_cards()
    state = new_game(FOSTER, deck=deck, dealer=0)
    state = play(state, "pass", "pass")  # the dealer buries the starter and turns
    assert state.offer == deck[21] and state.offer_origin == "turned"
    assert state.current_player == 0 and state.buried == (deck[20],)
    assert state.stock_size == 18


# -- T2 goal -------------------------------------------------------------------------

# The pone's hand for the T2 tests: three melds he lays down from his hand, and KH.
NINE_DOWN = "AC 2C 3C 4D 5D 6D 7H 7S 7C KH"
DEALER_HAND = "AD 2D 3D 4S 5S 6S QH QS QC JD"


def test_t2_win_the_moment_the_taken_card_melds_the_last_hand_cards() -> None:
    """T2: eight down, KH KS in hand and KD turned: the three kings make eleven and win at once."""
    state = deal_game(FOSTER, "AC 2C 3C 4C 4D 5D 6D 7D KH KS", DEALER_HAND, "KD")
    state = play(state, "meld AC 2C 3C 4C", "meld 4D 5D 6D 7D", "take KD")
    assert state.result is None and state.pending == (card("KD"),)
    state = play(state, "meld KD KH KS")
    assert state.result is not None and state.result.outcome is Outcome.WIN
    assert state.result.winner == PONE and state.result.payments == (-1, 1)
    assert melded(state, PONE) == 11 and state.current_player is None
    assert state.legal_actions() == () and state.offer is None


def test_t2_discarding_the_last_card_does_not_win() -> None:
    """T2 (Foster p. 50, special law 21; pagat): ten down and an empty hand is not a win."""
    state = deal_game(FOSTER, NINE_DOWN, DEALER_HAND, "4C")
    state = play(state, "meld AC 2C 3C", "meld 4D 5D 6D", "meld 7C 7H 7S", "take 4C", "meld 4C @0")
    assert melded(state, PONE) == 10 and state.hand(PONE) == (card("KH"),)
    assert state.result is None and texts(state) == ["discard KH"]
    state = play(state, "discard KH")
    assert state.hand(PONE) == () and melded(state, PONE) == 10
    assert state.result is None and state.current_player == DEALER
    assert state.offer == card("KH") and state.offer_origin == "discarded"


def test_t2_hand_plus_melds_is_the_hand_size_between_turns() -> None:
    """T2: after a take, a meld and a discard, hand plus melds is ten again."""
    state = deal_game(FOSTER, NINE_DOWN, DEALER_HAND, "4C")
    state = play(state, "take 4C", "meld AC 2C 3C 4C", "discard KH")
    assert len(state.hand(PONE)) + melded(state, PONE) == 10
    assert len(state.hand(DEALER)) + melded(state, DEALER) == 10


def test_t2_ten_down_and_an_empty_hand_wins_with_an_eleventh_card() -> None:
    """T2: ten down and an empty hand, a card that fits one of his melds is the eleventh."""
    state = deal_game(FOSTER, NINE_DOWN, DEALER_HAND, "4C", "KC KD 5C")
    state = play(
        state,
        "meld AC 2C 3C",
        "meld 4D 5D 6D",
        "meld 7C 7H 7S",
        "take 4C",
        "meld 4C @0",
        "discard KH",
    )
    # The dealer buries KH, turns KC and passes it; the pone buries KC, turns KD and passes
    # it; the dealer buries KD and turns 5C, which fits the pone's clubs, and passes it.
    state = play(state, "pass", "pass", "pass", "pass", "pass", "pass")
    assert state.offer == card("5C") and state.current_player == PONE
    assert state.offer_origin == "passed"
    state = play(state, "take 5C", "meld 5C @0")
    assert state.result is not None and state.result.winner == PONE
    assert melded(state, PONE) == 11


# -- T3 cards never enter the hand ----------------------------------------------------


def test_t3_a_card_that_cannot_be_melded_cannot_be_taken() -> None:
    """T3: a card is taken only to be melded at once, so one that cannot be placed is refused."""
    state = deal_game(
        FOSTER, "AC 5C 2D 6D 3H 7H 4S JS QC KD", "AD 2C 3D 4C 5H 6S 7C JD QH KS", "KH"
    )
    assert texts(state) == ["pass"]
    assert_illegal(state, "take KH", "T3", "never held in the hand")


def test_t3_a_taken_card_is_pending_not_in_hand() -> None:
    """T3, T8: after a take the card is pending; the hand does not change."""
    state = deal_game(
        FOSTER, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 4D 3D 4C 5C 6S 7C JD QH KS", "3C"
    )
    hand = state.hand(PONE)
    state = play(state, "take 3C")
    assert state.pending == (card("3C"),) and state.hand(PONE) == hand
    assert state.offer is None and card("3C") not in state.hand(PONE)


# -- T4 the say ---------------------------------------------------------------------


def test_t4_offer_is_none_while_melding_and_after_the_deal() -> None:
    """T4: one card is on offer between turns; none while melding after a take."""
    state = deal_game(
        FOSTER, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 4D 3D 4C 5C 6S 7C JD QH KS", "3C"
    )
    assert state.offer == card("3C") and state.offer_origin == "turned"
    state = play(state, "take 3C")
    assert state.offer is None and state.offer_origin is None
    state = play(state, "meld AC 2C 3C")
    assert state.offer is None and state.pending == ()
    state = play(state, "discard KD")
    assert state.offer == card("KD") and state.offer_origin == "discarded"
    assert state.current_player == DEALER


def test_t4_draw_is_never_legal() -> None:
    """T4: there is no drawing: cards are turned face up from the stock."""
    state = deal_game(
        FOSTER, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 4D 3D 4C 5C 6S 7C JD QH KS", "3C"
    )
    assert_illegal(state, "draw", "T4", "no drawing")


def test_t4_only_the_card_on_offer_may_be_taken() -> None:
    """T4: a card that is not on offer cannot be taken."""
    state = deal_game(
        FOSTER, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 4D 3D 4C 5C 6S 7C JD QH KS", "3C"
    )
    assert_illegal(state, "take 4C", "T4", "not on offer")


# -- T5 a card you turned -------------------------------------------------------------


def test_t5_pass_a_turned_card_to_the_opponent_as_passed() -> None:
    """T5: passing a card he turned puts it on offer to the opponent as passed."""
    state = deal_game(
        FOSTER, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 3C 3D 4C 5C 6S 7C JD QH KS", "2S"
    )
    state = play(state, "pass")
    assert state.current_player == DEALER and state.offer == card("2S")
    assert state.offer_origin == "passed" and state.buried == ()


def test_t5_force_a_turned_card_onto_the_opponents_meld() -> None:
    """T5, T10: a card he turned may be forced onto an opponent's meld it fits."""
    forced = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "2S", "4C"
    )
    forced = play(forced, "meld AC 2C 3C", "pass", "pass")
    assert forced.offer == card("4C") and forced.current_player == DEALER
    assert "force 4C @0" in texts(forced)
    forced = play(forced, "force 4C @0")
    assert table_text(forced) == [(PONE, "AC 2C 3C 4C")]
    assert forced.current_player == PONE and forced.offer is None and forced.pending == ()


# -- T6 a passed card -----------------------------------------------------------------


def test_t6_pass_a_passed_card_buries_it_and_turns_the_next() -> None:
    """T6: refusing a passed card buries it; the player turns the next card for himself."""
    state = deal_game(
        FOSTER, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 3C 3D 4C 5C 6S 7C JD QH KS", "2S", "2H"
    )
    state = play(state, "pass", "pass")
    assert state.buried == (card("2S"),)
    assert state.offer == card("2H") and state.offer_origin == "turned"
    assert state.current_player == DEALER and state.stock_size == 18


def test_t6_force_a_passed_card_back_onto_the_passer() -> None:
    """T6, T10 (Hoyle 1897; Foster p. 53): a passed card that fits the passer's meld goes back."""
    state = deal_game(
        FOSTER, "AC 2C 3C 5H 3H 7H 4S JS QC KD", "AD 3D 4D 5C 6S 7C JD QH KS 2H", "4C"
    )
    state = play(state, "meld AC 2C 3C", "pass")
    assert state.offer_origin == "passed" and "force 4C @0" in texts(state)
    state = play(state, "force 4C @0")
    assert table_text(state) == [(PONE, "AC 2C 3C 4C")]
    assert state.current_player == PONE and state.offer is None


# -- T7 a discard -----------------------------------------------------------------------


def test_t7_a_discard_cannot_be_forced_back() -> None:
    """T7: a discard that fits the discarder's meld is not forced back onto him."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 3H 5H 7H 4S JS QC", "AD 3D 4D 5C 6S 7C JD QH KS 2H", "4H"
    )
    state = play(state, "meld AC 2C 3C", "take 4H", "meld 3H 4H 5H", "discard 4C")
    assert state.offer == card("4C") and state.offer_origin == "discarded"
    assert not any(isinstance(a, Force) for a in state.legal_actions())
    assert_illegal(state, "force 4C @0", "T7", "not forced back")


def test_t7_pass_a_discard_buries_it_and_turns_the_next() -> None:
    """T7: refusing a discard buries it and turns the next stock card, on offer to himself."""
    state = deal_game(
        FOSTER, "AC 2C 3C 5H 3H 7H 4S JS QC KD", "AD 3D 4D 5C 6S 7C JD QH KS 2H", "4H", "6H"
    )
    state = play(state, "take 4H", "meld 3H 4H 5H", "discard KD", "pass")
    assert state.buried == (card("KD"),) and state.offer == card("6H")
    assert state.current_player == DEALER and state.offer_origin == "turned"


# -- T8 take, meld, borrow, discard ------------------------------------------------------


def test_t8_take_meld_and_discard() -> None:
    """T8: the taken card is pending until melded; then a hand card is discarded."""
    state = deal_game(PAGAT, "AC 2C 5H 6D 3H 7H 4S JS QC KD", "AD 3D 4D 4C 5C 6S 7C JD QH KS", "3C")
    state = play(state, "take 3C")
    assert texts(state) == ["meld AC 2C 3C"]
    assert_illegal(state, "discard KD", "T8", "must be melded")
    state = play(state, "meld AC 2C 3C")
    assert state.legal_actions() == tuple(Discard(c) for c in state.hand(PONE))
    assert len(state.hand(PONE)) == 8
    state = play(state, "discard 6D")
    assert state.offer == card("6D") and state.current_player == DEALER


def test_t8_meld_may_add_pending_and_hand_cards_to_own_meld() -> None:
    """T8: a meld may add several cards, pending and from the hand, to one's own meld."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 6C 7H 4S JS QC KD", "AD 3D 4D 5D 5H 6S 7C JD QH KS", "5C"
    )
    state = play(state, "meld AC 2C 3C", "take 5C")
    assert "meld 4C 5C 6C @0" in texts(state)
    state = play(state, "meld 4C 5C 6C @0")
    assert table_text(state) == [(PONE, "AC 2C 3C 4C 5C 6C")]


def test_t8_lay_down_say_while_having_the_say() -> None:
    """T8 (Foster pp. 63-64, 75): a player with the say may lay down hand melds; the card stays."""
    state = deal_game(
        FOSTER, "AC 2C 3C 5H 5D 5S 4S JS QC KD", "AD 3D 4D 4C 5C 6S 7C JD QH KS", "KH"
    )
    assert "meld AC 2C 3C" in texts(state) and "meld 5D 5H 5S" in texts(state)
    state = play(state, "meld 5D 5H 5S")
    assert state.offer == card("KH") and state.offer_origin == "turned"
    assert state.current_player == PONE and table_text(state) == [(PONE, "5D 5H 5S")]
    state = play(state, "meld AC 2C 3C")
    assert len(state.hand(PONE)) == 4 and texts(state) == ["pass"]


def test_t8_add_hand_cards_to_own_meld_while_having_the_say() -> None:
    """T8: with the say, hand cards may be added to one's own meld (Foster p. 75)."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 5D 5S 4S JS QC KD", "AD 3D 4D 5C 5H 6S 7C JD QH KS", "KH"
    )
    state = play(state, "meld AC 2C 3C")
    assert texts(state) == ["pass", "meld 4C @0"]
    state = play(state, "meld 4C @0")
    assert table_text(state) == [(PONE, "AC 2C 3C 4C")] and state.offer == card("KH")


def test_t8_blog_forbids_melds_of_hand_cards_alone() -> None:
    """T8 (blog, lay_down="meld"): "you cannot lay down a meld without using the card from
    the deck": under blog() every meld must use a pending card."""
    state = deal_game(BLOG, "AC 2C 3C 5H 5D 5S 4S JS QC KD", "AD 3D 4D 4C 5C 6S 7C JD QH KS", "KH")
    assert texts(state) == ["pass"]
    assert_illegal(state, "meld AC 2C 3C", "T8", "only together with a card taken")
    state = deal_game(BLOG, "AC 2C 3C 5H 5D 5S 4S JS QC KD", "AD 3D 4D 4C 6C 6S 7C JD QH KS", "5C")
    state = play(state, "take 5C")
    assert_illegal(state, "meld AC 2C 3C", "T8", "every meld must use a pending card")
    state = play(state, "meld 5C 5D 5H 5S")
    assert texts(state)[0].startswith("discard")  # no more melds: nothing is pending
    assert_illegal(state, "meld AC 2C 3C", "T8", "every meld must use a pending card")


def test_t8_may_meld_from_hand_while_melding_under_foster() -> None:
    """T8: under the default rules hand melds may go down while melding too."""
    state = deal_game(
        FOSTER, "AC 2C 3C 5H 5D 5S 4S JS QC KD", "AD 3D 4D 4C 6C 6S 7C JD QH KS", "5C"
    )
    state = play(state, "take 5C")
    assert "meld AC 2C 3C" in texts(state)  # 5C can still go onto the fives
    state = play(state, "meld AC 2C 3C")
    assert "meld 5C @0" not in texts(state)  # AC 2C 3C 5C is not a sequence
    assert "meld 5C 5D 5H 5S" in texts(state)


def test_t8_meld_only_onto_own_melds() -> None:
    """T8: cards are added only to one's own melds; the opponent's get cards by a force."""
    state = deal_game(
        FOSTER, "AC 2C 3C 5H 3H 7H 4S JS QC KD", "AD 3D 4D 4C 5C 6S 7C JD QH KS", "4H"
    )
    state = play(state, "meld AC 2C 3C", "pass")
    assert state.current_player == DEALER
    assert_illegal(state, "meld 4C @0", "T8", "only to your own melds")


def test_t8_meld_must_be_a_combination() -> None:
    """T8, C3: a meld of cards that make no combination is refused with the reason."""
    state = deal_game(
        FOSTER, "AC 2C 3C 5H 3H 7H 4S JS QC KD", "AD 3D 4D 4C 5C 6S 7C JD QH KS", "4H"
    )
    assert_illegal(state, "meld AC 2C", "C3", "at least three cards")
    assert_illegal(state, "meld AC 2C 4S", "C3", "neither a group")
    assert_illegal(state, "meld 3H 4H 5H", "T8", "on offer, not in your hand")
    assert_illegal(state, "meld AD 2D 3D", "T8", "not in your hand")


def test_t8_no_borrowing_while_only_having_the_say() -> None:
    """T8, T9: a player who only has the say may not borrow."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 3H 7H 4S JS QC KD", "AD 3D 4D 5C 5H 6S 7C JD QH KS", "KH"
    )
    state = play(state, "meld AC 2C 3C 4C")
    assert not any(isinstance(a, Borrow) for a in state.legal_actions())
    assert_illegal(state, "borrow 4C @0", "T9", "only while melding")


def test_t8_no_meld_after_which_the_pending_card_could_not_be_placed() -> None:
    """T8, no dead ends: a meld that would leave the pending card without a place is refused."""
    state = deal_game(
        FOSTER, "3S 4S 4C 4D AH 6D JH QC KD 2C", "AD 2D 3D 5C 6C 7C 5H 6S 7S JS", "5S"
    )
    assert "meld 4C 4D 4S" in texts(state)  # with only the say, the fours may go down
    state = play(state, "take 5S")
    assert texts(state) == ["meld 3S 4S 5S"]  # but now 5S would have nowhere to go
    assert_illegal(state, "meld 4C 4D 4S", "T8", "the pending 5S could not be melded")


# -- T9 borrowing ----------------------------------------------------------------------


def _clubs_run(rules: ConquianRules, extra: str, starter: str, stock: str) -> ConquianState:
    """The pone lays down 3C 4C 5C 6C under pagat-like rules by taking the starter 6C."""
    state = deal_game(rules, f"3C 4C 5C {extra}", "AC AD AH AS KC KD KS QC QH QS", "6C", stock)
    return play(state, "take 6C", "meld 3C 4C 5C 6C")


def test_t9_borrow_the_end_of_a_sequence_of_four() -> None:
    """T9 (pagat): the six of clubs borrowed from 3C-6C for three sixes leaves 3C 4C 5C."""
    state = _clubs_run(PAGAT, "6H KH QD JS 2D 7S 2H", "6C", "JD 6D")
    state = play(state, "discard KH", "pass", "pass", "pass")
    assert state.offer == card("6D") and state.current_player == PONE
    assert texts(state) == ["take 6D", "pass"]
    state = play(state, "take 6D")
    assert texts(state) == ["borrow 6C @0"]
    state = play(state, "borrow 6C @0")
    assert state.pending == cards("6C 6D") and table_text(state) == [(PONE, "3C 4C 5C")]
    state = play(state, "meld 6C 6D 6H")
    assert table_text(state) == [(PONE, "3C 4C 5C"), (PONE, "6C 6D 6H")]


def test_t9_no_borrow_that_breaks_a_sequence() -> None:
    """T9 (pagat): with 3C-6C down, 4H in hand and 4D turned, the four cannot be borrowed."""
    state = _clubs_run(PAGAT, "4H KH QD JS 2D 7S 2H", "6C", "JD 4D")
    state = play(state, "discard KH", "pass", "pass", "pass")
    assert state.offer == card("4D") and texts(state) == ["pass"]
    assert_illegal(state, "take 4D", "T3")
    foster = _clubs_run(FOSTER, "4H KH QD JS 2D 7S 2H", "6C", "JD 4D")
    foster = play(foster, "discard KH", "pass", "pass", "pass")
    assert "take 4D" not in texts(foster)  # even from the middle: 3C and 5C 6C would be left


def test_t9_cannot_borrow_from_a_meld_of_three() -> None:
    """T9: a meld of three cards lends nothing."""
    state = deal_game(
        FOSTER, "AC 2C 3C 3D 3H 7H 4S JS QC KD", "AD 4D 5D 4C 5C 6S 7C JD QH KS", "3S"
    )
    state = play(state, "meld AC 2C 3C", "take 3S")
    assert not any(isinstance(a, Borrow) for a in state.legal_actions())
    state = play(state, "meld 3D 3H 3S")
    assert_illegal(state, "borrow 3C @0", "T9", "fewer than three")


def test_t9_borrow_one_card_of_a_group_of_four() -> None:
    """T9 (Foster p. 53): four tens down, 9S in hand, 8S turned: borrow 10S for 8S 9S 10S."""
    state = deal_game(
        AMERICAN,
        "10C 10D 10H 10S 9S 2C 4D 6H 3S 5C",
        "AD 2D 3D 4C 6C 7C 8C AS 2S 4S",
        "AH",
        "2H 8S",
    )
    state = play(state, "meld 10C 10D 10H 10S", "pass", "pass", "pass", "pass")
    assert state.offer == card("8S") and state.current_player == PONE
    assert "take 8S" in texts(state)
    state = play(state, "take 8S")
    assert texts(state) == ["borrow 10S @0"]
    state = play(state, "borrow 10S @0", "meld 8S 9S 10S")
    assert table_text(state) == [(PONE, "10C 10D 10H"), (PONE, "8S 9S 10S")]


def test_t9_borrow_the_low_end_for_a_group() -> None:
    """T9 (Foster p. 53): 5H 6H 7H 8H down, a five in hand, a five turned: borrow 5H."""
    state = deal_game(
        AMERICAN, "5H 6H 7H 8H 5C 2C 4D 10H 3S 9C", "AD 2D 3D 4C 6C 7C 8C AS 2S 4S", "AH", "2H 5D"
    )
    state = play(state, "meld 5H 6H 7H 8H", "pass", "pass", "pass", "pass")
    assert state.offer == card("5D")
    state = play(state, "take 5D", "borrow 5H @0", "meld 5C 5D 5H")
    assert table_text(state) == [(PONE, "6H 7H 8H"), (PONE, "5C 5D 5H")]


def test_t9_borrow_middle_of_seven_leaves_two_threes() -> None:
    """T9 (Foster p. 54): the middle of a sequence of seven is borrowed, leaving two threes.

    Foster gives no cards; we assume 2H-8H and two fives in hand. The lower
    piece keeps index 0 and the upper one is appended (DESIGN.md).
    """
    state = deal_game(
        AMERICAN, "2H 3H 4H 5H 6H 7H 8H 5C 5D 9C", "AD 2D 3D 4C 6C 7C 8C AS 2S 4S", "5S"
    )
    state = play(state, "meld 2H 3H 4H 5H 6H 7H 8H", "take 5S")
    assert "borrow 5H @0" in texts(state)
    state = play(state, "borrow 5H @0")
    assert table_text(state) == [(PONE, "2H 3H 4H"), (PONE, "6H 7H 8H")]
    assert state.pending == cards("5H 5S")
    state = play(state, "meld 5C 5D 5H 5S")
    assert table_text(state)[-1] == (PONE, "5C 5D 5H 5S")
    assert texts(state) == ["discard 9C"]


def test_t9_hoyle_forbids_borrowing_from_the_middle() -> None:
    """T9 (Hoyle 1897, hoyle()'s borrow_middle=False): "he cannot borrow an intermediate
    card" (here without borrow_other_kind, which would forbid the end borrows too)."""
    rules = ConquianRules.hoyle(pack="american", borrow_other_kind=False)
    state = deal_game(rules, "2H 3H 4H 5H 6H 7H 8H 5C 5D 9C", "AD 2D 3D 4C 6C 7C 8C AS 2S 4S", "5S")
    state = play(state, "meld 2H 3H 4H 5H 6H 7H 8H", "take 5S")
    assert "borrow 5H @0" not in texts(state)
    assert_illegal(state, "borrow 5H @0", "T9", "middle of a sequence")
    assert texts(state) == ["meld 5C 5D 5S", "borrow 2H @0", "borrow 8H @0"]


def test_t9_a_middle_borrow_must_leave_two_threes() -> None:
    """T9: a middle card whose pieces would not both be sequences of three is refused."""
    state = deal_game(
        AMERICAN, "2H 3H 4H 5H 6H 7H 8H 4C 4D 9C", "AD 2D 3D 5C 6C 7C 8C AS 2S 5S", "4S"
    )
    state = play(state, "meld 2H 3H 4H 5H 6H 7H 8H", "take 4S")
    assert_illegal(state, "borrow 4H @0", "T9", "both pieces must be sequences of three")


def test_t9_a_borrowed_card_must_go_into_a_different_meld() -> None:
    """T9 (Foster p. 49, rule 4): a borrowed card may not go back into the meld it came from."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 5C 7H 4S JS QC KD", "AD 3D 4D 5D 5H 6S 7C JD QH KS", "6C"
    )
    state = play(state, "meld AC 2C 3C 4C 5C", "take 6C", "borrow 5C @0")
    assert state.pending == cards("5C 6C")
    assert_illegal(state, "meld 5C 6C @0", "T9", "different one")
    assert "meld 5C 6C @0" not in texts(state)


def test_t9_a_split_card_may_not_go_into_either_piece() -> None:
    """T9: a card that split a sequence may go into neither piece."""
    state = deal_game(
        AMERICAN, "AH 2H 3H 4H 5H 6H 7H 8H 4C 4D", "AD 2D 3D 5C 6C 7C 8C AS 2S 5S", "9H"
    )
    state = play(state, "meld AH 2H 3H 4H 5H 6H 7H 8H", "take 9H", "borrow 4H @0")
    assert table_text(state) == [(PONE, "AH 2H 3H"), (PONE, "5H 6H 7H 8H")]
    assert_illegal(state, "meld 4H @0", "T9", "different one")
    assert_illegal(state, "meld 4H @1", "T9", "different one")
    assert "meld 4C 4D 4H" in texts(state)


def test_t9_a_card_is_borrowed_at_most_once_a_turn() -> None:
    """T9: a card borrowed and melded again may not be borrowed again in the same turn."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 4D 4H 7H JS QC KD", "AD 3D 5D 5C 5H 6S 7C JD QH KS", "4S"
    )
    state = play(
        state, "meld AC 2C 3C 4C", "take 4S", "meld 4D 4H 4S", "borrow 4C @0", "meld 4C @1"
    )
    assert table_text(state) == [(PONE, "AC 2C 3C"), (PONE, "4C 4D 4H 4S")]
    assert "borrow 4C @1" not in texts(state)
    assert_illegal(state, "borrow 4C @1", "T9", "borrowed already")


def test_t9_borrow_only_from_own_melds() -> None:
    """T9 (Foster p. 54): a player may not borrow from his adversary's melds."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 5H 7H JS QC KD 2S", "AD 3D 4D 5D 5C 6S 7C JD QH KS", "6D"
    )
    state = play(state, "meld AC 2C 3C 4C", "pass", "take 6D", "meld 4D 5D 6D")
    # The dealer (now melding) may borrow only from his own meld, not the pone's clubs.
    assert_illegal(state, "borrow 4C @0", "T9", "his own melds")


def test_t9_take_is_legal_when_only_borrowing_places_the_card() -> None:
    """T9, T8: a take is offered when a borrow makes the card placeable, and only then."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4C 4D 7H 2S JS QC KD", "AD 3D 5D 5C 5H 6S 7C JD QH KS", "4S"
    )
    state = play(state, "meld AC 2C 3C 4C")
    assert texts(state)[0] == "take 4S"
    state = play(state, "take 4S")
    assert texts(state) == ["borrow 4C @0"]


def test_t9_hand_card_added_to_make_a_meld_lend() -> None:
    """T8, T9: under the default rules a hand card may lengthen a meld so that it can lend."""
    state = deal_game(
        FOSTER, "5C 6C 7C 4C 7H AD 2S JS QC KD", "AC 2C 3D 4D 5D 6S 3H JD QH KS", "7D"
    )
    state = play(state, "meld 5C 6C 7C")
    assert texts(state)[0] == "take 7D"
    state = play(state, "take 7D")
    assert texts(state) == ["meld 4C @0"]  # the only way: 4C makes 7C borrowable
    state = play(state, "meld 4C @0")
    assert texts(state) == ["borrow 7C @0"]
    state = play(state, "borrow 7C @0", "meld 7C 7D 7H")
    assert table_text(state) == [(PONE, "4C 5C 6C"), (PONE, "7C 7D 7H")]


def test_t9_blog_takes_need_a_pending_card_in_every_meld() -> None:
    """T8, T9 under blog(): after a take, no hand card goes down on its own."""
    blog = deal_game(BLOG, "2C 3C 4C AC 5D 5H 2S JS QC KD", "AD 3D 4D 5C 6C 6S 7C JD QH KS", "5S")
    assert texts(blog) == ["take 5S", "pass"]
    blog = play(blog, "take 5S")
    assert texts(blog) == ["meld 5D 5H 5S"]


def test_t8_pagat_melds_hand_cards_in_the_turn_a_card_is_taken() -> None:
    """T8 (pagat, lay_down="turn"): "You can meld combinations from your hand, but only at
    the same time that you take the centre card": after `take 5C`, `meld 5C 5D 5H` and then
    `meld AC 2C 3C` are legal; at the say no hand meld is."""
    state = deal_game(PAGAT, "AC 2C 3C 5H 5D 4S 6S JS QC KD", "AD 3D 4D 4C 6C 7S 7C JD QH KS", "5C")
    assert texts(state) == ["take 5C", "pass"]  # no lay-down at the say
    assert_illegal(state, "meld AC 2C 3C", "T8", "a card from the centre")
    state = play(state, "take 5C")
    assert "meld AC 2C 3C" in texts(state)  # 5C can still go onto the fives
    state = play(state, "meld 5C 5D 5H", "meld AC 2C 3C")
    assert table_text(state) == [(PONE, "5C 5D 5H"), (PONE, "AC 2C 3C")]


def test_t8_pagat_take_placed_by_a_hand_card_added_first() -> None:
    """T8, T9 (pagat: "for which purpose you may also put down on the table any number of
    cards from your hand"): with 5C 6C 7C down, 4C 7H in hand and 7D turned, `take 7D` is
    legal: `meld 4C @0`, `borrow 7C @0`, `meld 7C 7D 7H`. Under blog() it is not."""
    for rules, legal in ((PAGAT, True), (BLOG, False)):
        state = deal_game(
            rules, "5C 7C 4C 7H 2S 3S JS QS KD 2D", "AD 3D 4D 5D 6S 7S AC JD QH KS", "6C", "KH 7D"
        )
        state = play(state, "take 6C", "meld 5C 6C 7C", "discard 2S", "pass", "pass", "pass")
        assert state.current_player == PONE and state.offer == card("7D")
        assert ("take 7D" in texts(state)) is legal
        if legal:
            state = play(state, "take 7D", "meld 4C @0", "borrow 7C @0", "meld 7C 7D 7H")
            assert table_text(state) == [(PONE, "4C 5C 6C"), (PONE, "7C 7D 7H")]
            assert state.pending == () and texts(state)[0].startswith("discard")


def test_t8_blog_forced_player_melds_no_hand_card_alone() -> None:
    """T8 (blog): a forced player may not lay down hand cards alone (no card is pending)."""
    state = deal_game(
        BLOG, "5C 5D KC KD QC QH 2C 2D 2H 7C", "AC AD AH AS 4C 4D 4H 4S 6C 6D", "5H", "3D 5S"
    )
    state = play(state, "take 5H", "meld 5C 5D 5H", "discard 7C", "pass", "pass", "pass")
    state = play(state, "pass", "force 5S @0")
    assert all(isinstance(a, Discard) for a in state.legal_actions())


def test_t9_every_borrow_leaves_valid_melds() -> None:
    """T9: each borrow leaves every meld a valid combination."""
    state = deal_game(
        AMERICAN, "AH 2H 3H 4H 5H 6H 7H 8H 4C 4D", "AD 2D 3D 5C 6C 7C 8C AS 2S 5S", "9H"
    )
    state = play(state, "meld AH 2H 3H 4H 5H 6H 7H 8H", "take 9H")
    for action in state.legal_actions():
        after = state.apply(action)
        assert all(len(m.cards) >= 3 for m in after.table)


# -- T10 forcing --------------------------------------------------------------------------


def test_t10_forced_card_joins_the_meld_and_is_the_forced_players() -> None:
    """T10: a forced card joins the opponent's meld and belongs to him; he must play on."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "2S", "4C"
    )
    state = play(state, "meld AC 2C 3C", "pass", "pass", "force 4C @0")
    assert state.table[0].owner == PONE and str(state.table[0]) == "AC 2C 3C 4C"
    assert state.current_player == PONE and state.offer is None and state.pending == ()
    assert melded(state, PONE) + len(state.hand(PONE)) == 11


def test_t10_forced_players_discard_goes_to_the_forcer_as_discarded() -> None:
    """T10: after a force the forced player's discard is on offer to the forcer."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "2S", "4C"
    )
    state = play(state, "meld AC 2C 3C", "pass", "pass", "force 4C @0", "discard KD")
    assert state.current_player == DEALER and state.offer == card("KD")
    assert state.offer_origin == "discarded"


def test_t10_force_a_hand_card_onto_the_opponent() -> None:
    """T10 (Hoyle 1897): after using a card, he may place his discard on the opponent's meld."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 5D 5H 4C 6S 7C JD QH KS 2H", "5C"
    )
    state = play(state, "meld AC 2C 3C", "pass")
    assert state.current_player == DEALER and "take 5C" in texts(state)
    state = play(state, "take 5C", "meld 5C 5D 5H")
    assert "force 4C @0" in texts(state) and "discard 4C" in texts(state)
    state = play(state, "force 4C @0")
    assert str(state.table[0]) == "AC 2C 3C 4C" and state.table[0].owner == PONE
    assert card("4C") not in state.hand(DEALER) and state.current_player == PONE
    assert state.offer is None


def test_t10_the_forcer_chooses_the_meld() -> None:
    """T10: when a card fits two of the opponent's melds, each is a separate force."""
    state = deal_game(
        FOSTER, "4C 5C 6C 7D 7H 7S 2S JS QC KD", "AD 3D 5D 4D 6S AH JD QH KS 2H", "AS", "7C"
    )
    state = play(state, "meld 4C 5C 6C", "meld 7D 7H 7S", "pass", "pass")
    assert state.offer == card("7C") and state.current_player == DEALER
    forces = [a for a in state.legal_actions() if isinstance(a, Force)]
    assert forces == [Force(card("7C"), onto=0), Force(card("7C"), onto=1)]
    assert str(state.apply("force 7C @1").table[1]) == "7C 7D 7H 7S"
    assert str(state.apply("force 7C @0").table[0]) == "4C 5C 6C 7C"


def test_t10_a_forced_player_with_an_empty_hand_wins() -> None:
    """T10 (Foster p. 52): a force that makes eleven melded wins for the forced player."""
    state = deal_game(
        FOSTER, "AC 2C 3C 4D 5D 6D 7H 7S 7C KH", "AD 2D 3D 4S 5S 6S QH QS QC JD", "4C", "KC KD 5C"
    )
    state = play(
        state,
        "meld AC 2C 3C",
        "meld 4D 5D 6D",
        "meld 7C 7H 7S",
        "take 4C",
        "meld 4C @0",
        "discard KH",
        "pass",
        "pass",
        "pass",
        "pass",
        "pass",
    )
    assert state.offer == card("5C") and state.current_player == DEALER
    assert state.offer_origin == "turned" and "force 5C @0" in texts(state)
    state = play(state, "force 5C @0")
    assert state.result is not None and state.result.winner == PONE
    assert state.result.payments == (-1, 1)


def test_t10_a_card_that_does_not_fit_cannot_be_forced() -> None:
    """T10: forcing needs a meld the card fits, on the opponent's side."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "2S", "4C"
    )
    state = play(state, "meld AC 2C 3C", "pass")
    assert state.offer == card("2S")
    assert_illegal(state, "force 2S @0", "T10", "does not fit")
    assert_illegal(state, "force 2S @3", "T10", "no meld @3")
    assert_illegal(state, "force 4C @0", "T10", "only the card on offer")


def test_t10_no_force_onto_ones_own_meld() -> None:
    """T10: a card may not be forced onto the forcer's own meld."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    state = play(state, "meld AC 2C 3C")
    assert_illegal(state, "force 4C @0", "T10", "opponent's melds")


def test_t10_nothing_to_force_onto_when_the_opponent_shows_nothing() -> None:
    """T10 (Foster p. 54): a player who has laid down nothing cannot be forced."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    assert not any(isinstance(a, Force) for a in state.legal_actions())


# -- T11 first offer -------------------------------------------------------------------------


def test_t11_first_offer_goes_to_the_pone_as_turned() -> None:
    """T11: the starter is on offer to the pone as turned; passed, the dealer has it as passed."""
    state = deal_game(
        FOSTER,
        "AC 2C 3C 6D 3H 7H 4S JS QC KD",
        "AD 3D 5D 5C 6S 7C JD QH KS 2H",
        "2S",
        dealer_seat=1,
    )
    assert state.current_player == 0 and state.offer == card("2S")
    assert state.offer_origin == "turned"
    state = play(state, "pass")
    assert state.current_player == 1 and state.offer_origin == "passed"


# -- T12 tableau ---------------------------------------------------------------------------------


def test_t12_tableau_when_a_card_must_be_turned_and_the_stock_is_empty() -> None:
    """T12, T13: refusing every card ends in a tableau, with no payment and no winner."""
    state = deal_game(PAGAT, "AC 5C 2D 6D 3H 7H 4S JS QC KD", "AD 2C 3D 4C 5H 6S 7C JD QH KS", "KH")
    count = 0
    while state.result is None:
        assert state.legal_actions()[0] == Pass() or Pass() in state.legal_actions()
        state = state.apply("pass")
        count += 1
    assert state.result.outcome is Outcome.TABLEAU and state.result.winner is None
    assert state.result.payments == (0, 0)
    assert state.stock_size == 0 and len(state.buried) == 20 and count == 40
    assert state.offer is None and state.current_player is None
    assert_illegal(state, "pass", "T12", "tableau")


# -- T13 stakes ---------------------------------------------------------------------------------


def test_t13_a_win_pays_one_counter_from_loser_to_winner() -> None:
    """T13: each deal is a game; the loser pays the winner one counter."""
    state = deal_game(
        FOSTER,
        "AC 2C 3C 4D 5D 6D 7H 7S 7C KH",
        "AD 2D 3D 4S 5S 6S QH QS QC JD",
        "4C",
        "KC KD 5C",
        dealer_seat=1,
    )
    state = play(
        state,
        "meld AC 2C 3C",
        "meld 4D 5D 6D",
        "meld 7C 7H 7S",
        "take 4C",
        "meld 4C @0",
        "discard KH",
        "pass",
        "pass",
        "pass",
        "pass",
        "pass",
        "pass",
        "take 5C",
        "meld 5C @0",
    )
    assert state.result is not None
    assert state.result.winner == 0 and state.result.payments == (1, -1)


# -- T14 sequence length ----------------------------------------------------------------------


def test_t14_max_sequence_card_making_a_ninth_does_not_fit() -> None:
    """T14 (pagat): with max_sequence 8 a ninth card does not fit and cannot be forced."""
    rules = ConquianRules(max_sequence=8)
    state = deal_game(
        rules, "AH 2H 3H 4H 5H 6H 7H JH 4S KD", "AD 2D 3D 5C 6C 7C 2C AS 2S 5S", "3S", "QH"
    )
    state = play(state, "meld AH 2H 3H 4H 5H 6H 7H JH", "pass", "pass")
    assert state.offer == card("QH") and state.current_player == DEALER
    assert_illegal(state, "force QH @0", "T14", "at most 8")
    uncapped = deal_game(
        FOSTER, "AH 2H 3H 4H 5H 6H 7H JH 4S KD", "AD 2D 3D 5C 6C 7C 2C AS 2S 5S", "3S", "QH"
    )
    uncapped = play(uncapped, "meld AH 2H 3H 4H 5H 6H 7H JH", "pass", "pass")
    assert "force QH @0" in texts(uncapped)


def test_t14_a_ninth_card_may_be_taken_when_borrowing_makes_room() -> None:
    """T14: the card that would be ninth can be taken if a borrow first shortens the sequence."""
    rules = ConquianRules.pagat()
    state = deal_game(
        rules, "AH 2H 3H 4H 5H 6H 7H 4C 4D KD", "AD 2D 3D 5C 6C 7C 2C AS 2S 5S", "JH", "3S QH"
    )
    state = play(
        state, "take JH", "meld AH 2H 3H 4H 5H 6H 7H JH", "discard KD", "pass", "pass", "pass"
    )
    assert state.offer == card("QH") and state.current_player == PONE
    assert texts(state)[0] == "take QH"
    state = play(state, "take QH")
    # Only borrows are left: QH fits once the sequence is shorter (by an end card moved
    # elsewhere, or by a split); here the four goes to a group with the two hand fours.
    assert all(a.startswith("borrow") for a in texts(state)) and "borrow 4H @0" in texts(state)
    state = play(state, "borrow 4H @0", "meld QH @1", "meld 4C 4D 4H")
    assert table_text(state) == [(PONE, "AH 2H 3H"), (PONE, "5H 6H 7H JH QH"), (PONE, "4C 4D 4H")]


# -- options and presets -----------------------------------------------------------------------


def test_options_presets_are_as_documented() -> None:
    """Options: pagat() lays down only in a turn using a card (T8 "turn") and caps sequences at
    8; hoyle() forbids the middle and makes borrowed cards change kind (T9)."""
    assert (PAGAT.lay_down, PAGAT.max_sequence, PAGAT.borrow_middle) == ("turn", 8, True)
    assert (HOYLE.lay_down, HOYLE.max_sequence, HOYLE.borrow_middle, HOYLE.borrow_other_kind) == (
        "say",
        None,
        False,
        True,
    )


def test_options_hand_size_nine_wins_at_ten() -> None:
    """T2 with hand_size 9: ten melded wins."""
    rules = ConquianRules(hand_size=9)
    state = deal_game(rules, "AC 2C 3C 4D 5D 6D 7H 7S KH", "AD 2D 3D 4S 5S 6S QH QS QC", "7C")
    state = play(state, "meld AC 2C 3C", "meld 4D 5D 6D", "take 7C", "meld 7C 7H 7S")
    assert melded(state, PONE) == 9 and state.result is None
    state = play(state, "discard KH", "pass", "pass", "pass")
    assert state.current_player == PONE
    rules8 = ConquianRules(hand_size=8)
    state = deal_game(rules8, "AC 2C 3C 4D 5D 6D 7H 7S", "AD 2D 3D 4S 5S 6S QH QS", "7C")
    state = play(state, "meld AC 2C 3C", "meld 4D 5D 6D", "take 7C", "meld 7C 7H 7S")
    assert state.result is not None and state.result.winner == PONE  # nine melded with eight


def test_options_hand_size_nine_win_needs_ten() -> None:
    """T2 with hand_size 9: nine in melds plus the taken card placed makes ten, a win."""
    rules = ConquianRules(hand_size=9)
    state = deal_game(rules, "AC 2C 3C 4D 5D 6D 7H 7S 7D", "AD 2D 3D 4S 5S 6S QH QS QC", "7C")
    state = play(state, "meld AC 2C 3C", "meld 4D 5D 6D", "take 7C", "meld 7C 7D 7H 7S")
    assert state.result is not None and state.result.winner == PONE
    assert melded(state, PONE) == 10


def test_options_american_pack_sequence_runs_to_ten() -> None:
    """C4, T1 with pack american: 8 9 10 is a sequence; the ace is low only."""
    state = deal_game(
        AMERICAN, "8C 9C AC 2C 5D 6D 7H 3S 4H 6S", "AD 2D 3D 4S 5S 7S 8H 9H 10H 3C", "10C"
    )
    assert "take 10C" in texts(state)
    state = play(state, "take 10C")
    assert texts(state) == ["meld 8C 9C 10C"]


def test_options_spanish_pack_seven_is_next_to_jack() -> None:
    """C4: in the Spanish pack 6 7 J is a sequence."""
    state = deal_game(
        FOSTER, "6C 7C AC 2H 5D 6D 7H 3S 4H 6S", "AD 2D 3D 4S 5S 7S QH KH KC 3C", "JC"
    )
    assert "take JC" in texts(state)


# -- E1 illegal actions -------------------------------------------------------------------------


def test_e1_illegal_actions_cite_the_rule_and_leave_the_state_unchanged() -> None:
    """E1: illegal actions raise IllegalActionError citing the rule; the state is unchanged."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    assert_illegal(state, "discard KD", "T4", "you have the say to 4C")
    assert_illegal(state, "borrow AC @0", "T9")
    assert_illegal(state, "meld JK=4C AC 2C", "T1", "no joker")
    assert_illegal(state, "meld 4C @0 shift", "T1", "no joker")
    state = play(state, "take 4C")
    assert_illegal(state, "pass", "T8", "you are melding")
    assert_illegal(state, "take 4C", "T8", "no card is on offer")
    assert_illegal(state, "discard KD", "T8", "pending 4C must be melded")
    assert_illegal(state, "meld 3H 7H 6D", "C3")
    assert_illegal(state, "meld AD 2D 3D", "T8", "not in your hand")
    state = play(state, "meld AC 2C 3C 4C")
    assert_illegal(state, "discard 2H", "T8", "not in your hand")
    assert_illegal(state, "force KD @0", "T10", "opponent's melds")
    finished = deal_game(
        PAGAT, "AC 5C 2D 6D 3H 7H 4S JS QC KD", "AD 2C 3D 4C 5H 6S 7C JD QH KS", "KH"
    )
    while finished.result is None:
        finished = finished.apply("pass")
    assert_illegal(finished, "take KH", "T12")


def test_e1_bad_text_raises_a_notation_error() -> None:
    """E2: text that is not an action raises NotationError, not IllegalActionError."""
    from conquian import NotationError

    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    with pytest.raises(NotationError):
        state.apply("fold")
    assert state.is_legal("fold") is False


def test_e1_apply_accepts_action_objects_and_equal_cards() -> None:
    """E1: an action object equal to a legal one is legal, whatever card object it holds."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    fresh = Card(card("4C").rank, card("4C").suit)
    state = state.apply(Take(fresh))
    state = state.apply(Meld(cards("AC 2C 3C 4C")))
    after = state.apply(Discard(Card(card("KD").rank, card("KD").suit)))
    assert after.offer == card("KD") and card("KD") not in after.hand(PONE)
    with pytest.raises(TypeError):
        state.apply(42)  # type: ignore[arg-type]


# -- the state as a value --------------------------------------------------------------------------


def test_states_are_values_pickled_and_hashed() -> None:
    """DESIGN principle 1: states compare by value, hash, pickle and copy."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    after = play(state, "take 4C", "meld AC 2C 3C 4C")
    again = play(state, "take 4C", "meld AC 2C 3C 4C")
    assert after == again and hash(after) == hash(again) and after != state
    assert pickle.loads(pickle.dumps(after)) == after
    assert pickle.loads(pickle.dumps(after)).legal_actions() == after.legal_actions()
    assert copy.deepcopy(after) == after
    assert after.history == (Take(card("4C")), Meld(cards("AC 2C 3C 4C")))
    assert "ConquianState" in repr(after)


def test_view_shows_what_the_player_may_know() -> None:
    """C6: a view has the own hand, both sizes, the public cards and unseen = other hand + stock."""
    state = deal_game(
        FOSTER, "AC 2C 3C 6D 3H 7H 4S JS QC KD", "AD 3D 5D 5C 6S 7C JD QH KS 2H", "4C"
    )
    state = play(state, "take 4C", "meld AC 2C 3C 4C", "discard KD")
    view = state.view(PONE)
    assert isinstance(view, ConquianView)
    assert view.hand == state.hand(PONE) and view.hand_sizes == (10, 6)
    assert view.offer == card("KD") and view.offer_origin == "discarded"
    assert view.legal_actions == () and view.current_player == DEALER
    assert view.unseen == tuple(sorted(state.hand(DEALER) + state.deck[21:]))
    assert state.view(DEALER).legal_actions == state.legal_actions()
    seen = set(view.hand) | {c for m in view.table for c in m.cards} | {view.offer}
    assert seen.isdisjoint(view.unseen)
    assert len(seen) + len(view.unseen) == 40
    assert not hasattr(view, "deck")
    with pytest.raises(ValueError):
        state.hand(2)


# -- the sources' worked examples -----------------------------------------------------------------


def test_example_hoyle_1897_three_uses_of_the_heart_five() -> None:
    """Hoyle 1897 ("Method of Playing"): the turned heart five can be used in three ways.

    The pone's hand is Hoyle's (♡ J 7 6 4, ♠ 5 3 2, ♢ K 7 5); the dealer's hand
    and the stock are ours. Hoyle lays out 5H 6H 7H, later continues the
    sequence with the queen and his jack, or with the three and his four.
    """
    state = deal_game(
        HOYLE, "JH 7H 6H 4H 5S 3S 2S KD 7D 5D", "AC 2C 3C AD 2D 3D AS 4S 6S JS", "5H", "QH 3H"
    )
    state = play(state, "take 5H")
    uses = set(texts(state))
    assert {"meld 4H 5H 6H", "meld 5H 6H 7H", "meld 5D 5H 5S"} <= uses
    state = play(state, "meld 5H 6H 7H", "discard KD")  # Hoyle's best discard
    state = play(state, "pass", "pass")  # the dealer buries KD, turns QH and passes it
    assert state.offer == card("QH") and state.current_player == PONE
    assert "meld JH QH @0" in texts(state.apply("take QH"))
    state = play(state, "take QH", "meld JH QH @0", "discard 7D", "pass", "pass")
    assert state.offer == card("3H")
    state = play(state, "take 3H", "meld 3H 4H @0")
    assert table_text(state) == [(PONE, "3H 4H 5H 6H 7H JH QH")]


def test_example_pagat_forced_heart_king() -> None:
    """pagat ("There is one further important rule"): the heart king forced onto 6H-QH.

    The player has 3C 3D 3H 3S and 6H 7H JH QH down and AD AS in hand; his
    opponent uses a card and forces KH in place of a discard, so he must throw
    an ace. The way the melds got down, and the opponent's cards, are ours.
    """
    state = deal_game(
        PAGAT, "3C 3H 3S 6H 7H QH AD AS 2C 5C", "5D 5S KH 2S 4S 6S JD QS KS 2D", "3D", "JH"
    )
    state = play(state, "take 3D", "meld 3C 3D 3H 3S", "discard 2C", "pass", "pass")
    state = play(state, "take JH", "meld 6H 7H JH QH", "discard 5C")
    assert state.current_player == DEALER and state.offer == card("5C")
    state = play(state, "take 5C", "meld 5C 5D 5S")
    assert "force KH @1" in texts(state)
    state = play(state, "force KH @1")
    assert str(state.table[1]) == "6H 7H JH QH KH" and state.table[1].owner == PONE
    assert state.current_player == PONE and melded(state, PONE) == 9
    assert texts(state) == ["discard AD", "discard AS"]


def test_example_foster_pp_60_67_forced_spade_seven_borrowed_back() -> None:
    """Foster pp. 60–67 (p. 66): forced with the spade seven, A borrows it back for three sevens.

    A's hand, the starter and the order of the cards turned are Foster's; B's
    three aces (whose suits Foster does not give) and the rest of the stock are
    ours. American pack; B deals, so A (seat 1) is the pone.
    """
    state = deal_game(
        AMERICAN,
        "3D 3H 7C 7D 4S 5S 6H 10H 2C 8S",
        "8D 9D 10D 6D 2H 4H 5C AC AD AH",
        "3S",
        "2D 5H 9H 9C 8C 3C 6S 7S 7H",
    )
    state = play(state, "take 3S", "meld 3S 4S 5S", "discard 6H")
    state = play(state, "pass", "pass")  # B buries 6H, turns 2D, passes it
    state = play(state, "pass", "pass")  # A buries 2D, turns 5H, passes it
    state = play(state, "pass", "pass")  # B: 9H
    state = play(state, "pass", "pass")  # A: 9C
    state = play(state, "pass", "pass")  # B: 8C
    state = play(state, "pass")  # A buries 8C and turns 3C
    state = play(state, "take 3C", "meld 3C 3D 3H", "discard 10H")
    state = play(state, "pass")  # B buries 10H and turns 6S
    state = play(state, "force 6S @0", "discard 8S", "pass")
    assert state.offer == card("7S") and state.current_player == DEALER
    state = play(state, "force 7S @0")
    assert str(state.table[0]) == "3S 4S 5S 6S 7S"
    assert "borrow 7S @0" in texts(state)
    state = play(state, "borrow 7S @0", "meld 7C 7D 7S", "discard 2C")
    assert table_text(state) == [(PONE, "3S 4S 5S 6S"), (PONE, "3C 3D 3H"), (PONE, "7C 7D 7S")]
    assert state.hand(PONE) == () and melded(state, PONE) == 10 and state.result is None
    # B buries 2C and turns the heart seven: forcing it or passing it gives A the game.
    state = play(state, "pass")
    assert state.offer == card("7H")
    forced = play(state, "force 7H @2")
    assert forced.result is not None and forced.result.winner == PONE
    taken = play(state, "pass", "take 7H", "meld 7H @2")
    assert taken.result is not None and taken.result.winner == PONE


def test_example_foster_p_55_forced_out_of_a_win() -> None:
    """Foster p. 55: nine down and 6D held, forced with the heart seven, he must throw the 6D.

    The suits of the three tens are ours (10C 10H 10S), as are the dealer's hand
    and the stock; American pack. The pone lays his melds down from his hand.
    """
    state = deal_game(
        AMERICAN, "10C 10H 10S 4H 5H 6H 8D 9D 10D 6D", "AC 2C 3C AD 2D 3D AS 2S 3S 5C", "9S", "7H"
    )
    state = play(state, "meld 10C 10H 10S", "meld 4H 5H 6H", "meld 8D 9D 10D", "pass", "pass")
    assert state.offer == card("7H") and state.current_player == DEALER
    state = play(state, "force 7H @1")
    assert texts(state) == ["discard 6D"]
    state = play(state, "discard 6D")
    assert melded(state, PONE) == 10 and state.hand(PONE) == () and state.result is None


def test_example_blog_forced_play() -> None:
    """The blog's forced play: he refuses the three of coins, turns the five of swords, is forced.

    The blog's picture is lost; we assume a group of fives down (3D is the
    "3 of coins", 5S the "5 of swords") and pagat-like rules, as the blog states.
    """
    state = deal_game(
        BLOG, "5C 5D KC KD QC QH 2C 2D 2H 7C", "AC AD AH AS 4C 4D 4H 4S 6C 6D", "5H", "3D 5S"
    )
    state = play(state, "take 5H", "meld 5C 5D 5H", "discard 7C", "pass", "pass")
    assert state.offer == card("3D") and state.current_player == PONE
    state = play(state, "pass")  # he refuses the three of coins and turns the five of swords
    assert state.offer == card("5S")
    state = play(state, "pass")  # he passes it although it fits his fives...
    state = play(state, "force 5S @0")  # ...so his opponent forces it back on him
    assert str(state.table[0]) == "5C 5D 5H 5S" and state.current_player == PONE
    assert all(isinstance(a, Discard) for a in state.legal_actions())
    assert len(state.legal_actions()) == 7
