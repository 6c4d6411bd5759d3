"""`simulate`: many seeded deals between agents, summed up in a `SimulationSummary`."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any, TypeAlias, cast

import attrs

from ..rules import Rules
from ..state import Outcome
from .base import Agent, AgentFactory, _check_ends, play
from .registry import AGENTS


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default `z`).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class SimulationSummary:
    """What `simulate` found: wins per agent and per seat, and how the deals ended.

    `wins`, `payments` and `seat_wins` count per agent (in the order given
    to `simulate`) and per seat. Two summaries of the same run compare
    equal; `elapsed` (seconds) and `jobs` are left out of the comparison.

    >>> s = simulate(["random", "random"], ConquianRules(), games=2, seed=5)
    >>> s.games, s.agents, 0 <= s.mean_decisions
    (2, ('random', 'random'), True)
    """

    game: str
    agents: tuple[str, ...]
    games: int
    seed: int
    wins: tuple[int, ...]
    seat_wins: tuple[int, ...]
    payments: tuple[int, ...]
    tableaus: int
    abandoned: int
    decisions: int
    elapsed: float = attrs.field(default=0.0, eq=False)
    jobs: int = attrs.field(default=1, eq=False)

    @property
    def mean_decisions(self) -> float:
        """The mean number of actions per deal."""
        return self.decisions / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """How many deals were played per second of wall time."""
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    def win_rate(self, agent: int) -> float:
        """The share of deals won by the agent at this index."""
        return self.wins[agent] / self.games if self.games else 0.0

    def interval(self, agent: int) -> tuple[float, float]:
        """The 95% Wilson interval of that agent's win rate."""
        return wilson_interval(self.wins[agent], self.games)

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready data, rates and intervals included."""
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "jobs": self.jobs,
            "agents": [
                {
                    "agent": name,
                    "wins": self.wins[i],
                    "win_rate": self.win_rate(i),
                    "ci95": list(self.interval(i)),
                    "payments": self.payments[i],
                }
                for i, name in enumerate(self.agents)
            ],
            "seat_wins": list(self.seat_wins),
            "tableaus": self.tableaus,
            "abandoned": self.abandoned,
            "mean_decisions": self.mean_decisions,
            "elapsed": self.elapsed,
            "games_per_second": self.games_per_second,
        }


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
        if spec not in AGENTS:
            known = ", ".join(sorted(AGENTS))
            raise ValueError(f"unknown agent {spec!r}: use one of {known}")
        return AGENTS[spec]
    if not callable(spec):
        raise TypeError(f"an agent is a name or a factory taking a seed (got {spec!r})")
    return spec


def _name(spec: AgentSpec) -> str:
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "__name__", repr(spec)))


# One game's tally: (winner agent or None, winner seat or None, outcome, payments per agent,
# decisions). A chunk's tally sums them.
_Tally = tuple[list[int], list[int], list[int], int, int, int]


def _run_chunk(
    specs: tuple[AgentSpec, ...], rules: Rules, seed: int, start: int, stop: int, rotate: bool
) -> _Tally:
    n = rules.players
    factories = [_factory(s) for s in specs]
    wins = [0] * n
    seat_wins = [0] * n
    payments = [0] * n
    tableaus = abandoned = decisions = 0
    for i in range(start, stop):
        shift = i % n if rotate else 0
        dealer = (i // n) % n if rotate else i % n
        seats: list[Agent | None] = [None] * n
        for j, make in enumerate(factories):
            seats[(j + shift) % n] = make(_mix(seed, i, j + 1))
        final = play(cast(list[Agent], seats), rules, seed=_mix(seed, i, 0), dealer=dealer)
        result = final.result
        assert result is not None
        decisions += len(final.history)
        for j in range(n):
            payments[j] += result.payments[(j + shift) % n]
        if result.outcome is Outcome.WIN:
            assert result.winner is not None
            seat_wins[result.winner] += 1
            wins[(result.winner - shift) % n] += 1
        elif result.outcome is Outcome.TABLEAU:
            tableaus += 1
        else:
            abandoned += 1
    return wins, seat_wins, payments, tableaus, abandoned, decisions


def simulate(
    agents: Sequence[AgentSpec],
    rules: Rules,
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    *,
    rotate: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationSummary:
    """Play `games` seeded deals between agents and sum them up.

    `agents` gives one agent per seat: a name of `AGENTS` (``"heuristic"``,
    ``"random"``) or a factory called with a seed, such as `RandomAgent`.
    Every deal and every agent gets its own seed derived from `seed` and the
    deal's number, so a run is reproducible and gives the same summary with
    any number of `jobs` (processes, with `ProcessPoolExecutor`; factories
    must then be picklable: names and classes are). With `rotate` (the
    default) the agents change seats and the deal passes from game to game,
    so that no agent keeps a seat's advantage; results are counted per agent.
    `progress`, if given, is called with (deals done, deals) as they finish.

    >>> s = simulate([RandomAgent, "heuristic"], ConquianRules(), games=4, seed=2)
    >>> s.agents, sum(s.wins) + s.tableaus == 4
    (('RandomAgent', 'heuristic'), True)
    """
    specs = tuple(agents)
    if len(specs) != rules.players:
        raise ValueError(f"{rules.game} needs {rules.players} agents (got {len(specs)})")
    for s in specs:
        _factory(s)
    _check_ends(rules)
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int of at least 0 (got {games!r})")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be an int of at least 1 (got {jobs!r})")
    n = rules.players
    totals: _Tally = ([0] * n, [0] * n, [0] * n, 0, 0, 0)

    def add(t: _Tally) -> None:
        nonlocal totals
        totals = (
            [a + b for a, b in zip(totals[0], t[0], strict=True)],
            [a + b for a, b in zip(totals[1], t[1], strict=True)],
            [a + b for a, b in zip(totals[2], t[2], strict=True)],
            totals[3] + t[3],
            totals[4] + t[4],
            totals[5] + t[5],
        )

    started = time.perf_counter()
    done = 0
    if jobs == 1 or games <= 1:
        for i in range(games):
            add(_run_chunk(specs, rules, seed, i, i + 1, rotate))
            done += 1
            if progress is not None:
                progress(done, games)
    else:
        size = max(1, min(50, games // (jobs * 8)))
        bounds = [(a, min(games, a + size)) for a in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            futures = {
                pool.submit(_run_chunk, specs, rules, seed, a, b, rotate): b - a for a, b in bounds
            }
            for future in as_completed(futures):
                add(future.result())
                done += futures[future]
                if progress is not None:
                    progress(done, games)
    elapsed = time.perf_counter() - started
    return SimulationSummary(
        game=rules.game,
        agents=tuple(_name(s) for s in specs),
        games=games,
        seed=seed,
        wins=tuple(totals[0]),
        seat_wins=tuple(totals[1]),
        payments=tuple(totals[2]),
        tableaus=totals[3],
        abandoned=totals[4],
        decisions=totals[5],
        elapsed=elapsed,
        jobs=jobs,
    )
