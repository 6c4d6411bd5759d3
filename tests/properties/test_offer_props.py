"""Properties of two-hand Conquian over random legal play (RULES.md T, E1, C6, C7).

Each example deals a random deck under rules drawn from every preset and
option value, then plays uniformly random legal actions to the end of the
deal, checking the laws of the game at every state reached.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

import oracles.offer as oracle
from conquian import (
    Borrow,
    Card,
    ConquianRules,
    Discard,
    Draw,
    Force,
    IllegalActionError,
    Meld,
    Pass,
    Take,
    new_game,
)
from conquian.combos.core import build
from conquian.offer import ConquianState
from conquian.offer.board import key, mask
from conquian.offer.dealing import Deal
from conquian.offer.say import say_info, usable
from conquian.offer.tables import Memo, sequence_order
from conquian.offer.turn import finishable
from strategies import conquian_presets, conquian_rules_with

rules_strategy = conquian_presets | conquian_rules_with([None, 8, 5])
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _bound(rules: ConquianRules) -> int:
    """An upper bound on the number of actions in a deal (T2, T9, T12).

    Passes: at most two per card turned. Takes and forces: each adds a card to
    someone's melds for good, so at most 2 * (hand size + 1); each starts one
    melding turn, which ends with at most one discard or force. Borrows: at
    most one per card on the table per turn (T9). Melds: each places a hand
    card (2 * hand size in all), a taken card or a borrowed card.
    """
    size = rules.hand_size
    stock = 40 - 2 * size
    uses = 2 * size + 2
    borrows = uses * (size + 1)
    melds = 2 * size + uses + borrows
    return 2 * stock + uses + uses + melds + borrows


def random_game(rules: ConquianRules, seed: int) -> Iterator[ConquianState]:
    """Every state of a deal played with uniformly random legal actions."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % 2)
    assert isinstance(state, ConquianState)
    yield state
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        yield state


def _zones(state: ConquianState) -> Counter[Card]:
    """Every card of every zone: hands, table, pending, offer, stock, buried."""
    zones: Counter[Card] = Counter(state.hand(0) + state.hand(1) + state.pending + state.buried)
    for meld in state.table:
        zones.update(meld.physical_cards)
    if state.offer is not None:
        zones[state.offer] += 1
    zones.update(state.deck[len(state.deck) - state.stock_size :])
    return zones


def _melded(state: ConquianState, player: int) -> int:
    return sum(len(m.cards) for m in state.table if m.owner == player)


def _check_invariants(state: ConquianState) -> None:
    rules = state.rules
    order = sequence_order(rules.pack, rules.max_sequence, rules.ace)  # T20, T26
    assert _zones(state) == Counter(rules.pack_cards())  # conservation
    for meld in state.table:  # every meld is a valid combination of its kind
        again = build(meld.cards, order, meld.owner)
        assert again == meld and len(meld.cards) >= 3
    size = rules.hand_size
    if state.is_over:
        assert state.current_player is None and state.offer is None and not state.legal_actions()
        assert state.result is not None and sum(state.result.payments) == 0
        if state.result.winner is not None:
            assert _melded(state, state.result.winner) == size + 1
        return
    assert state.legal_actions()  # no dead ends
    player = state.current_player
    assert player is not None
    other = 1 - player
    assert len(state.hand(other)) + _melded(state, other) == size
    if state.offer is not None:  # between turns, or laying down on the say
        assert state.pending == ()
        assert len(state.hand(player)) + _melded(state, player) == size
    else:  # melding after a take or a force
        mine = len(state.hand(player)) + _melded(state, player) + len(state.pending)
        assert mine == size + 1
        assert state.offer_origin is None


