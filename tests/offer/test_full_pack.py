"""Conquian with the full pack (RULES.md T20): 52 cards A 2 … 10 J Q K, the ace low only.

Hoyle 1897 ("Cards"): "Some persons play with the full pack, but it spoils the
game; as it is then possible to win on a sequence of a single suit … The Ace is
not in sequence with the King." The encyclopedia: "No cards are removed".
Everything else is T1–T19, so the rules are tested here where the pack changes
them (the deal, the order of sequences, the tableau, one long suit winning) and
in the pieces around the engine (registry, diagrams, JSON, CLI, bots, samples).
The engine's legal actions under the full pack are checked against the options
oracle in ``tests/offer/test_seats.py`` (preset ``full-pack``, 2 to 4 seats) and
``tests/properties/test_offer_options.py``.
"""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

from conquian import (
    ConquianRules,
    GameRecord,
    HeuristicAgent,
    Outcome,
    PlayerView,
    RulesError,
    State,
    Suit,
    card,
    cards,
    make_pack,
    new_game,
)
from conquian.agents import HandReader, ISMCTSAgent, play
from conquian.cli import main
from conquian.combos.core import Order, build, explain, fitting
from conquian.encoding import ActionSpace, observation_layout
from conquian.offer import ConquianState
from conquian.offer.dealing import deal_positions
from conquian.offer.tables import sequence_order
from conquian.render.svg import render
from test_offer import assert_illegal, deal_game, texts
from test_offer import play as play_actions

FULL = ConquianRules(pack="standard")
PONE = 1


def _dealt(players: int, seed: int = 3) -> ConquianState:
    state = new_game(ConquianRules(pack="standard", players=players), seed=seed)
    assert isinstance(state, ConquianState)
    return state


# -- the pack and the deal (T20 with T1, T16) ------------------------------------------------


def test_t20_the_full_pack_is_52_cards_ace_to_king() -> None:
    """T20 (encyclopedia: "No cards are removed"): 52 cards, each once, A 2 … 10 J Q K."""
    pack = FULL.pack_cards()
    assert pack == make_pack("standard") and len(set(pack)) == 52
    assert sorted({c.rank for c in pack}) == list(range(1, 14))
    assert FULL.pack == FULL.pack_name == "standard" and FULL.win_size == 11
    assert repr(FULL).startswith("ConquianRules(pack='standard', hand_size=10,")


def test_t20_an_unknown_pack_is_a_rules_error_naming_the_packs() -> None:
    """T1, T20: a pack that is no pack name is refused, naming the option and the values."""
    with pytest.raises(RulesError, match=r"^pack must be one of spanish, american, standard "):
        ConquianRules(pack="full")  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "hand", "stock"), [(2, 10, 31), (3, 8, 27), (4, 7, 23)])
def test_t20_deal_sizes(players: int, hand: int, stock: int) -> None:
    """T20 with T1 and T16: two players get ten each and 31 cards stay in the stock after
    the starter; three get eight (stock 27), four seven (stock 23). The deal goes two at
    a time from the pone (the dealer's left) round to the dealer, the next card turned."""
    rules = ConquianRules(pack="standard", players=players)
    deck = rules.pack_cards()
    state = new_game(rules, deck=deck, dealer=players - 1)
    assert isinstance(state, ConquianState)
    getters, starter = deal_positions(hand, players)
    for seat in range(players):
        assert len(state.hand(seat)) == hand
        assert state.hand(seat) == tuple(sorted(getters[seat](deck)))  # seat 0 is the pone
    assert state.offer == deck[starter] and state.offer_origin == "turned"
    assert state.stock_size == stock == 52 - players * hand - 1


# -- sequences: the ace low only (T20, C4) ---------------------------------------------------


def test_t20_queen_king_ace_is_not_a_sequence() -> None:
    """T20 (Hoyle 1897 "Cards": "The Ace is not in sequence with the King"): Q K A of one
    suit is refused, the error naming T20; A 2 3 of a suit is a sequence."""
    state = deal_game(
        FULL, "QH KH AH AS 2S 3S 5C 7D 9C JD", "2C 4C 6C 8C 10C 3D 5D 9D 4H 6H", "10S"
    )
    assert "meld AS 2S 3S" in texts(state)
    assert "meld AH QH KH" not in texts(state)
    assert_illegal(state, "meld QH KH AH", "T20", "the ace is low only")
    state = play_actions(state, "meld AS 2S 3S")
    assert [str(m) for m in state.table] == ["AS 2S 3S"]


def test_t20_king_ace_two_is_not_a_sequence_either() -> None:
    """T20: the ace does not turn the corner: K A 2 is no sequence (there is no ace high)."""
    state = deal_game(FULL, "KD AD 2D 4S 6S 8S 5C 7C 9C JC", "2C 4C 6C 8C 10C 3D 5D 9D 4H 6H", "QS")
    assert not any(t.startswith("meld") for t in texts(state))
    assert_illegal(state, "meld KD AD 2D", "T20", "in the full pack the ace is low only")


