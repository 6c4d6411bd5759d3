"""Bots and simulation: agents that play from a `PlayerView`, `play` and `simulate`.

An **agent** is any callable that takes a `PlayerView` and returns one of its
`legal_actions`. It is given what its seat may know (RULES.md C6) and never a
state, so a bot cannot look at hidden cards. Two agents come with the library:

- `RandomAgent`, uniform over the legal actions, seeded and reproducible;
- `HeuristicAgent`, which plays after Foster's "suggestions for good play"
  (1913) and the two-hand advice of Hoyle (1897) and pagat.

`play` runs one deal between agents and returns the finished state;
`simulate` runs many seeded deals, on several processes if asked, and sums
them up in a `SimulationSummary`.

>>> rules = ConquianRules()
>>> final = play([HeuristicAgent(), RandomAgent(seed=1)], rules, seed=7)
>>> final.is_over
True
>>> summary = simulate(["heuristic", "random"], rules, games=4, seed=1)
>>> summary.games, sum(summary.wins) + summary.tableaus
(4, 4)
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from itertools import combinations
from multiprocessing import get_context
from typing import Any, Protocol, TypeAlias, cast, runtime_checkable

import attrs

from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take
from .cards import JOKER, Card, Face, NamedJoker, pip_value
from .combos import Combination, Kind, Order, build, extend, extensions, fitting, melds_in
from .combos import borrow as borrow_from
from .combos import borrowable as borrowable_from
from .game import new_game
from .rules import ConquianRules, CooncanRules, Rules
from .state import Outcome, PlayerView, State

__all__ = [
    "AGENTS",
    "Agent",
    "AgentFactory",
    "HeuristicAgent",
    "RandomAgent",
    "SimulationSummary",
    "make_agent",
    "play",
    "simulate",
    "wilson_interval",
]


@runtime_checkable
class Agent(Protocol):
    """A player: a callable from a `PlayerView` to one of its `legal_actions`.

    Agents only ever see views (RULES.md C6), never states. Any function
    with this shape is an agent:

    >>> def first(view: PlayerView) -> Action:
    ...     return view.legal_actions[0]
    >>> isinstance(first, Agent), isinstance(RandomAgent(seed=1), Agent)
    (True, True)
    """

    def __call__(self, view: PlayerView) -> Action:
        """The action this agent chooses in `view`; a member of ``view.legal_actions``."""
        ...  # pragma: no cover


AgentFactory: TypeAlias = Callable[[int], Agent]
"""Makes a fresh agent from a seed: `RandomAgent` and `HeuristicAgent` are factories."""


def _no_actions(view: PlayerView) -> ValueError:
    return ValueError(
        f"seat {view.player} has no legal action: it is not his turn, or the deal is over"
    )


class RandomAgent:
    """Chooses uniformly among the legal actions, from its own seeded random source.

    Two agents made with the same seed make the same choices in the same
    views, so games between random agents are reproducible.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> view = state.view(state.current_player)
    >>> RandomAgent(seed=3)(view) == RandomAgent(seed=3)(view)
    True
    >>> RandomAgent(seed=3)(view) in view.legal_actions
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __call__(self, view: PlayerView) -> Action:
        """A legal action of `view`, each with the same chance."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        return actions[int(self._rng.random() * len(actions))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


# -- what the heuristic reads in a view -------------------------------------------------


class _View(Protocol):
    """The fields both engines' views have (the `PlayerView` base declares only three)."""

    @property
    def player(self) -> int: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def table(self) -> tuple[Combination, ...]: ...
    @property
    def history(self) -> tuple[Action, ...]: ...
    @property
    def legal_actions(self) -> tuple[Action, ...]: ...
    @property
    def unseen(self) -> tuple[Card, ...]: ...


class _TwoHandView(_View, Protocol):
    @property
    def rules(self) -> ConquianRules: ...
    @property
    def offer(self) -> Card | None: ...
    @property
    def offer_origin(self) -> str | None: ...
    @property
    def pending(self) -> tuple[Card, ...]: ...
    @property
    def stock_size(self) -> int: ...


class _CooncanView(_View, Protocol):
    @property
    def rules(self) -> CooncanRules: ...
    @property
    def phase(self) -> str: ...
    @property
    def stock(self) -> tuple[Card, ...]: ...
    @property
    def known(self) -> tuple[tuple[Card, ...], ...]: ...


_WIN = 1_000_000.0
_NEVER = -1_000_000_000.0

# A combination as far as fitting goes: ("g", rank) or ("s", suit, low, high) in positions.
_Target = tuple[Any, ...]
# A hand split into combinations: (score, cards left over, the combinations' targets).
_Parts = tuple[float, tuple[Card, ...], tuple[_Target, ...]]


def _physical(face: Face) -> Card:
    return JOKER if isinstance(face, NamedJoker) else face


def _remove(hand: tuple[Card, ...], used: Iterable[Card]) -> tuple[Card, ...] | None:
    """The hand without `used` (a multiset), or None if it does not hold them."""
    left = list(hand)
    for c in used:
        try:
            left.remove(c)
        except ValueError:
            return None
    return tuple(left)


def _f(outs: float) -> float:
    """How much a partial combination with `outs` live cards to fill it is worth (0..1)."""
    return outs / (outs + 1.0)


