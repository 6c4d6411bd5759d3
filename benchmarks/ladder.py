"""A ladder of the library's agents: every pair plays, seats rotating, and each gets a rating.

Usage::

    python benchmarks/ladder.py                       # 200 two-hand deals per pair
    python benchmarks/ladder.py --games 1000 --jobs 2 --svg docs/assets/ladder.svg
    python benchmarks/ladder.py --agents heuristic,ismcts --games 100
    python benchmarks/ladder.py --game coo-can --agents random,heuristic --games 300

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
from conquian.agents import AgentFactory, HeuristicAgent, RandomAgent, share_chart, simulate
from conquian.agents.search import ISMCTSAgent

# The agents of the ladder, by name: the two search budgets are iterations per decision.
LADDER: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,
    "ismcts-32": functools.partial(ISMCTSAgent, iterations=32),
}


def ratings(
    names: list[str], results: dict[tuple[str, str], tuple[int, int]], anchor: str
) -> dict[str, float]:
    """Elo-style ratings from (wins of a, wins of b) per pair (a, b): a Bradley–Terry fit."""
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


def two_player_rules(game: str) -> Rules:
    """The game's rules for two players, a deal abandoned after 400 turns where it can be."""
    entry = GAMES[game]
    options: dict[str, object] = {"players": 2}
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
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.agents.split(",")]
    unknown = [n for n in names if n not in LADDER]
    if unknown:
        parser.error(f"unknown agent {unknown[0]!r}: use some of {', '.join(LADDER)}")
    rules = two_player_rules(args.game)
    results: dict[tuple[str, str], tuple[int, int]] = {}
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


if __name__ == "__main__":
    sys.exit(main())
