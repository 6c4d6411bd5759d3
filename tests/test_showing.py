"""C6 Showing: when a deal is over every hand is shown, in the view and in its JSON.

Hoyle 1897, "Showing": after a tableau "each player shows the remainder of his
hand"; Foster 1913, law 23: the losers' cards are exposed and counted. So a
view of a finished deal holds every player's remaining hand: no card held in a
hand is in `view.unseen` any more, which then holds only the cards left in the
stock (two-hand) or the pack (Cooncan), whose order stays unknown; and the
view's JSON shows every remaining hand.

The tests assume no name for the shown hands: they read `view.unseen`, and
look for each remaining hand as a list of card texts anywhere in the JSON.
While a deal is in progress the other hands stay hidden (checked too, so that
the JSON search is seen to fail when a hand is not there).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from conquian import ConquianRules, ConquianState, CooncanRules, CooncanState, State, Take, new_game

TWO_HAND = [ConquianRules(), ConquianRules.pagat(), ConquianRules.hoyle(pack="american")]
COONCAN = [
    CooncanRules.three_hand(turn_limit=30),
    CooncanRules.three_hand(players=2, jokers=1, stock="open", turn_limit=30),
    CooncanRules.double_pack(players=4, turn_limit=30),
]
SEEDS = range(6)


def random_deal(rules: ConquianRules | CooncanRules, seed: int) -> list[State]:
    """Every state of a seeded deal played with random legal actions, to its end. In two-hand
    the player takes every card he may (more deals are won than with uniform choices)."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % rules.players)
    states = [state]
    while not state.is_over:
        legal = state.legal_actions()
        takes = [a for a in legal if isinstance(a, Take)] if rules.game == "conquian" else []
        state = state.apply(takes[0] if takes else rng.choice(legal))
        states.append(state)
    return states


def finished_deals(rules_list: list[Any]) -> Iterator[State]:
    """The last state of each seeded deal under each rules."""
    for rules in rules_list:
        for seed in SEEDS:
            yield random_deal(rules, seed)[-1]


def card_lists(data: Any) -> Iterator[Counter[str]]:
    """Every list of strings anywhere in a JSON value, as a multiset."""
    if isinstance(data, list):
        if all(isinstance(x, str) for x in data):
            yield Counter(data)
        for x in data:
            yield from card_lists(x)
    elif isinstance(data, dict):
        for x in data.values():
            yield from card_lists(x)


def shows(view_json: str, hand: tuple[Any, ...]) -> bool:
    """Whether the JSON holds `hand` as one list of card texts."""
    wanted = Counter(map(str, hand))
    return any(found == wanted for found in card_lists(json.loads(view_json)))


def left_in_stock(state: State) -> Counter[Any]:
    """The cards nobody has seen: the two-hand stock, or the Cooncan pack."""
    if isinstance(state, ConquianState):
        return Counter(state.deck[len(state.deck) - state.stock_size :])
    assert isinstance(state, CooncanState)
    return Counter(state.pack)


def _check_shown(state: State) -> None:
    players = state.rules.players
    held = [state.hand(p) for p in range(players)]
    for viewer in range(players):
        view = state.view(viewer)
        unseen = Counter(view.unseen)
        assert unseen <= left_in_stock(state)  # no card held in a hand is unseen
        text = view.to_json()
        for hand in held:
            assert shows(text, hand), (viewer, [str(c) for c in hand], text)


def test_c6_the_search_finds_only_shown_hands() -> None:
    """C6: while a deal is in progress the other hands are not in a view's JSON (the search of
    `shows` fails for them), and the viewer's own hand is."""
    checked = 0
    both: list[ConquianRules | CooncanRules] = [TWO_HAND[0], COONCAN[0]]
    for rules in both:
        state = new_game(rules, seed=3)
        for viewer in range(rules.players):
            text = state.view(viewer).to_json()
            assert shows(text, state.hand(viewer))
            for other in range(rules.players):
                if other != viewer:
                    assert not shows(text, state.hand(other))
                    checked += 1
    assert checked == 2 + 6


def test_c6_finished_deals_have_hands_left_to_show() -> None:
    """The deals of the Showing tests end with cards in some hand: wins and tableaus in
    two-hand, wins and abandoned deals in Cooncan (so the tests below can fail)."""
    outcomes: Counter[tuple[str, str]] = Counter()
    for state in [*finished_deals(TWO_HAND), *finished_deals(COONCAN)]:
        assert state.result is not None
        hands = [state.hand(p) for p in range(state.rules.players)]
        if any(hands):
            outcomes[(state.rules.game, str(state.result.outcome))] += 1
    assert outcomes[("conquian", "win")] and outcomes[("conquian", "tableau")]
    assert outcomes[("three-hand", "abandoned")] and outcomes[("double-pack", "abandoned")]


def test_c6_showing_two_hand_finished_deal_shows_every_hand() -> None:
    """C6 Showing (Hoyle 1897 "Showing"): a view of a finished two-hand deal holds both
    remaining hands; `view.unseen` holds only the stock left, and the JSON shows each hand."""
    for state in finished_deals(TWO_HAND):
        _check_shown(state)


def test_c6_showing_cooncan_finished_deal_shows_every_hand() -> None:
    """C6 Showing (Foster law 23: the losers' cards are exposed and counted): a view of a
    finished Cooncan deal holds every remaining hand; `view.unseen` holds only cards of the
    pack, and the JSON shows each hand."""
    for state in finished_deals(COONCAN):
        _check_shown(state)


def test_c6_showing_unseen_is_the_stock_once_the_deal_is_over() -> None:
    """C6 Showing: once a two-hand deal is over, `view.unseen` is exactly the stock left (a
    tableau's is empty); a Cooncan view's is the pack, unless everyone saw it (M11)."""
    for state in [*finished_deals(TWO_HAND), *finished_deals(COONCAN)]:
        for viewer in range(state.rules.players):
            unseen = Counter(state.view(viewer).unseen)
            if isinstance(state, CooncanState) and state.pack_is_known:
                assert not unseen
            else:
                assert unseen == left_in_stock(state)
