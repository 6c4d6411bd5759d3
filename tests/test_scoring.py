"""Stakes over deals: the score sheet and the tableau pool (RULES.md T13, M12)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conquian import Outcome, Result
from conquian.scoring import ScoreSheet, SheetRow


def test_m12_foster_washbook_pages_32_33() -> None:
    """Foster's washbook: C wins 105, then A wins 87; A and C are 148 plus, B D E 148 minus."""
    sheet = ScoreSheet(players=5)
    sheet = sheet.add(Result("win", winner=2, payments=(-20, -46, 105, -30, -9)))
    sheet = sheet.add(Result("win", winner=0, payments=(87, -24, -24, -28, -11)))
    assert sheet.totals == (67, -70, 81, -58, -20)
    assert [row.won for row in sheet.rows] == [105, 87]
    assert 67 + 81 == 70 + 58 + 20 == 148
    assert sheet.balanced


def test_t13_tableau_pool_goes_to_the_next_winner() -> None:
    """A tableau puts one counter each in the pool; the next winner takes it (T13)."""
    sheet = ScoreSheet(players=2)
    sheet = sheet.add(Result("tableau", payments=(0, 0)))
    sheet = sheet.add(Result("tableau", payments=(0, 0)))
    assert sheet.pool == 4 and sheet.totals == (-2, -2)
    sheet = sheet.add(Result("win", winner=0, payments=(1, -1)))
    assert sheet.pool == 0 and sheet.totals == (3, -3)


def test_m11_abandoned_deal_writes_zeros() -> None:
    """An abandoned deal pays nothing and leaves the pool alone (M11)."""
    sheet = ScoreSheet(players=3).add(Result("abandoned", payments=(0, 0, 0)))
    assert sheet.totals == (0, 0, 0) and sheet.rows[0].outcome is Outcome.ABANDONED


def test_sheet_rejects_mismatches() -> None:
    """A result for the wrong number of players, or an unbalanced row, is refused."""
    with pytest.raises(ValueError):
        ScoreSheet(players=2).add(Result("win", winner=0, payments=(2, -1, -1)))
    with pytest.raises(ValueError):
        ScoreSheet(2, rows=(SheetRow(Outcome.WIN, 0, (2, -1), 0),))


def test_result_checks() -> None:
    """A Result's payments sum to zero and it has a winner exactly when it is a win."""
    with pytest.raises(ValueError):
        Result("win", winner=0, payments=(1, 0))
    with pytest.raises(ValueError):
        Result("win", payments=(0, 0))
    with pytest.raises(ValueError):
        Result("tableau", winner=1, payments=(1, -1))


@st.composite
def results(draw: st.DrawFn, players: int) -> Result:
    outcome = draw(st.sampled_from(list(Outcome)))
    if outcome is not Outcome.WIN:
        return Result(outcome, payments=(0,) * players)
    winner = draw(st.integers(0, players - 1))
    losses = [draw(st.integers(0, 200)) if s != winner else 0 for s in range(players)]
    payments = [-x for x in losses]
    payments[winner] = sum(losses)
    return Result(outcome, winner=winner, payments=payments)


@given(st.integers(2, 6).flatmap(lambda n: st.lists(results(n), max_size=12)))
def test_m12_winnings_always_equal_losses(deals: list[Result]) -> None:
    """Whatever the deals, the sheet balances: sum of totals plus the pool is zero (M12)."""
    if not deals:
        return
    sheet = ScoreSheet(players=len(deals[0].payments))
    for result in deals:
        sheet = sheet.add(result)
    assert sheet.balanced and sum(sheet.totals) + sheet.pool == 0
    assert len(sheet.rows) == len(deals)
