"""T21: trading in Conquian, the encyclopedia's option (its page on Conquian: "Trading can
happen after the players have reviewed their initial hand, but before the first draw. Each
player takes one card from their hand and passes it clockwise to the next person at the
table. Players agree among themselves how many trades are allowed in the game").

The rules object's option `trades`, the action `Trade`, the engine's trade rounds, what
each seat may know of them (C6) in its view, its JSON and its samples, and the formats.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from conquian import (
    ActionSpace,
    ConquianRules,
    GameRecord,
    HeuristicAgent,
    IllegalActionError,
    PlayerView,
    RulesError,
    State,
    Trade,
    card,
    cards,
    new_game,
    parse_action,
)
from conquian.agents import ISMCTSAgent
from conquian.determinize import OfferDeals


def _state(players: int = 2, trades: int = 1, dealer: int = 0) -> State:
    """A deal of the pack in canonical order (T1, T16), so that the hands are known."""
    rules = ConquianRules(players=players, trades=trades)
    return new_game(rules, deck=rules.pack_cards(), dealer=dealer)


# -- the option and the action -------------------------------------------------------------


def test_t21_trades_option_defaults_to_none_and_is_checked() -> None:
    """T21: `trades` is 0 by default, at most the hand size; a bad value names the option
    and the values allowed."""
    assert ConquianRules().trades == 0
    assert ConquianRules(trades=10).trades == 10
    assert ConquianRules(players=4, trades=7).trades == 7
    for bad in (-1, 11, True, "1", None):
        with pytest.raises(RulesError, match=r"trades must be one of 0, 1, .*10"):
            ConquianRules(trades=bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"trades must be one of 0, 1, .*, 7 \(got 8\)"):
        ConquianRules(players=4, trades=8)  # four players hold seven cards (T16)
    assert "trades" not in repr(ConquianRules())
    assert repr(ConquianRules(trades=2)).endswith("trades=2)")


def test_t21_trade_action_text() -> None:
    """T21: ``trade 5H``; a trade a view hides prints as ``trade`` (C6)."""
    assert str(Trade(card("5H"))) == "trade 5H"
    assert parse_action("TRADE 5h") == Trade(card("5H"))
    assert parse_action("trade") == Trade()
    assert repr(Trade(card("10S"))) == "parse_action('trade 10S')"
    with pytest.raises(TypeError, match="card must be a card"):
        Trade("5H")  # type: ignore[arg-type]


# -- the trade rounds (T21, T11) -----------------------------------------------------------


def test_t21_two_players_exchange_one_card_each() -> None:
    """T21 with two players (encyclopedia: each passes one card clockwise): the pone chooses
    first, then the dealer; then the two cards change hands at once and the starter is turned
    for the pone (T11)."""
    state = _state()
    pone_hand = cards("AC 2C 5C 6C QC KC 3D 4D 7D JD")
    dealer_hand = cards("3C 4C 7C JC AD 2D 5D 6D QD KD")
    assert state.hand(1) == pone_hand and state.hand(0) == dealer_hand
    assert state.current_player == 1 and state.offer is None and state.decision == "trade"
    assert state.stock_size == 20  # the starter is not turned yet
    state = state.apply("trade KC")
    assert state.current_player == 0 and state.traded == (1,)
    assert state.hand(1) == pone_hand  # nothing moves before the last player has chosen
    state = state.apply("trade 7C")
    assert set(state.hand(1)) == set(pone_hand) - {card("KC")} | {card("7C")}
    assert set(state.hand(0)) == set(dealer_hand) - {card("7C")} | {card("KC")}
    assert (state.current_player, state.offer, state.offer_origin) == (1, card("AH"), "turned")
    assert state.stock_size == 19 and state.decision == "say" and not state.trading


def test_t21_four_players_pass_one_card_to_the_left() -> None:
    """T21 with four players (encyclopedia: "passes it clockwise to the next person at the
    table"): in seat order from the pone, every card goes to its chooser's left neighbour."""
    state = _state(players=4, dealer=2)
    before = [set(state.hand(p)) for p in range(4)]
    order = [3, 0, 1, 2]  # from the pone, the dealer's left
    chosen = {}
    for seat in order:
        assert state.current_player == seat and state.decision == "trade"
        c = min(state.hand(seat))
        chosen[seat] = c
        state = state.apply(Trade(c))
    for p in range(4):
        right = (p - 1) % 4
        assert set(state.hand(p)) == before[p] - {chosen[p]} | {chosen[right]}
    assert state.current_player == 3 and state.offer_origin == "turned"
    assert state.offer == state.deck[28]  # T16: the starter follows the seven-card hands


def test_t21_rounds_are_compulsory_and_come_before_the_starter() -> None:
    """T21: every round is played, only trades are legal in it (E1 names T21), and the starter
    is turned after the last one; a card traded may come back in a later round."""
    state = _state(trades=3)
    for first, second in (("AC", "3C"), ("3C", "AC")):  # a card goes and comes back
        assert {str(a) for a in state.legal_actions()} == {f"trade {c}" for c in state.hand(1)}
        for action in ("pass", "take AH", "discard AC", "meld AC 2C 3C"):
            with pytest.raises(IllegalActionError, match=r"trade rounds.*\(T21\)"):
                state.apply(action)
        state = state.apply(f"trade {first}").apply(f"trade {second}")
        assert state.offer is None
    assert card("AC") in state.hand(1) and state.offer is None  # the third round is to come
    state = state.apply("trade AC").apply("trade KD")
    assert card("KD") in state.hand(1) and state.offer == card("AH")
    assert len(state.history) == 6


def test_t21_trades_that_are_not_legal_name_the_rule() -> None:
    """E1, T21: a card not in the hand, a hidden trade, a trade without trading or after the
    rounds: each is refused, naming T21, and the state is unchanged."""
    state = _state()
    with pytest.raises(IllegalActionError, match=r"3C is not in it \(T21\)") as e:
        state.apply("trade 3C")  # the dealer's card, not the pone's
    assert e.value.rule == "T21"
    with pytest.raises(IllegalActionError, match=r"names the card .* \(T21\)"):
        state.apply("trade")
    with pytest.raises(IllegalActionError, match=r"no trading \(the option trades is 0\)"):
        new_game(ConquianRules(), seed=1).apply("trade AC")
    done = state.apply("trade AC").apply("trade 3C")
    with pytest.raises(IllegalActionError, match=r"before the starter is turned \(T21\)"):
        done.apply("trade 2C")
    assert state == _state() and state.history == ()


def test_t21_without_trades_nothing_changes() -> None:
    """T21: with ``trades=0`` (the default) the starter is on offer at once, as always."""
    state = new_game(ConquianRules(), deck=ConquianRules().pack_cards(), dealer=0)
    assert state.offer == card("AH") and state.decision == "say" and not state.trading
    assert len(ActionSpace(ConquianRules())) == 4247  # the ids of before (golden data)


# -- what each seat knows (C6) -------------------------------------------------------------


def test_c6_t21_a_choice_is_hidden_until_the_card_arrives() -> None:
    """C6, T21: "nobody sees another's choice": another seat's chosen card is in no view,
    JSON or event of the others; the view shows who has chosen; the receiver learns the card
    he got when the round's cards move, and the giver knows where his card is."""
    state = _state(players=3).apply("trade AC")  # seat 1, the pone, chooses AC
    for seat in (0, 2):
        view = state.view(seat)
        assert view.history == (Trade(),) and view.traded == (1,)
        assert '"trade AC"' not in view.to_json()
        assert all("AC" not in str(e) for e in view.events())
    assert state.view(1).history == (Trade(card("AC")),)
    state = state.apply("trade 5D").apply("trade 5C")  # seat 2, then seat 0, the dealer
    # Seat 2 received AC from seat 1, seat 0 received 5D from seat 2, seat 1 5C from seat 0.
    assert state.view(2).history == (Trade(card("AC")), Trade(card("5D")), Trade())
    assert state.view(0).history == (Trade(), Trade(card("5D")), Trade(card("5C")))
    assert state.view(1).history == (Trade(card("AC")), Trade(), Trade(card("5C")))
    view = state.view(1)
    assert view.known == ((), (), (card("AC"),))  # the card he gave, in his left neighbour's
    assert card("AC") not in view.unseen and card("5D") in view.unseen
    assert str(view.events()[2]) == "Seat 2 trades a card to seat 0."


def test_c6_t21_each_seat_is_told_the_card_it_receives_when_the_round_ends() -> None:
    """T21, C6: the round's cards move at once, after the last choice; each seat's events
    then tell it the card it received and from whom, and nobody else's."""
    state = _state(players=3).apply("trade AC").apply("trade 5D")
    assert all(e.kind != "receive" for seat in range(3) for e in state.view(seat).events())
    state = state.apply("trade 5C")
    for seat, card_received, giver in ((0, "5D", 2), (1, "5C", 0), (2, "AC", 1)):
        received = [e for e in state.view(seat).events() if e.kind == "receive"]
        assert [(e.seat, e.cards, e.other) for e in received] == [
            (seat, (card(card_received),), giver)
        ]
    assert [str(e) for e in state.view(0).events(since=2)][:2] == [
        "You trade 5C to seat 1.",
        "You receive 5D from seat 2.",
    ]


def test_c6_t21_with_three_seats_a_card_given_earlier_may_have_moved_on() -> None:
    """C6, T21 (the library's reading): with three or four seats, only the card given in the
    last round is known to be in the left neighbour's hand; with two every card given is
    known until it comes back."""
    state = _state(players=3, trades=2)
    for action in ("trade AC", "trade 5D", "trade 5C", "trade 2C", "trade AC", "trade 6C"):
        state = state.apply(action)
    assert card("AC") in state.hand(0)  # seat 2 passed it on in the second round
    assert state.view(1).known == ((), (), (card("2C"),))  # so AC is not known to seat 1
    two = _state(trades=2)
    for action in ("trade AC", "trade 3C", "trade 2C", "trade 4C"):
        two = two.apply(action)
    assert two.view(1).known == ((card("AC"), card("2C")), ())


def test_t21_json_round_trips_and_default_documents_stay_as_they_were() -> None:
    """T21: records, positions and views of trading deals load back; `trades` is written only
    when it is not 0, so documents without trading are as before."""
    assert "trades" not in new_game(ConquianRules(), seed=3).to_json()
    rng = random.Random(4)
    for players, trades in ((2, 2), (3, 1), (4, 1)):
        state = new_game(ConquianRules(players=players, trades=trades), seed=players)
        for _ in range(players * trades + 3):
            for seat in range(players):
                view = state.view(seat)
                assert PlayerView.from_json(view.to_json()) == view
            assert State.from_json(state.to_json()) == state
            state = state.apply(rng.choice(state.legal_actions()))
        assert json.loads(state.to_json())["rules"]["trades"] == trades
        assert GameRecord.from_json(GameRecord.from_state(state).to_json()).replay() == state


def test_t21_trade_ids_come_after_every_other_id() -> None:
    """T21: the trade ids are added after the others: every other id is as without trading."""
    plain, trading = ActionSpace(ConquianRules()), ActionSpace(ConquianRules(trades=1))
    assert len(trading) == len(plain) + 40
    assert all(plain.action(i) == trading.action(i) for i in range(0, len(plain), 97))
    assert trading.index(Trade(card("AC"))) == len(plain)
    with pytest.raises(ValueError, match="no deal under these rules offers"):
        plain.index(Trade(card("AC")))
    with pytest.raises(ValueError, match="no deal under these rules offers"):
        trading.index(Trade())


# -- samples (C6): uniform over the deals and the others' hidden choices ---------------------


def _chi_square(counts: Counter[object], keys: list[object], expected: float) -> float:
    return sum((counts[k] - expected) ** 2 / expected for k in keys)


def _bound(cells: int) -> float:
    """A chi-square of ``cells - 1`` degrees of freedom exceeds this with a probability far
    below one in a million (as in test_determinize.py)."""
    return cells - 1 + 6 * (2 * (cells - 1)) ** 0.5


@pytest.mark.parametrize("players", [2, 3])
def test_c6_t21_hidden_choices_are_drawn_uniformly(players: int) -> None:
    """C6, T21: the dealer has not chosen yet and every other seat has, unseen: in the
    samples, each seat's hidden choice is each unseen card equally often (the seat holds it
    with probability hand/unseen and chooses it with probability 1/hand)."""
    state = new_game(ConquianRules(players=players, trades=1), seed=21)
    for _ in range(players - 1):
        state = state.apply(state.legal_actions()[0])
    view = state.view(0)  # the dealer: the others' hands, the stock and the starter unseen
    unseen = list(view.unseen)
    assert len(unseen) == 40 - 10 * (players == 2) - 8 * (players == 3)
    runs = 1200
    rng = random.Random(7)
    chosen: list[Counter[object]] = [Counter() for _ in range(players - 1)]
    for _ in range(runs):
        sample = view.sample_state(rng)
        assert sample.view(0) == view
        for k in range(players - 1):
            chosen[k][sample.history[k].card] += 1
    for counts in chosen:
        assert set(counts) <= set(unseen)
        assert _chi_square(counts, unseen, runs / len(unseen)) < _bound(len(unseen))


def test_c6_t21_after_the_round_the_other_hand_is_uniform_but_for_the_card_given() -> None:
    """C6, T21, two seats: after the exchange the dealer knows the card he gave is in the
    pone's hand; the pone's nine other cards are each unseen card equally often, and the
    deck the sample deals is the order before the trades."""
    state = new_game(ConquianRules(trades=1), seed=5)
    given = state.apply(state.legal_actions()[0]).legal_actions()[0]
    state = state.apply(state.legal_actions()[0]).apply(given)
    view = state.view(0)
    unseen = list(view.unseen)
    assert len(unseen) == 28 and given.card in view.known[1]  # type: ignore[union-attr]
    runs = 900
    rng = random.Random(3)
    in_hand: Counter[object] = Counter()
    for _ in range(runs):
        sample = view.sample_state(rng)
        hand = set(sample.hand(1))
        assert given.card in hand  # type: ignore[union-attr]
        in_hand.update(hand - {given.card})  # type: ignore[union-attr]
        first = new_game(sample.rules, deck=sample.deck, dealer=sample.dealer)
        assert given.card in first.hand(0)  # dealt to the dealer, who gave it
    assert _chi_square(in_hand, unseen, runs * 9 / 28) < _bound(28)


def test_c6_t21_samples_give_the_view_in_every_seat_count() -> None:
    """C6, T21: at every step of random deals with trade rounds, a sample gives the view."""
    for players, trades in ((2, 3), (3, 2), (4, 1)):
        rules = ConquianRules(players=players, trades=trades)
        for seed in range(3):
            rng = random.Random(seed)
            state = new_game(rules, seed=seed, dealer=seed % players)
            for step in range(players * trades + 12):
                if state.is_over:
                    break
                seat = rng.randrange(players)
                view = state.view(seat)
                assert view.sample_state(random.Random(step)).view(seat) == view
                state = state.apply(rng.choice(state.legal_actions()))


# -- agents ----------------------------------------------------------------------------------


def test_t21_the_heuristic_trades_the_card_its_hand_misses_least() -> None:
    """T21: the heuristic and the searching bot keep their combinations: holding the
    sequence AC 2C 3C and three kings, each passes on one of its loose cards."""
    rules = ConquianRules(trades=1)
    pone = cards("AC 2C 3C KC KD KH 5S 7H JD 4S")
    rest = [c for c in rules.pack_cards() if c not in pone]
    deck = []
    for k in range(0, 10, 2):  # T1: two at a time, the pone first
        deck += [*pone[k : k + 2], *rest[k : k + 2]]
    deck += rest[10:]
    state = new_game(rules, deck=tuple(deck), dealer=0)
    assert set(state.hand(1)) == set(pone)
    choice = HeuristicAgent()(state.view(1))
    assert isinstance(choice, Trade) and choice.card in cards("5S 7H JD 4S")
    searched = ISMCTSAgent(seed=0, iterations=8)(state.view(1))  # the searching bot too
    assert isinstance(searched, Trade) and searched.card in cards("5S 7H JD 4S")


def test_t21_the_searching_bot_trades() -> None:
    """T21: the searching bot chooses a trade among the legal ones and plays the deal on."""
    state = new_game(ConquianRules(players=3, trades=1), seed=2)
    bot = ISMCTSAgent(seed=1, iterations=8)
    for _ in range(4):
        view = state.view(state.current_player)
        action = bot(view)
        assert action in view.legal_actions
        state = state.apply(action)
    assert not state.trading and state.offer is not None


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (4, 6)])
def test_c6_t21_two_rounds_samples_match_the_rules_played_forward(players: int, seed: int) -> None:
    """C6, T21, three or four seats and two rounds, the viewer's earlier card maybe passed on:
    each card lands in each other hand as often as when the deal and the others' choices are
    played forward from the rules (a uniform deal, uniform choices) and kept only when they
    give the view (his right neighbour chose the cards he received)."""
    rules = ConquianRules(players=players, trades=2)
    state = new_game(rules, seed=seed, dealer=0)
    rng = random.Random(0)
    for _ in range(2 * players):
        state = state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)  # the dealer: seat n - 1 gives to him, he gives to seat 1
    gave = [a.card for a in view.history[players - 1 :: players]]
    got = [a.card for a in view.history[players - 2 :: players]]
    dealt = set(view.hand) - set(got) | set(gave)
    size = rules.hand_size
    others = [c for c in rules.pack_cards() if c not in dealt and c != view.offer]
    forward: list[Counter[object]] = [Counter() for _ in range(1, players)]
    kept, draw = 0, random.Random(1)
    for _ in range(30_000):
        pool = [c for c in others if c != got[0]]
        draw.shuffle(pool)
        hands = [set(pool[k * size : (k + 1) * size]) for k in range(players - 1)]
        hands[-1] = set(pool[(players - 2) * size : (players - 1) * size - 1]) | {got[0]}
        for g, r in zip(gave, got, strict=True):  # seat 0 dealt none of these: his dealt
            if r not in hands[-1]:  # hand is known, and the last seat chose the card he got
                break
            chosen = [draw.choice(sorted(h)) for h in hands[:-1]] + [r]
            given = [g, *chosen[:-1]]  # seat k + 1 receives given[k]
            hands = [h - {x} | {y} for h, x, y in zip(hands, chosen, given, strict=True)]
        else:
            kept += 1
            for counts, hand in zip(forward, hands, strict=True):
                counts.update(hand)
    runs = 3000
    sampled: list[Counter[object]] = [Counter() for _ in range(1, players)]
    for k in range(runs):
        sample = view.sample_state(random.Random(k))
        for seat, counts in enumerate(sampled, 1):
            counts.update(sample.hand(seat))
    assert kept > 2000
    for seat in range(players - 1):
        for c in others:
            p, q = forward[seat][c] / kept, sampled[seat][c] / runs
            spread = (p * (1 - p) / kept + p * (1 - p) / runs) ** 0.5 + 1e-9
            assert abs(q - p) / spread < 5, (seat + 1, c, p, q)


