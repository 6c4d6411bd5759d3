"""The heuristic's two-hand play: Foster's advice for two players (pp. 56–64), Hoyle and pagat."""

from __future__ import annotations

from typing import Any

from ..actions import Action, Borrow, Discard, Force, Meld, Pass, Take, Trade
from ..cards import Card
from ..combos.core import Combination, build, extend, fitting
from ..combos.core import borrow as borrow_from
from ..offer import turn_finishes
from ..offer.tables import sequence_order
from .analysis import (
    _NEVER,
    _WIN,
    _Brain,
    _OfferView,
    _physical,
    _remove,
    _Splits,
    _Target,
)


class _OfferPlayer(_Brain):
    """Foster's advice for two players (pp. 56–64), Hoyle 1897 and pagat's tactics."""

    def __init__(self, view: _OfferView, splits: _Splits | None = None) -> None:
        rules = view.rules
        super().__init__(
            view,
            sequence_order(rules.pack, rules.max_sequence, rules.ace),  # T20, T26: the ace
            pair_weight=0.8,
            run_weight=1.05,
            splits=splits,
        )
        self.view = view
        self.rules = rules
        self.win = rules.win_size
        me = view.player
        seats = len(view.hand_sizes)
        # The left neighbour: he has the say to my passed and discarded cards, and my forces
        # of a turned or a hand card go onto his melds (T17, T18; with two, the opponent).
        self.opp = (me + 1) % seats
        self.melded = [0] * seats
        for m in view.table:
            self.melded[m.owner] += len(m.cards)
        self.mine = tuple(m for m in view.table if m.owner == me)
        theirs = tuple(m for m in view.table if m.owner == self.opp)
        self.opp_melded = self.melded[self.opp]
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

    # -- the turn search (T8, T9): the engine's own ----------------------------------

    def search(
        self,
        hand: tuple[Card, ...],
        melds: tuple[Combination, ...],
        pending: tuple[Card, ...],
        borrowed: bool,
    ) -> float:
        """The best end of my turn from here, melding the pending cards (T8, T9).

        Every end comes from the engine's search (`conquian.offer.turn_finishes`),
        which knows the rules' options. After a borrow (`borrowed`) the search is told
        the borrowed card as a pending one, not the meld it came from, so it may count
        an end that puts it back there: an approximation the bot accepts.
        """
        if sum(len(m.cards) for m in melds) >= self.win:
            return _WIN
        if not pending:
            return self.end(hand, melds)
        key = (hand, melds, pending, borrowed)
        hit = self._searches.get(key)
        if hit is not None:
            return hit
        best = _NEVER
        for left, table in turn_finishes(self.rules, self.me, hand, melds, pending, limit=200):
            mine = tuple(m for m in table if m.owner == self.me)
            if sum(len(m.cards) for m in mine) >= self.win:
                best = _WIN
                break
            best = max(best, self.end(left, mine))
        self._searches[key] = best
        return best

    # -- end of the turn search ----------------------------------------------------------

    def scores(self) -> list[tuple[float, int, Action]]:
        """Every legal action with its worth: (value, minus its index, action)."""
        view = self.view
        hand = tuple(sorted(view.hand))
        mine = self.mine
        offer = view.offer
        scored: list[tuple[float, int, Action]] = []
        if getattr(view, "trading", False):  # T21: pass on the card the hand misses least
            for k, a in enumerate(view.legal_actions):
                v = _NEVER / 4
                if isinstance(a, Trade) and a.card is not None:
                    left = _remove(hand, (a.card,))
                    if left is not None:  # as a discard: the neighbour gets it
                        v = self.value(left, mine) - self.danger(a.card)
                scored.append((v, -k, a))
            return scored
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
                    # The victim: the left neighbour, or the passer of a passed card (T18).
                    if self.melded[view.table[a.onto].owner] + 1 >= self.win:
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
        return scored
