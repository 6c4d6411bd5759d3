"""Soak test: one process plays random deals of every game over many rules values.

A server keeps one process running for days and builds rules values as its
users ask for them. This script does the same for a fixed time and watches
what must not grow or stall:

- resident memory over time (it should stay flat after the warm-up, whatever
  the number of distinct rules values);
- the entries the library's module-level caches hold (every `functools` cache
  and every module-level dict, list or set of the package that it can see);
- the time of each `legal_actions()` and `apply()` call (99.9th percentile and
  maximum: no call should take over 20 ms);
- the garbage collector's pauses (the longest, per generation), the objects it
  tracks, and at the end (after a last full collection) how many of those, and
  how many bytes, the package's modules hold: what a full collection walks
  because of the library.

Usage::

    python benchmarks/soak.py                    # 60 s, 5,000 rules values
    python benchmarks/soak.py --seconds 30 --rules-values 20000 --report-every 5
    python benchmarks/soak.py --json soak.json   # also write the figures as JSON

Each deal is ``new_game(rules, seed=i)`` played with ``random.Random(i)``; the
rules of deal ``i`` are built anew from ``i`` (two-hand, three-hand and
double-pack deals in turn, each option taken from ``i``), so the same run
gives the same deals. Timings on a shared machine are noisy: a single slow
call may be the machine, not the library; rerun before concluding.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import random
import resource
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import conquian
from conquian import ConquianRules, CooncanRules, Rules, new_game

TARGET_GROWTH_MB = 50.0
TARGET_CALL_MS = 20.0
MOVES_PER_DEAL = 2_000  # a deal with no turn limit is cut here


# -- the rules values ----------------------------------------------------------------------------


def rules_for(i: int, values: int) -> Rules:
    """The rules of deal `i`: one of `values` distinct values, built anew each time."""
    k = i % values
    game = k % 3
    n = k // 3
    if game == 0:
        return ConquianRules(
            pack=("spanish", "american")[n % 2],
            hand_size=(10, 9, 8)[n // 2 % 3],
            lay_down=("say", "turn", "meld")[n // 6 % 3],
            borrow_middle=n // 18 % 2 == 0,
            borrow_other_kind=n // 36 % 2 == 1,
            max_sequence=None if n < 72 else 3 + n // 72,
        )
    if game == 1:
        return CooncanRules.three_hand(
            players=(3, 2)[n % 2],
            jokers=n // 2 % 2,
            stock=("closed", "open")[n // 4 % 2],
            splash_bonus=(None, 25, 50)[n // 8 % 3],
            turn_limit=None if n % 50 == 49 else 100 + n // 24,
        )
    return CooncanRules.double_pack(
        players=2 + n % 5,
        splash_bonus=(None, 25, 50)[n // 5 % 3],
        turn_limit=None if n % 50 == 49 else 100 + n // 15,
    )


# -- measures ------------------------------------------------------------------------------------


def resident_mb() -> float:
    """Resident memory of this process, in MB (current, from /proc; else the peak)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 1e6 if sys.platform == "darwin" else peak / 1e3


class Histogram:
    """Call times in buckets of about 2% (1 us to 100 s), so that memory stays fixed."""

    STEPS_PER_DECADE = 120

    def __init__(self) -> None:
        self.counts = [0] * (8 * self.STEPS_PER_DECADE + 1)
        self.total = 0
        self.most = 0.0
        self.over = 0  # calls over TARGET_CALL_MS

    def add(self, seconds: float) -> None:
        us = seconds * 1e6
        bucket = (
            0 if us <= 1 else min(len(self.counts) - 1, int(math.log10(us) * self.STEPS_PER_DECADE))
        )
        self.counts[bucket] += 1
        self.total += 1
        if seconds > self.most:
            self.most = seconds
        if seconds * 1e3 > TARGET_CALL_MS:
            self.over += 1

    def quantile_ms(self, q: float) -> float:
        """The upper edge of the bucket holding the `q` quantile, in ms."""
        if not self.total:
            return 0.0
        rank = math.ceil(q * self.total)
        seen = 0
        for bucket, count in enumerate(self.counts):
            seen += count
            if seen >= rank:
                return 10 ** ((bucket + 1) / self.STEPS_PER_DECADE) / 1e3
        return self.most * 1e3


