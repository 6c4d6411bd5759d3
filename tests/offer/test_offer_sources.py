"""The sources' readings of laying down (T8 `lay_down`) and borrowing (T9) as worked examples.

Each example is judged twice: by the engine (`new_game` and `apply`) and by
the brute-force oracle of ``tests/oracles/offer_options.py``; both must
give the answer the source gives.

Positions are dealt with `new_game(rules, deck=..., dealer=0)`: two cards at a
time, the pone (seat 1) first; ``deck[2 * hand_size]`` is the first card turned.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from conquian import (
    Borrow,
    Card,
    ConquianRules,
    ConquianState,
    IllegalActionError,
    Meld,
    card,
    cards,
    new_game,
    parse_action,
)
from conquian.combos.core import build
from oracles import offer_options as oracle

DEALER, PONE = 0, 1
BOTH = [pytest.param("engine"), pytest.param("oracle")]
"""The two judges, who must give the source's answer."""


def deck_for(
    rules: ConquianRules,
    pone: str,
    starter: str,
    stock: str = "",
    dealer: str | None = None,
) -> tuple[Card, ...]:
    """A whole deck, top first, that deals `pone` to seat 1 and `dealer` to seat 0 (by
    default the first cards of the pack that are not used elsewhere), turns `starter`, and
    has `stock` on top of the stock (T1: two at a time, the pone first)."""
    used = [*cards(pone), card(starter), *cards(stock)]
    rest = [c for c in rules.pack_cards() if c not in set(used)]
    dealer_cards = list(cards(dealer)) if dealer is not None else rest[: rules.hand_size]
    pone_cards = list(cards(pone))
    assert len(pone_cards) == len(dealer_cards) == rules.hand_size
    deck: list[Card] = []
    while pone_cards:
        k = min(2, len(pone_cards))
        deck += pone_cards[:k] + dealer_cards[:k]
        del pone_cards[:k], dealer_cards[:k]
    deck += [card(starter), *cards(stock)]
    deck += [c for c in rules.pack_cards() if c not in set(deck)]
    assert len(set(deck)) == len(deck) == 40
    return tuple(deck)


def play(judge: str, rules: ConquianRules, deck: Iterable[Card], line: Iterable[str]) -> Any:
    """The position after `line` from the deal of `deck` (dealer seat 0), as `judge` keeps it.
    An action the judge finds illegal raises (the engine's `IllegalActionError`, the oracle's
    `ValueError`)."""
    if judge == "engine":
        state = new_game(rules, deck=tuple(deck), dealer=DEALER)
        for text in line:
            state = state.apply(text)
        return state
    pos = oracle.deal(rules, deck, DEALER)
    for text in line:
        pos = oracle.after(pos, parse_action(text))
    return pos


def legal(judge: str, position: Any) -> frozenset[Any]:
    """The legal actions of `position` as `judge` finds them."""
    if judge == "engine":
        assert isinstance(position, ConquianState)
        return frozenset(position.legal_actions())
    return oracle.legal_actions(position)


def is_legal(judge: str, position: Any, text: str) -> bool:
    """Whether the action written `text` is legal in `position` for `judge`."""
    return parse_action(text) in legal(judge, position)


def winner(judge: str, position: Any) -> int | None:
    """The seat that has won, or None."""
    if judge == "engine":
        return None if position.result is None else position.result.winner
    return position.winner  # type: ignore[no-any-return]


PAGAT = ConquianRules.pagat()
FOSTER = ConquianRules()
BLOG = ConquianRules.blog()

# The pone holds three clubs in sequence and a pair of fives; 5C is turned (T11).
FIVES = dict(pone="AC 2C 3C 5D 5H 7S JH KD QS 4H", starter="5C")


