"""What a simulation found: `DealResult` for one deal, `SimulationSummary` for a run.

Summaries of consecutive shards of one run add up (``a + b``) to the summary
of the whole run, so that deals played on many machines can be counted
together.
"""

from __future__ import annotations

import math
from typing import Any

import attrs

from ..formats.records import GameRecord
from ..state.base import Outcome


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
class DealResult:
    """How one deal of a simulation ended, counted per agent.

    `index` is the deal's number in the run and `seed` the seed its cards
    were shuffled with (``new_game(rules, seed=seed, dealer=dealer)`` deals
    them again). `seats` gives, for each seat, the index of the agent that
    sat there; `winner` is the winning agent's index (None for a tableau or
    an abandoned deal) and `payments` are per agent. `record`, when asked
    for, is the deal's `GameRecord`.

    >>> s = simulate(["heuristic", "random"], ConquianRules(), games=2, seed=1, deals=True)
    >>> [(d.index, d.seats) for d in s.deals]
    [(0, (0, 1)), (1, (1, 0))]
    """

    index: int
    seed: int
    dealer: int
    seats: tuple[int, ...]
    outcome: Outcome
    winner: int | None
    payments: tuple[int, ...]
    decisions: int
    record: GameRecord | None = None

    def to_dict(self) -> dict[str, Any]:
        """The deal's result as plain JSON-ready data (the record as its JSON text)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "dealer": self.dealer,
            "seats": list(self.seats),
            "outcome": self.outcome.value,
            "winner": self.winner,
            "payments": list(self.payments),
            "decisions": self.decisions,
            "record": None if self.record is None else self.record.to_json(),
        }


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@attrs.frozen
class SimulationSummary:
    """What `simulate` found: wins per agent and per seat, and how the deals ended.

    `wins`, `payments` and `seat_wins` count per agent (in the order given
    to `simulate`) and per seat. The run played deals ``start`` to
    ``start + games - 1`` of its `seed`; `deals` holds each deal's
    `DealResult` when `simulate` was asked for them (else it is empty). Two
    summaries of the same run compare equal; `elapsed` (seconds) and `jobs`
    are left out of the comparison. `bot_seed` is the seed the bots in other
    processes were told seeds from, drawn from fresh entropy unless given
    (None when no agent ran in another process): ``simulate(...,
    seed=s.seed, bot_seed=s.bot_seed)`` plays the run again.

    Summaries of consecutive shards of one run add up to the summary of the
    whole run: ``simulate(..., games=30, start=0) + simulate(..., games=70,
    start=30)`` equals ``simulate(..., games=100)``.

    >>> s = simulate(["random", "random"], ConquianRules(), games=2, seed=5)
    >>> s.games, s.agents, 0 <= s.mean_decisions
    (2, ('random', 'random'), True)
    >>> more = simulate(["random", "random"], ConquianRules(), games=3, seed=5, start=2)
    >>> s + more == simulate(["random", "random"], ConquianRules(), games=5, seed=5)
    True
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
    start: int = 0
    rotate: bool = True
    deals: tuple[DealResult, ...] = ()
    bot_seed: int | None = None

    @property
    def mean_decisions(self) -> float:
        """The mean number of actions per deal."""
        return self.decisions / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """How many deals were played per second of wall time."""
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def decided(self) -> int:
        """The deals somebody won: neither a tableau nor abandoned."""
        return self.games - self.tableaus - self.abandoned

    def win_rate(self, agent: int) -> float:
        """The share of deals won by the agent at this index."""
        return self.wins[agent] / self.games if self.games else 0.0

    def interval(self, agent: int) -> tuple[float, float]:
        """The 95% Wilson interval of that agent's win rate."""
        return wilson_interval(self.wins[agent], self.games)

    def win_share(self, agent: int) -> float:
        """The share of the decided deals won by the agent at this index.

        >>> s = simulate(["heuristic", "random"], ConquianRules(), games=6, seed=1)
        >>> s.win_share(0) + s.win_share(1) == 1.0 or s.decided == 0
        True
        """
        return self.wins[agent] / self.decided if self.decided else 0.0

    def share_interval(self, agent: int) -> tuple[float, float]:
        """The 95% Wilson interval of that agent's share of the decided deals."""
        return wilson_interval(self.wins[agent], self.decided)

    def __add__(self, other: SimulationSummary) -> SimulationSummary:
        """The summary of two consecutive shards of one run (the same agents, rules and seed)."""
        if not isinstance(other, SimulationSummary):
            return NotImplemented
        same = (self.game, self.agents, self.seed, self.rotate)
        if same != (other.game, other.agents, other.seed, other.rotate):
            raise ValueError(
                "only shards of one run add up: the same game, agents, seed and rotation "
                f"(got {same} and {(other.game, other.agents, other.seed, other.rotate)})"
            )
        bots = {self.bot_seed, other.bot_seed} - {None}
        if len(bots) > 1:
            raise ValueError(
                "only shards of one run add up: their bots were told seeds from two bots' "
                f"seeds ({self.bot_seed} and {other.bot_seed}); give one bot_seed to every shard"
            )
        first, second = (self, other) if self.start <= other.start else (other, self)
        if first.start + first.games != second.start:
            raise ValueError(
                f"shards must follow each other: deals {first.start} to "
                f"{first.start + first.games - 1} and {second.start} to "
                f"{second.start + second.games - 1}"
            )
        return SimulationSummary(
            game=self.game,
            agents=self.agents,
            games=self.games + other.games,
            seed=self.seed,
            wins=_add(self.wins, other.wins),
            seat_wins=_add(self.seat_wins, other.seat_wins),
            payments=_add(self.payments, other.payments),
            tableaus=self.tableaus + other.tableaus,
            abandoned=self.abandoned + other.abandoned,
            decisions=self.decisions + other.decisions,
            elapsed=self.elapsed + other.elapsed,
            jobs=max(self.jobs, other.jobs),
            start=first.start,
            rotate=self.rotate,
            deals=first.deals + second.deals,
            bot_seed=next(iter(bots), None),
        )

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready data, rates and intervals included."""
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "bot_seed": self.bot_seed,
            "start": self.start,
            "jobs": self.jobs,
            "agents": [
                {
                    "agent": name,
                    "wins": self.wins[i],
                    "win_rate": self.win_rate(i),
                    "ci95": list(self.interval(i)),
                    "win_share": self.win_share(i),
                    "share_ci95": list(self.share_interval(i)),
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
            "deals": [d.to_dict() for d in self.deals],
        }
