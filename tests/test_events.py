"""What each seat saw happen, and what the player to move is asked (C6; DESIGN round 3)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conquian import (
    JOKER,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    IllegalActionError,
    NamedJoker,
    RandomAgent,
    State,
    new_game,
)
from conquian.actions import Discard, Draw, Meld
from conquian.events import DECISIONS, KINDS, Event, decision_of, events
from conquian.rules import Rules

GAMES: list[Rules] = [
    ConquianRules(),
    ConquianRules.pagat(pack="american", hand_size=9),
    CooncanRules.three_hand(jokers=1, turn_limit=40),
    CooncanRules.three_hand(stock="open", turn_limit=40),
    CooncanRules.double_pack(players=4, turn_limit=30),
    CooCanRules(players=3, turn_limit=40),
]


def _line(rules: Rules, seed: int, steps: int) -> list[State]:
    """The states of a deal played by random agents, the deal first (at most `steps` moves)."""
    state = new_game(rules, seed=seed, dealer=seed % rules.players)
    agent = RandomAgent(seed)
    line = [state]
    while not state.is_over and len(line) <= steps:
        state = state.apply(agent(state.view(state.current_player)))
        line.append(state)
    return line


def _physical(face: object) -> object:
    return JOKER if isinstance(face, NamedJoker) else face


def test_two_hand_pass_names_the_turned_card() -> None:
    """T6, C6: a passed card that is passed again is buried and the next card turned face up:
    everyone saw it, so the events name both."""
    state = new_game(ConquianRules(), seed=7)
    starter = state.offer  # type: ignore[attr-defined]
    state = state.apply("pass").apply("pass")
    seen = events(state.view(1))
    assert [e.kind for e in seen] == ["deal", "pass", "bury", "turn"]
    assert seen[1].cards == seen[2].cards == (starter,)
    assert seen[3].cards == (state.offer,) and seen[3].seat == 0  # type: ignore[attr-defined]
    assert [e.index for e in seen] == [0, 1, 2, 2]
    assert str(seen[1]) == f"You pass {starter} to seat 0."
    assert str(events(state.view(0))[1]) == f"Seat 1 passes {starter} to you."
    assert events(state.view(1), since=1) == seen[2:]
    assert events(state.view(1), since=2) == ()


def test_two_hand_the_next_card_is_turned_by_the_player_who_refused() -> None:
    """T6: when the pone refuses a card the dealer passed, the pone turns the next card and
    has the say to it: the event names him, not the dealer."""
    state = new_game(ConquianRules(), seed=7).apply("pass").apply("pass")  # dealer turns
    state = state.apply("pass")  # the dealer passes the card he turned to the pone
    state = state.apply("pass")  # the pone refuses it: buried, and he turns the next
    assert state.current_player == 1  # type: ignore[attr-defined]
    turned = events(state.view(0))[-1]
    assert (turned.kind, turned.seat) == ("turn", 1)
    assert str(turned) == f"Seat 1 turns {state.offer} from the stock."  # type: ignore[attr-defined]


def test_event_json_carries_its_line() -> None:
    """An event's JSON has its kind, seat, cards and English line."""
    state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
    data = [json.loads(e.to_json()) for e in events(state.view(0))]
    assert data[1]["kind"] == "take" and data[1]["cards"] == ["KD"] and data[1]["seat"] == 1
    assert data[2]["text"] == "Seat 1 melds JD QD KD." and data[2]["index"] == 2


def test_since_is_checked() -> None:
    """`since` outside the history is refused."""
    view = new_game(ConquianRules(), seed=1).view(0)
    with pytest.raises(ValueError, match="since"):
        events(view, since=1)
    with pytest.raises(ValueError, match="since"):
        events(view, since=-1)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(GAMES))), st.integers(0, 10_000), st.integers(1, 120))
