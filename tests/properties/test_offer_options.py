"""The engine's legal actions equal a brute-force oracle's under every option (T2, T8–T10, T14,
T20, T26).

Each case plays seeded random deals under one set of rules, and at every state
reached compares `state.legal_actions()` with the legal actions of the oracle
in ``tests/oracles/offer_options.py``, a plain exhaustive search written
from the rules pages: T8 with every `lay_down` value, T9 with `borrow_middle`
and `borrow_other_kind`, T10 (the forced player's melding), T14
`max_sequence`, T2 winning, and no dead ends. Both follow the same action,
and their positions must agree (hands, table, offer, pending, who acts).

The deals are seeded, not drawn by hypothesis, so that a case fails or passes
the same way on every run; their number follows the hypothesis profile (more
under ``HYPOTHESIS_PROFILE=ci``). The random player takes every card it may
and melds more than it discards, so that long melds and borrows come up.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import Borrow, Card, ConquianRules, ConquianState, Meld, Take, new_game
from conquian.combos import core as combos
from conquian.offer.board import key, mask
from conquian.offer.tables import Memo, tables_for
from oracles import offer_options as oracle

GAMES = max(12, settings().max_examples // 15)
"""Deals per case: 12 under the default profile, 20 under ``ci``."""


def _case(rules: ConquianRules, name: str, vary: bool) -> object:
    return pytest.param(rules, vary, id=name)


PRESETS = [
    _case(ConquianRules(), "foster", False),
    _case(ConquianRules.pagat(), "pagat", False),
    _case(ConquianRules.hoyle(), "hoyle", False),
    _case(ConquianRules.blog(), "blog", False),
    _case(ConquianRules.hoyle(pack="american"), "hoyle-american", False),
    # T20: the full pack, its suits of thirteen cards capped at eight under pagat (T14).
    _case(ConquianRules(pack="standard"), "full-pack", False),
    _case(ConquianRules.pagat(pack="standard"), "pagat-full-pack", False),
    # T26: the ace above the king as well, in the Spanish and the full pack.
    _case(ConquianRules(ace="both"), "ace-both", False),
    _case(ConquianRules.hoyle(ace="both", max_sequence=5), "hoyle-ace-both", False),
    _case(ConquianRules(pack="standard", ace="both"), "full-pack-ace-both", False),
]
GRID = [
    _case(
        ConquianRules(lay_down=lay_down, borrow_other_kind=other),
        f"{lay_down}-{'other_kind' if other else 'any_kind'}",
        True,
    )
    for lay_down in ("say", "turn", "meld")
    for other in (False, True)
]


def _rules_for(rules: ConquianRules, vary: bool, rng: random.Random) -> ConquianRules:
    """The case's rules; for the grid, with the pack, hand size, `borrow_middle` and
    `max_sequence` of this deal drawn at random (the case fixes `lay_down` and
    `borrow_other_kind`)."""
    if not vary:
        return rules
    pack = rng.choice(["spanish", "american"])
    return ConquianRules(
        pack=pack,  # type: ignore[arg-type]
        ace="low" if pack == "american" else rng.choice(["low", "both"]),  # type: ignore[arg-type]
        hand_size=rng.choice([8, 9, 10]),
        lay_down=rules.lay_down,
        borrow_middle=rng.random() < 0.5,
        borrow_other_kind=rules.borrow_other_kind,
        max_sequence=rng.choice([None, 8, 5, 4]),
    )


def _agree(state: ConquianState, pos: oracle.Position) -> None:
    """The engine's state and the oracle's position describe the same deal."""
    assert state.current_player == pos.player
    assert state.offer == pos.offer and state.offer_origin == pos.origin
    assert state.table == pos.table
    assert set(state.pending) == (pos.turn.pending if pos.turn is not None else set())
    for player in (0, 1):
        assert set(state.hand(player)) == pos.hands[player]
    if state.result is not None:
        assert pos.is_over and state.result.winner == pos.winner


def _choose(rng: random.Random, state: ConquianState) -> object:
    """A legal action, biased towards using cards: every take, and melds and borrows before
    a discard, so that melds grow long enough to lend cards (T9). The choice depends on the
    set of legal actions only, not on the engine's order."""
    legal = sorted(state.legal_actions(), key=str)
    takes = [a for a in legal if isinstance(a, Take)]
    if takes:
        return takes[0]
    moves = [a for a in legal if isinstance(a, (Meld, Borrow))]
    if state.offer is None and moves and rng.random() < 0.8:
        return rng.choice(moves)
    return rng.choice(legal)


