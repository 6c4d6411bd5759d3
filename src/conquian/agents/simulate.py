"""`simulate`: many seeded deals between agents, summed up in a `SimulationSummary`.

Deal ``i`` of a run is dealt and played from seeds derived from the run's
seed and ``i`` alone, so any way of cutting the deals into chunks, on one
process, a pool or a cluster, plays the same deals and finds the same sums.
A bot in another process (`ProcessAgent`, ``cmd:``) is told a seed derived
from the bots' seed instead, drawn from fresh entropy for the run: nothing it
is told leads back to the deal's seed (each seed is an invertible mix of the
integers it is made from, and a small run seed can be tried by brute force).
With ``duplicate=True`` (the duplicate format of bridge), deals ``k * n`` to
``k * n + n - 1`` (``n`` players) share one pack and dealer, and the agents
rotate through the seats: every agent plays every hand of the deal.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias, cast

from ..formats.records import GameRecord
from ..rules import Rules
from ..state.base import Outcome
from .base import Agent, AgentFactory, _check_ends, play
from .process import Command, ProcessAgent, agent_from_name
from .registry import AGENTS
from .summary import DealResult, SimulationSummary

if TYPE_CHECKING:
    from concurrent.futures import Executor

_MASK = (1 << 64) - 1


def _mix(*values: int) -> int:
    """A seed derived from several integers (splitmix64 steps): the same on every platform."""
    x = 0x9E3779B97F4A7C15
    for v in values:
        x = (x ^ (v & _MASK)) & _MASK
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
    return x >> 1


AgentSpec: TypeAlias = "str | AgentFactory"


def _factory(spec: AgentSpec) -> AgentFactory:
    if isinstance(spec, str):
        command = agent_from_name(spec)
        if command is not None:
            return command
        if spec not in AGENTS:
            known = ", ".join(sorted(AGENTS))
            raise ValueError(f"unknown agent {spec!r}: use one of {known}")
        return AGENTS[spec]
    if not callable(spec):
        raise TypeError(
            f"an agent is a name or a factory taking a seed (got {type(spec).__name__})"
        )
    return spec


def _name(spec: AgentSpec) -> str:
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "__name__", repr(spec)))


def _close(agents: Sequence[object]) -> None:
    """Stop the processes of the agents that have them (`ProcessAgent.close`)."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


