"""Untrusted input costs no more than its size, and no seed reaches a player (E2, C6).

Views edited by hand load within a bounded number of replayed actions and
are refused naming the action at fault; no bare IndexError escapes a view
with an empty zone or an impossible history; action text is capped and read
in linear time; a view's history shares nothing that grows; the CLI shows no
seed and seeds its bots apart from the deal; so does the PettingZoo
single-agent environment for its opponents.
"""

from __future__ import annotations

import gc
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import conquian._sampling as sampling
from conquian import (
    ConquianRules,
    CooncanRules,
    IllegalActionError,
    Meld,
    NotationError,
    PlayerView,
    RecordError,
    State,
    card,
    new_game,
    parse_action,
)
from conquian.agents import AGENTS
from conquian.cli import main
from conquian.formats.records import MAX_ACTION_TEXT


def _played(rules: Any, seed: int, actions: int) -> State:
    """A deal played with random legal actions for `actions` actions (or to its end)."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while len(state.history) < actions and not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _edited(view: PlayerView, **changes: Any) -> str:
    data = json.loads(view.to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.fixture
def replayed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of actions each replay of a sample applied, one entry per replay."""
    counts: list[int] = []
    real = sampling._replay

    def counting(first: Any, history: Any, player: int) -> Any:
        out = real(first, history, player)
        counts.append(out.index + 1 if isinstance(out, sampling._Failed) else len(history))
        return out

    monkeypatch.setattr(sampling, "_replay", counting)
    yield counts


# -- 1. a view no deal explains is refused in bounded time, naming the action ----------------


def test_e2_an_illegal_action_of_the_viewer_is_refused_at_the_first_replay(
    replayed: list[int],
) -> None:
    """E2: an action of the viewer himself that is illegal (a take when no card is on offer)
    is illegal on every deal: one replay finds it, and the error names its index and text."""
    state = _played(ConquianRules(), 4, 12)
    while state.current_player is None or state.offer is not None:  # type: ignore[attr-defined]
        state = state.apply(state.legal_actions()[0])
    me = state.current_player
    history = [str(a) for a in state.history]
    bad = _edited(state.view(me), history=[*history, "take 3H"])
    with pytest.raises(RecordError, match=rf"history\[{len(history)}\]: illegal action 'take 3H'"):
        PlayerView.from_json(bad)
    assert len(replayed) == 1


@pytest.mark.parametrize(
    "rules", [ConquianRules(), CooncanRules.three_hand(), CooncanRules.double_pack()]
)
def test_e2_an_illegal_action_of_another_seat_costs_a_bounded_replay(
    rules: Any, replayed: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """E2: an action of another seat that no deal allows is retried only within the budget
    (here `_REPLAYS` replays of the history and 200 actions), then refused naming the action."""
    monkeypatch.setattr(sampling, "_FLOOR", 200)
    state = _played(rules, 6, 20)
    me = next(p for p in range(rules.players) if p != state.current_player)
    history = [str(a) for a in state.history]
    bad = _edited(state.view(me), history=[*history, "pass" if rules.players > 2 else "draw"])
    with pytest.raises(RecordError) as err:
        PlayerView.from_json(bad)
    n = len(history) + 1
    assert sum(replayed) <= sampling._REPLAYS * (n + 1) + 200 + n  # the last try may overrun
    if replayed:  # a replay ran: the error names the action it stopped at
        assert f"history[{len(history)}]" in str(err.value)


def test_e2_a_valid_view_still_loads_with_the_budget() -> None:
    """The budget refuses no view a deal gives: every view of a few deals loads back."""
    for rules, seed in ((ConquianRules(), 1), (CooncanRules.three_hand(), 2)):
        state = _played(rules, seed, 200)
        for p in range(rules.players):
            assert PlayerView.from_json(state.view(p).to_json()) == state.view(p)


# -- 2. no bare IndexError from a view's zones or history -------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        {"stock": []},
        {"history": ["draw"] * 32},
        {"history": ["draw"] * 200},
        {"known_pack": []},
    ],
    ids=["empty stock", "32 draws", "200 draws", "empty known pack"],
)
def test_e2_cooncan_views_with_impossible_zones_are_record_errors(edit: dict[str, Any]) -> None:
    """E2: a Cooncan view with an emptied zone or more draws than the pack holds raises
    RecordError, not IndexError."""
    state = _played(CooncanRules.three_hand(), 3, 9)
    with pytest.raises(RecordError):
        PlayerView.from_json(_edited(state.view(0), **edit))


def test_e2_a_deleted_take_is_a_record_error() -> None:
    """E2: deleting a `take` from a Cooncan history leaves a history no deal plays."""
    rules = CooncanRules.three_hand()
    for seed in range(40):
        state = _played(rules, seed, 60)
        texts = [str(a) for a in state.history]
        takes = [i for i, t in enumerate(texts) if t.startswith("take")]
        if takes:
            break
    else:
        pytest.fail("no deal with a take")
    del texts[takes[0]]
    for p in range(rules.players):
        with pytest.raises(RecordError):
            PlayerView.from_json(_edited(state.view(p), history=texts))


# -- 3. action text ----------------------------------------------------------------------------


