"""E1: every illegal action gets a specific reason, in all three games.

Over seeded random deals of two-hand Conquian (every preset), three-hand and
double-pack Cooncan, each state reached is offered random well-formed actions
of the pack in play (any verb, any card or named joker, any meld index), melds
naming a held card twice, and mutations of its legal actions (a card changed,
added, dropped or named twice, another meld index). Every one that is not legal must raise
`IllegalActionError` citing a rule, and its message must not be the engines'
catch-all "it is not legal now" (two-hand) / "not legal now" (Cooncan): it
must say which rule forbids the action.

The deals are seeded (their number follows the hypothesis profile), so a case
passes or fails the same way on every run.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import settings

from conquian import (
    JOKER,
    Action,
    Borrow,
    Card,
    ConquianRules,
    CooncanRules,
    Discard,
    Draw,
    Force,
    IllegalActionError,
    Meld,
    NamedJoker,
    Pass,
    State,
    Take,
    card,
    new_game,
)

CATCH_ALL = "not legal now"
"""The engines' reason of last resort (two-hand "it is not legal now", Cooncan "not legal
now"): a message holding it says nothing of the rule."""

DEALS = max(8, settings().max_examples // 8)
"""Deals per game: 8 under the default profile, 37 under ``ci``."""

GAMES: dict[str, list[Any]] = {
    "two-hand": [
        ConquianRules(),
        ConquianRules.pagat(),
        ConquianRules.blog(),
        ConquianRules.hoyle(pack="american"),
        ConquianRules(pack="standard", players=3),  # T20: the full pack
    ],
    "three-hand": [
        CooncanRules.three_hand(jokers=1, turn_limit=40),
        CooncanRules.three_hand(players=2, stock="open", turn_limit=40),
    ],
    "double-pack": [CooncanRules.double_pack(players=4, turn_limit=30)],
}


def _face(rng: random.Random, pack: list[Card]) -> Card | NamedJoker:
    """A card of the pack; a joker is usually named (any rank, with or without a suit)."""
    c = rng.choice(pack)
    if c == JOKER and rng.random() < 0.7:
        other = rng.choice([x for x in pack if x != JOKER])
        return NamedJoker(other.rank, other.suit if rng.random() < 0.5 else None)
    return c


def _mutation(rng: random.Random, action: Action, pack: list[Card], melds: int) -> Action | None:
    """A legal action changed a little: a card changed, added, dropped or named twice, or
    another meld index."""
    j = rng.randrange(melds + 2)
    if isinstance(action, Meld):
        faces = list(action.cards)
        how = rng.randrange(5)
        if how == 0 and len(faces) > 1:
            faces.pop(rng.randrange(len(faces)))
        elif how == 1:
            faces.append(_face(rng, pack))
        elif how == 2:
            faces[rng.randrange(len(faces))] = _face(rng, pack)
        elif how == 3:
            faces.append(rng.choice(faces))  # one card named twice
        else:
            return Meld(tuple(faces), onto=j, shift=action.shift and rng.random() < 0.5)
        return Meld(tuple(faces), onto=action.onto, shift=action.shift)
    if isinstance(action, Borrow):
        if rng.random() < 0.5:
            return Borrow(rng.choice(pack), source=action.source)
        return Borrow(action.card, source=j)
    if isinstance(action, Force):
        if rng.random() < 0.5:
            return Force(_face(rng, pack), onto=action.onto, shift=action.shift)
        return Force(action.card, onto=j, shift=not action.shift)
    if isinstance(action, Discard):
        return Discard(rng.choice(pack))
    if isinstance(action, Take):
        return Take(rng.choice(pack))
    return None


def random_actions(rng: random.Random, state: State, count: int) -> list[Action]:
    """`count` random well-formed actions of the pack in play, legal or not."""
    pack = sorted(set(state.rules.pack_cards()), key=lambda c: c.index)
    player = state.current_player if state.current_player is not None else 0
    hand = list(state.hand(player))
    pending = list(getattr(state, "pending", ()))
    legal = list(state.legal_actions())
    melds = len(state.table)
    out: list[Action] = []
    while len(out) < count:
        kind = rng.randrange(10)
        j = rng.randrange(melds + 2)
        action: Action | None
        if kind == 0:
            action = Take(rng.choice(pack))
        elif kind == 1:
            action = Pass()
        elif kind == 2:
            action = Draw()
        elif kind == 3:
            action = Discard(rng.choice(hand + pack))
        elif kind == 4:
            action = Force(_face(rng, pack), onto=j, shift=rng.random() < 0.2)
        elif kind == 5:
            action = Borrow(rng.choice(pack), source=j)
        elif kind == 6:
            pool = hand + pending + pack
            faces: list[Card | NamedJoker] = [rng.choice(pool) for _ in range(rng.randint(1, 5))]
            if rng.random() < 0.3:
                faces.append(_face(rng, pack))
            action = Meld(tuple(faces), onto=None if rng.random() < 0.5 else j)
        elif kind == 7 and hand:  # a held card named twice, with the others of its rank held
            c = rng.choice(hand)
            faces = [c, c, *(d for d in hand if d.rank == c.rank and d != c)]
            action = Meld(tuple(faces), onto=None if rng.random() < 0.7 else j)
        else:
            action = _mutation(rng, rng.choice(legal), pack, melds) if legal else None
        if action is not None:
            out.append(action)
    return out


def check_deal(rules: Any, seed: int) -> int:
    """Play one seeded deal; at every state, every illegal random action must raise with a
    specific reason. The number of illegal actions tried."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % rules.players)
    tried = 0
    while True:
        legal = set(state.legal_actions())
        for action in random_actions(rng, state, 4):
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as caught:
                state.apply(action)
            message = str(caught.value)
            assert caught.value.rule is not None, message
            assert CATCH_ALL not in message, f"{message}\n{state!r}"
            tried += 1
        if state.is_over:
            return tried
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "game",
    [
        pytest.param("two-hand"),
        pytest.param("three-hand"),
        pytest.param("double-pack"),
    ],
)
def test_e1_every_illegal_action_gets_a_specific_reason(game: str) -> None:
    """E1: random illegal actions (random well-formed ones and mutations of legal ones) over
    seeded deals raise `IllegalActionError` citing a rule, never the catch-all reason."""
    presets = GAMES[game]
    tried = sum(check_deal(presets[seed % len(presets)], seed) for seed in range(DEALS))
    assert tried > 10 * DEALS


@pytest.mark.parametrize(
    ("rules", "before"),
    [
        pytest.param(ConquianRules(), [], id="say"),
        pytest.param(ConquianRules(pack="american"), [], id="say-american"),
        pytest.param(ConquianRules(), ["take 5C"], id="melding"),
        pytest.param(ConquianRules.blog(), ["take 5C"], id="melding-blog"),
    ],
)
def test_e1_a_meld_naming_a_card_twice_says_so(rules: ConquianRules, before: list[str]) -> None:
    """E1, C1: in a 40-card pack each card exists once, so ``meld 5H 5H 5H`` is refused, and
    the reason names 5H as given twice (not the catch-all, nor a pending card that could
    not be placed)."""
    held = ["5H", "5D", "5S", "AC", "2C", "3C", "7D", "JH", "QS", "KD"]
    if rules.pack == "american":
        held[-3:] = ["8H", "9S", "10D"]
    rest = [c for c in rules.pack_cards() if str(c) not in held and str(c) != "5C"]
    # Two at a time, the pone (seat 1) first: he gets held[0:2], held[2:4], ...
    deck: list[Card] = []
    for k in range(0, 10, 2):
        deck += [card(held[k]), card(held[k + 1]), rest.pop(0), rest.pop(0)]
    deck += [card("5C"), *rest]
    state = new_game(rules, deck=deck, dealer=0)
    for text in before:
        state = state.apply(text)
    with pytest.raises(IllegalActionError) as caught:
        state.apply("meld 5H 5H 5H")
    message = str(caught.value)
    assert "5H" in message and "twice" in message, message
    assert CATCH_ALL not in message and "could not be melded" not in message, message
