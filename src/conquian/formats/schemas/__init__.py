"""The JSON Schemas of the documents, and the part of them written from the rules classes.

The files beside this module (``record.schema.json``, ``position.schema.json``,
``view.schema.json``, ``match.schema.json``, ``sheet.schema.json``) are the
published schemas, each self-contained. The rules objects they hold
(``$defs`` ``twoHandRules``, ``cooncanRules`` and ``coocanRules``) are written
from the options the rules classes declare on their fields
(`conquian.rules.options`): `rules_defs` gives them, and

    python -m conquian.formats.schemas

writes them into the three files that hold rules (the tests fail while a file
and the fields disagree). Nothing else in the files is touched.

>>> defs = rules_defs()
>>> defs["coocanRules"]["required"]
['game', 'players', 'game_stake', 'spot_stake', 'turn_limit']
>>> defs["twoHandRules"]["properties"]["ace"]["enum"]
['low', 'both']
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...rules import ConquianRules, CooCanRules, CooncanRules, Option, options

__all__ = ["FILES", "main", "option_schema", "rules_defs", "written"]

FILES = ("record", "position", "view")
"""The schemas (``NAME.schema.json``) that hold the rules objects."""

# Each rules object of the schemas: its name in ``$defs``, its class, a description and
# the names its games are written with (an older alias too: "two-hand").
_RULES: tuple[tuple[str, type, str, tuple[str, ...]], ...] = (
    (
        "twoHandRules",
        ConquianRules,
        "ConquianRules: the game and every option (T).",
        ("conquian", "two-hand"),
    ),
    (
        "cooncanRules",
        CooncanRules,
        "CooncanRules: the variant and every option (M).",
        ("three-hand", "double-pack"),
    ),
    ("coocanRules", CooCanRules, "CooCanRules: every option (K).", ("coo-can",)),
)

# Fields of older writers the readers still accept (T8: the boolean lay_down_from_hand
# read as lay_down "say" or "meld").
_OLDER_FIELDS: dict[str, dict[str, Any]] = {
    "twoHandRules": {
        "lay_down_from_hand": {
            "description": 'Older documents (T8): true reads as lay_down "say", false as "meld".',
            "type": "boolean",
        }
    },
}


def _values(values: tuple[Any, ...]) -> dict[str, Any]:
    if set(values) == {True, False} and all(type(v) is bool for v in values):
        return {"type": "boolean"}
    return {"enum": list(values)}


def option_schema(option: Option) -> dict[str, Any]:
    """The schema of one option's value, with its description (rule ids, and the default
    of an option written only when it is not the default)."""
    absent = f"; absent: {json.dumps(option.default)}" if option.sparse else ""
    text = option.text[0].upper() + option.text[1:]
    out: dict[str, Any] = {"description": f"{text} ({option.rule}{absent})."}
    if option.values:
        out.update(_values(option.values))
        return out
    number: dict[str, Any] = {"type": "integer", "minimum": option.minimum}
    if option.maximum is not None:
        number["maximum"] = option.maximum
    if option.none:
        out["anyOf"] = [number, {"type": "null"}]
    else:
        out.update(number)
    return out


def _rules_def(name: str, cls: type, text: str, games: tuple[str, ...]) -> dict[str, Any]:
    declared = options(cls)
    game: dict[str, Any] = {"const": games[0]} if len(games) == 1 else {"enum": list(games)}
    properties: dict[str, Any] = {"game": game}
    properties.update({o.name: option_schema(o) for o in declared})
    properties.update(_OLDER_FIELDS.get(name, {}))
    out: dict[str, Any] = {
        "description": text,
        "type": "object",
        "properties": properties,
        "required": ["game", *[o.name for o in declared if not (o.sparse or o.older)]],
        "additionalProperties": False,
    }
    narrower = []  # per game, the options with fewer values there (`Option.per_game`)
    for g in games:
        only = {o.name: _values(o.values_in(g)) for o in declared if o.values_in(g) != o.values}
        if only:
            narrower.append(
                {"if": {"properties": {"game": {"const": g}}}, "then": {"properties": only}}
            )
    if narrower:
        out["allOf"] = narrower
    return out


def rules_defs() -> dict[str, dict[str, Any]]:
    """The ``$defs`` of the rules objects, from the options the rules classes declare."""
    return {name: _rules_def(name, cls, text, games) for name, cls, text, games in _RULES}


def written(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its rules objects as `rules_defs` gives them."""
    defs = dict(schema["$defs"])
    defs.update(rules_defs())
    return {**schema, "$defs": defs}


def _text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    """Write the rules objects into the schema files; print which files changed."""
    here = Path(__file__).parent
    for name in FILES:
        path = here / f"{name}.schema.json"
        old = path.read_text("utf-8")
        new = _text(written(json.loads(old)))
        if new != old:
            path.write_text(new, "utf-8")
            print(f"wrote {path}")
    return 0
