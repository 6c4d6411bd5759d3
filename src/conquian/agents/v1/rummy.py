"""``heuristic@v1``'s Cooncan play, frozen: Foster's advice for three players and the double
pack, as the heuristic of 0.1.0 played it (a copy; the live one is `conquian.agents.rummy`)."""

from __future__ import annotations

from typing import Any

from ...actions import Action, Discard, Draw, Force, Meld, Take
from ...cards import JOKER, Card, pip_value
from ...combos.core import Order, build, extend
from .analysis import (
    _NEVER,
    _WIN,
    _Brain,
    _physical,
    _remove,
    _RummyView,
    _Splits,
    _Target,
)


class _RummyPlayer(_Brain):
    """Foster's advice for three players and the double pack (pp. 12–47)."""

    def __init__(self, view: _RummyView, splits: _Splits | None = None) -> None:
        rules = view.rules
        double = rules.copies == 2
        # With one pack a sequence fills as often as a group (p. 38); with two,
        # a pair has six live mates and a sequence end only two: groups.
        super().__init__(
            view,
            Order.of("standard"),
            pair_weight=1.25 if double else 1.0,
            run_weight=0.9 if double else 1.0,
            # the stock's top card, or the whole open stock, may still be drawn
            also_live=view.stock if rules.stock == "open" else view.stock[-1:],
            splits=splits,
        )
        self.view = view
        self.rules = rules
        me = view.player
        n = rules.players
        self.next_seat = (me + 1) % n
        self.others = [s for s in range(n) if s != me]
        self.open_stock = rules.stock == "open"
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

    def scores(self) -> list[tuple[float, int, Action]]:
        """Every legal action with its worth: (value, minus its index, action)."""
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
            return scored
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
        return scored
