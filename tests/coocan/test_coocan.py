"""Coo-Can, the Cork double-pack game (RULES.md K1-K9; encyclopedia "Coo-Can").

Rule-named tests on stacked decks, the engine against the brute-force oracle
(`tests/oracles/coocan.py`) on seeded deals of two to six players, golden
counts (`tests/data/coocan_golden.json`), the article's scoring example, and
a chi-square test of `sample_state`.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conquian import Discard, IllegalActionError, Meld, RulesError, State
from conquian.cards import Card, card, cards, shuffle
from conquian.coocan import CooCanRules, CooCanState, deal, reshuffle_seed, settle, spots
from conquian.coocan.melds import new_sets
from coocan_reference import draw_exact
from oracles.coocan import oracle
from strategies import draw_heavy

GOLDEN = json.loads((Path(__file__).parent.parent / "data" / "coocan_golden.json").read_text())


def stacked(
    rules: CooCanRules, dealer: int, hands: dict[int, str], top: str = ""
) -> tuple[Card, ...]:
    """A deck that deals each seat of `hands` those cards (the rest of each hand and the deck
    from the pack in canonical order), with `top` next on the deck (K1)."""
    n = rules.players
    rest = list(rules.pack_cards())
    wanted = {q: list(cards(text)) for q, text in hands.items()}
    following = list(cards(top))
    for c in [*following, *(c for w in wanted.values() for c in w)]:
        rest.remove(c)
    deck: list[Card] = []
    for k in range(n * 10 + 1):
        mine = wanted.get((dealer + k) % n)
        deck.append(mine.pop(0) if mine else rest.pop(0))
    return (*deck, *following, *rest)


def seeded(players: int, seed: int, dealer: int = 0, **options: Any) -> CooCanState:
    rules = CooCanRules(players=players, **options)
    return deal(rules, shuffle(rules.pack_cards(), seed), dealer)


def message(state: CooCanState, action: str) -> str:
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    return str(info.value)


# -- K1 the pack, the deal, the rules object -------------------------------------------------


def test_k1_rules_object_and_pack() -> None:
    """K1: 104 cards without jokers in canonical order, 2 to 6 players, game "coo-can"."""
    rules = CooCanRules()
    assert (rules.game, rules.players, rules.hand_size) == ("coo-can", 4, 10)
    pack = rules.pack_cards()
    assert len(pack) == 104 and all(not c.is_joker for c in pack)
    assert list(pack) == sorted(pack) and Counter(pack) == Counter({c: 2 for c in set(pack)})
    for bad in ({"players": 1}, {"players": 7}, {"players": True}, {"game_stake": -1},
                {"spot_stake": 1.5}, {"turn_limit": 0}):  # fmt: skip
        with pytest.raises(RulesError, match=next(iter(bad))):
            CooCanRules(**bad)


def test_k1_dealer_first_eleven_cards_then_left() -> None:
    """K1: one card at a time, the dealer himself first, then leftwards: 11 to him, 10 each."""
    rules = CooCanRules(players=3)
    deck = rules.pack_cards()
    state = deal(rules, deck, dealer=2)
    assert state.hand(2) == tuple(sorted(deck[0:31:3]))
    assert state.hand(0) == tuple(sorted(deck[1:31:3]))
    assert state.hand(1) == tuple(sorted(deck[2:31:3]))
    assert state.deck_cards == deck[31:] and state.discard_pile == ()
    assert state.current_player == 2 and state.deck == deck


def test_k1_deal_checks_its_deck() -> None:
    """K1: a deck that is not the 104 cards is refused."""
    rules = CooCanRules()
    with pytest.raises(ValueError, match="104 cards"):
        deal(rules, rules.pack_cards()[1:], 0)


# -- K2 the opening discard, K3 the turn ------------------------------------------------------


def test_k2_the_dealer_opens_with_a_discard_only() -> None:
    """K2: the dealer's first turn offers only discards; then play passes to the left."""
    rules = CooCanRules(players=2)
    state = deal(rules, stacked(rules, 0, {0: "5H 6H 7H 8H"}), 0)
    assert all(str(a).startswith("discard") for a in state.legal_actions())
    assert message(state, "meld 5H 6H 7H 8H").endswith("does nothing else in that turn (K2)")
    after = state.apply("discard 5H")
    assert after.current_player == 1 and after.discard_pile == (card("5H"),)
    assert after.decision == "draw"


