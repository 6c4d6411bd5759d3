"""Reading a Coo-Can view back from its JSON (format ``conquian-view``): `read_view`.

A view is what one player may know (C6), so it cannot be replayed from a
deal. It is read field by field (every problem reported at once, as
`RecordError`, E2, E3), rebuilt as a `CooCanView` whose `unseen` cards are
the pack less every card it shows, and then checked whole: a position drawn
from it (`sampling.sample`, with a fixed seed) must give a view that writes
exactly the JSON read, so its legal actions, hand sizes and result agree
with its cards. The library's choice: whether the history leads to the
table is not replayed (the hidden cards of a Coo-Can deal cannot be drawn
back through a reshuffle, K8).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import cast

from ..actions import Action, Discard, Draw, Meld, Take, parse_action
from ..cards import Card
from ..combos.core import Combination, Kind, Order
from ..errors import NotationError
from ..formats.codec import read_rules
from ..formats.jsonio import (
    FORMAT_VIEW,
    MAX_ACTION_TEXT,
    MAX_ACTIONS,
    MAX_CARDS,
    Problems,
    Reader,
    describe,
    loads,
    read_format,
    read_meld,
    read_result,
)
from ..rules import CooCanRules
from ..state.base import Result
from .sampling import sample
from .view import CooCanView

__all__ = ["read_view"]

_FIELDS = (
    "format", "version", "rules", "player", "dealer", "current_player", "hand", "hand_sizes",
    "table", "phase", "discard_pile", "deck_size", "known", "opened", "taken", "melded",
    "reshuffles", "deck_may_hold", "turns", "hands", "history", "result", "legal_actions",
)  # fmt: skip


def _actions(value: object, path: str, r: Reader) -> list[Action] | None:
    items = r.array(value, path, MAX_ACTIONS, "actions")
    if items is None:
        return None
    out = []
    for i, text in enumerate(items):
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            r.add(f"{path}[{i}]: expected an action in notation (got {describe(text)})")
            return None
        try:
            out.append(parse_action(text))
        except (NotationError, ValueError) as e:
            r.add(f"{path}[{i}]: {e}")
            return None
    return out


def _is_coocan_action(action: Action) -> bool:
    """Whether `action` is of a kind Coo-Can plays (K3, K4, K5, K7): no pass, trade, borrow
    or force, no joker (K1), and a discard or meld naming its cards."""
    kind = type(action)
    if kind is Draw or kind is Take:
        return True
    if kind is Discard:
        return type(cast(Discard, action).card) is Card
    if kind is Meld:
        meld = cast(Meld, action)
        return not meld.shift and all(type(c) is Card for c in meld.cards)
    return False


def _per_seat(value: object, path: str, n: int, r: Reader) -> list[tuple[Card, ...]] | None:
    items = r.array(value, path, n + 1, "lists")
    if items is None:
        return None
    if len(items) != n:
        r.add(f"{path}: {len(items)} lists for {n} players")
        return None
    out = []
    for i, v in enumerate(items):
        got = r.card_list(v, f"{path}[{i}]")
        if got is None:
            return None
        out.append(tuple(sorted(got)))
    return out


def _table(value: object, n: int, r: Reader) -> list[Combination] | None:
    items = r.array(value, "table", MAX_CARDS, "melds")
    if items is None:
        return None
    out = []
    for i, v in enumerate(items):
        combo = read_meld(v, f"table[{i}]", n, Order.of("standard"), r).combo
        if combo is None:
            return None
        ace_high = combo.kind is Kind.SEQUENCE and combo.cards[-1].rank == 1
        if len(combo) < 4 or ace_high:
            r.add(f"table[{i}]: {combo} is no Coo-Can meld: four cards or more, aces low (K4)")
            return None
        out.append(combo)
    return out


def read_view(text: str | bytes) -> CooCanView:
    """`PlayerView.from_json` of a Coo-Can view (the registry's `read_view`): the view
    written in `text`, checked (E2, E3, C6); see the module."""
    problems = Problems()
    r = Reader(problems)
    data = loads(text, "view", problems)
    if problems or not read_format(data, FORMAT_VIEW, r):
        raise problems.error("view")
    rules = read_rules(data.get("rules"), r)
    if rules is None:
        raise problems.error("view")
    if not isinstance(rules, CooCanRules):
        r.add(f"rules.game: a {rules.game} view is not a CooCanView")
        raise problems.error("view")
    if r.fields(data, "", _FIELDS, ("decision", "draws")) is None or problems:
        raise problems.error("view")
    n = rules.players
    g = data.get
    player = r.seat(g("player"), "player", n)
    dealer = r.seat(g("dealer"), "dealer", n)
    current = r.seat(g("current_player"), "current_player", n, null=True)
    hand = r.card_list(g("hand"), "hand")
    sizes_value = r.array(g("hand_sizes"), "hand_sizes", n + 1, "sizes")
    sizes = [] if sizes_value is None else [r.integer(v, "hand_sizes") for v in sizes_value]
    if len(sizes) != n:
        r.add(f"hand_sizes: {len(sizes)} sizes for {n} players")
    table = _table(g("table"), n, r)
    r.choice(g("phase"), "phase", ("draw", "play"))
    pile = r.card_list(g("discard_pile"), "discard_pile")
    deck_size = r.integer(g("deck_size"), "deck_size")
    known = _per_seat(g("known"), "known", n, r)
    opened = g("opened")
    if not (isinstance(opened, list) and len(opened) == n and all(type(v) is bool for v in opened)):
        r.add(f"opened: expected {n} booleans, one per seat (K5)")
    _, taken = r.card_or_null(g("taken"), "taken")
    r.choice(g("melded"), "melded", (True, False))
    reshuffles = r.integer(g("reshuffles"), "reshuffles")
    may_hold = (
        None if g("deck_may_hold") is None else r.card_list(g("deck_may_hold"), "deck_may_hold")
    )
    turns = r.integer(g("turns"), "turns")
    # A view of n actions may hold n draws: the draws keep to the actions' limit.
    draws = [] if g("draws") is None else r.card_list(g("draws"), "draws", MAX_ACTIONS)
    shown = None if g("hands") is None else _per_seat(g("hands"), "hands", n, r)
    history = _actions(g("history"), "history", r)
    legal = _actions(g("legal_actions"), "legal_actions", r)
    for name, actions in (("history", history), ("legal_actions", legal)):
        for i, action in enumerate(actions or ()):
            if not _is_coocan_action(action):
                r.add(
                    f"{name}[{i}]: '{action}' is no Coo-Can action: draw, take, meld, discard (K3)"
                )
                break
    if current is None and g("result") is None:
        r.add("current_player: null, though the deal goes on (no result): a seat is to play")
    ok, result_data = read_result(g("result"), n, r)
    if problems or not ok or hand is None or table is None or pile is None or known is None:
        raise problems.error("view")
    assert player is not None and dealer is not None and history is not None and legal is not None
    seen: list[Card] = [*hand, *pile, *(c for m in table for c in m.physical_cards)]
    others = shown if shown is not None else known
    seen.extend(c for q, h in enumerate(others) if q != player for c in h)
    rest = Counter(rules.pack_cards())
    rest.subtract(seen)
    extra = sorted(c for c, k in rest.items() if k < 0)
    if extra:
        r.add(f"{' '.join(map(str, extra))}: more copies than the coo-can pack holds")
        raise problems.error("view")
    result = None
    if result_data is not None:
        result = Result(result_data["outcome"], result_data["winner"], result_data["payments"])
    view = CooCanView(
        rules=rules, player=player, dealer=dealer, current_player=current, phase=g("phase"),
        hand=tuple(sorted(hand)), hand_sizes=tuple(s or 0 for s in sizes), table=tuple(table),
        discard_pile=tuple(pile), deck_size=deck_size or 0, known=tuple(known),
        opened=tuple(opened), taken=taken, melded=g("melded"), reshuffles=reshuffles or 0,
        deck_may_hold=None if may_hold is None else tuple(sorted(may_hold)),
        history=tuple(history), turns=turns or 0, result=result, legal_actions=tuple(legal),
        unseen=tuple(sorted(rest.elements())),
        hands=None if shown is None else tuple(shown), draws=tuple(draws or ()),
    )  # fmt: skip
    try:
        written = json.loads(sample(view, random.Random(0)).view(player).to_json())
    except (ValueError, IndexError) as e:
        r.add(f"no position can show this view: {e}")
        raise problems.error("view") from None
    wrong = [key for key in data if written.get(key) != data[key]]
    if wrong:
        r.add("the view's cards lead to other " + ", ".join(wrong) + " than those written")
        raise problems.error("view")
    return view
