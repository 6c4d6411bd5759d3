"""Simulations at any scale: per-deal results, shards that add up, any executor, SVG charts."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conquian import (
    Action,
    ConquianRules,
    CooncanRules,
    Discard,
    IllegalActionError,
    Outcome,
    PlayerView,
    RandomAgent,
    Rules,
    card,
    new_game,
)
from conquian.agents import (
    DealResult,
    ProcessAgent,
    SimulationSummary,
    play,
    share_chart,
    simulate,
    win_share_chart,
)

TWO_HAND = ConquianRules()
THREE_HAND = CooncanRules.three_hand(turn_limit=200)


# -- play names the seat, the agent and the move -----------------------------------------


def test_play_names_the_seat_agent_and_move_of_an_illegal_action() -> None:
    """An illegal action stops the deal with the seat, the agent and the move number (E1)."""

    def stubborn(view: PlayerView) -> Action:
        return Discard(card("5H"))

    with pytest.raises(IllegalActionError, match=r"^seat 1 \(.*stubborn\), move 1: illegal") as e:
        play([RandomAgent(2), stubborn], TWO_HAND, seed=1, dealer=0)
    assert e.value.rule == "T4"


@pytest.mark.parametrize("returned", [None, "pass", 3], ids=repr)
def test_play_names_an_agent_that_returns_no_action(returned: object) -> None:
    """None, a string or any non-action is the same kind of error, naming seat and move."""
    moves = 0

    def broken(view: PlayerView) -> Action:
        nonlocal moves
        moves += 1
        if moves < 3:
            return view.legal_actions[0]
        return returned  # type: ignore[return-value]

    with pytest.raises(IllegalActionError, match=r"seat 0 \(.*broken\), move \d+: .*not an action"):
        play([broken, RandomAgent(1)], TWO_HAND, seed=3, dealer=1)


def test_play_names_an_agent_by_its_repr() -> None:
    """A bot with a repr of its own is named by it."""

    class Wrong:
        def __call__(self, view: PlayerView) -> Action:
            return Discard(card("5H"))

        def __repr__(self) -> str:
            return "Wrong(7)"

    with pytest.raises(IllegalActionError, match=r"seat 1 \(Wrong\(7\)\), move 1"):
        play([RandomAgent(2), Wrong()], TWO_HAND, seed=1, dealer=0)


# -- each deal's result --------------------------------------------------------------------


def test_simulate_keeps_each_deal_and_its_record_on_request() -> None:
    """deals=True keeps one DealResult per deal, which add up to the summary; records replay."""
    s = simulate(["heuristic", "random", "random"], THREE_HAND, games=5, seed=4, records=True)
    assert [d.index for d in s.deals] == list(range(5))
    assert sum(d.decisions for d in s.deals) == s.decisions
    for j in range(3):
        assert sum(d.payments[j] for d in s.deals) == s.payments[j]
        assert sum(d.winner == j for d in s.deals) == s.wins[j]
    for d in s.deals:
        assert sorted(d.seats) == [0, 1, 2]
        assert d.record is not None
        final = d.record.replay()
        assert final.result is not None and final.result.outcome is d.outcome
        assert [final.result.payments[d.seats.index(j)] for j in range(3)] == list(d.payments)
        dealt = new_game(THREE_HAND, seed=d.seed, dealer=d.dealer)
        assert dealt.hand(0) == new_game(THREE_HAND, deck=d.record.deck, dealer=d.dealer).hand(0)
    without = simulate(["heuristic", "random", "random"], THREE_HAND, games=5, seed=4)
    assert without.deals == () and without.wins == s.wins
    plain = simulate(["heuristic", "random", "random"], THREE_HAND, games=5, seed=4, deals=True)
    assert all(d.record is None for d in plain.deals)
    assert [attr_free(d) for d in plain.deals] == [attr_free(d) for d in s.deals]


def attr_free(d: DealResult) -> tuple[object, ...]:
    """A deal's result without its record."""
    return (d.index, d.seed, d.dealer, d.seats, d.outcome, d.winner, d.payments, d.decisions)


def test_deal_results_follow_the_agents_when_seats_rotate() -> None:
    """The winner and payments of a deal are the agents', whatever seat they sat in."""
    s = simulate(["heuristic", "random"], TWO_HAND, games=12, seed=9, deals=True)
    for d in s.deals:
        assert d.seats == ((0, 1) if d.index % 2 == 0 else (1, 0))
        if d.outcome is Outcome.WIN:
            assert d.winner is not None and d.payments[d.winner] > 0
        assert d.to_dict()["outcome"] == d.outcome.value


