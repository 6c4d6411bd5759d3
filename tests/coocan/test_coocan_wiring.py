"""Every game of the registry is playable everywhere: records, positions and views round-trip,
text and SVG diagrams draw it, the bots and `simulate` play it. A game that joins `GAMES` is
checked here with nothing to add; Coo-Can (rules K) is the game that joined last."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from importlib import resources

import pytest

import conquian
from conquian import (
    GAMES,
    ConquianView,
    CooCanRules,
    CooCanState,
    CooCanView,
    GameRecord,
    HeuristicAgent,
    PlayerView,
    RecordError,
    Rules,
    State,
    game_of,
    new_game,
    simulate,
)
from conquian.agents import AGENTS
from conquian.agents.coocan import CooCanAgent
from conquian.agents.search import ISMCTSAgent
from conquian.cards import shuffle
from conquian.coocan import CooCanGame, deal
from conquian.coocan.codec import CODEC
from conquian.events import events
from conquian.render import svg
from conquian.render.text import diagram


def _rules(name: str) -> Rules:
    """The game's default rules for its fewest seats, with an end to every deal."""
    game = GAMES[name]
    rules = game.rules(players=min(game.seats))
    if hasattr(rules, "turn_limit"):
        rules = game.rules(players=min(game.seats), turn_limit=200)
    return rules


def _played(rules: Rules, seed: int, actions: int) -> State:
    """A seeded deal played on by the heuristic bot for `actions` actions (or to its end)."""
    state = new_game(rules, seed=seed)
    bot = HeuristicAgent()
    for _ in range(actions):
        if state.current_player is None:
            break
        state = state.apply(bot(state.view(state.current_player)))
    return state


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_round_trips_records_positions_and_views(name: str) -> None:
    """C7, E2, E3: a position, each seat's view and the deal's record read back equal."""
    rules = _rules(name)
    for actions in (0, 7, 30):
        state = _played(rules, seed=5, actions=actions)
        assert State.from_json(state.to_json()) == state
        for seat in range(rules.players):
            view = state.view(seat)
            back = PlayerView.from_json(view.to_json())
            assert back == view and type(back) is type(view)
        record = GameRecord.from_state(state)
        again = GameRecord.from_json(record.to_json())
        assert again.replay() == state


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_draws_as_text_and_svg(name: str) -> None:
    """str() and SVG draw a state and a view: the heading, every seat, the table, the status."""
    rules = _rules(name)
    state = _played(rules, seed=3, actions=20)
    heading = game_of(rules).describe(rules)
    for position in (state, state.view(0)):
        text = str(position)
        assert text == diagram(position) and text.startswith(heading)
        assert all(f"seat {s}" in text for s in range(rules.players))
        assert "table" in text and ("next" in text or "result" in text)
        picture = svg.render(position)
        assert ET.fromstring(picture).tag.endswith("svg")
        assert position._repr_svg_() == picture


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_plays_a_simulate_run(name: str) -> None:
    """`simulate` plays whole deals of every game between the heuristic and random bots."""
    rules = _rules(name)
    agents = ["heuristic"] + ["random"] * (rules.players - 1)
    summary = simulate(agents, rules, games=2, seed=1)
    assert summary.games == 2
    assert sum(summary.wins) + summary.abandoned + summary.tableaus == 2


# -- Coo-Can -------------------------------------------------------------------------------


def test_coo_can_is_dealt_by_new_game_from_a_seed_or_a_deck() -> None:
    """K1, C7: new_game deals Coo-Can by the entry; the seeded deal is the seeded shuffle."""
    rules = CooCanRules(players=3)
    state = new_game(rules, seed=7, dealer=1)
    assert isinstance(state, CooCanState)
    assert state == deal(rules, shuffle(rules.pack_cards(), 7), 1)
    assert new_game(rules, deck=state.deck, dealer=1) == state
    assert [len(state.hand(p)) for p in range(3)] == [10, 11, 10]  # the dealer has 11
    with pytest.raises(RecordError, match="invalid deck"):
        new_game(rules, deck=state.deck[1:], dealer=1)


