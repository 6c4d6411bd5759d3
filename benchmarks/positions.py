"""A position suite for two-hand Conquian: positions from played deals, every legal action valued.

Two commands::

    python benchmarks/positions.py make --positions 220 --seed 3700 --samples 4000
    python benchmarks/positions.py score --agents heuristic@v1,pimc@v1,search,heuristic,random

**make** plays two-hand deals (``ConquianRules()``, Foster's rules) between ``heuristic@v1``
and a mix of opponents (``heuristic@v1``, ``pimc@v1``, ``random``), and keeps at most one
position a deal where the seat to move has at least two legal actions and its opponent is
``heuristic@v1``, stratified by stock size (`BINS`, equal counts). Each legal action of a
position is then valued by its expected score to the seat to move (1 won, 0 lost, ½ a
tableau or an abandoned deal, T12), ``heuristic@v1`` continuing for both seats after it,
averaged over the hidden cards consistent with the seat's view (C6) and with the opponent's
past choices: ``heuristic@v1`` is deterministic, so a hidden hand is consistent when, the
history replayed on it, the bot would have made every choice the opponent made where he
had more than one legal action. The hands are enumerated where they are few
(`ENUMERATE`), else drawn by rejection where enough are accepted (`ACCEPT`), else by a
Metropolis chain over hidden hands started at the true hand; the stock's order is a
uniform shuffle of the other unseen cards. Every action is played on the same deals
(common random numbers). Where every hand and stock order can be listed (`EXACT`), the
values are exact. The output is written after each position, and a run that stops starts
again where it stopped.

**score** asks each bot its choice in each position's view; its regret is the best value
less the value of its choice (0 when its choice is tied with the best: within two standard
errors of the paired difference). It prints the mean regret a decision with a 95% interval,
overall and by stock size. ``make`` writes and ``score`` reads ``benchmarks/positions.json``
unless told otherwise (``--out``, ``--suite``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

from conquian import ConquianRules, new_game
from conquian.agents import make_agent
from conquian.agents.search import _rollout, _worth
from conquian.agents.v1 import HeuristicV1
from conquian.cards import Card
from conquian.determinize import OfferDeals
from conquian.state.base import PlayerView, State

BINS: list[tuple[int, int]] = [(0, 3), (4, 7), (8, 11), (12, 15), (16, 19)]
"""The stock sizes the positions are stratified by (two-hand Conquian's stock holds at most
19 cards once the first card is turned)."""

OPPONENTS: list[str] = ["heuristic@v1", "heuristic@v1", "pimc@v1", "random"]
"""Who sits against ``heuristic@v1``, deal by deal in turn."""

ENUMERATE = 20_000
"""The hidden hands are listed, each checked, when there are at most this many."""

EXACT = 2_000
"""Every hand and every order of the stock is played when there are at most this many pairs."""

ACCEPT = 0.05
"""The least share of uniform hands found consistent for rejection sampling; below it, a chain."""

PILOT = 200
"""Uniform hands drawn to measure the share found consistent."""

BURN = 200
"""Steps of the chain before its first sample."""

THIN = 4
"""Steps of the chain between samples."""

BATCHES = 20
"""Batches of the batch-means standard error of a chain's samples."""

LIMIT = 400
"""The most actions a continuation plays before the deal counts as undecided (½)."""

TIE = 2.0
"""Standard errors of the paired difference within which an action ties with the best."""


def bin_of(stock: int) -> str:
    """The label of the stock-size bin of `stock` cards."""
    for low, high in BINS:
        if low <= stock <= high:
            return f"{low}-{high}"
    raise ValueError(f"no bin holds a stock of {stock}")


def rebuild(position: dict[str, Any]) -> State:
    """The state of a stored position: its deal dealt from its seed, its history replayed."""
    state: State = new_game(ConquianRules(), seed=position["seed"])
    for text in position["history"]:
        state = state.apply(text)
    return state


# -- making: the positions ------------------------------------------------------------------


def play_deal(seed: int, names: Sequence[str]) -> list[State]:
    """Play the deal of `seed` with the named bots in seats 0 and 1; every state where the
    seat to move has at least two legal actions and its opponent is ``heuristic@v1``."""
    agents = [make_agent(name, seed * 2 + seat) for seat, name in enumerate(names)]
    state: State = new_game(ConquianRules(), seed=seed)
    kept: list[State] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) >= 2 and names[(seat + 1) % len(names)] == "heuristic@v1":
            kept.append(state)
        state = state.apply(legal[0] if len(legal) == 1 else agents[seat](state.view(seat)))
    return kept


