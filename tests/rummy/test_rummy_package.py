"""The Cooncan package as a whole: its rule map, seats, "Showing", its repr, and the edges of
the melding rules that random play rarely reaches (RULES.md M4, M9, M13, C5, C6)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conquian.rummy
from conquian import JOKER, Card, CooncanRules, card, cards, make_pack, new_game
from conquian.combos.core import Combination, Order, melds_in
from conquian.rummy import CooncanState, cut_for_deal, dealing
from conquian.rummy.melds import Fits, Memo, plays
from conquian.rummy.tables import may_meld
from test_rummy import game, play

ORDER = Order.of("standard")


def test_every_rule_of_the_game_has_a_home_in_the_package_docstring() -> None:
    """The "where each rule lives" map names every M rule, and C5, C6 and E1."""
    doc = conquian.rummy.__doc__ or ""
    for rule in [f"M{i}" for i in range(1, 14)] + ["C5", "C6", "E1"]:
        assert re.search(rf"\b{rule}\b", doc), f"{rule} is not in the map"


# -- seats are ints (issue: only documented exceptions leave the library) ---------------------


@pytest.mark.parametrize("seat", ["0", 1.0, True, None])
def test_hand_and_view_take_a_seat_number_not_another_type(seat: object) -> None:
    """A seat is an int, not a bool, a float or a string: TypeError naming the argument."""
    state = new_game(CooncanRules.three_hand(), seed=1)
    with pytest.raises(TypeError, match="player"):
        state.hand(seat)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="player"):
        state.view(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [-1, 3])
def test_hand_and_view_refuse_a_seat_out_of_the_game(seat: int) -> None:
    state = new_game(CooncanRules.three_hand(), seed=1)
    with pytest.raises(ValueError, match="no seat"):
        state.hand(seat)
    with pytest.raises(ValueError, match="no seat"):
        state.view(seat)


# -- C6 "Showing" ---------------------------------------------------------------------------


def _finished(rules: CooncanRules, seed: int) -> CooncanState:
    state = new_game(rules, seed=seed)
    assert isinstance(state, CooncanState)
    while not state.is_over:
        actions = state.legal_actions()
        lays = [a for a in actions if str(a).startswith(("meld", "force"))]
        state = state.apply((lays or actions)[seed % len(lays or actions)])
    return state


@pytest.mark.parametrize(
    "rules",
    [CooncanRules.three_hand(turn_limit=40), CooncanRules.double_pack(players=3, turn_limit=2)],
    ids=["won-or-abandoned", "abandoned"],
)
def test_c6_showing_a_finished_deal_shows_every_hand(rules: CooncanRules) -> None:
    """C6 "Showing" (Foster law 23): once the deal is over each view holds every hand, and
    `unseen` holds only the pack's cards; the view's JSON shows the hands."""
    state = _finished(rules, seed=4)
    hands = tuple(state.hand(p) for p in range(rules.players))
    for p in range(rules.players):
        view = state.view(p)
        assert view.hands == hands
        assert Counter(view.unseen) == Counter(state.pack)
        assert json.loads(view.to_json())["hands"] == [[str(c) for c in h] for h in hands]


def test_c6_a_deal_in_progress_shows_no_other_hand() -> None:
    state = new_game(CooncanRules.three_hand(), seed=4).apply("draw")
    view = state.view(0)
    assert view.hands is None and json.loads(view.to_json())["hands"] is None
    assert set(state.hand(1)) <= set(view.unseen) | set(state.known[1])


def test_repr_shows_hands_and_table() -> None:
    """The repr names the hands and the combinations on the table with their indices."""
    state = game(CooncanRules.three_hand(players=2), ["2C 3C 4C 9D 9S KH KS"], starter="AC")
    state = play(state, "draw", "meld 2C 3C 4C")
    text = repr(state)
    assert " ".join(map(str, state.hand(0))) in text
    assert " ".join(map(str, state.hand(1))) in text
    assert "@0 2C 3C 4C" in text


# -- M9: a joker shift paid with a joker from the hand ------------------------------------


def test_m9_a_joker_shift_may_be_paid_with_a_joker_from_the_hand() -> None:
    """M9 (law 18), C5: the card played after the shift may be the other joker, named."""
    rules = CooncanRules.double_pack(players=2)
    state = game(
        rules, ["7H 8H JK JK 2C 4D 6S 8C 10D QS", "3C 5D 7S 9C JD 2S 4S 6D 8D 10S"], starter="KC"
    )
    state = play(state, "draw", "meld 7H 8H JK=9H", "discard 2C", "draw")
    state = play(state, f"discard {state.hand(1)[0]}", "draw")
    actions = [str(a) for a in state.legal_actions()]
    assert "meld JK=9H @0 shift" in actions and "meld JK=5H @0 shift" in actions
    after = state.apply("meld JK=9H @0 shift")
    combo = after.table[0]
    assert str(combo) == "JK=6H 7H 8H JK=9H"
    assert combo.cards[0].shifted and not combo.cards[-1].shifted  # type: ignore[union-attr]
    assert after.hand(0).count(JOKER) == state.hand(0).count(JOKER) - 1


# -- M4, C5: the melding pre-filter's joker edges ------------------------------------------


@pytest.mark.parametrize(
    ("hand", "meld"),
    [
        ("5C JK JK", True),  # two jokers and any natural card
        ("JK JK", False),  # no natural card
        ("5C 5D JK", True),  # a pair and one joker
        ("5C 7C JK", True),  # two places of a suit, one apart
        ("5C 8C JK", False),  # two places too far apart
        ("5C 9D JK", False),  # one joker, nothing to join
        ("AC 2C JK", True),  # the ace low
        ("QC AC JK", True),  # the ace high
        ("5C 5D 5H", True),
        ("5C 6C 7C", True),
        ("5C 6C 8D", False),
    ],
)
def test_m4_melding_prefilter_at_its_joker_edges(hand: str, meld: bool) -> None:
    """M4, C5: the pre-filter agrees with `melds_in` on the hands at its edges."""
    held = cards(hand)
    assert may_meld(held) is meld
    assert bool(melds_in(held, ORDER)) is meld


_DOUBLE_PACK = make_pack(copies=2, jokers=2)


@given(st.lists(st.sampled_from(range(len(_DOUBLE_PACK))), min_size=3, max_size=10, unique=True))
def test_melding_prefilter_never_hides_a_meld(picks: list[int]) -> None:
    """M4, C5: whenever the pre-filter says no, `melds_in` finds no combination (the pre-filter
    only skips work; the rules are `melds_in`'s)."""
    hand = tuple(sorted(_DOUBLE_PACK[i] for i in picks))
    if not may_meld(hand):
        assert melds_in(hand, ORDER) == ()


def test_melding_prefilter_in_play_one_card_and_two_jokers_go_out() -> None:
    """M4, M10, C5: a hand of X JK JK in the play phase is laid out whole, and wins."""
    rules = CooncanRules.double_pack(players=2)
    state = game(rules, ["JK JK 9D 9S 9H 2C 3C 4C 5C 6C"], starter="AC", pack="KD")
    state = play(state, "draw", "meld 9D 9S 9H", "meld 2C 3C 4C 5C 6C")
    assert [str(c) for c in state.hand(0)] == ["KD", "JK", "JK"]
    whole = [a for a in state.legal_actions() if str(a).startswith("meld") and len(a.cards) == 3]
    assert whole, "no meld of KD and both jokers is offered"
    assert state.apply(whole[0]).result is not None  # M10: he goes out


# -- M13: cutting for seats ------------------------------------------------------------------


def test_m13_cut_for_exactly_two_players() -> None:
    """M13, law 2: two players cut; the higher card takes seat 0 and deals first."""
    cut = cut_for_deal(["Ann", "Bob"], seed=3)
    assert sorted(cut.seats) == ["Ann", "Bob"] and cut.dealer == 0
    assert all(len(r) == 2 for r in cut.rounds)
    last = dict(cut.rounds[-1])
    assert last[cut.seats[0]].rank > last[cut.seats[1]].rank
    with pytest.raises(ValueError):
        cut_for_deal(["Ann"], seed=3)


def test_m13_a_pack_that_runs_short_is_shuffled_again_with_the_next_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """M13, law 2: ties cut again; when the pack runs short it is gathered and shuffled again
    with the next seed (a two-card pack stands in for a long run of ties)."""
    seeds: list[int] = []
    packs = {5: cards("AC AD"), 6: cards("KC 2D")}

    def short_shuffle(pack: tuple[Card, ...], seed: int) -> tuple[Card, ...]:
        seeds.append(seed)
        return packs[seed]

    monkeypatch.setattr(dealing, "shuffle", short_shuffle)
    cut = cut_for_deal(["Ann", "Bob"], seed=5)
    assert seeds == [5, 6]
    assert cut.rounds == ((("Ann", card("AC")), ("Bob", card("AD"))),
                          (("Ann", card("KC")), ("Bob", card("2D"))))  # fmt: skip
    assert cut.seats == ("Ann", "Bob")


# -- bounded memo tables ---------------------------------------------------------------------


def test_the_memo_tables_of_plays_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plays a deal remembers (its `Memo`) stay within MEMO_LIMIT per table, however long
    the deal, and the table of forces has one row per place on the table at most (a count,
    not a timing)."""
    from conquian.rummy import melds

    monkeypatch.setattr(melds, "MEMO_LIMIT", 6)
    rules = [CooncanRules.three_hand(jokers=1, turn_limit=60), CooncanRules.double_pack(players=6)]
    most: dict[str, int] = {}
    for seed in range(40):
        state = new_game(rules[seed % 2], seed=seed)
        assert isinstance(state, CooncanState)
        for _ in range(400):
            if state.is_over:
                break
            actions = state.legal_actions()
            state = state.apply(actions[(seed * 7 + len(state.history)) % len(actions)])
            for name, size in state._deal.memo.sizes().items():
                most[name] = max(most.get(name, 0), size)
    assert all(size <= 6 for size in most.values()), most
    assert max(most.values()) == 6  # the bound is reached, and held
    assert len(melds._FORCES) == melds.MAX_COMBINATIONS


def test_a_deals_memo_goes_with_its_states() -> None:
    """Nothing a deal remembers outlives it: a new deal starts with an empty memo, and an
    unpickled state with one of its own (the memo is not part of the value)."""
    import pickle

    state = new_game(CooncanRules.double_pack(players=4), seed=2)
    for _ in range(60):
        state = state.apply(state.legal_actions()[-1])
    assert isinstance(state, CooncanState)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state)
    assert again._deal.memo is not state._deal.memo
    assert set(new_game(state.rules, seed=3)._deal.memo.sizes().values()) == {0}  # type: ignore[attr-defined]


def _open_fits(table: tuple[Combination, ...]) -> Fits:
    """A `Fits` that lets every card through to every combination: the plain search."""
    fit = Fits.of(table)
    everything = (1 << 53) - 1
    return Fits(
        fit.cards,
        (everything,) * len(table),
        tuple(everything if mask else 0 for mask in fit.shift_masks),
    )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["three", "joker", "double"]))
def test_plays_agree_with_every_combination_tried(seed: int, variant: str) -> None:
    """M4, M5, M9: `plays` looks only at the combinations a card of the hand reaches (`Fits`)
    and gives the same plays, in the same order, as trying every combination; for every
    seat's hand over a random deal in which melds and forces are played often."""
    rules = {
        "three": CooncanRules.three_hand(turn_limit=80),
        "joker": CooncanRules.three_hand(jokers=1, turn_limit=80),
        "double": CooncanRules.double_pack(players=4, turn_limit=80),
    }[variant]
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    assert isinstance(state, CooncanState)
    while not state.is_over:
        table = state.table
        for p in range(rules.players):
            hand = state.hand(p)
            if hand:
                fast = plays(hand, table, Fits.of(table), p, Memo())
                assert fast == plays(hand, table, _open_fits(table), p, Memo())
        actions = state.legal_actions()
        lays = [a for a in actions if str(a).startswith(("meld", "force"))]
        pool = lays if lays and rng.random() < 0.7 else actions
        state = state.apply(pool[rng.randrange(len(pool))])


def test_a_negative_combination_index_is_refused_not_an_index_error() -> None:
    """E1: force or meld onto @-1 is refused (when the action is made, or as illegal), never
    an IndexError from inside."""
    from conquian import Force, IllegalActionError, Meld

    state = game(CooncanRules.three_hand(players=2), ["2C 3C 4C 9D 9S KH KS"], starter="AC")
    state = play(state, "draw", "meld 2C 3C 4C", "discard KH", "draw")
    for make in (lambda: Force(card("5C"), onto=-1), lambda: Meld(cards("5C"), onto=-1)):
        try:
            action = make()
        except ValueError:
            continue  # refused when the action is made
        with pytest.raises(IllegalActionError):
            state.apply(action)


@pytest.mark.parametrize("name", ["table", "stock", "current_player", "phase", "turns", "result"])
def test_a_states_public_fields_are_read_only(name: str) -> None:
    """States are values: assigning a public field raises, and the state is unchanged."""
    state = new_game(CooncanRules.three_hand(jokers=1), seed=4).apply("draw")
    before = repr(state)
    with pytest.raises(AttributeError):
        setattr(state, name, None)
    assert repr(state) == before


def test_copies_and_pickles_of_a_state_are_equal_values_with_the_same_actions() -> None:
    """A state copied, deep-copied or pickled equals the original, hashes alike, offers the
    same legal actions and leads to equal states (the legal-action cache is not pickled)."""
    import copy
    import pickle

    rng = random.Random(8)
    state = new_game(CooncanRules.double_pack(players=5, turn_limit=90), seed=8)
    while not state.is_over:
        actions = state.legal_actions()
        for other in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
            assert other == state and hash(other) == hash(state)
            assert other.legal_actions() == actions
        action = actions[rng.randrange(len(actions))]
        assert pickle.loads(pickle.dumps(state)).apply(action) == state.apply(action)
        state = state.apply(action)
    assert state.result is not None