# -- shards add up -------------------------------------------------------------------------


def test_consecutive_shards_add_up_to_the_whole_run() -> None:
    """a + b of deals 0–2 and 3–7 equals the run of deals 0–7, per-deal results included."""
    agents = ["heuristic", "random"]
    whole = simulate(agents, TWO_HAND, games=8, seed=21, deals=True)
    a = simulate(agents, TWO_HAND, games=3, seed=21, deals=True)
    b = simulate(agents, TWO_HAND, games=5, seed=21, start=3, deals=True)
    assert a + b == whole
    assert b + a == whole
    assert (a + b).start == 0 and (a + b).games == 8
    assert sum([a, b], start=simulate(agents, TWO_HAND, games=0, seed=21, deals=True)) == whole


def test_only_shards_of_one_run_add_up() -> None:
    """Different seeds, agents or gaps between the shards are refused."""
    a = simulate(["random", "random"], TWO_HAND, games=2, seed=1)
    with pytest.raises(ValueError, match="same game, agents, seed"):
        a + simulate(["random", "random"], TWO_HAND, games=2, seed=2, start=2)
    with pytest.raises(ValueError, match="follow each other"):
        a + simulate(["random", "random"], TWO_HAND, games=2, seed=1, start=3)
    with pytest.raises(ValueError, match="same game, agents, seed"):
        a + simulate(["heuristic", "random"], TWO_HAND, games=2, seed=1, start=2)


# -- any executor ----------------------------------------------------------------------------


def test_simulate_on_an_executor_equals_one_job() -> None:
    """Any concurrent.futures.Executor plays the same deals to the same summary."""
    one = simulate(["heuristic", "random"], TWO_HAND, games=10, seed=5, deals=True)
    seen: list[tuple[int, int]] = []
    with ThreadPoolExecutor(max_workers=3) as pool:
        other = simulate(
            ["heuristic", "random"],
            TWO_HAND,
            games=10,
            seed=5,
            deals=True,
            executor=pool,
            progress=lambda d, t: seen.append((d, t)),
        )
    assert other == one
    assert seen[-1] == (10, 10) and all(t == 10 for _, t in seen)


def test_simulate_refuses_jobs_with_an_executor() -> None:
    """jobs and executor are two ways to spread the deals: one at a time."""
    with ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(ValueError, match="not both"):
        simulate(["random", "random"], TWO_HAND, games=2, jobs=2, executor=pool)
    with pytest.raises(TypeError, match="Executor"):
        simulate(["random", "random"], TWO_HAND, games=2, executor="dask")  # type: ignore[arg-type]


@pytest.mark.filterwarnings("ignore")  # the cluster's own start-up and shutdown notices
def test_simulate_on_a_dask_cluster_equals_one_job() -> None:
    """Two worker processes of a real distributed.LocalCluster give the jobs=1 summary."""
    distributed = pytest.importorskip("distributed")
    agents = ["heuristic", "random", "random"]
    one = simulate(agents, THREE_HAND, games=6, seed=8, deals=True)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_cluster = simulate(
            agents, THREE_HAND, games=6, seed=8, deals=True, executor=client.get_executor()
        )
    assert on_cluster == one


# -- charts ----------------------------------------------------------------------------------


_SVG = "{http://www.w3.org/2000/svg}"


