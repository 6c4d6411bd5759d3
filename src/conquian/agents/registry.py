"""The agents known by name to `simulate` and the command line."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Agent, AgentFactory, RandomAgent
from .heuristic import HeuristicAgent
from .process import agent_from_name
from .search import ISMCTSAgent
from .searcher import SearchAgent
from .v1 import PIMCV1, HeuristicV1

AGENTS: Mapping[str, AgentFactory] = {
    "heuristic": HeuristicAgent,
    "heuristic@v1": HeuristicV1,
    "ismcts": ISMCTSAgent,
    "pimc": ISMCTSAgent,
    "pimc@v1": PIMCV1,
    "random": RandomAgent,
    "search": SearchAgent,
}
"""The agents known by name to `simulate` and the command line.

- ``"random"``: `RandomAgent`; ``"heuristic"``: `HeuristicAgent`, the live heuristic;
- ``"pimc"``: `ISMCTSAgent` with its defaults, perfect-information Monte Carlo over deals
  sampled from the view; ``"ismcts"`` is another name of it (the name of 0.1.0);
- ``"search"``: `SearchAgent`, the library's strongest bot (a search late in the deal that
  reads the opponent and solves the last cards exactly);
- ``"heuristic@v1"`` and ``"pimc@v1"``: the heuristic and the default searching bot of 0.1.0,
  frozen (`conquian.agents.v1`), the references other bots are measured against.
"""


def make_agent(name: str, seed: int) -> Agent:
    """A new agent of a named kind (see `AGENTS`), or of a bot in another process for a
    ``"cmd:..."`` name (`conquian.agents.ProcessAgent`, told `seed` in its hello).

    >>> make_agent("random", seed=1)
    RandomAgent(seed=1)
    >>> make_agent("cmd:node bot.js", seed=1)
    ProcessAgent(['node', 'bot.js'], timeout=5.0)
    """
    command = agent_from_name(name)
    if command is not None:
        return command(seed)
    try:
        factory = AGENTS[name]
    except KeyError:
        known = ", ".join(sorted(AGENTS))
        raise ValueError(f"unknown agent {name!r}: use one of {known}") from None
    return factory(seed)
