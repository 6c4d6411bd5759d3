"""Properties of the action ids (`ActionSpace`) and observations of `conquian.encoding`.

Every legal action of random games of the three games has an id that gives
it back, masks agree with the legal actions, observations keep one length
per rules, and the ids are pinned by golden data (a published format).
"""

from __future__ import annotations

import array
import hashlib
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import (
    ActionSpace,
    Borrow,
    ConquianRules,
    CooCanRules,
    CooncanRules,
    Meld,
    Pass,
    Rules,
    card,
    cards,
    joker,
    new_game,
    parse_action,
)
from conquian.encoding import FactoredActions, Observer, observation, observation_layout

GOLDEN = Path(__file__).parent.parent / "data" / "action_ids.json"
seeds = st.integers(min_value=0, max_value=2**32 - 1)
all_rules = st.sampled_from(
    [
        ConquianRules(),
        ConquianRules.pagat(),
        ConquianRules.hoyle(),
        ConquianRules(pack="american", hand_size=8, max_sequence=5),
        ConquianRules(players=3),
        ConquianRules.hoyle(players=4),
        ConquianRules(pack="standard", players=3),  # T20
        CooncanRules.three_hand(turn_limit=60),
        CooncanRules.three_hand(jokers=1, stock="open", turn_limit=60),
        CooncanRules.three_hand(players=2, jokers=1, turn_limit=60),
        CooncanRules.double_pack(turn_limit=40),
        CooncanRules.double_pack(players=5, turn_limit=40),
        CooCanRules(players=3, turn_limit=60),
    ]
)


@settings(max_examples=25)
@given(all_rules, seeds)
def test_every_legal_action_round_trips(rules: Rules, seed: int) -> None:
    """Every legal action of a random game has an id, and the id gives the action back;
    the mask has a 1 exactly at the legal ids; the observation keeps its length."""
    space = ActionSpace(rules)
    length = sum(n for _, n in observation_layout(rules))
    rng = random.Random(seed)
    state = new_game(rules, seed=seed, dealer=seed % rules.players)
    while True:
        player = state.current_player
        view = state.view(state.current_player if player is not None else 0)
        ids = space.ids(view)
        assert len(set(ids)) == len(ids) == len(view.legal_actions)
        for i, action in zip(ids, view.legal_actions, strict=True):
            assert 0 <= i < len(space)
            assert space.action(i) == action
        if len(space) < 50_000:
            mask = space.mask(view)
            assert len(mask) == len(space)
            assert {i for i, bit in enumerate(mask) if bit} == set(ids)
        obs = view.observation()
        assert len(obs) == length and all(type(x) is float for x in obs)
        if state.is_over:
            return
        state = state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=30)
@given(st.sampled_from([ConquianRules(), CooncanRules.three_hand(jokers=1)]), st.data())
def test_ids_and_actions_are_inverse(rules: Rules, data: st.DataObject) -> None:
    """`action(i)` then `index` gives `i` back, for ids drawn from the whole space."""
    space = ActionSpace(rules)
    i = data.draw(st.integers(0, len(space) - 1))
    assert space.index(space.action(i)) == i


def test_meld_ids_ignore_the_order_of_cards() -> None:
    """A meld is named by the combination it makes or the cards it adds (C3)."""
    space = ActionSpace(CooncanRules.double_pack())
    assert space.index(parse_action("meld 5D 6D JK=4D")) == space.index(
        parse_action("meld JK=4D 6D 5D")
    )
    assert space.index(parse_action("meld 2H 7H @3")) == space.index(Meld(cards("7H 2H"), onto=3))


def test_actions_no_deal_offers_have_no_id() -> None:
    """Borrowing in Cooncan (M6), a meld index past the most melds, and a card outside the
    pack have no id; ids out of range have no action."""
    two_hand, three_hand = ActionSpace(ConquianRules()), ActionSpace(CooncanRules.three_hand())
    for space, action in (
        (three_hand, Borrow(card("5H"), source=0)),
        (three_hand, Pass()),
        (two_hand, parse_action("take 9H")),  # no nines in the Spanish pack (C4)
        (two_hand, parse_action(f"force 5H @{two_hand.most_melds}")),
        (two_hand, parse_action("meld 5H 6H 7H 8H")),
        (
            ActionSpace(CooncanRules.double_pack()),
            Meld((joker("4D", shifted=True), *cards("5D 6D"))),
        ),
    ):
        with pytest.raises(ValueError):
            space.index(action)
    with pytest.raises(ValueError):
        two_hand.action(len(two_hand))