def _random_action(rng: random.Random, state: ConquianState) -> object:
    """A random action built from random cards and meld indices, legal or not."""
    pack = state.rules.pack_cards()
    c = rng.choice(pack)
    j = rng.randrange(len(state.table) + 2)
    kind = rng.randrange(8)
    if kind == 0:
        return Take(c)
    if kind == 1:
        return Pass()
    if kind == 2:
        return Draw()
    if kind == 3:
        return Discard(c)
    if kind == 4:
        return Force(c, onto=j)
    if kind == 5:
        return Borrow(c, source=j)
    pool = list(state.hand(state.current_player or 0) + state.pending) or list(pack)
    faces = rng.sample(pool, min(len(pool), rng.randint(1, 4)))
    if rng.random() < 0.3:
        faces.append(c)
    return Meld(tuple(set(faces)), onto=None if kind == 6 else j)


@given(rules_strategy, seeds)
def test_random_play_keeps_every_law(rules: ConquianRules, seed: int) -> None:
    """Conservation, hand + melds = hand size, valid melds, no dead ends, termination, legality."""
    rng = random.Random(seed ^ 0x5EED)
    count = 0
    for state in random_game(rules, seed):
        _check_invariants(state)
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        assert legal == state.legal_actions()  # deterministic
        for action in legal:  # every legal action applies, to a state of the same deal
            assert state.is_legal(action) and state.is_legal(str(action))
            after = state.apply(action)
            assert len(after.history) == len(state.history) + 1
        for _ in range(3):  # sampled actions: legal exactly when listed, else E1
            action = _random_action(rng, state)
            if action in legal:
                state.apply(action)  # type: ignore[arg-type]
                continue
            before = pickle.dumps(state)
            try:
                state.apply(action)  # type: ignore[arg-type]
            except IllegalActionError as err:
                assert err.rule is not None and str(err).endswith(f"({err.rule})")
            else:
                raise AssertionError(f"{action} applied but is not in legal_actions()")
            assert pickle.loads(before) == state
        count += 1
    assert count - 1 <= _bound(rules)


@given(rules_strategy, seeds)
def test_replay_is_deterministic_and_states_are_immutable(rules: ConquianRules, seed: int) -> None:
    """C7, DESIGN principle 1: the same deal and actions give equal states; old states stay put."""
    states = list(random_game(rules, seed))
    final = states[-1]
    replay = new_game(rules, deck=final.deck, dealer=final.dealer)
    for action in final.history:
        replay = replay.apply(str(action))
    assert replay == final and hash(replay) == hash(final)
    assert pickle.loads(pickle.dumps(final)) == final
    rng = random.Random(seed)
    for k in sorted(rng.sample(range(len(states)), min(4, len(states)))):
        again = new_game(rules, deck=final.deck, dealer=final.dealer)
        for action in final.history[:k]:
            again = again.apply(action)
        assert states[k] == again  # applying actions to it changed nothing
        assert states[k].history == final.history[:k]


def _hidden_positions(state: ConquianState, player: int) -> list[int]:
    """The deck positions of the cards `player` cannot see: the other hand and the stock."""
    hidden = set(state.hand(1 - player)) | set(state.deck[len(state.deck) - state.stock_size :])
    return [i for i, c in enumerate(state.deck) if c in hidden]


@given(rules_strategy, seeds, st.integers(0, 1), st.randoms(use_true_random=False))
def test_views_hide_what_the_player_cannot_see(
    rules: ConquianRules, seed: int, player: int, shuffler: random.Random
) -> None:
    """C6: a deal that differs only in the other hand and the stock gives the same view while
    it goes on; once it is over both hands are shown ("Showing") and the stock stays unseen.

    States in the middle of the opponent's melding are left out: a card he took
    tells that he holds what it goes with, as it does at the table, where he
    shows it at once (T3, T8).
    """
    states = [
        s for s in random_game(rules, seed) if s.offer is not None or s.current_player != 1 - player
    ]
    for state in (shuffler.choice(states), states[-1]):
        positions = _hidden_positions(state, player)
        moved = positions[:]
        shuffler.shuffle(moved)
        deck = list(state.deck)
        for i, j in zip(positions, moved, strict=True):
            deck[i] = state.deck[j]
        other = new_game(rules, deck=deck, dealer=state.dealer)
        for action in state.history:
            other = other.apply(action)
        view = state.view(player)
        assert set(view.hand).isdisjoint(view.unseen)
        assert view.unseen == tuple(sorted(view.unseen))
        if state.is_over:  # C6 "Showing": both hands are shown, the stock stays unseen
            assert view.hands == (state.hand(0), state.hand(1))
            assert len(view.unseen) == state.stock_size
            continue
        assert other.view(player) == view and view.hands is None
        assert len(view.unseen) == len(state.hand(1 - player)) + state.stock_size


