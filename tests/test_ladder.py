"""benchmarks/ladder.py --duplicate: scores, intervals clustered by board, Elo, CPU a deal;
benchmarks/ablate_search.py: variants of the searching bot compared board by board."""

from __future__ import annotations

import pytest

from benchmark_scripts import benchmark
from conquian import ConquianRules, CooncanRules
from conquian.state.base import Outcome

ladder = benchmark("ladder")


def test_a_deal_is_scored_one_a_half_or_nothing() -> None:
    # T12: a tableau is worth half a deal to each seat.
    assert ladder.score_of(Outcome.WIN, 0, 0) == 1.0
    assert ladder.score_of(Outcome.WIN, 1, 0) == 0.0
    assert ladder.score_of(Outcome.TABLEAU, None, 0) == 0.5
    assert ladder.elo(0.5) == 0.0
    assert ladder.elo(10 / 11) == pytest.approx(400.0)


def test_a_bot_against_its_own_copy_on_duplicate_boards_scores_exactly_half() -> None:
    # The same deterministic play from both seats of every board: each board's deals mirror.
    row = ladder.duplicate_pair("heuristic", "heuristic@v1", ConquianRules(), 3, 5, 0)
    assert row["boards"] == 3
    assert row["score"] == 0.5 and row["interval"] == (0.5, 0.5)
    assert all(t > 0 for t in row["cpu"])


def test_the_heuristic_beats_random_and_the_interval_holds_the_score() -> None:
    row = ladder.duplicate_pair("heuristic@v1", "random", ConquianRules(), 6, 1, 0)
    low, high = row["interval"]
    assert low <= row["score"] <= high
    assert row["score"] > 0.5
    won, lost, even = row["record"]
    assert won + lost + even == 12


def test_three_seats_put_the_first_agent_in_one_seat_of_every_board() -> None:
    rules = CooncanRules.three_hand(turn_limit=300)
    row = ladder.duplicate_pair("random", "heuristic@v1", rules, 2, 1, 0)
    assert sum(row["record"]) == 6  # two boards, each played once from every seat


def test_ablation_reads_variants_and_compares_them_board_by_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ablate = benchmark("ablate_search")
    assert ablate.options("samples=16, late_samples=32,reading=False") == {
        "samples": 16,
        "late_samples": 32,
        "reading": False,
    }
    assert ablate.options("") == {}
    fast = "samples=2,late_samples=2"
    assert ablate.main(["--boards", "2", fast, fast]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert len(rows) == 2 and rows[0].split("|")[2] == rows[1].split("|")[2]  # one score
    assert "+0.0000 [+0.0000, +0.0000]" in rows[1]  # the same bot: no difference on any board
