"""Game records, positions and views as JSON, validated on the way in (RULES.md C6, C7, E2, E3).

Three JSON documents, each an object with a ``"format"`` and a ``"version"``
(the specification is the docs page *Records and positions*):

- a **game record** (``"conquian-record"``), a `GameRecord`: the rules with
  every option, the dealer, the whole deal (the order of the pack, not a
  seed), the actions in text notation, and optional player names and
  metadata. `GameRecord.replay` gives the state it leads to (C7);
- a **position** (``"conquian-position"``), `State.to_json` and
  `State.from_json`: a state is fully determined by its deal and actions
  (C7) and state equality includes the history, so a position is the record
  *plus* a snapshot of every zone at that moment, for readers in other
  languages and as a check. Loading checks the snapshot on its own
  (conservation, hand sizes, melds), replays the actions, and requires the
  snapshot to match the replayed state;
- a **view** (``"conquian-view"``), `PlayerView.to_json`: what one player may
  know (C6), to send him over a network. It never names a card he cannot
  place.

>>> from conquian.records import GameRecord
>>> state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
>>> record = GameRecord.from_state(state, player_names=("Ann", "Bob"))
>>> GameRecord.from_json(record.to_json()).replay() == state
True
>>> State.from_json(state.to_json()) == state
True

Loading never trusts its input: it parses with `json.loads` only, refuses
input larger than the limits below before looking inside, and reports every
problem it finds in one `RecordError` (a `ValueError`), each naming the field:

>>> GameRecord.from_json('{"format": "conquian-record", "version": 1, "rules": {"game": "chess"}}')
Traceback (most recent call last):
...
conquian.errors.RecordError: invalid record: rules.game: unknown game 'chess' \
(use two-hand, three-hand or double-pack); dealer: missing; deck: missing; actions: missing
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, parse_action
from .cards import JOKER, Card, Face, NamedJoker, card, cards, parse_face
from .combos import Combination, Order, build, explain
from .cooncan import CooncanState, CooncanView
from .errors import IllegalActionError, NotationError, RecordError, RulesError
from .game import new_game
from .rules import ConquianRules, CooncanRules, Rules
from .state import Outcome, PlayerView, Result, State
from .two_hand import ConquianState, ConquianView

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
    "VERSION",
    "GameRecord",
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
"""The longest JSON text read: characters for `str`, bytes for `bytes`."""
MAX_ACTIONS = 10_000
"""The most actions a record or position may hold."""
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
MAX_INT = 2**53 - 1
"""The largest integer a document may hold (the largest that every JSON reader keeps exactly)."""
MAX_PROBLEMS = 100
"""The most problems one `RecordError` lists; the rest are counted."""

_GAMES = ("two-hand", "three-hand", "double-pack")
_OPTIONS: dict[str, tuple[str, ...]] = {
    "two-hand": (
        "pack",
        "hand_size",
        "lay_down",
        "borrow_middle",
        "borrow_other_kind",
        "max_sequence",
    ),
    "three-hand": ("players", "jokers", "stock", "splash_bonus", "turn_limit"),
    "double-pack": ("players", "jokers", "stock", "splash_bonus", "turn_limit"),
}
_RECORD_FIELDS = ("format", "version", "rules", "dealer", "deck", "actions")
_RECORD_OPTIONAL = ("player_names", "metadata")
_POSITION_FIELDS = ("format", "version", "rules", "dealer", "deck", "actions", "snapshot")
_TWO_HAND_SNAPSHOT = (
    "current_player",
    "hands",
    "table",
    "offer",
    "offer_origin",
    "pending",
    "stock",
    "buried",
    "result",
)
_COONCAN_SNAPSHOT = (
    "current_player",
    "phase",
    "hands",
    "table",
    "stock",
    "pack",
    "pack_known",
    "taken",
    "known",
    "turns",
    "result",
)
_ORIGINS = ("turned", "passed", "discarded")
_PHASES = ("draw", "play")


# -- writing -------------------------------------------------------------------------------


def _rules_data(rules: Rules) -> dict[str, Any]:
    """The rules as JSON data: the game and every option (none left to a default)."""
    data: dict[str, Any] = {"game": rules.game}
    for option in _OPTIONS[rules.game]:
        data[option] = getattr(rules, option)
    return data


def _texts(faces: Iterable[Face | Action]) -> list[str]:
    return [str(f) for f in faces]


def _meld_data(combo: Combination) -> dict[str, Any]:
    data: dict[str, Any] = {"owner": combo.owner, "cards": _texts(combo.cards)}
    shifted = [str(f) for f in combo.cards if type(f) is NamedJoker and f.shifted]
    if shifted:
        data["shifted"] = shifted
    return data


def _result_data(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "outcome": result.outcome.value,
        "winner": result.winner,
        "payments": list(result.payments),
    }


def _deal_of(state: State) -> tuple[tuple[Card, ...], int]:
    if not isinstance(state, (ConquianState, CooncanState)):
        raise TypeError(f"expected a state made by new_game (got {type(state).__name__})")
    return state.deck, state.dealer


def _snapshot(state: State) -> dict[str, Any]:
    """Every zone of a state, in the field order of the format."""
    players = state.rules.players
    hands = [_texts(state.hand(p)) for p in range(players)]
    table = [_meld_data(m) for m in state.table]
    if isinstance(state, ConquianState):
        stock = state.deck[len(state.deck) - state.stock_size :]  # the stock is the deck's tail
        return {
            "current_player": state.current_player,
            "hands": hands,
            "table": table,
            "offer": None if state.offer is None else str(state.offer),
            "offer_origin": state.offer_origin,
            "pending": _texts(state.pending),
            "stock": _texts(stock),
            "buried": _texts(state.buried),
            "result": _result_data(state.result),
        }
    assert isinstance(state, CooncanState)
    return {
        "current_player": state.current_player,
        "phase": state.phase,
        "hands": hands,
        "table": table,
        "stock": _texts(state.stock),
        "pack": _texts(state.pack),
        "pack_known": state.pack_is_known,
        "taken": None if state.taken is None else str(state.taken),
        "known": [_texts(sorted(k)) for k in state.known],
        "turns": state.turns,
        "result": _result_data(state.result),
    }


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _pretty(data: Mapping[str, Any], indent: str = "") -> str:
    """An object with one field per line; lists of lists or objects one item per line."""
    inner = indent + "  "
    lines = []
    for key, value in data.items():
        if key == "snapshot" and isinstance(value, dict):
            text = _pretty(value, inner)
        elif isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
            items = ",\n".join(inner + "  " + _compact(v) for v in value)
            text = f"[\n{items}\n{inner}]"
        else:
            text = _compact(value)
        lines.append(f"{inner}{json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n" + indent + "}"


def _position_to_json(state: State) -> str:
    """`State.to_json`: the position of a state (its record and a snapshot of its zones)."""
    deck, dealer = _deal_of(state)
    _check_rules_ints(state.rules)
    data = {
        "format": FORMAT_POSITION,
        "version": VERSION,
        "rules": _rules_data(state.rules),
        "dealer": dealer,
        "deck": _texts(deck),
        "actions": _texts(state.history),
        "snapshot": _snapshot(state),
    }
    return _pretty(data)


def _view_to_json(view: PlayerView) -> str:
    """`PlayerView.to_json`: the view, written field by field from what the player may know."""
    if not isinstance(view, (ConquianView, CooncanView)):
        raise TypeError(f"expected a view made by State.view (got {type(view).__name__})")
    data: dict[str, Any] = {
        "format": FORMAT_VIEW,
        "version": VERSION,
        "rules": _rules_data(view.rules),
        "player": view.player,
        "dealer": view.dealer,
        "current_player": view.current_player,
        "hand": _texts(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "table": [_meld_data(m) for m in view.table],
    }
    if isinstance(view, ConquianView):
        data.update(
            offer=None if view.offer is None else str(view.offer),
            offer_origin=view.offer_origin,
            pending=_texts(view.pending),
            stock_size=view.stock_size,
            buried=_texts(view.buried),
        )
    else:
        data.update(
            phase=view.phase,
            stock=_texts(view.stock),
            pack_size=view.pack_size,
            known=[_texts(sorted(k)) for k in view.known],
            known_pack=None if view.known_pack is None else _texts(view.known_pack),
            turns=view.turns,
        )
    data.update(
        history=_texts(view.history),
        result=_result_data(view.result),
        legal_actions=_texts(view.legal_actions),
    )
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


# -- reading: problems and values ------------------------------------------------------------


class _Problems:
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


def _describe(value: object) -> str:
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


def _number(value: int) -> str:
    text = str(value)
    return text if len(text) <= 30 else f"of {len(text)} digits"


def _is_int(value: object) -> bool:
    return type(value) is int


def _check_rules_ints(rules: Rules) -> None:
    if isinstance(rules, CooncanRules) and (rules.turn_limit or 0) > MAX_INT:
        raise RecordError(
            [
                f"rules.turn_limit: {rules.turn_limit} is larger than {MAX_INT}, "
                "the largest integer a record may hold"
            ]
        )


class _Reader:
    """Checks JSON values field by field, adding a problem for each bad one."""

    def __init__(self, problems: _Problems) -> None:
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
            self.add(f"{path}: expected an object (got {_describe(value)})")
            return None
        prefix = f"{path}." if path else ""
        for key in value:
            if key not in required and key not in optional:
                self.add(f"{prefix}{_short(key)}: unknown field")
        for key in required:
            if key not in value:
                self.add(f"{prefix}{key}: missing")
        return value

    def integer(self, value: object, path: str, low: int = 0) -> int | None:
        if not _is_int(value):
            self.add(f"{path}: expected an integer (got {_describe(value)})")
            return None
        assert isinstance(value, int)
        if value > MAX_INT:
            self.add(f"{path}: {_describe(value)} is larger than {MAX_INT}, the largest allowed")
            return None
        if value < low:
            self.add(f"{path}: expected an integer of at least {low} (got {_describe(value)})")
            return None
        return value

    def seat(
        self, value: object, path: str, players: int | None, *, null: bool = False
    ) -> int | None:
        if value is None and null:
            return None
        if not _is_int(value):
            expected = "a seat number or null" if null else "a seat number"
            self.add(f"{path}: expected {expected} (got {_describe(value)})")
            return None
        assert isinstance(value, int)
        if value < 0 or (players is not None and value >= players):
            top = "" if players is None else f" among {players} players (0 to {players - 1})"
            self.add(f"{path}: no seat {_number(value)}{top}")
            return None
        return value

    def text(self, value: object, path: str, limit: int) -> str | None:
        if not isinstance(value, str):
            self.add(f"{path}: expected a string (got {_describe(value)})")
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
            self.add(f"{path}: expected a list (got {_describe(value)})")
            return None
        if len(value) > limit:
            self.add(f"{path}: {len(value)} {what}, more than the limit of {limit}")
            return None
        return value

    def one_card(self, value: object, path: str) -> Card | None:
        if not isinstance(value, str) or len(value) > 20:
            self.add(f"{path}: expected a card in notation, as '5H' (got {_describe(value)})")
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

    def card_list(self, value: object, path: str) -> list[Card] | None:
        """A list of cards, or None if the list or any card in it is bad (each is reported)."""
        items = self.array(value, path, MAX_CARDS, "cards")
        if items is None:
            return None
        out = [self.one_card(v, f"{path}[{i}]") for i, v in enumerate(items)]
        return None if any(c is None for c in out) else [c for c in out if c is not None]

    def choice(self, value: object, path: str, allowed: tuple[Any, ...]) -> bool:
        if not any(value == a and type(value) is type(a) for a in allowed):
            shown = ", ".join(json.dumps(a) for a in allowed)
            self.add(f"{path}: expected one of {shown} (got {_describe(value)})")
            return False
        return True


_PLAIN = re.compile(r"[A-Za-z0-9_-]{1,40}")


def _short(key: str) -> str:
    """A field name as a message shows it: as it is if plain, else quoted and cut."""
    if _PLAIN.fullmatch(key):
        return key
    return repr(key if len(key) <= 40 else key[:40] + "…")


_UNREADABLE = object()
"""What `_loads` returns when the text is not JSON it can read (JSON null is None)."""


def _loads(text: object, what: str, problems: _Problems) -> Any:
    """The JSON value of `text`, or `_UNREADABLE` after adding the problem (size, encoding,
    syntax)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_TEXT:
            problems.add(f"{len(text)} bytes, more than the limit of {MAX_TEXT}")
            return _UNREADABLE
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            problems.add(f"not UTF-8 text: {e.reason} at byte {e.start}")
            return _UNREADABLE
    if not isinstance(text, str):
        problems.add(f"a {what} is JSON text (str or bytes), not {type(text).__name__}")
        return _UNREADABLE
    if len(text) > MAX_TEXT:
        problems.add(f"{len(text)} characters, more than the limit of {MAX_TEXT}")
        return _UNREADABLE
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
        return _UNREADABLE
    except RecursionError:
        problems.add("not JSON that can be read: nested too deeply")
        return _UNREADABLE
    except ValueError as e:  # NaN, Infinity, an integer of more than 4300 digits
        problems.add(f"not JSON that can be read: {str(e).split(':')[0]}")
        return _UNREADABLE
    for key in dict.fromkeys(duplicates):
        problems.add(f"the field {_short(key)} appears more than once in an object")
    return data