class _Brain:
    """What both games' heuristics share: the hand analysis (combinations, partials, outs)."""

    def __init__(self, view: _View, order: Order, pair_weight: float, run_weight: float) -> None:
        self.me = view.player
        self.order = order
        self.pair_weight = pair_weight
        self.run_weight = run_weight
        self.live: Counter[Card] = Counter(view.unseen)
        rank_live: Counter[int] = Counter()
        for c, n in self.live.items():
            if c.suit is not None:
                rank_live[c.rank] += n
        self.rank_live = rank_live
        self._parts: dict[tuple[Card, ...], _Parts] = {}

    # positions of a card in sequences: the ace may also stand above the king (C4)
    def _positions(self, c: Card) -> tuple[int, ...]:
        p = self.order.position[c.rank]
        if c.rank == 1 and self.order.ace_high:
            return (p, 13)
        return (p,)

    def _live_at(self, pos: int, suit: Any) -> int:
        if not 0 <= pos <= self.order.top:
            return 0
        return self.live[self.order.card_at(pos, suit)]

    def partition(self, cards: tuple[Card, ...]) -> _Parts:
        """The best split of natural cards into combinations: (score, leftovers, targets).

        The score counts the cards covered, sequence cards weighted by `run_weight`.
        """
        hit = self._parts.get(cards)
        if hit is not None:
            return hit
        if len(cards) < 3:
            result: _Parts = (0.0, cards, ())
            self._parts[cards] = result
            return result
        first, rest = cards[0], cards[1:]
        score, left, targets = self.partition(rest)
        best = (score, (first, *left), targets)
        order = self.order
        # groups holding the first card (C3)
        same = [i for i, x in enumerate(rest) if x.rank == first.rank]
        if len(same) >= 2:
            tried: set[tuple[Card, ...]] = set()
            for k in range(2, len(same) + 1):
                for pick in combinations(same, k):
                    key = tuple(rest[i] for i in pick)
                    if key in tried:
                        continue
                    tried.add(key)
                    remaining = tuple(x for i, x in enumerate(rest) if i not in pick)
                    s, lf, tg = self.partition(remaining)
                    s += k + 1
                    if s > best[0]:
                        best = (s, lf, (*tg, ("g", first.rank)))
        # sequences with the first card at their low end (or, for an ace, at the high end)
        suit = first.suit
        starts = [(order.position[first.rank], 1)]
        if first.rank == 1 and order.ace_high:
            starts.append((13, -1))
        for start, step in starts:
            chain: list[int] = []
            pos = start + step
            while 0 <= pos <= order.top and not (start == 0 and pos == 13):
                rank = order.rank_at[pos]
                j = next(
                    (
                        i
                        for i, x in enumerate(rest)
                        if x.suit is suit and x.rank == rank and i not in chain
                    ),
                    None,
                )
                if j is None:
                    break
                chain.append(j)
                if len(chain) >= 2:
                    remaining = tuple(x for i, x in enumerate(rest) if i not in chain)
                    s, lf, tg = self.partition(remaining)
                    n = len(chain) + 1
                    s += n * self.run_weight
                    if s > best[0]:
                        low, high = (start, pos) if step > 0 else (pos, start)
                        best = (s, lf, (*tg, ("s", suit, low, high)))
                pos += step
        self._parts[cards] = best
        return best

    def shed(
        self, left: tuple[Card, ...], targets: Iterable[_Target]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """The leftover cards that can be added to these combinations, and the others."""
        rest = list(left)
        shed: list[Card] = []
        order = self.order
        for t in targets:
            if not rest:
                break
            if t[0] == "g":
                for c in [c for c in rest if c.rank == t[1]]:
                    rest.remove(c)
                    shed.append(c)
                continue
            _, suit, low, high = t
            pos = high + 1
            while pos <= order.top and not (pos == 13 and low == 0):
                c = order.card_at(pos, suit)
                if c not in rest:
                    break
                rest.remove(c)
                shed.append(c)
                pos += 1
            pos = low - 1
            while pos >= 0 and not (pos == 0 and high == 13):
                c = order.card_at(pos, suit)
                if c not in rest:
                    break
                rest.remove(c)
                shed.append(c)
                pos -= 1
        return tuple(shed), tuple(rest)

    def partials(self, rest: tuple[Card, ...]) -> tuple[list[float], list[bool]]:
        """For each card left over: its worth as part of a pair or a near-sequence, and
        whether it is dead (no pair or near-sequence that a live card could still fill)."""
        values: list[float] = []
        dead: list[bool] = []
        for i, x in enumerate(rest):
            best = 0.0
            alive = False
            xs = self._positions(x)
            for j, y in enumerate(rest):
                if i == j:
                    continue
                if y.rank == x.rank:
                    outs = self.rank_live[x.rank]
                    if outs:
                        alive = True
                        best = max(best, self.pair_weight * _f(outs))
                    continue
                if y.suit is not x.suit:
                    continue
                for px in xs:
                    for py in self._positions(y):
                        lo, hi = min(px, py), max(px, py)
                        if hi - lo == 1:
                            outs = self._live_at(lo - 1, x.suit) + self._live_at(hi + 1, x.suit)
                        elif hi - lo == 2:
                            outs = self._live_at(lo + 1, x.suit)
                        else:
                            continue
                        if outs:
                            alive = True
                            best = max(best, self.run_weight * 0.5 * _f(outs))
            if best == 0.0:
                near = self.rank_live[x.rank] + sum(
                    self._live_at(p + d, x.suit) for p in xs for d in (-2, -1, 1, 2)
                )
                best = 0.1 * near / (near + 3.0)
            values.append(best)
            dead.append(not alive)
        return values, dead

    def target(self, combo: Combination) -> _Target:
        """What matters of a combination for the cards that may be added to it."""
        if combo.kind is Kind.GROUP:
            return ("g", combo.cards[0].rank)
        first, last = combo.cards[0], combo.cards[-1]
        low = self.order.position[first.rank]
        high = 13 if last.rank == 1 and len(combo.cards) > 1 else self.order.position[last.rank]
        return ("s", first.suit, low, high)


# -- the two-hand game ---------------------------------------------------------------------


class _TwoHand(_Brain):
    """Foster's advice for two players (pp. 56–64), Hoyle 1897 and pagat's tactics."""

    def __init__(self, view: _TwoHandView) -> None:
        rules = view.rules
        super().__init__(
            view, Order.of(rules.pack, rules.max_sequence), pair_weight=0.8, run_weight=1.05
        )
        self.view = view
        self.rules = rules
        self.win = rules.win_size
        me = view.player
        self.opp = 1 - me
        self.mine = tuple(m for m in view.table if m.owner == me)
        theirs = tuple(m for m in view.table if m.owner != me)
        self.opp_melded = sum(len(m.cards) for m in theirs)
        self.opp_hand = view.hand_sizes[self.opp]
        self.opp_fit: set[Card] = set()
        for m in theirs:
            self.opp_fit.update(fitting(m, self.order))
        self.unseen_count = max(1, len(view.unseen))
        self._evals: dict[Any, float] = {}
        self._ends: dict[Any, float] = {}
        self._searches: dict[Any, float] = {}
        # A hopeless hand plays for a tableau (Foster p. 60; pagat's "defensive play").
        left = self.partition(tuple(sorted(view.hand)))[1]
        _, rest = self.shed(left, [self.target(m) for m in self.mine])
        _, dead = self.partials(rest)
        n_dead = sum(dead)
        self.hopeless = n_dead >= 6 or (n_dead >= 4 and 2 * n_dead > view.stock_size + 1)

    # the worth of a position to me, in cards melded or as good as melded
    def value(self, hand: tuple[Card, ...], melds: tuple[Combination, ...]) -> float:
        key = (hand, melds)
        hit = self._evals.get(key)
        if hit is not None:
            return hit
        melded = sum(len(m.cards) for m in melds)
        if melded >= self.win:
            v = _WIN
        else:
            score, left, in_hand = self.partition(hand)
            targets = [self.target(m) for m in melds]
            shed, rest = self.shed(left, targets)
            values, _ = self.partials(rest)
            # Cards that could go down are worth a little more in the hand than on the
            # table, where they show the opponent what to block (Foster p. 63); under
            # pagat's rules they can only go down with a card taken, so less.
            kept = 1.02 if self.rules.lay_down == "say" else 0.8
            v = melded + kept * (score + len(shed)) + sum(values)
            v += 0.25 * self.extension_outs([*targets, *in_hand])
        self._evals[key] = v
        return v

    def extension_outs(self, targets: list[_Target]) -> int:
        """How many live cards would fit my melds: the ways to put the last card down."""
        outs = 0
        for t in targets:
            if t[0] == "g":
                outs += self.rank_live[t[1]]
            else:
                _, suit, low, high = t
                outs += self._live_at(low - 1, suit) + self._live_at(high + 1, suit)
        return outs

    def danger(self, c: Card) -> float:
        """What giving the opponent the choice of `c` may cost me (Foster p. 58)."""
        if c in self.opp_fit:
            if self.opp_hand == 0:
                return _WIN / 2  # it puts him out
            return 1.0 + (2.0 if self.opp_hand <= 2 else 0.0)
        m = self.rank_live[c.rank] + sum(
            self._live_at(p + d, c.suit) for p in self._positions(c) for d in (-2, -1, 1, 2)
        )
        p = min(1.0, self.opp_hand / self.unseen_count)
        at_least_two = 1.0 - (1.0 - p) ** m - m * p * (1.0 - p) ** max(0, m - 1)
        return 0.6 * max(0.0, at_least_two)

    def force_cost(self, c: Card) -> float:
        """What forcing `c` on the opponent costs me (T10): he melds it, then must discard."""
        if self.opp_melded + 1 >= self.win:
            return _WIN / 2  # the force would put him out (Foster p. 52)
        # Forcing a near-complete hand breaks it (Foster p. 57).
        return 1.0 - (0.8 if self.opp_hand <= 3 else -0.1)

    def end(self, hand: tuple[Card, ...], melds: tuple[Combination, ...]) -> float:
        """The best end of a turn with nothing pending: a discard or a force (T8)."""
        key = (hand, melds)
        hit = self._ends.get(key)
        if hit is not None:
            return hit
        melded = sum(len(m.cards) for m in melds)
        if melded >= self.win:
            return _WIN
        if self.rules.lay_down == "say" and melded + len(hand) >= self.win:
            _, left, targets = self.partition(hand)
            _, rest = self.shed(left, [*targets, *(self.target(m) for m in melds)])
            if not rest:
                return _WIN - 1
        care = 3.0 if self.hopeless else 1.0
        best = _NEVER
        for i, d in enumerate(hand):
            rest_hand = hand[:i] + hand[i + 1 :]
            base = self.value(rest_hand, melds)
            v = base - care * self.danger(d)
            if d in self.opp_fit:
                v = max(v, base - care * self.force_cost(d))
            best = max(best, v)
        self._ends[key] = best
        return best

    def search(
        self,
        hand: tuple[Card, ...],
        melds: tuple[Combination, ...],
        pending: tuple[Card, ...],
        borrowed: bool,
        depth: int = 0,
    ) -> float:
        """The best end of my turn from here, melding the pending cards (T8, T9)."""
        melds = tuple(sorted(melds, key=lambda m: tuple(c.index for c in m.cards)))  # type: ignore[union-attr]
        if sum(len(m.cards) for m in melds) >= self.win:
            return _WIN
        if not pending:
            return self.end(hand, melds)
        if depth > 5:
            return _NEVER
        key = (hand, melds, pending, borrowed)
        hit = self._searches.get(key)
        if hit is not None:
            return hit
        best = _NEVER
        pool = tuple(sorted(hand + pending))
        pend = set(pending)
        for m in melds_in(pool, self.order, self.me):
            used = set(m.physical_cards)
            if used & pend:
                v = self.search(
                    tuple(c for c in hand if c not in used),
                    (*melds, m),
                    tuple(c for c in pending if c not in used),
                    borrowed,
                    depth + 1,
                )
                best = max(best, v)
        for i, m in enumerate(melds):
            for ext in extensions(m, pool, self.order):
                used = set(cast(tuple[Card, ...], ext))
                if not used & pend:
                    continue
                bigger = extend(m, ext, self.order)
                if bigger is None:
                    continue
                v = self.search(
                    tuple(c for c in hand if c not in used),
                    (*melds[:i], bigger, *melds[i + 1 :]),
                    tuple(c for c in pending if c not in used),
                    borrowed,
                    depth + 1,
                )
                best = max(best, v)
        if best == _NEVER and not borrowed:
            for i, m in enumerate(melds):
                for c in borrowable_from(m, self.rules.borrow_middle):
                    pieces = borrow_from(m, c, self.rules.borrow_middle)
                    if pieces is None:
                        continue
                    v = self.search(
                        hand, (*melds[:i], *pieces, *melds[i + 1 :]), (*pending, c), True, depth + 1
                    )
                    best = max(best, v)
        self._searches[key] = best
        return best

    def choose(self) -> Action:
        view = self.view
        hand = tuple(sorted(view.hand))
        mine = self.mine
        offer = view.offer
        scored: list[tuple[float, int, Action]] = []
        if offer is not None:  # the say (T4–T7)
            base = self.value(hand, mine)
            for k, a in enumerate(view.legal_actions):
                if isinstance(a, Take):
                    v = self.search(hand, mine, (a.card,), False)
                    if self.hopeless and v < _WIN / 2:
                        v = _NEVER / 2  # playing for a tableau: use nothing (Foster p. 60)
                elif isinstance(a, Pass):
                    v = base
                    if view.offer_origin == "turned":
                        v -= self.danger(offer)  # he gets the say to it (T5)
                elif isinstance(a, Force):
                    if self.opp_melded + 1 >= self.win:
                        v = _NEVER / 2
                    elif self.hopeless:
                        v = base - 1.0
                    elif view.offer_origin == "passed":
                        v = base + 0.6  # he refused it: force him with it (Foster p. 56)
                    else:
                        v = base + (0.3 if self.opp_hand <= 3 else -0.2)
                else:
                    v = _NEVER / 4  # never show cards while only having the say (Foster p. 63)
                scored.append((v, -k, a))
        else:  # melding, then ending the turn
            pending = tuple(sorted(view.pending))
            table = view.table
            for k, a in enumerate(view.legal_actions):
                v = _NEVER / 4
                if isinstance(a, Meld):
                    used = [_physical(f) for f in a.cards]
                    if a.onto is None:
                        made = build(a.cards, self.order, self.me)
                        melds = (*mine, made) if made is not None else None
                    else:
                        target = table[a.onto]
                        bigger = extend(target, a.cards, self.order)
                        melds = (
                            tuple(bigger if m is target else m for m in mine)
                            if bigger is not None
                            else None
                        )
                    if melds is not None:
                        v = self.search(
                            tuple(c for c in hand if c not in used),
                            melds,
                            tuple(c for c in pending if c not in used),
                            False,
                        )
                        if not set(used) & set(pending) and v < _WIN / 2:
                            v -= 0.3  # showing more than needed (Foster p. 63)
                elif isinstance(a, Borrow):
                    target = table[a.source]
                    pieces = borrow_from(target, a.card, self.rules.borrow_middle)
                    if pieces is not None:
                        i = mine.index(target)
                        melds = (*mine[:i], *pieces, *mine[i + 1 :])
                        v = self.search(hand, melds, (*pending, a.card), True)
                elif isinstance(a, Discard):
                    left = _remove(hand, (a.card,))
                    if left is not None:
                        care = 3.0 if self.hopeless else 1.0
                        v = self.value(left, mine) - care * self.danger(a.card)
                elif isinstance(a, Force):
                    c = _physical(a.card)
                    left = _remove(hand, (c,))
                    if left is not None:
                        care = 3.0 if self.hopeless else 1.0
                        v = self.value(left, mine) - care * self.force_cost(c)
                scored.append((v, -k, a))
        return max(scored, key=lambda t: (t[0], t[1]))[2]


# -- Cooncan ---------------------------------------------------------------------------------


class _Cooncan(_Brain):
    """Foster's advice for three players and the double pack (pp. 12–47)."""

    def __init__(self, view: _CooncanView) -> None:
        rules = view.rules
        double = rules.variant == "double-pack"
        # With one pack a sequence fills as often as a group (p. 38); with two,
        # a pair has six live mates and a sequence end only two: groups.
        super().__init__(
            view,
            Order.of("standard"),
            pair_weight=1.25 if double else 1.0,
            run_weight=0.9 if double else 1.0,
        )
        self.view = view
        self.rules = rules
        me = view.player
        n = rules.players
        self.next_seat = (me + 1) % n
        self.others = [s for s in range(n) if s != me]
        self.open_stock = rules.stock == "open"
        for c in view.stock[-1:] if not self.open_stock else view.stock:
            self.live[c] += 1
            if c.suit is not None:
                self.rank_live[c.rank] += 1
        self.targets = tuple(self.target(m) for m in view.table)
        self._values: dict[Any, float] = {}
        self._ends: dict[Any, float] = {}
        self._outs: dict[Any, bool] = {}
        hand = tuple(sorted(view.hand))
        naturals = tuple(c for c in hand if c is not JOKER)
        _, left, targets = self.partition(naturals)
        _, rest = self.shed(left, (*self.targets, *targets))
        _, dead = self.partials(rest)
        size = max(1, len(hand))
        self.hopeless = sum(dead) >= max(3, (size + 1) // 2)
        shortest = min(view.hand_sizes[s] for s in self.others)
        shown = sum(len(m.cards) for m in view.table if m.owner != me)
        # Holding combinations up is Foster's advice (p. 18) until someone is close to going out.
        self.risk = 0.03
        if shortest <= 3 or self.hopeless:
            self.risk = 0.3
        elif shown >= 6 or shortest <= 5:
            self.risk = 0.12
        self.pip_weight = 0.3 if self.hopeless else 0.05  # shed high cards (pp. 13, 17, 42)

    def _split(
        self, hand: tuple[Card, ...], targets: tuple[_Target, ...]
    ) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], int]:
        """(covered in hand, shed onto the table, leftovers, partial pairs used by jokers)."""
        naturals = tuple(c for c in hand if c is not JOKER)
        jokers = len(hand) - len(naturals)
        _, left, in_hand = self.partition(naturals)
        covered = _remove(naturals, left) or ()
        shed, rest = self.shed(left, (*targets, *in_hand))
        used_by_jokers: list[Card] = []
        spare = jokers
        rest_list = list(rest)
        while spare and rest_list:
            pair = self._joker_pair(rest_list)
            if pair is None:
                break
            for c in pair:
                rest_list.remove(c)
                used_by_jokers.append(c)
            spare -= 1
        return covered, shed, tuple(rest_list), tuple(used_by_jokers), jokers

    def _joker_pair(self, rest: list[Card]) -> tuple[Card, Card] | None:
        for i, x in enumerate(rest):
            for y in rest[i + 1 :]:
                if x.rank == y.rank:
                    return (x, y)
                if x.suit is y.suit and any(
                    0 < abs(px - py) <= 2 for px in self._positions(x) for py in self._positions(y)
                ):
                    return (x, y)
        return None

    def value(self, hand: tuple[Card, ...], targets: tuple[_Target, ...]) -> float:
        """Minus what this hand may cost me, in cards to get rid of and pips to pay (M7)."""
        key = (hand, targets)
        hit = self._values.get(key)
        if hit is not None:
            return hit
        covered, shed, rest, joined, jokers = self._split(hand, targets)
        values, _ = self.partials(rest)
        cost = 0.0
        for c, pv in zip(rest, values, strict=True):
            cost += 3.0 * (1.0 - 0.6 * min(pv, 1.0)) + self.pip_weight * pip_value(c)
        risk = self.risk
        cost += risk * sum(pip_value(c) for c in (*covered, *shed, *joined))
        cost += jokers * (risk * 15 - 3.0)  # a joker is worth keeping (law 17)
        v = -cost
        self._values[key] = v
        return v

    def can_go_out(
        self, hand: tuple[Card, ...], targets: tuple[_Target, ...], forbid: Card | None
    ) -> bool:
        """Whether every card can go down this turn, with at most one discard (M10)."""
        key = (hand, targets, forbid)
        hit = self._outs.get(key)
        if hit is not None:
            return hit
        rest = self._split(hand, targets)[2]
        out = not rest or (len(rest) == 1 and rest[0] is not forbid)
        self._outs[key] = out
        return out

    def danger(self, c: Card) -> float:
        """What discarding `c` may give away: cards the others are known to collect (p. 42)."""
        if c is JOKER:
            return 10.0
        total = 0.0
        known = self.view.known
        for seat in self.others:
            weight = 1.0 if seat == self.next_seat or self.open_stock else 0.3
            if self.view.hand_sizes[seat] <= 2:
                weight *= 2
            mates = 0
            for k in known[seat]:
                same_rank = k.rank == c.rank and k.suit is not None
                if same_rank or (
                    k.suit is c.suit
                    and any(
                        0 < abs(px - py) <= 2
                        for px in self._positions(c)
                        for py in self._positions(k)
                    )
                ):
                    mates += 1
            if mates:
                total += weight * (1.0 if mates == 1 else 3.0)
        return total

    def end(
        self, hand: tuple[Card, ...], targets: tuple[_Target, ...], forbid: Card | None
    ) -> float:
        """The best discard to end the turn with this hand (M2)."""
        key = (hand, targets, forbid)
        hit = self._ends.get(key)
        if hit is not None:
            return hit
        best = _NEVER
        for d in set(hand):
            if d is forbid:
                continue
            if len(hand) == 1:
                best = _WIN
                break
            left = _remove(hand, (d,))
            assert left is not None
            best = max(best, self.value(left, targets) - self.danger(d))
        self._ends[key] = best
        return best

    def after(
        self, hand: tuple[Card, ...], targets: tuple[_Target, ...], forbid: Card | None
    ) -> float:
        """The value of going on with the turn from this hand and table."""
        if not hand:
            return _WIN
        if self.can_go_out(hand, targets, forbid):
            return _WIN - len(hand)
        return self.end(hand, targets, forbid)

    def taken_this_turn(self) -> Card | None:
        for a in reversed(self.view.history):
            if isinstance(a, Take):
                return a.card
            if isinstance(a, (Draw, Discard)):
                return None
        return None

    def choose(self) -> Action:
        view = self.view
        hand = tuple(sorted(view.hand))
        targets = self.targets
        scored: list[tuple[float, int, Action]] = []
        if view.phase == "draw":
            draw_value = self.end(hand, targets, None) + 0.8
            for k, a in enumerate(view.legal_actions):
                if isinstance(a, Take):
                    more = tuple(sorted((*hand, a.card)))
                    v = self.after(more, targets, a.card)
                elif isinstance(a, Draw):
                    v = draw_value
                else:
                    v = _NEVER / 4
                scored.append((v, -k, a))
            return max(scored, key=lambda t: (t[0], t[1]))[2]
        forbid = self.taken_this_turn()
        table = view.table
        for k, a in enumerate(view.legal_actions):
            v = _NEVER / 4
            if isinstance(a, Meld):
                left = _remove(hand, (_physical(f) for f in a.cards))
                if left is not None:
                    if a.onto is None:
                        made = build(a.cards, self.order, self.me)
                        new = (*targets, self.target(made)) if made is not None else targets
                        exposure = 1.5
                    else:
                        bigger = extend(table[a.onto], a.cards, self.order)
                        new = targets
                        if bigger is not None:
                            new = (*targets[: a.onto], self.target(bigger), *targets[a.onto + 1 :])
                        exposure = 0.0
                    v = self.after(left, new, forbid)
                    if v < _WIN / 2:
                        v -= exposure
            elif isinstance(a, Force):
                left = _remove(hand, (_physical(a.card),))
                if left is not None:
                    bigger = extend(table[a.onto], (a.card,), self.order) if not a.shift else None
                    new = targets
                    if bigger is not None:
                        new = (*targets[: a.onto], self.target(bigger), *targets[a.onto + 1 :])
                    v = self.after(left, new, forbid)
            elif isinstance(a, Discard):
                left = _remove(hand, (a.card,))
                if left is not None:
                    v = _WIN if not left else self.value(left, targets) - self.danger(a.card)
            scored.append((v, -k, a))
        return max(scored, key=lambda t: (t[0], t[1]))[2]