def test_k3_draw_or_take_then_one_meld_then_discard() -> None:
    """K3: draw or take the top discard; at most one meld; the card taken is not discarded."""
    rules = CooCanRules(players=2)
    deck = stacked(rules, 0, {0: "KS", 1: "9C 9D 9H 9S 2C 3C 4C 5C"})
    state = deal(rules, deck, 0).apply("discard KS")
    assert [str(a) for a in state.legal_actions()] == ["draw", "take KS"]
    assert message(state, "discard 9C").endswith("(K3)")
    taken = state.apply("take KS")
    assert "discard KS" not in map(str, taken.legal_actions())
    assert "the card you took from the discard pile" in message(taken, "discard KS")
    melded = taken.apply("meld 9C 9D 9H 9S")
    assert all(str(a).startswith("discard") for a in melded.legal_actions())
    assert message(melded, "meld 2C 3C 4C 5C") == (
        "illegal action 'meld 2C 3C 4C 5C': only one meld can be made in a turn (K3)"
    )


def test_k3_single_card_draw_only_on_a_late_position() -> None:
    """K3: found by play: whenever a hand holds one card at the start of a turn, only draw."""
    seen = 0
    for seed in range(40):
        state = seeded(2, seed)
        rng = random.Random(seed)
        while not state.is_over and state.turns < 600:
            p = state.current_player
            assert p is not None
            if state.decision == "draw" and len(state.hand(p)) == 1:
                seen += 1
                assert [str(a) for a in state.legal_actions()] == ["draw"]
                if state.discard_pile:
                    assert "only draw from the deck (K3)" in message(
                        state, f"take {state.discard_pile[-1]}"
                    )
            melds = [a for a in state.legal_actions() if isinstance(a, Meld)]
            state = state.apply(rng.choice(melds or state.legal_actions()))
    assert seen > 0


# -- K4 sets of four, K5 adding ----------------------------------------------------------------


def test_k4_a_new_meld_is_four_cards_aces_low() -> None:
    """K4: four of a rank or a four-card straight flush; three cards, or J-Q-K-A, are not."""
    rules = CooCanRules(players=2)
    deck = stacked(rules, 0, {1: "5H 6H 7H JD QD KD AD 8S 8S 8C"}, top="9S")
    state = deal(rules, deck, 0)
    state = state.apply(f"discard {state.hand(0)[-1]}").apply("draw")
    assert message(state, "meld 5H 6H 7H") == (
        "illegal action 'meld 5H 6H 7H': a new meld is four cards (K4)"
    )
    assert "aces low (K4)" in message(state, "meld JD QD KD AD")
    legal = set(map(str, state.legal_actions()))
    assert "meld 8C 8S 8S 9S" not in legal and "meld 8S 8S 8C" not in legal
    assert not any(a.startswith("meld") for a in legal)


def test_k4_the_two_copies_may_stand_in_one_group() -> None:
    """K4: four of one rank, any suits, the two copies of a card together."""
    rules = CooCanRules(players=2)
    deck = stacked(rules, 0, {1: "8S 8S 8C 8D"})
    state = deal(rules, deck, 0)
    state = state.apply(f"discard {state.hand(0)[-1]}").apply("draw")
    assert "meld 8C 8D 8S 8S" in map(str, state.legal_actions())
    assert [str(m) for m in state.apply("meld 8S 8D 8S 8C").table] == ["8C 8D 8S 8S"]


def test_k5_adding_only_after_ones_own_first_set() -> None:
    """K5: one card or a set of four onto any meld, only after one's own new meld."""
    rules = CooCanRules(players=2)
    deck = stacked(
        rules, 0, {0: "9C 9D 9H 9S 3D", 1: "9C 5S 6S 7S 8S 4S 10H QH KH AH"}, top="2D 2S 2H 4H 3H"
    )
    state = deal(rules, deck, 0).apply("discard 3D")
    state = state.apply("draw").apply("discard 2D")  # seat 1 has not melded
    state = state.apply("draw").apply("meld 9C 9D 9H 9S").apply("discard 2S")  # seat 0's set
    state = state.apply("draw")
    assert message(state, "meld 9C @0") == (
        "illegal action 'meld 9C @0': you must lay a new set of four of your own before "
        "adding to a meld (K5)"
    )
    state = state.apply("meld 5S 6S 7S 8S").apply("discard 10H")
    state = state.apply("draw").apply("discard 4H").apply("draw")
    legal = set(map(str, state.legal_actions()))
    assert {"meld 9C @0", "meld 4S @1"} <= legal
    assert "does not go onto the group 9C 9D 9H 9S" in message(state, "meld 4S @0")
    assert message(state, "meld 9C @5").endswith("there is no meld @5 on the table (K5)")
    state = state.apply("meld 9C @0")
    assert str(state.table[0]) == "9C 9C 9D 9H 9S" and state.table[0].owner == 0