class GcWatch:
    """The collector's pauses, from `gc.callbacks`."""

    def __init__(self) -> None:
        self.started = (0.0, 0.0)
        self.longest = [0.0, 0.0, 0.0]  # wall clock
        self.longest_cpu = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = (time.perf_counter(), time.thread_time())
            return
        generation = info["generation"]
        pause = time.perf_counter() - self.started[0]
        cpu = time.thread_time() - self.started[1]
        self.count[generation] += 1
        self.longest[generation] = max(self.longest[generation], pause)
        self.longest_cpu[generation] = max(self.longest_cpu[generation], cpu)


def cache_entries() -> dict[str, int]:
    """The entries held by the package's module-level caches and tables it can see, by name.

    A module may also offer ``cache_entries() -> dict[str, int]``, which is used as is.
    """
    found: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        if not (name == "conquian" or name.startswith("conquian.")):
            continue
        own = getattr(module, "cache_entries", None)
        if callable(own):
            found.update({f"{name}.{k}": int(v) for k, v in own().items()})
            continue
        for attr, value in list(vars(module).items()):
            if attr.startswith("__"):
                continue
            for label, obj in _containers(f"{name}.{attr}", value, module):
                found[label] = obj
    return found


def _containers(label: str, value: object, module: types.ModuleType) -> list[tuple[str, int]]:
    info = getattr(value, "cache_info", None)
    if callable(info):
        return [(label, info().currsize)]
    if isinstance(value, dict | list | set):
        out = [(label, len(value))] if len(value) > 64 else []
        if isinstance(value, dict) and value:
            inner = sum(_held(v) for v in list(value.values())[:100_000])
            if inner:
                out.append((f"{label}[...]", inner))
        return out
    if isinstance(value, type) and value.__module__ == module.__name__:
        out = []
        for attr, member in vars(value).items():
            inner = getattr(member, "__func__", member)
            info = getattr(inner, "cache_info", None)
            if callable(info):
                out.append((f"{label}.{attr}", info().currsize))
        return out
    return []


def _held(value: object) -> int:
    """The entries of the dicts an object keeps as attributes (a per-rules table, say)."""
    if isinstance(value, type):
        return 0
    names = [n for k in type(value).__mro__ for n in getattr(k, "__slots__", ())]
    members = [getattr(value, n, None) for n in names]
    members += list(getattr(value, "__dict__", {}).values())
    total = 0
    for member in members:
        parts = member if isinstance(member, tuple) else (member,)
        total += sum(len(d) for d in parts if isinstance(d, dict))
    return total


def package_holdings() -> tuple[int, int]:
    """The objects the collector tracks that the package's modules hold, and the bytes of
    everything they hold (`sys.getsizeof` of each object once): module-level values and
    what `functools` caches keep, not the modules, classes and functions themselves."""
    code = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType)
    code += (types.MethodType, types.MethodDescriptorType, types.WrapperDescriptorType)
    seen: set[int] = set()
    tracked = size = 0
    stack: list[object] = []
    for name, module in list(sys.modules.items()):
        if name == "conquian" or name.startswith("conquian."):
            for attr, value in list(vars(module).items()):
                if attr.startswith("__"):
                    continue
                if callable(getattr(value, "cache_info", None)):
                    stack.extend(r for r in gc.get_referents(value) if not isinstance(r, code))
                else:
                    stack.append(value)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, code) or (type(obj) is int and -5 <= obj <= 256):
            continue
        seen.add(id(obj))
        size += sys.getsizeof(obj)
        tracked += gc.is_tracked(obj)
        stack.extend(gc.get_referents(obj))
    return tracked, size


