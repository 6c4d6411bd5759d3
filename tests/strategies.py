"""Hypothesis strategies shared by the tests: cards, faces, actions and rules; and the
states of seeded random deals (`random_states`)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from conquian import (
    Borrow,
    Card,
    ConquianRules,
    CooncanRules,
    Discard,
    Draw,
    Force,
    Meld,
    NamedJoker,
    Pass,
    Suit,
    Take,
    make_pack,
    new_game,
)

suits = st.sampled_from(list(Suit))
cards = st.sampled_from(make_pack("standard", jokers=1))
natural_cards = st.sampled_from(make_pack("standard"))
named_jokers = st.builds(
    NamedJoker,
    rank=st.integers(1, 13),
    suit=st.none() | suits,
)
faces = st.one_of(natural_cards, named_jokers)
indices = st.integers(0, 40)

actions = st.one_of(
    st.builds(Take, cards),
    st.just(Pass()),
    st.just(Draw()),
    st.builds(Meld, st.lists(faces, min_size=1, max_size=8), onto=st.none() | indices),
    st.builds(
        lambda fs, i: Meld(fs, onto=i, shift=True), st.lists(faces, min_size=1, max_size=2), indices
    ),
    st.builds(Borrow, cards, indices),
    st.builds(Force, faces, indices, st.booleans()),
    st.builds(Discard, cards),
)


def conquian_rules_with(max_sequences: list[int | None]) -> st.SearchStrategy[ConquianRules]:
    """Two-hand rules with every option value, the pack one of the 40-card packs or the full
    pack (T1, T20) with the ace low or, but in the American pack, at both ends (T26), the
    longest sequence one of `max_sequences` (T14)."""
    packs = [("spanish", "low"), ("american", "low"), ("standard", "low")]
    packs += [("spanish", "both"), ("standard", "both")]
    return st.sampled_from(packs).flatmap(lambda pack_ace: _conquian_rules(pack_ace, max_sequences))


def _conquian_rules(
    pack_ace: tuple[str, str], max_sequences: list[int | None]
) -> st.SearchStrategy[ConquianRules]:
    return st.builds(
        ConquianRules,
        pack=st.just(pack_ace[0]),
        ace=st.just(pack_ace[1]),
        hand_size=st.sampled_from([8, 9, 10]),
        lay_down=st.sampled_from(["say", "turn", "meld"]),
        borrow_middle=st.booleans(),
        borrow_other_kind=st.booleans(),
        max_sequence=st.sampled_from(max_sequences),
    )


def conquian_trading_rules() -> st.SearchStrategy[ConquianRules]:
    """Conquian for 2 to 4 with trade rounds (T21): 1 to 3 rounds, with the other options
    drawn too."""
    return st.builds(
        ConquianRules,
        players=st.sampled_from([2, 3, 4]),
        trades=st.integers(1, 3),
        lay_down=st.sampled_from(["say", "turn", "meld"]),
        after_starter=st.sampled_from(["dealer", "pone"]),
        max_sequence=st.sampled_from([None, 5]),
    )


conquian_presets = st.sampled_from(
    [ConquianRules(), ConquianRules.pagat(), ConquianRules.hoyle(), ConquianRules.blog()]
)

three_hand_rules = st.builds(
    CooncanRules.three_hand,
    players=st.sampled_from([2, 3]),
    jokers=st.sampled_from([0, 1]),
    stock=st.sampled_from(["closed", "open"]),
    splash_bonus=st.sampled_from([None, 25, 50]),
    turn_limit=st.integers(1, 200),
)
double_pack_rules = st.builds(
    CooncanRules.double_pack,
    players=st.integers(2, 7),
    splash_bonus=st.sampled_from([None, 25, 50]),
    turn_limit=st.integers(1, 200),
)


def card_list(pack: str = "standard") -> st.SearchStrategy[list[Card]]:
    """Distinct cards of one pack."""
    return st.lists(st.sampled_from(make_pack(pack)), unique=True, min_size=0, max_size=8)


def random_states(rules: Any, seed: int, every: int = 1, most: int | None = None) -> Iterator[Any]:
    """Every `every`-th state of a deal played with random legal actions, and the last: the
    deal `new_game(rules, seed=seed)`, dealt by seat ``seed % players`` (with `most`, cut
    after the state reached by ``most + 1`` actions)."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % rules.players)
    k = 0
    while True:
        if k % every == 0 or state.is_over:
            yield state
        if state.is_over or (most is not None and k > most):
            return
        state = state.apply(rng.choice(state.legal_actions()))
        k += 1


def draw_heavy(state: Any, rng: random.Random, steps: int) -> Any:
    """A Coo-Can `state` after up to `steps` actions drawn mostly among draws and discards
    (a meld a quarter of the times one is legal), so that decks run out and are mixed
    again (K8)."""
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        melds = [a for a in legal if isinstance(a, Meld)]
        plain = [a for a in legal if str(a) == "draw" or str(a).startswith("discard")]
        state = state.apply(rng.choice(melds if melds and rng.random() < 0.25 else plain))
    return state
