"""The "Train an agent" how-to: its REINFORCE example runs, at a tiny budget, and learns.

The code is taken from the page itself (its first Python block), so the page and the
test cannot drift apart. Skipped without the ``[pettingzoo]`` extra (numpy, Gymnasium).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

PAGE = Path(__file__).parent.parent / "docs" / "how-to" / "train-an-agent.md"

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    """The namespace of the page's first Python block (``train`` and ``score``)."""
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    namespace: dict[str, Any] = {"__name__": "train_an_agent"}
    exec(compile(blocks[0], str(PAGE), "exec"), namespace)
    return namespace


def test_training_runs_at_a_tiny_budget(example: dict[str, Any]) -> None:
    """A few episodes change the weights of legal ids only, and the same seed gives the
    same weights (every deal and every draw is seeded)."""
    weights = example["train"](episodes=8, seed=3)
    assert weights.shape == (4247, 467)
    changed = np.flatnonzero(np.abs(weights).sum(axis=1))
    assert 0 < len(changed) < 4247
    assert np.array_equal(weights, example["train"](episodes=8, seed=3))


def test_trained_policy_beats_random_choices(example: dict[str, Any]) -> None:
    """After 500 episodes the greedy policy scores better against random play than
    uniform random choices do, on the same 200 deals."""
    weights = example["train"](episodes=500)
    trained, uniform = example["score"](weights, 200), example["score"](None, 200)
    assert trained > uniform + 0.04, (trained, uniform)