def test_observation_is_built_from_the_view_alone() -> None:
    """C6: two states that differ only in the opponent's hand give equal observations."""
    rules = ConquianRules()
    state = new_game(rules, seed=21)
    view = state.view(1)
    other = view.sample_state(random.Random(2))
    assert other.hand(0) != state.hand(0)
    assert other.view(1).observation() == view.observation()
    assert len(observation(view)) == sum(n for _, n in observation_layout(rules))


# -- Observer: observations written into a buffer ------------------------------------------


@settings(max_examples=20, deadline=None)
@given(all_rules, seeds)
def test_observer_writes_the_observation(rules: Rules, seed: int) -> None:
    """`Observer.write` gives `observation(view)` entry for entry, from the view or from the
    state without its view; normalised, every entry is in [0, 1]; raw, below `high`; the
    public observation is the same for every seat and names no hand card."""
    raw, norm = Observer(rules), Observer(rules, normalize=True)
    public = Observer(rules, public=True, normalize=True)
    bufs = raw.buffer(), norm.buffer(), public.buffer()
    assert raw.size == len(bufs[0]) == sum(n for _, n in observation_layout(rules))
    assert public.size == sum(n for _, n in observation_layout(rules, public=True))
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    for _ in range(400):
        shared = None
        for p in range(rules.players):
            view = state.view(p)
            expected = observation(view)
            raw.write(state, bufs[0], p)  # float32: Coo-Can's fractions are rounded
            assert tuple(bufs[0]) == expected or bufs[0] == pytest.approx(expected, rel=1e-6)
            assert all(0.0 <= x <= h for x, h in zip(bufs[0], raw.high, strict=True))
            raw.write(view, bufs[0])
            assert tuple(bufs[0]) == expected or bufs[0] == pytest.approx(expected, rel=1e-6)
            norm.write(state, bufs[1], p)
            assert all(0.0 <= x <= 1.0 for x in bufs[1])
            public.write(state, bufs[2], p)
            shared = shared or tuple(bufs[2])
            assert tuple(bufs[2]) == shared
        if state.is_over:
            return
        state = state.apply(rng.choice(state.legal_actions()))


conquian_rules = st.sampled_from(
    [
        ConquianRules(),
        ConquianRules.pagat(),
        ConquianRules.hoyle(),
        ConquianRules(pack="american", hand_size=8, max_sequence=5),
        ConquianRules(players=3),
        ConquianRules.hoyle(players=4),
        ConquianRules.pagat(players=4),
        ConquianRules(trades=2),  # T21: the trade rounds and the cards known given
        ConquianRules(players=3, trades=2),
        ConquianRules(players=4, trades=1, pack="standard"),
    ]
)


@settings(max_examples=30, deadline=None)
@given(conquian_rules, st.booleans(), seeds)
def test_conquian_writer_is_the_observation_of_the_view(
    rules: ConquianRules, normalize: bool, seed: int
) -> None:
    """The offer engine's `ObservationWriter` (the board's card masks, one copy of each
    card, T1) gives, on every state of a random deal to its end and for every seat, what
    `Observer` writes from that seat's view, private and public (C6: the unseen cards are
    the pack less what the view shows; every hand is shown at the end, T19; with trade
    rounds, who has chosen and the cards known given, T21)."""
    from conquian.games import game_of
    from conquian.offer.observe import ObservationWriter

    made = game_of(rules).observation_writer(rules, 6, public=False, normalize=False)
    assert isinstance(made, ObservationWriter)
    most = ActionSpace(rules).most_melds
    writers = {
        public: ObservationWriter(rules, most, public=public, normalize=normalize)
        for public in (False, True)
    }
    observers = {
        public: Observer(rules, public=public, normalize=normalize) for public in (False, True)
    }
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while True:
        for p in range(rules.players):
            view = state.view(p)
            for public, writer in writers.items():
                buf = observers[public].buffer()
                observers[public].write(view, buf)  # from the view's facts, not the masks
                assert writer(state, p) == buf.tobytes(), (public, p, str(state.history))
            if not normalize:
                assert tuple(array.array("f", writers[False](state, p))) == view.observation()
        if state.is_over:
            return
        state = state.apply(rng.choice(state.legal_actions()))


