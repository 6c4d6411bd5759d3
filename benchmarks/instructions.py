#!/usr/bin/env python3
"""Seeded random games, for counting CPU instructions per decision.

Plays ``--games`` games of ``--game`` (default two-hand; the game types and
their rules are those of ``bench.py``; game ``i`` is ``new_game(rules, seed=i)``
driven by ``random.Random(i)``) and prints the number of decisions (actions
applied). Run it under callgrind twice, with the games and with none, and
divide the difference of the instruction totals by the decisions::

    valgrind --tool=callgrind --callgrind-out-file=cg.full \
        python benchmarks/instructions.py
    valgrind --tool=callgrind --callgrind-out-file=cg.none \
        python benchmarks/instructions.py --games 0
    callgrind_annotate cg.full | grep 'PROGRAM TOTALS'
    callgrind_annotate cg.none | grep 'PROGRAM TOTALS'

(instructions per decision = (full - none) / decisions); add the same
``--game double-pack-4`` (say) to both runs for another game type. The games played with
``--games 0`` are none, so the second run counts the interpreter's start and the
imports alone.

``--warm W`` first plays ``W`` other seeded games (seeds from ``10**6``), in both
runs: the engine's tables are then filled as in a long run (``peers.py``), and
the difference counts the steady state alone. Without it the count holds the
filling of the tables that the first games meet.
"""

from __future__ import annotations

import argparse
import random

from conquian import ConquianRules, CooncanRules, Rules, new_game

#: The game types, with the rules of ``bench.py``.
GAME_TYPES = {
    "two-hand": lambda: ConquianRules(),
    "three-hand": lambda: CooncanRules.three_hand(turn_limit=200),
    "double-pack-4": lambda: CooncanRules.double_pack(players=4, turn_limit=300),
    "double-pack-5": lambda: CooncanRules.double_pack(players=5, turn_limit=300),
}


def play(games: int, rules: Rules | None = None, first: int = 0) -> int:
    """Play `games` seeded random games (two-hand by default), seeds from `first`; the number of
    decisions taken."""
    rules = ConquianRules() if rules is None else rules
    decisions = 0
    for seed in range(first, first + games):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--game", choices=sorted(GAME_TYPES), default="two-hand")
    parser.add_argument("--warm", type=int, default=0, help="games played first, not counted")
    args = parser.parse_args()
    rules = GAME_TYPES[args.game]()
    play(args.warm, rules, first=10**6)
    print("decisions", play(args.games, rules))


if __name__ == "__main__":
    main()
