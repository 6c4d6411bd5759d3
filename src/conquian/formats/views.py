"""Reading a player's view back from its JSON (format ``conquian-view``): `PlayerView.from_json`.

A view is what one player may know (C6), so it cannot be replayed from a
deal as a record is. It is read field by field with the readers of
`conquian.formats.records` (every problem reported at once, as `RecordError`), then
rebuilt: `conquian.determinize` draws a deal that the view's own cards and
history allow, with a fixed seed, replays the history on it, and the view of
the state reached must write exactly the JSON read. So a view loaded is a
true `ConquianView` or `CooncanView`, equal to the view that was written,
and it samples the same states as that view for the same random seed.

>>> view = new_game(ConquianRules(), seed=5).apply("take KD").view(0)
>>> PlayerView.from_json(view.to_json()) == view
True
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from ..actions import Action, Trade, parse_action
from ..cards import JOKER, Card, NamedJoker, parse_face
from ..errors import DeterminizationError, NotationError
from ..rules import Rules
from ..state.game import game_of

# The readers of the JSON formats, used here and nowhere else in this module.
from .codec import read_rules
from .jsonio import (
    FORMAT_VIEW,
    MAX_ACTION_TEXT,
    MAX_ACTIONS,
    MAX_CARDS,
    Problems,
    Reader,
    describe,
    loads,
    read_format,
)

# Views are typed loosely: `conquian.state.base` calls this module, so it cannot import it back.
PlayerView = Any

__all__ = ["view_from_json"]

_COMMON = (
    "format",
    "version",
    "rules",
    "player",
    "dealer",
    "current_player",
    "hand",
    "hand_sizes",
    "table",
    "history",
    "result",
    "legal_actions",
)


class _Facts:
    """The fields of a view that a deal is drawn from (see `conquian.determinize`)."""

    rules: Rules
    player: int
    history: tuple[Action, ...]

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)


def _table_cards(value: object, r: Reader) -> list[Card] | None:
    """The cards of the table's melds (a named joker is the joker), or None."""
    melds = r.array(value, "table", MAX_CARDS, "melds")
    if melds is None:
        return None
    out: list[Card] = []
    for i, meld in enumerate(melds):
        faces = meld.get("cards") if isinstance(meld, dict) else None
        if not isinstance(faces, list) or len(faces) > MAX_CARDS:
            r.add(f"table[{i}]: expected an object with a list of cards (got {describe(meld)})")
            return None
        for k, text in enumerate(faces):
            try:
                face = parse_face(text) if isinstance(text, str) and len(text) <= 20 else None
            except NotationError as e:
                r.add(f"table[{i}].cards[{k}]: {e}")
                return None
            if face is None:
                r.add(f"table[{i}].cards[{k}]: expected a card (got {describe(text)})")
                return None
            out.append(JOKER if type(face) is NamedJoker else face)  # type: ignore[arg-type]
    return out


def _history(value: object, r: Reader) -> list[Action] | None:
    items = r.array(value, "history", MAX_ACTIONS, "actions")
    if items is None:
        return None
    out = []
    for i, text in enumerate(items):
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            r.add(f"history[{i}]: expected an action in notation (got {describe(text)})")
            return None
        try:
            out.append(parse_action(text))
        except (NotationError, ValueError) as e:
            r.add(f"history[{i}]: {e}")
            return None
    return out


def _unseen(rules: Rules, seen: list[Card], r: Reader) -> tuple[Card, ...] | None:
    """The pack less the cards the view shows: what its player cannot place (C6)."""
    rest = Counter(rules.pack_cards())
    rest.subtract(seen)
    extra = sorted(c for c, n in rest.items() if n < 0)
    if extra:
        r.add(f"{', '.join(map(str, extra))}: more copies than the {rules.game} pack holds")
        return None
    return tuple(sorted(rest.elements()))


