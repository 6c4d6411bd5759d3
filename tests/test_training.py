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


def _titled(title: str) -> dict[str, Any]:
    """The namespace of the page's Python block titled `title` (shown in the page, run
    here at a budget of a few hundred steps; the docs' own test skips titled blocks)."""
    blocks = dict(
        re.findall(r'```python title="([^"]+)"\n(.*?)```', PAGE.read_text(encoding="utf-8"), re.S)
    )
    namespace: dict[str, Any] = {"__name__": title}
    exec(compile(blocks[title], f"{PAGE}:{title}", "exec"), namespace)
    return namespace


@pytest.fixture
def _one_thread() -> Any:
    """PyTorch on one thread for these small networks (two cores are shared by the suite)."""
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.usefixtures("_one_thread")
def test_maskable_ppo_example_runs() -> None:
    """The page's MaskablePPO example trains a few hundred steps on the Gymnasium id with
    no wrapper, and its greedy policy plays only legal ids in `score`."""
    pytest.importorskip("sb3_contrib")
    page = _titled("maskable_ppo.py")
    model = page["train_maskable"](256, n_steps=128)
    assert model.num_timesteps >= 256
    share = page["score"](page["greedy"](model), 5)
    assert 0.0 <= share <= 1.0
    assert 0.0 <= page["score"](page["uniform"](), 5) <= 1.0


@pytest.mark.usefixtures("_one_thread")
def test_cleanrl_example_runs() -> None:
    """The page's CleanRL-style masked PPO trains a few hundred steps (same-step autoreset,
    the guard in place: no NaN), and its greedy policy plays legal ids."""
    import torch

    page = _titled("cleanrl_ppo.py")
    body, policy = page["ppo"](256, num_envs=2, n_steps=64)
    weights = torch.cat([p.detach().flatten() for p in [*body.parameters(), *policy.parameters()]])
    assert torch.isfinite(weights).all()
    maskable = _titled("maskable_ppo.py") if _has("sb3_contrib") else None
    if maskable is None:
        return

    def choose(obs: Any, mask: Any) -> int:
        logits = policy(body(torch.as_tensor(obs)))
        return int(logits.masked_fill(~torch.as_tensor(mask), -float("inf")).argmax())

    assert 0.0 <= maskable["score"](choose, 3) <= 1.0


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None
