"""Which build of conquian the tests run on: the pure-Python package or the compiled one.

The compiled build compiles the modules that `pyproject.toml` lists for mypyc (the
wheel's ``mypyc`` build hook, enabled with ``HATCH_BUILD_HOOKS_ENABLE=1``); the rest
of the package stays Python. Both builds must pass the whole suite. ``.ci/run`` runs
it on each and sets ``CONQUIAN_BUILD`` to the build it installed, so that a compiled
wheel that came out pure, or a run that imported the source tree instead of the
wheel, fails here instead of passing unnoticed.
"""

from __future__ import annotations

import copy
import fnmatch
import importlib
import importlib.machinery
import os
import pickle
import pkgutil
import random
from pathlib import Path
from types import ModuleType

import pytest

import conquian

ROOT = Path(__file__).resolve().parent.parent


def _all_modules() -> dict[str, ModuleType]:
    """Every module of the installed package, imported (the command line's entry aside)."""
    modules = {"conquian": conquian}
    for info in pkgutil.walk_packages(conquian.__path__, "conquian."):
        last = info.name.rsplit(".", 1)[-1]
        # `X__mypyc` is the runtime library mypyc builds beside what it compiled.
        if last != "__main__" and not last.endswith("__mypyc"):
            modules[info.name] = importlib.import_module(info.name)
    return modules


def _is_compiled(module: ModuleType) -> bool:
    """Whether `module` was loaded from an extension module (a compiled one) rather than Python."""
    path = str(getattr(module, "__file__", None) or "")
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


MODULES = _all_modules()
COMPILED = frozenset(name for name, module in MODULES.items() if _is_compiled(module))
BUILD = "compiled" if COMPILED else "pure"


def _source_path(name: str, module: ModuleType) -> str:
    """The path of `module`'s source in the repository, as ``src/conquian/combos/core.py``."""
    path = "src/" + name.replace(".", "/")
    return path + "/__init__.py" if hasattr(module, "__path__") else path + ".py"


def _matches(pattern: str, path: str) -> bool:
    """Whether a file selection pattern of the build hook (git's wildcards) takes `path`."""
    if not pattern.startswith("/"):  # a file name anywhere, as `__main__.py`
        return fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern)
    if pattern.endswith("/"):  # a directory: everything under it
        return path.startswith(pattern[1:])
    return fnmatch.fnmatchcase(path, pattern[1:])


def _planned() -> frozenset[str]:
    """The modules `pyproject.toml` has mypyc compile, among those this package has."""
    tomllib = pytest.importorskip("tomllib")
    with (ROOT / "pyproject.toml").open("rb") as file:
        hook = tomllib.load(file)["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    return frozenset(
        name
        for name, module in MODULES.items()
        if any(_matches(p, _source_path(name, module)) for p in hook["include"])
        and not any(_matches(p, _source_path(name, module)) for p in hook.get("exclude", ()))
    )


def test_the_build_is_the_one_ci_installed() -> None:
    """With ``CONQUIAN_BUILD`` set (``pure`` or ``compiled``), the tests run on that build."""
    expected = os.environ.get("CONQUIAN_BUILD")
    if expected is None:
        pytest.skip(f"running on the {BUILD} build; set CONQUIAN_BUILD=pure|compiled to check")
    assert expected in ("pure", "compiled"), expected
    assert expected == BUILD, sorted(COMPILED)


def test_compiled_modules_are_the_planned_ones() -> None:
    """The compiled build compiles exactly the modules of its plan; the pure build none."""
    planned = _planned()
    assert planned, "pyproject.toml plans no module of this package for mypyc"
    assert "conquian.combos.core" in planned
    assert (planned if BUILD == "compiled" else frozenset()) == COMPILED


def test_parts_that_stay_python_are_never_compiled() -> None:
    """The package's entry, the records, the CLI, the mypyc shim and the agents' play,
    simulations and search stay Python; of the agents only the heuristic (and its frozen
    copy, heuristic@v1) may compile."""
    for name in ("conquian", "conquian._mypyc", "conquian.formats.records", "conquian.cli"):
        assert name in MODULES
        assert name not in COMPILED
    heuristic = {
        f"conquian.agents.{p}{m}" for p in ("", "v1.") for m in ("analysis", "offer", "rummy")
    }
    assert not any(n.startswith("conquian.agents") and n not in heuristic for n in COMPILED)


def test_no_compiled_class_inherits_a_python_class() -> None:
    """A class compiled to a native class has only native bases (mypyc could compile one over
    a Python base, with a ``__dict__``, and such objects crashed the garbage collector)."""
    import typing

    allowed = (object, typing.Generic, typing.Protocol)
    for name in sorted(COMPILED):
        for value in vars(MODULES[name]).values():
            if not (isinstance(value, type) and value.__module__ == name):
                continue
            if "__mypyc_attrs__" not in vars(value):
                continue  # a Python class made by the compiled module: any base will do
            for base in value.__mro__[1:]:
                assert base in allowed or "__mypyc_attrs__" in vars(base), (value, base)


def test_compiled_modules_keep_their_sources() -> None:
    """Beside each compiled module lies its Python source (for tracebacks, docs, ``inspect``)."""
    for name in sorted(COMPILED):
        module = MODULES[name]
        assert module.__file__ is not None
        stem = "__init__" if hasattr(module, "__path__") else name.rsplit(".", 1)[-1]
        assert (Path(module.__file__).parent / f"{stem}.py").is_file(), name


def test_mypyc_options_are_no_ops_at_run_time() -> None:
    """``conquian._mypyc.mypyc_attr`` returns the class unchanged; that module is Python."""
    from conquian._mypyc import mypyc_attr

    class Value:
        pass

    assert mypyc_attr(acyclic=True)(Value) is Value
    assert not _is_compiled(MODULES["conquian._mypyc"])


GAMES = {
    "two-hand": conquian.ConquianRules,
    "three-hand": conquian.CooncanRules.three_hand,
    "double-pack-4": lambda: conquian.CooncanRules.double_pack(players=4),
}


def _played(game: str, seed: int, moves: int) -> conquian.State:
    """A state some random moves into a seeded deal of `game`."""
    choice = random.Random(seed).choice
    state = conquian.new_game(GAMES[game](), seed=seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game", sorted(GAMES))
def test_states_stay_frozen_values_on_this_build(game: str) -> None:
    """On either build a state refuses assignment and deletion, pickles, copies and hashes."""
    for seed, moves in ((1, 0), (2, 7), (3, 25)):
        state = _played(game, seed, moves)
        public = [
            name
            for name in dir(state)
            if not name.startswith("_") and not callable(getattr(state, name))
        ]
        assert "current_player" in public
        for name in [*public, "extra"]:
            with pytest.raises(AttributeError):
                setattr(state, name, None)
        with pytest.raises(AttributeError):
            delattr(state, "current_player")
        for again in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
            assert again == state
            assert hash(again) == hash(state)
            assert again.legal_actions() == state.legal_actions()
            assert again.history == state.history