def _read_format(data: Any, fmt: str, r: _Reader) -> bool:
    """Whether the format and version are the expected ones; stops reading if not."""
    if not isinstance(data, dict):
        r.add(f"the top level is {_describe(data)}, not a JSON object")
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
                FORMAT_VIEW: "; this is a player's view, which cannot be loaded",
            }.get(found, "")
            if isinstance(found, str)
            else ""
        )
        r.add(f"format: expected {fmt!r} (got {_describe(found)}){hint}")
        return False
    version = data.get("version")
    if "version" not in data:
        r.add("version: missing")
        return False
    if not _is_int(version) or version != VERSION:
        r.add(f"version: this library reads version {VERSION} (got {_describe(version)})")
        return False
    return True


def _read_rules(value: object, r: _Reader) -> Rules | None:
    if not isinstance(value, dict):
        r.add(f"rules: expected an object (got {_describe(value)})")
        return None
    game = value.get("game")
    if "game" not in value:
        r.add("rules.game: missing")
        return None
    if game not in _GAMES:
        shown = repr(_short(game)) if isinstance(game, str) else _describe(game)
        r.add(f"rules.game: unknown game {shown} (use two-hand, three-hand or double-pack)")
        return None
    assert isinstance(game, str)
    if game == "two-hand":
        value = _old_two_hand_options(value)
    options = _OPTIONS[game]
    good = True
    for key in value:
        if key != "game" and key not in options:
            r.add(
                f"rules.{_short(key)}: unknown option of the {game} game "
                f"(its options are {', '.join(options)})"
            )
            good = False
    for option in options:
        if option not in value:
            r.add(f"rules.{option}: missing")
            good = False
            continue
        v = value[option]
        if not (v is None or isinstance(v, (bool, int)) or (isinstance(v, str) and len(v) <= 40)):
            r.add(f"rules.{option}: not a value of this option (got {_describe(v)})")
            good = False
            continue
        if isinstance(v, int) and not isinstance(v, bool) and v > MAX_INT:
            r.add(f"rules.{option}: {_describe(v)} is larger than {MAX_INT}, the largest allowed")
            good = False
            continue
        try:
            _make_rules(game, {option: v})
        except (RulesError, TypeError, ValueError) as e:
            r.add(f"rules.{e}")
            good = False
    if not good:
        return None
    try:
        return _make_rules(game, {o: value[o] for o in options})
    except (RulesError, TypeError, ValueError) as e:  # pragma: no cover - each option checked
        r.add(f"rules.{e}")
        return None