def test_k5_a_set_of_four_onto_a_meld() -> None:
    """K5: a valid set of four laid onto a sequence it continues makes one larger meld."""
    rules = CooCanRules(players=2)
    deck = stacked(rules, 0, {1: "AH 2H 3H 4H 5H 6H 7H 8H JC JS"}, top="3S 4S")
    state = deal(rules, deck, 0)
    state = state.apply(f"discard {state.hand(0)[-1]}")
    state = state.apply("draw").apply("meld 5H 6H 7H 8H").apply("discard JC")
    state = state.apply("draw").apply(f"discard {state.apply('draw').hand(0)[0]}")
    state = state.apply("draw")
    assert "meld AH 2H 3H 4H @0" in map(str, state.legal_actions())
    state = state.apply("meld AH 2H 3H 4H @0")
    assert str(state.table[0]) == "AH 2H 3H 4H 5H 6H 7H 8H"


# -- K6 declaring ----------------------------------------------------------------------------


def test_k6_declarations_are_the_public_hand_sizes() -> None:
    """K6: a player left with four cards or one is declared by every view's hand sizes; no
    action is needed (every legal action is a draw, take, meld or discard)."""
    declared = Counter[int]()
    state = seeded(3, 21, turn_limit=300)
    rng = random.Random(21)
    while not state.is_over:
        sizes = tuple(len(state.hand(q)) for q in range(3))
        for q in range(3):
            assert state.view(q).hand_sizes == sizes
        declared.update(size for size in sizes if size in (1, 4))
        assert all(str(a).split()[0] in ("draw", "take", "meld", "discard")
                   for a in state.legal_actions())  # fmt: skip
        melds = [a for a in state.legal_actions() if isinstance(a, Meld)]
        state = state.apply(rng.choice(melds or state.legal_actions()))
    assert declared[4] > 0


# -- K7 going out, no dead ends -------------------------------------------------------------


def test_k7_a_meld_that_leaves_no_card_to_discard_is_illegal() -> None:
    """K7: found by play: a set of four that is the whole hand is not offered, and trying it
    says why; the discard that empties a hand wins."""
    found = wins = 0
    for seed in range(60):
        state = seeded(2, seed, turn_limit=400)
        rng = random.Random(seed)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            hand = state.hand(p)
            legal = state.legal_actions()
            if state.decision == "play" and not state.melded and state.turns and len(hand) == 4:
                for s in new_sets(hand):
                    found += 1
                    assert Meld(s) not in legal
                    assert message(state, str(Meld(s))).endswith("no card you may discard (K7)")
            melds = [a for a in legal if isinstance(a, Meld)]
            state = state.apply(rng.choice(melds or legal))
        if state.result is not None and state.result.winner is not None:
            wins += 1
            assert state.hand(state.result.winner) == ()
            assert str(state.history[-1]).startswith("discard")
    assert found > 0 and wins > 0


def test_k7_no_dead_end_anywhere_in_random_play() -> None:
    """K7: every legal action leads to a state that is over or has a legal action."""
    for players in (2, 5):
        state = seeded(players, 3, turn_limit=300)
        rng = random.Random(3)
        while not state.is_over:
            for action in state.legal_actions():
                after = state.apply(action)
                assert after.is_over or after.legal_actions()
            state = state.apply(rng.choice(state.legal_actions()))


# -- K8 the exhausted deck ------------------------------------------------------------------


def until_reshuffle(state: CooCanState, rng: random.Random) -> Iterator[CooCanState]:
    while not state.is_over:
        yield state
        state = state.apply(rng.choice(state.legal_actions()))
    yield state