def play_and_compare(rules: ConquianRules, seed: int) -> int:
    """Play one seeded deal, comparing the engine with the oracle at every state; the number
    of states compared."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % 2)
    assert isinstance(state, ConquianState)
    pos = oracle.deal(rules, state.deck, state.dealer)
    compared = 0
    while True:
        _agree(state, pos)
        engine = set(state.legal_actions())
        expected = oracle.legal_actions(pos)
        assert engine == expected, (
            f"{state!r}\nengine only: {sorted(map(str, engine - expected))}"
            f"\noracle only: {sorted(map(str, expected - engine))}"
        )
        compared += 1
        if state.is_over:
            return compared
        action = _choose(rng, state)
        state = state.apply(action)  # type: ignore[arg-type]
        assert isinstance(state, ConquianState)
        pos = oracle.after(pos, action, expected)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "vary"), PRESETS + GRID)
def test_engine_legal_actions_equal_the_oracles(rules: ConquianRules, vary: bool) -> None:
    """T2, T8 (every `lay_down`), T9 (`borrow_middle`, `borrow_other_kind`), T10, T14, no dead
    ends: at every state of seeded random deals, the engine offers exactly the oracle's
    actions."""
    compared = 0
    for seed in range(GAMES):
        compared += play_and_compare(_rules_for(rules, vary, random.Random(seed)), seed)
    assert compared > GAMES  # every deal has more than one state


@given(
    st.sampled_from(["spanish", "american"]),
    st.sampled_from([None, 8, 5, 4, 3]),
    st.data(),
)
def test_oracle_combinations_agree_with_combos(
    pack: str, longest: int | None, data: st.DataObject
) -> None:
    """C3, C4, T9, T14: the oracle's plain enumerations (new combinations, additions, what a
    meld lends) give what `conquian.combos.core` gives for the same cards."""
    rules = ConquianRules(pack=pack, max_sequence=longest)  # type: ignore[arg-type]
    order = oracle.order_of(rules)
    pool = data.draw(st.sets(st.sampled_from(rules.pack_cards()), max_size=12))
    found = oracle.new_combinations(pool, order, 0)
    assert len(set(found)) == len(found)
    assert set(found) == set(combos.melds_in(pool, order))
    for meld in found:
        rest = pool - set(meld.cards)
        assert {frozenset(a) for a in oracle.additions(meld, rest, order)} == {
            frozenset(a) for a in combos.extensions(meld, rest, order)
        }
        for middle in (True, False):
            for c in meld.cards:
                assert isinstance(c, Card)
                assert oracle.lend(meld, c, order, middle) == combos.borrow(meld, c, middle)


@given(
    st.sampled_from(["spanish", "american", "standard"]),
    st.sampled_from([None, 8, 5, 4, 3]),
    st.integers(0, 3),
    st.data(),
)
def test_tables_chains_give_the_combinations_of_combos_in_order(
    pack: str, longest: int | None, owner: int, data: st.DataObject
) -> None:
    """C3, T8, T14: the engine's tables, which keep combinations in chains and stop at the
    first of a chain missing (`Tables.new_melds`, `Tables.extensions`), give the new
    combinations of a pool and the additions to a meld that `conquian.combos.core` gives,
    in the same order (the order of the legal actions, E1)."""
    rules = ConquianRules(pack=pack, max_sequence=longest)  # type: ignore[arg-type]
    tables = tables_for(rules)
    cards = rules.pack_cards()
    pool = data.draw(st.sets(st.sampled_from(cards), max_size=14))
    melds = combos.melds_in(pool, tables.order, owner)
    assert tables.new_melds(mask(pool), owner, Memo()) == tuple(key(m) for m in melds)
    for meld in melds:
        rest = data.draw(st.sets(st.sampled_from([c for c in cards if c not in meld.cards])))
        found = tables.extensions(key(meld), mask(rest))
        added = [mask(a) for a in combos.extensions(meld, rest, tables.order)]  # type: ignore[arg-type]
        assert found == [(a, (mask(meld.cards) | a) << 2 | owner) for a in added]