def _old_two_hand_options(value: dict[Any, Any]) -> dict[Any, Any]:
    """Two-hand rules written before T8's `lay_down` and T9's `borrow_other_kind`: the
    boolean ``lay_down_from_hand`` reads as ``"say"`` (true) or ``"meld"`` (false), and
    the missing `borrow_other_kind` as false. Anything else is left for the checks."""
    old = value.get("lay_down_from_hand")
    if "lay_down" in value or type(old) is not bool:
        return value
    new = {k: v for k, v in value.items() if k != "lay_down_from_hand"}
    new["lay_down"] = "say" if old else "meld"
    new.setdefault("borrow_other_kind", False)
    return new


def _make_rules(game: str, options: dict[str, Any]) -> Rules:
    if game == "two-hand":
        return ConquianRules(**options)
    return CooncanRules(**{"variant": game, **options})


def _conservation(
    pack: tuple[Card, ...],
    placed: list[tuple[Card, str]],
    complete: bool,
    where: str,
    game: str,
    r: _Reader,
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


def _read_deck(value: object, rules: Rules | None, r: _Reader) -> tuple[Card, ...] | None:
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
    _conservation(pack, good, complete, "deck: ", rules.game, r)
    if not complete or len(r.problems) > before:
        return None
    return tuple(c for c, _ in good)


def _read_actions(value: object, r: _Reader) -> tuple[list[Action], bool] | None:
    """The actions read before the first bad one, and whether all were read."""
    items = r.array(value, "actions", MAX_ACTIONS, "actions")
    if items is None:
        return None
    out: list[Action] = []
    complete = True
    for i, v in enumerate(items):
        path = f"actions[{i}]"
        if not isinstance(v, str):
            r.add(f"{path}: expected an action in notation, as 'take 5H' (got {_describe(v)})")
            complete = False
            continue
        if len(v) > MAX_ACTION_TEXT:
            r.add(f"{path}: {len(v)} characters, more than the limit of {MAX_ACTION_TEXT}")
            complete = False
            continue
        try:
            action = parse_action(v)
        except (NotationError, ValueError) as e:
            r.add(f"{path}: {e}")
            complete = False
            continue
        if complete:
            out.append(action)
    return out, complete


def _replay(
    rules: Rules, deck: tuple[Card, ...], dealer: int, actions: Iterable[Action], r: _Reader
) -> State | None:
    """The state after the actions, or None after reporting the first illegal one (E1)."""
    state = new_game(rules, deck=deck, dealer=dealer)
    for i, action in enumerate(actions):
        try:
            state = state.apply(action)
        except IllegalActionError as e:
            r.add(f"actions[{i}]: {e}")
            return None
    return state


@attrs.frozen
class _Deal:
    """What a record and a position share, once read (not yet replayed)."""

    rules: Rules | None
    deck: tuple[Card, ...] | None
    dealer: int | None
    actions: tuple[Action, ...]  # those read before the first bad one
    complete: bool  # every action could be read
    read: bool  # the actions field was a list within the limit

    def replay(self, r: _Reader) -> State | None:
        """The state after all the actions, when everything was read and they are legal.

        With a bad action text, the actions before it are still replayed, to
        report an illegal one among them.
        """
        if self.rules is None or self.deck is None or self.dealer is None or not self.read:
            return None
        final = _replay(self.rules, self.deck, self.dealer, self.actions, r)
        return final if self.complete else None


def _read_deal(data: dict[str, Any], r: _Reader) -> _Deal:
    rules = _read_rules(data["rules"], r) if "rules" in data else None
    dealer = None
    if "dealer" in data:
        dealer = r.seat(data["dealer"], "dealer", None if rules is None else rules.players)
    deck = _read_deck(data["deck"], rules, r) if "deck" in data else None
    read = _read_actions(data["actions"], r) if "actions" in data else None
    actions, complete = read if read is not None else ([], False)
    return _Deal(rules, deck, dealer, tuple(actions), complete, read is not None)


# -- game records ------------------------------------------------------------------------------


def _to_cards(value: str | Iterable[Card]) -> tuple[Card, ...]:
    return cards(value) if isinstance(value, str) else tuple(value)


def _to_actions(value: Iterable[Action | str]) -> tuple[Action, ...]:
    if isinstance(value, str):
        raise TypeError("actions are a sequence of actions or action texts, not one string")
    return tuple(parse_action(a) if isinstance(a, str) else a for a in value)


def _to_names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        raise TypeError("player_names are a sequence of names, one per seat, not one string")
    return tuple(value)


def _to_metadata(
    value: Mapping[str, str] | Iterable[tuple[str, str]],
) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    for pair in value.items() if isinstance(value, Mapping) else value:
        key, text = pair
        pairs.append((key, text))
    return tuple(sorted(pairs, key=lambda kv: str(kv[0])))


def _check_record(record: GameRecord) -> None:
    r = _Reader(_Problems())
    rules = record.rules
    if not isinstance(rules, (ConquianRules, CooncanRules)):
        raise RecordError(
            [f"rules: expected ConquianRules or CooncanRules (got {type(rules).__name__})"]
        )
    _check_rules_ints(rules)
    bad = [i for i, c in enumerate(record.deck) if not isinstance(c, Card)]
    for i in bad[:10]:
        r.add(f"deck[{i}]: {record.deck[i]!r} is not a card")
    if not bad:
        placed = [(c, f"deck[{i}]") for i, c in enumerate(record.deck)]
        _conservation(rules.pack_cards(), placed, True, "deck: ", rules.game, r)
    r.seat(record.dealer, "dealer", rules.players)
    if len(record.actions) > MAX_ACTIONS:
        r.add(f"actions: {len(record.actions)} actions, more than the limit of {MAX_ACTIONS}")
    for i, a in enumerate(record.actions):
        if not isinstance(a, (Take, Pass, Draw, Meld, Borrow, Force, Discard)):
            r.add(f"actions[{i}]: {a!r} is not an action")
    names = record.player_names
    if names and len(names) != rules.players:
        r.add(
            f"player_names: {len(names)} names for {rules.players} players "
            "(give one per seat, or none)"
        )
    for i, name in enumerate(names):
        r.text(name, f"player_names[{i}]", MAX_STRING)
    _check_metadata(record.metadata, r)
    if r.problems:
        raise r.problems.error("record")


def _check_metadata(pairs: Iterable[tuple[object, object]], r: _Reader) -> None:
    seen: set[object] = set()
    count = 0
    for key, value in pairs:
        count += 1
        if r.text(key, "metadata", MAX_KEY) is None:
            continue
        assert isinstance(key, str)
        if not key:
            r.add("metadata: a key is empty")
        if key in seen:
            r.add(f"metadata.{_short(key)}: given twice")
        seen.add(key)
        r.text(value, f"metadata.{_short(key)}", MAX_STRING)
    if count > MAX_METADATA:
        r.add(f"metadata: {count} entries, more than the limit of {MAX_METADATA}")


@attrs.frozen
class GameRecord:
    """A game as a value: the rules, the deal, the actions, and who played when (C7).

    - `rules`: the `ConquianRules` or `CooncanRules` of the deal;
    - `deck`: the whole pack in the order dealt, top card first (not a seed:
      a record stays readable whatever shuffle made the deal);
    - `dealer`: the dealer's seat;
    - `actions`: the actions from the deal on (text is parsed);
    - `player_names`: one name per seat, or none;
    - `metadata`: free-form ``(key, value)`` strings, such as ``event``,
      ``date`` (ISO 8601), ``site``; kept sorted by key (a mapping is accepted).

    Building a record checks its fields (the deck must be exactly the rules'
    pack, E3) and raises `RecordError` listing every problem; `replay`
    checks the actions. `to_json` and `from_json` are the JSON form (the
    docs page *Records and positions* is the specification).

    >>> from conquian.records import GameRecord
    >>> state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
    >>> record = GameRecord.from_state(state, metadata={"event": "club night"})
    >>> [str(a) for a in record.actions], dict(record.metadata)
    (['take KD', 'meld JD QD KD'], {'event': 'club night'})
    >>> record.replay() == state
    True
    """

    rules: Rules
    deck: tuple[Card, ...] = attrs.field(converter=_to_cards)
    dealer: int = 0
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_to_actions)
    player_names: tuple[str, ...] = attrs.field(default=(), converter=_to_names)
    metadata: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_to_metadata)
    _final: State | None = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _check_record(self)

    @classmethod
    def from_state(
        cls,
        state: State,
        *,
        player_names: Iterable[str] = (),
        metadata: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    ) -> GameRecord:
        """The record of how `state` was reached: its rules, deal and history.

        >>> from conquian.records import GameRecord
        >>> state = new_game(CooncanRules.three_hand(), seed=3).apply("draw")
        >>> record = GameRecord.from_state(state, player_names=["Ann", "Bob", "Cy"])
        >>> record.dealer, len(record.deck), record.player_names
        (0, 52, ('Ann', 'Bob', 'Cy'))
        """
        deck, dealer = _deal_of(state)
        record = cls(
            state.rules,
            deck=deck,
            dealer=dealer,
            actions=state.history,
            player_names=tuple(player_names),
            metadata=metadata,
        )
        object.__setattr__(record, "_final", state)  # the same deal and actions give it (C7)
        return record

    def replay(self) -> State:
        """The state the actions lead to from the deal (C7).

        Raises `RecordError` naming the first illegal action, its index and
        the rule it breaks (E1).

        >>> from conquian.records import GameRecord
        >>> record = GameRecord(ConquianRules(), deck=ConquianRules().pack_cards(),
        ...                     actions=["pass", "take 4C"])
        >>> record.replay()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        conquian.errors.RecordError: invalid record: actions[1]: illegal action 'take 4C': ... (T4)
        """
        if self._final is None:
            r = _Reader(_Problems())
            final = _replay(self.rules, self.deck, self.dealer, self.actions, r)
            if final is None:
                raise r.problems.error("record")
            object.__setattr__(self, "_final", final)
            return final
        return self._final

    def to_json(self) -> str:
        """The record as JSON text, one field per line (format ``conquian-record``, version 1).

        >>> from conquian.records import GameRecord
        >>> text = GameRecord(ConquianRules(), deck=ConquianRules().pack_cards()).to_json()
        >>> print("\\n".join(text.splitlines()[:5]))
        {
          "format": "conquian-record",
          "version": 1,
          "rules": {"game": "two-hand", "pack": "spanish", "hand_size": 10, \
"lay_down": "say", "borrow_middle": true, "borrow_other_kind": false, "max_sequence": null},
          "dealer": 0,
        """
        data: dict[str, Any] = {
            "format": FORMAT_RECORD,
            "version": VERSION,
            "rules": _rules_data(self.rules),
            "dealer": self.dealer,
            "deck": _texts(self.deck),
            "actions": _texts(self.actions),
        }
        if self.player_names:
            data["player_names"] = list(self.player_names)
        if self.metadata:
            data["metadata"] = dict(self.metadata)
        return _pretty(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read and check a record: its fields, its deal and every action (E2, E3).

        Raises `RecordError` listing every problem found (the message names
        each with its field, as ``actions[12]: unknown card '5X' …``). The
        actions are replayed, so `replay` then costs nothing.

        >>> from conquian.records import GameRecord
        >>> GameRecord.from_json("[1, 2]")
        Traceback (most recent call last):
        ...
        conquian.errors.RecordError: invalid record: the top level is a list of 2 items, \
not a JSON object
        """
        r = _Reader(_Problems())
        data = _loads(text, "record", r.problems)
        if data is _UNREADABLE or not _read_format(data, FORMAT_RECORD, r):
            raise r.problems.error("record")
        deal = _read_deal(data, r)
        final = deal.replay(r)
        r.fields(data, "", _RECORD_FIELDS, _RECORD_OPTIONAL)
        names: list[str] = []
        if "player_names" in data:
            items = r.array(data["player_names"], "player_names", 6, "names")
            if items is not None:
                for i, v in enumerate(items):
                    name = r.text(v, f"player_names[{i}]", MAX_STRING)
                    if name is not None:
                        names.append(name)
                if deal.rules is not None and items and len(items) != deal.rules.players:
                    r.add(
                        f"player_names: {len(items)} names for {deal.rules.players} players "
                        "(give one per seat, or none)"
                    )
        metadata: list[tuple[str, str]] = []
        if "metadata" in data:
            meta = data["metadata"]
            if not isinstance(meta, dict):
                r.add(f"metadata: expected an object (got {_describe(meta)})")
            elif len(meta) > MAX_METADATA:
                r.add(f"metadata: {len(meta)} entries, more than the limit of {MAX_METADATA}")
            else:
                before = len(r.problems)
                _check_metadata(meta.items(), r)
                if len(r.problems) == before:
                    metadata = list(meta.items())
        if r.problems or final is None:
            raise r.problems.error("record")
        assert deal.rules is not None and deal.deck is not None and deal.dealer is not None
        record = cls(
            deal.rules,
            deck=deal.deck,
            dealer=deal.dealer,
            actions=deal.actions,
            player_names=tuple(names),
            metadata=metadata,
        )
        object.__setattr__(record, "_final", final)
        return record


# -- positions --------------------------------------------------------------------------------


@attrs.frozen
class _Meld:
    """A meld of a snapshot, read: the combination, or None if it is not one."""

    combo: Combination | None
    owner: int | None
    faces: tuple[Face, ...] | None


def _read_meld(value: object, path: str, rules: Rules, r: _Reader) -> _Meld:
    meld = r.fields(value, path, ("owner", "cards"), ("shifted",))
    if meld is None:
        return _Meld(None, None, None)
    owner = r.seat(meld["owner"], f"{path}.owner", rules.players) if "owner" in meld else None
    faces: list[Face] | None = None
    if "cards" in meld:
        items = r.array(meld["cards"], f"{path}.cards", MAX_CARDS, "cards")
        if items is not None:
            faces = []
            for i, v in enumerate(items):
                if not isinstance(v, str) or len(v) > 20:
                    r.add(
                        f"{path}.cards[{i}]: expected a card in notation, as '5H' or 'JK=4D' "
                        f"(got {_describe(v)})"
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
        return _Meld(None, owner, None if faces is None else tuple(faces))
    if isinstance(rules, ConquianRules):
        order = Order.of(rules.pack, rules.max_sequence)
    else:
        order = Order.of("standard")
    combo = build(faces, order, owner)
    if combo is None:
        r.add(f"{path}: {explain(faces, order)}")
    return _Meld(combo, owner, tuple(faces))


def _mark_shifted(value: object, faces: list[Face], path: str, r: _Reader) -> list[Face] | None:
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
                f"{path}[{i}]: expected a named joker of this meld, as 'JK=6H' (got {_describe(v)})"
            )
            return None
        joker = out[found]
        assert type(joker) is NamedJoker
        out[found] = NamedJoker(joker.rank, joker.suit, shifted=True)
    return out


def _read_result(value: object, players: int, r: _Reader) -> tuple[bool, Result | None]:
    if value is None:
        return True, None
    data = r.fields(value, "snapshot.result", ("outcome", "winner", "payments"))
    if data is None or any(k not in data for k in ("outcome", "winner", "payments")):
        return False, None
    ok = r.choice(data["outcome"], "snapshot.result.outcome", tuple(o.value for o in Outcome))
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
    try:
        return True, Result(outcome=data["outcome"], winner=winner, payments=values)
    except ValueError as e:
        r.add(f"snapshot.result: {e}")
        return False, None


class _Snapshot:
    """A snapshot read field by field: `canon` holds each good field in canonical JSON form."""

    def __init__(self) -> None:
        self.canon: dict[str, Any] = {}
        self.placed: list[tuple[Card, str]] = []
        self.complete = True  # every card zone could be read


def _read_snapshot(value: object, rules: Rules, r: _Reader) -> _Snapshot:
    two_hand = isinstance(rules, ConquianRules)
    names = _TWO_HAND_SNAPSHOT if two_hand else _COONCAN_SNAPSHOT
    snap = _Snapshot()
    data = r.fields(value, "snapshot", names)
    if data is None:
        snap.complete = False
        return snap
    n = rules.players
    canon = snap.canon

    def zone(name: str, *, ordered: bool) -> None:
        if name not in data:
            snap.complete = False
            return
        got = r.card_list(data[name], f"snapshot.{name}")
        if got is None:
            snap.complete = False
            return
        snap.placed.extend((c, f"snapshot.{name}") for c in got)
        canon[name] = _texts(got if ordered else sorted(got))

    def per_seat(name: str, *, counted: bool) -> None:
        if name not in data:
            snap.complete = False
            return
        items = r.array(data[name], f"snapshot.{name}", n + 1, "lists")
        if items is None:
            snap.complete = False
            return
        if len(items) != n:
            r.add(f"snapshot.{name}: {len(items)} lists for {n} players")
            snap.complete = False
            return
        out = []
        for p, v in enumerate(items):
            got = r.card_list(v, f"snapshot.{name}[{p}]")
            if got is None:
                snap.complete = False
                return
            if counted:
                snap.placed.extend((c, f"snapshot.{name}[{p}]") for c in got)
            out.append(_texts(sorted(got)))
        canon[name] = out

    if "current_player" in data:
        v = data["current_player"]
        if v is None or r.seat(v, "snapshot.current_player", n, null=True) is not None:
            canon["current_player"] = v
    per_seat("hands", counted=True)
    melds: list[_Meld] | None = None
    if "table" in data:
        items = r.array(data["table"], "snapshot.table", MAX_CARDS, "melds")
        if items is None:
            snap.complete = False
        else:
            melds = [_read_meld(v, f"snapshot.table[{i}]", rules, r) for i, v in enumerate(items)]
            for i, m in enumerate(melds):
                if m.faces is None:
                    snap.complete = False
                else:
                    snap.placed.extend(
                        (f if isinstance(f, Card) else JOKER, f"snapshot.table[{i}]")
                        for f in m.faces
                    )
            if all(m.combo is not None for m in melds):
                canon["table"] = [_meld_data(m.combo) for m in melds if m.combo is not None]
    else:
        snap.complete = False
    if "result" in data:
        ok, result = _read_result(data["result"], n, r)
        if ok:
            canon["result"] = _result_data(result)
    for name in ("stock", "pack", "pending", "buried"):
        if name in names:
            zone(name, ordered=name != "pending")
    if two_hand:
        if "offer" in data:
            ok, offer = r.card_or_null(data["offer"], "snapshot.offer")
            if ok:
                canon["offer"] = None if offer is None else str(offer)
                if offer is not None:
                    snap.placed.append((offer, "snapshot.offer"))
            else:
                snap.complete = False
        else:
            snap.complete = False
        if "offer_origin" in data:
            v = data["offer_origin"]
            if v is None or r.choice(v, "snapshot.offer_origin", _ORIGINS):
                canon["offer_origin"] = v
    else:
        if "phase" in data and r.choice(data["phase"], "snapshot.phase", _PHASES):
            canon["phase"] = data["phase"]
        if "pack_known" in data and r.choice(
            data["pack_known"], "snapshot.pack_known", (True, False)
        ):
            canon["pack_known"] = data["pack_known"]
        if "taken" in data:
            ok, taken = r.card_or_null(data["taken"], "snapshot.taken")
            if ok:
                canon["taken"] = None if taken is None else str(taken)
        per_seat("known", counted=False)
        if "turns" in data:
            turns = r.integer(data["turns"], "snapshot.turns")
            if turns is not None:
                canon["turns"] = turns
    _check_snapshot(snap, rules, melds, r)
    return snap


def _check_snapshot(snap: _Snapshot, rules: Rules, melds: list[_Meld] | None, r: _Reader) -> None:
    """The checks a snapshot must pass on its own: conservation, sizes, consistency (E3)."""
    canon = snap.canon
    _conservation(rules.pack_cards(), snap.placed, snap.complete, "snapshot: ", rules.game, r)
    over = canon.get("result", False)
    current = canon.get("current_player", -1)
    if over is not False and current != -1 and (over is None) != (current is not None):
        r.add(
            "snapshot.current_player: null exactly when the deal is over "
            f"(got {_describe(current)} with the result {_describe(over)})"
        )
    hands = canon.get("hands")
    if isinstance(rules, ConquianRules):
        both = "offer" in canon and "offer_origin" in canon
        if both and (canon["offer"] is None) != (canon["offer_origin"] is None):
            r.add("snapshot.offer_origin: null exactly when no card is on offer (T4)")
        if (
            hands is not None
            and melds is not None
            and all(m.faces is not None and m.owner is not None for m in melds)
            and "pending" in canon
            and over is not False
        ):
            _check_two_hand_sizes(rules, hands, melds, canon, r)
    else:
        known = canon.get("known")
        if hands is not None and known is not None:
            for p, (hand, k) in enumerate(zip(hands, known, strict=True)):
                extra = Counter(k) - Counter(hand)
                if extra:
                    shown = " ".join(sorted(extra.elements(), key=lambda t: card(t)))
                    r.add(f"snapshot.known[{p}]: {shown} not in seat {p}'s hand (C6)")
        if hands is not None and over is None:
            for p, hand in enumerate(hands):
                if not hand:
                    r.add(
                        f"snapshot.hands[{p}]: seat {p} holds no card, "
                        "but the deal is not over (M10)"
                    )
        if "turns" in canon and rules.turn_limit is not None and canon["turns"] > rules.turn_limit:
            r.add(
                f"snapshot.turns: {canon['turns']} turns, more than the turn limit "
                f"of {rules.turn_limit} (M11)"
            )


def _check_two_hand_sizes(
    rules: ConquianRules,
    hands: list[list[str]],
    melds: list[_Meld],
    canon: dict[str, Any],
    r: _Reader,
) -> None:
    """Hand and melds make the hand size between turns, one more while melding or won (T2)."""
    current = canon.get("current_player", -1)
    result = canon["result"]
    if current == -1 or "offer" not in canon:
        return
    for p in range(2):
        melded = sum(len(m.faces or ()) for m in melds if m.owner == p)
        pending = len(canon["pending"]) if p == current else 0
        playing = result is None and p == current and canon["offer"] is None
        won = result is not None and result["winner"] == p
        want = rules.hand_size + (1 if playing or won else 0)
        have = len(hands[p]) + melded + pending
        if have != want:
            more = f", {pending} pending" if pending else ""
            r.add(
                f"snapshot.hands[{p}]: seat {p} holds {len(hands[p])} cards with {melded} "
                f"melded{more}, {have} in all; there should be {want} (T2)"
            )


def _show(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) if value else "nothing"
    if isinstance(value, dict) and "cards" in value:
        return f"seat {value['owner']}'s {_show(value['cards'])}"
    return json.dumps(value)


def _compare(canon: dict[str, Any], expected: dict[str, Any], r: _Reader) -> None:
    """Each field of the snapshot that was read must equal the replayed state's."""
    for name, want in expected.items():
        if name not in canon or canon[name] == want:
            continue
        got = canon[name]
        if name in ("hands", "known", "table") and len(got) == len(want):
            for i, (g, w) in enumerate(zip(got, want, strict=True)):
                if g != w:
                    r.add(f"snapshot.{name}[{i}] is {_show(g)}, but the actions lead to {_show(w)}")
        elif name == "table":
            r.add(f"snapshot.table has {len(got)} melds, but the actions lead to {len(want)}")
        else:
            r.add(f"snapshot.{name} is {_show(got)}, but the actions lead to {_show(want)}")


def _position_from_json(text: str | bytes, cls: type[State]) -> State:
    """`State.from_json`: read, check and replay a position (E2, E3)."""
    r = _Reader(_Problems())
    data = _loads(text, "position", r.problems)
    if data is _UNREADABLE or not _read_format(data, FORMAT_POSITION, r):
        raise r.problems.error("position")
    deal = _read_deal(data, r)
    r.fields(data, "", _POSITION_FIELDS)
    snap = None
    if deal.rules is not None and "snapshot" in data:
        snap = _read_snapshot(data["snapshot"], deal.rules, r)  # on its own first
    final = deal.replay(r)
    if final is not None and snap is not None:
        _compare(snap.canon, _snapshot(final), r)
    if r.problems or final is None:
        raise r.problems.error("position")
    if not isinstance(final, cls):
        raise RecordError(
            [f"rules.game: a {final.rules.game} position is not a {cls.__name__}"],
            what="position",
        )
    return final