def test_t20_eight_nine_ten_jack_of_a_suit_is_a_sequence() -> None:
    """T20: in the full pack 8, 9 and 10 sit between 7 and J, so 8 9 10 J is a sequence and
    6 7 J (a sequence of the Spanish pack, Hoyle 1897) is not."""
    state = deal_game(
        FULL, "8S 9S 10S JS 6H 7H JH 2C 4D QC", "AC 3C 5C 7C 9C 2D 6D 8D 10D KD", "QS"
    )
    assert "meld 8S 9S 10S JS" in texts(state) and "meld 8S 9S 10S" in texts(state)
    assert_illegal(state, "meld 6H 7H JH", "C4", "8H to 10H are missing")
    state = play_actions(state, "take QS")
    assert "meld 8S 9S 10S JS QS" in texts(state) and "meld 10S JS QS" in texts(state)
    state = play_actions(state, "meld 8S 9S 10S JS QS")
    assert [str(m) for m in state.table] == ["8S 9S 10S JS QS"]


def test_t20_order_has_the_ace_low_only_and_cooncan_keeps_its_high_ace() -> None:
    """T20 and Foster's law 16: Conquian's full pack plays the order ``full`` (ace low only);
    Cooncan's 52-card order still lets the ace go high, above the king."""
    order = sequence_order("standard")
    assert order is Order.of("full") and not order.ace_high and order.longest == 13
    assert build(cards("QD KD AD"), order) is None
    assert build(cards("QD KD AD"), Order.of("standard")) is not None  # Cooncan unchanged
    assert explain(cards("QD KD AD"), order).endswith("the ace is low only (T20)")
    assert fitting(build(cards("JH QH KH"), order), order) == (card("10H"),)  # type: ignore[arg-type]
    assert fitting(build(cards("AH 2H 3H"), order), order) == (card("4H"),)  # type: ignore[arg-type]
    assert FULL.pack_cards() == tuple(order.card_at(p, s) for s in Suit for p in range(13))


def test_t20_a_king_is_not_forced_onto_ace_two_three() -> None:
    """T20 with T10: a card fits only where it makes a larger combination, so a king cannot
    be forced onto the opponent's A 2 3 of its suit."""
    state = deal_game(FULL, "AH 2H 3H 4S 6S 8S 5C 7C 9C JC", "2C 4C 6C 8C 10C 3D 5D 9D 4D 6D", "KH")
    state = play_actions(state, "meld AH 2H 3H", "pass")  # the pone passes KH to the dealer
    assert state.current_player == 0 and state.offer == card("KH")
    assert not any(t.startswith("force") for t in texts(state))
    assert_illegal(state, "force KH @0", "T10")


# -- one long suit wins alone (Hoyle's warning) ----------------------------------------------


def test_t20_a_single_suit_wins_alone() -> None:
    """T20 (Hoyle 1897 "Cards": the full pack "spoils the game; as it is then possible to win
    on a sequence of a single suit"): ten hearts and the queen turned make eleven cards in
    one sequence, which wins (T2). A 40-card suit has only ten cards, one short of eleven."""
    state = deal_game(
        FULL, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH", "AC 3C 5C 7C 9C 2D 4D 6D 8D 10D", "QH"
    )
    state = play_actions(state, "take QH", "meld 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH")
    assert state.result is not None and state.result.outcome is Outcome.WIN
    assert state.result.winner == PONE and state.result.payments == (-1, 1)
    for pack in ("spanish", "american"):
        rules = ConquianRules(pack=pack)  # type: ignore[arg-type]
        hearts = [c for c in rules.pack_cards() if c.suit is card("AH").suit]
        assert len(hearts) < rules.win_size


def test_t20_max_sequence_still_applies() -> None:
    """T20 with T14: under ``pagat(pack="standard")`` a sequence holds eight cards at most,
    so a single suit no longer wins in one sequence."""
    rules = ConquianRules.pagat(pack="standard")
    state = deal_game(
        rules, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH", "AC 3C 5C 7C 9C 2D 4D 6D 8D 10D", "QH"
    )
    state = play_actions(state, "take QH")
    assert "meld 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH" not in texts(state)
    assert_illegal(state, "meld 2H 3H 4H 5H 6H 7H 8H 9H 10H", "T14", "at most 8 cards")
    state = play_actions(state, "meld 2H 3H 4H", "meld 5H 6H 7H 8H 9H 10H JH QH")
    assert state.result is not None and state.result.winner == PONE  # two sequences of eight


# -- the tableau (T12) with 52 cards ---------------------------------------------------------