# -- the run -------------------------------------------------------------------------------------


class Timings:
    """The wall-clock and CPU times of `legal_actions()` and `apply()` calls.

    On a shared machine the wall clock also counts the time the process waited
    for a processor; the CPU time of the thread counts only its own work (the
    collector's pauses included).
    """

    def __init__(self) -> None:
        self.legal, self.legal_cpu = Histogram(), Histogram()
        self.apply, self.apply_cpu = Histogram(), Histogram()

    def rows(self) -> list[tuple[str, Histogram]]:
        return [
            ("legal_actions() wall", self.legal),
            ("legal_actions() cpu", self.legal_cpu),
            ("apply() wall", self.apply),
            ("apply() cpu", self.apply_cpu),
        ]


def play_deal(i: int, values: int, timings: Timings) -> int:
    """Play deal `i` at random, timing each call; the number of moves made."""
    rules = rules_for(i, values)
    rng = random.Random(i)
    state = new_game(rules, seed=i)
    wall, cpu = time.perf_counter, time.thread_time
    legal, legal_cpu = timings.legal.add, timings.legal_cpu.add
    apply, apply_cpu = timings.apply.add, timings.apply_cpu.add
    moves = 0
    while not state.is_over and moves < MOVES_PER_DEAL:
        c0, t0 = cpu(), wall()
        actions = state.legal_actions()
        t1, c1 = wall(), cpu()
        action = actions[rng.randrange(len(actions))]
        c2, t2 = cpu(), wall()
        state = state.apply(action)
        t3, c3 = wall(), cpu()
        legal(t1 - t0)
        legal_cpu(c1 - c0)
        apply(t3 - t2)
        apply_cpu(c3 - c2)
        moves += 1
    return moves


