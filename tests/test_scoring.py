"""Stakes over deals: the score sheet, the tableau and the deal (rules T13, T19, T27, M12,
M13)."""

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
    """T13, Hoyle 1897 "Stakes": a tableau puts one counter each in the pool, "and so on
    until it is won"; the next winner takes it "in addition to the counter paid by his
    adversary"."""
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


def test_t13_hoyle_showing_pool_then_win() -> None:
    """T13, Hoyle 1897 "Showing": on a tableau "each puts a counter in the pool for the next
    hand"; the winner of that hand takes the pool and his adversary's counter: 3 to him."""
    sheet = ScoreSheet(players=2, tie="pool").add(Result("tableau", payments=(0, 0)))
    assert (sheet.totals, sheet.pool, sheet.tableaus) == ((-1, -1), 2, 1)
    sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)))
    assert (sheet.totals, sheet.pool, sheet.tableaus) == ((-2, 2), 0, 0)
    assert sheet.rows[-1].changes == (-1, 3)


def test_t13_foster_p55_tableau_goes_to_the_next_game() -> None:
    """T13, Foster p. 55 and special law 21: a tableau "goes to the winner of the next game",
    who "counts the point for the one that was a tie": nothing is paid on the tableau, two
    counters on the next game; two tableaus make it three."""
    sheet = ScoreSheet(players=2, tie="next").add(Result("tableau", payments=(0, 0)))
    assert (sheet.totals, sheet.pool, sheet.tableaus) == ((0, 0), 0, 1)
    assert sheet.rows[-1].changes == (0, 0) and sheet.balanced
    sheet = sheet.add(Result("win", winner=0, payments=(1, -1)))
    assert (sheet.totals, sheet.tableaus) == ((2, -2), 0)
    sheet = sheet.add(Result("tableau", payments=(0, 0)))
    sheet = sheet.add(Result("tableau", payments=(0, 0)))
    sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)))
    assert sheet.rows[-1].changes == (-3, 3) and sheet.totals == (-1, 1)


def test_t13_pool_and_next_agree_after_the_next_decided_deal_only() -> None:
    """T13: Hoyle's pool and Foster's reading give different totals between a tableau and
    the next decided deal, and the same totals after it."""
    deals = [
        Result("tableau", payments=(0, 0)),
        Result("tableau", payments=(0, 0)),
        Result("win", winner=0, payments=(1, -1)),
    ]
    pool, after = ScoreSheet(2, tie="pool"), ScoreSheet(2, tie="next")
    seen = []
    for result in deals:
        pool, after = pool.add(result), after.add(result)
        seen.append((pool.totals, after.totals))
    assert seen == [((-1, -1), (0, 0)), ((-2, -2), (0, 0)), ((3, -3), (3, -3))]


def test_m11_abandoned_deal_leaves_the_tableaus_waiting() -> None:
    """An abandoned deal (M11) settles no tableau: the pool, or the debt, waits (T13)."""
    for tie in ("pool", "next"):
        sheet = ScoreSheet(2, tie=tie).add(Result("tableau", payments=(0, 0)))
        sheet = sheet.add(Result("abandoned", payments=(0, 0)))
        assert sheet.tableaus == 1 and sheet.rows[-1].changes == (0, 0)
        assert sheet.add(Result("win", winner=1, payments=(-1, 1))).totals == (-2, 2)


def test_t13_the_deal_alternates_tableaus_included() -> None:
    """T13: "The deal passes from one player to the other in rotation" (Hoyle 1897
    "Showing"); after a tableau the cards are "dealt by the one who was the non-dealer"
    (Foster p. 55). The sheet records each deal's dealer."""
    sheet = ScoreSheet(2)
    assert sheet.next_dealer is None
    sheet = sheet.add(Result("tableau", payments=(0, 0)), dealer=0)
    assert sheet.next_dealer == 1
    sheet = sheet.add(Result("win", winner=0, payments=(1, -1)), dealer=1)
    assert sheet.next_dealer == 0
    assert [row.dealer for row in sheet.rows] == [0, 1]
    assert ScoreSheet(2).add(Result("tableau", payments=(0, 0))).next_dealer is None


def test_m13_cooncan_deal_passes_to_the_left() -> None:
    """M13 (law 8): the deal passes to the dealer's left, the next seat, round the table."""
    sheet = ScoreSheet(4)
    dealers = []
    dealer = 2
    for _ in range(5):
        sheet = sheet.add(Result("abandoned", payments=(0,) * 4), dealer=dealer)
        assert sheet.next_dealer is not None
        dealer = sheet.next_dealer
        dealers.append(dealer)
    assert dealers == [3, 0, 1, 2, 3]


