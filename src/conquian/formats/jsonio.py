"""The JSON machinery of records, positions and views: limits, reading and writing helpers.

Shared by `conquian.formats.records` (game records), the position and view driver
(`State.to_json`, `State.from_json`, `PlayerView.to_json`) and each engine's
codec. Reading never trusts its input: it parses with `json.loads` only,
refuses input larger than the limits below before looking inside, and
gathers every problem it finds (`Problems`), each naming its field, to raise
them together in one `RecordError` (rules E2, E3).

The limits are checked when a document is written too, with the same
`RecordError`, so whatever the library writes it reads back. A deal whose
actions pass `MAX_ACTIONS` cannot be recorded: that is possible only in
Cooncan without a `turn_limit` or with one above `MAX_TURNS` (M11).

>>> problems = Problems()
>>> loads('{"a": 1, "a": 2}', "record", problems)
{'a': 2}
>>> problems.error("record")
RecordError('invalid record: the field a appears more than once in an object')
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ..actions import Action
from ..cards import Card, Face, NamedJoker, card, parse_face
from ..combos.core import Combination, Order, build, explain
from ..errors import NotationError, RecordError
from ..rules import Rules

__all__ = [
    "FORMAT_POSITION",
    "FORMAT_RECORD",
    "FORMAT_VIEW",
    "MAX_ACTIONS",
    "MAX_ACTION_TEXT",
    "MAX_CARDS",
    "MAX_INT",
    "MAX_KEY",
    "MAX_METADATA",
    "MAX_PROBLEMS",
    "MAX_STRING",
    "MAX_TEXT",
    "MAX_TURNS",
    "OUTCOMES",
    "UNREADABLE",
    "VERSION",
    "MeldRead",
    "Problems",
    "Reader",
    "conservation",
    "describe",
    "is_int",
    "loads",
    "meld_data",
    "pretty",
    "read_format",
    "read_meld",
    "read_result",
    "result_data",
    "short",
    "texts",
]

FORMAT_RECORD = "conquian-record"
"""The ``"format"`` of a game record."""
FORMAT_POSITION = "conquian-position"
"""The ``"format"`` of a position."""
FORMAT_VIEW = "conquian-view"
"""The ``"format"`` of a player's view."""
VERSION = 1
"""The version of the three formats that this library writes and reads."""

MAX_TEXT = 1_000_000
"""The longest JSON text read or written: characters for `str`, bytes for `bytes`."""
MAX_ACTIONS = 50_000
"""The most actions a record or position may hold."""
MAX_TURNS = 24_000
"""The largest Cooncan `turn_limit` under which every deal fits in `MAX_ACTIONS` (M11).

A turn is at most a draw and a discard plus the cards laid from the hand,
and a card laid on the table stays there (M6), so a deal of `t` turns holds
at most ``2 * t`` actions plus one per card of the pack (108 at most), and
each action's text is short enough that they fit in `MAX_TEXT` too."""
MAX_ACTION_TEXT = 200
"""The longest text of one action."""
MAX_CARDS = 200
"""The most entries in one list of cards (deck, hand, stock …) or of melds."""
MAX_STRING = 1_000
"""The longest player name or metadata value, in characters."""
MAX_KEY = 100
"""The longest metadata key, in characters."""
MAX_METADATA = 100
"""The most metadata entries."""
MAX_INT = 2**63 - 1
"""The largest integer a document may hold: the largest signed 64-bit integer.

Only a Cooncan `turn_limit` can pass 2**53 - 1, beyond which a reader that
keeps numbers as doubles (JavaScript without BigInt) loses exactness."""
MAX_PROBLEMS = 100
"""The most problems one `RecordError` lists; the rest are counted."""

# -- writing -------------------------------------------------------------------------------


def texts(faces: Iterable[Face | Action]) -> list[str]:
    """The notation of each card, face or action."""
    return [str(f) for f in faces]


def meld_data(combo: Combination) -> dict[str, Any]:
    """A combination on the table as JSON data: its owner, cards, and the shifted jokers (M9)."""
    data: dict[str, Any] = {"owner": combo.owner, "cards": texts(combo.cards)}
    shifted = [str(f) for f in combo.cards if type(f) is NamedJoker and f.shifted]
    if shifted:
        data["shifted"] = shifted
    return data


def result_data(result: Any) -> dict[str, Any] | None:
    """A deal's `Result` as JSON data, or None while the deal goes on (`result` is None)."""
    if result is None:
        return None
    return {
        "outcome": result.outcome.value,
        "winner": result.winner,
        "payments": list(result.payments),
    }


