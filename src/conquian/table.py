"""Playing at the table: a match between agents to its end (`play_match`, also
``conquian.play_match``), and what the command line needs around it: presets and
options, loading a saved game or match, and the score sheet as text.

`play_match` is the public driver of a `Match`; `conquian.cli` calls the rest
(``--rules``, ``--option``, ``--deals``, ``--target``, ``--rounds``, ``--load``).

>>> from conquian import Result, ScoreSheet
>>> from conquian.table import preset, sheet_lines
>>> preset("pagat", ["max_sequence=none", "hand_size=9"]).hand_size
9
>>> print("\\n".join(sheet_lines(ScoreSheet(2).add(Result("win", winner=1, payments=(-1, 1)),
...                                                   dealer=0), ["you", "heuristic"])))
deal  dealer     winner        you  heuristic
   1  you        heuristic      -1         +1
total                           -1         +1
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .actions import Action
from .agents.base import Agent, describe
from .errors import IllegalActionError, RecordError, RulesError
from .formats.records import GameRecord
from .match import Match
from .offer import CONQUIAN
from .rules import ConquianRules, Rules
from .scoring import ScoreSheet
from .state.base import State

__all__ = ["PRESETS", "load", "parse_option", "play_match", "preset", "sheet_lines"]

PRESETS: Mapping[str, Callable[..., Rules]] = CONQUIAN.presets
"""The two-hand presets by name (``--rules``): Foster 1913 (the default), pagat, Hoyle, blog
(`conquian.offer.OfferGame.presets`)."""


def parse_option(text: str) -> tuple[str, Any]:
    """One ``--option`` as ``name=value``: ints, ``true``/``false``, ``none``, else text.

    >>> parse_option("trades=1"), parse_option("borrow_middle=false")
    (('trades', 1), ('borrow_middle', False))
    """
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RulesError("option", f"is written name=value, as hand_size=9 (got {text!r})")
    word = value.strip()
    parsed: Any = word
    if word.lower() in ("true", "false"):
        parsed = word.lower() == "true"
    elif word.lower() in ("none", "null"):
        parsed = None
    elif word.lstrip("-").isdigit():
        parsed = int(word)
    return name.strip(), parsed


def preset(name: str, options: Sequence[str] = ()) -> ConquianRules:
    """The two-hand rules of a preset (`PRESETS`) with ``name=value`` options over it;
    a bad name or option raises `RulesError` naming it."""
    if name not in PRESETS:
        raise RulesError("rules", f"must be one of {', '.join(PRESETS)} (got {name!r})")
    values = dict(parse_option(o) for o in options)
    try:
        rules: ConquianRules = PRESETS[name](**values)  # type: ignore[assignment]
    except TypeError as e:
        raise RulesError("option", f"unknown for two-hand rules: {e}") from None
    return rules


def load(text: str | bytes) -> Match | State:
    """A saved game to resume, from the text of its file: a match file (`Match`), a game
    record or a position (the `State` reached). Raises `RecordError` listing what is wrong."""
    try:
        fmt = json.loads(text).get("format")
    except (ValueError, AttributeError, RecursionError):
        fmt = None
    if fmt == "conquian-match":
        return Match.from_json(text)
    if fmt == "conquian-position":
        return State.from_json(text)
    if fmt == "conquian-record":
        return GameRecord.from_json(text).replay()
    raise RecordError(
        ["not a match file, a game record or a position (its format is none of them)"],
        what="saved game",
    )


def play_match(
    match: Match,
    agents: Sequence[Agent],
    *,
    between: Callable[[Match], None] | None = None,
) -> Match:
    """Play `match` to its end between `agents`, one per person, and return it.

    Each person's agent is called with his view of the deal in play when he is
    to act. Agents that have them are told ``deal_over(view)`` after each deal
    he sat in and ``match_over(sheet, winner)`` at the end, `sheet` being the
    sheet's JSON document (`ScoreSheet.to_dict`), as `ProcessAgent` has them;
    `between`, if given, is called with the match after each deal. A match
    with no end (no target, rounds or deals) is refused with `ValueError`, as
    is a number of agents other than the match's people.

    >>> from conquian import HeuristicAgent
    >>> match = Match(ConquianRules(), seed=7, deals=2)
    >>> done = play_match(match, [HeuristicAgent(seed=1), HeuristicAgent(seed=2)])
    >>> done.is_over, len(done.sheet.rows)
    (True, 2)
    """
    if not isinstance(match, Match):
        raise TypeError(f"match must be a Match (got {type(match).__name__})")
    if match.target is None and match.rounds is None and match.deals is None:
        raise ValueError("the match has no end: give it a target, rounds or deals")
    if not isinstance(agents, Sequence) or isinstance(agents, str):
        raise TypeError(
            f"agents must be a sequence of agents, one per person, not {type(agents).__name__}"
        )
    if len(agents) != match.people:
        raise ValueError(f"the match needs {match.people} agents (got {len(agents)})")
    for agent in agents:
        if not callable(agent):
            raise TypeError(f"agents must be callables taking a view (got {describe(agent)})")
    while True:
        while not match.state.is_over:
            person = match.current_person
            assert person is not None
            action = agents[person](match.view(person).deal_view)
            if not isinstance(action, Action):
                raise IllegalActionError(
                    f"person {person} ({describe(agents[person])}), deal {match.number}: the "
                    f"agent returned {action!r}, which is not an action; an agent returns one "
                    "of view.legal_actions"
                )
            try:
                match = match.apply(action)
            except IllegalActionError as err:
                named = IllegalActionError(
                    f"person {person} ({describe(agents[person])}), deal {match.number}: "
                    f"{err.args[0]}",
                    action=err.action,
                )
                named.rule = err.rule  # the message already ends with the rule id
                raise named from err
        for person, agent in enumerate(agents):
            seat = match.seat_of(person)
            told = getattr(agent, "deal_over", None)
            if seat is not None and callable(told):
                told(match.state.view(seat))
        if between is not None:
            between(match)
        if match.is_over:
            break
        match = match.next_deal()
    data = match.sheet.to_dict()
    for agent in agents:
        told = getattr(agent, "match_over", None)
        if callable(told):
            told(data, match.winner)
    return match


def sheet_lines(sheet: ScoreSheet, names: Sequence[str]) -> list[str]:
    """The score sheet as lines of text: one per deal (its dealer, winner and changes) and
    the totals, with the pool when there is one."""
    width = [max(6, len(n)) for n in names]

    def name(person: int | None) -> str:
        return "-" if person is None else names[person]

    outcomes = [len(str(row.outcome)) for row in sheet.rows if row.winner is None]
    who = max([6, *(len(n) for n in names), *outcomes])

    head = f"deal  {'dealer':<{who}}  {'winner':<{who}}  " + "  ".join(
        f"{n:>{w}}" for n, w in zip(names, width, strict=True)
    )
    lines = [head.rstrip()]
    for i, row in enumerate(sheet.rows, 1):
        cells = "  ".join(
            f"{c:>+{w}}" if c else f"{0:>{w}}" for c, w in zip(row.changes, width, strict=True)
        )
        winner = name(row.winner) if row.winner is not None else str(row.outcome)
        lines.append(f"{i:>4}  {name(row.dealer):<{who}}  {winner:<{who}}  {cells}")
    totals = "  ".join(
        f"{t:>+{w}}" if t else f"{0:>{w}}" for t, w in zip(sheet.totals, width, strict=True)
    )
    lines.append(f"{'total':<{6 + 2 * who + 4}}{totals}")
    if sheet.pool:
        lines.append(f"pool: {sheet.pool}")
    return lines