def _facts(data: dict[str, Any], rules: Rules, r: Reader) -> _Facts | None:
    """What a deal is drawn from, read from the view's JSON; None after reporting."""
    codec = game_of(rules).codec  # the fields of the zones are the engine's
    r.fields(data, "", _COMMON + codec.view_zone_fields, ("hands", "decision"))
    n = rules.players
    before = len(r.problems)
    player = r.seat(data.get("player"), "player", n)
    dealer = r.seat(data.get("dealer"), "dealer", n)
    hand = r.card_list(data.get("hand"), "hand")
    sizes = r.array(data.get("hand_sizes"), "hand_sizes", n + 1, "sizes")
    if sizes is not None:
        sizes = [r.integer(v, f"hand_sizes[{i}]") for i, v in enumerate(sizes)]
        if len(sizes) != n:
            r.add(f"hand_sizes: {len(sizes)} sizes for {n} players")
    table = _table_cards(data.get("table"), r)
    shown: list[list[Card] | None] | None = None
    if data.get("hands") is not None:  # C6 Showing: every hand, once the deal is over
        value = r.array(data["hands"], "hands", n + 1, "hands")
        shown = (
            None if value is None else [r.card_list(v, f"hands[{i}]") for i, v in enumerate(value)]
        )
        if shown is not None and len(shown) != n:
            r.add(f"hands: {len(shown)} hands for {n} players")
    history = _history(data.get("history"), r)
    trades = getattr(rules, "trades", 0)
    for i, action in enumerate(history or ()):  # T21: the trade rounds open the deal
        if (type(action) is Trade) != (i < trades * n):
            where = (
                "in the trade rounds, which hold only trades"
                if i < trades * n
                else ("after the trade rounds" if trades else "in a deal without trade rounds")
            )
            r.add(f"history[{i}]: '{action}' {where} (T21)")
            break
    if len(r.problems) > before:
        return None
    assert hand is not None and table is not None
    zones = codec.read_view_zones(
        data, r, rules, player or 0, dealer or 0, history or [], [*hand, *table]
    )
    if zones is None:
        return None
    own, held, extra = zones
    public = [*hand, *table, *own]
    seen = [*public, *held]
    if shown is not None:
        if any(h is None for h in shown):
            return None
        others = [c for q, h in enumerate(shown) if q != player for c in h or ()]
        seen = public + others  # the known cards of the other hands are among those shown
        extra["hands"] = tuple(tuple(sorted(h or ())) for h in shown)
    unseen = _unseen(rules, seen, r)
    if unseen is None:
        return None
    return _Facts(
        rules=rules,
        player=player,
        dealer=dealer,
        hand=tuple(sorted(hand or ())),
        hand_sizes=tuple(sizes or ()),
        history=tuple(history or ()),
        unseen=unseen,
        **extra,
    )


def view_from_json(text: str | bytes, cls: type) -> PlayerView:
    """`PlayerView.from_json`: the view written in `text`, checked (E2, E3, C6).

    Raises `RecordError` listing what is wrong: a field missing or malformed,
    a card the pack does not hold, or a view that no deal and history could
    have shown its player.
    """
    problems = Problems()
    r = Reader(problems)
    data = loads(text, "view", problems)
    if problems or not read_format(data, FORMAT_VIEW, r):
        raise problems.error("view")
    rules = read_rules(data.get("rules"), r)
    if rules is None:
        raise problems.error("view")
    game = game_of(rules)
    own = game.read_view(text)  # an engine that reads its views itself (Coo-Can)
    if own is not None:
        if not isinstance(own, cls):
            r.add(f"rules.game: a {rules.game} view is not a {cls.__name__}")
            raise problems.error("view")
        return own
    facts = _facts(data, rules, r)
    if facts is None or problems:
        raise problems.error("view")

    # A deal whose replay writes other fields is drawn again: where the history leaves the
    # starter open (M11), a deal with another starter replays but gives other known cards.
    mismatches: Counter[tuple[str, ...]] = Counter()

    def accept(state: Any) -> bool:
        written = json.loads(state.view(facts.player).to_json())
        wrong = tuple(key for key in data if written.get(key) != data[key])
        if wrong:
            mismatches[wrong] += 1
        return not wrong

    rng = random.Random(0)
    try:
        state: Any = game.sample(facts, rng, accept=accept)
    except (DeterminizationError, ValueError, IndexError) as e:
        # An edited history can contradict the deal in ways the sampler finds only while
        # undoing it (T21: a trade round that no choices give): no deal shows the view.
        if mismatches:
            fields = mismatches.most_common(1)[0][0]
            r.add(
                f"the view's history and cards lead to other {', '.join(fields)} than those written"
            )
        else:
            r.add(f"no deal and history can show this view: {e}")
        raise problems.error("view") from None
    view: PlayerView = state.view(facts.player)
    if not isinstance(view, cls):
        r.add(f"rules.game: a {rules.game} view is not a {cls.__name__}")
        raise problems.error("view")
    return view
