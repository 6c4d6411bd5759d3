"""The two-hand engine package: its map of the rules, its bounded tables, its values."""

from __future__ import annotations

import pickle
import random
import re
from collections import OrderedDict

import pytest

import conquian.offer
from conquian import ConquianRules, RecordError, new_game
from conquian.combos.core import Order
from conquian.offer import ConquianState, deal, deal_indices, tables, turn_finishes
from conquian.offer.tables import MAX_TABLES, tables_count, tables_for, tables_key

TWO_HAND_RULE_IDS = [f"T{i}" for i in range(1, 16)] + ["C6", "E1"]


@pytest.mark.parametrize("rule", TWO_HAND_RULE_IDS)
def test_every_two_hand_rule_is_in_the_package_map(rule: str) -> None:
    """The package docstring says where each rule of the two-hand game (T1-T15, C6, E1) lives."""
    doc = conquian.offer.__doc__ or ""
    where = doc[doc.index("Where each rule lives:") :]
    assert re.search(rf"\b{rule}\b", where), rule


def test_tables_kept_are_bounded_whatever_the_rules() -> None:
    """Bounded memory (T14): caps as long as the longest sequence or longer share one table
    with no cap, and no more
    than MAX_TABLES rule sets' tables are ever kept, however many rules are played."""
    assert tables_for(ConquianRules(max_sequence=11)) is tables_for(ConquianRules())
    assert tables_key(ConquianRules(max_sequence=10**6)) == tables_key(ConquianRules())
    assert tables_key(ConquianRules(max_sequence=10)) == tables_key(ConquianRules())
    assert tables_for(ConquianRules(hand_size=8)) is tables_for(ConquianRules(hand_size=10))
    for i in range(200):
        rules = ConquianRules(
            pack=("spanish", "american")[i % 2],
            max_sequence=3 + i,
            borrow_middle=bool(i % 3),
            lay_down=("say", "turn", "meld")[i % 3],
        )
        state = new_game(rules, seed=i)
        assert state.legal_actions()
        assert tables_count() <= MAX_TABLES
    kept = []
    # Every cap that plays differently, both packs (the Spanish with its ace high too, T26) and
    # both borrowing rules.
    for i in (*range(3, 10), None):
        for pack, ace in (("spanish", "low"), ("american", "low"), ("spanish", "both")):
            for middle in (False, True):
                rules = ConquianRules(pack=pack, max_sequence=i, borrow_middle=middle, ace=ace)  # type: ignore[arg-type]
                kept.append(tables_for(rules))
    assert len({id(t) for t in kept}) == MAX_TABLES == tables_count()  # each its own, all kept


def test_tables_are_let_go_least_recently_used_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for four rule sets' tables, a fifth lets the least recently used one go."""
    monkeypatch.setattr(tables, "MAX_TABLES", 4)
    monkeypatch.setattr(tables, "_TABLES", OrderedDict())
    first = tables_for(ConquianRules(max_sequence=3))
    for cap in (4, 5, 6):
        tables_for(ConquianRules(max_sequence=cap))
    assert tables_for(ConquianRules(max_sequence=3)) is first  # used again: kept
    tables_for(ConquianRules(max_sequence=7))  # a fifth: the least recently used goes
    assert tables_count() == 4
    assert tables_for(ConquianRules(max_sequence=3)) is first
    assert [k[1] for k in tables._TABLES] == [5, 6, 7, 3]


def test_orders_kept_are_bounded() -> None:
    """T14: `Order.of` gives one order for every cap above the pack's longest sequence."""
    assert Order.of("spanish", 11) is Order.of("spanish", 10**9) is Order.of("spanish")
    assert Order.of("standard", 14) is Order.of("standard")
    assert Order.of("spanish", 8).max_sequence == 8