def _bars(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    assert root.tag == f"{_SVG}svg"
    return [e for e in root.iter(f"{_SVG}rect") if e.get("class") == "bar"]


@pytest.mark.parametrize(
    ("agents", "rules"),
    [(["heuristic", "random"], TWO_HAND), (["heuristic", "random", "random"], THREE_HAND)],
    ids=["two-hand", "three-hand"],
)
def test_win_share_chart_is_svg_with_one_bar_per_agent(agents: list[str], rules: object) -> None:
    """The chart parses as XML and holds one bar per agent, as long as its share."""
    s = simulate(agents, rules, games=8, seed=2)  # type: ignore[arg-type]
    bars = _bars(win_share_chart(s))
    assert len(bars) == len(agents)
    for i, bar in enumerate(bars):
        assert float(bar.get("data-share", "")) == pytest.approx(s.win_share(i), abs=1e-4)
        low, high = s.share_interval(i)
        assert float(bar.get("data-low", "")) == pytest.approx(low, abs=1e-4)
        assert float(bar.get("data-high", "")) == pytest.approx(high, abs=1e-4)
    widths = [float(b.get("width", "")) for b in bars]
    assert (widths[0] > widths[1]) == (s.wins[0] > s.wins[1])


def test_share_chart_escapes_labels_and_draws_empty_rows() -> None:
    """Labels are text, not markup; a row with no trials draws an empty bar."""
    svg = share_chart([("<b>&", 3, 4), ("none yet", 0, 0)], title="a < b", reference=0.5)
    bars = _bars(svg)
    assert [b.get("data-label") for b in bars] == ["<b>&", "none yet"]
    assert float(bars[1].get("width", "")) == 0.0


def test_summary_win_share_counts_decided_deals_only() -> None:
    """win_share divides by the deals somebody won; tableaus are left out."""
    s = SimulationSummary(
        game="two-hand",
        agents=("a", "b"),
        games=10,
        seed=0,
        wins=(6, 2),
        seat_wins=(4, 4),
        payments=(4, -4),
        tableaus=2,
        abandoned=0,
        decisions=400,
    )
    assert s.decided == 8 and s.win_share(0) == 0.75
    assert s.share_interval(0)[0] < 0.75 < s.share_interval(0)[1]


# -- duplicate deals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", [ConquianRules(), CooncanRules.three_hand(turn_limit=30)], ids=["two", "three"]
)
def test_duplicate_plays_each_pack_once_per_seat(rules: Rules) -> None:
    """``duplicate=True``: deals ``k*n`` to ``k*n+n-1`` share the pack and the dealer, and
    each agent sits once in every seat of them; other packs differ."""
    n = rules.players
    specs = [RandomAgent, "heuristic", RandomAgent][:n]
    s = simulate(specs, rules, games=2 * n, seed=5, duplicate=True, deals=True)
    boards = [s.deals[k * n : (k + 1) * n] for k in range(2)]
    for board in boards:
        assert len({d.seed for d in board}) == 1
        assert len({d.dealer for d in board}) == 1
        for agent in range(n):
            assert {d.seats.index(agent) for d in board} == set(range(n))
    assert boards[0][0].seed != boards[1][0].seed
    plain = simulate(specs, rules, games=2 * n, seed=5, deals=True)
    assert len({d.seed for d in plain.deals}) == 2 * n


def test_duplicate_needs_whole_boards() -> None:
    """Duplicate deals come in groups of one per seat: `games` and `start` are multiples of
    the players, and the agents must rotate."""
    rules = ConquianRules()
    with pytest.raises(ValueError, match="multiples of the players"):
        simulate([RandomAgent, RandomAgent], rules, games=3, duplicate=True)
    with pytest.raises(ValueError, match="multiples of the players"):
        simulate([RandomAgent, RandomAgent], rules, games=2, start=1, duplicate=True)
    with pytest.raises(ValueError, match="rotate"):
        simulate([RandomAgent, RandomAgent], rules, games=2, rotate=False, duplicate=True)


def test_duplicate_shards_add_up() -> None:
    """A duplicate run cut in shards (whole boards) sums to the run played at once."""
    rules = ConquianRules()
    agents = [RandomAgent, "heuristic"]
    whole = simulate(agents, rules, games=8, seed=3, duplicate=True)
    a = simulate(agents, rules, games=4, seed=3, duplicate=True)
    b = simulate(agents, rules, games=4, seed=3, start=4, duplicate=True)
    assert (a + b).wins == whole.wins and (a + b).payments == whole.payments


