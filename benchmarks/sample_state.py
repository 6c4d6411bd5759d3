"""The cost of `view.sample_state(rng)` (determinization, C6), in microseconds.

For each game type, random deals are played with uniformly random legal
actions; at every `--every`-th decision the view of the player to act is
sampled once, and the time of that call is recorded. A sample replays the
deal's history, so its cost grows with the number of actions played: the
figures are given by game type with the mean length of the histories sampled.

    python benchmarks/sample_state.py                # every game type, 20 deals each
    python benchmarks/sample_state.py --deals 50 --game two-hand
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import conquian
from conquian import ConquianRules, CooCanRules, CooncanRules

GAMES = {
    "two-hand": ConquianRules(),
    "three-hand": CooncanRules.three_hand(turn_limit=200),
    "three-hand-joker": CooncanRules.three_hand(jokers=1, turn_limit=200),
    "double-pack-4": CooncanRules.double_pack(players=4, turn_limit=300),
    "double-pack-5": CooncanRules.double_pack(players=5, turn_limit=300),
    "coo-can": CooCanRules(turn_limit=300),
    "coo-can-2": CooCanRules(players=2, turn_limit=300),
}


def measure(rules: conquian.Rules, deals: int, every: int) -> tuple[list[float], list[int]]:
    """Microseconds per sample and the history length of each view sampled."""
    times: list[float] = []
    lengths: list[int] = []
    for seed in range(deals):
        rng = random.Random(seed)
        state = conquian.new_game(rules, seed=seed, dealer=seed % rules.players)
        k = 0
        while not state.is_over:
            if k % every == 0:
                view = state.view(state.current_player)  # type: ignore[arg-type]
                start = time.perf_counter()
                view.sample_state(random.Random(k))  # type: ignore[attr-defined]
                times.append((time.perf_counter() - start) * 1e6)
                lengths.append(len(view.history))
            state = state.apply(rng.choice(state.legal_actions()))
            k += 1
    return times, lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--every", type=int, default=5)
    args = parser.parse_args()
    print("| game | samples | median µs | mean µs | µs per action of history |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in args.game or list(GAMES):
        times, lengths = measure(GAMES[name], args.deals, args.every)
        per_action = sum(times) / max(1, sum(lengths))
        print(
            f"| {name} | {len(times)} | {statistics.median(times):,.0f} | "
            f"{statistics.fmean(times):,.0f} | {per_action:,.1f} |"
        )


if __name__ == "__main__":
    main()
