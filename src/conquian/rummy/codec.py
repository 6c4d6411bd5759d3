"""Cooncan's positions and views as JSON (rules M, C6; the formats' driver is shared).

What the formats need to know of the rummy games: their rules' options, how
a deck is dealt, the zones of a snapshot (the stock, the pack and whether
everyone saw it, the card taken this turn, the known cards, the turns) and
the checks a snapshot must pass on its own (C6, M10, M11). The registry of
games (`conquian.games`) holds it for ``"three-hand"`` and ``"double-pack"``.

>>> state = new_game(CooncanRules.three_hand(), seed=3).apply("draw")
>>> '"phase": "play"' in state.to_json(), State.from_json(state.to_json()) == state
(True, True)
"""

from __future__ import annotations

from collections import Counter
from typing import Any, get_args

from ..actions import Action
from ..cards import Card, card
from ..combos.core import Order
from ..errors import RecordError
from ..formats.codec import Codec, SnapshotRead
from ..formats.jsonio import Reader, meld_data, result_data, texts
from ..rules import CooncanRules, Rules
from ..state.base import PlayerView, State
from .dealing import deal
from .state import CooncanState
from .tables import ORDER, Phase
from .view import CooncanView

__all__ = ["RummyCodec"]


class RummyCodec(Codec):
    """The rummy games' part of the formats (rules M)."""

    rules_class = CooncanRules

    snapshot_fields = (
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

    def make_rules(self, game: str, options: dict[str, Any]) -> Rules:
        return CooncanRules(**{"variant": game, **options})

    def is_state(self, value: object) -> bool:
        return isinstance(value, CooncanState)

    def is_view(self, value: object) -> bool:
        return isinstance(value, CooncanView)

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        assert isinstance(rules, CooncanRules)
        return deal(rules, deck, dealer)

    def order(self, rules: Rules) -> Order:
        return ORDER

    def snapshot(self, state: State) -> dict[str, Any]:
        assert isinstance(state, CooncanState)
        if not state.deck:
            raise RecordError(
                ["deck: a position drawn by sample_state has no deal to record (C6, C7)"],
                what="position",
            )
        return {
            "current_player": state.current_player,
            "phase": state.phase,
            "hands": [texts(state.hand(p)) for p in range(state.rules.players)],
            "table": [meld_data(m) for m in state.table],
            "stock": texts(state.stock),
            "pack": texts(state.pack),
            "pack_known": state.pack_is_known,
            "taken": None if state.taken is None else str(state.taken),
            "known": [texts(sorted(k)) for k in state.known],
            "turns": state.turns,
            "result": result_data(state.result),
        }

    def read_snapshot(self, snap: SnapshotRead) -> None:
        snap.zone("stock", ordered=True)
        snap.zone("pack", ordered=True)
        snap.choice("phase", get_args(Phase))
        snap.choice("pack_known", (True, False))
        snap.card_or_null("taken", counted=False)
        snap.per_seat("known", counted=False)
        if "turns" in snap.data:
            turns = snap.r.integer(snap.data["turns"], "snapshot.turns")
            if turns is not None:
                snap.canon["turns"] = turns

    def check_snapshot(self, snap: SnapshotRead) -> None:
        """C6: known cards are in their hand; M10: no empty hand while the deal goes on;
        M11: no more turns than the limit."""
        canon, r, rules = snap.canon, snap.r, snap.rules
        assert isinstance(rules, CooncanRules)
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
                    r.add(
                        f"snapshot.hands[{p}]: seat {p} holds no card, "
                        "but the deal is not over (M10)"
                    )
        limit = rules.turn_limit
        if "turns" in canon and limit is not None and canon["turns"] > limit:
            r.add(
                f"snapshot.turns: {canon['turns']} turns, more than the turn limit of {limit} (M11)"
            )

    view_zone_fields = ("phase", "stock", "pack_size", "known", "known_pack", "turns")

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
        """The face-up stock and the cards of the pack known to all (M1, M11), and the cards
        of the other hands the viewer saw taken (C6)."""
        before = len(r.problems)
        n = rules.players
        stock = r.card_list(data.get("stock"), "stock")
        known_value = r.array(data.get("known"), "known", n + 1, "hands")
        known = (
            None
            if known_value is None
            else [r.card_list(v, f"known[{i}]") for i, v in enumerate(known_value)]
        )
        if known is not None and len(known) != n:
            r.add(f"known: {len(known)} hands for {n} players")
        pack_value = data.get("known_pack")
        pack = None if pack_value is None else r.card_list(pack_value, "known_pack")
        if len(r.problems) > before or known is None or any(k is None for k in known):
            return None
        assert stock is not None
        held = [c for q, k in enumerate(known) if q != player for c in k or ()]
        extra = {
            "stock": tuple(stock),
            "known": tuple(tuple(k or ()) for k in known),
            "known_pack": None if pack is None else tuple(pack),
        }
        return [*stock, *(pack or ())], held, extra

    def view_data(self, view: PlayerView) -> dict[str, Any]:
        """The stock, the pack's size, the known cards, and every hand once the deal is over (C6).

        ``"hands"`` is null while the deal goes on ("Showing").
        """
        assert isinstance(view, CooncanView)
        return {
            "phase": view.phase,
            "stock": texts(view.stock),
            "pack_size": view.pack_size,
            "known": [texts(sorted(k)) for k in view.known],
            "known_pack": None if view.known_pack is None else texts(view.known_pack),
            "turns": view.turns,
            "hands": None if view.hands is None else [texts(h) for h in view.hands],
        }