def test_k8_the_discard_pile_mixed_with_the_seeded_shuffle() -> None:
    """K8: when a turn begins with an empty deck the pile, shuffled with the seed of the deal's
    deck and the number of earlier reshuffles, becomes the deck; only a draw is offered."""
    rng = random.Random(5)
    before = None
    for state in until_reshuffle(seeded(2, 5), rng):
        if state.reshuffles == 1:
            assert before is not None
            assert state.discard_pile == () and [str(a) for a in state.legal_actions()] == ["draw"]
            last = state.history[-1]
            full = (*before.discard_pile, last.card)  # type: ignore[attr-defined]
            assert state.deck_cards == shuffle(full, reshuffle_seed(state.deck, 0))
            view = state.view(0)
            assert sorted(view.deck_may_hold or ()) == sorted(
                (Counter(full) & Counter(view.unseen)).elements()
            )
            text = view.to_json()
            assert " ".join(map(str, state.deck_cards[:6])) not in text
            return
        before = state
    pytest.fail("no reshuffle in this deal")


def test_k8_determinism_across_the_reshuffle() -> None:
    """K8, C7: the same rules, deck, dealer and actions give the same state after reshuffles."""
    rng = random.Random(8)
    state = seeded(3, 8)
    while state.reshuffles < 2 and not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.reshuffles == 2
    again = deal(state.rules, state.deck, state.dealer)
    for action in state.history:
        again = again.apply(str(action))
    assert again == state and again.deck_cards == state.deck_cards
    assert State.from_json(state.to_json()) == state


def test_k8_turn_limit_abandons_without_payments() -> None:
    """K8: at the turn limit the deal is abandoned, nobody pays."""
    state = seeded(4, 1, turn_limit=3)
    while not state.is_over:
        state = state.apply(state.legal_actions()[-1])
    assert state.result is not None
    assert (state.result.outcome, state.result.payments, state.turns) == ("abandoned", (0,) * 4, 3)


# -- K9 scoring and the Cooch -----------------------------------------------------------------


def test_k9_the_articles_example_eight_eight_eight_ace() -> None:
    """K9, encyclopedia "Coo-Can": a loser holding 8, 8, 8, A pays the game and 25 spots:
    1.50 at "Euro the game, and two cent a spot" (100 and 2, in cents)."""
    assert spots(cards("8C 8D 8H AS")) == 25
    assert spots(cards("JC QD KH 10S")) == 40
    result = settle(CooCanRules(players=2), (cards("8C 8D 8H AS"), ()), 1, cooch=False)
    assert result.payments == (-150, 150) and result.winner == 1
    double = settle(CooCanRules(players=3), (cards("8C 8D 8H AS"), (), cards("KS")), 1, cooch=True)
    assert double.payments == (-300, 540, -240) and sum(double.payments) == 0


def test_k9_the_cooch_goes_out_and_pays_double() -> None:
    """K9: a ten-card straight flush laid at once from eleven cards, then the last discard."""
    rules = CooCanRules(players=2, game_stake=100, spot_stake=2)
    deck = stacked(rules, 0, {1: "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"}, top="KC")
    state = deal(rules, deck, 0)
    state = state.apply(f"discard {state.hand(0)[-1]}").apply("draw")
    legal = set(map(str, state.legal_actions()))
    assert "meld AH 2H 3H 4H 5H 6H 7H 8H 9H 10H" in legal
    state = state.apply("meld AH 2H 3H 4H 5H 6H 7H 8H 9H 10H").apply("discard KC")
    assert state.result is not None and state.result.winner == 1
    loser = 2 * (100 + 2 * spots(state.hand(0)))
    assert state.result.payments == (-loser, loser)


# -- the oracle, golden counts ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_engine_equals_the_oracle(players: int) -> None:
    """K2-K5, K7: at every state of seeded deals the engine offers exactly the oracle's actions,
    each with the hand and table the oracle expects."""
    for seed in range(2):
        state = seeded(players, 100 + seed, dealer=seed % players, turn_limit=150)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            expected = oracle(state)
            assert len(set(legal)) == len(legal)
            assert set(legal) == set(expected)
            p = state.current_player
            assert p is not None
            for action in legal:
                if isinstance(action, Meld):
                    after = state.apply(action)
                    hand, table = expected[action]
                    assert after.hand(p) == hand
                    assert [m.physical_cards for m in after.table] == list(table)
            melds = [a for a in legal if isinstance(a, Meld)]
            state = state.apply(
                rng.choice(melds) if melds and rng.random() < 0.7 else rng.choice(legal)
            )


