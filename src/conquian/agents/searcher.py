"""`SearchAgent` (``make_agent("search", seed)``): the library's strongest bot, a search that
spends its time late in the deal, reads the opponent, and plays the last cards exactly.

It sees only its view (C6). For each decision with a choice it looks at how many cards
are left face down (the stock, ``view.pack_size``; Coo-Can's deck, ``deck_size``):

- **early** (more than `quiet` cards, or with more than two seats more than `late`):
  the heuristic's choice, without searching: with many cards to come, sampled deals tell
  the candidates apart by less than their noise (on 0.1.0's searching bot, about +0.003
  of a deal a decision with 15 or more stock cards, against +0.02 to +0.03 with 3 to 7).
  With `early` deals it searches there too, up to `horizon` cards face down (measured:
  no gain, nearly twice the CPU; see the Bots page);
- **middle**: perfect-information Monte Carlo as ``"pimc"`` does: `samples` deals
  consistent with the view, each played to its end after each of the heuristic's
  `candidates` best actions (5, where ``"pimc"`` compares 2: the heuristic's second
  choice is often not the one a search finds better), every seat then following the
  heuristic;
- **late** (at most `late` cards): `late_samples` deals, and the candidates compared
  on them with a smaller `margin`; with more than two seats, where a rollout plays a
  longer deal, only these decisions search, with `samples` deals and `margin`;
- **the end** (at most `exact` cards, two seats): every sampled deal is solved exactly
  instead of rolled out (`solve`): each seat, knowing that deal's cards, plays to win it
  (alpha–beta over the deal's legal actions to its end, every action tried). A deal whose
  tree is larger than `nodes` positions is rolled out instead.

In Conquian for two the deals are weighed by the opponent's `Tells`: a hand that could
have melded a card he refused, or with which a card he threw made a combination, is
less likely (by factors calibrated on played deals of several opponents:
``benchmarks/calibrate_reading.py``); in the other games the deals are the view's
uniform draw (`conquian.determinize.samples`). A rollout asks
the deal for its legal actions first and builds no view where there is only one.

A deal is worth 1 won, 0 lost, ½ a tableau or abandoned (T12); in Cooncan and Coo-Can it
grows with the seat's payment (M7, K9). With the same seed it makes the same choices in
the same views.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import Action
from ..determinize import samples as uniform_samples
from ..state.base import PlayerView, State
from .base import _no_actions
from .heuristic import HeuristicAgent, ranked
from .search import _clear_winner, _rollout, _worth
from .tells import REFUSE, THROW, Tells

__all__ = ["SearchAgent", "solve"]


_ROLLOUT_LIMIT = 400
"""The most actions a rollout plays before it is scored as it stands."""


def _face_down(view: PlayerView) -> int:
    """How many cards are still face down: the stock (``pack_size``), or Coo-Can's deck."""
    left: int | None = getattr(view, "pack_size", None)
    if left is None:
        left = getattr(view, "deck_size", 0)
    return int(left or 0)


class _Budget(Exception):
    """The exact search met its limit of positions."""


