"""A transcript of seeded random deals of every game, to compare two builds (pure, compiled).

Not a pytest module (its name does not start with ``test_``): CI runs it once with the
pure package and once with the compiled one and compares the two files (``.ci/run``)::

    python tests/differential.py --out pure.json
    python tests/differential.py --out compiled.json
    python tests/differential.py --compare pure.json compiled.json

For each deal it records, at every step: the action taken, the legal actions, the
state's JSON and the JSON of every seat's view, and the error message of a few illegal
actions (the same actions tried on both builds). Two builds that agree write the same
file; the comparison names the first step where they differ.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from conquian import (
    ConquianError,
    ConquianRules,
    CooncanRules,
    Rules,
    State,
    new_game,
)

GAMES: list[Rules] = [
    ConquianRules(),
    ConquianRules.pagat(),
    ConquianRules.hoyle(),
    ConquianRules.blog(),
    CooncanRules.three_hand(),
    CooncanRules.three_hand(jokers=1, stock="open"),
    CooncanRules.double_pack(),
]
"""Every game and variant compared: a new one is added here."""

PROBES = (
    "pass",
    "draw",
    "take 5H",
    "take JK",
    "discard KS",
    "meld 2H 3H 4H",
    "meld 9C @0",
    "borrow 5H @0",
    "force 7H @1 shift",
)
"""Actions tried at every step, of which some are legal and most are not."""


def _step(state: State, rng: random.Random) -> dict[str, Any]:
    """What one step shows: the legal actions, the JSON, the views, errors of illegal tries."""
    errors = {}
    for text in rng.sample(PROBES, 3):
        try:
            state.apply(text)
            errors[text] = None
        except ConquianError as e:
            errors[text] = f"{type(e).__name__}: {e}"
    return {
        "legal": [str(a) for a in state.legal_actions()],
        "state": json.loads(state.to_json()),
        "views": [json.loads(state.view(p).to_json()) for p in range(state.rules.players)],
        "errors": errors,
    }


def transcript(deals: int, seed: int) -> list[dict[str, Any]]:
    """`deals` seeded random deals of every game in `GAMES`, step by step."""
    out = []
    for g, rules in enumerate(GAMES):
        for d in range(deals):
            rng = random.Random(seed * 1_000_003 + g * 1_000 + d)
            state = new_game(rules, seed=rng.randrange(2**31), dealer=d % rules.players)
            steps = []
            while True:
                steps.append(_step(state, rng))
                if state.is_over or len(state.history) >= 400:
                    break
                action = rng.choice(state.legal_actions())
                steps[-1]["action"] = str(action)
                state = state.apply(action)
            out.append({"rules": repr(rules), "deal": d, "steps": steps})
    return out


def compare(one: list[dict[str, Any]], two: list[dict[str, Any]]) -> str | None:
    """Where two transcripts first differ (a deal, a step, a field), or None if they agree."""
    if len(one) != len(two):
        return f"{len(one)} deals against {len(two)}"
    for a, b in zip(one, two, strict=True):
        where = f"{a['rules']} deal {a['deal']}"
        if len(a["steps"]) != len(b["steps"]):
            return f"{where}: {len(a['steps'])} steps against {len(b['steps'])}"
        for k, (x, y) in enumerate(zip(a["steps"], b["steps"], strict=True)):
            for field in sorted(x.keys() | y.keys()):
                mine, theirs = x.get(field), y.get(field)
                if mine != theirs:
                    return f"{where}, step {k}, {field}: {mine!r:.300} != {theirs!r:.300}"
    return None


def main(argv: list[str] | None = None) -> int:
    """Write a transcript, or compare two; exit status 1 when they differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the transcript to this file")
    parser.add_argument("--deals", type=int, default=3, help="deals per game (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    parser.add_argument("--compare", nargs=2, metavar="FILE", help="compare two transcripts")
    args = parser.parse_args(argv)
    if args.compare:
        with open(args.compare[0]) as f, open(args.compare[1]) as g:
            diff = compare(json.load(f), json.load(g))
        if diff is not None:
            print(f"the builds differ: {diff}", file=sys.stderr)
            return 1
        print("the transcripts agree")
        return 0
    text = json.dumps(transcript(args.deals, args.seed), sort_keys=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