def perft(state: CooCanState, depth: int) -> int:
    """The number of distinct action sequences of length `depth` (shorter if the deal ends)."""
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("entry", GOLDEN["positions"], ids=lambda e: e["name"])
def test_golden_counts(entry: dict[str, Any]) -> None:
    """Golden counts: a silent change of what is legal (K2-K5, K7) changes a number."""
    state = seeded(entry["players"], entry["seed"], entry["dealer"])
    for action in entry["prefix"]:
        state = state.apply(action)
    assert [perft(state, d) for d in range(1, len(entry["counts"]) + 1)] == entry["counts"]


# -- C6 views and samples ----------------------------------------------------------------------


def test_c6_views_hide_the_deck_and_other_hands() -> None:
    """C6: two states that differ only in hidden cards give equal views; the JSON holds no
    hidden card."""
    state = seeded(3, 4).apply("discard " + str(seeded(3, 4).hand(0)[0])).apply("draw")
    view = state.view(2)
    sample = view.sample_state(random.Random(1))
    assert sample.view(2) == view and sample.hand(1) != state.hand(1)
    assert json.loads(view.to_json())["hands"] is None
    assert view.decision == "play" and state.decision == "play"
    with pytest.raises(Exception, match="sample_state has no deal"):
        sample.to_json()


def test_c6_a_view_reads_back_from_its_json() -> None:
    """C6, E2, E3: at states of a deal (reshuffles included) every view reads back equal from
    its JSON; a view whose cards contradict it is refused, naming what is wrong."""
    from conquian import RecordError
    from conquian.coocan import CooCanView

    state = seeded(2, 5)
    rng = random.Random(5)
    k = 0
    while not state.is_over:
        if k % 17 == 0:
            for p in range(2):
                view = state.view(p)
                assert CooCanView.from_json(view.to_json()) == view
        k += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.reshuffles > 0
    view = state.view(0)
    assert CooCanView.from_json(view.to_json()) == view
    data = json.loads(seeded(3, 1).view(1).to_json())
    data["hand_sizes"][0] = 9
    with pytest.raises(RecordError, match="no position can show this view"):
        CooCanView.from_json(json.dumps(data))
    data = json.loads(seeded(3, 1).view(1).to_json())
    data["hand"] = [*data["hand"][:-1], "AC", "AC", "AC"]
    with pytest.raises(RecordError, match="more copies than the coo-can pack holds"):
        CooCanView.from_json(json.dumps(data))


def test_c6_observation_has_a_fixed_length_and_reads_only_the_view() -> None:
    """C6: a view's observation has the same length all through a deal, and equal views give
    equal observations (a sample of the view too)."""
    state = seeded(4, 17, turn_limit=120)
    rng = random.Random(17)
    lengths = set()
    while not state.is_over:
        view = state.view(2)
        obs = view.observation()
        lengths.add(len(obs))
        assert view.sample_state(rng).view(2).observation() == obs
        state = state.apply(rng.choice(state.legal_actions()))
    assert lengths == {52 * 5 + 52 * 3 + 2 * 4 + 5}


def test_c6_showing_every_hand_when_the_deal_is_over() -> None:
    """C6 "Showing": a finished deal's view holds every hand; only the deck stays unseen, and a
    sample of it gives the same view."""
    state = seeded(3, 13, turn_limit=400)
    rng = random.Random(13)
    while not state.is_over:
        melds = [a for a in state.legal_actions() if isinstance(a, Meld)]
        state = state.apply(rng.choice(melds or state.legal_actions()))
    view = state.view(1)
    assert view.hands == tuple(state.hand(q) for q in range(3))
    assert Counter(view.unseen) == Counter(state.deck_cards)
    assert view.legal_actions == () and view.decision is None
    assert view.sample_state(random.Random(1)).view(1) == view


def _bound(cells: int) -> float:
    """A chi-square of cells-1 degrees of freedom passes this with probability near 1 - 1e-6."""
    return cells - 1 + 6 * (2 * (cells - 1)) ** 0.5