def solve(state: State, seat: int, nodes: int) -> float | None:
    """The worth to `seat` (of two) of `state` played exactly by both seats, each knowing
    every card of the deal; None if that takes more than `nodes` positions.

    Alpha–beta over every legal action to the end of the deal: a deal of two seats is won
    by one or drawn (a tableau, T12), so what one seat gains the other loses.

    >>> state = new_game(ConquianRules(), seed=7)
    >>> solve(state, 0, nodes=10) is None
    True
    """
    count = [0]

    def search(s: State, alpha: float, beta: float) -> float:
        mover = s.current_player
        if mover is None:
            return _worth(s, seat, 0.5)  # a tableau is worth a half to each seat (T12)
        count[0] += 1
        if count[0] > nodes:
            raise _Budget
        if mover == seat:
            best = -1.0
            for a in s.legal_actions():
                v = search(s.apply(a), alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                    if alpha >= beta:
                        break
            return best
        best = 2.0
        for a in s.legal_actions():
            v = search(s.apply(a), alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                if alpha >= beta:
                    break
        return best

    try:
        return search(state, 0.0, 1.0)
    except _Budget:
        return None


class SearchAgent:
    """The library's strongest bot: a search late in the deal that reads the opponent and
    solves the last cards exactly (see the module). Registered as ``"search"``.

    - `horizon`: above this many face-down cards it plays the heuristic's choice;
    - `quiet`, `early`: above `quiet` face-down cards it compares the candidates on only
      `early` deals (0: it plays the heuristic's choice);
    - `samples`, `candidates`, `margin`: the middle search (deals, the heuristic's best
      actions compared, and the standard errors of the paired differences by which
      another candidate must beat the heuristic's favourite);
    - `late`, `late_samples`, `late_margin`: the same at most `late` cards from the end;
    - `exact`, `nodes`: at most `exact` cards left, with two seats, each deal is solved
      exactly (`solve`) if it takes at most `nodes` positions;
    - `refuse`, `throw`: the factors of the opponent's `Tells` (two-hand Conquian);
      ``reading=False`` samples uniformly.

    >>> state = new_game(ConquianRules(), seed=7).apply("pass")
    >>> view = state.view(state.current_player)
    >>> SearchAgent(seed=1)(view) in view.legal_actions
    True
    """

    def __init__(
        self,
        seed: int | None = 0,
        *,
        horizon: int = 20,
        quiet: int = 14,
        early: int = 0,
        samples: int = 8,
        candidates: int = 5,
        margin: float = 1.0,
        late: int = 7,
        late_samples: int = 16,
        late_margin: float = 0.5,
        exact: int = 3,
        nodes: int = 3000,
        refuse: float = REFUSE,
        throw: float = THROW,
        reading: bool = True,
    ) -> None:
        if candidates < 2:
            raise ValueError(f"candidates must be at least 2 (got {candidates!r})")
        if samples < 1 or late_samples < 1:
            raise ValueError("samples and late_samples must be at least 1")
        self.seed = seed
        self.horizon = horizon
        self.quiet = quiet
        self.early = early
        self.samples = samples
        self.candidates = candidates
        self.margin = margin
        self.late = late
        self.late_samples = late_samples
        self.late_margin = late_margin
        self.exact = exact
        self.nodes = nodes
        self.refuse = refuse
        self.throw = throw
        self.reading = reading
        self._rng = random.Random(seed)
        self._policy = HeuristicAgent()

    def __repr__(self) -> str:
        return f"SearchAgent(seed={self.seed!r})"

    def __call__(self, view: PlayerView) -> Action:
        """The action this bot chooses in `view`."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        if len(actions) == 1:
            return actions[0]
        left = _face_down(view)
        two = len(view.hand_sizes) == 2
        # With more seats a rollout plays a longer deal: only the late decisions search.
        if left > (self.horizon if two else self.late) or (left > self.quiet and not self.early):
            return self._policy(view)
        rng = random.Random(self._rng.getrandbits(64))
        late = left <= self.late and two
        count = self.late_samples if late else self.samples
        if two and left > self.quiet:
            count = self.early
        margin = self.late_margin if late else self.margin
        exact = left <= self.exact and two
        order = ranked(view)[: self.candidates]
        me = view.player
        gains: list[list[float]] = [[] for _ in order]
        draw = self._sampler(view, rng)
        for _ in range(count):
            deal = draw()
            worths = []
            for a in order:
                after = deal.apply(a)
                v = solve(after, me, self.nodes) if exact else None
                if v is None:
                    v = _worth(_rollout(after, self._policy, _ROLLOUT_LIMIT), me, 0.5)
                worths.append(v)
            for k, w in enumerate(worths):
                gains[k].append(w - worths[0])
        return order[_clear_winner(gains, margin)]

    def _sampler(self, view: PlayerView, rng: random.Random) -> Callable[[], State]:
        """Where this decision's deals come from: the reader, or the view's uniform draw."""
        if self.reading:
            tells = Tells.read(view, rng, self.refuse, self.throw)
            if tells is not None:
                return tells.draw(rng)
        draw = uniform_samples(view)
        return lambda: draw(rng)