def pick_positions(count: int, seed: int) -> list[dict[str, Any]]:
    """`count` positions from deals of seeds ``seed, seed+1, ...``, at most one a deal,
    the bins filled in equal shares (the emptiest bin a deal offers is served first)."""
    rng = random.Random(seed)
    want = {
        bin_of(low): count // len(BINS) + (i < count % len(BINS)) for i, (low, _) in enumerate(BINS)
    }
    have = dict.fromkeys(want, 0)
    positions: list[dict[str, Any]] = []
    deal = seed
    while len(positions) < count:
        names = ["heuristic@v1", OPPONENTS[(deal - seed) % len(OPPONENTS)]]
        if rng.random() < 0.5:
            names.reverse()
        by_bin: dict[str, list[State]] = {}
        for state in play_deal(deal, names):
            label = bin_of(state.pack_size)
            if have[label] < want[label]:
                by_bin.setdefault(label, []).append(state)
        if by_bin:
            label = min(by_bin, key=lambda b: (have[b] / want[b], b))
            state = rng.choice(by_bin[label])
            seat = state.current_player
            positions.append(
                {
                    "seed": deal,
                    "players": names,
                    "seat": seat,
                    "stock": state.pack_size,
                    "bin": label,
                    "history": [str(a) for a in state.history],
                }
            )
            have[label] += 1
        deal += 1
    return positions


# -- making: the hidden hands consistent with the opponent's choices --------------------------


class Position:
    """A stored position seen from the seat to move: its view, the deals it allows
    (`OfferDeals`), and the check of a hidden hand against the opponent's past choices."""

    def __init__(self, position: dict[str, Any]) -> None:
        self.state = rebuild(position)
        self.seat: int = position["seat"]
        self.view: PlayerView = self.state.view(self.seat)
        self.opponent = (self.seat + 1) % len(self.view.hand_sizes)  # his left neighbour
        self.deals = OfferDeals(self.view)
        self.unseen: list[Card] = sorted(self.view.unseen)
        self.hidden: int = self.deals.hidden
        still = set(self.unseen)
        self.true_hand = sorted(c for c in self.state.hand(self.opponent) if c in still)
        self.policy = HeuristicV1()
        self.checks = 0

    def replay(self, hand: Sequence[Card], stock: Sequence[Card], check: bool) -> State | None:
        """The position on the deal where the opponent hides `hand` and the stock is `stock`
        in that order; None if `check` and the opponent, holding `hand`, would not have made
        one of his past choices as ``heuristic@v1``."""
        if check:
            self.checks += 1
        state: State = self.deals(hand, stock, None)
        for action in self.view.history:
            if check and state.current_player == self.opponent:
                legal = state.legal_actions()
                if len(legal) > 1 and self.policy(state.view(self.opponent)) != action:
                    return None
            try:
                state = state.apply(action)
            except ValueError:
                return None
        return state

    def rest(self, hand: Sequence[Card]) -> list[Card]:
        """The unseen cards not in `hand`: the stock's cards."""
        held = set(hand)
        return [c for c in self.unseen if c not in held]

    def consistent(self, hand: Sequence[Card]) -> bool:
        """Whether the opponent, holding `hand`, would have made all his past choices."""
        return self.replay(hand, self.rest(hand), True) is not None


def _shuffled(cards: list[Card], rng: random.Random) -> list[Card]:
    cards = list(cards)
    rng.shuffle(cards)
    return cards


