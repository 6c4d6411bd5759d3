"""Matches of many deals: scorings, rotation, three at a table, rounds, JSON (T13, T19, T23,
T24, T27, M12, M13, M15)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import (
    ConquianRules,
    CooncanRules,
    HeuristicAgent,
    IllegalActionError,
    Match,
    RandomAgent,
    RecordError,
    new_game,
)
from conquian.match import deal_seed, points_won


def _finish(match: Match, seed: int = 0) -> Match:
    """The match with its deal in play played out by heuristic agents."""
    agent = HeuristicAgent(seed)
    while not match.state.is_over:
        match = match.apply(agent(match.state.view(match.state.current_player)))
    return match


def _play(match: Match, seed: int = 0, most: int = 40) -> Match:
    """The match played deal after deal until it is over (or `most` deals)."""
    for k in range(most):
        match = _finish(match, seed + k)
        if match.is_over:
            return match
        match = match.next_deal()
    return match


def test_same_seed_same_match_and_deals_from_derived_seeds() -> None:
    """A seed means the same deals: deal k is new_game from deal_seed(seed, k), the deal
    passing to the other player (T13)."""
    a = _play(Match(ConquianRules(), seed=11, deals=3), seed=1)
    b = _play(Match(ConquianRules(), seed=11, deals=3), seed=1)
    assert a == b and a.is_over and len(a.sheet.rows) == 3
    first = a.records()[0]
    assert first.deck == new_game(ConquianRules(), seed=deal_seed(11, 0)).deck  # type: ignore[attr-defined]
    assert [row.dealer for row in a.sheet.rows] == [0, 1, 0]
    assert a.records()[1].deck != first.deck
    assert Match(ConquianRules(), seed=12).state != Match(ConquianRules(), seed=11).state


def test_result_is_on_the_sheet_as_soon_as_the_deal_ends() -> None:
    """The deal's row is written by the action that ends it, before next_deal."""
    match = Match(ConquianRules(), seed=4)
    assert match.sheet.rows == ()
    match = _finish(match)
    assert len(match.sheet.rows) == 1
    assert match.sheet.rows[0].outcome == match.state.result.outcome  # type: ignore[union-attr]


def test_illegal_moves_and_early_deals_leave_the_match_unchanged() -> None:
    """E1: an illegal action raises and the match stays as it was; next_deal waits for the
    end of the deal, and nothing is played after the match is over."""
    match = Match(ConquianRules(), seed=4, deals=1)
    with pytest.raises(IllegalActionError):
        match.apply("discard 5H")
    with pytest.raises(ValueError, match="not over"):
        match.next_deal()
    over = _finish(match)
    assert over.is_over
    with pytest.raises(ValueError, match="match is over"):
        over.next_deal()
    with pytest.raises(IllegalActionError, match="match is over"):
        over.apply("pass")


def test_t23_points_to_a_target() -> None:
    """T23: the winner scores the losers' hands (2-10 face value, J Q K 10, ace 15), a
    tableau nothing; first to the target wins the match."""
    match = _play(Match(ConquianRules(), seed=3, scoring="points", target=60), seed=5)
    assert match.is_over and match.target == 60
    totals = match.sheet.totals
    assert max(totals) >= 60 and match.winner == totals.index(max(totals))
    for row, record in zip(match.sheet.rows, match.records(), strict=True):
        final = record.replay()
        if row.winner is None:
            assert row.changes == (0, 0)
        else:
            loser = 1 - row.winner
            value = sum(15 if c.rank == 1 else min(c.rank, 10) for c in final.hand(loser))
            assert row.changes[row.winner] == value == points_won(final)
    assert Match(ConquianRules(), seed=1, scoring="points").target == 100


def test_t24_three_at_a_table_of_two_hand() -> None:
    """T24: the dealer takes no cards; the two others play, his left neighbour the pone; the
    deal passes to the left and the sheet keeps all three totals."""
    match = Match(ConquianRules(), seed=5, people=3, rounds=2)
    seen = []
    for _ in range(6):
        seen.append((match.dealer, match.seats))
        assert match.seat_of(match.dealer) is None and match.view(match.dealer).view is None
        pone = (match.dealer + 1) % 3
        assert match.state.current_player == 0 and match.seats[0] == pone
        assert match.view(pone).view == match.state.view(0)
        match = _finish(match, len(seen))
        row = match.sheet.rows[-1]
        assert row.changes[match.dealer] == 0 and row.seats == match.seats
        if match.is_over:
            break
        match = match.next_deal()
    assert seen == [(0, (1, 2)), (1, (2, 0)), (2, (0, 1))] * 2
    assert match.is_over and match.sheet.rounds == 2 and len(match.sheet.totals) == 3
    assert sum(match.sheet.totals) + match.sheet.pool == 0