def test_t12_tableau_with_the_full_pack() -> None:
    """T12 with T20: refusing every card buries the starter and the 31 cards of the stock;
    the deal ends in a tableau when the stock is empty, nobody paid (T13)."""
    state = deal_game(
        FULL, "AC 5C 9C KC 2D 6D 10D 3H 7H JH", "AD 5D 9D KD 2H 6H 10H 3S 7S JS", "QC"
    )
    count = 0
    while state.result is None:
        state = state.apply("pass")
        count += 1
    assert state.result.outcome is Outcome.TABLEAU and state.result.payments == (0, 0)
    assert state.stock_size == 0 and len(state.buried) == 32 and count == 64
    assert_illegal(state, "pass", "T12", "tableau")


# -- around the engine: registry, diagrams, JSON, encodings ------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_text_diagram_and_svg_name_the_full_pack(players: int) -> None:
    """The diagram's first line names the pack and its 52 cards; the SVG draws every hand."""
    state = _dealt(players)
    head = "Two-hand Conquian" if players == 2 else f"Conquian for {players}"
    assert str(state).splitlines()[0].startswith(f"{head} (standard pack, 52 cards)")
    picture = render(state)
    assert all(f"seat {seat}: " in picture for seat in range(players))
    assert "(this view):" in render(state.view(0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_records_positions_and_views_of_the_full_pack_round_trip(players: int) -> None:
    """A record writes ``"pack": "standard"`` and replays; a position and each view read back
    equal (C6)."""
    state: State = _dealt(players, seed=6)
    rng = random.Random(6)
    for _ in range(30):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    text = GameRecord.from_state(state).to_json()
    assert json.loads(text)["rules"]["pack"] == "standard"
    assert len(json.loads(text)["deck"]) == 52
    assert GameRecord.from_json(text).replay() == state
    assert State.from_json(state.to_json()) == state
    for seat in range(players):
        view = state.view(seat)
        assert PlayerView.from_json(view.to_json()) == view


@pytest.mark.parametrize("players", [2, 4])
def test_c6_a_sample_of_a_full_pack_view_gives_that_view(players: int) -> None:
    """C6: a sampled deal has the viewer's view; at the deal the pone cannot see 52 less his
    hand and the starter."""
    state = _dealt(players, seed=9)
    view = state.view(0)
    assert len(view.unseen) == 52 - len(view.hand) - 1
    for seed in range(3):
        assert view.sample_state(random.Random(seed)).view(0) == view


def test_observations_and_action_ids_cover_the_full_pack() -> None:
    """Card planes have 52 entries; every legal action of a random deal has an id that gives
    it back; no id is a meld of a queen, king and ace of one suit (T20)."""
    layout = dict(observation_layout(FULL))
    assert layout["hand"] == 52
    space = ActionSpace(FULL)
    assert space.families[1] == ("take", 1, 52)
    with pytest.raises(ValueError, match="no deal under these rules offers"):
        space.index("meld QH KH AH")
    state: State = _dealt(2, seed=4)
    rng = random.Random(4)
    while not state.is_over:
        view = state.view(state.current_player)  # type: ignore[arg-type]
        assert len(view.observation()) == sum(n for _, n in observation_layout(FULL))
        for action in view.legal_actions:
            assert space.action(space.index(action)) == action
        state = state.apply(rng.choice(state.legal_actions()))


# -- the command line and the bots -------------------------------------------------------------


def test_cli_play_with_the_full_pack(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``conquian play --option pack=standard`` deals the full pack (T20)."""
    monkeypatch.chdir(tmp_path)  # quit saves the game in the current directory
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status = main(["play", "--option", "pack=standard", "--seed", "3"])
    out = capsys.readouterr().out
    assert status == 0 and "Two-hand Conquian (standard pack, 52 cards)" in out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_bots_play_the_full_pack_to_the_end(players: int) -> None:
    """n heuristic bots finish deals of the full pack: a win paid by each loser, or a
    tableau."""
    rules = ConquianRules(pack="standard", players=players)
    for seed in range(3):
        result = play([HeuristicAgent() for _ in range(players)], rules, seed=seed).result
        assert result is not None and len(result.payments) == players
        if result.winner is not None:
            assert result.payments[result.winner] == players - 1  # T13, T19


def test_search_and_reader_play_the_full_pack() -> None:
    """The searching bot reads a two-seat deal of the full pack and plays legal actions."""
    state: State = _dealt(2, seed=7).apply("pass")
    assert HandReader.declines(state.view(1)) is None
    agent = ISMCTSAgent(seed=1, iterations=4, reading=0.1, rollout_limit=60)
    for _ in range(6):
        if state.is_over:
            break
        view = state.view(state.current_player)  # type: ignore[arg-type]
        action = agent(view)
        assert action in view.legal_actions
        state = state.apply(action)