def test_c6_t21_a_card_given_in_the_first_of_two_rounds_moved_on_one_time_in_eight() -> None:
    """C6, T21, three seats: the card the viewer gave in the first round went to his left
    neighbour, who in the second round passed one of his 8 cards to the third seat, unseen:
    the samples put it in the third hand one time in eight."""
    rules = ConquianRules(players=3, trades=2)
    state = new_game(rules, seed=4, dealer=0)
    for _ in range(6):
        state = state.apply(state.legal_actions()[0])
    view = state.view(0)
    first = view.history[2].card  # type: ignore[union-attr]
    assert first in view.unseen and rules.hand_size == 8
    runs = 3000
    moved = sum(first in view.sample_state(random.Random(k)).hand(2) for k in range(runs))
    assert abs(moved / runs - 1 / 8) < 5 * (1 / 8 * 7 / 8 / runs) ** 0.5


@pytest.mark.parametrize(
    ("players", "trades", "seed", "steps"), [(3, 5, 991, 19), (3, 5, 777, 47), (4, 7, 199, 55)]
)
def test_c6_t21_no_draw_is_refused_for_the_rounds(
    players: int, trades: int, seed: int, steps: int
) -> None:
    """C6, T21: every draw of a view's hidden cards leads back through its trade rounds, on
    views of random play where the draws used to be refused until the sampler gave up (the
    cards the viewer gave put in the stock, or never passed back)."""
    rules = ConquianRules(players=players, trades=trades)
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % players)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.current_player)
    deals = OfferDeals(view)
    for k in range(200):
        draw = random.Random(k)
        assert deals(*deals.split(view.unseen, draw), draw) is not None
    for k in range(20):
        assert view.sample_state(random.Random(k)).view(view.player) == view
