"""Bots and simulation: agents that play from a `PlayerView`, `play` and `simulate`.

An **agent** is any callable that takes a `PlayerView` and returns one of its
`legal_actions`. It is given what its seat may know (C6) and never a
state, so a bot cannot look at hidden cards. Three agents come with the library:

- `RandomAgent`, uniform over the legal actions, seeded and reproducible;
- `HeuristicAgent`, which plays after Foster's "suggestions for good play"
  (1913) and the two-hand advice of Hoyle (1897) and pagat;
- `ISMCTSAgent`, which searches: it samples whole deals consistent with its
  view (`view.sample_state`) and plays them out with the heuristic (``"pimc"``,
  also named ``"ismcts"``);
- `SearchAgent` (``"search"``), the strongest: it searches late in the deal, weighs
  its sampled deals by what the opponent's choices say (`Tells`) and solves the
  last three stock cards exactly;
- the frozen references ``"heuristic@v1"`` and ``"pimc@v1"`` (`HeuristicV1`,
  `PIMCV1`): the heuristic and the searching bot of 0.1.0, for measuring others.

`HandReader` reads a two-hand opponent's hidden cards from his play, for
bots that sample deals (the searching bot's `reading`).

`play` runs one deal between agents and returns the finished state;
`simulate` runs many seeded deals, on several processes if asked, and sums
them up in a `SimulationSummary`.

The package's modules: `base` (the protocol, `RandomAgent`, `play`),
`analysis` (the hand analysis both games' heuristics share), `offer` and
`rummy` (the heuristic's play in each game), `heuristic`
(`HeuristicAgent`), `search` (`ISMCTSAgent`), `reading` (`HandReader`),
`registry` (`AGENTS`), `simulate` (`simulate`), `summary`
(`SimulationSummary`, `DealResult`) and `chart` (SVG charts of win shares).

>>> rules = ConquianRules()
>>> final = play([HeuristicAgent(), RandomAgent(seed=1)], rules, seed=7)
>>> final.is_over
True
>>> summary = simulate(["heuristic", "random"], rules, games=4, seed=1)
>>> summary.games, sum(summary.wins) + summary.tableaus
(4, 4)
"""

from __future__ import annotations

from .base import Agent, AgentFactory, Observer, RandomAgent, play
from .chart import share_chart, win_share_chart
from .heuristic import HeuristicAgent
from .process import ProcessAgent
from .reading import HandReader
from .registry import AGENTS, make_agent
from .search import ISMCTSAgent
from .searcher import SearchAgent
from .simulate import simulate
from .summary import DealResult, SimulationSummary, wilson_interval
from .tells import Tells
from .v1 import PIMCV1, HeuristicV1

__all__ = [
    "AGENTS",
    "PIMCV1",
    "Agent",
    "AgentFactory",
    "DealResult",
    "HandReader",
    "HeuristicAgent",
    "HeuristicV1",
    "ISMCTSAgent",
    "Observer",
    "ProcessAgent",
    "RandomAgent",
    "SearchAgent",
    "SimulationSummary",
    "Tells",
    "make_agent",
    "play",
    "share_chart",
    "simulate",
    "wilson_interval",
    "win_share_chart",
]