def _run_chunk(
    specs: tuple[AgentSpec, ...],
    rules: Rules,
    seed: int,
    start: int,
    stop: int,
    rotate: bool,
    records: bool,
    duplicate: bool = False,
    bot_seed: int = 0,
) -> tuple[list[DealResult], bool]:
    """Play deals `start` to `stop - 1` of the run and say how each ended, and whether an
    agent in another process was told a seed.

    An agent in another process (a `Command`, or a `ProcessAgent` made by any factory) is
    told a seed drawn from `bot_seed`, never one from the run's `seed`: the deal's seed is
    mixed from the run's seed too, and the mix can be undone."""
    n = rules.players
    factories = [_factory(s) for s in specs]
    out: list[DealResult] = []
    told_bots = False
    for i in range(start, stop):
        shift = i % n if rotate else 0
        dealer = (i // n) % n if rotate else i % n
        seats: list[Agent | None] = [None] * n
        board = i // n if duplicate else i  # duplicate: n deals of one pack, seats rotated
        for j, make in enumerate(factories):
            told = _mix(bot_seed, board, j + 1)  # a bot's seed: nothing of the deal's
            agent = make(told if isinstance(make, Command) else _mix(seed, board, j + 1))
            if isinstance(agent, ProcessAgent):
                agent.seed = told
                told_bots = True
            seats[(j + shift) % n] = agent
        deal_seed = _mix(seed, board, 0)
        try:
            final = play(cast(list[Agent], seats), rules, seed=deal_seed, dealer=dealer)
        finally:
            _close(seats)
        result = final.result
        assert result is not None
        winner = None if result.winner is None else (result.winner - shift) % n
        out.append(
            DealResult(
                index=i,
                seed=deal_seed,
                dealer=dealer,
                seats=tuple((s - shift) % n for s in range(n)),
                outcome=result.outcome,
                winner=winner if result.outcome is Outcome.WIN else None,
                payments=tuple(result.payments[(j + shift) % n] for j in range(n)),
                decisions=len(final.history),
                record=GameRecord.from_state(final) if records else None,
            )
        )
    return out, told_bots


def _chunks(start: int, games: int, workers: int) -> list[tuple[int, int]]:
    """Ranges of deals to hand out: about eight per worker, at most 50 deals each."""
    size = max(1, min(50, games // (workers * 8)))
    stop = start + games
    return [(a, min(stop, a + size)) for a in range(start, stop, size)]


def simulate(
    agents: Sequence[AgentSpec],
    rules: Rules,
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    *,
    rotate: bool = True,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    start: int = 0,
    deals: bool = False,
    records: bool = False,
    duplicate: bool = False,
    bot_seed: int | None = None,
) -> SimulationSummary:
    """Play `games` seeded deals between agents and sum them up.

    `agents` gives one agent per seat: a name of `AGENTS` (``"heuristic"``,
    ``"random"``, ``"ismcts"``), ``"cmd:COMMAND"`` for a bot in another
    process, or a factory called with a seed, such as `RandomAgent`. Every
    deal and every agent gets its own seed derived from `seed` and the deal's
    number, so a run is reproducible and gives the same summary however its
    deals are spread:

    - `jobs` plays them on that many processes of this machine (a
      `ProcessPoolExecutor` started with *spawn*);
    - `executor`, any `concurrent.futures.Executor` (a process pool, Dask's
      ``distributed.Client(...).get_executor()``, Ray's), plays them where it
      runs its tasks; `jobs` must then stay 1.

    With several processes factories must be picklable: names and classes
    defined at the top of a module are. `start` plays deals ``start`` to
    ``start + games - 1`` of the run, so that shards of one run can be
    played apart and added up (``a + b``). With `rotate` (the default) the
    agents change seats and the deal passes from game to game, so that no
    agent keeps a seat's advantage; results are counted per agent.
    `deals=True` keeps each deal's `DealResult` in ``summary.deals``, and
    `records=True` also its `GameRecord`. `progress`, if given, is called
    with (deals done, deals) as they finish.

    `duplicate=True` plays each pack once per seat (duplicate format): deals
    ``k * n`` to ``k * n + n - 1`` of ``n`` players share the pack and the
    dealer, the agents rotated through the seats (swapped, with two), so that
    every agent plays the same cards. `games` and `start` must then be
    multiples of the players, and `rotate` stays True.

    A bot in another process (a ``cmd:`` name, a `Command`, or any
    `ProcessAgent` a factory makes) is told a seed derived from `bot_seed`
    instead, never from `seed`, which its deals' seeds come from: when not
    given, the bots' seed is drawn from fresh entropy (`secrets`), so that
    nothing a bot is told leads back to the cards it may not see. The summary
    records it (``summary.bot_seed``, None when no bot ran in another
    process): ``simulate(..., seed=seed, bot_seed=summary.bot_seed)`` plays
    the run again, bots included.

    >>> s = simulate([RandomAgent, "heuristic"], ConquianRules(), games=4, seed=2)
    >>> s.agents, sum(s.wins) + s.tableaus == 4
    (('RandomAgent', 'heuristic'), True)
    """
    _check_ends(rules)
    if not isinstance(agents, Sequence) or isinstance(agents, str):
        raise TypeError(
            "agents must be a sequence of agent names or factories, one per seat, "
            f"not {type(agents).__name__}"
        )
    specs = tuple(agents)
    if len(specs) != rules.players:
        raise ValueError(f"{rules.game} needs {rules.players} agents (got {len(specs)})")
    for s in specs:
        _factory(s)
    if type(seed) is not int:
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int of at least 0 (got {games!r})")
    if bot_seed is not None and type(bot_seed) is not int:
        raise TypeError(f"bot_seed must be an int or None, not {type(bot_seed).__name__}")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be an int of at least 1 (got {jobs!r})")
    if type(start) is not int or start < 0:
        raise ValueError(f"start must be an int of at least 0 (got {start!r})")
    if duplicate and not rotate:
        raise ValueError("duplicate deals rotate the agents through the seats: keep rotate=True")
    if duplicate and (games % rules.players or start % rules.players):
        raise ValueError(
            f"with duplicate, games and start must be multiples of the players "
            f"({rules.players}): each pack is played once per seat (got {games}, {start})"
        )
    if executor is not None and jobs != 1:
        raise ValueError("give either jobs (processes of this machine) or an executor, not both")
    # The process pools are imported where a simulation uses them, not by `import conquian`.
    from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(f"executor must be a concurrent.futures.Executor (got {executor!r})")
    outside = bot_seed is not None  # whether the summary records the bots' seed
    bots = bot_seed if bot_seed is not None else secrets.randbits(63)
    n = rules.players
    keep = deals or records
    kept: list[DealResult] = []
    wins = [0] * n
    seat_wins = [0] * n
    payments = [0] * n
    tableaus = abandoned = decisions = done = 0

    def add(played: tuple[list[DealResult], bool]) -> None:
        nonlocal tableaus, abandoned, decisions, done, outside
        chunk, told = played
        outside = outside or told
        for d in chunk:
            decisions += d.decisions
            for j in range(n):
                payments[j] += d.payments[j]
            if d.winner is not None:
                wins[d.winner] += 1
                seat_wins[d.seats.index(d.winner)] += 1
            elif d.outcome is Outcome.TABLEAU:
                tableaus += 1
            else:
                abandoned += 1
        if keep:
            kept.extend(chunk)
        done += len(chunk)
        if progress is not None:
            progress(done, games)

    def run(pool: Executor, workers: int) -> None:
        futures = [
            pool.submit(_run_chunk, specs, rules, seed, a, b, rotate, records, duplicate, bots)
            for a, b in _chunks(start, games, workers)
        ]
        try:
            for future in as_completed(futures):
                add(future.result())
        except BaseException:
            for future in futures:  # a failed deal (a bot's fault) ends the run
                future.cancel()
            raise

    started = time.perf_counter()
    if executor is not None:
        run(executor, max(1, int(getattr(executor, "_max_workers", 4))))
    elif jobs == 1 or games <= 1:
        for i in range(start, start + games):
            add(_run_chunk(specs, rules, seed, i, i + 1, rotate, records, duplicate, bots))
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            run(pool, jobs)
    elapsed = time.perf_counter() - started
    return SimulationSummary(
        game=rules.game,
        agents=tuple(_name(s) for s in specs),
        games=games,
        seed=seed,
        wins=tuple(wins),
        seat_wins=tuple(seat_wins),
        payments=tuple(payments),
        tableaus=tableaus,
        abandoned=abandoned,
        decisions=decisions,
        elapsed=elapsed,
        jobs=jobs,
        start=start,
        rotate=rotate,
        deals=tuple(sorted(kept, key=lambda d: d.index)),
        bot_seed=bots if outside else None,
    )
