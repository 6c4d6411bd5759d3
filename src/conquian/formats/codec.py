"""Positions and views as JSON, for any engine: the driver and the registry of engine codecs.

Each engine describes its own game to the formats with a `Codec`: its
rules' options, how to deal, the fields of its snapshot and view, and the
checks a snapshot must pass on its own. The table of games
(`conquian.state.game`) holds each game's codec, found by the game's name or an
older alias (`codec_for`). This module does the rest, the same for every
game (rules C6, C7, E2, E3):

- `write_position` (`State.to_json`): the rules, the deal, the actions and
  the engine's snapshot of every zone, checked against the limits first;
- `read_position` (`State.from_json`): read the deal and the snapshot, check
  the snapshot on its own, replay the actions from the deal, and require the
  snapshot to match the state they lead to;
- `write_view` (`PlayerView.to_json`): what the player may know, field by field.

`conquian.formats.records` builds game records on the same reading of rules and deals.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from ..actions import parse_action
from ..cards import JOKER, Card
from ..combos.core import Order
from ..errors import IllegalActionError, NotationError, RecordError, RulesError
from ..rules import options as declared_options
from ..state.game import Game, find_game, game_of, names_text
from .jsonio import (
    FORMAT_POSITION,
    FORMAT_VIEW,
    MAX_ACTION_TEXT,
    MAX_ACTIONS,
    MAX_CARDS,
    MAX_INT,
    MAX_TEXT,
    UNREADABLE,
    VERSION,
    MeldRead,
    Problems,
    Reader,
    conservation,
    describe,
    loads,
    meld_data,
    pretty,
    read_deck,
    read_format,
    read_meld,
    read_result,
    result_data,
    short,
    texts,
)

if TYPE_CHECKING:
    from ..actions import Action
    from ..rules import Rules

# States and views are typed loosely here: `conquian.state.base` calls this module,
# so it cannot be imported back. `State` and `PlayerView` below mean those.
State = Any
PlayerView = Any

__all__ = [
    "Codec",
    "Deal",
    "SnapshotRead",
    "codec_for",
    "position_document",
    "read_deal",
    "read_position",
    "replay",
    "rules_problems",
    "view_document",
    "write_position",
    "write_view",
]

_POSITION_FIELDS = ("format", "version", "rules", "dealer", "deck", "actions", "snapshot")


class Codec:
    """What the JSON formats need to know of one engine; each engine's codec fills it in.

    The hooks below raise `NotImplementedError` here; `options`, `prepare_rules`,
    `rules_data` and `check_snapshot` have defaults, which read the options
    the rules class declares (`conquian.rules.options`).
    """

    rules_class: type = object
    """The rules class of the engine's games, whose fields declare its options."""

    snapshot_fields: tuple[str, ...] = ()
    """The fields of a snapshot, in the order they are written."""

    def options(self, game: str) -> tuple[str, ...]:
        """The rules' options of `game`, as written after ``"game"``: every option the rules
        class declares."""
        return tuple([o.name for o in declared_options(self.rules_class)])

    def make_rules(self, game: str, options: dict[str, Any]) -> Rules:
        """The rules object; raises `RulesError`, `TypeError` or `ValueError` for a bad option."""
        raise NotImplementedError

    def prepare_rules(self, value: dict[str, Any], r: Reader) -> dict[str, Any]:
        """The rules object as read, with the fields of older writers turned into options:
        an option written only when it is not the default (`Option.sparse`) reads as the
        default when it is missing."""
        new = dict(value)
        for option in declared_options(self.rules_class):
            if option.sparse:
                new.setdefault(option.name, option.default)
        return new

    def rules_data(self, rules: Rules) -> dict[str, Any]:
        """The rules as JSON data: the game and every option, those written only when they
        are not the default (`Option.sparse`) left out when they are."""
        data: dict[str, Any] = {"game": rules.game}
        for option in declared_options(self.rules_class):
            value = getattr(rules, option.name)
            if not (option.sparse and value == option.default):
                data[option.name] = value
        return data

    def is_state(self, value: object) -> bool:
        """Whether `value` is a state of this engine, made by `new_game`."""
        raise NotImplementedError

    def is_view(self, value: object) -> bool:
        """Whether `value` is a view of this engine, made by `State.view`."""
        raise NotImplementedError

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        """The first state of the deal from the whole checked `deck`, top card first."""
        raise NotImplementedError

    def order(self, rules: Rules) -> Order:
        """The order of the cards in sequences under these rules (C4)."""
        raise NotImplementedError

    def snapshot(self, state: State) -> dict[str, Any]:
        """Every zone of a state as JSON data, in the order of `snapshot_fields`."""
        raise NotImplementedError

    def read_snapshot(self, snap: SnapshotRead) -> None:
        """Read this engine's own fields of a snapshot into `snap` (the shared ones are read)."""
        raise NotImplementedError

    def check_snapshot(self, snap: SnapshotRead) -> None:
        """The engine's checks of a snapshot read on its own (sizes, consistency; E3)."""

    def view_data(self, view: PlayerView) -> dict[str, Any]:
        """This engine's fields of a view, written between ``"table"`` and ``"history"``."""
        raise NotImplementedError

    view_zone_fields: tuple[str, ...] = ()
    """The fields `view_data` writes, which the shared reader of views expects."""

    def read_view_zones(
        self,
        data: dict[str, Any],
        r: Reader,
        rules: Rules,
        player: int,
        dealer: int,
        history: list[Action],
        public: list[Card],
    ) -> tuple[list[Card], list[Card], dict[str, Any]] | None:
        """Read this engine's zones of a view's JSON (`conquian.formats.views`): the cards
        they show to every seat, the cards of other hands the viewer knows (C6), and the
        facts a deal is drawn from, by name; None after reporting a problem to `r`.
        `public` holds the cards of the viewer's hand and of the table."""
        raise NotImplementedError