def test_deal_indices_refuses_a_deck_that_is_not_the_pack() -> None:
    """T1, E3: a deck of duplicates or of another pack deals nothing."""
    with pytest.raises(RecordError, match="spanish pack"):
        deal_indices(ConquianRules(), [0] * 40, 0)
    american = [c.index for c in ConquianRules(pack="american").pack_cards()]
    with pytest.raises(RecordError):
        deal_indices(ConquianRules(), american, 0)
    pack = list(ConquianRules().pack_cards())
    with pytest.raises(RecordError):
        deal(ConquianRules(), (*pack[:-1], pack[0]), 0)
    assert deal_indices(ConquianRules(), [c.index for c in pack], 0).hand(1)


def test_states_are_immutable_values() -> None:
    """DESIGN principle 1: no field of a state can be set; equal states hash alike."""
    state = new_game(ConquianRules(), seed=5)
    for name in ("offer", "current_player", "table", "result", "buried", "offer_origin"):
        with pytest.raises(AttributeError):
            setattr(state, name, None)
    with pytest.raises(AttributeError):
        state.anything = 1  # type: ignore[attr-defined]
    again = new_game(ConquianRules(), seed=5)
    assert again == state and hash(again) == hash(state)


def test_two_successors_of_one_state_keep_their_own_history() -> None:
    """A history is what led to its state, whatever else was played from its parent."""
    state = new_game(ConquianRules(), seed=5)
    taken = state.apply("take KD")
    passed = state.apply("pass")
    assert taken.history == (state.legal_actions()[0],)
    assert [str(a) for a in passed.history] == ["pass"]
    assert str(taken.apply("meld JD QD KD").history[-1]) == "meld JD QD KD"
    assert [str(a) for a in passed.history] == ["pass"] and len(taken.history) == 1


def test_a_state_unpickled_in_a_fresh_engine_gives_the_same_legal_actions() -> None:
    """Pickling keeps the deal and its history, never the engine's tables or memo."""
    rng = random.Random(3)
    state = new_game(ConquianRules.pagat(), seed=11)
    while not state.is_over:
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state and copy.legal_actions() == state.legal_actions()
        assert copy.history == state.history and repr(copy) == repr(state)
        state = state.apply(rng.choice(state.legal_actions()))
    assert pickle.loads(pickle.dumps(state)) == state


def test_history_reads_as_a_tuple() -> None:
    """`state.history` is a `History`: a sequence equal to, hashed and shown as its tuple."""
    state = new_game(ConquianRules(), seed=7).apply("pass")
    history = state.history
    as_tuple = tuple(history)
    assert history == as_tuple and as_tuple == history and hash(history) == hash(as_tuple)
    assert (
        repr(history) == repr(as_tuple) and history[:1] == as_tuple and history[-1] == as_tuple[0]
    )
    assert isinstance(state, ConquianState) and len(history) == 1


@pytest.mark.parametrize("seed", range(6))
def test_turn_finishes_are_the_ends_of_a_take(seed: int) -> None:
    """T3, T8, T9: a card may be taken exactly when `turn_finishes` finds an end of the turn
    after taking it, and every end holds the cards the turn began with, none pending."""
    rng = random.Random(seed)
    for rules in (ConquianRules(), ConquianRules.hoyle(), ConquianRules.pagat()):
        state = new_game(rules, seed=seed)
        while not state.is_over:
            player = state.current_player
            if state.offer is not None and player is not None:
                hand, table = state.hand(player), state.table
                ends = list(turn_finishes(rules, player, hand, table, (state.offer,)))
                assert bool(ends) == state.is_legal(f"take {state.offer}")
                mine = [c for m in table if m.owner == player for c in m.cards]
                for end_hand, end_table in ends:
                    held = [c for m in end_table if m.owner == player for c in m.cards]
                    assert sorted(end_hand + tuple(held)) == sorted((*hand, *mine, state.offer))
            state = state.apply(rng.choice(state.legal_actions()))


def test_pack_size_counts_the_face_down_pile_as_in_every_game() -> None:
    """`pack_size` is the face-down pile in every game; in two-hand it is the stock (T1, T6)."""
    state = new_game(ConquianRules(), seed=3)
    for _ in range(3):
        assert state.pack_size == state.stock_size == state.view(0).pack_size
        state = state.apply("pass")
    # dealt 20, the starter turned (T11), one turned after the first burial (T6)
    assert state.pack_size == 40 - 20 - 2