def value(position: dict[str, Any], samples: int, rng: random.Random) -> dict[str, Any]:
    """Value every legal action of `position` (see the module); the method and the values."""
    start = time.process_time()
    here = Position(position)
    legal = here.view.legal_actions
    seat, hidden, unseen = here.seat, here.hidden, here.unseen
    if not here.consistent(here.true_hand):
        raise AssertionError(f"the true hand of deal {position['seed']} fails its own check")
    candidates = math.comb(len(unseen), hidden)
    stock_size = len(unseen) - hidden
    method: dict[str, Any] = {"candidates": candidates}
    deals: list[State] = []
    iid = True
    if candidates <= ENUMERATE:
        hands = [list(h) for h in combinations(unseen, hidden) if here.consistent(h)]
        method["hands"] = len(hands)
        orders = math.factorial(stock_size)
        if len(hands) * orders <= EXACT:
            method["kind"] = "exact"
            for hand in hands:
                for stock in permutations(here.rest(hand)):
                    state = here.replay(hand, stock, False)
                    assert state is not None
                    deals.append(state)
        else:
            method["kind"] = "enumerated"
            for _ in range(samples):
                hand = rng.choice(hands)
                state = here.replay(hand, _shuffled(here.rest(hand), rng), False)
                assert state is not None
                deals.append(state)
    else:
        accepted = sum(here.consistent(sorted(rng.sample(unseen, hidden))) for _ in range(PILOT))
        method["pilot"] = [accepted, PILOT]
        if accepted >= ACCEPT * PILOT:
            method["kind"] = "rejection"
            tries = 0
            while len(deals) < samples:
                tries += 1
                hand = sorted(rng.sample(unseen, hidden))
                found = here.replay(hand, _shuffled(here.rest(hand), rng), True)
                if found is not None:
                    deals.append(found)
            method["tries"] = tries
        else:
            iid = False
            method["kind"] = "chain"
            hand = list(here.true_hand)
            steps = moved = 0

            def step() -> None:
                nonlocal hand, steps, moved
                steps += 1
                out = rng.randrange(hidden)
                rest = here.rest(hand)
                proposal = sorted([*hand[:out], *hand[out + 1 :], rng.choice(rest)])
                if here.consistent(proposal):
                    hand, moved = proposal, moved + 1

            for _ in range(BURN):
                step()
            distinct: set[tuple[Card, ...]] = set()
            for _ in range(samples):
                for _ in range(THIN):
                    step()
                distinct.add(tuple(hand))
                state = here.replay(hand, _shuffled(here.rest(hand), rng), False)
                assert state is not None
                deals.append(state)
            method.update(
                steps=steps, moved=moved, burn=BURN, thin=THIN, distinct_hands=len(distinct)
            )
    method["samples"] = len(deals)
    method["checks"] = here.checks
    policy = here.policy
    worth: list[list[float]] = [[] for _ in legal]
    for state in deals:
        for k, action in enumerate(legal):
            final = _rollout(state.apply(action), policy, LIMIT)
            worth[k].append(_worth(final, seat, 0.5))
    exact = method["kind"] == "exact"
    means = [sum(w) / len(w) for w in worth]
    best = max(range(len(legal)), key=lambda k: means[k])
    actions = []
    for k, action in enumerate(legal):
        diff = [b - w for b, w in zip(worth[best], worth[k], strict=True)]
        se = 0.0 if exact else standard_error(worth[k], iid)
        diff_se = 0.0 if exact else standard_error(diff, iid)
        gap = means[best] - means[k]
        actions.append(
            {
                "action": str(action),
                "value": round(means[k], 6),
                "se": round(se, 6),
                "diff_se": round(diff_se, 6),
                "tied": k == best or gap <= TIE * diff_se + 1e-12,
            }
        )
    if not iid:
        method["lag1"] = round(lag1(worth[best]), 4)
    method["cpu"] = round(time.process_time() - start, 2)
    return {**position, "method": method, "best": str(legal[best]), "actions": actions}


def standard_error(xs: Sequence[float], iid: bool) -> float:
    """The standard error of the mean of `xs`: of independent draws if `iid`, else the larger
    of that and the batch-means error over `BATCHES` consecutive batches (a chain's draws
    are correlated)."""
    n = len(xs)
    mean = sum(xs) / n
    plain = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, n - 1) / n)
    if iid:
        return plain
    size = n // BATCHES
    batch = [sum(xs[i * size : (i + 1) * size]) / size for i in range(BATCHES)]
    bmean = sum(batch) / BATCHES
    between = math.sqrt(sum((b - bmean) ** 2 for b in batch) / (BATCHES - 1) / BATCHES)
    return max(plain, between)


def lag1(xs: Sequence[float]) -> float:
    """The lag-one autocorrelation of `xs` (0 when they do not vary)."""
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs)
    if var == 0:
        return 0.0
    return sum((xs[i] - mean) * (xs[i + 1] - mean) for i in range(n - 1)) / var


def make(args: argparse.Namespace) -> None:
    """Pick the positions, then value them one by one, writing `args.out` after each."""
    out = Path(args.out)
    settings = {"positions": args.positions, "seed": args.seed, "samples": args.samples}
    done: list[dict[str, Any]] = []
    if out.exists():
        old = json.loads(out.read_text())
        if old.get("settings") == settings:
            done = old["positions"]
    positions = pick_positions(args.positions, args.seed)
    print(f"{len(positions)} positions picked, {len(done)} already valued", flush=True)
    for i in range(len(done), len(positions)):
        rng = random.Random(args.seed * 1_000_003 + i)
        valued = value(positions[i], args.samples, rng)
        done.append(valued)
        method = valued["method"]
        print(
            f"{i + 1}/{len(positions)} deal {valued['seed']} stock {valued['stock']} "
            f"{len(valued['actions'])} actions {method['kind']} of {method['candidates']} hands "
            f"samples {method['samples']} cpu {method['cpu']} s",
            flush=True,
        )
        write(out, settings, done)