def test_events_name_only_known_cards_and_agree_over_time(g: int, seed: int, steps: int) -> None:
    """C6: every card an event names was known to its viewer when it happened (some copy of
    it not in his `unseen`), and the story told by a later view starts with the story told
    by an earlier one (nothing in it depends on the deal drawn)."""
    rules = GAMES[g]
    line = _line(rules, seed, steps)
    for p in range(rules.players):
        views = [s.view(p) for s in line]
        story = events(views[-1])
        pack = Counter(rules.pack_cards())
        for event in story:
            assert event.kind in KINDS and event.viewer == p
            unseen = Counter(views[event.index].unseen)
            for face in event.cards:
                c = _physical(face)
                assert unseen[c] < pack[c], f"{event} names {face}, unknown to seat {p}"
        k = len(line) // 2
        earlier = events(views[k])
        assert story[: len(earlier)] == earlier
        assert all(e.index <= k for e in earlier)
        assert events(views[-1], since=k) == tuple(e for e in story if e.index > k)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(GAMES))), st.integers(0, 10_000), st.integers(1, 80), st.data())
def test_deals_differing_in_hidden_cards_tell_the_same_events(
    g: int, seed: int, steps: int, data: st.DataObject
) -> None:
    """Two deals that differ only in cards a seat cannot see, with the same actions, give that
    seat the same events (C6), in every game."""
    rules = GAMES[g]
    line = _line(rules, seed, steps)
    state = line[-1]
    p = data.draw(st.integers(0, rules.players - 1))
    named = {_physical(f) for a in state.history for f in str(a).split()[1:]}
    unseen, pack = Counter(state.view(p).unseen), Counter(rules.pack_cards())
    hidden = sorted(  # every copy unseen (the double pack has two of each card)
        {c for c in unseen if unseen[c] == pack[c] and str(c) not in {str(n) for n in named}}
    )
    assume(len(hidden) >= 2)
    a, b = data.draw(st.sampled_from(hidden)), data.draw(st.sampled_from(hidden))
    assume(a != b)
    deck = list(state.deck)  # type: ignore[attr-defined]
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    other = new_game(rules, deck=deck, dealer=state.dealer)  # type: ignore[attr-defined]
    try:
        for action in state.history:
            other = other.apply(action)
    except IllegalActionError:
        assume(False)  # a hidden card changed what could be done: not such a pair
    assert other != state
    assert events(other.view(p)) == events(state.view(p))


@settings(deadline=None)
@given(st.sampled_from(range(len(GAMES))), st.integers(0, 10_000), st.integers(0, 60))
def test_decision_of_state_and_every_view_agree(g: int, seed: int, steps: int) -> None:
    """DESIGN: the decision is one of the fixed set, None once over, and every seat's view
    says the same as the state; the offer game says or melds, the rummy games draw or play."""
    rules = GAMES[g]
    state = _line(rules, seed, steps)[-1]
    decision = decision_of(state)
    if state.is_over:
        assert decision is None
        return
    assert decision in DECISIONS
    assert all(decision_of(state.view(p)) == decision for p in range(rules.players))
    if isinstance(rules, ConquianRules):
        assert decision == ("say" if state.offer is not None else "meld")  # type: ignore[attr-defined]
    else:
        kinds = {type(a).__name__ for a in state.legal_actions()}
        assert (decision == "draw") == ("Draw" in kinds)


def test_cooncan_draw_is_never_named_and_the_end_shows_hands() -> None:
    """C6: a card drawn from the hidden pack is "a card", even to its drawer; at the end
    every hand is shown (Foster law 23)."""
    line = _line(CooncanRules.three_hand(turn_limit=20), 4, 400)
    story = events(line[-1].view(0))
    draws = [e for e in story if e.kind == "draw"]
    assert draws and all(e.cards == () for e in draws)
    assert str(draws[0]).endswith("a card.")
    end = [e for e in story if e.kind in ("win", "abandoned")]
    final = line[-1]
    shown = [e.seat for e in story if e.kind == "show"]
    assert len(end) == 1 and shown == [q for q in range(3) if final.hand(q)]
    assert all(e.cards == final.hand(e.seat) for e in story if e.kind == "show")


def test_view_events_and_decision_are_the_functions() -> None:
    """`view.events(since)` tells the story of `events`, and `view.decision` and
    `state.decision` are `decision_of`."""
    state = new_game(ConquianRules(), seed=7).apply("pass")
    view = state.view(0)
    assert view.events(0) == events(view, 0) and view.events(1) == events(view, 1)
    assert view.decision == decision_of(view) == state.decision == "say"


