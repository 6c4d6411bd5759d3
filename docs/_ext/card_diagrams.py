"""MkDocs hook: draw the ``cards`` fenced blocks of the docs as card diagrams.

Registered in ``mkdocs.yml`` under ``hooks:``. At configuration time it adds
a custom fence named ``cards`` to ``pymdownx.superfences``, whose formatter
is the library's own renderer, `conquian.render.svg.render_block` (the notation of
a block is described there), so the docs draw cards as notebooks do.
SuperFences ignores ordinary exceptions raised by a formatter and would
leave the block as plain text, so a block that does not parse (a bad card
raises the library's `NotationError`) is re-raised as a
``SuperFencesException`` naming the page: the build stops.
"""

from __future__ import annotations

from typing import Any

from conquian.render.svg import render_block

_FENCE = "pymdownx.superfences"
_page = "?"


def format_cards(
    source: str, language: str, css_class: str, options: Any, md: Any, **kwargs: Any
) -> str:
    """The SuperFences formatter of a ``cards`` block: its HTML figure, or a failed build."""
    try:
        return render_block(source)
    except ValueError as err:  # NotationError is a ValueError
        from pymdownx.superfences import SuperFencesException

        raise SuperFencesException(f"bad cards block in {_page}: {err}") from err


def on_config(config: Any) -> Any:
    """Add the ``cards`` fence to SuperFences (which must be among the extensions)."""
    if _FENCE not in config["markdown_extensions"]:
        raise ValueError(f"the cards diagrams need the {_FENCE} extension in mkdocs.yml")
    options = config["mdx_configs"].setdefault(_FENCE, {})
    fences = [f for f in options.get("custom_fences", []) if f.get("name") != "cards"]
    fences.append({"name": "cards", "class": "cards", "format": format_cards})
    options["custom_fences"] = fences
    return config


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Remember which page is being converted, for the error message of a bad block."""
    global _page
    _page = page.file.src_uri
    return markdown