def test_c6_sample_state_is_uniform_on_a_small_position() -> None:
    """C6, K8: right after a reshuffle the top of the deck is uniform over the mixed pile's
    cards (copies counted), and before one each unseen card is in the deck in proportion."""
    rng = random.Random(2)
    state = seeded(2, 2)
    while state.reshuffles == 0:
        state = state.apply(rng.choice(state.legal_actions()))
    view = state.view(1)
    cells = Counter(view.deck_may_hold)
    assert len(view.deck_may_hold or ()) == state.deck_size
    draws = 6000
    tops = Counter(view.sample_state(random.Random(k)).deck_cards[0] for k in range(draws))
    total = sum(cells.values())
    chi = sum((tops[c] - draws * m / total) ** 2 / (draws * m / total) for c, m in cells.items())
    assert chi < _bound(len(cells)) and set(tops) <= set(cells)
    early = seeded(2, 9).apply("discard " + str(seeded(2, 9).hand(0)[0]))
    v = early.view(0)
    c = next(c for c, m in Counter(v.unseen).items() if m == 1)  # one copy unseen
    where = Counter(c in v.sample_state(random.Random(k)).hand(1) for k in range(2000))
    p_hand = 10 / len(v.unseen)
    expected = {True: 2000 * p_hand, False: 2000 * (1 - p_hand)}
    assert sum((where[k] - e) ** 2 / e for k, e in expected.items()) < _bound(2)


# -- the heuristic player ------------------------------------------------------------------


def test_heuristic_agent_beats_random_play() -> None:
    """`CooCanAgent` (seat 0) against three random players wins far more than its fair quarter
    of 40 seeded four-player deals, and always chooses a legal action."""
    from conquian.agents.coocan import CooCanAgent

    wins = 0
    for g in range(40):
        state = seeded(4, g, dealer=g % 4, turn_limit=400)
        bot, rng = CooCanAgent(g), random.Random(g)
        while not state.is_over:
            p = state.current_player
            assert p is not None
            if p == 0:
                action = bot(state.view(0))
                assert action in state.legal_actions()
            else:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
        assert state.result is not None
        wins += state.result.winner == 0
    assert wins >= 30


# -- where each rule lives, positions (E3) -------------------------------------------------


def test_every_k_rule_is_placed_and_documented() -> None:
    """K1-K9: the package docstring says where each rule lives, the rules page has an anchor
    for each, and this file names each in a test."""
    import conquian.coocan

    page = (Path(__file__).parents[2] / "docs" / "rules" / "coo-can.md").read_text()
    tests = Path(__file__).read_text()
    for k in range(1, 10):
        assert re.search(rf"\bK{k}\b", conquian.coocan.__doc__ or "")
        assert f"{{#k{k}}}" in page
        assert f"def test_k{k}_" in tests


def test_e3_a_position_whose_snapshot_disagrees_is_refused() -> None:
    """E3: a position whose deck or hands do not match its actions is rejected, naming the
    field; a position drawn by sample_state cannot be written."""
    from conquian import RecordError

    state = seeded(3, 6)
    state = state.apply(state.legal_actions()[-1]).apply("draw")
    data = json.loads(state.to_json())
    data["snapshot"]["deck"] = data["snapshot"]["deck"][::-1]
    with pytest.raises(RecordError, match=r"snapshot\.deck"):
        State.from_json(json.dumps(data))
    data = json.loads(state.to_json())
    data["snapshot"]["hands"][0], data["snapshot"]["hands"][1] = (
        data["snapshot"]["hands"][1],
        data["snapshot"]["hands"][0],
    )
    with pytest.raises(RecordError, match=r"snapshot.hands\[0\]"):
        State.from_json(json.dumps(data))
    with pytest.raises(RecordError, match="no deal to record"):
        state.view(0).sample_state(random.Random(0)).to_json()


