#!/usr/bin/env python3
"""Learning environments side by side: steps per second of random masked play, one run.

Each engine plays whole deals through an environment's public interface, picking a
uniform random legal action at every step (from the legal actions the environment
hands out with its observation), and counts the steps (player decisions):

* ``pz-two-hand``: ``conquian.pettingzoo.env(ConquianRules())``, the agent loop
  (``env.last()``, then ``env.step(id)``), the action drawn from ``info["legal_ids"]``
  (the legal list the environment hands out, as RLCard's and OpenSpiel's loops below);
* ``pz-two-hand-mask``: the same, the action drawn from the ``action_mask`` of the
  observation (``np.flatnonzero`` of 4,247 int8, about 10 microseconds of numpy per
  step: the learner's cost, not the environment's);
* ``pz-double-pack``: ``env(CooncanRules.double_pack(players=4, turn_limit=300))``,
  the action drawn from ``info["legal_ids"]`` (the dense mask of 1.8 million ids is
  off there);
* ``pz-three-hand``: ``env(CooncanRules.three_hand(turn_limit=200))``, from the ids;
* ``pz-coo-can``: ``env(CooCanRules(players=4, turn_limit=200))``, from the ids (its
  9,222 ids are few enough for the dense mask, which is in every observation);
* ``gym-two-hand``: the Gymnasium id as a learner gets it,
  ``gymnasium.make("conquian/Conquian-v0", opponent=RandomAgent)`` (its wrappers
  included), ``env.step(id)`` with the id drawn from ``info["legal_ids"]``; it counts
  the learner's steps only (the other seat's decisions, about as many, are played
  inside each step);
* ``rl-two-hand``: our two-hand game through OpenSpiel's ``rl_environment``;
* ``rlcard-gin``: RLCard's gin rummy environment (``rlcard.make("gin-rummy")``):
  ``env.reset()``, then ``env.step(a)`` with ``a`` drawn from
  ``state["legal_actions"]`` until ``env.is_over()``;
* ``openspiel-gin``: OpenSpiel ``gin_rummy`` through ``rl_environment.Environment``
  (its chance nodes are resolved inside the environment and not counted).

Each round runs every engine for ``--seconds``, the order rotated from round to round;
an engine's figure is all its steps over all the CPU time it used
(``time.process_time``). A missing peer is skipped with a note. The targets are checked
on these figures and printed last: issue #27's (the two-hand environment at least 1.5
times each peer, from the ids and from the dense mask, and the double pack at least half
the two-hand environment) and issue #36's (the AEC environment at least 1.5 times
OpenSpiel's ``gin_rummy`` and twice RLCard's, every decision counted; the Gymnasium id's
learner steps at least OpenSpiel's rate of all decisions).

Usage::

    python benchmarks/envs.py                      # 5 rounds x 2 s per engine
    python benchmarks/envs.py --seconds 1 --rounds 3 --json envs.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

Runner = Callable[[float], tuple[int, float]]

#: (numerator, denominator, minimum ratio) of sustained steps per second (issue #27).
TARGETS = (
    ("pz-two-hand", "rlcard-gin", 1.5),
    ("pz-two-hand", "openspiel-gin", 1.5),
    ("pz-two-hand-mask", "rlcard-gin", 1.5),
    ("pz-two-hand-mask", "openspiel-gin", 1.5),
    ("pz-double-pack", "pz-two-hand", 0.5),
    ("pz-two-hand", "rlcard-gin", 2.0),
    ("gym-two-hand", "openspiel-gin", 1.0),
)


def _loop(step_deal: Callable[[], int]) -> Runner:
    def run(seconds: float) -> tuple[int, float]:
        n = 0
        c0 = time.process_time()
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            n += step_deal()
        return n, time.process_time() - c0

    return run


def pettingzoo_runner(rules: Any, use_mask: bool) -> Runner:
    """Random masked play in our PettingZoo AEC env (the public, wrapped `env`)."""
    import numpy as np

    from conquian.pettingzoo import env

    game = env(rules)
    seeds = iter(range(10**9))
    choice = random.Random(5).choice
    flat = np.flatnonzero

    def deal() -> int:
        game.reset(seed=next(seeds))
        n = 0
        for _agent in game.agent_iter():
            obs, _reward, terminated, truncated, info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            if use_mask:
                game.step(int(choice(flat(obs["action_mask"]))))
            else:
                game.step(choice(info["legal_ids"]))
            n += 1
        return n

    return _loop(deal)


def gymnasium_runner(env_id: str) -> Runner:
    """The learner's steps in a Gymnasium id against `RandomAgent` (the wrappers of
    ``gymnasium.make`` included), the id drawn from ``info["legal_ids"]``."""
    import gymnasium

    import conquian.gymnasium  # noqa: F401  (registers the ids)
    from conquian import RandomAgent

    game = gymnasium.make(env_id, opponent=RandomAgent)
    game.reset(seed=8)  # then unseeded resets, as a vector environment's autoreset makes
    choice = random.Random(8).choice

    def deal() -> int:
        _obs, info = game.reset()
        n = 0
        done = False
        while not done:
            _obs, _reward, terminated, truncated, info = game.step(choice(info["legal_ids"]))
            done = terminated or truncated
            n += 1
        return n

    return _loop(deal)


def rl_environment_runner(game: Any) -> Runner:
    """A pyspiel game through OpenSpiel's ``rl_environment.Environment``."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment(game, seed=6)
    choice = random.Random(6).choice

    def deal() -> int:
        step = environment.reset()
        n = 0
        while not step.last():
            player = step.observations["current_player"]
            step = environment.step([choice(step.observations["legal_actions"][player])])
            n += 1
        return n

    return _loop(deal)


