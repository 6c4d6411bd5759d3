"""The public namespace of ``conquian``: ``__all__`` is explicit, sorted and complete."""

import ast
import importlib.machinery
import inspect
import re
import sys
from collections import Counter
from pathlib import Path

import conquian


def _public_names_bound_in_init() -> set[str]:
    """Names without a leading underscore that ``conquian/__init__.py`` binds, modules aside."""
    return {
        name
        for name, value in vars(conquian).items()
        if not name.startswith("_")
        and not inspect.ismodule(value)
        and type(value).__module__ != "__future__"  # `from __future__ import annotations`
    }


def _isort_key(name: str) -> tuple[int, list[int | str]]:
    """The order of ruff's RUF022: CONSTANTS, then CamelCase, then the rest, numbers natural."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return kind, [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _source_docstring(obj: object, module_file: str) -> str:
    """The docstring of the top-level function or class ``obj`` in its module's Python source."""
    source = Path(module_file).with_name(Path(module_file).name.split(".")[0] + ".py")
    name = getattr(obj, "__name__", None)
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
            return (ast.get_docstring(node) or "").strip()
    return ""


def _own_docstring(obj: object) -> str:
    """The docstring written on ``obj`` itself, stripped; a class does not inherit a base's.

    In the compiled build (mypyc) compiled functions and classes keep no docstring at
    run time, so for them it is read from the source beside the compiled module.
    """
    module_file = getattr(sys.modules.get(getattr(obj, "__module__", "")), "__file__", None)
    if module_file and module_file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
        return _source_docstring(obj, module_file)
    if inspect.isclass(obj) and not vars(obj).get("__doc__"):
        return ""
    return (inspect.getdoc(obj) or "").strip()


def test_all_is_sorted() -> None:
    """``__all__`` is sorted the way ruff (RUF022) keeps it: constants, classes, the rest."""
    assert list(conquian.__all__) == sorted(conquian.__all__, key=_isort_key)


def test_all_has_no_duplicates() -> None:
    """No name appears twice in ``__all__``."""
    duplicates = [name for name, count in Counter(conquian.__all__).items() if count > 1]
    assert duplicates == []


def test_every_name_in_all_exists() -> None:
    """Every name listed in ``__all__`` is an attribute of the package."""
    missing = [name for name in conquian.__all__ if not hasattr(conquian, name)]
    assert missing == []


def test_every_public_name_is_in_all() -> None:
    """Every public non-module name bound in ``conquian/__init__.py`` is listed in ``__all__``."""
    unlisted = sorted(_public_names_bound_in_init() - set(conquian.__all__))
    assert unlisted == []


def test_public_functions_and_classes_have_docstrings() -> None:
    """Every function and class in ``__all__`` has a non-empty docstring of its own."""
    undocumented = []
    for name in conquian.__all__:
        obj = getattr(conquian, name)
        if (inspect.isclass(obj) or inspect.isroutine(obj)) and not _own_docstring(obj):
            undocumented.append(name)
    assert undocumented == []


def test_the_registry_of_games_is_exported() -> None:
    """``conquian.GAMES``, ``conquian.Game`` and ``conquian.game_of`` are the registry's own."""
    from conquian import games

    assert {"GAMES", "Game", "game_of"} <= set(conquian.__all__)
    assert conquian.GAMES is games.GAMES
    assert conquian.Game is games.Game
    assert conquian.game_of is games.game_of
