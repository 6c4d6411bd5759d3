"""Properties of the rummy engine over random legal play (RULES.md M, C6, E1; DESIGN.md).

Each example draws the rules (every variant and option, always with a
`turn_limit` so that deals end), a deal seed and a seed for a random player,
then plays a whole deal choosing among the legal actions, and checks a
property at every state reached. The ``ci`` hypothesis profile plays more
deals.
"""

from __future__ import annotations

import pickle
import random
import re
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, note
from hypothesis import strategies as st

from conquian import (
    JOKER,
    Borrow,
    Card,
    CooncanRules,
    Discard,
    Draw,
    Force,
    IllegalActionError,
    Meld,
    NamedJoker,
    Outcome,
    Pass,
    Take,
    new_game,
)
from conquian.actions import Action
from conquian.cards import Suit, make_pack
from conquian.rummy import CooncanState, pips

# -- strategies --------------------------------------------------------------


@st.composite
def cooncan_rules(draw: st.DrawFn) -> CooncanRules:
    """Any Cooncan rules: three-hand (2-3 players, 0-1 joker, closed or open stock) or double
    pack (2-6 players), any splash bonus, and always a turn limit."""
    limit = draw(st.integers(1, 90))
    bonus = draw(st.sampled_from([None, 25, 50]))
    if draw(st.booleans()):
        return CooncanRules.three_hand(
            players=draw(st.integers(2, 3)),
            jokers=draw(st.integers(0, 1)),
            stock=draw(st.sampled_from(["closed", "open"])),
            splash_bonus=bonus,
            turn_limit=limit,
        )
    return CooncanRules.double_pack(
        players=draw(st.integers(2, 6)), splash_bonus=bonus, turn_limit=limit
    )


seeds = st.integers(0, 2**32 - 1)
# How often the random player lays out when it can: 0 is uniform over the legal
# actions; higher puts more combinations, jokers and shifts on the table.
eagerness = st.sampled_from([0.0, 0.5, 0.9])


def deal_of(rules: CooncanRules, seed: int, deck: tuple[Card, ...] | None = None) -> CooncanState:
    state = new_game(rules, seed=seed) if deck is None else new_game(rules, deck=deck)
    assert isinstance(state, CooncanState)
    return state


def random_play(state: CooncanState, policy: int, eager: float) -> Iterator[CooncanState]:
    """Every state of a deal played by a random player, the last one over."""
    rng = random.Random(policy)
    bound = (state.rules.turn_limit or 0) * (state.rules.hand_size + 4) + 1
    yield state
    while not state.is_over:
        actions = state.legal_actions()
        assert actions, "a non-final state with no legal action (no dead ends)"
        lays = [a for a in actions if isinstance(a, (Meld, Force))]
        pool = lays if lays and rng.random() < eager else actions
        state = state.apply(pool[int(rng.random() * len(pool))])
        bound -= 1
        assert bound >= 0, "the deal did not end within its turn limit"
        yield state


def physical(state: CooncanState) -> Counter[Card]:
    """Every card of the deal where it lies: hands, table, stock and pack."""
    total: Counter[Card] = Counter(state.stock)
    total.update(state.pack)
    for p in range(state.rules.players):
        total.update(state.hand(p))
    for combo in state.table:
        total.update(combo.physical_cards)
    return total


# -- properties ----------------------------------------------------------------


@given(cooncan_rules(), seeds, seeds, eagerness)
def test_conservation_and_invariants(
    rules: CooncanRules, seed: int, policy: int, eager: float
) -> None:
    """C1, C6, M1-M11: every card is in exactly one place; known cards are held; views add up."""
    pack = Counter(rules.pack_cards())
    for state in random_play(deal_of(rules, seed), policy, eager):
        assert physical(state) == pack
        for p in range(rules.players):
            assert not Counter(state.known[p]) - Counter(state.hand(p))
            assert list(state.hand(p)) == sorted(state.hand(p))
        for combo in state.table:
            assert len(combo) >= 3
        if not state.is_over:
            p = state.current_player
            assert p is not None
            # a hand between turns holds the cards dealt less what went on the table
            view = state.view(p)
            placed = Counter(view.hand) + Counter(view.stock) + Counter(view.unseen)
            for combo in view.table:
                placed.update(combo.physical_cards)
            for q in range(rules.players):
                if q != p:
                    placed.update(view.known[q])
            if view.known_pack is not None:
                placed.update(view.known_pack)
            assert placed == pack
            assert view.hand_sizes == tuple(len(state.hand(q)) for q in range(rules.players))
            assert view.legal_actions == state.legal_actions()


