"""The frozen bots' golden transcripts: the cases, and how to write them again.

Each case is one deal played by `play` between agents made by `make_agent` with
explicit seeds; its transcript is the deal's actions, as text. The transcripts
in ``tests/data/bots_golden.json`` were taken from the heuristic and the
default searching bot (``"ismcts"``, perfect-information Monte Carlo) of
0.1.0 before either was touched; ``tests/agents/test_bots_golden.py`` checks that
``"heuristic@v1"`` and ``"pimc@v1"`` still play exactly those.

Writing them again is for a deliberate change of a rule or of a sampler's draws
(`pimc@v1` samples with the library's samplers): ``python tests/agents/bots_golden.py
NAME`` plays the cases with the agents named NAME (``heuristic@v1``) in place of
the recorded ones and prints the JSON.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from conquian import ConquianRules, CooCanRules, CooncanRules
from conquian.agents import make_agent, play
from conquian.rules import Rules

# name, game, agents (one per seat), agents' seeds, deal seed, dealer
CASES: list[tuple[str, str, tuple[str, ...], tuple[int, ...], int, int]] = [
    ("two-hand-heuristic-7", "conquian", ("heuristic", "heuristic"), (1, 2), 7, 0),
    ("two-hand-heuristic-11-dealer-1", "conquian", ("heuristic", "heuristic"), (3, 4), 11, 1),
    ("two-hand-heuristic-random-5", "conquian", ("heuristic", "random"), (5, 6), 5, 0),
    ("two-hand-heuristic-24", "conquian", ("heuristic", "heuristic"), (8, 9), 24, 0),
    ("two-hand-pimc-3", "conquian", ("ismcts", "heuristic"), (10, 11), 3, 0),
    ("two-hand-heuristic-pimc-8", "conquian", ("heuristic", "ismcts"), (12, 13), 8, 1),
    ("three-hand-heuristic-2", "three-hand", ("heuristic",) * 3, (1, 2, 3), 2, 0),
    ("three-hand-heuristic-9-dealer-2", "three-hand", ("heuristic",) * 3, (4, 5, 6), 9, 2),
    ("three-hand-pimc-4", "three-hand", ("ismcts", "heuristic", "heuristic"), (7, 8, 9), 4, 0),
    ("coo-can-heuristic-6", "coo-can", ("heuristic", "heuristic"), (1, 2), 6, 0),
    ("coo-can-heuristic-13-dealer-1", "coo-can", ("heuristic", "heuristic"), (3, 4), 13, 1),
    ("coo-can-pimc-5", "coo-can", ("heuristic", "ismcts"), (5, 6), 5, 0),
]


def rules_of(game: str) -> Rules:
    """The rules of a case's game: two-hand Conquian, three-hand Cooncan, Coo-Can for two."""
    if game == "conquian":
        return ConquianRules()
    if game == "three-hand":
        return CooncanRules.three_hand(turn_limit=300)
    return CooCanRules(players=2, turn_limit=300)


def transcript(
    game: str, agents: tuple[str, ...], seeds: tuple[int, ...], deal: int, dealer: int
) -> list[str]:
    """The actions of one deal between the named agents, as text."""
    seats = [make_agent(name, seed) for name, seed in zip(agents, seeds, strict=True)]
    final = play(seats, rules_of(game), seed=deal, dealer=dealer)
    return [str(a) for a in final.history]


def main(argv: list[str]) -> int:
    """Print the cases' transcripts as JSON; with an agent name, it stands in for the
    recorded heuristic (``heuristic@v1``) or searching bot (``pimc@v1``)."""
    swap = argv[0] if argv else None
    out: dict[str, Any] = {}
    for name, game, agents, seeds, deal, dealer in CASES:
        if swap is not None:
            recorded = "heuristic" if swap.startswith("heuristic") else "ismcts"
            agents = tuple(swap if a == recorded else a for a in agents)
        out[name] = transcript(game, agents, seeds, deal, dealer)
    print(json.dumps(out, indent=0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
