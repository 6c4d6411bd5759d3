"""The score sheet of a match: JSON, points (T23), three at a table (T24), rounds (M15)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import RecordError, Result
from conquian.scoring import ScoreSheet


def _results(players: int) -> st.SearchStrategy[Result]:
    """A deal's result among `players` seats: a one-counter win, a tableau or an abandon."""
    win = st.integers(0, players - 1).map(
        lambda w: Result(
            "win", winner=w, payments=tuple(players - 1 if s == w else -1 for s in range(players))
        )
    )
    return st.one_of(
        win,
        st.just(Result("tableau", payments=(0,) * players)),
        st.just(Result("abandoned", payments=(0,) * players)),
    )


@given(
    st.sampled_from(["pool", "next"]),
    st.lists(_results(3), max_size=8),
)
def test_sheet_json_round_trip(tie: str, results: list[Result]) -> None:
    """Any sheet written as JSON reads back equal, rows, dealers and pool included."""
    sheet = ScoreSheet(3, tie=tie)  # type: ignore[arg-type]
    for i, result in enumerate(results):
        sheet = sheet.add(result, dealer=i % 3)
    assert ScoreSheet.from_json(sheet.to_json()) == sheet


def test_sheet_json_lists_every_problem() -> None:
    """A bad sheet reports each problem with its field: an outcome, a seat, a balance."""
    sheet = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), dealer=0)
    data = json.loads(sheet.to_json())
    data["rows"][0]["outcome"] = "draw"
    data["rows"][0]["dealer"] = 5
    with pytest.raises(RecordError) as err:
        ScoreSheet.from_json(json.dumps(data))
    assert "rows[0].outcome" in str(err.value) and "rows[0].dealer: no seat 5" in str(err.value)
    data = json.loads(sheet.to_json())
    data["rows"][0]["changes"] = [2, -1]
    with pytest.raises(RecordError, match="does not balance"):
        ScoreSheet.from_json(json.dumps(data))
    with pytest.raises(RecordError, match="format"):
        ScoreSheet.from_json('{"format": "conquian-record", "version": 1}')


def test_t24_tableau_pool_is_fed_by_the_two_who_played() -> None:
    """T24 with T13: the dealer takes no part in the hand, so he puts nothing in the pool;
    the winner of the next decided deal takes it."""
    sheet = ScoreSheet(3).add(Result("tableau", payments=(0, 0)), dealer=0, seats=(1, 2))
    assert sheet.totals == (0, -1, -1) and sheet.pool == 2
    sheet = sheet.add(Result("win", winner=0, payments=(1, -1)), dealer=1, seats=(2, 0))
    assert sheet.totals == (-1, -1, 2) and sheet.pool == 0 and sheet.balanced
    assert sheet.rows[-1].winner == 2 and sheet.rows[-1].seats == (2, 0)


def test_t24_next_only_the_loser_of_the_next_deal_owes() -> None:
    """T19 with T24, ``tie="next"``: the loser of the next decided deal pays one more per
    tableau; the dealer who sat out pays nothing."""
    sheet = ScoreSheet(3, tie="next").add(Result("tableau", payments=(0, 0)), 0, seats=(1, 2))
    sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)), 1, seats=(2, 0))
    assert sheet.totals == (2, 0, -2)


def test_t23_points_only_the_winner_scores_and_tableaus_score_nothing() -> None:
    """T23: the winner scores what is left in the losers' hands; a tableau scores nothing."""
    sheet = ScoreSheet(2, points=True)
    sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)), dealer=0, points=37)
    sheet = sheet.add(Result("tableau", payments=(0, 0)), dealer=1)
    assert sheet.totals == (0, 37) and sheet.pool == 0 and sheet.balanced
    with pytest.raises(ValueError, match="points"):
        sheet.add(Result("win", winner=0, payments=(1, -1)))
    with pytest.raises(ValueError, match="points sheet"):
        ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), points=3)
    assert ScoreSheet.from_json(sheet.to_json()) == sheet


def test_m15_a_round_is_complete_when_every_player_has_dealt_equally() -> None:
    """M15 (law 5): a game is one round of deals: every player deals once."""
    sheet = ScoreSheet(3)
    seen = []
    for dealer in (1, 2, 0, 1):
        sheet = sheet.add(Result("abandoned", payments=(0, 0, 0)), dealer=dealer)
        seen.append((sheet.rounds, sheet.round_complete))
    assert seen == [(0, False), (0, False), (1, True), (1, False)]
