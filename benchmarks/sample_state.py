"""The cost of `view.sample_state(rng)` (determinization, C6), in microseconds and in apply()s.

For each game type, random deals are played with uniformly random legal
actions; at every `--every`-th decision the view of the player to act is
sampled once, and the time of that call is recorded. Every step of the play
is timed too: the legal actions worked out, then the chosen action applied
(the `apply()` a searching bot pays per step of a playout). The column
"apply()s per sample" is the mean cost of a sample over the mean cost of one
such step in the same deals. Times are the CPU time of the process
(`time.process_time`), so that other work on a shared machine counts less.

A sample draws the hidden cards and builds the position the view shows on
them (`conquian.offer.sample`, `conquian.rummy.sample`), without replaying
the history. With `--replay` the same views are also sampled by replaying
the whole history on the drawn deal (the registry's sampler, the reference
the built samples equal), whose cost grows with the history.

A searching bot samples one view many times: `conquian.determinize.samples(view)`
reads the view's history once and then draws. The column "of 8 µs" is the
mean cost of a sample when 8 are drawn from each view so (the reading shared).

    python benchmarks/sample_state.py                # every game type, 20 deals each
    python benchmarks/sample_state.py --deals 50 --game two-hand --replay
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import conquian
from conquian import ConquianRules, CooCanRules, CooncanRules
from conquian.determinize import samples
from conquian.games import game_of

BATCH = 8
"""Samples drawn from each view with its history read once (`samples`)."""

GAMES = {
    "two-hand": ConquianRules(),
    "conquian-3": ConquianRules(players=3),
    "conquian-4": ConquianRules(players=4),
    "three-hand": CooncanRules.three_hand(turn_limit=200),
    "three-hand-joker": CooncanRules.three_hand(jokers=1, turn_limit=200),
    "double-pack-4": CooncanRules.double_pack(players=4, turn_limit=300),
    "double-pack-5": CooncanRules.double_pack(players=5, turn_limit=300),
    "coo-can": CooCanRules(turn_limit=300),
    "coo-can-2": CooCanRules(players=2, turn_limit=300),
}


class Figures:
    """The times measured in the deals of one game type, in microseconds."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self.replays: list[float] = []
        self.batches: list[float] = []
        self.steps: list[float] = []
        self.lengths: list[int] = []


def measure(rules: conquian.Rules, deals: int, every: int, replay: bool) -> Figures:
    """The samples' times (and the replays', with `replay`), each step's and each history's
    length."""
    out = Figures()
    sampler: Any = game_of(rules).sampler  # replays the history (the reference)
    clock = time.process_time  # the CPU time of this process: other work on the machine counts less
    for seed in range(deals):
        rng = random.Random(seed)
        state = conquian.new_game(rules, seed=seed, dealer=seed % rules.players)
        k = 0
        while not state.is_over:
            if k % every == 0:
                view: Any = state.view(state.current_player)  # type: ignore[arg-type]
                draws = random.Random(k)
                start = clock()
                view.sample_state(draws)
                out.samples.append((clock() - start) * 1e6)
                if replay:
                    draws = random.Random(k)
                    start = clock()
                    sampler(view, draws)
                    out.replays.append((clock() - start) * 1e6)
                draws = random.Random(k)
                start = clock()
                draw = samples(view)
                for _ in range(BATCH):
                    draw(draws)
                out.batches.append((clock() - start) * 1e6 / BATCH)
                out.lengths.append(len(view.history))
            start = clock()
            action = rng.choice(state.legal_actions())
            state = state.apply(action)
            out.steps.append((clock() - start) * 1e6)
            k += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--replay", action="store_true", help="time the replaying sampler too")
    args = parser.parse_args()
    head = (
        "| game | samples | mean history | apply() µs | median µs | mean µs "
        "| apply()s per sample | of 8 µs | of 8 apply()s |"
    )
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    if args.replay:
        head += " replay median µs | replay mean µs | replay apply()s per sample |"
        rule += " ---: | ---: | ---: |"
    print(head)
    print(rule)
    for name in args.game or list(GAMES):
        got = measure(GAMES[name], args.deals, args.every, args.replay)
        step = statistics.fmean(got.steps)
        mean = statistics.fmean(got.samples)
        row = (
            f"| {name} | {len(got.samples)} | {statistics.fmean(got.lengths):,.0f} | "
            f"{step:,.1f} | {statistics.median(got.samples):,.0f} | {mean:,.0f} | "
            f"{mean / step:,.1f} | {statistics.fmean(got.batches):,.0f} | "
            f"{statistics.fmean(got.batches) / step:,.1f} |"
        )
        if args.replay:
            again = statistics.fmean(got.replays)
            row += f" {statistics.median(got.replays):,.0f} | {again:,.0f} | {again / step:,.1f} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
