#!/usr/bin/env python3
"""Random playouts of conquian against its nearest peers, interleaved in one run.

Engines (each driven by a plain Python loop that picks a uniform random legal
action at every decision; only player decisions are counted):

* ``openspiel-clone``: OpenSpiel ``gin_rummy`` (C++ through pyspiel). One root
  state is dealt once (its chance nodes resolved by sampling) and every game
  starts from ``root.clone()``; chance nodes during play (draws from the stock)
  are resolved by sampling ``chance_outcomes()`` and not counted.
* ``openspiel-new``: the same, each game from ``game.new_initial_state()``
  (the deal's chance nodes sampled too).
* ``rlcard``: RLCard's gin rummy *game object*
  (``rlcard.games.gin_rummy.game.GinRummyGame``): ``init_game()``, then
  ``judge.get_legal_actions()`` and ``step(action)`` until ``is_over()``.
* ``floor``: the CPython floor: build one small frozen attrs instance and pick a
  random element, per "decision".
* ``two-hand``, ``three-hand``, ``double-pack-4``: conquian,
  ``state = state.apply(rng.choice(state.legal_actions()))`` from
  ``new_game(rules, seed=i)`` (the deal is inside the timed loop).
* ``new_game``: ``conquian.new_game(ConquianRules(), seed=i)`` alone (calls/s).
* ``two-hand/mypyc``, ``three-hand/mypyc``, ``double-pack-4/mypyc``,
  ``new_game/mypyc``: the same loops on the compiled build (``--compiled`` or
  ``--build-compiled``), run in a worker process of this interpreter that
  imports that build; the pure ones run in this process, on the pure package.

Each round runs every engine for ``--seconds``, the order rotated from round to
round. The figure of an engine is its **sustained rate**: all its decisions over
all the CPU time it used in the rounds (``time.process_time`` of the process that
runs it, garbage collection included); the median of the per-round rates is shown
too. A missing peer (``open_spiel``, ``rlcard``) or an engine of conquian that does
not import yet is skipped with a note.

Usage (in the venv of benchmarks/README.md)::

    python benchmarks/peers.py                       # 5 rounds x 2 s per engine
    python benchmarks/peers.py --seconds 1 --rounds 3 --json peers.json
    python benchmarks/peers.py --build-compiled      # and the compiled build beside
    python benchmarks/peers.py --compiled dist/conquian-0.1.0-cp311-cp311-linux_x86_64.whl
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import GAME_TYPES, engine_problem, machine_info

#: The issue's reference figures (decisions/s on its machine), to turn microseconds
#: measured here into microseconds on that machine ("us-equivalent").
ISSUE_OPENSPIEL_CLONE = 68_000.0
ISSUE_FLOOR = 380_000.0

#: The suffix of the engines of the compiled build.
COMPILED = "/mypyc"

#: The targets: (numerator engine, denominator engine, minimum ratio), on sustained rates.
TARGETS = (
    ("two-hand", "openspiel-clone", 1.3),
    ("three-hand", "rlcard", 1.0),
    ("double-pack-4", "rlcard", 2.0),
    ("two-hand" + COMPILED, "openspiel-clone", 3.0),
    ("double-pack-4" + COMPILED, "rlcard", 3.0),
)

#: The game types of conquian measured, each in both builds.
CONQUIAN_GAMES = ("two-hand", "three-hand", "double-pack-4")

ROOT = Path(__file__).resolve().parent.parent

#: A runner plays for about the given seconds and returns (count, games, seconds).
Runner = Callable[[float], tuple[int, int, float]]

#: A measured run: (count, games, wall seconds, CPU seconds).
Measured = tuple[int, int, float, float]


# --- the peers ------------------------------------------------------------------------


def openspiel_runners() -> dict[str, Runner]:
    """OpenSpiel gin_rummy, from a cloned dealt root and from new_initial_state()."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    choice = rng.choice

    root = game.new_initial_state()
    while root.is_chance_node():
        root.apply_action(choice(root.chance_outcomes())[0])
    # gin_rummy's chance outcomes (cards from the stock) are equally likely, which is
    # what sampling with choice() assumes; check it once on the dealt root's next draw.
    probe = root.clone()
    while not probe.is_chance_node() and not probe.is_terminal():
        probe.apply_action(choice(probe.legal_actions()))
    if probe.is_chance_node():
        probs = {p for _, p in probe.chance_outcomes()}
        if max(probs) - min(probs) > 1e-12:
            raise RuntimeError("gin_rummy chance outcomes are not uniform")

    def playout(state: Any) -> int:
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                n += 1
        return n

    def run_clone(seconds: float) -> tuple[int, int, float]:
        pc = time.perf_counter
        n = games = 0
        t0 = pc()
        end = t0 + seconds
        while pc() < end:
            n += playout(root.clone())
            games += 1
        return n, games, pc() - t0

    def run_new(seconds: float) -> tuple[int, int, float]:
        pc = time.perf_counter
        n = games = 0
        t0 = pc()
        end = t0 + seconds
        while pc() < end:
            n += playout(game.new_initial_state())
            games += 1
        return n, games, pc() - t0

    return {"openspiel-clone": run_clone, "openspiel-new": run_new}