def test_action_ids_are_a_fixed_bijection() -> None:
    """Action ids (K3-K5, K9): every id names one action and back; the legal actions of
    random deals all have ids; a few ids are pinned, as golden data."""
    from conquian import parse_action
    from conquian.coocan.ids import ActionIds

    ids = ActionIds()
    assert len(ids) == 9222
    assert all(ids.index(ids.action(i)) == i for i in range(len(ids)))
    pinned = {"draw": 0, "take AC": 1, "discard KS": 104, "meld AC AC AD AD": 105,
              "meld AS 2S 3S 4S": 382, "meld 4S 5S 6S 7S 8S 9S 10S JS QS KS": 407,
              "meld AC @0": 408, "meld 10S JS QS KS @25": 9221}  # fmt: skip
    assert {text: ids.index(parse_action(text)) for text in pinned} == pinned
    for players in (2, 6):
        state = seeded(players, 31, turn_limit=200)
        rng = random.Random(31)
        while not state.is_over:
            legal = state.legal_actions()
            mask = ids.mask(legal)
            assert sum(mask) == len(legal)
            assert all(ids.action(ids.index(a)) == a for a in legal)
            melds = [a for a in legal if isinstance(a, Meld)]
            state = state.apply(rng.choice(melds or legal))
    with pytest.raises(ValueError, match="no id"):
        ids.index(parse_action("meld 5H 6H 7H"))


def test_c6_k8_samples_after_reshuffles_give_the_view_and_play_on() -> None:
    """C6, K8: for views after one or more reshuffles, with 2 to 6 players, a sample gives
    the same view back, its deck holds only cards the mixed pile may still hold, its
    player's draws are his own, and it plays on legally to the end of the deal."""
    sampled = 0
    for seed in range(12):
        rng = random.Random(seed)
        players = 2 + seed % 5
        state = draw_heavy(seeded(players, seed, dealer=seed % players), rng, 160 + 40 * seed)
        if state.reshuffles == 0:
            continue
        for p in range(players):
            view = state.view(p)
            assert view.draws == state.draws(p)
            sample = view.sample_state(random.Random(seed * 10 + p))
            assert sample.view(p) == view
            assert not Counter(sample.deck_cards) - Counter(view.deck_may_hold or view.unseen)
            line = draw_heavy(sample, rng, 300)
            assert line.is_over or line.legal_actions()
            sampled += 1
    assert sampled >= 20


def _other_hands_by_brute_force(
    at_reshuffle: CooCanState, state: CooCanState, me: int
) -> dict[tuple[Card, ...], float]:
    """The exact chance of each hand of the other player of a deal of two, by enumerating
    every order of the copies he could have drawn since the reshuffle (the two copies of a
    card told apart) and weighing each by the ways his plays could choose their copies (C6,
    K8): the definition of `CooCanView.sample_state`'s draw, computed the slow way."""
    q = 1 - me
    start = at_reshuffle.history
    mine = state.draws(me)[len(at_reshuffle.draws(me)) :]
    source = Counter(at_reshuffle.deck_cards) - Counter(mine)
    copies = [(c, i) for c, m in sorted(source.items()) for i in range(m)]
    his: list[tuple[str, tuple[Card, ...]]] = []
    walk = at_reshuffle
    for action in list(state.history)[len(start) :]:
        if walk.current_player == q:
            if str(action) == "draw":
                his.append(("draw", ()))
            elif str(action).startswith("take"):
                his.append(("take", (action.card,)))  # type: ignore[attr-defined]
            else:
                played = action.cards if isinstance(action, Meld) else (action.card,)  # type: ignore[attr-defined]
                his.append(("play", played))
        walk = walk.apply(action)
    draws = sum(1 for kind, _ in his if kind == "draw")
    chances: Counter[tuple[Card, ...]] = Counter()
    for picks in itertools.permutations(copies, draws):
        held = Counter(at_reshuffle.hand(q))
        weight, drawn = 1, iter(picks)
        for kind, cards_ in his:
            if kind == "draw":
                held[next(drawn)[0]] += 1
            elif kind == "take":
                held[cards_[0]] += 1
            else:
                for c, k in Counter(cards_).items():
                    weight *= math.comb(held[c], k)  # the copies he could have played
                    held[c] -= k
        if weight:
            chances[tuple(sorted(held.elements()))] += weight
    total = sum(chances.values())
    return {hand: w / total for hand, w in chances.items()}


def _two_after_a_reshuffle() -> tuple[CooCanState, CooCanState, int]:
    """A deal of two at its first reshuffle (K8), the same deal eight actions later, and the
    seat whose view is sampled (the one not to move at the reshuffle)."""
    rng = random.Random(0)
    state = seeded(2, 0)
    while state.reshuffles == 0:
        state = draw_heavy(state, rng, 1)
    at_reshuffle, me = state, 1 - state.current_player  # type: ignore[operator]
    return at_reshuffle, draw_heavy(state, rng, 8), me


