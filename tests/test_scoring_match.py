"""The score sheet of a match: JSON, points (T23), three at a table (T24, T27), rounds (M15)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import Outcome, RecordError, Result
from conquian.scoring import ScoreSheet, SheetRow


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
    st.sampled_from(["pool", "next", "double"]),
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


def test_t24_t13_next_charges_a_tableau_to_the_two_who_played_it() -> None:
    """T24 with T13 under "next" (RULES.md's reading; issue 38's deals): person 0 deals and
    sits out, persons 1 and 2 tie; person 1 deals, person 2 beats person 0. The tableau's
    counters are owed by persons 1 and 2 to the winner (person 2 owes himself nothing):
    (-1, -1, 2), as the pool gives, not (-2, 0, 2), which charged person 0 for a tableau he
    sat out."""
    tableau = Result("tableau", payments=(0, 0))
    win = Result("win", winner=0, payments=(1, -1))  # seat 0 of deal 2 is person 2
    totals = {}
    for tie in ("pool", "next"):
        sheet = ScoreSheet(3, tie=tie).add(tableau, dealer=0, seats=(1, 2))
        sheet = sheet.add(win, dealer=1, seats=(2, 0))
        totals[tie] = sheet.totals
        assert sheet.balanced and sheet.pool == 0 and sheet.tableaus == 0
    assert totals == {"pool": (-1, -1, 2), "next": (-1, -1, 2)}
    sheet = ScoreSheet(3, tie="next").add(tableau, dealer=0, seats=(1, 2))
    assert sheet.totals == (0, 0, 0) and sheet.rows[-1].changes == (0, 0, 0)
    sheet = sheet.add(win, dealer=1, seats=(2, 0))
    # person 1 sits deal 2 out and still pays the tableau he played
    assert sheet.rows[-1].changes == (-1, -1, 2) and sheet.rows[-1].seats == (2, 0)
    assert ScoreSheet.from_json(sheet.to_json()) == sheet


def test_t24_t13_next_the_winner_of_the_next_deal_owes_himself_nothing() -> None:
    """T24, T13 "next": when the winner of the next decided deal played the tableau, only
    the other player of the tableau owes him; the third person pays only the deal he lost.
    Here persons 1 and 2 tie, then person 0 beats person 2: (3, -1, -2) under both."""
    tableau = Result("tableau", payments=(0, 0))
    win = Result("win", winner=1, payments=(-1, 1))  # seat 1 of deal 2 is person 0
    for tie in ("pool", "next"):
        sheet = ScoreSheet(3, tie=tie).add(tableau, 0, seats=(1, 2))
        sheet = sheet.add(win, 1, seats=(2, 0))
        assert sheet.totals == (3, -1, -2), tie


def test_t24_a_sheet_that_charges_the_person_who_sat_out_is_refused() -> None:
    """T24: a row may not change the score of a person who sat out the tableau and the deal
    (the old reading's (-2, 0, 2) is refused when read back); under "pool" a person who
    did not play a deal pays nothing in it."""
    tableau = SheetRow(Outcome.TABLEAU, None, (0, 0, 0), 0, 0, (1, 2))
    wrong = SheetRow(Outcome.WIN, 2, (-2, 0, 2), 0, 1, (2, 0))
    right = SheetRow(Outcome.WIN, 2, (-1, -1, 2), 0, 1, (2, 0))
    assert ScoreSheet(3, rows=(tableau, right), tie="next").totals == (-1, -1, 2)
    with pytest.raises(ValueError, match="T24"):
        ScoreSheet(3, rows=(tableau, wrong), tie="next")
    data = json.loads(ScoreSheet(3, rows=(tableau, right), tie="next").to_json())
    data["rows"][1]["changes"] = [-2, 0, 2]
    with pytest.raises(RecordError, match="T24"):
        ScoreSheet.from_json(json.dumps(data))
    pool_rows = (SheetRow(Outcome.TABLEAU, None, (0, -1, -1), 2, 0, (1, 2)), right)
    with pytest.raises(ValueError, match="T24"):
        ScoreSheet(3, rows=pool_rows)


def _t24_deals() -> st.SearchStrategy[list[Result]]:
    """Two-hand deals for three at a table (T24): wins, tableaus and abandoned deals."""
    return st.lists(_results(2), max_size=10)


@given(_t24_deals(), st.integers(0, 2))
def test_t24_t13_pool_and_next_agree_after_every_decided_deal(
    deals: list[Result], first: int
) -> None:
    """T24 with T13: three people, the dealer sitting out and the deal passing left; at
    every row "next" gives "pool"'s totals plus, for each person, one counter for each
    tableau he played that is not yet settled (the pool holds them), so the two agree
    after every decided deal; the person who sits a tableau out never pays for it."""
    pool, after = ScoreSheet(3), ScoreSheet(3, tie="next")
    waiting = [0, 0, 0]
    for k, result in enumerate(deals):
        dealer = (first + k) % 3
        seats = ((dealer + 1) % 3, (dealer + 2) % 3)
        pool = pool.add(result, dealer=dealer, seats=seats)
        after = after.add(result, dealer=dealer, seats=seats)
        if result.outcome is Outcome.WIN:
            waiting = [0, 0, 0]
        elif result.outcome is Outcome.TABLEAU:
            for person in seats:
                waiting[person] += 1
        assert pool.pool == sum(waiting) and after.pool == 0
        assert after.totals == tuple(t + w for t, w in zip(pool.totals, waiting, strict=True))
        if result.outcome is Outcome.WIN:
            assert after.totals == pool.totals
        assert pool.balanced and after.balanced
        assert ScoreSheet.from_json(after.to_json()) == after


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