def test_e2_action_text_past_the_limit_is_refused_quoting_an_excerpt() -> None:
    """E2: 120 KB of action text raises NotationError at once, quoting a short excerpt; the
    limit is the records' own."""
    text = "meld " + "5H " * 40_000
    with pytest.raises(NotationError, match="more than the limit of 200") as err:
        parse_action(text)
    assert len(str(err.value)) < 150
    with pytest.raises(NotationError):
        new_game(ConquianRules(), seed=1).apply(text)
    assert parse_action("meld 5H 6H 7H" + " " * (MAX_ACTION_TEXT - 13)) == parse_action(
        "meld 5H 6H 7H"
    )
    with pytest.raises(NotationError):
        parse_action("meld 5H 6H 7H" + " " * (MAX_ACTION_TEXT - 12))


def test_e2_a_long_word_is_refused_quoting_an_excerpt() -> None:
    """E2: a word longer than any of the notation is refused, its excerpt quoted."""
    with pytest.raises(NotationError, match="at column 5") as err:
        parse_action("take " + "5" * 150)
    assert "5" * 30 not in str(err.value)


def test_c2_long_melds_parse_as_short_ones_do() -> None:
    """C2: the longest melds the notation allows parse to the cards written, in order."""
    faces = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]
    action = parse_action("meld " + " ".join(faces) + " @12 shift")
    assert [str(c) for c in action.cards] == faces  # type: ignore[union-attr]
    assert action.onto == 12 and action.shift  # type: ignore[union-attr]


# -- 6, 7. views own their history; sample_state needs a random source ------------------------


@pytest.mark.parametrize("rules", [ConquianRules(), CooncanRules.three_hand()])
def test_c6_a_view_does_not_see_actions_applied_after_it(rules: Any) -> None:
    """C6: a view made before more actions are applied to its state holds nothing that grows
    with them, not even through a private attribute."""
    state = _played(rules, 5, 6)
    view = state.view(0)
    later = state
    for _ in range(4):
        if later.is_over:
            break
        later = later.apply(later.legal_actions()[0])
    assert len(later.history) > len(state.history)
    assert tuple(view.history) == tuple(state.history)
    held = gc.get_referents(view.history)
    assert not any(isinstance(x, list) for x in held)
    assert all(len(x) == len(state.history) for x in held if isinstance(x, tuple))


@pytest.mark.parametrize("rules", [ConquianRules(), CooncanRules.three_hand()])
def test_e2_sample_state_of_none_is_a_type_error_naming_rng(rules: Any) -> None:
    """E2: `view.sample_state(None)` raises TypeError naming the argument."""
    view = new_game(rules, seed=1).view(0)
    with pytest.raises(TypeError, match="rng"):
        view.sample_state(None)  # type: ignore[attr-defined]


# -- 4. no seed reaches a player ---------------------------------------------------------------


def test_c6_conquian_play_shows_no_seed_and_seeds_bots_apart(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """C6: `conquian play` prints no seed, and its bots' seeds are neither the deal's nor
    derived from it by adding the seat."""
    seeds: list[int] = []
    real = AGENTS["heuristic"]

    def factory(seed: int) -> Any:
        seeds.append(seed)
        return real(seed)

    monkeypatch.setitem(AGENTS, "heuristic", factory)
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("quit\n"))
    monkeypatch.chdir(tmp_path)  # quit saves the deal here
    assert main(["play", "--seed", "12345", "--game", "three-hand"]) == 0
    out = capsys.readouterr().out
    assert "12345" not in out and "seed" not in out.lower()
    assert len(seeds) == 2  # a bot for each seat but the human's
    assert not {12345, 12345 + 1, 12345 + 2} & set(seeds)


def test_c6_single_agent_env_seeds_opponents_apart_from_the_deal() -> None:
    """C6: the PettingZoo single-agent environment calls its opponent factory with seeds
    drawn apart from the deal's, never the deal's seed plus the seat."""
    pytest.importorskip("pettingzoo")
    from conquian.pettingzoo import single_agent_env

    seeds: list[int] = []

    def factory(seed: int) -> Any:
        seeds.append(seed)
        return AGENTS["heuristic"](seed)

    env = single_agent_env(CooncanRules.three_hand(), opponent=factory, seat=0)
    for k in range(3):
        env.reset(seed=k)
        deal = env.game.game_state.deck  # the deal the environment made
        assert len(seeds) == 2  # one opponent factory call per other seat
        for s, p in zip(seeds, (1, 2), strict=True):  # seed - seat was the deal's seed
            assert new_game(CooncanRules.three_hand(), seed=s - p).deck != deal  # type: ignore[attr-defined]
        seeds.clear()


@pytest.mark.parametrize("rules", [ConquianRules(), CooncanRules.three_hand()], ids=repr)
def test_e2_a_typed_meld_of_40000_cards_gets_a_short_message(rules: Any) -> None:
    """E2: an action built in code (not parsed, so not capped) naming 40,000 cards is refused
    with a message quoting only an excerpt of it and of the reason."""
    state = new_game(rules, seed=1)
    if rules.game != "conquian":
        state = state.apply("draw")
    with pytest.raises(IllegalActionError) as info:
        state.apply(Meld(tuple([card("5H")] * 40_000)))
    assert len(str(info.value)) < 1_000
    assert info.value.action.startswith("meld 5H 5H")  # the whole text stays on the error
