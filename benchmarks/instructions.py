#!/usr/bin/env python3
"""Seeded random two-hand games, for counting CPU instructions per decision.

Plays ``--games`` games (game ``i`` is ``new_game(ConquianRules(), seed=i)``
driven by ``random.Random(i)``) and prints the number of decisions (actions
applied). Run it under callgrind twice, with the games and with none, and
divide the difference of the instruction totals by the decisions::

    valgrind --tool=callgrind --callgrind-out-file=cg.full \
        python benchmarks/instructions.py
    valgrind --tool=callgrind --callgrind-out-file=cg.none \
        python benchmarks/instructions.py --games 0
    callgrind_annotate cg.full | grep 'PROGRAM TOTALS'
    callgrind_annotate cg.none | grep 'PROGRAM TOTALS'

(instructions per decision = (full - none) / decisions). The games played with
``--games 0`` are none, so the second run counts the interpreter's start and the
imports alone.
"""

from __future__ import annotations

import argparse
import random

from conquian import ConquianRules, new_game


def play(games: int) -> int:
    """Play `games` seeded random games; the number of decisions taken."""
    rules = ConquianRules()
    decisions = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print("decisions", play(args.games))


if __name__ == "__main__":
    main()