def rlcard_runner() -> Runner:
    """RLCard's gin rummy environment."""
    import rlcard

    environment = rlcard.make("gin-rummy", config={"seed": 7})
    choice = random.Random(7).choice

    def deal() -> int:
        state, _player = environment.reset()
        n = 0
        while not environment.is_over():
            state, _player = environment.step(choice(list(state["legal_actions"])))
            n += 1
        return n

    return _loop(deal)


def collect() -> tuple[dict[str, Runner], dict[str, str]]:
    """The engines that import here, and why the others are skipped."""
    from conquian import ConquianRules, CooCanRules, CooncanRules

    runners: dict[str, Runner] = {}
    skipped: dict[str, str] = {}
    makers: dict[str, Callable[[], Runner]] = {
        "pz-two-hand": lambda: pettingzoo_runner(ConquianRules(), False),
        "pz-two-hand-mask": lambda: pettingzoo_runner(ConquianRules(), True),
        "pz-three-hand": lambda: pettingzoo_runner(CooncanRules.three_hand(turn_limit=200), False),
        "pz-double-pack": lambda: pettingzoo_runner(
            CooncanRules.double_pack(players=4, turn_limit=300), False
        ),
        "pz-coo-can": lambda: pettingzoo_runner(CooCanRules(players=4, turn_limit=200), False),
        "gym-two-hand": lambda: gymnasium_runner("conquian/Conquian-v0"),
        "rlcard-gin": rlcard_runner,
        "openspiel-gin": lambda: _openspiel("gin_rummy"),
        "rl-two-hand": lambda: _conquian_openspiel(ConquianRules()),
    }
    for name, make in makers.items():
        try:
            runners[name] = make()
        except Exception as exc:  # a missing peer: skipped, with the reason
            skipped[name] = f"{type(exc).__name__}: {exc}"
    return runners, skipped


def _openspiel(name: str) -> Runner:
    import pyspiel

    return rl_environment_runner(pyspiel.load_game(name))


def _conquian_openspiel(rules: Any) -> Runner:
    from conquian.openspiel import load

    return rl_environment_runner(load(rules))


def measure(runners: dict[str, Runner], seconds: float, rounds: int) -> dict[str, float]:
    """Sustained steps per second of each engine, interleaved in rounds."""
    for run in runners.values():  # warm-up, not counted
        run(min(0.2, seconds))
    steps = dict.fromkeys(runners, 0)
    cpu = dict.fromkeys(runners, 0.0)
    names = list(runners)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            n, used = runners[name](seconds)
            steps[name] += n
            cpu[name] += used
    return {name: steps[name] / cpu[name] for name in names}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", action="append", help="an engine to run (repeatable)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    runners, skipped = collect()
    if args.only:
        runners = {k: v for k, v in runners.items() if k in args.only}
    rates = measure(runners, args.seconds, args.rounds)
    print(f"{'engine':<18} {'steps/s':>10}")
    for name, rate in rates.items():
        print(f"{name:<18} {rate:>10,.0f}")
    for name, why in skipped.items():
        print(f"skipped {name}: {why}")
    verdicts = []
    for top, bottom, least in TARGETS:
        if top in rates and bottom in rates:
            ratio = rates[top] / rates[bottom]
            ok = "ok" if ratio >= least else "MISSED"
            verdicts.append({"engine": top, "peer": bottom, "ratio": ratio, "target": least})
            print(f"{top} / {bottom} = {ratio:.2f} (target >= {least}): {ok}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"rates": rates, "skipped": skipped, "targets": verdicts}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
