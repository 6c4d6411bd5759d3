"""Conquian for three and four (T16–T19) outside the engine: the registry, diagrams, SVG, the
CLI, records and the bots."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

from conquian import (
    GAMES,
    ConquianRules,
    CooncanRules,
    GameRecord,
    HeuristicAgent,
    State,
    game_of,
    new_game,
)
from conquian.agents import HandReader, ISMCTSAgent, play
from conquian.cli import main
from conquian.render.svg import render
from conquian.render.text import origin

SEATS = [3, 4]


def _rules(players: int) -> ConquianRules:
    return ConquianRules(players=players)


def _played(rules: ConquianRules, seed: int, actions: int) -> State:
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


# -- what runs today on two seats, and the reader's refusal ----------------------------------


def test_the_reader_reads_two_seat_conquian_only() -> None:
    """HandReader.declines: None for two-seat Conquian, the reason for Cooncan."""
    assert HandReader.declines(new_game(ConquianRules(), seed=1).view(0)) is None
    why = HandReader.declines(new_game(CooncanRules.double_pack(), seed=1).view(0))
    assert why == (
        "Foster's double-pack Cooncan is not read: the hidden hands grow by draws from the pack"
    )
    reader = HandReader(HeuristicAgent(), slip=0.1)
    assert reader.start(new_game(ConquianRules(), seed=7).apply("pass").view(1), random.Random(1))
    assert not reader.start(new_game(CooncanRules.three_hand(), seed=1).view(0), random.Random(1))


def test_origin_names_the_passer_as_the_right_neighbour() -> None:
    """A passed card comes from the player on the right of the one who has the say (T6, T17)."""
    state = new_game(ConquianRules(), seed=3, dealer=1).apply("pass")
    assert state.current_player == 1
    assert origin(state) == "passed by seat 0"


# -- three and four seats --------------------------------------------------------------------


@pytest.mark.parametrize("players", SEATS)
def test_registry_knows_conquian_for_more_seats(players: int) -> None:
    """ConquianRules(players=n) is the conquian game; its seats include n (T16)."""
    rules = _rules(players)
    assert game_of(rules) is GAMES["conquian"] and players in GAMES["conquian"].seats
    assert GAMES["conquian"].rules(players=players) == rules
    assert GAMES["conquian"].most_melds(rules) == players * ((rules.hand_size + 1) // 3)


@pytest.mark.parametrize("players", SEATS)
def test_text_diagram_shows_every_hand(players: int) -> None:
    """The diagram of a state shows n hands of the T16 size; a view its own hand first."""
    rules = _rules(players)
    state = new_game(rules, seed=4, dealer=players - 1)
    lines = str(state).splitlines()
    assert lines[0].startswith(f"Conquian for {players} ({rules.pack} pack, 40 cards)")
    for seat in range(players):
        row = next(line for line in lines if line.startswith(f"seat {seat} "))
        assert f"({rules.hand_size} cards, 0 melded)" in row
    view_lines = str(state.view(1)).splitlines()
    assert view_lines[1] == "seat 1's view" and view_lines[2].startswith("seat 1 ")
    assert sum(f"{rules.hand_size} cards, 0 melded" in line for line in view_lines) == players


@pytest.mark.parametrize("players", SEATS)
def test_origin_of_a_passed_card_with_more_seats(players: int) -> None:
    """A passed card is on offer to the passer's left neighbour, from the passer (T17)."""
    state = new_game(_rules(players), seed=2, dealer=players - 1)  # the pone is seat 0
    passed = state.apply("pass")
    assert passed.current_player == 1
    assert origin(passed) == "passed by seat 0"
    assert "(passed by seat 0)" in str(passed)


@pytest.mark.parametrize("players", SEATS)
def test_svg_draws_every_hand(players: int) -> None:
    """The SVG of a state labels n hands; of a view, n hands with the player's marked."""
    state = new_game(_rules(players), seed=5)
    picture = render(state)
    assert all(f"seat {seat}: " in picture for seat in range(players))
    assert render(state.view(2)).count("(this view):") == 2  # the caption and the aria-label


@pytest.mark.parametrize("players", SEATS)
def test_records_of_more_seats_round_trip(players: int) -> None:
    """A record of an n-seat deal writes "conquian" with its players and replays."""
    state = _played(_rules(players), seed=6, actions=15)
    text = GameRecord.from_state(state).to_json()
    assert json.loads(text)["rules"]["game"] == "conquian"
    assert json.loads(text)["rules"]["players"] == players
    assert GameRecord.from_json(text).replay() == state
    assert State.from_json(state.to_json()) == state


@pytest.mark.parametrize("players", SEATS)
def test_heuristic_bots_play_more_seats_to_the_end(players: int) -> None:
    """n heuristic bots finish a deal: a win with every loser paying one, or a tableau."""
    rules = _rules(players)
    final = play([HeuristicAgent() for _ in range(players)], rules, seed=7)
    result = final.result
    assert result is not None and len(result.payments) == players
    if result.winner is not None:
        assert result.payments[result.winner] == players - 1  # one counter each (T19)


