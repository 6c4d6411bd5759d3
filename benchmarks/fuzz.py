"""Fuzz the views: random rules of every game, random play, every view sampled and read back.

For a fixed time it builds rules values from a seed (every game, and every option
each rules class declares, with the values it allows), plays a random deal under
each, and at every third decision takes the view of a random seat and checks what
a bot or a client of views relies on:

- `view.sample_state(rng)` gives a state whose view of that seat is the view (C6);
- `PlayerView.from_json(view.to_json())` is the view (E3);
- every ninth decision, `conquian.determinize.samples(view)` draws two such states.

Any exception or failed check is printed with the rules, the seed, the step and the
seat, which reproduce it: deal ``i`` is ``new_game(rules, seed=i, dealer=i % players)``
played and viewed with ``random.Random(i)``, its rules drawn first from that generator.

    python benchmarks/fuzz.py                      # 60 s from seed 0
    python benchmarks/fuzz.py --seconds 600 --seed 5000
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import conquian
from conquian import ConquianRules, CooCanRules, CooncanRules, PlayerView, Rules, RulesError
from conquian.determinize import samples
from conquian.rules import options


def rules_of(rng: random.Random) -> Rules:
    """A rules value of one of the games, every option the rules class declares drawn from
    `rng` among the values it allows (`conquian.rules.options`); a value that another one
    forbids (the hand size by the seats, T16; trades past the hand, T21; the high ace in the
    American pack, T26) gives way to its default. Every deal has a turn limit, so it ends."""
    game = rng.choice(("conquian", "three-hand", "double-pack", "coo-can"))
    cls: type = {"conquian": ConquianRules, "coo-can": CooCanRules}.get(game, CooncanRules)
    chosen = {o.name: rng.choice(o.choices(game)) for o in options(cls)}
    if "turn_limit" in chosen:
        chosen["turn_limit"] = rng.choice((40, 200))
    if cls is CooncanRules:
        chosen["variant"] = game
    while True:
        try:
            made: Rules = cls(**chosen)
            return made
        except RulesError as e:
            del chosen[e.option]


def check(view: PlayerView, seat: int, step: int) -> None:
    """The checks of one view (see the module); raises AssertionError or the library's error."""
    sample = view.sample_state(random.Random(step))  # type: ignore[attr-defined]
    assert sample.view(seat) == view, "the sample gives another view"
    assert PlayerView.from_json(view.to_json()) == view, "the view read back is another"
    if step % 9 == 0:
        draw = samples(view)
        for k in range(2):
            assert draw(random.Random(k)).view(seat) == view, "samples() gives another view"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args()
    deadline = time.monotonic() + args.seconds
    seed, deals, views, errors = args.seed, 0, 0, 0
    while time.monotonic() < deadline:
        rng = random.Random(seed)
        rules = rules_of(rng)
        state = conquian.new_game(rules, seed=seed, dealer=seed % rules.players)
        step = 0
        while not state.is_over and time.monotonic() < deadline:
            seat = rng.randrange(rules.players)
            if step % 3 == 0:
                views += 1
                try:
                    check(state.view(seat), seat, step)
                except Exception as e:  # every failure is reported
                    errors += 1
                    print(f"{rules!r} seed {seed} step {step} seat {seat}: {e!r}", flush=True)
            state = state.apply(rng.choice(state.legal_actions()))
            step += 1
        seed += 1
        deals += 1
    print(f"{deals} deals, {views} views, {errors} errors (seeds {args.seed} to {seed - 1})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
