"""Coo-Can's positions and views as JSON (rules K1–K9, C6; the formats' driver is shared).

What the formats need to know of Coo-Can: its options, how a deck is dealt
(K1), the zones of a snapshot (the discard pile, the deck in its order, the
reshuffles, the card taken, the meld made this turn, who has opened, the
known cards, the turns) and the checks a snapshot must pass on its own.
`CODEC` is the codec of the game ``"coo-can"`` in the registry of games
(`conquian.games`), where `State.to_json`, `State.from_json` and
`PlayerView.to_json` find it.

>>> from conquian.coocan import CooCanRules, deal
>>> from conquian.cards import cards, shuffle
>>> s = deal(CooCanRules(), shuffle(CooCanRules().pack_cards(), 2), dealer=0)
>>> snapshot = CODEC.snapshot(s.apply("discard 3S").apply("draw"))
>>> snapshot["phase"], snapshot["discard_pile"], len(snapshot["deck"]), snapshot["reshuffles"]
('play', ['3S'], 62, 0)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import Card, card
from ..combos.core import Order
from ..errors import RecordError
from ..formats.codec import Codec, SnapshotRead
from ..formats.jsonio import meld_data, result_data, texts
from ..rules import CooCanRules
from .dealing import deal
from .state import CooCanState
from .view import CooCanView

__all__ = ["CODEC", "CooCanCodec"]


class CooCanCodec(Codec):
    """Coo-Can's part of the formats (rules K)."""

    rules_class = CooCanRules

    snapshot_fields = (
        "current_player",
        "phase",
        "hands",
        "table",
        "discard_pile",
        "deck",
        "reshuffles",
        "taken",
        "melded",
        "opened",
        "known",
        "turns",
        "result",
    )

    def make_rules(self, game: str, options: dict[str, Any]) -> Any:
        return CooCanRules(**options)

    def is_state(self, value: object) -> bool:
        return isinstance(value, CooCanState)

    def is_view(self, value: object) -> bool:
        return isinstance(value, CooCanView)

    def deal(self, rules: Any, deck: tuple[Card, ...], dealer: int) -> Any:
        assert isinstance(rules, CooCanRules)
        return deal(rules, deck, dealer)

    def order(self, rules: Any) -> Order:
        return Order.of("standard")  # every Coo-Can meld (aces low, K4) builds alike here

    def snapshot(self, state: Any) -> dict[str, Any]:
        assert isinstance(state, CooCanState)
        if not state.deck:
            raise RecordError(
                ["deck: a position drawn by sample_state has no deal to record (K8, C7)"],
                what="position",
            )
        return {
            "current_player": state.current_player,
            "phase": state.phase,
            "hands": [texts(state.hand(p)) for p in range(state.rules.players)],
            "table": [meld_data(m) for m in state.table],
            "discard_pile": texts(state.discard_pile),
            "deck": texts(state.deck_cards),
            "reshuffles": state.reshuffles,
            "taken": None if state.taken is None else str(state.taken),
            "melded": state.melded,
            "opened": list(state.opened),
            "known": [texts(sorted(k)) for k in state.known],
            "turns": state.turns,
            "result": result_data(state.result),
        }

    def read_snapshot(self, snap: SnapshotRead) -> None:
        snap.zone("discard_pile", ordered=True)
        snap.zone("deck", ordered=True)
        snap.choice("phase", ("draw", "play"))
        snap.choice("melded", (True, False))
        snap.card_or_null("taken", counted=False)
        snap.per_seat("known", counted=False)
        for name in ("reshuffles", "turns"):
            if name in snap.data:
                value = snap.r.integer(snap.data[name], f"snapshot.{name}")
                if value is not None:
                    snap.canon[name] = value
        if "opened" in snap.data:
            value = snap.data["opened"]
            n = snap.rules.players
            if isinstance(value, list) and len(value) == n and all(type(v) is bool for v in value):
                snap.canon["opened"] = value
            else:
                snap.r.add(f"snapshot.opened: expected {n} booleans, one per seat (K5)")

    def check_snapshot(self, snap: SnapshotRead) -> None:
        """C6: known cards are in their hand; K7: no empty hand while the deal goes on;
        K8: no more turns than the limit."""
        canon, r, rules = snap.canon, snap.r, snap.rules
        assert isinstance(rules, CooCanRules)
        hands, known = canon.get("hands"), canon.get("known")
        over = canon.get("result", False)
        if hands is not None and known is not None:
            for p, (hand, k) in enumerate(zip(hands, known, strict=True)):
                extra = Counter(k) - Counter(hand)
                if extra:
                    shown = " ".join(sorted(extra.elements(), key=card))
                    r.add(f"snapshot.known[{p}]: {shown} not in seat {p}'s hand (C6)")
        if hands is not None and over is None:
            for p, hand in enumerate(hands):
                if not hand:
                    r.add(f"snapshot.hands[{p}]: seat {p} holds no card, but the deal goes on (K7)")
        limit = rules.turn_limit
        if "turns" in canon and limit is not None and canon["turns"] > limit:
            r.add(
                f"snapshot.turns: {canon['turns']} turns, more than the turn limit of {limit} (K8)"
            )

    def view_data(self, view: Any) -> dict[str, Any]:
        """The discard pile, the deck's size, the known cards, the reshuffles, every hand
        once the deal is over and the player's own draws (C6); never the deck's order."""
        assert isinstance(view, CooCanView)
        return {
            "phase": view.phase,
            "discard_pile": texts(view.discard_pile),
            "deck_size": view.deck_size,
            "known": [texts(sorted(k)) for k in view.known],
            "opened": list(view.opened),
            "taken": None if view.taken is None else str(view.taken),
            "melded": view.melded,
            "reshuffles": view.reshuffles,
            "deck_may_hold": None if view.deck_may_hold is None else texts(view.deck_may_hold),
            "turns": view.turns,
            "hands": None if view.hands is None else [texts(h) for h in view.hands],
            "draws": texts(view.draws),
        }


CODEC = CooCanCodec()
"""The one codec of Coo-Can."""