def rlcard_runner() -> Runner:
    """RLCard's gin rummy game object."""
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random = np.random.RandomState(1)
    choice = random.Random(2).choice
    legal = game.judge.get_legal_actions

    def run(seconds: float) -> tuple[int, int, float]:
        pc = time.perf_counter
        n = games = 0
        t0 = pc()
        end = t0 + seconds
        while pc() < end:
            game.init_game()
            while not game.is_over():
                game.step(choice(legal()))
                n += 1
            games += 1
        return n, games, pc() - t0

    return run


@attrs.frozen
class _Small:
    player: int
    choice: int


def floor_runner() -> Runner:
    """One small frozen attrs instance and one random.choice per decision."""
    choice = random.Random(3).choice
    options = tuple(range(12))

    def run(seconds: float) -> tuple[int, int, float]:
        pc = time.perf_counter
        n = 0
        t0 = pc()
        end = t0 + seconds
        while pc() < end:
            for _ in range(1000):
                _Small(n, choice(options))
                n += 1
        return n, 0, pc() - t0

    return run


# --- conquian -------------------------------------------------------------------------


def conquian_runner(game_type: str) -> Runner:
    """Seeded random games of one of conquian's game types."""
    from conquian import new_game

    rules = GAME_TYPES[game_type]()
    seeds = iter(range(10**9))
    choice = random.Random(4).choice

    def run(seconds: float) -> tuple[int, int, float]:
        pc = time.perf_counter
        n = games = 0
        t0 = pc()
        end = t0 + seconds
        while pc() < end:
            seed = next(seeds)
            state = new_game(rules, seed=seed)
            try:
                while not state.is_over:
                    state = state.apply(choice(state.legal_actions()))
                    n += 1
            except Exception as exc:
                raise RuntimeError(
                    f"game seed={seed}, after {len(state.history)} actions: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            games += 1
        return n, games, pc() - t0

    return run


def new_game_runner() -> Runner:
    """``new_game(ConquianRules(), seed=i)`` alone; counts calls."""
    from conquian import new_game

    rules = GAME_TYPES["two-hand"]()
    seeds = iter(range(10**9))

    def run(seconds: float) -> tuple[int, int, float]:
        pc = time.perf_counter
        n = 0
        t0 = pc()
        end = t0 + seconds
        while pc() < end:
            for _ in range(100):
                new_game(rules, seed=next(seeds))
            n += 100
        return n, n, pc() - t0

    return run


# --- the compiled build, in a worker process --------------------------------------------


def build_kind() -> tuple[str, list[str]]:
    """Which build of conquian this process imported: ("pure"|"compiled", compiled modules)."""
    import pkgutil

    import conquian

    compiled = []
    for info in pkgutil.walk_packages(conquian.__path__, "conquian."):
        spec = importlib.util.find_spec(info.name)
        origin = (spec.origin or "") if spec else ""
        if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            compiled.append(info.name)
    return ("compiled" if compiled else "pure"), compiled


def build_compiled_wheel(into: Path) -> Path:
    """Build the compiled wheel of this source tree into `into` (needs a C compiler).

    The build runs on a copy of what the sdist holds, because the mypyc hook leaves its
    compiled modules beside the sources it compiles.
    """
    source = into / "source"
    shutil.copytree(
        ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    print("building the compiled wheel (mypyc) ...", flush=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(into),
            str(source),
        ],
        check=True,
        env={**os.environ, "HATCH_BUILD_HOOKS_ENABLE": "1"},
    )
    (wheel,) = into.glob("conquian-*.whl")
    return wheel


def unpacked(build: Path, into: Path) -> Path:
    """A directory to put on ``sys.path`` for `build`: a wheel unpacked, or the directory."""
    if build.is_dir():
        return build
    target = into / "unpacked"
    with zipfile.ZipFile(build) as wheel:
        wheel.extractall(target)
    return target


class Worker:
    """A process of this interpreter, importing conquian from `path`, that runs its engines."""

    def __init__(self, path: Path) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), str(Path(__file__).parent)])}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.hello: dict[str, Any] = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the worker process ended")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply

    def run(self, engine: str, seconds: float) -> Measured:
        """Run one of the worker's engines for about `seconds`."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"engine": engine, "seconds": seconds}) + "\n")
        self.process.stdin.flush()
        r = self._read()
        return r["count"], r["games"], r["wall"], r["cpu"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def worker_main(stdin: IO[str], stdout: IO[str]) -> int:
    """The worker's side: say which build it runs and which engines, then run them on demand."""
    import conquian

    kind, compiled = build_kind()
    runners: dict[str, Runner] = {}
    skipped: dict[str, str] = {}
    for game_type in CONQUIAN_GAMES:
        problem = engine_problem(game_type)
        if problem:
            skipped[game_type] = problem
        else:
            runners[game_type] = conquian_runner(game_type)
    if "two-hand" in runners:
        runners["new_game"] = new_game_runner()
    hello = {
        "build": kind,
        "compiled": compiled,
        "path": str(Path(conquian.__file__).parent),
        "engines": list(runners),
        "skipped": skipped,
    }
    stdout.write(json.dumps(hello) + "\n")
    stdout.flush()
    for line in stdin:
        request = json.loads(line)
        try:
            n, games, wall, cpu = timed(runners[request["engine"]], request["seconds"])
            reply: dict[str, Any] = {"count": n, "games": games, "wall": wall, "cpu": cpu}
        except Exception as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0