def compact(value: Any) -> str:
    """A JSON value on one line."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def pretty(data: Mapping[str, Any], indent: str = "") -> str:
    """An object with one field per line; lists of lists or objects one item per line."""
    inner = indent + "  "
    lines = []
    for key, value in data.items():
        if key == "snapshot" and isinstance(value, dict):
            text = pretty(value, inner)
        elif isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
            items = ",\n".join(inner + "  " + compact(v) for v in value)
            text = f"[\n{items}\n{inner}]"
        else:
            text = compact(value)
        lines.append(f"{inner}{json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n" + indent + "}"


# -- reading: problems and values ------------------------------------------------------------


class Problems:
    """The problems found so far; past `MAX_PROBLEMS` they are only counted."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.more = 0

    def add(self, text: str) -> None:
        if len(self.items) < MAX_PROBLEMS:
            self.items.append(text)
        else:
            self.more += 1

    def __len__(self) -> int:
        return len(self.items) + self.more

    def error(self, what: str) -> RecordError:
        listed = list(self.items) or ["it could not be read"]  # never empty
        if self.more:
            listed.append(f"and {self.more} more problem{'s' if self.more > 1 else ''}")
        return RecordError(listed, what=what)


def describe(value: object) -> str:
    """A short, safe description of a JSON value for a message (never a deep repr)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value)
        return f"the number {text}" if len(text) <= 30 else f"a number of {len(text)} digits"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:40] + "…"
        return f"the string {shown!r}"
    if isinstance(value, list):
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def number(value: int) -> str:
    text = str(value)
    return text if len(text) <= 30 else f"of {len(text)} digits"


def is_int(value: object) -> bool:
    return type(value) is int


class Reader:
    """Checks JSON values field by field, adding a problem for each bad one."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def add(self, text: str) -> None:
        self.problems.add(text)

    def fields(
        self,
        value: object,
        path: str,
        required: tuple[str, ...],
        optional: tuple[str, ...] = (),
    ) -> dict[str, Any] | None:
        """An object with these fields: unknown ones and missing ones are problems."""
        if not isinstance(value, dict):
            self.add(f"{path}: expected an object (got {describe(value)})")
            return None
        prefix = f"{path}." if path else ""
        for key in value:
            if key not in required and key not in optional:
                self.add(f"{prefix}{short(key)}: unknown field")
        for key in required:
            if key not in value:
                self.add(f"{prefix}{key}: missing")
        return value

    def integer(self, value: object, path: str, low: int = 0) -> int | None:
        if not is_int(value):
            self.add(f"{path}: expected an integer (got {describe(value)})")
            return None
        assert isinstance(value, int)
        if value > MAX_INT:
            self.add(f"{path}: {describe(value)} is larger than {MAX_INT}, the largest allowed")
            return None
        if value < low:
            self.add(f"{path}: expected an integer of at least {low} (got {describe(value)})")
            return None
        return value

    def seat(
        self, value: object, path: str, players: int | None, *, null: bool = False
    ) -> int | None:
        if value is None and null:
            return None
        if not is_int(value):
            expected = "a seat number or null" if null else "a seat number"
            self.add(f"{path}: expected {expected} (got {describe(value)})")
            return None
        assert isinstance(value, int)
        if value < 0 or (players is not None and value >= players):
            top = "" if players is None else f" among {players} players (0 to {players - 1})"
            self.add(f"{path}: no seat {number(value)}{top}")
            return None
        return value

    def text(self, value: object, path: str, limit: int) -> str | None:
        if not isinstance(value, str):
            self.add(f"{path}: expected a string (got {describe(value)})")
            return None
        if len(value) > limit:
            self.add(f"{path}: {len(value)} characters, more than the limit of {limit}")
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.add(f"{path}: not valid Unicode text (it holds a lone surrogate)")
            return None
        return value

    def array(self, value: object, path: str, limit: int, what: str = "items") -> list[Any] | None:
        if not isinstance(value, list):
            self.add(f"{path}: expected a list (got {describe(value)})")
            return None
        if len(value) > limit:
            self.add(f"{path}: {len(value)} {what}, more than the limit of {limit}")
            return None
        return value

    def one_card(self, value: object, path: str) -> Card | None:
        if not isinstance(value, str) or len(value) > 20:
            self.add(f"{path}: expected a card in notation, as '5H' (got {describe(value)})")
            return None
        try:
            return card(value)
        except NotationError as e:
            self.add(f"{path}: {e}")
            return None

    def card_or_null(self, value: object, path: str) -> tuple[bool, Card | None]:
        """(whether it read, the card or None)."""
        if value is None:
            return True, None
        c = self.one_card(value, path)
        return c is not None, c

    def card_list(self, value: object, path: str, most: int = MAX_CARDS) -> list[Card] | None:
        """A list of at most `most` cards, or None if the list or any card in it is bad (each
        is reported)."""
        items = self.array(value, path, most, "cards")
        if items is None:
            return None
        out = [self.one_card(v, f"{path}[{i}]") for i, v in enumerate(items)]
        return None if any(c is None for c in out) else [c for c in out if c is not None]

    def choice(self, value: object, path: str, allowed: tuple[Any, ...]) -> bool:
        if not any(value == a and type(value) is type(a) for a in allowed):
            shown = ", ".join(json.dumps(a) for a in allowed)
            self.add(f"{path}: expected one of {shown} (got {describe(value)})")
            return False
        return True