class HeuristicAgent:
    """A bot that plays after Foster's "suggestions for good play" (1913).

    In every game it keeps the cards that can still fill a combination,
    counting only the cards it has not seen buried, discarded or shown
    (`PlayerView.unseen`), and lets go of dead ones first.

    - Two-hand (RULES.md T; Foster pp. 56–64, Hoyle 1897, pagat): it takes a
      card when melding it improves the hand, shows no more than needed,
      prefers sequences to triplets, forces a card the opponent refused and
      forces to break a near-complete position, avoids giving a card that
      fits a meld of an opponent whose hand is empty, and plays for a tableau
      (refusing everything) with a hopeless hand.
    - Cooncan (RULES.md M; Foster pp. 12–47): it takes a stock card that
      fills, holds combinations up until someone is close to going out,
      prefers sequences with one pack and groups with two, goes out as soon
      as it can, keeps cards the next player is known to want, and sheds its
      high cards early when it cannot win.

    It always returns one of ``view.legal_actions``. `seed`, if given,
    breaks ties between equally good actions at random; without it the
    first is chosen.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> view = state.view(state.current_player)
    >>> HeuristicAgent()(view) in view.legal_actions
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed) if seed is not None else None

    def __call__(self, view: PlayerView) -> Action:
        """The action this bot chooses in `view`."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        if len(actions) == 1:
            return actions[0]
        rules = getattr(view, "rules", None)
        brain: _TwoHand | _Cooncan
        if isinstance(rules, ConquianRules):
            brain = _TwoHand(cast(_TwoHandView, view))
        elif isinstance(rules, CooncanRules):
            brain = _Cooncan(cast(_CooncanView, view))
        else:
            raise TypeError(f"HeuristicAgent does not know the view {type(view).__name__}")
        choice = brain.choose()
        return choice if choice in actions else actions[0]

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed!r})"