def test_cli_duplicate_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """``conquian simulate --duplicate`` plays duplicate deals; an odd --games is refused."""
    import json

    from conquian.cli import main

    assert main(["simulate", "--games", "4", "--duplicate", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4
    assert main(["simulate", "--games", "3", "--duplicate", "--quiet"]) == 2
    assert "multiple" in capsys.readouterr().err


def test_duplicate_cancels_the_cards_between_equal_agents() -> None:
    """Two copies of one seeded agent under ``duplicate=True`` play each pack from both
    seats alike: every board's payments cancel, where plain deals leave the cards' luck
    (heuristic against heuristic over 1,000 deals: a standard error of 0.028 counters a
    deal plain, 0 in duplicate)."""
    rules = ConquianRules()
    s = simulate(["heuristic", "heuristic"], rules, games=8, seed=4, duplicate=True, deals=True)
    for k in range(0, 8, 2):
        assert s.deals[k].payments[0] + s.deals[k + 1].payments[0] == 0
    assert s.payments == (0, 0)


# -- a bot in another process learns nothing of the deal from its seed (issue 39.1) ----------

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _finalise(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def _unshift(y: int, k: int) -> int:
    """The x with ``x ^ (x >> k) == y``."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x & _MASK


def _unfinalise(x: int) -> int:
    z = _unshift(x, 31)
    z = (z * pow(_M2, -1, 1 << 64)) & _MASK
    z = _unshift(z, 27)
    z = (z * pow(_M1, -1, 1 << 64)) & _MASK
    return _unshift(z, 30)


def _deal_seeds_from(told: int, agent: int) -> set[int]:
    """The attack of issue 39: from agent `agent`'s hello seed, if it was mixed as
    ``_mix(seed, board, agent + 1)``, one step back and one forward give the deal's seed
    ``_mix(seed, board, 0)`` (two candidates: the mix drops its lowest bit)."""
    found = set()
    for low in (0, 1):
        before = ((_unfinalise((told << 1) | low) - _GAMMA) & _MASK) ^ (agent + 1)
        found.add(_finalise((before + _GAMMA) & _MASK) >> 1)
    return found


def test_the_inverse_mix_attack_works_on_a_seed_mixed_from_the_run_seed() -> None:
    """The attack is real: the seed of an agent mixed from the run's seed gives the deal's."""
    from conquian.agents.simulate import _mix

    for seed, board, agent in [(0, 0, 0), (1, 5, 1), (2026, 17, 2)]:
        assert _mix(seed, board, 0) in _deal_seeds_from(_mix(seed, board, agent + 1), agent)


def _seed_bot(tmp_path: Path) -> tuple[str, Path]:
    """A cmd: bot that plays its first legal action and writes down each hello's seed."""
    told = tmp_path / "told.txt"
    script = tmp_path / "seeds.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        f"        open({str(told)!r}, 'a').write(str(m['seed']) + '\\n')\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1}), flush=True)\n"
        "    elif m['type'] == 'decide':\n"
        "        print(json.dumps({'type': 'action', 'action': m['legal'][0]}), flush=True)\n"
    )
    return f"cmd:{sys.executable} {script}", told


@pytest.mark.parametrize("made", ["cmd", "factory"])
def test_a_bots_hello_seed_does_not_lead_back_to_the_deal(tmp_path: Path, made: str) -> None:
    """A ``cmd:`` bot, or a ProcessAgent from a factory of one's own, is told a seed drawn
    from the run's bots' seed (fresh entropy): the attack finds no deal's seed in it; the
    summary records the bots' seed, and giving it back repeats what the bots were told."""
    name, told = _seed_bot(tmp_path)
    command = name[4:].split()
    agent: object = name if made == "cmd" else (lambda s: ProcessAgent(command, 10, seed=s))
    run = simulate([agent, "heuristic"], TWO_HAND, games=4, seed=3, deals=True)
    seeds = [int(x) for x in told.read_text().split()]
    deal_seeds = {d.seed for d in run.deals}
    assert len(seeds) == 4 and len(deal_seeds) == 4
    for s in seeds:
        assert not _deal_seeds_from(s, 0) & deal_seeds
    assert isinstance(run.bot_seed, int)
    told.unlink()
    again = simulate([agent, "heuristic"], TWO_HAND, games=4, seed=3, bot_seed=run.bot_seed)
    assert [int(x) for x in told.read_text().split()] == seeds and again.bot_seed == run.bot_seed
    told.unlink()
    other = simulate([agent, "heuristic"], TWO_HAND, games=4, seed=3)
    assert other.bot_seed != run.bot_seed  # drawn afresh: 1 chance in 2**63 of a clash
    assert [int(x) for x in told.read_text().split()] != seeds


def test_a_run_without_bots_in_other_processes_records_no_bots_seed() -> None:
    """Agents in this process keep seeds from the run's seed (they could read its memory
    anyway): such a run records no bots' seed, and repeats from its seed alone."""
    a = simulate(["random", "heuristic"], TWO_HAND, games=2, seed=8)
    assert a.bot_seed is None and a.to_dict()["bot_seed"] is None
    assert a == simulate(["random", "heuristic"], TWO_HAND, games=2, seed=8)


def test_shards_told_from_two_bots_seeds_do_not_add_up() -> None:
    """The sum of shards keeps one bots' seed; two different ones are not one run."""
    a = simulate(["random", "random"], TWO_HAND, games=2, seed=5, bot_seed=1)
    b = simulate(["random", "random"], TWO_HAND, games=2, seed=5, start=2, bot_seed=1)
    assert (a + b).bot_seed == 1
    c = simulate(["random", "random"], TWO_HAND, games=2, seed=5, start=2, bot_seed=2)
    with pytest.raises(ValueError, match="bot_seed"):
        a + c
