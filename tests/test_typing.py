"""The public API's types, as a user's type checker sees them (issue: `new_game` and `apply`
give the state class of the rules; `MatchView.deal_view` a view without None).

Each snippet is type-checked with ``mypy --strict`` through mypy's API; the module is
skipped where mypy is not installed (it is in the ``dev`` extra, which CI installs). A
snippet is only checked, never run: an assignment to an annotated name is the assertion
(``x: ConquianState = ...`` fails to check if the call is typed as the base `State`).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

ROOT = Path(__file__).resolve().parent.parent

TYPED = """
import conquian
from conquian import (
    ConquianRules, ConquianState, ConquianView, CooCanRules, CooCanState, CooCanView,
    CooncanRules, CooncanState, CooncanView, Match, PlayerView, State,
)
from conquian.cards import Card

two: ConquianState = conquian.new_game(ConquianRules(), seed=5)
offer: Card | None = two.offer
after: ConquianState = two.apply("take KD")
pending: tuple[Card, ...] = after.pending
view: ConquianView = after.view(0)

three: CooncanState = conquian.new_game(CooncanRules.three_hand(), seed=3)
three_after: CooncanState = three.apply("draw")
three_view: CooncanView = three_after.view(1)

coo: CooCanState = conquian.new_game(CooCanRules(players=3), seed=1)
coo_view: CooCanView = coo.apply(coo.legal_actions()[0]).view(2)

def any_game(rules: conquian.Rules) -> State:
    return conquian.new_game(rules, seed=1).apply("pass")

match = Match(ConquianRules(), seed=7)
deal_view: PlayerView = match.view(0).deal_view
"""

UNTYPED = """
import conquian
from conquian import ConquianState, CooncanRules

wrong: ConquianState = conquian.new_game(CooncanRules.three_hand(), seed=3)
"""


def _first_python_block(page: Path) -> str:
    """The first ```python block of a docs page."""
    found = re.search(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert found is not None, page
    return found.group(1)


def test_the_public_api_type_checks_as_a_user_reads_it(tmp_path: Path) -> None:
    """One ``mypy --strict`` run over three snippets: the precise types (`TYPED`), the home
    page's first deal (`state.offer`, `after.pending`), and a check that fails (`UNTYPED`:
    a three-hand state is no `ConquianState` to the type checker)."""
    first = _first_python_block(ROOT / "docs" / "index.md")
    assert "state.offer" in first and "after.pending" in first
    files = {"typed.py": TYPED, "first_deal.py": first, "untyped.py": UNTYPED}
    for name, code in files.items():
        (tmp_path / name).write_text(textwrap.dedent(code), encoding="utf-8")
    out, err, status = api.run(
        [
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "--python-version",
            "3.10",
            *(str(tmp_path / name) for name in files),
        ]
    )
    errors = [line for line in (out + err).splitlines() if ": error:" in line]
    assert status == 1
    assert [e for e in errors if "typed.py" in e and "untyped.py" not in e] == []
    assert [e for e in errors if "first_deal.py" in e] == []
    (wrong,) = [e for e in errors if "untyped.py" in e]
    assert 'Incompatible types in assignment (expression has type "CooncanState"' in wrong
