"""Variants of the searching bot against one opponent on the same duplicate boards, each
compared with the first variant board by board.

Usage::

    python benchmarks/ablate_search.py --boards 1000 --seed 1 \\
        'candidates=2' 'candidates=3' 'candidates=5' 'reading=False'

Each variant is `SearchAgent` with the given keyword arguments (``name=value``, values
read as Python literals; several joined by commas: ``samples=16,late_samples=32``; an
empty string is the bot as shipped). Every variant plays the same ``--boards`` duplicate
boards of two-hand Conquian against ``--opponent`` (`simulate(..., duplicate=True)`); a
deal is scored 1 won, 0 lost, ½ a tableau or abandoned (T12). As long as two variants make
the same choices their boards are played alike, so the difference of their scores, board
by board, is far less noisy than either score: the table gives each variant's score, its
mean difference to the first variant with a 95% interval over the boards, and its own CPU
time a deal.

The library's variants were compared on seed 1 (``docs/bots.md``); the ladder's figures
are played on seed 2026, which no tuning used.
"""

from __future__ import annotations

import argparse
import ast
import functools
import math
import sys

from ladder import CLOCK, Timed, score_of

from conquian import ConquianRules
from conquian.agents import Agent, simulate
from conquian.agents.searcher import SearchAgent


def options(text: str) -> dict[str, object]:
    """``"samples=16,late_samples=32"`` as keyword arguments."""
    found: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        found[name.strip()] = ast.literal_eval(value.strip())
    return found


def variant(kwargs: dict[str, object], seed: int | None) -> Agent:
    """A `SearchAgent` with `kwargs`, its CPU time counted in ``CLOCK["variant"]``."""
    return Timed(SearchAgent(seed, **kwargs), "variant")  # type: ignore[arg-type]


def boards(kwargs: dict[str, object], opponent: str, count: int, seed: int) -> list[float]:
    """The variant's mean score on each board."""
    s = simulate(
        [functools.partial(variant, kwargs), opponent],
        ConquianRules(),
        games=2 * count,
        seed=seed,
        duplicate=True,
        deals=True,
    )
    per: list[list[float]] = [[] for _ in range(count)]
    for d in s.deals:
        per[d.index // 2].append(score_of(d.outcome, d.winner, 0))
    return [sum(v) / len(v) for v in per]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+", help="keyword arguments of SearchAgent")
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="heuristic@v1")
    args = parser.parse_args(argv)
    first: list[float] | None = None
    print("| variant | score | difference [95%] | CPU a deal |\n| --- | --- | --- | --- |")
    for text in args.variants:
        CLOCK.clear()
        scores = boards(options(text), args.opponent, args.boards, args.seed)
        cpu = CLOCK["variant"] / (2 * args.boards)
        mean = sum(scores) / len(scores)
        if first is None:
            first, shown = scores, "—"
        else:
            diff = [b - a for a, b in zip(first, scores, strict=True)]
            d = sum(diff) / len(diff)
            sd = math.sqrt(sum((x - d) ** 2 for x in diff) / max(1, len(diff) - 1))
            half = 1.96 * sd / math.sqrt(len(diff))
            shown = f"{d:+.4f} [{d - half:+.4f}, {d + half:+.4f}]"
        print(f"| `{text or 'as shipped'}` | {mean:.4f} | {shown} | {cpu:.3f} s |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