_PLAIN = re.compile(r"[A-Za-z0-9_-]{1,40}")


def short(key: str) -> str:
    """A field name as a message shows it: as it is if plain, else quoted and cut."""
    if _PLAIN.fullmatch(key):
        return key
    return repr(key if len(key) <= 40 else key[:40] + "…")


UNREADABLE = object()
"""What `loads` returns when the text is not JSON it can read (JSON null is None)."""


def loads(text: object, what: str, problems: Problems) -> Any:
    """The JSON value of `text`, or `UNREADABLE` after adding the problem (size, encoding,
    syntax)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_TEXT:
            problems.add(f"{len(text)} bytes, more than the limit of {MAX_TEXT}")
            return UNREADABLE
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            problems.add(f"not UTF-8 text: {e.reason} at byte {e.start}")
            return UNREADABLE
    if not isinstance(text, str):
        problems.add(f"a {what} is JSON text (str or bytes), not {type(text).__name__}")
        return UNREADABLE
    if len(text) > MAX_TEXT:
        problems.add(f"{len(text)} characters, more than the limit of {MAX_TEXT}")
        return UNREADABLE
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                duplicates.append(key)
            out[key] = value
        return out

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as e:
        problems.add(f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}")
        return UNREADABLE
    except RecursionError:
        problems.add("not JSON that can be read: nested too deeply")
        return UNREADABLE
    except ValueError as e:  # NaN, Infinity, an integer of more than 4300 digits
        problems.add(f"not JSON that can be read: {str(e).split(':')[0]}")
        return UNREADABLE
    for key in dict.fromkeys(duplicates):
        problems.add(f"the field {short(key)} appears more than once in an object")
    return data


def read_format(data: Any, fmt: str, r: Reader) -> bool:
    """Whether the format and version are the expected ones; stops reading if not."""
    if not isinstance(data, dict):
        r.add(f"the top level is {describe(data)}, not a JSON object")
        return False
    found = data.get("format")
    if "format" not in data:
        r.add("format: missing")
        return False
    if found != fmt:
        hint = (
            {
                FORMAT_RECORD: "; this is a game record: load it with GameRecord.from_json",
                FORMAT_POSITION: "; this is a position: load it with State.from_json",
                FORMAT_VIEW: "; this is a player's view: load it with PlayerView.from_json",
            }.get(found, "")
            if isinstance(found, str)
            else ""
        )
        r.add(f"format: expected {fmt!r} (got {describe(found)}){hint}")
        return False
    version = data.get("version")
    if "version" not in data:
        r.add("version: missing")
        return False
    if not is_int(version) or version != VERSION:
        r.add(f"version: this library reads version {VERSION} (got {describe(version)})")
        return False
    return True


def conservation(
    pack: tuple[Card, ...],
    placed: list[tuple[Card, str]],
    complete: bool,
    where: str,
    game: str,
    r: Reader,
) -> None:
    """Each card of the pack exactly as often as the pack holds it (E3).

    `placed` pairs each card read with where it was found; with `complete`
    false (some card could not be read) missing cards are not reported.
    """
    want = Counter(pack)
    have: Counter[Card] = Counter(c for c, _ in placed)
    for c in sorted(have):
        n, k = have[c], want[c]
        if n <= k:
            continue
        spots = list(dict.fromkeys(path for cc, path in placed if cc == c))
        at = ", ".join(spots[:6]) + (", …" if len(spots) > 6 else "")
        if k == 0:
            r.add(f"{where}{c} is not a card of the {game} pack (found in {at})")
        elif n == 2:
            r.add(f"{where}{c} appears twice, the pack has it once (found in {at})")
        else:
            r.add(
                f"{where}{c} appears {n} times, the pack has it {k} time{'s' if k > 1 else ''} "
                f"(found in {at})"
            )
    if complete:
        for c in sorted(want - have):
            n = (want - have)[c]
            r.add(f"{where}{c} is missing" + ("" if n == 1 else f" {n} times"))


def read_deck(value: object, rules: Rules | None, r: Reader) -> tuple[Card, ...] | None:
    items = r.array(value, "deck", MAX_CARDS, "cards")
    if items is None:
        return None
    parsed = [r.one_card(v, f"deck[{i}]") for i, v in enumerate(items)]
    good = [(c, f"deck[{i}]") for i, c in enumerate(parsed) if c is not None]
    complete = len(good) == len(parsed)
    if rules is None:
        return None
    pack = rules.pack_cards()
    before = len(r.problems)
    if complete and len(items) != len(pack):
        r.add(f"deck: {len(items)} cards, but the {rules.game} pack has {len(pack)}")
    conservation(pack, good, complete, "deck: ", rules.game, r)
    if not complete or len(r.problems) > before:
        return None
    return tuple(c for c, _ in good)


@attrs.frozen
class MeldRead:
    """A meld of a snapshot, read: the combination, or None if it is not one."""

    combo: Combination | None
    owner: int | None
    faces: tuple[Face, ...] | None


def read_meld(value: object, path: str, players: int, order: Order, r: Reader) -> MeldRead:
    """A combination of a snapshot's table: its owner, cards and shifted jokers, checked."""
    meld = r.fields(value, path, ("owner", "cards"), ("shifted",))
    if meld is None:
        return MeldRead(None, None, None)
    owner = r.seat(meld["owner"], f"{path}.owner", players) if "owner" in meld else None
    faces: list[Face] | None = None
    if "cards" in meld:
        items = r.array(meld["cards"], f"{path}.cards", MAX_CARDS, "cards")
        if items is not None:
            faces = []
            for i, v in enumerate(items):
                if not isinstance(v, str) or len(v) > 20:
                    r.add(
                        f"{path}.cards[{i}]: expected a card in notation, as '5H' or 'JK=4D' "
                        f"(got {describe(v)})"
                    )
                    faces = None
                    break
                try:
                    faces.append(parse_face(v))
                except NotationError as e:
                    r.add(f"{path}.cards[{i}]: {e}")
                    faces = None
                    break
    if faces is not None and "shifted" in meld:
        faces = _mark_shifted(meld["shifted"], faces, f"{path}.shifted", r)
    if faces is None or owner is None:
        return MeldRead(None, owner, None if faces is None else tuple(faces))
    combo = build(faces, order, owner)
    if combo is None:
        r.add(f"{path}: {explain(faces, order)}")
    return MeldRead(combo, owner, tuple(faces))