@pytest.mark.parametrize("dealer", [-1, 2, True, 1.0, "0"])
def test_bad_dealer_is_refused(dealer: object) -> None:
    """A dealer is a seat of this sheet (an int, not a bool)."""
    with pytest.raises(ValueError, match="dealer"):
        ScoreSheet(2).add(Result("tableau", payments=(0, 0)), dealer=dealer)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dealer"):
        ScoreSheet(2, rows=(SheetRow(Outcome.ABANDONED, None, (0, 0), 0, dealer),))  # type: ignore[arg-type]


@pytest.mark.parametrize("tie", ["Pool", "hoyle", "triple", None, 1, True])
def test_bad_tie_is_refused(tie: object) -> None:
    """T13, T27: tie is "pool", "next" or "double"."""
    with pytest.raises(ValueError, match="tie"):
        ScoreSheet(2, tie=tie)  # type: ignore[arg-type]


@pytest.mark.parametrize("tie", ["next", "double"])
def test_next_and_double_sheets_never_hold_a_pool(tie: str) -> None:
    """Under tie="next" (T13) and tie="double" (T27) no row may hold a pool; rows must still
    balance (M12)."""
    row = SheetRow(Outcome.TABLEAU, None, (-1, -1), 2)
    assert ScoreSheet(2, rows=(row,)).pool == 2
    with pytest.raises(ValueError, match="pool"):
        ScoreSheet(2, rows=(row,), tie=tie)  # type: ignore[arg-type]


def test_t27_pagat_double_stake_after_a_tie() -> None:
    """T27, pagat: after a draw "some play that the next game is played for a double
    stake". Nothing is paid on a tableau; the next decided deal is played for twice the
    stake, doubled again for each further tableau: 1 tableau 2 counters, 2: 4, 3: 8."""
    tableau = Result("tableau", payments=(0, 0))
    win = Result("win", winner=1, payments=(-1, 1))
    for count, stake in ((0, 1), (1, 2), (2, 4), (3, 8)):
        sheet = ScoreSheet(players=2, tie="double")
        for _ in range(count):
            sheet = sheet.add(tableau)
            assert sheet.rows[-1].changes == (0, 0) and sheet.pool == 0
        assert (sheet.totals, sheet.tableaus, sheet.stake) == ((0, 0), count, stake)
        sheet = sheet.add(win)
        assert sheet.rows[-1].changes == (-stake, stake) and sheet.balanced
        assert (sheet.tableaus, sheet.stake) == (0, 1)
        # the stake is back to one counter after the decided deal
        assert sheet.add(win).rows[-1].changes == (-1, 1)


def test_t27_double_is_not_pool_or_next() -> None:
    """T27 against T13: after two tableaus "pool" and "next" make the loser pay 3 counters
    (one for the deal, one for each tableau), "double" 4 (the stake doubled twice)."""
    tableau = Result("tableau", payments=(0, 0))
    win = Result("win", winner=0, payments=(1, -1))
    totals = {}
    for tie in ("pool", "next", "double"):
        sheet = ScoreSheet(2, tie=tie).add(tableau).add(tableau).add(win)  # type: ignore[arg-type]
        totals[tie] = sheet.totals
    assert totals == {"pool": (3, -3), "next": (3, -3), "double": (4, -4)}


def test_t27_t19_each_loser_pays_the_doubled_stake() -> None:
    """T27 with 3-4 seats (T19): each loser pays the winner the doubled stake."""
    sheet = ScoreSheet(4, tie="double").add(Result("tableau", payments=(0,) * 4))
    sheet = sheet.add(Result("win", winner=2, payments=(-1, -1, 3, -1)))
    assert sheet.rows[-1].changes == (-2, -2, 6, -2) and sheet.totals == (-2, -2, 6, -2)
    assert sheet.balanced