# --- the run --------------------------------------------------------------------------


def timed(runner: Runner, seconds: float) -> Measured:
    """`runner` for `seconds`, with the CPU time this process spent on it."""
    c0 = time.process_time()
    n, games, wall = runner(seconds)
    return n, games, wall, time.process_time() - c0


def version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


Engine = Callable[[float], Measured]


def collect_runners(worker: Worker | None) -> tuple[dict[str, Engine], dict[str, str]]:
    runners: dict[str, Runner] = {}
    skipped: dict[str, str] = {}
    try:
        runners.update(openspiel_runners())
    except Exception as exc:
        skipped["openspiel"] = f"{type(exc).__name__}: {exc}"
    try:
        runners["rlcard"] = rlcard_runner()
    except Exception as exc:
        skipped["rlcard"] = f"{type(exc).__name__}: {exc}"
    runners["floor"] = floor_runner()
    for game_type in CONQUIAN_GAMES:
        problem = engine_problem(game_type)
        if problem:
            skipped[game_type] = problem
        else:
            runners[game_type] = conquian_runner(game_type)
    if "two-hand" in runners:
        runners["new_game"] = new_game_runner()
    engines: dict[str, Engine] = {
        name: (lambda seconds, runner=runner: timed(runner, seconds))
        for name, runner in runners.items()
    }
    if worker is not None:
        for name in worker.hello["engines"]:
            engines[name + COMPILED] = lambda seconds, name=name: worker.run(name, seconds)
        for name, why in worker.hello["skipped"].items():
            skipped[name + COMPILED] = why
    return engines, skipped


