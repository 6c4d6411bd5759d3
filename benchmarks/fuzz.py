"""Fuzz the views: random rules of every game, random play, every view sampled and read back.

For a fixed time it builds rules values from a seed (every game, and every option
each rules class declares, with the values it allows), plays a random deal under
each, and at every third decision takes the view of a random seat and checks what
a bot or a client of views relies on:

- `view.sample_state(rng)` gives a state whose view of that seat is the view (C6);
- `PlayerView.from_json(view.to_json())` is the view (E3);
- every ninth decision, `conquian.determinize.samples(view)` draws two such states;
- every ninth decision, a copy of the view with its history edited (an entry
  replaced, inserted or deleted, ``pass`` and ``trade`` among them) loads or raises
  `RecordError`, nothing else (E2);
- the sample's position is written and read back (C7; not yet in Coo-Can, where no deal
  is found for a sample).

Every fourth deal is also played as a match of two deals (`conquian.Match`, its
scoring drawn), whose file must load back equal and, edited (its seed, a dealer, a
deal's action, a field of its sheet), load or raise `RecordError`.

Any exception or failed check is printed with the rules, the seed, the step and the
seat, which reproduce it: deal ``i`` is ``new_game(rules, seed=i, dealer=i % players)``
played and viewed with ``random.Random(i)``, its rules drawn first from that generator.

    python benchmarks/fuzz.py                      # 60 s from seed 0
    python benchmarks/fuzz.py --seconds 600 --seed 5000
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time

import conquian
from conquian import (
    ConquianRules,
    CooCanRules,
    CooncanRules,
    Match,
    PlayerView,
    RecordError,
    Rules,
    RulesError,
    State,
)
from conquian.determinize import samples
from conquian.rules import options

EDITS = ("pass", "trade", "trade 5H", "draw", "take 5H", "discard KS", "meld 2H 3H 4H 5H")
"""History entries an edit puts in a view: moves of every game, some of another game."""


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
    text = view.to_json()
    assert PlayerView.from_json(text) == view, "the view read back is another"
    if step % 9 == 0:
        draw = samples(view)
        for k in range(2):
            assert draw(random.Random(k)).view(seat) == view, "samples() gives another view"
    # A Coo-Can sample has no deal found for it yet (K8: the deck mixed again from the
    # discard pile): its position is not written.
    if not isinstance(view.rules, CooCanRules):  # type: ignore[attr-defined]
        position = sample.to_json()
        assert State.from_json(position).to_json() == position, "the sample's position differs"
    if step % 9 != 6:  # an edited view may cost a whole search (the sampler's budget)
        return
    edited = json.loads(text)
    history, rng = edited["history"], random.Random(step)
    kind = rng.randrange(3)
    if kind == 0 and history:
        history[rng.randrange(len(history))] = rng.choice(EDITS)
    elif kind == 1:
        history.insert(rng.randrange(len(history) + 1), rng.choice(EDITS))
    elif history:
        del history[rng.randrange(len(history))]
    with contextlib.suppress(RecordError):  # refused: what an edit may give (E2)
        PlayerView.from_json(json.dumps(edited))


def check_match(rules: Rules, rng: random.Random, seed: int) -> None:
    """A match of two deals of `rules` played at random: its file loads back equal, and
    each edit of it loads or raises RecordError."""
    scoring = rng.choice(("pool", "next", "points"))
    if scoring == "next" and not isinstance(rules, ConquianRules):
        scoring = "pool"
    match = Match(rules, seed=seed, scoring=scoring, deals=2)
    while True:
        while not match.state.is_over:
            match = match.apply(rng.choice(match.state.legal_actions()))
        if match.is_over:
            break
        match = match.next_deal()
    text = match.to_json()
    assert Match.from_json(text) == match, "the match read back is another"
    for edit in range(4):
        data = json.loads(text)
        if edit == 0:
            data["seed"] = rng.choice((None, seed + 1))
        elif edit == 1:
            data["played"][-1]["dealer"] = rng.randrange(match.people)
        elif edit == 2:
            actions = data["played"][0]["actions"]
            actions[rng.randrange(len(actions))] = rng.choice(EDITS)
        else:
            del data["sheet"][rng.choice(("tie", "points", "rows", "players"))]
        with contextlib.suppress(RecordError):  # refused: what an edit may give (E2)
            Match.from_json(json.dumps(data))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args()
    deadline = time.monotonic() + args.seconds
    seed, deals, views, matches, errors = args.seed, 0, 0, 0, 0
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
        if seed % 4 == 0 and time.monotonic() < deadline:
            matches += 1
            try:
                check_match(rules, rng, seed)
            except Exception as e:  # every failure is reported
                errors += 1
                print(f"{rules!r} seed {seed} match: {e!r}", flush=True)
        seed += 1
        deals += 1
    print(
        f"{deals} deals, {views} views, {matches} matches, {errors} errors "
        f"(seeds {args.seed} to {seed - 1})"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