def test_c6_k8_sample_of_a_deal_of_two_is_exact_after_a_reshuffle() -> None:
    """C6, K8: in a deal of two, after the discard pile is mixed into a new deck and the
    other player has drawn twice from it and discarded twice (cards he may have kept from
    before the reshuffle or drawn since), the other hand of the samples follows the exact
    posterior computed by brute force (chi-square, copies told apart, as documented)."""
    at_reshuffle, state, me = _two_after_a_reshuffle()
    exact = _other_hands_by_brute_force(at_reshuffle, state, me)
    start = Counter(at_reshuffle.hand(1 - me))
    since = state.history[len(at_reshuffle.history) :]
    discarded = [a.card for a in since if isinstance(a, Discard)]
    assert any(start[c] and at_reshuffle.deck_cards.count(c) for c in discarded)  # either way
    assert len(exact) > 20  # the two draws and the two discards leave many hands
    # the cells: which of the cards he held at the reshuffle or discarded since he holds
    marked = set(start) | set(discarded)

    def cell(hand: tuple[Card, ...]) -> tuple[Card, ...]:
        return tuple(c for c in hand if c in marked)

    cells: Counter[tuple[Card, ...]] = Counter()
    for hand, p in exact.items():
        cells[cell(hand)] += p  # type: ignore[assignment]
    assert len(cells) >= 3
    view = state.view(me)
    samples = 3000
    drawn = [tuple(view.sample_state(random.Random(k)).hand(1 - me)) for k in range(samples)]
    assert set(drawn) <= set(exact)
    seen = Counter(cell(hand) for hand in drawn)
    big = [h for h, p in cells.items() if p * samples >= 5]
    rest_p = 1 - sum(cells[h] for h in big)
    chi = sum((seen[h] - samples * cells[h]) ** 2 / (samples * cells[h]) for h in big)
    if rest_p * samples >= 5:
        rest = samples - sum(seen[h] for h in big)
        chi += (rest - samples * rest_p) ** 2 / (samples * rest_p)
    assert chi < _bound(len(big) + 1)


@pytest.mark.slow  # a long statistical test: CI runs it (.ci/run)
def test_c6_k8_the_exact_draw_over_the_whole_history_agrees_with_brute_force() -> None:
    """C6, K8: `draw_exact`, which reads the whole history (every player's places in every
    source), gives the other hand of the deal of two above the brute-force chances too;
    with three to five players before a reshuffle its hands and deck hold exactly the
    cards the view leaves unknown, in the right sizes, known cards included."""
    at_reshuffle, state, me = _two_after_a_reshuffle()
    exact = _other_hands_by_brute_force(at_reshuffle, state, me)
    marked = set(at_reshuffle.hand(1 - me)) | set(state.hand(1 - me))
    cells: Counter[tuple[Card, ...]] = Counter()
    for hand, p in exact.items():
        cells[tuple(c for c in hand if c in marked)] += p  # type: ignore[assignment]
    view = state.view(me)
    samples = 1500
    seen: Counter[tuple[Card, ...]] = Counter()
    for k in range(samples):
        drawn = draw_exact(view, random.Random(k))
        assert drawn is not None and drawn[0][me] == view.hand
        hand = drawn[0][1 - me]
        assert hand in exact
        seen[tuple(c for c in hand if c in marked)] += 1
    big = [h for h, p in cells.items() if p * samples >= 5]
    chi = sum((seen[h] - samples * cells[h]) ** 2 / (samples * cells[h]) for h in big)
    assert len(big) >= 2 and chi < _bound(len(big) + 1)
    for players in (3, 4, 5):
        line = draw_heavy(seeded(players, players), random.Random(players), 60)
        for p in range(players):
            view = line.view(p)
            drawn = draw_exact(view, random.Random(p))
            assert drawn is not None
            hands, deck = drawn
            assert hands[p] == view.hand and len(deck) == view.deck_size
            assert [len(h) for h in hands] == list(view.hand_sizes)
            assert all(not Counter(view.known[q]) - Counter(hands[q]) for q in range(players))
            hidden = Counter(deck)
            for q in range(players):
                if q != p:
                    hidden.update(Counter(hands[q]) - Counter(view.known[q]))
            assert hidden == Counter(view.unseen)