def measure(
    engines: dict[str, Engine], seconds: float, rounds: int, skipped: dict[str, str]
) -> dict[str, Any]:
    """Interleave the engines in rounds; per engine the rates of each round and its total.

    An engine that raises is dropped (with its error in `skipped`): the engines
    are values under construction, and one broken game must not lose the run.
    """
    engines = dict(engines)

    def attempt(name: str, seconds: float) -> Measured | None:
        try:
            return engines[name](seconds)
        except Exception as exc:
            skipped[name] = f"failed during the run: {type(exc).__name__}: {exc}"
            print(f"note: {name} dropped ({skipped[name]})")
            del engines[name]
            return None

    for name in list(engines):  # warm-up, not counted
        attempt(name, min(0.2, seconds))
    rates: dict[str, list[float]] = {name: [] for name in engines}
    totals: dict[str, list[float]] = {name: [0, 0, 0.0, 0.0] for name in engines}
    names = list(engines)
    for r in range(rounds):
        # rotate the order each round, so that no engine always runs first or last
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            if name not in engines:
                continue
            got = attempt(name, seconds)
            if got is None:
                continue
            n, games, wall, cpu = got
            rates[name].append(n / cpu)
            total = totals[name]
            total[0] += n
            total[1] += games
            total[2] += wall
            total[3] += cpu
    names = [name for name in names if name in engines]
    return {
        name: {
            "sustained": totals[name][0] / totals[name][3],
            "median": statistics.median(rates[name]),
            "best": max(rates[name]),
            "rounds": rates[name],
            "spread": (max(rates[name]) - min(rates[name])) / statistics.median(rates[name]),
            "count": int(totals[name][0]),
            "games": int(totals[name][1]),
            "cpu_seconds": totals[name][3],
            "cpu_share": totals[name][3] / totals[name][2],
            "per_game": totals[name][0] / totals[name][1] if totals[name][1] else None,
        }
        for name in names
    }


def ratios(results: dict[str, Any]) -> dict[str, Any]:
    """The targets of the issue, as ratios of sustained rates of this run."""
    out: dict[str, Any] = {}
    rate = {name: r["sustained"] for name, r in results.items()}

    def ratio(num: str, den: str) -> dict[str, Any]:
        # The figure is the ratio of sustained rates (all decisions over all CPU time);
        # the median of the ratios within each round (paired in time) is shown too.
        pairs = zip(results[num]["rounds"], results[den]["rounds"], strict=True)
        return {
            "ratio": rate[num] / rate[den],
            "paired_median": statistics.median(a / b for a, b in pairs),
            "of_best": results[num]["best"] / results[den]["best"],
        }

    for num, den, minimum in TARGETS:
        if num in rate and den in rate:
            r = ratio(num, den)
            out[f"{num} / {den}"] = {**r, "target": minimum, "met": r["ratio"] >= minimum}
    for build in ("", COMPILED):
        if "two-hand" + build in rate and "openspiel-new" in rate:
            out[f"two-hand{build} / openspiel-new"] = ratio("two-hand" + build, "openspiel-new")
        if "three-hand" + build in rate and "rlcard" in rate and build:
            out[f"three-hand{build} / rlcard"] = ratio("three-hand" + build, "rlcard")
    for name in CONQUIAN_GAMES:
        if name in rate and name + COMPILED in rate:
            out[f"{name}{COMPILED} / {name}"] = ratio(name + COMPILED, name)
    for name in (*CONQUIAN_GAMES, "openspiel-clone", "rlcard"):
        if name in rate:
            out[f"{name} / floor"] = ratio(name, "floor")
    if "new_game" in rate and "two-hand" in rate:
        seconds = 1 / rate["new_game"]
        per_game = results["two-hand"]["per_game"]
        # The machine's speed relative to the issue's: from OpenSpiel (the same C++ code
        # on both machines) when it ran, else from the CPython floor.
        by_floor = rate["floor"] / ISSUE_FLOOR
        by_openspiel = rate.get("openspiel-clone", 0.0) / ISSUE_OPENSPIEL_CLONE
        calibration = by_openspiel or by_floor
        in_decisions = seconds * rate["two-hand"]
        out["new_game"] = {
            "us": seconds * 1e6,
            "us_equivalent": seconds * 1e6 * calibration,
            "calibrated_by": "openspiel-clone" if by_openspiel else "floor",
            "us_equivalent_by_floor": seconds * 1e6 * by_floor,
            "target_us_equivalent": 30.0,
            "met": seconds * 1e6 * calibration <= 30.0,
            "in_two_hand_decisions": in_decisions,
            "whole_game_in_decisions": per_game + in_decisions,
            "target_whole_game_in_decisions": 60.0,
            "whole_game_met": per_game + in_decisions < 60.0,
        }
        if "openspiel-clone" in rate:
            out["new_game"]["in_openspiel_clone_decisions"] = seconds * rate["openspiel-clone"]
    return out