@given(cooncan_rules(), seeds, seeds, eagerness)
def test_termination_determinism_and_payments(
    rules: CooncanRules, seed: int, policy: int, eager: float
) -> None:
    """C7, M7, M8, M11: deals end; replaying deck and actions gives an equal state; payments
    sum to zero and are the pips (and splash bonus) of the hands left."""
    *_, final = random_play(deal_of(rules, seed), policy, eager)
    assert final.is_over and final.current_player is None
    assert final.turns <= (rules.turn_limit or 0)
    result = final.result
    assert result is not None and sum(result.payments) == 0
    if result.outcome is Outcome.ABANDONED:
        assert final.turns == rules.turn_limit and set(result.payments) == {0}
    else:
        winner = result.winner
        assert winner is not None and final.hand(winner) == ()
        bonus = (rules.splash_bonus or 0) if final.splash else 0
        for q in range(rules.players):
            if q != winner:
                assert result.payments[q] == -(pips(final.hand(q)) + bonus)
    replay = new_game(rules, deck=final.deck, dealer=final.dealer)
    for action in final.history:
        replay = replay.apply(str(action))
    assert replay == final and hash(replay) == hash(final)
    assert replay.history == final.history


def illegal_candidates(state: CooncanState, rng: random.Random) -> list[Action]:
    """A sample of actions, most of them illegal, in every shape the vocabulary allows."""
    everything = make_pack(jokers=1)
    p = state.current_player if state.current_player is not None else 0
    hand = list(state.hand(p)) or [JOKER]
    n = len(state.table) + 1
    out: list[Action] = [Pass(), Draw(), Borrow(rng.choice(everything), source=0)]
    for _ in range(3):
        c = rng.choice(everything)
        out += [Take(c), Discard(c), Discard(rng.choice(hand))]
        out.append(Force(rng.choice(hand), onto=rng.randrange(n)))
        out.append(Force(rng.choice(hand), onto=rng.randrange(n), shift=True))
        faces = rng.sample(hand, min(len(hand), rng.randint(1, 4)))
        named = [
            NamedJoker(rng.randint(1, 13), rng.choice([None, *Suit])) if f is JOKER else f
            for f in faces
        ]
        out.append(Meld(tuple(rng.choice([faces, named]))))
        out.append(Meld(tuple(named), onto=rng.randrange(n), shift=rng.random() < 0.3))
    if state.taken is not None:
        out.append(Discard(state.taken))
    out.append(Force(JOKER, onto=0))
    return out


@given(cooncan_rules(), seeds, seeds, eagerness)
def test_legality_agreement_and_immutability(
    rules: CooncanRules, seed: int, policy: int, eager: float
) -> None:
    """E1, DESIGN 1 and 3: every legal action applies; other actions raise IllegalActionError
    citing a rule; the state applied to never changes."""
    rng = random.Random(policy ^ 0x5EED)
    for i, state in enumerate(random_play(deal_of(rules, seed), policy, eager)):
        if i % 5 and not state.is_over:
            continue
        snapshot = pickle.dumps(state)
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        for action in legal:
            after = state.apply(action)
            assert after is not state
            assert state.is_legal(action) and state.is_legal(str(action))
        for action in illegal_candidates(state, rng):
            if action in legal:
                state.apply(action)
                continue
            note(f"{action} in {state!r}")
            try:
                state.apply(action)
            except IllegalActionError as err:
                assert re.search(r"\((C|M|E)\d+\)$", str(err)), str(err)
                assert err.rule is not None and str(err).startswith(f"illegal action '{action}'")
            else:
                raise AssertionError(f"{action} applied but is not legal")
            assert not state.is_legal(action)
        assert pickle.loads(snapshot) == state
        assert state.legal_actions() == legal


@given(cooncan_rules(), seeds, seeds, eagerness, st.data())
def test_information_hiding(
    rules: CooncanRules, seed: int, policy: int, eager: float, data: st.DataObject
) -> None:
    """C6: re-deal the deck with the cards a player never sees shuffled among their places and
    replay the same actions: every view he gets is the same."""
    states = list(random_play(deal_of(rules, seed), policy, eager))
    p = data.draw(st.integers(0, rules.players - 1), label="player")
    seen: set[Card] = set()
    for state in states:
        seen.update(state.hand(p), state.stock, *state.known)
        for combo in state.table:
            seen.update(combo.physical_cards)
        if state.pack_is_known:
            seen.update(state.pack)
    deck = list(states[0].deck)
    hidden = [i for i, c in enumerate(deck) if c not in seen]
    values = [deck[i] for i in hidden]
    random.Random(data.draw(seeds, label="shuffle")).shuffle(values)
    for i, c in zip(hidden, values, strict=True):
        deck[i] = c
    other = new_game(rules, deck=deck, dealer=states[0].dealer)
    assert isinstance(other, CooncanState)
    for state in states:
        if state.history:
            other = other.apply(state.history[-1])
        if state.result is None:  # once the deal is over every hand is shown (C6 "Showing")
            assert other.view(p) == state.view(p)
