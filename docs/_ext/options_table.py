"""MkDocs hook: the options table of the rules pages, written from the rules classes.

Registered in ``mkdocs.yml`` under ``hooks:``. A page holding the line `MARKER`
gets in its place a table of every option the rules classes declare on their
fields (`conquian.rules.options`): its rules object, rule ids, default, the
values allowed and what it is. An option added to a rules class appears
here without editing the page.
"""

from __future__ import annotations

from typing import Any

from conquian.rules import ConquianRules, CooCanRules, CooncanRules, Option, options

MARKER = "<!-- the options table: written from the rules classes when the docs build -->"

# The rules classes, with the default rules of each of their games.
_CLASSES: tuple[tuple[type, tuple[tuple[str, Any], ...]], ...] = (
    (ConquianRules, (("conquian", ConquianRules()),)),
    (
        CooncanRules,
        (("three-hand", CooncanRules.three_hand()), ("double-pack", CooncanRules.double_pack())),
    ),
    (CooCanRules, (("coo-can", CooCanRules()),)),
)


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return f'`"{value}"`'
    return f"`{value!r}`"


def _values(option: Option, game: str) -> str:
    values = option.values_in(game)
    if values:
        return ", ".join(_shown(v) for v in values)
    top = "" if option.maximum is None else f" to {option.maximum}"
    low = f"an int from {option.minimum}{top}" if top else f"an int ≥ {option.minimum}"
    return low + (", or none" if option.none else "")


def _per_game(texts: list[tuple[str, str]]) -> str:
    if len({t for _, t in texts}) == 1:
        return texts[0][1]
    return "; ".join(f"{t} ({g})" for g, t in texts)


def table() -> str:
    """The options table, in Markdown."""
    rows = [
        "| option | rules object | rules | default | values | what it is |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for cls, games in _CLASSES:
        for option in options(cls):
            default = _per_game([(g, _shown(getattr(r, option.name))) for g, r in games])
            values = _per_game([(g, _values(option, g)) for g, _ in games])
            written = " Written in documents only when not the default." if option.sparse else ""
            rows.append(
                f"| `{option.name}` | `{cls.__name__}` | {option.rule} | {default} | {values} "
                f"| {option.text[0].upper()}{option.text[1:]}.{written} |"
            )
    return "\n".join(rows)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Put the options table in place of `MARKER`."""
    return markdown.replace(MARKER, table()) if MARKER in markdown else markdown