def test_coo_can_exports_and_entry() -> None:
    """The rules, state and view classes are the package's; the entry holds the engine's
    codec and view reader."""
    assert conquian.CooCanRules is CooCanRules and conquian.CooCanView is CooCanView
    game = GAMES["coo-can"]
    assert game.codec is CODEC and isinstance(game, CooCanGame)
    assert game_of(CooCanRules()) is game


def test_coo_can_views_read_through_the_entry_and_by_their_class() -> None:
    """PlayerView.from_json routes a Coo-Can view to the engine's reader; another game's view
    class refuses it, naming the game (E2)."""
    view = _played(CooCanRules(), seed=2, actions=12).view(1)
    text = view.to_json()
    assert PlayerView.from_json(text) == CooCanView.from_json(text) == view
    with pytest.raises(RecordError, match="a coo-can view is not a ConquianView"):
        ConquianView.from_json(text)


def test_coo_can_diagram_shows_the_discard_pile_the_deck_and_melds_by_owner() -> None:
    """K2, K3: the dealer opens with a discard; the diagram names the piles and the owners."""
    state = new_game(CooCanRules(players=2), seed=1, dealer=0)
    assert str(state).endswith("next      seat 0 to discard, the dealer's opening (K2)")
    state = state.apply(state.legal_actions()[0])
    text = str(state)
    assert "discards  " in text and "(1 card, top last)" in text
    assert "deck      83 cards face down" in text
    assert "seat 1 to draw from the deck or take the top discard" in text
    state = _played(CooCanRules(players=2), seed=11, actions=200)
    for i, meld in enumerate(state.table):
        assert f"@{i} seat {meld.owner}: " in str(state)
    picture = svg.render(state.view(0))
    assert "discards: face up, top last" in picture and "deck: " in picture


def test_coo_can_is_played_by_the_heuristic_and_the_search() -> None:
    """The registry's heuristic plays Coo-Can as CooCanAgent does; ISMCTS plays legal moves."""
    state = _played(CooCanRules(), seed=4, actions=9)
    view = state.view(state.current_player)
    assert AGENTS["heuristic"](1)(view) == CooCanAgent()(view)
    search = ISMCTSAgent(seed=3, iterations=6)
    assert search(view) in view.legal_actions


def test_coo_can_events_are_told_from_the_view() -> None:
    """C6: a Coo-Can view tells its deal without replaying a sampled one (K8): the deal,
    then the dealer's opening discard (K2)."""
    state = new_game(CooCanRules(), seed=1)
    state = state.apply(state.legal_actions()[0])
    told = events(state.view(1))
    assert [e.kind for e in told] == ["deal", "discard"]
    assert str(told[0]) == "Seat 0 deals." and told[1].seat == 0


def test_coo_can_sample_state_gives_the_view() -> None:
    """C6: a position drawn from a view gives that view back."""
    view = _played(CooCanRules(players=5), seed=6, actions=25).view(2)
    drawn = view.sample_state(random.Random(1))
    assert isinstance(drawn, CooCanState) and drawn.view(2) == view


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_writes_documents_the_schemas_accept(name: str) -> None:
    """The record, position and view documents of every game validate against the published
    JSON schemas (`conquian/formats/schemas`), at the deal, in play and at the end."""
    jsonschema = pytest.importorskip("jsonschema")
    schemas = {
        kind: json.loads(
            resources.files("conquian.formats.schemas").joinpath(f"{kind}.schema.json").read_text()
        )
        for kind in ("record", "position", "view")
    }
    rules = _rules(name)
    for actions in (0, 9, 400):
        state = _played(rules, seed=8, actions=actions)
        documents = {
            "record": GameRecord.from_state(state).to_json(),
            "position": state.to_json(),
            "view": state.view(rules.players - 1).to_json(),
        }
        for kind, text in documents.items():
            jsonschema.validate(json.loads(text), schemas[kind])
