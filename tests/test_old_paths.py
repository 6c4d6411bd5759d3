"""The public module paths of before the package was grouped by meaning keep working: each
old path is a module of the same public names (DESIGN.md's contract among them)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

OLD_PUBLIC = {
    "conquian.combos": "conquian.combos.core",
    "conquian.cooncan": "conquian.rummy",
    "conquian.diagram": "conquian.render.text",
    "conquian.records": "conquian.formats.records",
    "conquian.state": "conquian.state.base",
    "conquian.svg": "conquian.render.svg",
    "conquian.two_hand": "conquian.offer",
}
"""Each old public path and the module that holds its code now."""


@pytest.mark.parametrize(("old", "new"), sorted(OLD_PUBLIC.items()))
def test_old_public_paths_give_the_same_names(old: str, new: str) -> None:
    """An old path names every public name of the module that holds the code now, and each
    is the very same object."""
    before, now = importlib.import_module(old), importlib.import_module(new)
    assert before.__doc__
    names = getattr(now, "__all__", ())
    assert names
    for name in names:
        if name in getattr(before, "__all__", ()):
            assert getattr(before, name) is getattr(now, name), (old, name)


def test_the_contract_of_design_md() -> None:
    """The module paths DESIGN.md names: `conquian.svg.render`, `conquian.openspiel.register`,
    `conquian.pettingzoo.env`."""
    import conquian.openspiel
    import conquian.pettingzoo
    import conquian.svg

    assert callable(conquian.svg.render)
    assert callable(conquian.openspiel.register)
    assert callable(conquian.pettingzoo.env)


def test_old_paths_import_first_in_a_fresh_interpreter() -> None:
    """Each old path imports on its own, before anything else of the package (no cycle)."""
    for old in OLD_PUBLIC:
        done = subprocess.run(
            [sys.executable, "-c", f"import {old}"], capture_output=True, text=True
        )
        assert done.returncode == 0, (old, done.stderr)
