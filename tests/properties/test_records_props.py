"""Properties of records, positions and views over random legal play (RULES.md C6, C7; DESIGN.md).

Each example draws the rules (every game and option; Cooncan always with a
`turn_limit` so that deals end), a deal seed and a seed for a random player,
plays the deal choosing among the legal actions, and checks a property at the
states reached. The ``ci`` hypothesis profile plays more deals.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import assume, event, given, note
from hypothesis import strategies as st

from conquian import (
    Card,
    ConquianState,
    ConquianView,
    CooncanRules,
    CooncanState,
    CooncanView,
    Force,
    IllegalActionError,
    Meld,
    PlayerView,
    Rules,
    State,
    card,
    new_game,
)
from conquian.formats.records import GameRecord
from strategies import conquian_presets, conquian_rules_with

seeds = st.integers(0, 2**32 - 1)
eagerness = st.sampled_from([0.0, 0.6, 0.95])


def two_hand_rules() -> st.SearchStrategy[Rules]:
    """Every combination of the two-hand options, and the three presets."""
    return conquian_rules_with([None, 3, 5, 8]) | conquian_presets


def cooncan_rules(turn_limit: st.SearchStrategy[int]) -> st.SearchStrategy[Rules]:
    """Every Cooncan variant and option, with a turn limit drawn from `turn_limit`."""
    bonus = st.sampled_from([None, 25, 50])
    three = st.builds(
        CooncanRules.three_hand,
        players=st.sampled_from([2, 3]),
        jokers=st.sampled_from([0, 1]),
        stock=st.sampled_from(["closed", "open"]),
        splash_bonus=bonus,
        turn_limit=turn_limit,
    )
    double = st.builds(
        CooncanRules.double_pack,
        players=st.integers(2, 6),
        splash_bonus=bonus,
        turn_limit=turn_limit,
    )
    return three | double


def any_rules(turn_limit: st.SearchStrategy[int]) -> st.SearchStrategy[Rules]:
    """Rules of any of the three games."""
    return two_hand_rules() | cooncan_rules(turn_limit)


def random_play(rules: Rules, seed: int, policy: int, eager: float) -> list[State]:
    """Every state of a deal from `seed` dealt by a random dealer, played by a random player."""
    rng = random.Random(policy)
    state = new_game(rules, seed=seed, dealer=rng.randrange(rules.players))
    states = [state]
    while not state.is_over:
        actions = state.legal_actions()
        lays = [a for a in actions if isinstance(a, (Meld, Force))]
        pool = lays if lays and rng.random() < eager else actions
        state = state.apply(pool[int(rng.random() * len(pool))])
        states.append(state)
        assert len(states) < 20_000
    return states


# -- round trips ---------------------------------------------------------------------------------


@given(any_rules(st.integers(1, 150)), seeds, seeds, eagerness, st.data())
def test_record_round_trip(
    rules: Rules, seed: int, policy: int, eager: float, data: st.DataObject
) -> None:
    """C7: the record of a state (finished or not) replays to an equal state; text is stable."""
    states = random_play(rules, seed, policy, eager)
    for state in (states[-1], data.draw(st.sampled_from(states), label="state")):
        names = [f"player {p}" for p in range(rules.players)]
        text = GameRecord.from_state(
            state, player_names=names, metadata={"seed": str(seed)}
        ).to_json()
        record = GameRecord.from_json(text)
        assert record.replay() == state
        assert record.to_json() == text
        assert GameRecord.from_json(text.encode()).replay() == state


@given(
    two_hand_rules() | cooncan_rules(st.integers(1, 4)),
    seeds,
    seeds,
    eagerness,
)
def test_position_round_trip_at_every_state(
    rules: Rules, seed: int, policy: int, eager: float
) -> None:
    """C7, E3: State.from_json(s.to_json()) == s at every state reached, mid-turn included."""
    states = random_play(rules, seed, policy, eager)
    note(f"{len(states)} states")
    for state in states:
        text = state.to_json()
        again = State.from_json(text)
        assert again == state
        assert again.to_json() == text


@given(cooncan_rules(st.integers(20, 150)), seeds, seeds, eagerness, st.data())
def test_position_round_trip_in_long_cooncan_deals(
    rules: Rules, seed: int, policy: int, eager: float, data: st.DataObject
) -> None:
    """C7, M11: positions of long deals (turned stock, shifted jokers, results) round-trip."""
    states = random_play(rules, seed, policy, eager)
    picks = data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=3), label="states")
    for state in [*picks, states[-1]]:
        text = state.to_json()
        if '"pack_known": true' in text:
            event("a position with the stock turned into the pack (M11)")
        if '"shifted"' in text:
            event("a position with a shifted joker (M9)")
        assert State.from_json(text) == state


# -- information hiding (C6) ---------------------------------------------------------------------


def _visible_cards(view: PlayerView) -> Counter[Card]:
    """Every card the view shows somewhere (its own hand, table, offer, stock, known cards …)."""
    seen: Counter[Card] = Counter(view.hand)
    for combo in view.table:
        seen.update(c for c in combo.cards if isinstance(c, Card))
    for action in view.history:
        seen.update(_action_cards(str(action)))
    if isinstance(view, ConquianView):
        seen.update(view.pending)
        seen.update(view.buried)
        if view.offer is not None:
            seen[view.offer] += 1
    else:
        assert isinstance(view, CooncanView)
        seen.update(view.stock)
        for known in view.known:
            seen.update(known)
        seen.update(view.known_pack or ())
        for hand in view.hands or ():  # every hand, once the deal is over (C6 "Showing")
            seen.update(hand)
    return seen


def _action_cards(text: str) -> list[Card]:
    """The natural cards an action or card text names (a named joker ``JK=4D`` is no 4D)."""
    out = []
    for token in text.split():
        if token.startswith("JK="):
            continue
        try:
            out.append(card(token))
        except ValueError:
            continue
    return out


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    return []


@given(any_rules(st.integers(1, 40)), seeds, seeds, eagerness, st.data())
def test_view_json_names_no_card_the_player_cannot_place(
    rules: Rules, seed: int, policy: int, eager: float, data: st.DataObject
) -> None:
    """C6: scanning the tokens of view(p).to_json() finds no card of the other hands' unknown
    part or of the hidden pack or stock; the deck, the stock order and unseen are not there."""
    states = random_play(rules, seed, policy, eager)
    for state in data.draw(st.lists(st.sampled_from(states), min_size=1, max_size=4)):
        for p in range(rules.players):
            view = state.view(p)
            text = view.to_json()
            parsed = json.loads(text)
            assert not {"deck", "unseen", "pack", "seed"} & set(parsed)
            if isinstance(state, ConquianState):
                assert "stock" not in parsed
            hidden = set(view.unseen) - set(_visible_cards(view))
            named = {c for s in _strings(parsed) for c in _action_cards(s)}
            assert not hidden & named, f"seat {p} is shown {sorted(hidden & named)}"


@given(any_rules(st.integers(1, 60)), seeds, seeds, eagerness, st.data())
def test_views_equal_when_states_differ_only_in_what_the_player_cannot_see(
    rules: Rules, seed: int, policy: int, eager: float, data: st.DataObject
) -> None:
    """C6: relabel the cards p cannot place (a permutation of them through the deck), replay
    the same actions: p's view and its JSON are unchanged, though the state differs."""
    states = random_play(rules, seed, policy, eager)
    live = [s for s in states if not s.is_over]  # the settlement shows the hands
    state = data.draw(st.sampled_from(live), label="state")
    p = data.draw(st.integers(0, rules.players - 1), label="player")
    view = state.view(p)
    pack = Counter(rules.pack_cards())
    unseen = Counter(view.unseen)
    hidden = sorted(c for c in unseen if unseen[c] == pack[c])  # every copy is unseen
    if len(hidden) < 2:
        event("rejected: fewer than two hidden cards")
    assume(len(hidden) >= 2)
    moved = data.draw(st.permutations(hidden), label="relabelling")
    relabel = dict(zip(hidden, moved, strict=True))
    assert isinstance(state, (ConquianState, CooncanState))
    deck = [relabel.get(c, c) for c in state.deck]
    other: State = new_game(rules, deck=deck, dealer=state.dealer)
    try:
        for action in state.history:
            other = other.apply(action)
    except IllegalActionError:
        # another player's move could depend on his hidden cards (T3: a card taken must be
        # meldable); such relabellings are not states that differ only in hidden cards
        event("rejected: a move depended on hidden cards")
        assume(False)
    assert other.view(p) == view
    assert other.view(p).to_json() == view.to_json()
    if moved != hidden:
        assert other != state and other.to_json() != state.to_json()
