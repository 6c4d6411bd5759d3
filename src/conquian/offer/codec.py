"""The two-hand game's positions and views as JSON (rules T, C6; the formats' driver is shared).

What the formats need to know of the offer game: its rules' options, how a
deck is dealt, the zones of a snapshot (the card on offer and where it came
from, the pending cards, the stock, the buried cards) and the checks a
snapshot must pass on its own (T2, T4). The registry of games
(`conquian.games`) holds it for the game ``"conquian"``.

>>> from conquian import ConquianRules, State, new_game
>>> state = new_game(ConquianRules(), seed=5).apply("take KD")
>>> '"pending": ["KD"]' in state.to_json()
True
>>> State.from_json(state.to_json()) == state
True
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, get_args

from ..actions import Action
from ..cards import Card
from ..combos.core import Order
from ..formats.codec import Codec, SnapshotRead
from ..formats.jsonio import Reader, describe, meld_data, result_data, texts
from ..rules import ConquianRules, Rules
from ..state.base import PlayerView, State
from .start import deal
from .state import ConquianState
from .tables import sequence_order
from .trading import known_cards
from .view import ConquianView, Origin

__all__ = ["OfferCodec"]

# The player count of the rules being read, for the options checked one by one (T16).
_PLAYERS: ContextVar[int] = ContextVar("players", default=2)


class OfferCodec(Codec):
    """The offer game's part of the formats (rules T)."""

    rules_class = ConquianRules
    snapshot_fields = (
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

    def make_rules(self, game: str, options: dict[str, Any]) -> Rules:
        if "players" not in options:
            # An option checked alone is checked at the table of the rules being read (T16:
            # the hand size depends on the player count).
            options = {**options, "players": _PLAYERS.get()}
        return ConquianRules(**options)

    def rules_data(self, rules: Rules) -> dict[str, Any]:
        """The game, its player count (2 to 4, T16; first, for readers of every game) and every
        option."""
        data = super().rules_data(rules)  # T21, T22, T25, T26 only when not the defaults
        return {"game": data.pop("game"), "players": data.pop("players"), **data}

    def prepare_rules(self, value: dict[str, Any], r: Reader) -> dict[str, Any]:
        """Check the player count (2 to 4, T16; the option checks name a bad one); read older
        writers' fields.

        Two-hand rules written before T8's `lay_down` and T9's
        `borrow_other_kind` hold the boolean ``lay_down_from_hand``: true reads
        as ``"say"``, false as ``"meld"``, and the missing `borrow_other_kind`
        as false; `after_starter` (T22), `cut` (T25), `trades` (T21) and `ace` (T26) are
        written only when they are not the defaults, so missing ones read as the defaults.
        Anything else is left for the checks.
        """
        new = super().prepare_rules(value, r)
        players = new.setdefault("players", 2)  # older writers: two seats
        if type(players) is not int or players not in (2, 3, 4):
            del new["players"]
            r.add(f"rules.players: the offer game has 2, 3 or 4 players (got {describe(players)})")
            players = 2
        _PLAYERS.set(players)
        old = new.get("lay_down_from_hand")
        if "lay_down" not in new and type(old) is bool:
            del new["lay_down_from_hand"]
            new["lay_down"] = "say" if old else "meld"
            new.setdefault("borrow_other_kind", False)
        return new

    def is_state(self, value: object) -> bool:
        return isinstance(value, ConquianState)

    def is_view(self, value: object) -> bool:
        return isinstance(value, ConquianView)

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        assert isinstance(rules, ConquianRules)
        return deal(rules, deck, dealer)

    def order(self, rules: Rules) -> Order:
        assert isinstance(rules, ConquianRules)
        return sequence_order(rules.pack, rules.max_sequence, rules.ace)  # T20, T26: the ace

    def snapshot(self, state: State) -> dict[str, Any]:
        assert isinstance(state, ConquianState)
        stock = state.deck[len(state.deck) - state.stock_size :]  # the stock is the deck's tail
        return {
            "current_player": state.current_player,
            "hands": [texts(state.hand(p)) for p in range(state.rules.players)],
            "table": [meld_data(m) for m in state.table],
            "offer": None if state.offer is None else str(state.offer),
            "offer_origin": state.offer_origin,
            "pending": texts(state.pending),
            "stock": texts(stock),
            "buried": texts(state.buried),
            "result": result_data(state.result),
        }

    def read_snapshot(self, snap: SnapshotRead) -> None:
        snap.zone("stock", ordered=True)
        snap.zone("pending", ordered=False)
        snap.zone("buried", ordered=True)
        snap.card_or_null("offer", counted=True)
        snap.choice("offer_origin", get_args(Origin), null=True)

    def check_snapshot(self, snap: SnapshotRead) -> None:
        """T4: an origin exactly when a card is on offer; T2: the cards of each seat."""
        canon, r = snap.canon, snap.r
        both = "offer" in canon and "offer_origin" in canon
        if both and (canon["offer"] is None) != (canon["offer_origin"] is None):
            r.add("snapshot.offer_origin: null exactly when no card is on offer (T4)")
        melds = snap.melds
        rules = snap.rules
        assert isinstance(rules, ConquianRules)
        hands = canon.get("hands")
        current = canon.get("current_player", -1)
        if (
            hands is None
            or melds is None
            or not all(m.faces is not None and m.owner is not None for m in melds)
            or "pending" not in canon
            or "result" not in canon
            or current == -1
            or "offer" not in canon
        ):
            return
        # T2: hand and melds make the hand size between turns, one more while melding or won.
        result = canon["result"]
        # T21: in the trade rounds no card is on offer and the whole stock is face down.
        stock = canon.get("stock")
        full = len(rules.pack_cards()) - rules.players * rules.hand_size
        trading = bool(rules.trades) and stock is not None and len(stock) == full
        for p in range(rules.players):
            melded = sum(len(m.faces or ()) for m in melds if m.owner == p)
            pending = len(canon["pending"]) if p == current else 0
            playing = result is None and p == current and canon["offer"] is None and not trading
            won = result is not None and result["winner"] == p
            want = rules.hand_size + (1 if playing or won else 0)
            have = len(hands[p]) + melded + pending
            if have != want:
                more = f", {pending} pending" if pending else ""
                r.add(
                    f"snapshot.hands[{p}]: seat {p} holds {len(hands[p])} cards with {melded} "
                    f"melded{more}, {have} in all; there should be {want} (T2)"
                )

    view_zone_fields = ("offer", "offer_origin", "pending", "stock_size", "buried")

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
        """The buried, pending and offered cards (T4, T5, T8), and, in a deal with trade
        rounds, the cards the viewer gave that he can place (T21, C6)."""
        before = len(r.problems)
        buried = r.card_list(data.get("buried"), "buried")
        pending = r.card_list(data.get("pending"), "pending")
        _, offer = r.card_or_null(data.get("offer"), "offer")
        if len(r.problems) > before or buried is None or pending is None:
            return None
        shown = [*buried, *pending, *([] if offer is None else [offer])]
        held: list[Card] = []
        trades = getattr(rules, "trades", 0)
        if trades and history and data.get("hands") is None:  # T21, C6: the cards he gave
            try:
                located = known_cards(history, rules.players, dealer, trades, player)
            except ValueError as e:
                r.add(f"history: {e} (T21)")
                return None
            held = [c for c in located if c not in public and c not in shown]
        return shown, held, {"buried": tuple(buried), "offer": offer}

    def view_data(self, view: PlayerView) -> dict[str, Any]:
        """The offer, pending and buried cards, the stock's size, and every hand once the deal
        is over (C6, T19); ``"hands"`` is null while the deal goes on ("Showing")."""
        assert isinstance(view, ConquianView)
        return {
            "offer": None if view.offer is None else str(view.offer),
            "offer_origin": view.offer_origin,
            "pending": texts(view.pending),
            "stock_size": view.stock_size,
            "buried": texts(view.buried),
            "hands": None if view.hands is None else [texts(h) for h in view.hands],
        }
