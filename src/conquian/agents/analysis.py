"""What the heuristic reads in a hand: combinations, partial combinations and live cards.

Both games' heuristics share this analysis: the best split of a hand into
groups and sequences (C3, C4), the cards that could be added to combinations
on the table, and for every card left over how many unseen cards could still
make it part of a combination.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, Protocol

from ..actions import Action
from ..cards import JOKER, Card, Face, NamedJoker
from ..combos.core import Combination, Kind, Order
from ..rules import ConquianRules, CooncanRules


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
    def history(self) -> Sequence[Action]: ...
    @property
    def legal_actions(self) -> tuple[Action, ...]: ...
    @property
    def unseen(self) -> tuple[Card, ...]: ...


class _OfferView(_View, Protocol):
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


class _RummyView(_View, Protocol):
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
# The best splits worked out so far, by (order, run weight) and then by hand: an agent
# keeps them from one decision to the next, up to _SPLITS_KEPT hands of each kind.
_Splits = dict[tuple[Order, float], dict[tuple[Card, ...], _Parts]]
_SPLITS_KEPT = 50_000


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

    def __init__(
        self,
        view: _View,
        order: Order,
        pair_weight: float,
        run_weight: float,
        also_live: Iterable[Card] = (),
        splits: _Splits | None = None,
    ) -> None:
        self.me = view.player
        self.order = order
        self.pair_weight = pair_weight
        self.run_weight = run_weight
        # the cards that may still come to someone: the unseen ones, and `also_live`
        self.live: Counter[Card] = Counter(view.unseen)
        self.live.update(also_live)
        # live cards by rank, and by place in a sequence: [suit * width + position], the ace
        # of a 52-card pack at both ends (C4)
        rank_live: Counter[int] = Counter()
        width = self._width = order.top + 1
        by_position = [0] * (4 * width)
        for c, n in self.live.items():
            if c.suit is not None:
                rank_live[c.rank] += n
                by_position[c.suit * width + order.position[c.rank]] += n
                if c.rank == 1 and order.ace_high:
                    by_position[c.suit * width + order.top] += n  # T26, law 16
        self.rank_live = rank_live
        self._live_by_position = by_position
        known = None if splits is None else splits.get((order, run_weight))
        if known is None or len(known) > _SPLITS_KEPT:
            known = {}
            if splits is not None:
                splits[(order, run_weight)] = known
        self._parts = known

    # positions of a card in sequences: the ace may also stand above the king (C4)
    def _positions(self, c: Card) -> tuple[int, ...]:
        p = self.order.position[c.rank]
        if c.rank == 1 and self.order.ace_high:
            return (p, self.order.top)
        return (p,)

    def _live_at(self, pos: int, suit: Any) -> int:
        if not 0 <= pos <= self.order.top:
            return 0
        live: int = self._live_by_position[suit * self._width + pos]
        return live

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
            starts.append((order.top, -1))
        for start, step in starts:
            chain: list[int] = []
            pos = start + step
            while 0 <= pos <= order.top and not (start == 0 and pos == order.top):
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
            while pos <= order.top and not (pos == order.top and low == 0 and order.ace_high):
                c = order.card_at(pos, suit)
                if c not in rest:
                    break
                rest.remove(c)
                shed.append(c)
                pos += 1
            pos = low - 1
            while pos >= 0 and not (pos == 0 and high == order.top and order.ace_high):
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
        high = (
            self.order.top
            if last.rank == 1 and len(combo.cards) > 1
            else self.order.position[last.rank]
        )
        return ("s", first.suit, low, high)
