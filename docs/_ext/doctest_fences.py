"""Griffe extension for the docs build: show doctests in docstrings as code, and keep the
engines' maps of their private modules out of the API pages.

The library's docstrings carry doctests (``>>> card("5H")``) in their running
text, not under a Google-style ``Examples:`` heading. Markdown would read such
lines as prose, and an output line like ``[15, 11, 10]`` as a link. This
extension wraps every run of doctest lines that starts at the left margin in a
fenced ``pycon`` block before the docstring is parsed. Indented doctests (in an
``Examples:`` section) and existing fenced blocks are left alone.

An engine package's docstring (``conquian.offer``, ``conquian.rummy``)
ends with a map for the readers of its source: "Where each rule lives", rule
by rule, in its private modules, and "The modules, in the order they build on
each other". The API pages document the public names only, so those
paragraphs are dropped from module docstrings (`drop_source_maps`).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_FENCE = re.compile(r"^(`{3,}|~{3,})")


def fence_doctests(text: str) -> str:
    """The docstring text with each top-level doctest run fenced as ``pycon``."""
    out: list[str] = []
    fence: str | None = None
    in_doctest = False
    for line in text.split("\n"):
        if in_doctest:
            if line.strip():
                out.append(line)
                continue
            out.append("```")
            in_doctest = False
        if fence is not None:
            out.append(line)
            if line.startswith(fence):
                fence = None
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
            out.append(line)
        elif line.startswith(">>>"):
            out.append("```pycon")
            out.append(line)
            in_doctest = True
        else:
            out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)


_MAPS = ("Where each rule lives", "The modules, in the order")


def drop_source_maps(text: str) -> str:
    """A module docstring without the paragraphs that map rules to private modules: one
    that starts with a phrase of `_MAPS`, and the list paragraphs right after it."""
    kept: list[str] = []
    dropping = False
    for paragraph in text.split("\n\n"):
        head = paragraph.lstrip()
        if head.startswith(_MAPS):
            dropping = True
            continue
        if dropping and head.startswith("- "):
            continue
        dropping = False
        kept.append(paragraph)
    return "\n\n".join(kept)


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring (see the module docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the object's docstring before it is parsed."""
        if obj.docstring is None:
            return
        if obj.is_module and obj.docstring.value.count("\n") > 3:
            obj.docstring.value = drop_source_maps(obj.docstring.value)
        if ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
