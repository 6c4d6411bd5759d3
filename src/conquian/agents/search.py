"""`ISMCTSAgent`: a bot that searches, from its view only, by sampling the hidden cards.

The agent never sees a state. To think about a decision it asks its view for
whole deals consistent with what its seat knows (`view.sample_state(rng)`,
which draws uniformly among the pack orders that agree with everything the
seat saw, C6) and plays each sampled deal to its end. With `reading`, a
bot in two-seat Conquian draws its deals from a `conquian.agents.reading.HandReader`
instead, which favours the hidden hands that explain the opponent's play.

Two searches are offered, both by Monte Carlo over sampled deals:

- ``"pimc"`` (the default), perfect-information Monte Carlo with a rollout
  per candidate: every sampled deal is played to its end once after each
  candidate action (the heuristic's best few), all players then following
  the heuristic. The candidates are compared on the same deals, which takes
  the luck of the cards out of the comparison, and the heuristic's
  favourite is kept unless another did clearly better. Because the rollouts
  choose from views, not from the sampled deal, the search does not assume
  that anyone will later know the hidden cards.
- ``"ismcts"``, single-observer information-set Monte Carlo tree search
  (Cowling, Powley and Whitehouse, 2012): one tree over the actions from
  this decision on, a new sampled deal for each iteration, UCB1 over the
  actions legal in that deal (counted by availability), and a heuristic
  rollout from the new leaf.

A deal's worth to a seat is 1 for a win, 0 for a loss and ½ for a tableau or
an abandoned deal in the two-hand game (T12); in Cooncan, where the pips
paid matter as much as the win, it grows with the seat's payment (M7).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..actions import Action
from ..determinize import samples
from ..games import game_of
from ..state.base import Outcome, PlayerView, State
from .base import _no_actions
from .heuristic import HeuristicAgent, ranked
from .reading import HandReader

__all__ = ["ISMCTSAgent"]


def _worth(final: State, seat: int, undecided: float) -> float:
    """What a finished deal is worth to `seat`, between 0 and 1 (`undecided`: a tableau's)."""
    result = final.result
    if result is None or result.outcome is not Outcome.WIN:
        return undecided
    scale = game_of(final.rules).payment_scale(final.rules)
    if scale is None:  # won or lost, whatever the size (a counter from each loser, T13, T19)
        return 1.0 if result.winner == seat else 0.0
    return 0.5 + 0.5 * math.tanh(result.payments[seat] / scale)


def _rollout(state: State, policy: Callable[[PlayerView], Action], limit: int) -> State:
    """Play `state` on with `policy` in every seat, at most `limit` actions; a forced action
    (the only legal one, which the policy would choose) builds no view."""
    for _ in range(limit):
        seat = state.current_player
        if seat is None:
            break
        legal = state.legal_actions()
        state = state.apply(legal[0] if len(legal) == 1 else policy(state.view(seat)))
    return state


def _clear_winner(gains: list[list[float]], margin: float) -> int:
    """Which candidate to play, given ``gains[k][i]``, how much better candidate ``k`` did
    than the heuristic's favourite (candidate 0) on deal ``i``: the favourite, unless one did
    better by more than `margin` standard errors of the paired differences (the noise of a
    few deals would otherwise pick the luckiest candidate, not the best)."""
    best, best_mean = 0, 0.0
    for k in range(1, len(gains)):
        g = gains[k]
        mean = sum(g) / len(g)
        spread = math.sqrt(sum((x - mean) ** 2 for x in g) / max(1, len(g) - 1))
        if mean > best_mean and mean > margin * spread / math.sqrt(len(g)):
            best, best_mean = k, mean
    return best


_SETTINGS: dict[str, object] = {
    "seconds": None,
    "method": "pimc",
    "candidates": 2,
    "exploration": 0.7,
    "reading": None,
    "margin": 1.0,
    "undecided": 0.5,
    "rollout_limit": 400,
}
"""The settings an `ISMCTSAgent`'s repr shows when they differ from these defaults."""


class _Node:
    """A node of the information-set tree: the statistics of the action that led to it."""

    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat  # who chose the action leading here
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


class ISMCTSAgent:
    """A searching bot: Monte Carlo search over deals sampled from its view.

    For each decision with more than one legal action it samples whole deals
    consistent with its view (`view.sample_state`), plays them to their end
    and keeps the action that did best (see the module's description of the
    two searches, ``"pimc"`` and ``"ismcts"``). Rollouts use the heuristic
    for every seat. It sees nothing but its view and the deals it sampled.

    `iterations` is the number of sampled deals per decision; `seconds`, if
    given, also stops the search when that much time has passed (the agent
    is then no longer reproducible). With the same seed and iteration budget
    the agent makes the same choices in the same views. The default budget
    (8 deals, the heuristic's 2 best actions) keeps a two-hand deal near a
    second on one core. The other settings:

    - `method`: ``"pimc"`` or ``"ismcts"`` (see the module);
    - `candidates`: how many of the heuristic's best actions ``"pimc"``
      compares;
    - `margin`: ``"pimc"`` leaves the heuristic's favourite only for an
      action that did better by more than this many standard errors of the
      paired differences, so that the luck of a few deals does not decide;
    - `reading`: in Conquian for two, read the opponent's hand from his
      play (`HandReader`): a hand he may hold is drawn with a weight of
      `reading` (between 0 and 1) to the power of the number of his past
      choices that the heuristic, holding it, would not have made; None
      (the default) deals the hidden cards uniformly, as the search does for
      a view the reader declines (`HandReader.declines`: Cooncan, or more
      than two seats);
    - `undecided`: what a tableau or an abandoned deal is worth (a win is
      1, a loss 0);
    - `exploration`: the UCB1 constant of ``"ismcts"``;
    - `rollout_limit`: the most actions a rollout plays before it counts the
      deal as undecided.

    >>> state = new_game(ConquianRules(), seed=7).apply("pass")
    >>> view = state.view(state.current_player)
    >>> ISMCTSAgent(seed=1, iterations=4)(view) in view.legal_actions
    True
    """

    def __init__(
        self,
        seed: int | None = 0,
        iterations: int = 8,
        seconds: float | None = None,
        *,
        method: str = "pimc",
        candidates: int = 2,
        exploration: float = 0.7,
        reading: float | None = None,
        margin: float = 1.0,
        undecided: float = 0.5,
        rollout_limit: int = 400,
    ) -> None:
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations must be an int of at least 1 (got {iterations!r})")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive (got {seconds!r})")
        if method not in ("pimc", "ismcts"):
            raise ValueError(f"method must be 'pimc' or 'ismcts' (got {method!r})")
        if type(candidates) is not int or candidates < 2:
            raise ValueError(f"candidates must be an int of at least 2 (got {candidates!r})")
        if reading is not None and not 0.0 < reading < 1.0:
            raise ValueError(f"reading must be None or between 0 and 1 (got {reading!r})")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.method = method
        self.candidates = candidates
        self.exploration = exploration
        self.reading = reading
        self.margin = margin
        self.undecided = undecided
        self.rollout_limit = rollout_limit
        self._rng = random.Random(seed)
        self._policy = HeuristicAgent()
        self._reader = None if reading is None else HandReader(self._policy, reading)

    def __call__(self, view: PlayerView) -> Action:
        """The action this bot chooses in `view`, after searching."""
        actions = view.legal_actions
        if not actions:
            raise _no_actions(view)
        if len(actions) == 1:
            return actions[0]
        rng = random.Random(self._rng.getrandbits(64))
        if self.method == "pimc":
            return self._pimc(view, rng)
        return self._ismcts(view, rng)

    def __repr__(self) -> str:
        shown = [f"seed={self.seed!r}", f"iterations={self.iterations!r}"]
        shown += [
            f"{name}={getattr(self, name)!r}"
            for name in _SETTINGS
            if getattr(self, name) != _SETTINGS[name]
        ]
        return f"ISMCTSAgent({', '.join(shown)})"

    def _sampler(self, view: PlayerView, rng: random.Random) -> Callable[[], State]:
        """Where this decision's deals come from: the reader, or the view's uniform draw."""
        reader = self._reader
        if reader is not None and reader.start(view, rng):
            return lambda: reader.deal(rng)
        draw = samples(view)  # the view's history read once for the decision's samples
        return lambda: draw(rng)

    def _deadline(self) -> float | None:
        return None if self.seconds is None else time.perf_counter() + self.seconds

    # -- perfect-information Monte Carlo, the candidates compared on the same deals --------

    def _pimc(self, view: PlayerView, rng: random.Random) -> Action:
        order = ranked(view)[: self.candidates]
        me = view.player
        # gains[k][i]: how much better candidate k did than the heuristic's favourite on deal i
        gains: list[list[float]] = [[] for _ in order]
        sample = self._sampler(view, rng)
        deadline = self._deadline()
        for n in range(self.iterations):
            if deadline is not None and n and time.perf_counter() > deadline:
                break
            deal = sample()
            worths = [
                _worth(
                    _rollout(deal.apply(a), self._policy, self.rollout_limit), me, self.undecided
                )
                for a in order
            ]
            for k, w in enumerate(worths):
                gains[k].append(w - worths[0])
        return order[_clear_winner(gains, self.margin)]

    # -- single-observer information-set MCTS ----------------------------------------------

    def _ismcts(self, view: PlayerView, rng: random.Random) -> Action:
        root = _Node(None)
        prior = {a: k for k, a in enumerate(ranked(view))}
        sample = self._sampler(view, rng)
        deadline = self._deadline()
        c = self.exploration
        for n in range(self.iterations):
            if deadline is not None and n and time.perf_counter() > deadline:
                break
            state = sample()
            node = root
            path = [root]
            while state.current_player is not None:
                seat = state.current_player
                legal = state.legal_actions()
                for a in legal:
                    child = node.children.get(a)
                    if child is not None:
                        child.available += 1
                untried = [a for a in legal if a not in node.children]
                if untried:
                    if node is root:
                        untried.sort(key=lambda a: prior.get(a, len(prior)))
                        action = untried[0]
                    else:
                        action = untried[int(rng.random() * len(untried))]
                    child = node.children[action] = _Node(seat)
                    child.available = 1
                    state = state.apply(action)
                    path.append(child)
                    break

                def ucb(a: Action, node: _Node = node) -> float:
                    ch = node.children[a]
                    return ch.total / ch.visits + c * math.sqrt(
                        math.log(max(ch.available, 1)) / ch.visits
                    )

                action = max(legal, key=ucb)
                node = node.children[action]
                path.append(node)
                state = state.apply(action)
            final = _rollout(state, self._policy, self.rollout_limit)
            for visited in path:
                visited.visits += 1
                if visited.seat is not None:
                    visited.total += _worth(final, visited.seat, self.undecided)
        legal = view.legal_actions
        best = max(
            legal,
            key=lambda a: (
                root.children[a].visits if a in root.children else -1,
                -prior.get(a, len(prior)),
            ),
        )
        return best
