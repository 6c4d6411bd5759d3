#!/usr/bin/env python3
"""Resident memory after loading many records with distinct rules (bounded caches).

Plays a seeded random two-hand deal under each of ``--records`` rule sets,
each with another ``max_sequence`` (3, 4, 5, ... up to ``3 + records``) and
the other options cycling, writes it as a game record, reads it back with
``GameRecord.from_json(...).replay()``, and lets it go. Prints the resident
memory (Linux ``/proc/self/statm``) after a warm-up and at the end: the
engine's tables and ``Order.of`` are bounded, so the difference stays small
whatever the number of rule sets::

    python benchmarks/memory.py --records 3000
"""

from __future__ import annotations

import argparse
import gc
import os
import random

from conquian import ConquianRules, GameRecord, new_game


def resident_mb() -> float:
    """The resident memory of this process in MB (Linux only)."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def load(i: int) -> None:
    """Play, record, read back and replay one deal under the `i`-th rule set."""
    rules = ConquianRules(
        pack=("spanish", "american")[i % 2],
        hand_size=(8, 9, 10)[i % 3],
        lay_down=("say", "turn", "meld")[i % 3],
        borrow_middle=bool(i % 7),
        max_sequence=3 + i,
    )
    rng = random.Random(i)
    state = new_game(rules, seed=i)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    text = GameRecord.from_state(state).to_json()
    assert GameRecord.from_json(text).replay() == state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=3000)
    args = parser.parse_args()
    gc.collect()
    before = resident_mb()
    for i in range(40):  # warm-up: every table the rules can ask for is made once
        load(i)
    gc.collect()
    start = resident_mb()
    for i in range(40, 40 + args.records):
        load(i)
    gc.collect()
    end = resident_mb()
    print(
        f"{args.records} records: resident {before:.1f} MB after the imports, "
        f"{start:.1f} MB after 40 warm-up deals, {end:.1f} MB at the end"
    )
    print(f"growth {end - before:+.1f} MB from the start, {end - start:+.1f} MB after warm-up")


if __name__ == "__main__":
    main()