@pytest.mark.parametrize("judge", BOTH)
def test_t8_turn_pagat_hand_meld_in_the_turn_a_card_is_used(judge: str) -> None:
    """T8 ``lay_down="turn"``: after ``take 5C`` and ``meld 5C 5D 5H``, ``meld AC 2C 3C`` (hand
    cards alone) is legal, and the deal goes on with a discard.

    pagat, "The Play": the player may use the centre card "as part of your meld on the
    table, for which purpose you may also put down on the table any number of cards from
    your hand"; "Please note that": "You can meld combinations from your hand, but only at
    the same time that you take the centre card and use it in your meld."
    """
    deck = deck_for(PAGAT, **FIVES)
    position = play(judge, PAGAT, deck, ["take 5C", "meld 5C 5D 5H"])
    assert is_legal(judge, position, "meld AC 2C 3C")
    after = play(judge, PAGAT, deck, ["take 5C", "meld 5C 5D 5H", "meld AC 2C 3C", "discard KD"])
    assert winner(judge, after) is None


@pytest.mark.parametrize("judge", BOTH)
def test_t8_turn_pagat_no_hand_meld_at_the_say(judge: str) -> None:
    """T8 ``lay_down="turn"``: with only the say, no combination of hand cards goes down: the
    pone may take 5C or pass it, and nothing else.

    pagat, "Please note that": "You cannot meld hand cards at any other time" than when
    taking the centre card and using it in the meld.
    """
    position = play(judge, PAGAT, deck_for(PAGAT, **FIVES), [])
    assert not is_legal(judge, position, "meld AC 2C 3C")
    assert {str(a) for a in legal(judge, position)} == {"take 5C", "pass"}


@pytest.mark.parametrize("judge", BOTH)
def test_t8_say_foster_lays_down_from_the_hand_at_the_say(judge: str) -> None:
    """T8 ``lay_down="say"`` (the default): the same hand may lay down its clubs at the say,
    and the 5C stays on offer to it.

    Foster 1913 pp. 63–64: "B could lay down a sequence of three to the 10 in diamonds and a
    triplet of aces at once, but that would disclose his hand".
    """
    deck = deck_for(FOSTER, **FIVES)
    position = play(judge, FOSTER, deck, [])
    assert is_legal(judge, position, "meld AC 2C 3C")
    after = play(judge, FOSTER, deck, ["meld AC 2C 3C"])
    assert is_legal(judge, after, "take 5C")


@pytest.mark.parametrize("judge", BOTH)
def test_t8_meld_blog_every_meld_holds_a_pending_card(judge: str) -> None:
    """T8 ``lay_down="meld"`` (`blog()`): no combination of hand cards alone, neither at the
    say nor after a take; every legal meld holds the pending card.

    The blog ("Conquian – the First Rummy in the West"): "Play at least two cards from
    their hand to form a valid meld ... with the face-up card from the deck – you cannot
    lay down a meld without using the card from the deck"; "you may not meld to anything
    from your hand without using the card from the deck."
    """
    deck = deck_for(BLOG, **FIVES)
    say = play(judge, BLOG, deck, [])
    assert not any(isinstance(a, Meld) for a in legal(judge, say))
    taken = play(judge, BLOG, deck, ["take 5C"])
    melds = [a for a in legal(judge, taken) if isinstance(a, Meld)]
    assert melds and all(card("5C") in a.cards for a in melds)
    assert not is_legal(judge, taken, "meld AC 2C 3C")
    placed = play(judge, BLOG, deck, ["take 5C", "meld 5C 5D 5H"])
    assert not is_legal(judge, placed, "meld AC 2C 3C")


# The pone melds 5C 6C 7C with the starter and discards KD; the dealer passes it (buried)
# and turns 3H, which he passes; the pone passes it (buried) and turns 7D.
SEVENS = dict(pone="6C 7C 4C 7H KD AD 2S JS QH 4H", starter="5C", stock="3H 7D")
SEVENS_LINE = ["take 5C", "meld 5C 6C 7C", "discard KD", "pass", "pass", "pass"]