# -- the engine against the oracle (tests/oracles/offer.py) -------------------------------


@settings(max_examples=max(5, settings().max_examples // 4))
@given(rules_strategy, seeds)
def test_legal_takes_melds_and_borrows_match_a_naive_oracle(
    rules: ConquianRules, seed: int
) -> None:
    """T8, T9, E1, no dead ends: the engine's takes, melds and borrows are those the plain
    search of the oracle finds (pins `shortcuts.hopeful` and `shortcuts.leaves_finish`)."""
    turn: oracle.Turn | None = None
    previous: ConquianState | None = None
    for state in random_game(rules, seed):
        if state.is_over:
            break
        player = state.current_player
        assert player is not None
        memo: dict[oracle.Turn, bool] = {}
        engine = {a for a in state.legal_actions() if isinstance(a, (Take, Meld, Borrow))}
        if state.offer is not None:
            turn = None
            hand = state.hand(player)
            say = oracle.start(hand, state.table, ())
            naive: set[object] = {a for a, _ in oracle.moves(rules, player, say, borrowing=False)}
            if oracle.finishable(
                rules, player, oracle.start(hand, state.table, (state.offer,)), memo
            ):
                naive.add(Take(state.offer))
        else:
            assert previous is not None
            last = state.history[-1]
            if isinstance(last, (Take, Force)):
                turn = oracle.start(state.hand(player), state.table, state.pending)
            else:
                assert turn is not None
                turn = dict(oracle.moves(rules, player, turn, borrowing=True))[last]  # type: ignore[index]
            assert (turn.hand, turn.table, turn.pending) == (
                state.hand(player),
                state.table,
                state.pending,
            )
            naive = {
                a
                for a, after in oracle.moves(rules, player, turn, borrowing=True)
                if oracle.finishable(rules, player, after, memo)
            }
        assert engine == naive
        previous = state


# -- the shortcuts of a take against the search ----------------------------------------------


@settings(max_examples=max(5, settings().max_examples // 4))
@given(conquian_rules_with([None, 3, 4, 5, 6, 8]), seeds)
def test_take_shortcuts_answer_as_the_search(rules: ConquianRules, seed: int) -> None:
    """T3, T8, no dead ends: whether a card could be taken, as `say.usable` settles it by its
    shortcuts (partners, one or two borrows, melds that can never grow:
    `shortcuts.usable_by_borrowing`), is what the full search of the turn after the take
    finds (`turn.finishable`), for every card the player might be offered."""
    deal = Deal(rules, 0, ())
    tables, memo = deal.tables, deal.memo
    say_melds = rules.lay_down == "say"
    hand_melds = rules.lay_down != "meld"
    other = rules.borrow_other_kind
    for state in random_game(rules, seed):
        if state.offer is None or state.current_player is None:
            continue
        player = state.current_player
        hand = mask(state.hand(player))
        keys = tuple(key(m) for m in state.table)
        say = say_info(tables, memo, player, hand, keys, say_melds)
        melded = mask(c for m in state.table for c in m.cards)
        for c in rules.pack_cards():
            bit = 1 << c.index
            if (hand | melded) & bit:
                continue
            turn = (hand, keys, bit, 0, ())
            search = finishable(
                tables, Memo(), player, turn, hand_melds=hand_melds, other_kind=other
            )
            found = usable(deal, player, hand, keys, c, say)
            assert found == search, (str(c), state)
