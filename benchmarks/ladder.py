"""A ladder of the library's agents: every pair plays, seats rotating, and each gets a rating.

Usage::

    python benchmarks/ladder.py                       # 200 two-hand deals per pair
    python benchmarks/ladder.py --games 1000 --jobs 2 --svg docs/assets/ladder.svg
    python benchmarks/ladder.py --agents heuristic,ismcts --games 100
    python benchmarks/ladder.py --game coo-can --agents random,heuristic --games 300
    python benchmarks/ladder.py --duplicate --boards 1000 --agents heuristic@v1,pimc@v1,search
    python benchmarks/ladder.py --duplicate --game three-hand --players 3 --boards 500

For every pair of agents it plays ``--games`` deals of a game for two (Conquian
by default; ``--game`` names another of `conquian.GAMES`, its rules for two
players, with a turn limit of 400 where the game has one) with
`conquian.simulate` (seats and deal rotating, the same seeds for every pair),
and prints each pair's share of the decided deals (tableaus left out) with
its 95% Wilson interval. The rating is Elo-style: a Bradley–Terry fit of all
decided deals (half a win and half a loss added to every pair, so that an
agent that never wins keeps a finite rating), on the Elo scale (400 points
for odds of ten to one), with the heuristic at 1500. `--svg FILE` draws the
shares with the library's `share_chart`.

With ``--duplicate`` (the duplicate format of bridge, `simulate(..., duplicate=True)`)
every pairing plays ``--boards`` packs, each pack once with every seat, so that both
agents hold the same cards: the luck of the deal cancels within a board. A deal is
scored 1 won, 0 lost and ½ a tableau or an abandoned deal (T12); the table gives the
first agent's score with a 95% interval clustered by board (the mean of each board's
score, and its standard error over the boards: a board's deals are not independent),
the same on the Elo scale (``400 log10(s / (1 - s))``), and each agent's own CPU time a
deal (`time.process_time` around its calls, one process). With more than two seats
(``--players 3``) the first agent sits in one seat and the second in all the others,
rotated through the seats on every board; the score is then the first agent's, to be
compared with that of another first agent against the same field (an equal player
scores about ``1/n`` of the decided deals). The ratings are a Bradley–Terry fit of the
scores, ``heuristic@v1`` (or the first name) at 1500. ``--field NAME`` plays only the
pairings against NAME, and ``--markdown`` prints the table for the docs.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
import time
from itertools import combinations
from pathlib import Path

import attrs

from conquian import GAMES, Rules
from conquian.actions import Action
from conquian.agents import (
    AGENTS,
    Agent,
    AgentFactory,
    HeuristicAgent,
    RandomAgent,
    share_chart,
    simulate,
)
from conquian.agents.search import ISMCTSAgent
from conquian.state.base import Outcome, PlayerView

# The agents of the ladder, by name: the two search budgets are iterations per decision;
# every agent known to `make_agent` by name (the frozen references heuristic@v1, pimc@v1).
LADDER: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,
    "ismcts-32": functools.partial(ISMCTSAgent, iterations=32),
    **{name: factory for name, factory in AGENTS.items() if name not in ("ismcts",)},
}

# Seconds of CPU spent in each agent's calls, by name (one process: --jobs 1).
CLOCK: dict[str, float] = {}


class Timed:
    """An agent that adds the process time of its calls to ``CLOCK[name]``."""

    def __init__(self, agent: Agent, name: str) -> None:
        self.agent = agent
        self.name = name

    def __call__(self, view: PlayerView) -> Action:
        started = time.process_time()
        try:
            return self.agent(view)
        finally:
            CLOCK[self.name] = CLOCK.get(self.name, 0.0) + time.process_time() - started

    def __repr__(self) -> str:
        return repr(self.agent)


def timed(name: str) -> AgentFactory:
    """A factory of `LADDER[name]` agents whose CPU time counts in ``CLOCK[name]``."""
    make = LADDER[name]
    return lambda seed: Timed(make(seed), name)


def score_of(outcome: Outcome, winner: int | None, agent: int) -> float:
    """What a deal is worth to `agent`: 1 won, 0 lost, ½ a tableau or abandoned (T12)."""
    if outcome is not Outcome.WIN:
        return 0.5
    return 1.0 if winner == agent else 0.0


def elo(score: float) -> float:
    """A score on the Elo scale: the rating difference that expects it."""
    s = min(max(score, 1e-6), 1 - 1e-6)
    return 400.0 * math.log10(s / (1.0 - s))


def duplicate_pair(
    first: str, second: str, rules: Rules, boards: int, seed: int, start: int
) -> dict[str, object]:
    """Play `boards` duplicate boards of `first` against `second` (in every other seat)."""
    n = rules.players
    CLOCK.clear()
    specs = [timed(first), *([timed(second)] * (n - 1))]
    s = simulate(
        specs, rules, games=boards * n, seed=seed, start=start * n, duplicate=True, deals=True
    )
    per_board: dict[int, list[float]] = {}
    won = lost = even = 0
    for d in s.deals:
        v = score_of(d.outcome, d.winner, 0)
        per_board.setdefault(d.index // n, []).append(v)
        won += v == 1.0
        lost += v == 0.0
        even += v == 0.5
    means = [sum(v) / len(v) for v in per_board.values()]
    mean = sum(means) / len(means)
    spread = math.sqrt(sum((m - mean) ** 2 for m in means) / max(1, len(means) - 1))
    half = 1.96 * spread / math.sqrt(len(means))
    deals = len(s.deals)
    return {
        "pair": f"{first} v {second}",
        "boards": len(means),
        "record": (won, lost, even),
        "score": mean,
        "interval": (mean - half, mean + half),
        "elo": elo(mean),
        "elo_interval": (elo(mean - half), elo(mean + half)),
        "cpu": (CLOCK.get(first, 0.0) / deals, CLOCK.get(second, 0.0) / deals),
    }


def ratings(
    names: list[str], results: dict[tuple[str, str], tuple[float, float]], anchor: str
) -> dict[str, float]:
    """Elo-style ratings from (wins of a, wins of b) per pair (a, b): a Bradley–Terry fit
    (the wins may be scores, a tableau counting half to each)."""
    strength = dict.fromkeys(names, 1.0)
    games: dict[tuple[str, str], float] = {}
    wins = dict.fromkeys(names, 0.0)
    for (a, b), (wa, wb) in results.items():
        games[(a, b)] = games[(b, a)] = wa + wb + 1.0
        wins[a] += wa + 0.5
        wins[b] += wb + 0.5
    for _ in range(2000):  # the minorize-maximize iteration of the Bradley–Terry model
        new = {}
        for i in names:
            denominator = sum(
                games.get((i, j), 0.0) / (strength[i] + strength[j]) for j in names if j != i
            )
            new[i] = wins[i] / denominator if denominator else strength[i]
        scale = new[anchor]
        strength = {i: v / scale for i, v in new.items()}
    return {i: 1500.0 + 400.0 * math.log10(strength[i]) for i in names}


def two_player_rules(game: str, players: int = 2) -> Rules:
    """The game's rules for two players (or `players`), a deal abandoned after 400 turns
    where it can be."""
    entry = GAMES[game]
    options: dict[str, object] = {"players": players}
    if "turn_limit" in attrs.fields_dict(entry.rules_class):
        options["turn_limit"] = 400
    return entry.rules(**options)


def main(argv: list[str] | None = None) -> int:
    """Play the ladder and print its table (and draw it with --svg)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per pair (default 200)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--agents", default=",".join(LADDER), help="names, comma-separated")
    parser.add_argument("--svg", type=Path, help="write the chart of the shares to this file")
    parser.add_argument("--game", default="conquian", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--duplicate", action="store_true", help="duplicate boards (see above)")
    parser.add_argument("--boards", type=int, default=200, help="boards a pairing (duplicate)")
    parser.add_argument("--start", type=int, default=0, help="the first board (duplicate)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "--field", help="play only the pairings against this agent (duplicate; in every other seat)"
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.agents.split(",")]
    unknown = [n for n in names if n not in LADDER]
    if unknown:
        parser.error(f"unknown agent {unknown[0]!r}: use some of {', '.join(LADDER)}")
    rules = two_player_rules(args.game, args.players)
    if args.duplicate:
        return run_duplicate(
            names, rules, args.boards, args.seed, args.start, args.markdown, args.field
        )
    results: dict[tuple[str, str], tuple[float, float]] = {}
    rows: list[tuple[str, int, int]] = []
    title = GAMES[args.game].title
    print(f"{title} for two, {args.games} deals per pair, seed {args.seed}, seats rotating")
    print(f"  {'pair':28} {'decided':>7} {'share of first':>15} {'95% interval':>17} {'s':>7}")
    for b, a in combinations(names, 2):  # the later (stronger) agent of the list first
        started = time.perf_counter()
        s = simulate(
            [LADDER[a], LADDER[b]], rules, games=args.games, seed=args.seed, jobs=args.jobs
        )
        results[(a, b)] = (s.wins[0], s.wins[1])
        low, high = s.share_interval(0)
        pair = f"{a} v {b}"
        print(
            f"  {pair:28} {s.decided:7} {s.win_share(0):15.1%} "
            f"{f'{low:.1%} to {high:.1%}':>17} {time.perf_counter() - started:7.1f}",
            flush=True,
        )
        rows.append((pair, s.wins[0], s.decided))
    anchor = "heuristic" if "heuristic" in names else names[0]
    rated = ratings(names, results, anchor)
    print(f"  rating (Elo scale, {anchor} = 1500):")
    for name in sorted(names, key=lambda n: -rated[n]):
        print(f"    {name:12} {rated[name]:6.0f}")
    if args.svg is not None:
        args.svg.write_text(
            share_chart(
                rows,
                title="The ladder: share of the decided deals won by the first agent",
                subtitle=f"{title} for two, {args.games} deals per pair, seats rotating; "
                "whiskers: 95% intervals",
                reference=0.5,
            ),
            encoding="utf-8",
        )
        print(f"  chart written to {args.svg}")
    return 0


def run_duplicate(
    names: list[str],
    rules: Rules,
    boards: int,
    seed: int,
    start: int,
    markdown: bool,
    field: str | None = None,
) -> int:
    """Play every pairing of `names` on duplicate boards and print the table."""
    title = GAMES[rules.game].title if rules.game in GAMES else rules.game
    print(
        f"{title}, {rules.players} seats, {boards} duplicate boards a pairing from board "
        f"{start}, seed {seed}; tableau = 1/2",
        flush=True,
    )
    rows = []
    scores: dict[tuple[str, str], tuple[float, float]] = {}
    pairs = [(a, b) for b, a in combinations(names, 2)]  # the later (stronger) agent first
    if field is not None:
        pairs = [(a, field) for a in names if a != field]
    for a, b in pairs:
        row = duplicate_pair(a, b, rules, boards, seed, start)
        rows.append(row)
        won, lost, even = row["record"]  # type: ignore[misc]
        low, high = row["interval"]  # type: ignore[misc]
        elo_low, elo_high = row["elo_interval"]  # type: ignore[misc]
        cpu_a, cpu_b = row["cpu"]  # type: ignore[misc]
        deals = won + lost + even
        scores[(a, b)] = (row["score"] * deals, (1 - row["score"]) * deals)  # type: ignore[operator]
        if markdown:
            print(
                f"| {row['pair']} | {row['boards']} | {won}–{lost}–{even} | "
                f"{row['score']:.3f} [{low:.3f}, {high:.3f}] | "
                f"{row['elo']:+.0f} [{elo_low:+.0f}, {elo_high:+.0f}] | "
                f"{cpu_a:.4f} s / {cpu_b:.4f} s |",
                flush=True,
            )
        else:
            print(
                f"  {row['pair']:28} boards {row['boards']:5}  W-L-T {won}-{lost}-{even}  "
                f"score {row['score']:.3f} [{low:.3f}, {high:.3f}]  "
                f"Elo {row['elo']:+.0f} [{elo_low:+.0f}, {elo_high:+.0f}]  "
                f"CPU a deal {cpu_a:.4f} s / {cpu_b:.4f} s",
                flush=True,
            )
    if rules.players == 2 and len(names) > 2 and field is None:
        anchor = "heuristic@v1" if "heuristic@v1" in names else names[0]
        rated = ratings(names, scores, anchor)  # type: ignore[arg-type]
        print(f"  rating (Bradley-Terry on scores, Elo scale, {anchor} = 1500):")
        for name in sorted(names, key=lambda n: -rated[n]):
            print(f"    {name:14} {rated[name]:6.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