@pytest.mark.parametrize("judge", BOTH)
def test_t8_turn_pagat_take_placed_by_a_hand_card_added_first(judge: str) -> None:
    """T8 ``lay_down="turn"``, T9, no dead ends: with 5C 6C 7C down, 4C and 7H in hand and 7D
    turned, ``take 7D`` is legal: ``meld 4C @0`` (a hand card added, allowed in the turn a
    card is used) makes a sequence of four, whose 7C may then be borrowed for three sevens.

    pagat, "The Play": with the centre card "you may also put down on the table any number
    of cards from your hand"; "you can rearrange your table cards in any way you wish, as
    long as the cards you have on the table at the end of your turn form separate valid
    combinations" (its example borrows the 6 of a club sequence for three sixes).
    """
    deck = deck_for(PAGAT, **SEVENS)
    position = play(judge, PAGAT, deck, SEVENS_LINE)
    assert position.offer == card("7D")
    assert is_legal(judge, position, "take 7D")
    line = [*SEVENS_LINE, "take 7D", "meld 4C @0", "borrow 7C @0", "meld 7C 7D 7H"]
    done = play(judge, PAGAT, deck, line)
    assert set(done.table) == {build(cards("4C 5C 6C"), oracle.order_of(PAGAT), PONE)} | {
        build(cards("7C 7D 7H"), oracle.order_of(PAGAT), PONE)
    }


@pytest.mark.parametrize("judge", BOTH)
def test_t8_meld_blog_the_same_take_is_not_legal(judge: str) -> None:
    """T8 ``lay_down="meld"``, no dead ends: under `blog()` the 4C cannot go down alone, so
    nothing places 7D and ``take 7D`` is not legal (T3: a taken card never enters the
    hand). The blog: "you cannot lay down a meld without using the card from the deck"."""
    deck = deck_for(BLOG, **SEVENS)
    position = play(judge, BLOG, deck, SEVENS_LINE)
    assert position.offer == card("7D")
    assert not is_legal(judge, position, "take 7D")


# The pone melds AC 2C 3C (the starter), 4D 5D 6D (5D, passed by the dealer) and KD KH KS
# (KH, passed), discarding 7H, 2S and JD, and keeps 4C; the dealer then turns KC and forces
# it onto the kings.
FORCED = dict(pone="AC 2C 4C 4D 6D KD KS 7H 2S JD", starter="3C", stock="5D KH KC")
FORCED_LINE = [
    "take 3C",
    "meld AC 2C 3C",
    "discard 7H",
    "pass",
    "pass",
    "take 5D",
    "meld 4D 5D 6D",
    "discard 2S",
    "pass",
    "pass",
    "take KH",
    "meld KD KH KS",
    "discard JD",
    "pass",
    "force KC @2",
]


@pytest.mark.parametrize("judge", BOTH)
def test_t8_turn_pagat_forced_player_goes_out_with_his_last_card(judge: str) -> None:
    """T8 ``lay_down="turn"``, T10, T2: forced with nine down and 4C in hand, the pone lays
    4C onto AC 2C 3C and wins with eleven down.

    pagat, "End of the Game": "You go out by melding the face up card from the centre of the
    table ... along with all the remaining cards in your hand (if any)"; the forced card is
    one the player must meld ("your opponent can force you to meld the centre card").
    """
    deck = deck_for(PAGAT, **FORCED)
    forced = play(judge, PAGAT, deck, FORCED_LINE)
    assert forced.offer is None
    assert is_legal(judge, forced, "meld 4C @0")
    assert winner(judge, play(judge, PAGAT, deck, [*FORCED_LINE, "meld 4C @0"])) == PONE


@pytest.mark.parametrize("judge", BOTH)
def test_t8_meld_blog_forced_player_cannot_lay_his_last_card(judge: str) -> None:
    """T8 ``lay_down="meld"``, T10: under `blog()` the same forced player has no pending card
    to meld 4C with; he must discard it (or force it). The blog: "you may not meld to
    anything from your hand without using the card from the deck"."""
    forced = play(judge, BLOG, deck_for(BLOG, **FORCED), FORCED_LINE)
    assert not is_legal(judge, forced, "meld 4C @0")
    assert is_legal(judge, forced, "discard 4C")


