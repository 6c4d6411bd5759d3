"""Game records as JSON, validated on the way in (rules C7, E2, E3).

Three JSON documents, each an object with a ``"format"`` and a ``"version"``
(the specification is the docs page *Records and positions*):

- a **game record** (``"conquian-record"``), a `GameRecord`: the rules with
  every option, the dealer, the whole deal (the order of the pack, not a
  seed), the actions in text notation, and optional player names and
  metadata. `GameRecord.replay` gives the state it leads to (C7);
- a **position** (``"conquian-position"``), `State.to_json` and
  `State.from_json`: the record *plus* a snapshot of every zone at that
  moment, for readers in other languages and as a check. Loading checks the
  snapshot on its own (conservation, hand sizes, melds), replays the
  actions, and requires the snapshot to match the replayed state;
- a **view** (``"conquian-view"``), `PlayerView.to_json`: what one player may
  know (C6), to send him over a network. It never names a card he cannot
  place.

Each engine describes its own game to these formats (its rules' options,
its deal, its snapshot and view); this module knows none of them.

>>> from conquian.formats.records import GameRecord
>>> state = new_game(ConquianRules(), seed=5).apply("take KD").apply("meld JD QD KD")
>>> record = GameRecord.from_state(state, player_names=("Ann", "Bob"))
>>> GameRecord.from_json(record.to_json()).replay() == state
True
>>> State.from_json(state.to_json()) == state
True

Loading never trusts its input: it parses with `json.loads` only, refuses
input larger than the limits below before looking inside, and reports every
problem it finds in one `RecordError` (a `ValueError`), each naming the field.
The same limits are checked when a record or position is written, with the
same `RecordError`, so whatever the library writes it reads back:

>>> GameRecord.from_json('{"format": "conquian-record", "version": 1, "rules": {"game": "chess"}}')
Traceback (most recent call last):
...
conquian.errors.RecordError: invalid record: rules.game: unknown game 'chess' \
(use conquian, three-hand, double-pack or coo-can); dealer: missing; deck: missing; actions: missing
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ..actions import Action, parse_action
from ..cards import Card, cards
from ..errors import RecordError
from ..rules import Rules
from ..state.base import State
from ..state.game import game_of
from .codec import Codec, codec_for, read_deal, replay, rules_problems, with_deal
from .jsonio import (
    FORMAT_POSITION,
    FORMAT_RECORD,
    FORMAT_VIEW,
    MAX_ACTION_TEXT,
    MAX_ACTIONS,
    MAX_CARDS,
    MAX_INT,
    MAX_KEY,
    MAX_METADATA,
    MAX_PROBLEMS,
    MAX_STRING,
    MAX_TEXT,
    MAX_TURNS,
    UNREADABLE,
    VERSION,
    Problems,
    Reader,
    conservation,
    describe,
    loads,
    pretty,
    read_format,
    short,
    texts,
)

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
    "VERSION",
    "GameRecord",
]

_RECORD_FIELDS = ("format", "version", "rules", "dealer", "deck", "actions")
_RECORD_OPTIONAL = ("player_names", "metadata")


# -- game records ------------------------------------------------------------------------------


def _to_cards(value: str | Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(value, str):
        return cards(value)
    if not isinstance(value, Iterable):
        raise TypeError(f"deck is a sequence of cards or their text (got {describe(value)})")
    return tuple(value)


def _to_actions(value: Iterable[Action | str]) -> tuple[Action, ...]:
    if isinstance(value, str):
        raise TypeError("actions are a sequence of actions or action texts, not one string")
    if not isinstance(value, Iterable):
        raise TypeError(f"actions are a sequence of actions or texts (got {describe(value)})")
    return tuple(parse_action(a) if isinstance(a, str) else a for a in value)


def _to_names(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        raise TypeError("player_names are a sequence of names, one per seat, not one string")
    if not isinstance(value, Iterable):
        raise TypeError(f"player_names are a sequence of names (got {describe(value)})")
    return tuple(value)


def _to_metadata(
    value: Mapping[str, str] | Iterable[tuple[str, str]],
) -> tuple[tuple[str, str], ...]:
    if isinstance(value, Mapping):
        items: Iterable[object] = value.items()
    elif isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        items = value
    else:
        raise TypeError(
            f"metadata is a mapping or a sequence of (key, value) pairs (got {describe(value)})"
        )
    pairs: list[tuple[str, str]] = []
    for pair in items:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"metadata holds (key, value) pairs (got {describe(pair)})")
        pairs.append(pair)
    return tuple(sorted(pairs, key=lambda kv: str(kv[0])))


def _check_record(record: GameRecord) -> None:
    r = Reader(Problems())
    rules = record.rules
    try:
        codec = game_of(rules).codec
    except TypeError as e:
        raise RecordError([f"{e}"]) from None
    for problem in rules_problems(codec, rules):
        r.add(problem)
    bad = [i for i, c in enumerate(record.deck) if not isinstance(c, Card)]
    for i in bad[:10]:
        r.add(f"deck[{i}]: {record.deck[i]!r} is not a card")
    if not bad:
        placed = [(c, f"deck[{i}]") for i, c in enumerate(record.deck)]
        conservation(rules.pack_cards(), placed, True, "deck: ", rules.game, r)
    r.seat(record.dealer, "dealer", rules.players)
    if len(record.actions) > MAX_ACTIONS:
        r.add(f"actions: {len(record.actions)} actions, more than the limit of {MAX_ACTIONS}")
    for i, a in enumerate(record.actions):
        if not isinstance(a, Action):
            r.add(f"actions[{i}]: {a!r} is not an action")
        elif len(str(a)) > MAX_ACTION_TEXT:  # the reader's limit: what is written reads back
            size = len(str(a))
            r.add(f"actions[{i}]: {size} characters, more than the limit of {MAX_ACTION_TEXT}")
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


def _check_metadata(pairs: Iterable[tuple[object, object]], r: Reader) -> None:
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
            r.add(f"metadata.{short(key)}: given twice")
        seen.add(key)
        r.text(value, f"metadata.{short(key)}", MAX_STRING)
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

    >>> from conquian.formats.records import GameRecord
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

        >>> from conquian.formats.records import GameRecord
        >>> state = new_game(CooncanRules.three_hand(), seed=3).apply("draw")
        >>> record = GameRecord.from_state(state, player_names=["Ann", "Bob", "Cy"])
        >>> record.dealer, len(record.deck), record.player_names
        (0, 52, ('Ann', 'Bob', 'Cy'))
        """
        if codec_for(getattr(getattr(state, "rules", None), "game", None)) is None:
            raise TypeError(f"expected a state made by new_game (got {type(state).__name__})")
        state = with_deal(state, "record")  # a position drawn by sample_state: its deal
        deck, dealer = state.deck, state.dealer  # type: ignore[attr-defined]
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

        >>> from conquian.formats.records import GameRecord
        >>> record = GameRecord(ConquianRules(), deck=ConquianRules().pack_cards(),
        ...                     actions=["pass", "take 4C"])
        >>> record.replay()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        conquian.errors.RecordError: invalid record: actions[1]: illegal action 'take 4C': ... (T4)
        """
        if self._final is None:
            r = Reader(Problems())
            final: State | None = replay(self.rules, self.deck, self.dealer, self.actions, r)
            if final is None:
                raise r.problems.error("record")
            object.__setattr__(self, "_final", final)
            return final
        return self._final

    def to_json(self) -> str:
        """The record as JSON text, one field per line (format ``conquian-record``, version 1).

        >>> from conquian.formats.records import GameRecord
        >>> text = GameRecord(ConquianRules(), deck=ConquianRules().pack_cards()).to_json()
        >>> print("\\n".join(text.splitlines()[:5]))
        {
          "format": "conquian-record",
          "version": 1,
          "rules": {"game": "conquian", "players": 2, "pack": "spanish", "hand_size": 10, \
"lay_down": "say", "borrow_middle": true, "borrow_other_kind": false, "max_sequence": null},
          "dealer": 0,
        """
        data: dict[str, Any] = {
            "format": FORMAT_RECORD,
            "version": VERSION,
            "rules": self._codec().rules_data(self.rules),
            "dealer": self.dealer,
            "deck": texts(self.deck),
            "actions": texts(self.actions),
        }
        if self.player_names:
            data["player_names"] = list(self.player_names)
        if self.metadata:
            data["metadata"] = dict(self.metadata)
        text = pretty(data)
        if len(text) > MAX_TEXT:  # the reader's limit: what is written reads back
            raise RecordError(
                [f"{len(text)} characters, more than the limit of {MAX_TEXT} a record may hold"]
            )
        return text

    def _codec(self) -> Codec:
        codec: Codec = game_of(self.rules).codec  # checked when the record was made
        return codec

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read and check a record: its fields, its deal and every action (E2, E3).

        Raises `RecordError` listing every problem found (the message names
        each with its field, as ``actions[12]: unknown card '5X' …``). The
        actions are replayed, so `replay` then costs nothing.

        >>> from conquian.formats.records import GameRecord
        >>> GameRecord.from_json("[1, 2]")
        Traceback (most recent call last):
        ...
        conquian.errors.RecordError: invalid record: the top level is a list of 2 items, \
not a JSON object
        """
        r = Reader(Problems())
        data = loads(text, "record", r.problems)
        if data is UNREADABLE or not read_format(data, FORMAT_RECORD, r):
            raise r.problems.error("record")
        deal = read_deal(data, r)
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
                r.add(f"metadata: expected an object (got {describe(meta)})")
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