def test_m15_rounds_stop_when_everyone_has_dealt() -> None:
    """M15: a match of one round of Cooncan deals ends when every player has dealt once."""
    rules = CooncanRules.three_hand(turn_limit=60)
    match = _play(Match(rules, seed=2, rounds=1), seed=3)
    assert match.is_over and [row.dealer for row in match.sheet.rows] == [0, 1, 2]


def test_t13_next_scoring_carries_tableaus() -> None:
    """T13 "next": the sheet of a match scored Foster's way has no pool."""
    match = _play(Match(ConquianRules(), seed=8, scoring="next", deals=6), seed=2)
    assert match.sheet.tie == "next" and match.sheet.pool == 0 and match.sheet.balanced


def _pass_out(match: Match) -> Match:
    """The match with its deal in play ended in a tableau: every card refused (T12)."""
    while not match.state.is_over:
        match = match.apply("pass")
    return match


def _decided(match: Match, seed: int = 0) -> Match:
    """The match played on by heuristic agents until a deal is won (at most 20 deals)."""
    for k in range(20):
        match = _finish(match, seed + k)
        result = match.state.result
        if result is not None and result.winner is not None:
            return match
        match = match.next_deal()
    raise AssertionError("no deal was won in 20 deals")


def test_t27_double_scoring_plays_the_next_decided_deal_for_double() -> None:
    """T27, pagat ("the next game is played for a double stake"): Match(scoring="double")
    pays nothing on a tableau; two tableaus make the next decided deal worth four counters
    (each further tableau doubles it again); the match file keeps the scoring."""
    match = Match(ConquianRules(), seed=9, scoring="double", deals=10)
    assert match.sheet.tie == "double"
    match = _pass_out(match).next_deal()
    match = _pass_out(match)
    assert match.sheet.totals == (0, 0) and match.sheet.stake == 4
    match = _decided(match.next_deal(), seed=3)
    waiting = sum(1 for row in match.sheet.rows[2:-1] if row.outcome.value == "tableau")
    result = match.state.result
    assert result is not None and result.winner is not None
    stake = 4 * 2**waiting
    people = match.seats
    expected = [0, 0]
    for seat, payment in enumerate(result.payments):
        expected[people[seat]] += payment * stake
    assert match.sheet.rows[-1].changes == tuple(expected) and max(expected) == stake
    assert match.sheet.totals == tuple(expected) and match.sheet.balanced
    assert json.loads(match.to_json())["scoring"] == "double"
    assert Match.from_json(match.to_json()) == match
    assert "double" in repr(match)


def test_t24_t13_a_match_scored_next_charges_no_one_for_a_tableau_he_sat_out() -> None:
    """T24 with T13 (issue 38): three people; the first deal (persons 1 and 2, person 0
    dealing) is a tableau. Played with the same seed and the same moves, "pool" and
    "next" give the same totals once a deal is decided: the tableau's players each owe
    its winner one counter, and person 0, who sat it out, pays only what he lost at the
    table. Under "double" (T27) the decided deal's two players play for two counters."""
    matches = {}
    for scoring in ("pool", "next", "double"):
        match = Match(ConquianRules(), seed=21, people=3, scoring=scoring)  # type: ignore[arg-type]
        matches[scoring] = _decided(_pass_out(match).next_deal(), seed=5)
    assert matches["pool"].sheet.totals == matches["next"].sheet.totals
    match = matches["next"]
    first, last = match.sheet.rows[0], match.sheet.rows[-1]
    assert first.seats == (1, 2) and first.outcome.value == "tableau"
    result = match.state.result
    assert result is not None and last.winner is not None and last.seats is not None
    expected = [0, 0, 0]
    for seat, payment in enumerate(result.payments):
        expected[last.seats[seat]] += payment
    tableaus = [row for row in match.sheet.rows if row.outcome.value == "tableau"]
    for row in tableaus:
        assert row.seats is not None
        for person in row.seats:
            if person != last.winner:
                expected[person] -= 1
                expected[last.winner] += 1
    assert last.changes == tuple(expected)
    if len(tableaus) == 1:  # the second deal, persons 2 and 0, was won: the case
        assert last.seats == (2, 0) and expected[1] == -1 and sum(expected) == 0
    double = matches["double"].sheet.rows[-1]
    assert sorted(double.changes[p] for p in last.seats) == [
        -(2 ** len(tableaus)),
        2 ** len(tableaus),
    ]


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**20),
    st.sampled_from(["pool", "next", "double", "points"]),
    st.sampled_from([None, 3]),
    st.integers(0, 40),
)
def test_json_round_trip_resumes_anywhere(
    seed: int, scoring: str, people: int | None, cut: int
) -> None:
    """A match file read back equals the match written, at any point, and play resumes."""
    match = Match(ConquianRules(), seed=seed, scoring=scoring, people=people, deals=3)  # type: ignore[arg-type]
    agent = RandomAgent(seed)
    for _ in range(cut):
        if match.state.is_over:
            if match.is_over:
                break
            match = match.next_deal()
        else:
            match = match.apply(agent(match.state.view(match.state.current_player)))
    again = Match.from_json(match.to_json())
    assert again == match and again.sheet == match.sheet
    assert json.loads(match.to_json())["seed"] == seed


