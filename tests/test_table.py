"""What the command line's match options call: presets, loading, playing a match, the sheet."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import conquian
from conquian import (
    Action,
    ConquianRules,
    GameRecord,
    HeuristicAgent,
    Match,
    PlayerView,
    RecordError,
    RulesError,
    new_game,
    play_match,
)
from conquian.agents import ProcessAgent
from conquian.table import load, preset, sheet_lines

BOT = Path(__file__).resolve().parent.parent / "docs" / "examples" / "bots" / "first_bot.py"


def test_presets_and_options() -> None:
    """``--rules`` names a preset and ``--option name=value`` overrides it (T8, T14)."""
    rules = preset("hoyle", ["lay_down=turn"])
    assert rules == ConquianRules.hoyle(lay_down="turn")
    assert preset("foster") == ConquianRules()
    with pytest.raises(RulesError, match="rules"):
        preset("cotton")
    with pytest.raises(RulesError, match="option"):
        preset("pagat", ["colour=red"])
    with pytest.raises(RulesError, match="name=value"):
        preset("pagat", ["trades"])


def test_load_resumes_a_match_a_record_or_a_position() -> None:
    """``--load``: a match file gives the match, a record or a position the deal reached."""
    match = Match(ConquianRules(), seed=2).apply("pass")
    assert load(match.to_json()) == match
    state = new_game(ConquianRules(), seed=5).apply("take KD")
    assert load(state.to_json()) == state
    assert load(GameRecord.from_state(state).to_json()) == state
    with pytest.raises(RecordError, match="not a match file"):
        load('{"format": "chess"}')


def test_play_match_to_a_target_tells_a_process_bot_the_results() -> None:
    """A match to a target between the heuristic and a bot in another process ends with a
    winner at the target; the bot hears of every deal's end and the match's."""
    seen: list[int] = []
    with ProcessAgent([sys.executable, str(BOT)], timeout=20) as bot:
        match = play_match(
            Match(ConquianRules(), seed=6, target=3),
            [HeuristicAgent(1), bot],
            between=lambda m: seen.append(len(m.sheet.rows)),
        )
    assert match.is_over and max(match.sheet.totals) >= 3
    assert seen == list(range(1, len(match.sheet.rows) + 1))
    lines = sheet_lines(match.sheet, ["heuristic", "bot"])
    assert len(lines) == len(match.sheet.rows) + 2 + (1 if match.sheet.pool else 0)
    assert lines[-1 - (1 if match.sheet.pool else 0)].split()[1:] == [
        f"{t:+d}" if t else "0" for t in match.sheet.totals
    ]
    with pytest.raises(ValueError, match="no end"):
        play_match(Match(ConquianRules(), seed=1), [HeuristicAgent(1), HeuristicAgent(2)])


class _Told:
    """A heuristic bot that keeps what it is told between the deals and at the end."""

    def __init__(self, seed: int) -> None:
        self.bot = HeuristicAgent(seed=seed)
        self.deals: list[int] = []
        self.end: list[tuple[dict[str, object], int | None]] = []

    def __call__(self, view: PlayerView) -> Action:
        return self.bot(view)

    def deal_over(self, view: PlayerView) -> None:
        assert view.result is not None
        self.deals.append(view.player)

    def match_over(self, sheet: dict[str, object], winner: int | None) -> None:
        self.end.append((sheet, winner))


def test_the_public_play_match_tells_every_agent_each_deal_it_sat_in_and_the_end() -> None:
    """`conquian.play_match` (DESIGN.md, round 4): three persons at a two-hand table, one
    sitting out each deal (T24); each agent hears ``deal_over`` for the deals it sat in and
    ``match_over`` once, with the sheet's document and the winner."""
    agents = [_Told(seed) for seed in range(3)]
    match = conquian.play_match(Match(ConquianRules(), seed=4, people=3, deals=3), agents)
    assert match.is_over and len(match.sheet.rows) == 3
    for person, agent in enumerate(agents):
        sat = [row for row in match.sheet.rows if person in row.seats]
        assert len(agent.deals) == len(sat) == 2  # each sits out one deal of three
        assert agent.end == [(match.sheet.to_dict(), match.winner)]
    with pytest.raises(ValueError, match="needs 3 agents"):
        conquian.play_match(Match(ConquianRules(), seed=4, people=3, deals=1), agents[:2])


def test_play_match_names_the_person_whose_agent_returned_no_action() -> None:
    """E1: an agent's answer that is not an action stops the match, naming the person."""
    with pytest.raises(conquian.IllegalActionError, match=r"person 1 .* not an action"):
        conquian.play_match(
            Match(ConquianRules(), seed=3, deals=1), [HeuristicAgent(seed=0), lambda view: None]
        )
    with pytest.raises(TypeError, match="match must be a Match"):
        conquian.play_match(ConquianRules(), [HeuristicAgent(seed=0)] * 2)  # type: ignore[arg-type]


def test_play_match_names_the_person_whose_agent_plays_an_illegal_action() -> None:
    """E1: an illegal action stops the match with the rule's id, naming the person."""

    def stubborn(view: PlayerView) -> Action:
        return conquian.parse_action("discard AC") if view.current_player else view.legal_actions[0]

    with pytest.raises(conquian.IllegalActionError, match=r"person 1 .*deal 1: illegal") as info:
        conquian.play_match(
            Match(ConquianRules(), seed=3, deals=1), [HeuristicAgent(seed=0), stubborn]
        )
    assert info.value.rule is not None
