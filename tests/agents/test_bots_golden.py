"""The frozen bots play exactly as 0.1.0's bots did (transcripts in tests/data/bots_golden.json).

``heuristic@v1`` stands in for the heuristic of the recorded deals and ``pimc@v1`` for the
searching bot (``"ismcts"`` in 0.1.0); both are made by `make_agent` with the recorded seeds.
The cases and the way to write the file again are in ``tests/agents/bots_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots_golden import CASES, rules_of, transcript
from conquian.agents import make_agent, play
from conquian.agents import offer as live_offer
from conquian.agents.v1 import PIMCV1, HeuristicV1

GOLDEN = json.loads((Path(__file__).parent.parent / "data" / "bots_golden.json").read_text())

FROZEN = {"heuristic": "heuristic@v1", "ismcts": "pimc@v1", "random": "random"}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_frozen_bots_play_the_transcripts_of_0_1_0(
    case: tuple[str, str, tuple[str, ...], tuple[int, ...], int, int],
) -> None:
    name, game, agents, seeds, deal, dealer = case
    frozen = tuple(FROZEN[a] for a in agents)
    assert transcript(game, frozen, seeds, deal, dealer) == GOLDEN[name]


def test_the_searching_bot_departs_from_the_heuristic_in_the_transcripts() -> None:
    # Else the pimc@v1 cases would only test the heuristic again.
    name, game, agents, seeds, deal, dealer = CASES[5]
    assert "ismcts" in agents
    plain = tuple("heuristic@v1" if a == "ismcts" else FROZEN[a] for a in agents)
    assert transcript(game, plain, seeds, deal, dealer) != GOLDEN[name]


def test_the_names_of_the_searching_bot() -> None:
    # "pimc" is what it does; "ismcts", the name of 0.1.0, stays (no silent change of a name).
    name, game, agents, seeds, deal, dealer = CASES[5]
    named = tuple("pimc" if a == "ismcts" else FROZEN[a] for a in agents)
    assert transcript(game, named, seeds, deal, dealer) == GOLDEN[name]
    assert type(make_agent("pimc", 1)) is type(make_agent("ismcts", 1))
    assert isinstance(make_agent("pimc@v1", 1), PIMCV1)
    assert isinstance(make_agent("heuristic@v1", 1), HeuristicV1)


def test_a_change_of_the_live_heuristic_leaves_heuristic_v1_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Frozen by code: the live heuristic made to discard its worst card changes "heuristic"
    # but not "heuristic@v1".
    name, game, _agents, seeds, deal, dealer = CASES[0]
    real = live_offer._OfferPlayer.scores
    monkeypatch.setattr(
        live_offer._OfferPlayer, "scores", lambda self: [(-v, k, a) for v, k, a in real(self)]
    )
    live = [make_agent("heuristic", s) for s in seeds]
    changed = [str(a) for a in play(live, rules_of(game), seed=deal, dealer=dealer).history]
    assert changed != GOLDEN[name]
    assert transcript(game, ("heuristic@v1",) * 2, seeds, deal, dealer) == GOLDEN[name]