def test_a_match_of_explicit_decks() -> None:
    """A match may be given each deal's deck; without a seed, next_deal needs one."""
    pack = ConquianRules().pack_cards()
    match = _finish(Match(ConquianRules(), deck=pack))
    assert match.seed is None
    with pytest.raises(ValueError, match="deck"):
        match.next_deal()
    match = match.next_deal(deck=tuple(reversed(pack)))
    assert match.dealer == 1 and Match.from_json(match.to_json()) == match


def test_match_file_problems_are_listed_with_their_fields() -> None:
    """A bad match file: every problem named with its field (E2)."""
    match = _finish(Match(ConquianRules(), seed=1)).next_deal()
    data = json.loads(match.to_json())
    data["played"][1]["dealer"] = 0
    with pytest.raises(RecordError, match=r"played\[1\]\.dealer: person 0 deals out of turn"):
        Match.from_json(json.dumps(data))
    data = json.loads(match.to_json())
    data["played"][0]["actions"][0] = "discard 9Z"
    with pytest.raises(RecordError, match=r"played\[0\]\.actions\[0\]"):
        Match.from_json(json.dumps(data))
    data = json.loads(match.to_json())
    data["sheet"]["rows"] = []
    with pytest.raises(RecordError, match="sheet: does not match"):
        Match.from_json(json.dumps(data))
    data = json.loads(match.to_json())
    data["scoring"] = "chips"
    data["people"] = 5
    with pytest.raises(RecordError) as err:
        Match.from_json(json.dumps(data))
    assert "scoring" in str(err.value)
    with pytest.raises(RecordError, match="more than the limit"):
        Match.from_json("x" * 2_000_001)


def test_match_view_hides_the_seed() -> None:
    """A person's view of a match holds his deal view and the sheet, never the seed."""
    match = Match(ConquianRules(), seed=123456789)
    text = match.view(1).to_json()
    assert "123456789" not in text and str(deal_seed(123456789, 0)) not in text
    assert json.loads(text)["view"]["player"] == 1


def test_bad_arguments() -> None:
    """Options out of range are refused, naming the argument."""
    with pytest.raises(ValueError, match="people"):
        Match(ConquianRules(), seed=1, people=3 + 1)
    with pytest.raises(ValueError, match="people"):
        Match(CooncanRules.three_hand(), seed=1, people=4)
    with pytest.raises(ValueError, match="scoring"):
        Match(ConquianRules(), seed=1, scoring="chips")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="target"):
        Match(ConquianRules(), seed=1, target=0)
    with pytest.raises(TypeError):
        Match(ConquianRules(), seed=1, deck=ConquianRules().pack_cards())


def test_a_match_is_a_value() -> None:
    """A match pickles, hashes and compares like the states it holds; `apply` leaves the old
    match as it was."""
    import pickle

    match = Match(ConquianRules(), seed=3, people=3)
    after = match.apply("pass")
    again = pickle.loads(pickle.dumps(after))
    assert again == after and hash(again) == hash(after) and again != match
    assert match.state.history == () and len(after.state.history) == 1


def test_cooncan_points_are_what_the_winner_was_paid() -> None:
    """In the rummy games a points match scores the winner's payment (M7)."""
    rules = CooncanRules.three_hand(turn_limit=80)
    match = _play(Match(rules, seed=4, scoring="points", target=40), seed=2)
    assert match.is_over
    for row, record in zip(match.sheet.rows, match.records(), strict=True):
        result = record.replay().result
        assert result is not None
        expected = result.payments[result.winner] if result.winner is not None else 0
        assert sum(row.changes) == expected
