#!/usr/bin/env python3
"""Random-playout benchmark of conquian's engines (needs only conquian).

For every game type it plays seeded random games (a uniform random legal action
at every decision) and prints:

* games/s, decisions/s and mean decisions per game, from a plain loop
  ``state = state.apply(rng.choice(state.legal_actions()))`` with no timing
  inside it;
* the cost split: the same games again with every ``new_game``,
  ``legal_actions()`` and ``apply()`` call timed (the timer's own cost is
  measured and taken off);
* the cost of ``new_game(rules, seed=...)`` in microseconds and in decisions;
* bytes per stored state: every state of some random games kept in a list,
  traced memory (tracemalloc) divided by the number of states.

Everything is seeded: game ``i`` of a run is ``new_game(rules, seed=i)`` played
with ``random.Random(i)``, so two runs play the same games (the plain and the
timed loop are checked to agree).

Usage (from the repository root, in a venv where conquian is installed)::

    python benchmarks/bench.py                      # every game type
    python benchmarks/bench.py --game two-hand --games 500
    python benchmarks/bench.py --json results.json  # also write the figures as JSON
    python benchmarks/bench.py --profile            # cProfile of two-hand playouts
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import importlib
import json
import os
import platform
import pstats
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import conquian
from conquian.coocan import CooCanRules


def new_game(rules: Any, seed: int) -> Any:
    """`conquian.new_game` with this seed (every game of the registry deals from a seed)."""
    return conquian.new_game(rules, seed=seed)


#: The game types, each a factory of its rules (named as in the reports).
GAME_TYPES: dict[str, Callable[[], Any]] = {
    "two-hand": lambda: conquian.ConquianRules(),
    "three-hand": lambda: conquian.CooncanRules.three_hand(turn_limit=200),
    "double-pack-4": lambda: conquian.CooncanRules.double_pack(players=4, turn_limit=300),
    "double-pack-5": lambda: conquian.CooncanRules.double_pack(players=5, turn_limit=300),
    "coo-can-4": lambda: CooCanRules(players=4, turn_limit=300),
}

#: The module that has to import for each game type to be playable.
ENGINE_MODULE = {
    "two-hand": "conquian.offer",
    "three-hand": "conquian.rummy",
    "double-pack-4": "conquian.rummy",
    "double-pack-5": "conquian.rummy",
    "coo-can-4": "conquian.coocan",
}

#: Seeds of the passes (each pass plays games of its own seeds).
PLAIN_SEEDS, TIMED_SEEDS, MEMORY_SEEDS, WARM_UP_SEEDS, NEW_GAME_SEEDS = (
    0,
    10**6,
    2 * 10**6,
    3 * 10**6,
    4 * 10**6,
)

#: A random game longer than this is reported as an engine bug, not timed.
MAX_DECISIONS = 100_000


def engine_problem(game: str) -> str | None:
    """Why `game` cannot be benchmarked yet (engine missing or broken), or None."""
    try:
        importlib.import_module(ENGINE_MODULE[game])
        rules = GAME_TYPES[game]()
        play_checked(rules, 0)
    except Exception as exc:  # the engines are being written: report, don't crash
        return f"{type(exc).__name__}: {exc}"
    return None


def play(rules: conquian.Rules, seed: int) -> int:
    """Play game `seed` to the end, uniformly at random; the number of decisions."""
    choice = random.Random(seed).choice
    state = new_game(rules, seed=seed)
    n = 0
    try:  # free in CPython 3.11+ while nothing is raised
        while not state.is_over:
            state = state.apply(choice(state.legal_actions()))
            n += 1
    except Exception as exc:
        raise RuntimeError(f"seed {seed}, decision {n + 1}: {type(exc).__name__}: {exc}") from exc
    return n


def play_checked(rules: conquian.Rules, seed: int) -> int:
    """`play` with a bound on the length of the game (for the first, checking game)."""
    choice = random.Random(seed).choice
    state = new_game(rules, seed=seed)
    n = 0
    while not state.is_over:
        actions = state.legal_actions()
        if not actions:
            raise RuntimeError(f"seed {seed}: no legal action in a state that is not over")
        state = state.apply(choice(actions))
        n += 1
        if n > MAX_DECISIONS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
    return n


def timer_overhead(samples: int = 200_000) -> float:
    """Seconds an empty ``t0 = perf_counter(); t1 = perf_counter()`` interval measures."""
    pc = time.perf_counter
    best = float("inf")
    for _ in range(5):
        total = 0.0
        for _ in range(samples // 5):
            t0 = pc()
            t1 = pc()
            total += t1 - t0
        best = min(best, total / (samples // 5))
    return best


def plain_loop(rules: conquian.Rules, seeds: range) -> tuple[list[int], float]:
    """Play the games of `seeds` with no timing inside; (decisions per game, seconds)."""
    counts: list[int] = []
    keep = counts.append
    t0 = time.perf_counter()
    for seed in seeds:
        keep(play(rules, seed))
    return counts, time.perf_counter() - t0


def timed_loop(rules: conquian.Rules, seeds: range) -> dict[str, float]:
    """Play the games of `seeds` timing each call; seconds per kind of call."""
    pc = time.perf_counter
    t_new = t_legal = t_apply = 0.0
    decisions = 0
    start = pc()
    for seed in seeds:
        choice = random.Random(seed).choice
        t0 = pc()
        state = new_game(rules, seed=seed)
        t1 = pc()
        t_new += t1 - t0
        while not state.is_over:
            t0 = pc()
            actions = state.legal_actions()
            t1 = pc()
            action = choice(actions)
            t2 = pc()
            state = state.apply(action)
            t3 = pc()
            t_legal += t1 - t0
            t_apply += t3 - t2
            decisions += 1
    total = pc() - start
    return {
        "total": total,
        "new_game": t_new,
        "legal_actions": t_legal,
        "apply": t_apply,
        "decisions": decisions,
    }


def new_game_cost(rules: conquian.Rules, calls: int) -> float:
    """Seconds per ``new_game(rules, seed=i)`` (best of 3 batches of `calls`)."""
    best = float("inf")
    for batch in range(3):
        base = NEW_GAME_SEEDS + batch * calls
        t0 = time.perf_counter()
        for seed in range(base, base + calls):
            new_game(rules, seed=seed)
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def memory_per_state(rules: conquian.Rules, seeds: range) -> dict[str, float]:
    """Keep every state of the games of `seeds`; traced bytes per state.

    ``bytes_per_state`` is what dropping the states frees again (what the states
    own, shared structure counted once); ``traced_per_state`` is all memory
    traced while playing and keeping them, which also holds whatever the
    engine's caches grew by, so it is an upper bound.
    """
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    states: list[object] = []
    keep = states.append
    for seed in seeds:
        choice = random.Random(seed).choice
        state = new_game(rules, seed=seed)
        keep(state)
        while not state.is_over:
            state = state.apply(choice(state.legal_actions()))
            keep(state)
    del state
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    count = len(states)
    del states, keep  # the bound method `keep` holds the list too
    gc.collect()
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "states": count,
        "bytes": held - after,
        "bytes_per_state": (held - after) / count,
        "traced_per_state": (held - base) / count,
        "peak_per_state": (peak - base) / count,
    }


def bench_game(
    game: str, games: int, memory_games: int, overhead: float, warm_up: int
) -> dict[str, Any]:
    """Every figure of one game type."""
    rules = GAME_TYPES[game]()
    # Every pass plays games of its own seeds: the engines may cache derived values,
    # and replaying the same games would time the caches, not the engine.
    for seed in range(WARM_UP_SEEDS, WARM_UP_SEEDS + max(warm_up, 1)):  # not counted
        play(rules, seed)
    plain = range(PLAIN_SEEDS, PLAIN_SEEDS + games)
    counts, seconds = plain_loop(rules, plain)
    decisions = sum(counts)
    timed = timed_loop(rules, range(TIMED_SEEDS, TIMED_SEEDS + games))
    calls = int(timed["decisions"])  # legal_actions() and apply(): once per decision each
    legal = max(timed["legal_actions"] - calls * overhead, 0.0)
    apply = max(timed["apply"] - calls * overhead, 0.0)
    new = max(timed["new_game"] - games * overhead, 0.0)
    # The timed loop calls perf_counter 4 times per decision and 2 times per game;
    # each call costs about one `overhead` (an empty measured interval).
    timed_seconds = timed["total"] - (4 * calls + 2 * games) * overhead
    other = max(timed_seconds - legal - apply - new, 0.0)
    rate = decisions / seconds
    new_game_s = new_game_cost(rules, max(200, min(2000, games * 10)))
    memory = memory_per_state(rules, range(MEMORY_SEEDS, MEMORY_SEEDS + memory_games))
    again = [play(rules, seed) for seed in plain[:10]]
    if again != counts[:10]:
        raise RuntimeError(
            f"{game}: replaying seeds {plain.start}.. gave {again}, first time {counts[:10]}: "
            "the engine or the benchmark is not deterministic"
        )
    return {
        "game": game,
        "rules": repr(rules),
        "games": games,
        "decisions": decisions,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "decisions_per_s": rate,
        "mean_decisions_per_game": decisions / games,
        "split": {
            # shares of the timed loop's time (timer cost taken off);
            # "other" is rng.choice and the loop itself
            "new_game": new / timed_seconds,
            "legal_actions": legal / timed_seconds,
            "apply": apply / timed_seconds,
            "other": other / timed_seconds,
            "legal_actions_us_per_call": legal / calls * 1e6,
            "apply_us_per_call": apply / calls * 1e6,
            "decisions_per_s": calls / timed_seconds,
        },
        "new_game_us": new_game_s * 1e6,
        "new_game_in_decisions": new_game_s * rate,
        "memory": memory,
    }


def machine_info() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    # A fingerprint of the package's sources, to tell which engines a figure belongs to.
    digest = hashlib.sha256()
    package = Path(conquian.__file__).parent
    for source in sorted(package.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return {
        "cpu": cpu,
        "sources": digest.hexdigest()[:12],
        "nproc": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "conquian": conquian.__version__,
    }


def print_report(results: list[dict[str, Any]]) -> None:
    head = (
        f"{'game':<14} {'games/s':>9} {'decisions/s':>12} {'dec/game':>9} "
        f"{'new_game':>10} {'=decisions':>10} {'B/state':>8}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        print(
            f"{r['game']:<14} {r['games_per_s']:>9.1f} {r['decisions_per_s']:>12,.0f} "
            f"{r['mean_decisions_per_game']:>9.1f} {r['new_game_us']:>8.1f}us "
            f"{r['new_game_in_decisions']:>10.2f} {r['memory']['bytes_per_state']:>8.0f}"
        )
    print()
    head = (
        f"{'game':<14} {'legal_actions':>13} {'apply':>7} {'new_game':>9} {'other':>6} "
        f"{'us/legal':>9} {'us/apply':>9} {'dec/s':>9}"
    )
    print(
        "cost split (other seeds, each call timed, timer cost taken off; other = rng.choice, loop)"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        s = r["split"]
        print(
            f"{r['game']:<14} {s['legal_actions']:>13.1%} {s['apply']:>7.1%} "
            f"{s['new_game']:>9.1%} {s['other']:>6.1%} {s['legal_actions_us_per_call']:>9.2f} "
            f"{s['apply_us_per_call']:>9.2f} {s['decisions_per_s']:>9,.0f}"
        )
    print()
    for r in results:
        m = r["memory"]
        print(
            f"memory {r['game']}: {m['states']} states kept own {m['bytes']:,} bytes = "
            f"{m['bytes_per_state']:.0f} B/state; all traced {m['traced_per_state']:.0f} B/state "
            f"(peak {m['peak_per_state']:.0f})"
        )


def profile(game: str, games: int, warm_up: int, top: int = 25) -> None:
    """cProfile over a batch of random playouts; the top functions by own time."""
    rules = GAME_TYPES[game]()
    for seed in range(WARM_UP_SEEDS, WARM_UP_SEEDS + warm_up):
        play(rules, seed)
    profiler = cProfile.Profile()
    profiler.enable()
    for seed in range(games):
        play(rules, seed)
    profiler.disable()
    print(f"cProfile: {games} random {game} games, top {top} by tottime")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(GAME_TYPES),
        help="a game type to run (repeatable; default: all)",
    )
    parser.add_argument("--games", type=int, default=200, help="games per game type")
    parser.add_argument("--warm-up", type=int, default=50, help="games played first, not counted")
    parser.add_argument(
        "--memory-games", type=int, default=20, help="games whose states are all kept"
    )
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="also write the figures as JSON to FILE (- or nothing: standard output)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="only run cProfile over random playouts (of --game, default two-hand)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.memory_games < 1 or args.warm_up < 0:
        parser.error("--games and --memory-games must be at least 1, --warm-up at least 0")
    games_wanted = args.game or list(GAME_TYPES)

    if args.profile:
        game = games_wanted[0] if args.game else "two-hand"
        problem = engine_problem(game)
        if problem:
            print(f"skipped {game}: engine not usable yet ({problem})")
            return 1
        profile(game, args.games, args.warm_up)
        return 0

    info = machine_info()
    print(
        f"conquian {info['conquian']} (sources {info['sources']}) on {info['python']}, "
        f"{info['cpu']} "
        f"({info['nproc']} cores); {args.games} games per type after {args.warm_up} "
        "for warm-up, "
        f"{args.memory_games} kept for memory"
    )
    overhead = timer_overhead()
    results: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for game in games_wanted:
        problem = engine_problem(game)
        if problem:
            skipped[game] = problem
            print(f"skipped {game}: engine not usable yet ({problem})")
            continue
        try:
            results.append(bench_game(game, args.games, args.memory_games, overhead, args.warm_up))
        except Exception as exc:  # one broken engine must not lose the others' figures
            skipped[game] = f"failed during the run: {type(exc).__name__}: {exc}"
            print(f"skipped {game}: {skipped[game]}")
    print()
    if results:
        print_report(results)
    if args.json:
        payload = {
            "machine": info,
            "timer_overhead_ns": overhead * 1e9,
            "results": results,
            "skipped": skipped,
        }
        text = json.dumps(payload, indent=2)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