def test_event_text_in_one_voice() -> None:
    """Events speak to their viewer as "you", of the others by seat."""
    e = Event("force", seat=0, cards=(JOKER,), index=5, other=1, meld=2, viewer=1)
    assert str(e) == "Seat 0 forces JK onto your meld @2."
    assert str(Event("tableau", None, index=9)) == "The stock is exhausted: the deal is a tableau."


def _coocan_line(players: int, seed: int, steps: int) -> list[State]:
    """A Coo-Can deal played mostly by drawing and discarding, so that the deck runs out and
    the discard pile is mixed into a new deck (K8); a meld when one is legal, half the time."""
    rng = random.Random(seed)
    rules = CooCanRules(players=players)
    state = new_game(rules, seed=seed, dealer=seed % players)
    line = [state]
    while not state.is_over and len(line) <= steps:
        legal = state.legal_actions()
        melds = [a for a in legal if isinstance(a, Meld)]
        plain = [a for a in legal if isinstance(a, (Draw, Discard))]
        state = state.apply(rng.choice(melds if melds and rng.random() < 0.5 else plain))
        line.append(state)
    return line


def test_coocan_story_names_own_draws_and_tells_the_reshuffle() -> None:
    """C6, K8: in Coo-Can a card the viewer drew is named (his `draws`), another player's
    draw is "a card"; each reshuffle is told once, after the discard that emptied the
    deck's last turn, with the number of cards mixed (the deck's size after it)."""
    line = _coocan_line(2, 11, 400)
    final = line[-1]
    assert final.reshuffles >= 1  # type: ignore[attr-defined]
    for p in range(2):
        story = events(final.view(p))
        draws = [e for e in story if e.kind == "draw"]
        assert [e.cards[0] for e in draws if e.seat == p] == list(final.draws(p))  # type: ignore[attr-defined]
        assert all(e.cards == () for e in draws if e.seat != p)
        assert str(next(e for e in draws if e.seat != p)) == f"Seat {1 - p} draws a card."
        mixed = [e for e in story if e.kind == "reshuffle"]
        assert len(mixed) == final.reshuffles  # type: ignore[attr-defined]
        for e in mixed:
            after = line[e.index]
            assert after.reshuffles > line[e.index - 1].reshuffles  # type: ignore[attr-defined]
            assert e.count == after.deck_size == len(after.view(p).deck_may_hold or ())  # type: ignore[attr-defined]
            assert str(e) == f"The discard pile ({e.count} cards) is mixed into a new deck."
            assert json.loads(e.to_json())["count"] == e.count


def test_coocan_story_declares_four_and_one_and_ends_with_the_payments() -> None:
    """K6: a hand left with four cards or one at the end of a turn is declared, once until
    it changes; K7, K9: the winner, the hands shown and what each loser pays him."""
    for seed in range(40):
        line = _coocan_line(2, seed, 2000)
        if line[-1].result is not None and line[-1].result.winner is not None:
            break
    final = line[-1]
    result = final.result
    assert result is not None and result.winner is not None
    story = events(final.view(0))
    for e in (e for e in story if e.kind == "declare"):
        assert e.count in (4, 1) and len(line[e.index].hand(e.seat)) == e.count
        assert str(e).endswith("four cards." if e.count == 4 else "one card.")
    tail = story[-3:]
    assert [e.kind for e in tail] == ["win", "show", "pay"]
    loser = 1 - result.winner
    assert tail[1].cards == final.hand(loser)
    assert tail[2].seat == loser and tail[2].other == result.winner
    assert tail[2].count == -result.payments[loser]
    assert str(tail[2]).startswith(f"Seat {loser} pays you" if result.winner == 0 else "You pay")


def test_coocan_event_lines() -> None:
    """K6, K8, K9: the Coo-Can events in one voice."""
    assert str(Event("declare", 2, (), 7, viewer=0, count=4)) == "Seat 2 declares four cards."
    assert str(Event("declare", 0, (), 7, viewer=0, count=1)) == "You declare one card."
    assert (
        str(Event("cooch", 1, (), 9, viewer=0)) == "Seat 1 melds a Cooch: every loser pays double."
    )
    assert str(Event("pay", 1, (), 9, other=0, viewer=0, count=150)) == "Seat 1 pays you 150."
    assert "count" not in json.loads(Event("take", 1, (), 3).to_json())