def write(out: Path, settings: dict[str, Any], positions: list[dict[str, Any]]) -> None:
    """Write the suite to `out` (through a temporary file, so a crash leaves the last one)."""
    suite = {
        "game": "two-hand Conquian, ConquianRules()",
        "valued_by": "heuristic@v1 in both seats; score 1 won, 0 lost, 0.5 tableau (T12)",
        "bins": [bin_of(low) for low, _ in BINS],
        "settings": settings,
        "cpu": round(sum(p["method"]["cpu"] for p in positions), 1),
        "positions": positions,
    }
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(suite, indent=1) + "\n")
    tmp.replace(out)


# -- scoring --------------------------------------------------------------------------------


def regret(position: dict[str, Any], choice: str) -> float:
    """The regret of choosing `choice` in `position`: the best value less its value, 0 when
    it ties with the best."""
    best = max(a["value"] for a in position["actions"])
    for a in position["actions"]:
        if a["action"] == choice:
            return 0.0 if a["tied"] else best - a["value"]
    raise ValueError(f"{choice!r} is not a legal action of deal {position['seed']}")


def mean_interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of `xs` and its 95% interval (normal)."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def score_agent(name: str, positions: list[dict[str, Any]], seed: int) -> list[float]:
    """The regrets of the bot `name` in each position (a fresh bot for each, seeded by
    `seed` and the position's index)."""
    regrets = []
    for i, position in enumerate(positions):
        view = rebuild(position).view(position["seat"])
        agent = make_agent(name, seed + i)
        regrets.append(regret(position, str(agent(view))))
    return regrets


def describe(suite: dict[str, Any]) -> list[str]:
    """Lines on how the suite's positions were valued, bin by bin: how many, by which
    method, the deals played an action, the actions a position, the share of positions
    where every action ties with the best, and the CPU time."""
    lines = []
    for label in [*suite["bins"], "all"]:
        group = [p for p in suite["positions"] if label in ("all", p["bin"])]
        kinds = [p["method"]["kind"] for p in group]
        methods = ", ".join(
            f"{kinds.count(k)} {k}"
            for k in ("exact", "enumerated", "rejection", "chain")
            if k in kinds
        )
        deals = sorted(p["method"]["samples"] for p in group)
        actions = sum(len(p["actions"]) for p in group) / len(group)
        all_tied = sum(all(a["tied"] for a in p["actions"]) for p in group) / len(group)
        cpu = sum(p["method"]["cpu"] for p in group)
        lines.append(
            f"stock {label}: {len(group)} positions ({methods}); deals an action "
            f"{deals[0]}-{deals[-1]}; {actions:.1f} actions a position; "
            f"every action tied in {all_tied:.0%}; CPU {cpu:.0f} s"
        )
    return lines


def score(args: argparse.Namespace) -> None:
    """Print how the suite was valued, then the table of mean regrets."""
    suite = json.loads(Path(args.suite).read_text())
    positions = suite["positions"]
    bins = suite["bins"]
    for line in describe(suite):
        print(line)
    print()
    names = args.agents.split(",")
    rows = []
    for name in names:
        start = time.process_time()
        regrets = score_agent(name, positions, args.seed)
        cells = [mean_interval(regrets)]
        for label in bins:
            cells.append(
                mean_interval(
                    [r for r, p in zip(regrets, positions, strict=True) if p["bin"] == label]
                )
            )
        best = sum(r == 0 for r in regrets) / len(regrets)
        rows.append((name, cells, best, time.process_time() - start))
    counts = [len(positions)] + [sum(p["bin"] == b for p in positions) for b in bins]
    head = (
        ["bot", f"all ({counts[0]})"]
        + [f"stock {b} ({n})" for b, n in zip(bins, counts[1:], strict=True)]
        + ["best or tied", "CPU s"]
    )
    table = [
        [name]
        + [f"{m:.4f} [{lo:.4f}, {hi:.4f}]" for m, lo, hi in cells]
        + [f"{best:.1%}", f"{cpu:.1f}"]
        for name, cells, best, cpu in rows
    ]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        for row in table:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in [head, *table]) for i in range(len(head))]
        for row in [head, *table]:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))


def main(argv: Sequence[str] | None = None) -> None:
    """The command line (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="pick the positions and value their actions")
    m.add_argument("--positions", type=int, default=220)
    m.add_argument("--seed", type=int, default=3700)
    m.add_argument("--samples", type=int, default=4000, help="deals an action (sampled)")
    m.add_argument("--out", default="benchmarks/positions.json")
    s = sub.add_parser("score", help="the mean regret of bots on the suite")
    s.add_argument("--agents", default="heuristic@v1,pimc@v1,search,heuristic,random")
    s.add_argument("--suite", default="benchmarks/positions.json")
    s.add_argument("--seed", type=int, default=1, help="the bots' seeds start here")
    s.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "make":
        make(args)
    else:
        score(args)


if __name__ == "__main__":
    sys.exit(main())