def print_report(
    results: dict[str, Any], skipped: dict[str, str], out: dict[str, Any], args: Any
) -> None:
    print(
        f"\n{args.rounds} rounds x {args.seconds:g} s per engine, interleaved; "
        "sustained = all decisions / all CPU seconds; median and best of the rounds' rates"
    )
    head = (
        f"{'engine':<22} {'sustained/s':>12} {'median':>10} {'best':>10} {'spread':>7} "
        f"{'cpu':>5} {'per game':>9} {'games':>7}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        unit = " calls/s" if name.startswith("new_game") else ""
        per_game = f"{r['per_game']:.1f}" if r["per_game"] and unit == "" else "-"
        print(
            f"{name:<22} {r['sustained']:>12,.0f} {r['median']:>10,.0f} {r['best']:>10,.0f} "
            f"{r['spread']:>6.0%} {r['cpu_share']:>5.0%} {per_game:>9} {r['games']:>7}{unit}"
        )
    for name, why in skipped.items():
        print(f"{name:<22} skipped: {why}")
    print()
    for key, value in out.items():
        if key == "new_game":
            continue
        line = (
            f"{key:<34} {value['ratio']:>6.2f}x  (paired median {value['paired_median']:.2f}x, "
            f"of best rounds {value['of_best']:.2f}x)"
        )
        if "target" in value:
            line += f"  target >= {value['target']:.1f}x: {'met' if value['met'] else 'NOT met'}"
        print(line)
    ng = out.get("new_game")
    if ng:
        print(
            f"new_game: {ng['us']:.1f} us here = {ng['us_equivalent']:.1f} us-equivalent "
            f"(scaled by {ng['calibrated_by']} here / on the issue's machine; by the floor: "
            f"{ng['us_equivalent_by_floor']:.1f}); target <= 30: "
            f"{'met' if ng['met'] else 'NOT met'}"
        )
        print(
            f"new_game = {ng['in_two_hand_decisions']:.2f} two-hand decisions; a whole random "
            f"two-hand game with its deal = {ng['whole_game_in_decisions']:.1f} decisions "
            f"(target < 60: {'met' if ng['whole_game_met'] else 'NOT met'})"
        )
        if "in_openspiel_clone_decisions" in ng:
            print(f"new_game = {ng['in_openspiel_clone_decisions']:.2f} OpenSpiel-clone decisions")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per engine per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds")
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="also write the figures as JSON to FILE (- or nothing: standard output)",
    )
    compiled = parser.add_mutually_exclusive_group()
    compiled.add_argument(
        "--compiled",
        type=Path,
        metavar="WHEEL_OR_DIR",
        help="also measure this compiled build: its wheel, or a directory holding its "
        "conquian package (pip install --target DIR)",
    )
    compiled.add_argument(
        "--build-compiled",
        action="store_true",
        help="build the compiled wheel of this source tree first (needs a C compiler)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker_main(sys.stdin, sys.stdout)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")

    kind, modules = build_kind()
    if kind != "pure":
        parser.error(
            f"this interpreter imports a compiled conquian ({', '.join(modules)}): install the "
            "pure package here (pip install -e .) and give the compiled one with --compiled"
        )
    info = machine_info()
    info["versions"] = {
        d: version(d) for d in ("conquian", "attrs", "open_spiel", "rlcard", "numpy")
    }
    print(
        f"{info['python']}, {info['cpu']} ({info['nproc']} cores); "
        + ", ".join(f"{d} {v}" for d, v in info["versions"].items() if v)
        + f" (sources {info['sources']})"
    )
    with tempfile.TemporaryDirectory() as scratch:
        worker = None
        build = args.compiled
        if args.build_compiled:
            build = build_compiled_wheel(Path(scratch))
        if build is not None:
            worker = Worker(unpacked(build, Path(scratch)))
            hello = worker.hello
            if hello["build"] != "compiled":
                parser.error(f"{build} is not a compiled build (conquian from {hello['path']})")
            info["compiled"] = {"from": str(build), "modules": hello["compiled"]}
            print(f"compiled build: {build}; compiled modules: {', '.join(hello['compiled'])}")
        try:
            engines, skipped = collect_runners(worker)
            for name, why in skipped.items():
                print(f"note: {name} skipped ({why})")
            results = measure(engines, args.seconds, args.rounds, skipped)
        finally:
            if worker is not None:
                worker.close()
    out = ratios(results)
    print_report(results, skipped, out, args)
    if args.json:
        payload = {
            "machine": info,
            "seconds": args.seconds,
            "rounds": args.rounds,
            "results": results,
            "ratios": out,
            "skipped": skipped,
        }
        text = json.dumps(payload, indent=2)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