def test_observer_writes_any_float32_buffer() -> None:
    """`Observer.write` fills an ``array('f')``, a memoryview of one, a numpy float32 array,
    a strided slice of one, a float64 array or a list alike (from a state and a seat: the
    offer engine's card masks)."""
    np = pytest.importorskip("numpy")
    rules = ConquianRules(players=3)
    obs = Observer(rules, normalize=True)
    state = new_game(rules, seed=9).apply("pass")
    expected = obs.buffer()
    obs.write(state.view(2), expected)
    view = obs.buffer()
    obs.write(state, memoryview(view), 2)
    array_out = np.zeros(obs.size, np.float32)
    obs.write(state, array_out, 2)
    strided = np.zeros(2 * obs.size, np.float32)
    obs.write(state, strided[::2], 2)
    wide = np.zeros(obs.size, np.float64)
    obs.write(state, wide, 2)
    listed = [0.0] * obs.size
    obs.write(state, listed, 2)
    assert view == expected
    assert array_out.tobytes() == strided[::2].tobytes() == expected.tobytes()
    assert wide.tolist() == listed == expected.tolist()


def test_observer_slices_name_the_parts() -> None:
    """`slices` maps each part of `observation_layout` to its place in the buffer; the
    public observation has neither hand nor unseen cards."""
    rules = ConquianRules()
    obs = Observer(rules)
    buf = obs.buffer()
    state = new_game(rules, seed=4)
    obs.write(state, buf, 0)
    assert list(obs.slices) == [name for name, _ in observation_layout(rules)]
    assert sum(buf[obs.slices["hand"]]) == len(state.hand(0))
    assert sum(buf[obs.slices["unseen"]]) == 40 - 10 - 1  # the other hand and the stock
    assert "hand" not in Observer(rules, public=True).slices
    assert "unseen" not in Observer(rules, public=True).slices


def test_public_observation_hides_the_hands() -> None:
    """C6: two states that differ only in the hands give the same public observation."""
    rules = ConquianRules()
    state = new_game(rules, seed=21)
    other = state.view(1).sample_state(random.Random(2))
    assert other.hand(0) != state.hand(0)
    public = Observer(rules, public=True)
    a, b = public.buffer(), public.buffer()
    public.write(state, a, 0)
    public.write(other, b, 0)
    assert a == b


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 6), seeds)
def test_coo_can_observations_and_masks(players: int, seed: int) -> None:
    """Coo-Can's own layout (`conquian.coocan.view`): the parts the docs name, one length
    per number of players; written from the state (the registry's `state_observation`)
    it is the view's private and public observation; its mask is the engine's
    `ActionIds.mask` of the legal actions, over 9,222 ids for any number of players."""
    from conquian.coocan.ids import ActionIds
    from conquian.coocan.view import public_observation, state_observation
    from conquian.games import game_of

    rules = CooCanRules(players=players, turn_limit=40)
    names = [name for name, _ in observation_layout(rules)]
    assert names == [
        "hand", "discard pile", "table", "top discard", "taken", "known in hands",
        "hand sizes", "opened", "deck size", "reshuffles", "to play", "draw phase", "melded",
    ]  # fmt: skip
    assert Observer(rules).size == 52 * (4 + players) + 2 * players + 5
    assert [n for n, _ in observation_layout(rules, public=True)] == names[1:]
    assert game_of(rules).observation_layout(rules, False) == observation_layout(rules)
    space, ids = ActionSpace(rules), ActionIds()
    assert len(space) == len(ids) == 9_222
    with pytest.raises(ValueError, match="numbers its actions itself"):
        FactoredActions(space)
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while True:
        for p in range(players):
            view = state.view(p)
            assert state_observation(state, p) == view.observation() == observation(view)
            assert state_observation(state, p, public=True) == public_observation(view)
            assert space.mask(view) == ids.mask(view.legal_actions)
        if state.is_over:
            return
        state = state.apply(rng.choice(state.legal_actions()))