def _mark_shifted(value: object, faces: list[Face], path: str, r: Reader) -> list[Face] | None:
    items = r.array(value, path, MAX_CARDS, "jokers")
    if items is None:
        return None
    out = list(faces)
    for i, v in enumerate(items):
        found = None
        if isinstance(v, str) and len(v) <= 20:
            try:
                face = parse_face(v)
            except NotationError:
                face = None
            if type(face) is NamedJoker:
                found = next((j for j, f in enumerate(out) if f == face), None)
        if found is None:
            r.add(
                f"{path}[{i}]: expected a named joker of this meld, as 'JK=6H' (got {describe(v)})"
            )
            return None
        joker = out[found]
        assert type(joker) is NamedJoker
        out[found] = NamedJoker(joker.rank, joker.suit, shifted=True)
    return out


OUTCOMES = ("win", "tableau", "abandoned")
"""The values of `conquian.state.base.Outcome`, as a result's ``"outcome"`` holds them."""


def read_result(value: object, players: int, r: Reader) -> tuple[bool, dict[str, Any] | None]:
    """A snapshot's result as canonical JSON data (as `result_data` writes it), checked.

    Returns whether it could be read, and the data (None: the deal goes on).
    A result has a winner exactly when its outcome is a win, and its
    payments sum to zero (T13, M7).
    """
    if value is None:
        return True, None
    data = r.fields(value, "snapshot.result", ("outcome", "winner", "payments"))
    if data is None or any(k not in data for k in ("outcome", "winner", "payments")):
        return False, None
    ok = r.choice(data["outcome"], "snapshot.result.outcome", OUTCOMES)
    winner = r.seat(data["winner"], "snapshot.result.winner", players, null=True)
    ok = ok and (winner is not None or data["winner"] is None)
    payments = r.array(data["payments"], "snapshot.result.payments", players + 1, "payments")
    if payments is None:
        return False, None
    if len(payments) != players:
        r.add(f"snapshot.result.payments: {len(payments)} payments for {players} players")
        return False, None
    read = [
        r.integer(p, f"snapshot.result.payments[{i}]", -MAX_INT) for i, p in enumerate(payments)
    ]
    values = [v for v in read if v is not None]
    if not ok or len(values) != len(read):
        return False, None
    if (data["outcome"] == "win") != (winner is not None):
        r.add("snapshot.result: a result has a winner exactly when its outcome is a win")
        return False, None
    if sum(values) != 0:
        r.add(f"snapshot.result: payments must sum to zero (got {tuple(values)})")
        return False, None
    return True, {"outcome": data["outcome"], "winner": winner, "payments": values}
