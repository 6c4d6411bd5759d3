"""Calibrate the tells (`conquian.agents.tells`) on played two-hand deals of several opponents.

Usage::

    python benchmarks/calibrate_reading.py                    # 200 deals an opponent
    python benchmarks/calibrate_reading.py --deals 60 --opponents pimc@v1,search

Each opponent plays ``--deals`` deals of Conquian for two against ``heuristic@v1``
(seats and deal rotating, `conquian.simulate`'s seeds). At each of his choices the
script looks at his true hand:

- *refused*: he had the say to a card (T4–T7). Did two cards of his hand make a
  combination with it (C3, C4), and did he refuse it (pass or force, T10)? The factor
  ``refuse`` is P(refuse | it melds with two of his cards) / P(refuse | it does not).
- *thrown*: he ended his turn with a discard or a force from his hand (T8, T10). Did the
  card he threw make a combination with two cards of the rest of his hand, and how often
  did the cards he kept? The factor ``throw`` is the first share over the second.

It prints one line an opponent and the pooled figures, which `conquian.agents.tells`
takes as its `REFUSE` and `THROW`.
"""

from __future__ import annotations

import argparse
import functools
import sys

from conquian import ConquianRules
from conquian.actions import Action, Discard, Force, Pass
from conquian.agents import make_agent, play
from conquian.agents.tells import mates
from conquian.cards import Card
from conquian.offer.tables import sequence_order
from conquian.state.base import State


class Counts:
    """The tallies of one opponent's choices."""

    def __init__(self) -> None:
        self.say_mates = self.say_mates_refused = 0
        self.say_none = self.say_none_refused = 0
        self.throws = self.thrown_mates = 0
        self.kept_share = 0.0

    def refuse(self) -> float:
        mated = self.say_mates_refused / max(1, self.say_mates)
        plain = self.say_none_refused / max(1, self.say_none)
        return mated / plain if plain else float("nan")

    def throw(self) -> float:
        chosen = self.thrown_mates / max(1, self.throws)
        kept = self.kept_share / max(1, self.throws)
        return chosen / kept if kept else float("nan")

    def add(self, other: Counts) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def tally(opponent: str, deals: int, seed: int) -> Counts:
    """Play `deals` deals of `opponent` against heuristic@v1 and count his choices."""
    rules = ConquianRules()
    order = sequence_order(rules.pack, rules.max_sequence)
    counts = Counts()

    def observe(seat: int, before: State, who: int, action: Action, after: State) -> None:
        """Count the choice of `who` if he is the opponent, in `seat`."""
        if who != seat or len(before.legal_actions()) < 2:
            return
        hand = list(before.hand(who))
        offer: Card | None = getattr(before, "offer", None)
        if offer is not None:
            refused = isinstance(action, (Pass, Force))
            if mates(offer, hand, order):
                counts.say_mates += 1
                counts.say_mates_refused += refused
            else:
                counts.say_none += 1
                counts.say_none_refused += refused
        elif isinstance(action, (Discard, Force)) and isinstance(action.card, Card):
            d = action.card
            if d not in hand:
                return
            rest = [c for c in hand if c != d]
            counts.throws += 1
            counts.thrown_mates += bool(mates(d, rest, order))
            kept = [bool(mates(c, [x for x in hand if x != c], order)) for c in rest]
            counts.kept_share += sum(kept) / max(1, len(kept))

    for i in range(deals):
        seat = i % 2
        agents = [make_agent("heuristic@v1", seed + i), make_agent(opponent, seed + i)]
        if seat == 0:
            agents.reverse()
        watch = functools.partial(observe, seat)
        play(agents, rules, seed=seed * 7919 + i, dealer=i // 2 % 2, observe=watch)
    return counts


def main(argv: list[str] | None = None) -> int:
    """Tally every opponent and print the factors."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="heuristic@v1,pimc@v1,random,search")
    args = parser.parse_args(argv)
    pooled = Counts()
    print(
        f"{'opponent':14} {'say, melds':>10} {'refused':>8} {'say, not':>9} {'refused':>8} "
        f"{'refuse':>7} {'throws':>7} {'melds':>6} {'kept':>6} {'throw':>6}"
    )
    for name in args.opponents.split(","):
        c = tally(name, args.deals, args.seed)
        print(
            f"{name:14} {c.say_mates:10} {c.say_mates_refused / max(1, c.say_mates):8.2f} "
            f"{c.say_none:9} {c.say_none_refused / max(1, c.say_none):8.2f} {c.refuse():7.2f} "
            f"{c.throws:7} {c.thrown_mates / max(1, c.throws):6.2f} "
            f"{c.kept_share / max(1, c.throws):6.2f} {c.throw():6.2f}",
            flush=True,
        )
        pooled.add(c)
    print(
        f"{'pooled':14} {'':10} {'':8} {'':9} {'':8} {pooled.refuse():7.2f} "
        f"{'':7} {'':6} {'':6} {pooled.throw():6.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