# -- FactoredActions: (kind, target, cards) ---------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(all_rules, seeds)
def test_factored_vectors_round_trip(rules: Rules, seed: int) -> None:
    """Every legal action of a random deal has a vector within `nvec`, and the vector gives
    the action and its id back."""
    space = ActionSpace(rules)
    if len(space) < 10_000 and space.families[0][0] == "draw":  # Coo-Can's own ids
        with pytest.raises(ValueError, match="numbers its actions itself"):
            FactoredActions(space)
        return
    factored = FactoredActions(space)
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while not state.is_over:
        ids = space.ids(state.view(state.current_player))
        for i, vector in zip(ids, factored.vectors(ids), strict=True):
            assert len(vector) == len(factored.nvec)
            assert all(0 <= v < n for v, n in zip(vector, factored.nvec, strict=True))
            assert factored.id(vector) == i
        state = state.apply(rng.choice(state.legal_actions()))


def test_factored_sizes_and_bad_vectors() -> None:
    """The double pack's factors are small (8 kinds, 35 targets, 119 faces, 11 cards), and
    a vector no action has raises `ValueError`."""
    factored = FactoredActions(ActionSpace(CooncanRules.double_pack()))
    assert factored.nvec == (8, 35, *([119] * 11))
    none = len(factored.faces)
    draw = (0, factored.most_melds, *([none] * factored.cards))
    assert str(factored.action(draw)) == "draw"
    for bad in (
        (0, 0, *([none] * factored.cards)),  # draw names no meld
        (1, factored.most_melds, *([none] * factored.cards)),  # take names a card
        (6, factored.most_melds, none, 3, *([none] * (factored.cards - 2))),  # a gap
        (6, factored.most_melds, 5, 4, 3, *([none] * (factored.cards - 3))),  # not canonical
        (9, 0),
    ):
        with pytest.raises(ValueError):
            factored.action(bad)


# -- golden ids: a published format ------------------------------------------------------------

GOLDEN_RULES: dict[str, Rules] = {
    "two-hand": ConquianRules(),
    "two-hand pagat": ConquianRules.pagat(),
    "two-hand american 8": ConquianRules(pack="american", hand_size=8),
    "conquian 3 players": ConquianRules(players=3),
    "conquian 4 players pagat": ConquianRules.pagat(players=4),
    "conquian standard": ConquianRules(pack="standard"),  # T20: the full pack
    "conquian 4 players standard pagat": ConquianRules.pagat(pack="standard", players=4),
    "three-hand": CooncanRules.three_hand(),
    "three-hand joker": CooncanRules.three_hand(jokers=1),
    "three-hand two players": CooncanRules.three_hand(players=2),
    "double-pack 4": CooncanRules.double_pack(players=4),
    "double-pack 5": CooncanRules.double_pack(players=5),
    "double-pack 7": CooncanRules.double_pack(players=7),
    "coo-can 4": CooCanRules(),
    "two-hand trades 1": ConquianRules(trades=1),  # T21: the trade ids after every other
    "conquian 3 players trades 2": ConquianRules(players=3, trades=2),
}


def _golden_entry(space: ActionSpace) -> dict[str, object]:
    """The size, the families and every `step`-th action of a space, with a digest of all
    of them for spaces small enough to list."""
    n = len(space)
    step = max(1, n // 60)
    entry: dict[str, object] = {
        "len": n,
        "families": {name: [start, size] for name, start, size in space.families},
        "sample": {str(i): str(space.action(i)) for i in range(0, n, step)},
    }
    if n <= 50_000:
        text = "\n".join(str(space.action(i)) for i in range(n))
        entry["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    return entry


def _golden() -> dict[str, object]:
    return {name: _golden_entry(ActionSpace(rules)) for name, rules in GOLDEN_RULES.items()}


def test_action_ids_match_the_golden_file() -> None:
    """The ids of every golden rules object are those published (tests/data/action_ids.json);
    regenerate only for a new format, with ``python tests/encoding/test_encoding.py --write``."""
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert _golden() == expected


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_text(json.dumps(_golden(), indent=1) + "\n", encoding="utf-8")