@pytest.mark.parametrize("players", SEATS)
def test_the_reader_declines_more_seats_and_says_why(players: int) -> None:
    """With n > 2 the reader declines, naming the hands; the search then samples uniformly."""
    view = new_game(_rules(players), seed=8).view(1)
    assert HandReader.declines(view) == (
        f"with {players} players the unseen cards lie in {players - 1} hands "
        "and the reader weighs one"
    )
    assert not HandReader(HeuristicAgent(), slip=0.1).start(view, random.Random(1))
    agent = ISMCTSAgent(seed=1, iterations=2, reading=0.1, rollout_limit=60)
    assert agent(view) in view.legal_actions


@pytest.mark.parametrize("players", SEATS)
def test_search_plays_a_deal_of_more_seats(players: int) -> None:
    """The searching bot plays every seat of an n-seat deal with legal actions only."""
    rules = _rules(players)
    agents = [ISMCTSAgent(seed=s, iterations=1, rollout_limit=40) for s in range(players)]
    state = new_game(rules, seed=9)
    for _ in range(12):
        seat = state.current_player
        if seat is None:
            break
        view = state.view(seat)
        action = agents[seat](view)
        assert action in view.legal_actions
        state = state.apply(action)


@pytest.mark.parametrize("players", SEATS)
def test_cli_simulate_with_players(
    players: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate --players N`` plays n seats of Conquian: one agent per seat."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = main(["simulate", "--players", str(players), "--games", "2", "--json", "--quiet"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["game"] == "conquian" and len(data["agents"]) == players


@pytest.mark.parametrize("players", SEATS)
def test_cli_play_with_players(
    players: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """``play --players N`` deals n hands of Conquian and shows every seat's hand."""
    monkeypatch.chdir(tmp_path)  # quit saves the game in the current directory
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    status = main(["play", "--players", str(players), "--seed", "3"])
    out = capsys.readouterr().out
    assert status == 0
    assert f"Conquian for {players}" in out and f"Meld {_rules(players).hand_size + 1}" in out


def test_cli_refuses_a_seat_count_the_rules_refuse(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play --players 5``: the rules object's error, on one line, exit status 2."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = main(["play", "--players", "5"])
    err = capsys.readouterr().err
    assert status == 2 and "players" in err and err.count("\n") == 1


# -- views, samples and observations of more seats (C6) --------------------------------------


@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("seed", [2, 9])
def test_c6_a_sample_gives_the_view_and_the_view_json_samples_the_same(
    players: int, seed: int
) -> None:
    """C6: a sampled deal of three or four seats gives the viewer's view; the view read back
    from its JSON samples the same deal for the same seed (view-only sampling)."""
    state = _played(_rules(players), seed, 25)
    for seat in range(players):
        view = state.view(seat)
        sample = view.sample_state(random.Random(seed))
        assert sample.view(seat) == view
        again = type(view).from_json(view.to_json()).sample_state(random.Random(seed))
        assert again == sample


def _chi_square(counts: dict[object, int], keys: list[object], expected: float) -> float:
    return sum((counts.get(k, 0) - expected) ** 2 / expected for k in keys)


def test_c6_three_seats_unseen_cards_land_uniformly() -> None:
    """C6: at the deal of three seats each card the pone cannot see is in his left
    neighbour's hand with probability 8/31 and is the next stock card with probability 1/31;
    the true hand is not favoured."""
    state = new_game(_rules(3), seed=11)
    view = state.view(1)  # the pone: both other hands and the stock are unseen
    unseen = list(view.unseen)
    assert len(unseen) == 40 - 8 - 1 == 31  # two hands of eight and a stock of fifteen
    in_left: dict[object, int] = {}
    next_up: dict[object, int] = {}
    overlap, runs, rng = 0, 900, random.Random(5)
    true_left = set(state.hand(2))
    for _ in range(runs):
        sample = view.sample_state(rng)
        for c in sample.hand(2):
            in_left[c] = in_left.get(c, 0) + 1
        overlap += len(true_left.intersection(sample.hand(2)))
        turned = sample.apply("pass").apply("pass")  # the starter buried, the next turned
        next_up[turned.offer] = next_up.get(turned.offer, 0) + 1
    bound = 30 + 6 * (2 * 30) ** 0.5  # far above chance for 30 degrees of freedom
    assert _chi_square(in_left, unseen, runs * 8 / 31) < bound
    assert _chi_square(next_up, unseen, runs / 31) < bound
    assert abs(overlap / runs - 64 / 31) < 0.35


@pytest.mark.parametrize("players", SEATS)
def test_observations_of_more_seats_keep_their_length(players: int) -> None:
    """Observations of three and four seats have the documented length at every step, and
    the observer's buffer agrees with `view.observation()`."""
    from conquian.encoding import Observer, observation_layout

    rules = _rules(players)
    length = sum(n for _, n in observation_layout(rules))
    observer = Observer(rules, normalize=False)
    buf = observer.buffer()
    state, rng = new_game(rules, seed=4), random.Random(4)
    while not state.is_over:
        view = state.view(state.current_player)
        assert len(view.observation()) == length
        observer.write(state, buf, player=state.current_player)
        assert tuple(buf) == view.observation()
        state = state.apply(rng.choice(state.legal_actions()))