def _game_named(game: object) -> Game | None:
    """The game of a name or alias (`conquian.state.game.find_game`), or None."""
    try:
        return find_game(game)  # type: ignore[arg-type]
    except RulesError:
        return None


def codec_for(game: object) -> Codec | None:
    """The codec of a game name or alias, or None if no engine plays it."""
    entry = _game_named(game)
    return None if entry is None else entry.codec


def _games_text() -> str:
    return names_text()


# -- rules and deals -----------------------------------------------------------------------


def rules_problems(codec: Codec, rules: Rules) -> list[str]:
    """What stops these rules being written: an integer option past `MAX_INT`."""
    out = []
    for option, value in codec.rules_data(rules).items():
        if type(value) is int and value > MAX_INT:
            out.append(
                f"rules.{option}: {value} is larger than {MAX_INT}, "
                "the largest integer a record may hold"
            )
    return out


def read_rules(value: object, r: Reader) -> Rules | None:
    """The rules object of a record or position, checked option by option."""
    if not isinstance(value, dict):
        r.add(f"rules: expected an object (got {describe(value)})")
        return None
    if "game" not in value:
        r.add("rules.game: missing")
        return None
    entry = _game_named(value["game"])
    if entry is None:
        name = value["game"]
        shown = repr(short(name)) if isinstance(name, str) else describe(name)
        r.add(f"rules.game: unknown game {shown} (use {_games_text()})")
        return None
    # An older name (an alias) reads as the game's name: records written before keep loading.
    game: str = entry.name
    codec: Codec = entry.codec
    value = codec.prepare_rules(value, r)
    options = codec.options(game)
    good = True
    for key in value:
        if key != "game" and key not in options:
            r.add(
                f"rules.{short(key)}: unknown option of the {game} game "
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
            r.add(f"rules.{option}: not a value of this option (got {describe(v)})")
            good = False
            continue
        if isinstance(v, int) and not isinstance(v, bool) and v > MAX_INT:
            r.add(f"rules.{option}: {describe(v)} is larger than {MAX_INT}, the largest allowed")
            good = False
            continue
        try:
            codec.make_rules(game, {option: v})
        except (RulesError, TypeError, ValueError) as e:
            r.add(f"rules.{e}")
            good = False
    if not good:
        return None
    try:
        return codec.make_rules(game, {o: value[o] for o in options})
    except (RulesError, TypeError, ValueError) as e:  # pragma: no cover - each option checked
        r.add(f"rules.{e}")
        return None


def read_actions(value: object, r: Reader) -> tuple[list[Action], bool] | None:
    """The actions read before the first bad one, and whether all were read."""
    items = r.array(value, "actions", MAX_ACTIONS, "actions")
    if items is None:
        return None
    out: list[Action] = []
    complete = True
    for i, v in enumerate(items):
        path = f"actions[{i}]"
        if not isinstance(v, str):
            r.add(f"{path}: expected an action in notation, as 'take 5H' (got {describe(v)})")
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


def replay(
    rules: Rules, deck: tuple[Card, ...], dealer: int, actions: Iterable[Action], r: Reader
) -> State | None:
    """The state after the actions, or None after reporting the first illegal one (E1)."""
    codec = codec_for(rules.game)
    assert codec is not None
    state = codec.deal(rules, deck, dealer)
    for i, action in enumerate(actions):
        try:
            state = state.apply(action)
        except IllegalActionError as e:
            r.add(f"actions[{i}]: {e}")
            return None
    return state


@attrs.frozen
class Deal:
    """What a record and a position share, once read (not yet replayed)."""

    rules: Rules | None
    deck: tuple[Card, ...] | None
    dealer: int | None
    actions: tuple[Action, ...]  # those read before the first bad one
    complete: bool  # every action could be read
    read: bool  # the actions field was a list within the limit

    def replay(self, r: Reader) -> State | None:
        """The state after all the actions, when everything was read and they are legal.

        With a bad action text, the actions before it are still replayed, to
        report an illegal one among them.
        """
        if self.rules is None or self.deck is None or self.dealer is None or not self.read:
            return None
        final = replay(self.rules, self.deck, self.dealer, self.actions, r)
        return final if self.complete else None


def read_deal(data: dict[str, Any], r: Reader) -> Deal:
    """The rules, dealer, deck and actions of a record or position, each checked."""
    rules = read_rules(data["rules"], r) if "rules" in data else None
    dealer = None
    if "dealer" in data:
        dealer = r.seat(data["dealer"], "dealer", None if rules is None else rules.players)
    deck = read_deck(data["deck"], rules, r) if "deck" in data else None
    read = read_actions(data["actions"], r) if "actions" in data else None
    actions, complete = read if read is not None else ([], False)
    return Deal(rules, deck, dealer, tuple(actions), complete, read is not None)


# -- snapshots ------------------------------------------------------------------------------


class SnapshotRead:
    """A snapshot being read field by field (E3).

    `canon` holds each field read well, in the canonical form `Codec.snapshot`
    writes, to compare with the replayed state; `placed` pairs each card read
    with where it was found, for conservation; `complete` stays true while
    every card zone could be read.
    """

    def __init__(self, data: dict[str, Any], rules: Rules, r: Reader) -> None:
        self.data = data
        self.rules = rules
        self.r = r
        self.canon: dict[str, Any] = {}
        self.placed: list[tuple[Card, str]] = []
        self.complete = True
        self.melds: list[MeldRead] | None = None

    def zone(self, name: str, *, ordered: bool) -> None:
        """A list of cards, counted for conservation (sorted unless its order matters)."""
        if name not in self.data:
            self.complete = False
            return
        got = self.r.card_list(self.data[name], f"snapshot.{name}")
        if got is None:
            self.complete = False
            return
        self.placed.extend((c, f"snapshot.{name}") for c in got)
        self.canon[name] = texts(got if ordered else sorted(got))

    def per_seat(self, name: str, *, counted: bool) -> None:
        """A list of cards per seat, sorted; `counted` ones are cards of the pack's zones."""
        if name not in self.data:
            self.complete = False
            return
        n = self.rules.players
        items = self.r.array(self.data[name], f"snapshot.{name}", n + 1, "lists")
        if items is None:
            self.complete = False
            return
        if len(items) != n:
            self.r.add(f"snapshot.{name}: {len(items)} lists for {n} players")
            self.complete = False
            return
        out = []
        for p, v in enumerate(items):
            got = self.r.card_list(v, f"snapshot.{name}[{p}]")
            if got is None:
                self.complete = False
                return
            if counted:
                self.placed.extend((c, f"snapshot.{name}[{p}]") for c in got)
            out.append(texts(sorted(got)))
        self.canon[name] = out

    def card_or_null(self, name: str, *, counted: bool) -> None:
        """One card or null; a `counted` card is a card of the pack's zones."""
        if name not in self.data:
            if counted:
                self.complete = False
            return
        ok, c = self.r.card_or_null(self.data[name], f"snapshot.{name}")
        if not ok:
            if counted:
                self.complete = False
            return
        self.canon[name] = None if c is None else str(c)
        if c is not None and counted:
            self.placed.append((c, f"snapshot.{name}"))

    def choice(self, name: str, allowed: tuple[Any, ...], *, null: bool = False) -> None:
        """One of the `allowed` values (or null)."""
        if name in self.data:
            v = self.data[name]
            if (v is None and null) or self.r.choice(v, f"snapshot.{name}", allowed):
                self.canon[name] = v

    def read_shared(self, order: Order) -> None:
        """The fields every snapshot has: current_player, hands, table and result."""
        data, r, n = self.data, self.r, self.rules.players
        if "current_player" in data:
            v = data["current_player"]
            if v is None or r.seat(v, "snapshot.current_player", n, null=True) is not None:
                self.canon["current_player"] = v
        self.per_seat("hands", counted=True)
        if "table" not in data:
            self.complete = False
        else:
            items = r.array(data["table"], "snapshot.table", MAX_CARDS, "melds")
            if items is None:
                self.complete = False
            else:
                melds = [
                    read_meld(v, f"snapshot.table[{i}]", n, order, r) for i, v in enumerate(items)
                ]
                self.melds = melds
                for i, m in enumerate(melds):
                    if m.faces is None:
                        self.complete = False
                    else:
                        self.placed.extend(
                            (f if isinstance(f, Card) else JOKER, f"snapshot.table[{i}]")
                            for f in m.faces
                        )
                if all(m.combo is not None for m in melds):
                    self.canon["table"] = [meld_data(m.combo) for m in melds if m.combo is not None]
        if "result" in data:
            ok, result = read_result(data["result"], n, r)
            if ok:
                self.canon["result"] = result

    def check_shared(self) -> None:
        """Conservation over every zone, and a current player exactly while the deal goes on."""
        canon, r = self.canon, self.r
        rules = self.rules
        conservation(rules.pack_cards(), self.placed, self.complete, "snapshot: ", rules.game, r)
        over = canon.get("result", False)
        current = canon.get("current_player", -1)
        if over is not False and current != -1 and (over is None) != (current is not None):
            r.add(
                "snapshot.current_player: null exactly when the deal is over "
                f"(got {describe(current)} with the result {describe(over)})"
            )


def _show(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) if value else "nothing"
    if isinstance(value, dict) and "cards" in value:
        return f"seat {value['owner']}'s {_show(value['cards'])}"
    return json.dumps(value)


def _compare(canon: dict[str, Any], expected: dict[str, Any], r: Reader) -> None:
    """Each field of the snapshot that was read must equal the replayed state's."""
    for name, want in expected.items():
        if name not in canon or canon[name] == want:
            continue
        got = canon[name]
        per_item = isinstance(got, list) and all(isinstance(g, (list, dict)) for g in got)
        if per_item and len(got) == len(want):
            for i, (g, w) in enumerate(zip(got, want, strict=True)):
                if g != w:
                    r.add(f"snapshot.{name}[{i}] is {_show(g)}, but the actions lead to {_show(w)}")
        elif name == "table":
            r.add(f"snapshot.table has {len(got)} melds, but the actions lead to {len(want)}")
        else:
            r.add(f"snapshot.{name} is {_show(got)}, but the actions lead to {_show(want)}")


# -- the three documents ---------------------------------------------------------------------


def _codec_of(value: object, *, view: bool, what: str) -> Codec:
    rules = getattr(value, "rules", None)
    codec = codec_for(getattr(rules, "game", None))
    if codec is None or not (codec.is_view(value) if view else codec.is_state(value)):
        raise TypeError(f"expected {what} (got {type(value).__name__})")
    return codec


def _check_size(text: str, what: str) -> str:
    if len(text) > MAX_TEXT:
        raise RecordError(
            [f"{len(text)} characters, more than the limit of {MAX_TEXT} a {what} may hold"],
            what=what,
        )
    return text


def with_deal(state: State, what: str) -> State:
    """`state`, or where it was drawn by `sample_state` without its deal (C6), the same
    position dealt from a deck whose replay gives it (C7): what a record or position of it
    holds. Raises `RecordError` when no deal is found for it."""
    if getattr(state, "deck", None):
        return state
    found: State | None = game_of(state.rules).dealt(state)
    if found is None:
        raise RecordError(
            ["deck: a position drawn by sample_state has no deal to record (C6, C7)"],
            what=what,
        )
    return found


def write_position(state: State) -> str:
    """`State.to_json`: the position of a state (its record and a snapshot of its zones).

    Raises `RecordError` when it would not load back: the limits are the reader's.
    """
    return _check_size(pretty(position_document(state)), "position")


def position_document(state: State) -> dict[str, Any]:
    """`State.to_dict`: the position as JSON data, the document `write_position` writes.

    Raises `RecordError` when its rules or its number of actions would not load back.
    """
    codec = _codec_of(state, view=False, what="a state made by new_game")
    state = with_deal(state, "position")
    rules = state.rules
    problems = rules_problems(codec, rules)
    actions = state.history
    if len(actions) > MAX_ACTIONS:
        problems.append(f"actions: {len(actions)} actions, more than the limit of {MAX_ACTIONS}")
    if problems:
        raise RecordError(problems, what="position")
    data = {
        "format": FORMAT_POSITION,
        "version": VERSION,
        "rules": codec.rules_data(rules),
        "dealer": state.dealer,
        "deck": texts(state.deck),
        "actions": texts(actions),
        "snapshot": codec.snapshot(state),
    }
    return data


def read_position(text: object, cls: type[State]) -> State:
    """`State.from_json`: read, check and replay a position (E2, E3)."""
    r = Reader(Problems())
    data = loads(text, "position", r.problems)
    if data is UNREADABLE or not read_format(data, FORMAT_POSITION, r):
        raise r.problems.error("position")
    deal = read_deal(data, r)
    r.fields(data, "", _POSITION_FIELDS)
    snap = None
    codec = None
    if deal.rules is not None and "snapshot" in data:
        codec = codec_for(deal.rules.game)
        assert codec is not None
        snap = _read_snapshot(codec, data["snapshot"], deal.rules, r)  # on its own first
    final = deal.replay(r)
    if final is not None and snap is not None and codec is not None:
        _compare(snap.canon, codec.snapshot(final), r)
    if r.problems or final is None:
        raise r.problems.error("position")
    if not isinstance(final, cls):
        raise RecordError(
            [f"rules.game: a {final.rules.game} position is not a {cls.__name__}"],
            what="position",
        )
    return final


def _read_snapshot(codec: Codec, value: object, rules: Rules, r: Reader) -> SnapshotRead | None:
    data = r.fields(value, "snapshot", codec.snapshot_fields)
    if data is None:
        return None
    snap = SnapshotRead(data, rules, r)
    snap.read_shared(codec.order(rules))
    codec.read_snapshot(snap)
    snap.check_shared()
    codec.check_snapshot(snap)
    return snap


def write_view(view: PlayerView) -> str:
    """`PlayerView.to_json`: the view, written field by field from what the player may know."""
    return json.dumps(view_document(view), ensure_ascii=False, separators=(",", ":"))


def view_document(view: PlayerView) -> dict[str, Any]:
    """`PlayerView.to_dict`: the view as JSON data, field by field from what the player
    may know (C6), the document `write_view` writes."""
    codec = _codec_of(view, view=True, what="a view made by State.view")
    rules = view.rules
    data: dict[str, Any] = {
        "format": FORMAT_VIEW,
        "version": VERSION,
        "rules": codec.rules_data(rules),
        "player": view.player,
        "dealer": view.dealer,
        "current_player": view.current_player,
        "decision": view.decision,
        "hand": texts(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "table": [meld_data(m) for m in view.table],
    }
    data.update(codec.view_data(view))
    data.update(
        history=texts(view.history),
        result=result_data(view.result),
        legal_actions=texts(view.legal_actions),
    )
    return data