def run(
    seconds: float, values: int, every: float, warm_up: float, out: Callable[[str], None]
) -> dict[str, Any]:
    timings, watch = Timings(), GcWatch()
    gc.callbacks.append(watch)
    samples: list[dict[str, float]] = []
    start = time.perf_counter()
    next_report = 0.0
    deals = moves = 0
    out(
        f"conquian {conquian.__version__}, Python {sys.version.split()[0]}, {seconds:g} s, "
        f"{values} rules values, warm-up {warm_up:g} s"
    )
    out(
        f"{'time s':>7} {'deals':>7} {'moves':>9} {'RSS MB':>8} {'cache entries':>14} "
        f"{'gc objects':>11} {'longest gc ms':>14}"
    )
    try:
        while True:
            elapsed = time.perf_counter() - start
            if elapsed >= next_report or elapsed >= seconds:
                entries = cache_entries()
                sample = {
                    "seconds": round(elapsed, 1),
                    "deals": deals,
                    "moves": moves,
                    "rss_mb": round(resident_mb(), 1),
                    "cache_entries": sum(entries.values()),
                    "gc_objects": len(gc.get_objects()),
                    "longest_gc_ms": round(max(watch.longest) * 1e3, 1),
                }
                samples.append(sample)
                out(
                    f"{sample['seconds']:>7.1f} {deals:>7} {moves:>9} {sample['rss_mb']:>8.1f} "
                    f"{sample['cache_entries']:>14} {sample['gc_objects']:>11} "
                    f"{sample['longest_gc_ms']:>14.1f}"
                )
                next_report += every
                if elapsed >= seconds:
                    break
            moves += play_deal(deals, values, timings)
            deals += 1
    finally:
        gc.callbacks.remove(watch)
    warm = next((s for s in samples if s["seconds"] >= warm_up), samples[0])
    growth = samples[-1]["rss_mb"] - warm["rss_mb"]
    biggest = sorted(cache_entries().items(), key=lambda kv: -kv[1])[:8]
    gc.collect()  # after the timings: lets go of the tuples no collection had seen yet
    tracked_end = len(gc.get_objects())
    held_tracked, held_bytes = package_holdings()
    result = {
        "seconds": seconds,
        "rules_values": values,
        "deals": deals,
        "moves": moves,
        "rss_after_warm_up_mb": warm["rss_mb"],
        "rss_end_mb": samples[-1]["rss_mb"],
        "rss_growth_mb": round(growth, 1),
        "calls": {
            name: {
                "count": h.total,
                "p999_ms": round(h.quantile_ms(0.999), 3),
                "max_ms": round(h.most * 1e3, 2),
                "over_20ms": h.over,
            }
            for name, h in timings.rows()
        },
        "gc_longest_ms": [round(p * 1e3, 1) for p in watch.longest],
        "gc_longest_cpu_ms": [round(p * 1e3, 1) for p in watch.longest_cpu],
        "gc_collections": watch.count,
        "gc_tracked_end": tracked_end,
        "gc_tracked_by_package": held_tracked,
        "package_held_mb": round(held_bytes / 1e6, 1),
        "largest_caches": dict(biggest),
        "samples": samples,
    }
    out("")
    out(f"deals {deals}, moves {moves}")
    out(
        f"resident memory: {warm['rss_mb']:.1f} MB after warm-up, {samples[-1]['rss_mb']:.1f} MB "
        f"at the end: {growth:+.1f} MB (target: within {TARGET_GROWTH_MB:g} MB)"
    )
    for name, h in timings.rows():
        out(
            f"{name:<21} p99.9 {h.quantile_ms(0.999):7.3f} ms   max {h.most * 1e3:8.2f} ms   "
            f"over {TARGET_CALL_MS:g} ms: {h.over} of {h.total}"
        )
    out(
        "longest gc pause by generation: "
        + ", ".join(
            f"gen {g} {p * 1e3:.1f} ms wall, {c * 1e3:.1f} ms cpu ({n} runs)"
            for g, (p, c, n) in enumerate(
                zip(watch.longest, watch.longest_cpu, watch.count, strict=True)
            )
        )
    )
    out(
        f"longest full collection: {watch.longest[2] * 1e3:.1f} ms wall, "
        f"{watch.longest_cpu[2] * 1e3:.1f} ms cpu ({watch.count[2]} runs); objects tracked "
        f"after a last one: {tracked_end}, of which the package's modules hold {held_tracked} "
        f"(they hold {held_bytes / 1e6:.1f} MB in all)"
    )
    out("largest caches: " + ", ".join(f"{k.removeprefix('conquian.')} {v}" for k, v in biggest))
    slowest = max(timings.legal_cpu.most, timings.apply_cpu.most) * 1e3
    verdict = growth <= TARGET_GROWTH_MB and slowest <= TARGET_CALL_MS
    out(
        f"targets (growth within {TARGET_GROWTH_MB:g} MB, no call over {TARGET_CALL_MS:g} ms of "
        f"CPU): {'met' if verdict else 'NOT met'}"
    )
    result["targets_met"] = verdict
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play (default 60)")
    parser.add_argument(
        "--rules-values",
        type=int,
        default=5000,
        help="distinct rules values cycled through (default 5000)",
    )
    parser.add_argument(
        "--report-every",
        type=float,
        default=5.0,
        help="seconds between two lines of figures (default 5)",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=None,
        help="seconds not counted in the memory growth (default: a sixth of the run)",
    )
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="also write the figures as JSON (to stdout without FILE)",
    )
    args = parser.parse_args(argv)
    if args.rules_values < 1 or args.seconds <= 0 or args.report_every <= 0:
        parser.error("--seconds, --rules-values and --report-every must be positive")
    warm_up = args.seconds / 6 if args.warm_up is None else args.warm_up
    to_stdout = args.json == "-"
    out = (lambda line: print(line, file=sys.stderr)) if to_stdout else print
    result = run(args.seconds, args.rules_values, args.report_every, warm_up, out)
    if args.json:
        text = json.dumps(result, indent=2)
        if to_stdout:
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