AGENTS: Mapping[str, AgentFactory] = {"heuristic": HeuristicAgent, "random": RandomAgent}
"""The agents known by name to `simulate` and the command line."""


def make_agent(name: str, seed: int) -> Agent:
    """A new agent of a named kind (see `AGENTS`).

    >>> make_agent("random", seed=1)
    RandomAgent(seed=1)
    """
    try:
        factory = AGENTS[name]
    except KeyError:
        known = ", ".join(sorted(AGENTS))
        raise ValueError(f"unknown agent {name!r}: use one of {known}") from None
    return factory(seed)


# -- playing and simulating --------------------------------------------------------------


Observer: TypeAlias = Callable[[State, int, Action, State], None]


def _check_ends(rules: Rules) -> None:
    if isinstance(rules, CooncanRules) and rules.turn_limit is None:
        raise ValueError(
            "Cooncan rules need a turn_limit for bots, so that every deal ends (M11): "
            f"use {rules.variant.replace('-', '_')}(turn_limit=300)"
        )


def play(
    agents: Sequence[Agent],
    rules: Rules,
    seed: int | None = None,
    dealer: int = 0,
    *,
    deck: Sequence[Card] | None = None,
    observe: Observer | None = None,
) -> State:
    """Play one deal between `agents` (one per seat) and return its final state.

    Each agent only ever receives ``state.view(seat)`` for its own seat. The
    deal is made by `new_game` from `seed` or `deck` and `dealer`;
    `observe`, if given, is called after every action with (state before,
    seat, action, state after). Cooncan rules need a `turn_limit`, so that
    every deal ends.

    >>> final = play([RandomAgent(1), RandomAgent(2)], ConquianRules(), seed=7)
    >>> final.is_over, final.result.outcome in ("win", "tableau")
    (True, True)
    """
    if len(agents) != rules.players:
        raise ValueError(f"{rules.game} needs {rules.players} agents (got {len(agents)})")
    _check_ends(rules)
    state = new_game(rules, seed=seed, deck=deck, dealer=dealer)
    while state.current_player is not None:
        seat = state.current_player
        action = agents[seat](state.view(seat))
        after = state.apply(action)
        if observe is not None:
            observe(state, seat, action, after)
        state = after
    return state


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default `z`).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@attrs.frozen
class SimulationSummary:
    """What `simulate` found: wins per agent and per seat, and how the deals ended.

    `wins`, `payments` and `seat_wins` count per agent (in the order given
    to `simulate`) and per seat. Two summaries of the same run compare
    equal; `elapsed` (seconds) and `jobs` are left out of the comparison.

    >>> s = simulate(["random", "random"], ConquianRules(), games=2, seed=5)
    >>> s.games, s.agents, 0 <= s.mean_decisions
    (2, ('random', 'random'), True)
    """

    game: str
    agents: tuple[str, ...]
    games: int
    seed: int
    wins: tuple[int, ...]
    seat_wins: tuple[int, ...]
    payments: tuple[int, ...]
    tableaus: int
    abandoned: int
    decisions: int
    elapsed: float = attrs.field(default=0.0, eq=False)
    jobs: int = attrs.field(default=1, eq=False)

    @property
    def mean_decisions(self) -> float:
        """The mean number of actions per deal."""
        return self.decisions / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """How many deals were played per second of wall time."""
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    def win_rate(self, agent: int) -> float:
        """The share of deals won by the agent at this index."""
        return self.wins[agent] / self.games if self.games else 0.0

    def interval(self, agent: int) -> tuple[float, float]:
        """The 95% Wilson interval of that agent's win rate."""
        return wilson_interval(self.wins[agent], self.games)

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready data, rates and intervals included."""
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "jobs": self.jobs,
            "agents": [
                {
                    "agent": name,
                    "wins": self.wins[i],
                    "win_rate": self.win_rate(i),
                    "ci95": list(self.interval(i)),
                    "payments": self.payments[i],
                }
                for i, name in enumerate(self.agents)
            ],
            "seat_wins": list(self.seat_wins),
            "tableaus": self.tableaus,
            "abandoned": self.abandoned,
            "mean_decisions": self.mean_decisions,
            "elapsed": self.elapsed,
            "games_per_second": self.games_per_second,
        }


_MASK = (1 << 64) - 1


def _mix(*values: int) -> int:
    """A seed derived from several integers (splitmix64 steps): the same on every platform."""
    x = 0x9E3779B97F4A7C15
    for v in values:
        x = (x ^ (v & _MASK)) & _MASK
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
    return x >> 1


AgentSpec: TypeAlias = "str | AgentFactory"


def _factory(spec: AgentSpec) -> AgentFactory:
    if isinstance(spec, str):
        if spec not in AGENTS:
            known = ", ".join(sorted(AGENTS))
            raise ValueError(f"unknown agent {spec!r}: use one of {known}")
        return AGENTS[spec]
    if not callable(spec):
        raise TypeError(f"an agent is a name or a factory taking a seed (got {spec!r})")
    return spec


def _name(spec: AgentSpec) -> str:
    if isinstance(spec, str):
        return spec
    return str(getattr(spec, "__name__", repr(spec)))


# One game's tally: (winner agent or None, winner seat or None, outcome, payments per agent,
# decisions). A chunk's tally sums them.
_Tally = tuple[list[int], list[int], list[int], int, int, int]


def _run_chunk(
    specs: tuple[AgentSpec, ...], rules: Rules, seed: int, start: int, stop: int, rotate: bool
) -> _Tally:
    n = rules.players
    factories = [_factory(s) for s in specs]
    wins = [0] * n
    seat_wins = [0] * n
    payments = [0] * n
    tableaus = abandoned = decisions = 0
    for i in range(start, stop):
        shift = i % n if rotate else 0
        dealer = (i // n) % n if rotate else i % n
        seats: list[Agent | None] = [None] * n
        for j, make in enumerate(factories):
            seats[(j + shift) % n] = make(_mix(seed, i, j + 1))
        final = play(cast(list[Agent], seats), rules, seed=_mix(seed, i, 0), dealer=dealer)
        result = final.result
        assert result is not None
        decisions += len(final.history)
        for j in range(n):
            payments[j] += result.payments[(j + shift) % n]
        if result.outcome is Outcome.WIN:
            assert result.winner is not None
            seat_wins[result.winner] += 1
            wins[(result.winner - shift) % n] += 1
        elif result.outcome is Outcome.TABLEAU:
            tableaus += 1
        else:
            abandoned += 1
    return wins, seat_wins, payments, tableaus, abandoned, decisions


def simulate(
    agents: Sequence[AgentSpec],
    rules: Rules,
    games: int = 100,
    seed: int = 0,
    jobs: int = 1,
    *,
    rotate: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationSummary:
    """Play `games` seeded deals between agents and sum them up.

    `agents` gives one agent per seat: a name of `AGENTS` (``"heuristic"``,
    ``"random"``) or a factory called with a seed, such as `RandomAgent`.
    Every deal and every agent gets its own seed derived from `seed` and the
    deal's number, so a run is reproducible and gives the same summary with
    any number of `jobs` (processes, with `ProcessPoolExecutor`; factories
    must then be picklable: names and classes are). With `rotate` (the
    default) the agents change seats and the deal passes from game to game,
    so that no agent keeps a seat's advantage; results are counted per agent.
    `progress`, if given, is called with (deals done, deals) as they finish.

    >>> s = simulate([RandomAgent, "heuristic"], ConquianRules(), games=4, seed=2)
    >>> s.agents, sum(s.wins) + s.tableaus == 4
    (('RandomAgent', 'heuristic'), True)
    """
    specs = tuple(agents)
    if len(specs) != rules.players:
        raise ValueError(f"{rules.game} needs {rules.players} agents (got {len(specs)})")
    for s in specs:
        _factory(s)
    _check_ends(rules)
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int of at least 0 (got {games!r})")
    if type(jobs) is not int or jobs < 1:
        raise ValueError(f"jobs must be an int of at least 1 (got {jobs!r})")
    n = rules.players
    totals: _Tally = ([0] * n, [0] * n, [0] * n, 0, 0, 0)

    def add(t: _Tally) -> None:
        nonlocal totals
        totals = (
            [a + b for a, b in zip(totals[0], t[0], strict=True)],
            [a + b for a, b in zip(totals[1], t[1], strict=True)],
            [a + b for a, b in zip(totals[2], t[2], strict=True)],
            totals[3] + t[3],
            totals[4] + t[4],
            totals[5] + t[5],
        )

    started = time.perf_counter()
    done = 0
    if jobs == 1 or games <= 1:
        for i in range(games):
            add(_run_chunk(specs, rules, seed, i, i + 1, rotate))
            done += 1
            if progress is not None:
                progress(done, games)
    else:
        size = max(1, min(50, games // (jobs * 8)))
        bounds = [(a, min(games, a + size)) for a in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
            futures = {
                pool.submit(_run_chunk, specs, rules, seed, a, b, rotate): b - a for a, b in bounds
            }
            for future in as_completed(futures):
                add(future.result())
                done += futures[future]
                if progress is not None:
                    progress(done, games)
    elapsed = time.perf_counter() - started
    return SimulationSummary(
        game=rules.game,
        agents=tuple(_name(s) for s in specs),
        games=games,
        seed=seed,
        wins=tuple(totals[0]),
        seat_wins=tuple(totals[1]),
        payments=tuple(totals[2]),
        tableaus=totals[3],
        abandoned=totals[4],
        decisions=totals[5],
        elapsed=elapsed,
        jobs=jobs,
    )
