"""Nothing a seat may not know reaches it (C6), through any channel it can read.

Pairs of deals that differ only where one seat cannot look: two cards that
seat never sees placed (still among its `unseen` at the end) change places in
the deck, and the same history is replayed on both. Every prefix of play
then shows that seat the same things, so each channel it reads must be equal
on the two: the view, its JSON, its text and SVG, its observation and action
mask, the states sampled from it for a seed, and a bot's choice.

A new game or variant joins the test by being in `GAMES`.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from conquian import (
    ActionSpace,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    HeuristicAgent,
    IllegalActionError,
    PlayerView,
    Rules,
    State,
    Trade,
    new_game,
)
from conquian.render import svg
from strategies import random_states

GAMES: list[Rules] = [
    ConquianRules(),
    ConquianRules.pagat(),
    ConquianRules.hoyle(),
    ConquianRules.blog(),
    ConquianRules(pack="american", hand_size=9),
    ConquianRules(players=3),
    ConquianRules.pagat(players=4),
    ConquianRules(trades=2),  # T21: the others' trade choices are hidden
    ConquianRules(players=3, trades=1),
    ConquianRules(players=4, trades=2),
    CooncanRules.three_hand(),
    CooncanRules.three_hand(jokers=1, stock="open"),
    CooncanRules.double_pack(),
    CooncanRules.double_pack(players=7),
    CooCanRules(players=3),
]
"""Every game and variant whose views are checked: a new one is added here."""

DEALS = 3
"""Deals played per game; each is checked at every `EVERY`-th step."""
EVERY = 5


def _cheap_mask(rules: Rules) -> bool:
    """The action spaces of the two-pack games are large: their masks are left out to keep
    this fast."""
    return len(rules.pack_cards()) <= 53


def _played(rules: Rules, seed: int) -> Iterator[State]:
    """Every `EVERY`-th state of a deal played with random legal actions, and the last (at
    most 301 actions)."""
    return random_states(rules, seed, EVERY, most=300)


def _twin(state: State, seat: int, rng: random.Random, never_shown: bool = False) -> State | None:
    """The deal with two cards `seat` never sees (every copy of each) swapped in the deck, the
    history replayed on it; None when there are no two such cards, or the history does not
    replay (the other seats' choices can hang on their hidden cards). With `never_shown`,
    only cards no action of the history names (a card mixed into a new deck from the
    discard pile is unseen there, K8, but was shown)."""
    view = state.view(seat)
    unseen = Counter(view.unseen)
    pack = Counter(state.rules.pack_cards())
    hidden = sorted(c for c, n in unseen.items() if n == pack[c])  # every copy unseen
    trading = bool(getattr(state.rules, "trades", 0))
    if trading:  # T21: and never named in his history (his own trades, the cards he got)
        named_cards = {getattr(a, "card", None) for a in view.history}
        hidden = [c for c in hidden if c not in named_cards]
    if never_shown:
        named = {word for a in state.history for word in str(a).split()[1:]}
        hidden = [c for c in hidden if str(c) not in named]
    if len(hidden) < 2:
        return None
    a, b = rng.sample(hidden, 2)
    deck: list[Any] = list(state.deck)  # type: ignore[attr-defined]
    deck = [b if c == a else a if c == b else c for c in deck]
    twin = new_game(state.rules, deck=deck, dealer=state.dealer)  # type: ignore[attr-defined]
    try:
        for action in state.history:
            if trading and isinstance(action, Trade) and action.card in (a, b):
                action = Trade(b if action.card == a else a)  # the hidden choice, swapped
            twin = twin.apply(action)
    except IllegalActionError:
        return None
    return twin


def _channels(view: PlayerView, rules: Rules, seed: int) -> dict[str, object]:
    """What `view`'s player can read, each channel by name."""
    out: dict[str, object] = {
        "view": view,
        "json": view.to_json(),
        "text": str(view),
        "svg": svg.render(view),
        "observation": view.observation(),  # type: ignore[attr-defined]
    }
    if _cheap_mask(rules):
        out["mask"] = ActionSpace(rules).mask(view)
    with contextlib.suppress(NotImplementedError):  # a game whose events are not told yet
        out["events"] = tuple(e.to_json() for e in view.events())
    sample = view.sample_state(random.Random(seed))  # type: ignore[attr-defined]
    seats = range(rules.players)
    out["sample"] = (sample.deck, sample.history, tuple(sample.view(q) for q in seats))
    if view.legal_actions:
        out["bot"] = HeuristicAgent(seed)(view)
    return out


@pytest.mark.slow  # a long statistical test: CI runs it (.ci/run)
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: repr(r)[:60])
def test_c6_deals_that_differ_only_in_hidden_cards_look_the_same(rules: Rules) -> None:
    """C6: two deals that differ only in cards a seat never sees show it equal views, JSON,
    text, SVG, observations, masks, events, samples for a seed and bot choices, at every
    step."""
    compared = 0
    for seed in range(DEALS):
        rng = random.Random(1000 + seed)
        for state in _played(rules, seed):
            seat = rng.randrange(rules.players)
            twin = _twin(state, seat, rng)
            if twin is None:
                continue
            assert twin.deck != state.deck  # type: ignore[attr-defined]  # a true pair
            one = _channels(state.view(seat), rules, seed)
            two = _channels(twin.view(seat), rules, seed)
            for name in one:
                assert one[name] == two[name], f"{name} differs for seat {seat} of {rules!r}"
            assert one.keys() == two.keys()
            compared += 1
    assert compared >= DEALS  # the pairs were built and compared, not all skipped


def test_c6_coocan_views_after_a_reshuffle_look_the_same() -> None:
    """C6, K8: two Coo-Can deals that differ only in cards a seat never saw look the same to
    it just after the discard pile is mixed into a new deck, and after the next player's
    draw from it (his card unseen): views, JSON, text, observations, events, samples.

    The reshuffle is seeded from the deal's deck (C7), so the twin's new deck has the same
    cards in another order: the pair is compared until the viewer draws from it."""
    rules = CooCanRules(players=4)
    compared = 0
    for seed in range(DEALS):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed, dealer=seed % 4)
        while not state.is_over and state.reshuffles == 0:  # type: ignore[attr-defined]
            legal = state.legal_actions()
            plain = [a for a in legal if type(a).__name__ in ("Draw", "Discard")]
            state = state.apply(rng.choice(plain or legal))
        if state.is_over:
            continue
        seat = (state.current_player + 3) % 4  # type: ignore[operator]  # he discarded last
        after_draw = state.apply("draw")
        for position in (state, after_draw):
            twin = _twin(position, seat, rng, never_shown=True)
            if twin is None:
                continue
            one = _channels(position.view(seat), rules, seed)
            two = _channels(twin.view(seat), rules, seed)
            assert one.keys() == two.keys() and "events" in one
            for name in one:
                assert one[name] == two[name], f"{name} differs for seat {seat} after K8"
            compared += 1
    assert compared >= DEALS