HOYLE_AMERICAN = ConquianRules.hoyle(pack="american")
ANY_KIND = ConquianRules.hoyle(pack="american", borrow_other_kind=False)
# The pone lays down AH…7H at the say (Hoyle's default lay_down is "say") with 4C on offer.
PEEL = dict(pone="AH 2H 3H 4H 5H 6H 7H 4D 9S 10C", starter="4C")
LAY_DOWN = ["meld AH 2H 3H 4H 5H 6H 7H"]
PEEL_LINE = [
    *LAY_DOWN,
    "take 4C",
    "borrow AH @0",
    "borrow 2H @0",
    "borrow 3H @0",
    "borrow 4H @0",
    "meld AH 2H 3H",
    "meld 4C 4D 4H",
]


@pytest.mark.parametrize("judge", BOTH)
def test_t9_without_other_kind_peeling_rebuilds_the_middle_split(judge: str) -> None:
    """T9 without ``borrow_other_kind``: ends peeled one by one off AH…7H rebuild AH 2H 3H and
    free 4H for three fours: the middle split that ``borrow_middle=False`` forbids, reached
    by end borrows. This is why `hoyle()` sets ``borrow_other_kind``.

    Hoyle 1897, "Borrowing": "He cannot borrow an intermediate card".
    """
    deck = deck_for(ANY_KIND, **PEEL)
    assert is_legal(judge, play(judge, ANY_KIND, deck, LAY_DOWN), "take 4C")
    done = play(judge, ANY_KIND, deck, PEEL_LINE)
    assert len(done.table) == 3


@pytest.mark.parametrize("judge", BOTH)
def test_t9_hoyle_other_kind_refuses_the_peel_and_the_take(judge: str) -> None:
    """T9 ``borrow_other_kind`` (`hoyle()`), no dead ends: a card borrowed from a sequence must
    end the turn in a group, so AH, 2H and 3H cannot be melded again as a sequence; the
    only way to place 4C is that forbidden line, so ``take 4C`` is not legal, and the line
    is refused.

    Hoyle 1897, "Borrowing": "a player may borrow the card at either end of a sequence of at
    least four cards, if he can use it to make a triplet. He cannot borrow an intermediate
    card".
    """
    deck = deck_for(HOYLE_AMERICAN, **PEEL)
    say = play(judge, HOYLE_AMERICAN, deck, LAY_DOWN)
    assert is_legal(judge, say, "pass")
    assert not is_legal(judge, say, "take 4C")
    with pytest.raises((IllegalActionError, ValueError)):
        play(judge, HOYLE_AMERICAN, deck, PEEL_LINE)


def test_t9_oracle_other_kind_refuses_melding_the_peeled_ends_as_a_sequence() -> None:
    """T9 ``borrow_other_kind`` in the oracle's own turn: with AH, 2H, 3H and 4H peeled off
    AH…7H, ``meld AH 2H 3H`` is not a move under `hoyle()` but is one without the option.

    Hoyle 1897, "Borrowing": the end card of a sequence is borrowed "if he can use it to
    make a triplet".
    """
    for rules, allowed in ((HOYLE_AMERICAN, False), (ANY_KIND, True)):
        order = oracle.order_of(rules)
        run = build(cards("AH 2H 3H 4H 5H 6H 7H"), order, PONE)
        assert run is not None
        turn = oracle.Turn(PONE, frozenset(cards("4D 9S 10C")), (run,), frozenset(cards("4C")))
        for peeled in cards("AH 2H 3H 4H"):
            turn = dict(oracle.turn_moves(rules, turn))[Borrow(peeled, source=0)]
        moves = dict(oracle.turn_moves(rules, turn))
        assert (parse_action("meld AH 2H 3H") in moves) is allowed
        assert parse_action("meld 4C 4D 4H") in moves  # the four lent by a sequence: a group