def test_t27_t24_the_two_who_play_the_decided_deal_play_for_the_double() -> None:
    """T27 with three people (T24): the two who play the decided deal play it for the
    doubled stake, whoever sat out the tableau. Persons 1 and 2 tie; person 2 beats
    person 0 for two counters; person 1, who sits out, pays nothing."""
    sheet = ScoreSheet(3, tie="double").add(Result("tableau", payments=(0, 0)), 0, seats=(1, 2))
    assert sheet.totals == (0, 0, 0) and sheet.stake == 2
    sheet = sheet.add(Result("win", winner=0, payments=(1, -1)), 1, seats=(2, 0))
    assert sheet.totals == (-2, 0, 2) and sheet.rows[-1].seats == (2, 0)
    assert ScoreSheet.from_json(sheet.to_json()) == sheet


def test_t27_m11_an_abandoned_deal_keeps_the_stake_doubled() -> None:
    """T27, M11: an abandoned deal is not decided: the stake stays doubled for the next
    decided deal, and is not doubled again."""
    sheet = ScoreSheet(2, tie="double").add(Result("tableau", payments=(0, 0)))
    sheet = sheet.add(Result("abandoned", payments=(0, 0)))
    assert sheet.stake == 2 and sheet.rows[-1].changes == (0, 0)
    assert sheet.add(Result("win", winner=0, payments=(1, -1))).totals == (2, -2)


def test_t27_the_stake_is_one_on_other_sheets() -> None:
    """T27 only doubles under tie="double": the stake of the next deal is one elsewhere, and
    on a points sheet (T23) a tableau scores nothing."""
    tableau = Result("tableau", payments=(0, 0))
    assert ScoreSheet(2).add(tableau).stake == 1
    assert ScoreSheet(2, tie="next").add(tableau).stake == 1
    points = ScoreSheet(2, tie="double", points=True).add(tableau)
    assert points.stake == 1
    points = points.add(Result("win", winner=0, payments=(1, -1)), points=12)
    assert points.totals == (12, 0)


@given(st.integers(2, 6).flatmap(lambda n: st.lists(results(n), max_size=12)))
def test_t27_a_decided_deal_pays_its_payments_times_the_doubled_stake(
    deals: list[Result],
) -> None:
    """T27 over random deals: a tableau or abandoned deal writes zeros; a win writes its
    payments times 2 to the power of the tableaus since the last win; the sheet balances
    with no pool (M12) and reads back from JSON."""
    if not deals:
        return
    sheet = ScoreSheet(len(deals[0].payments), tie="double")
    waiting = 0
    for result in deals:
        sheet = sheet.add(result)
        row = sheet.rows[-1]
        if result.outcome is Outcome.WIN:
            assert row.changes == tuple(p * 2**waiting for p in result.payments)
            waiting = 0
        else:
            assert not any(row.changes)
            waiting += result.outcome is Outcome.TABLEAU
        assert sheet.tableaus == waiting and sheet.stake == 2**waiting
        assert sheet.pool == 0 and sheet.balanced
    assert ScoreSheet.from_json(sheet.to_json()) == sheet


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


@given(st.integers(2, 6).flatmap(lambda n: st.lists(results(n), max_size=12)))
def test_t13_pool_and_next_differ_by_the_pool_only(deals: list[Result]) -> None:
    """T13 over random deals: at every row Foster's totals are Hoyle's plus one counter per
    seat for each tableau not yet settled; so they agree after every decided deal, and both
    sheets balance (M12)."""
    if not deals:
        return
    players = len(deals[0].payments)
    pool, after = ScoreSheet(players), ScoreSheet(players, tie="next")
    for result in deals:
        pool, after = pool.add(result), after.add(result)
        waiting = pool.tableaus
        assert after.tableaus == waiting and pool.pool == players * waiting and after.pool == 0
        assert after.totals == tuple(t + waiting for t in pool.totals)
        if result.outcome is Outcome.WIN:
            assert after.totals == pool.totals
        assert pool.balanced and after.balanced


@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(st.integers(0, n - 1), st.lists(results(n), min_size=1, max_size=12))
    )
)
def test_t13_m13_dealer_rotates_every_deal(first_and_deals: tuple[int, list[Result]]) -> None:
    """T13, M13: dealt in turn, each row keeps its dealer and the next dealer is the seat after
    the last one, whatever the outcomes (tableaus and abandoned deals included)."""
    first, deals = first_and_deals
    players = len(deals[0].payments)
    sheet = ScoreSheet(players)
    dealer = first
    for result in deals:
        sheet = sheet.add(result, dealer=dealer)
        assert sheet.next_dealer is not None
        dealer = sheet.next_dealer
    assert [row.dealer for row in sheet.rows] == [(first + i) % players for i in range(len(deals))]
    assert dealer == (first + len(deals)) % players
