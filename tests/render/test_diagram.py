"""`str(state)` and `str(view)`: the text diagram of a position (`conquian.render.text`)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import (
    ConquianRules,
    CooncanRules,
    PlayerView,
    Rules,
    State,
    cards,
    joker,
    new_game,
)
from conquian.agents import HeuristicAgent, play
from conquian.render.text import card_text, cards_text, diagram, status

GAMES: tuple[Rules, ...] = (
    ConquianRules(),
    ConquianRules(pack="american", hand_size=9),
    CooncanRules.three_hand(turn_limit=60),
    CooncanRules.double_pack(players=5, turn_limit=60),
)


def walk(rules: Rules, seed: int, steps: int) -> State:
    """The state after up to `steps` random legal actions from a seeded deal."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=rng.randrange(rules.players))
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


positions = st.builds(walk, st.sampled_from(GAMES), st.integers(0, 10_000), st.integers(0, 80))


def words(text: str) -> list[str]:
    return text.split()


@settings(max_examples=40)
@given(positions)
def test_a_state_diagram_shows_every_hand_and_every_meld(state: State) -> None:
    """Every hand of the deal and every combination of the table is written, with its @N."""
    text = str(state)
    lines = text.splitlines()
    for seat in range(state.rules.players):
        (line,) = [ln for ln in lines if ln.startswith(f"seat {seat}")]
        hand = state.hand(seat)
        assert f"({len(hand)} card" in line
        if hand:
            assert " ".join(map(str, hand)) in line
    for i, combo in enumerate(state.table):
        assert f"@{i} seat {combo.owner}: {cards_text(combo.cards)}" in text
    assert len(lines) == len(text.rstrip("\n").splitlines())  # no trailing blank lines
    assert all(ln == ln.rstrip() for ln in lines)


@settings(max_examples=40)
@given(positions, st.data())
def test_a_view_diagram_shows_no_hidden_card(state: State, data: st.DataObject) -> None:
    """A view's diagram holds the player's hand and no card of another hand he cannot know (C6)."""
    player = data.draw(st.integers(0, state.rules.players - 1))
    view = state.view(player)
    text = str(view)
    assert text.splitlines()[1] == f"seat {player}'s view"
    own = [ln for ln in text.splitlines() if ln.startswith(f"seat {player} ")]
    assert own and (not view.hand or " ".join(map(str, view.hand)) in own[0])
    for seat in range(state.rules.players):
        if seat == player:
            continue
        (line,) = [ln for ln in text.splitlines() if ln.startswith(f"seat {seat} ")]
        known = set(map(str, getattr(view, "known", [()] * 9)[seat]))
        if getattr(view, "hands", None) is not None:  # C6 "Showing": the deal is over
            known = {str(c) for c in state.hand(seat)}
        shown = {w.rstrip(",") for w in words(line)} & {str(c) for c in state.hand(seat)}
        assert shown <= known, f"{shown - known} of seat {seat} in player {player}'s view"
        assert f"{view.hand_sizes[seat]} card" in line


def test_the_two_hand_diagram_names_the_offer_its_origin_and_the_stock() -> None:
    """T11: the starter is on offer to the pone, turned; the stock is the face-down pile."""
    state = new_game(ConquianRules(), seed=3, dealer=1)
    text = str(state)
    assert f"offer     {state.offer} to seat 0 (turned for seat 0, T11)" in text
    assert f"stock     {state.stock_size} cards face down" in text
    after = state.apply("pass").apply("pass")  # both pass: the dealer turns the next card
    assert "(turned by seat 1)" in str(after) and "buried    3S" in str(after)
    taken = new_game(ConquianRules(), seed=5, dealer=1).apply("take KD")
    assert "pending   KD  (to meld this turn)" in str(taken)


def test_the_cooncan_diagram_tells_the_stock_from_the_pack() -> None:
    """Foster's stock is the face-up discards (top last); the pack is the face-down pile."""
    state = new_game(CooncanRules.three_hand(), seed=3, dealer=2)
    text = str(state)
    assert f"stock     {cards_text(state.stock)}  (face up, top last)" in text
    assert f"pack      {state.pack_size} cards face down" in text
    assert "to draw from the pack or take from the stock" in text
    assert "to meld, force or discard" in str(state.apply("draw"))


def test_a_finished_deal_shows_the_result() -> None:
    """The last line of a finished deal is its result, with the payments."""
    final = play([HeuristicAgent(), HeuristicAgent()], ConquianRules(), seed=1, dealer=1)
    assert final.result is not None
    last = str(final).splitlines()[-1]
    pays = " ".join(f"{p:+d}" for p in final.result.payments)
    assert last.startswith("result") and pays in last
    assert last == "result    " + status(final)


def test_symbols_and_names() -> None:
    """symbols=True writes suit symbols; names label the seats."""
    state = new_game(ConquianRules(), seed=3, dealer=1)
    text = diagram(state, symbols=True, names=("you", "bot"))
    assert re.search(r"^you +7♣ A♦", text, re.M) and re.search(r"^bot +2♣", text, re.M)
    assert "offer     3♠ to you (turned for you, T11)" in text
    assert "S " not in text.split("\n", 1)[1]


def test_card_text_marks_a_shifted_joker() -> None:
    """A joker shifted once (M9) is written with a trailing *."""
    assert card_text(joker("6H", shifted=True)) == "JK=6H*"
    assert card_text(joker("6H")) == "JK=6H"
    assert cards_text(cards("10S QH"), symbols=True) == "10♠ Q♥"


def test_str_and_repr_differ_and_repr_is_one_line() -> None:
    """str is the diagram, repr stays one line."""
    for rules in GAMES:
        state = new_game(rules, seed=1)
        for thing in (state, state.view(0)):
            assert isinstance(thing, State | PlayerView)
            assert str(thing) == diagram(thing)
            assert "\n" in str(thing) and "\n" not in repr(thing)


def test_a_view_that_holds_every_hand_at_the_end_shows_them() -> None:
    """C6 "Showing": a finished deal's view that carries `hands` shows every hand; one that
    does not, or a deal still going, shows only the player's own."""
    final = play([HeuristicAgent(), HeuristicAgent()], ConquianRules(), seed=1, dealer=1)
    view = final.view(1)
    fields = {name: getattr(view, name) for name in dir(view) if not name.startswith("_")}
    hands = (final.hand(0), final.hand(1))
    showing = SimpleNamespace(**{**fields, "hands": hands})
    text = diagram(showing)
    assert f"seat 0    {cards_text(hands[0])}  ({len(hands[0])} cards" in text
    hidden = SimpleNamespace(**{**fields, "hands": None})
    assert f"seat 0    {len(hands[0])} cards" in diagram(hidden)
    going = SimpleNamespace(**{**fields, "result": None, "current_player": 0, "hands": hands})
    assert f"seat 0    {len(hands[0])} cards" in diagram(going)
