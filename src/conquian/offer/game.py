"""`OfferGame`: Conquian for two to four as the rest of the package sees it (rules T).

The one game of this engine, `CONQUIAN`, listed in `conquian.GAMES`.
"""

from __future__ import annotations

import functools
import random
import types
from collections.abc import Callable, Mapping
from typing import Any

from ..cards import Card, make_pack, shuffle
from ..rules import ConquianRules, Rules
from ..state.base import State
from ..state.game import Game, Zone
from .codec import OfferCodec
from .observe import ObservationWriter
from .sample import position, positions, rebuildable
from .sampling import offer_samples, sample_offer
from .start import deal, deal_indices

__all__ = ["CONQUIAN", "OfferGame"]


@functools.lru_cache(maxsize=8)
def _pack_indices(name: str) -> tuple[int, ...]:
    """The `Card.index` of each card of a Conquian pack, in canonical order (at most the
    three packs of C4)."""
    return tuple(c.index for c in make_pack(name))


class OfferGame(Game):
    """Conquian: a card on offer, the say, borrowing and forcing, the tableau (rules T)."""

    name = "conquian"
    aliases = ("two-hand",)
    title = "Conquian"
    rules_class = ConquianRules
    rules_maker = "ConquianRules"
    seats = range(2, 5)
    examples = (
        "take 5H | pass | meld 4H 5H 6H | meld 7H @2\n"
        "borrow 7S @0 | force 6S @1 | discard {top} | trade 5H"
    )
    presets: Mapping[str, Callable[..., Rules]] = types.MappingProxyType(
        {
            "foster": ConquianRules,  # Foster 1913, the default
            "pagat": ConquianRules.pagat,
            "hoyle": ConquianRules.hoyle,
            "blog": ConquianRules.blog,
        }
    )
    zones: tuple[Zone, ...] = ("offer", "pending", "stock", "buried")
    melded_counts = True  # T2: the deal is won by melding one card more than the hand
    turn_limit_rule = None  # T12: a deal that runs out of stock is a tableau
    hands_grow = False  # T3: cards never enter the hand
    points_in_hands = True  # T23
    dealer_sits_out = True  # T24
    words: Mapping[str, str] = {
        "offer": (
            "the face-up card in the middle that the player with the say decides about: a card "
            "turned from the stock, passed, or discarded (T4)"
        ),
        "say": (
            "having the say is deciding about the card on offer: take it (and meld it now), "
            "pass it, or force it onto a meld of the player it would go to (T4, T18)"
        ),
        "pone": (
            "the player on the dealer's left; he has the first say to the first card turned "
            "(T1, T11, T16)"
        ),
        "stock": (
            "the face-down cards left after the deal, turned one at a time; when it runs out "
            "with no winner the deal is a tableau (T12)"
        ),
        "pending": (
            "a card you took or borrowed this turn that must be melded before the turn ends (T8)"
        ),
        "borrow": (
            "take a card back from one of your melds to use it in another this turn; every meld "
            "left behind must still be a combination (T9)"
        ),
        "force": (
            "put a card onto an opponent's meld that it fits; the owner must accept it and "
            "discard (T10)"
        ),
        "@1": "meld number 1 on the table (melds are numbered from @0, as the board shows them)",
        "tableau": (
            "a deal with no winner, the stock run out; its stake goes to the next deal (T12, T13)"
        ),
    }
    """The words of the game, as the terminal's ``help`` explains them."""
    codec = OfferCodec()

    def rules(self, **options: Any) -> Rules:
        # Two players is the default of the rules object (T16): it need not be named.
        if options.get("players") == 2:
            options = {k: v for k, v in options.items() if k != "players"}
        return ConquianRules(**options)

    def describe(self, rules: Rules) -> str:
        assert isinstance(rules, ConquianRules)
        size = len(rules.pack_cards())
        head = "Two-hand Conquian" if rules.players == 2 else f"Conquian for {rules.players}"
        trades = f", {rules.trades} trade{'s' * (rules.trades > 1)}" if rules.trades else ""
        return f"{head} ({rules.pack} pack, {size} cards{trades})"  # T20, T21

    def goal(self, rules: Rules) -> str:
        return f"Meld {rules.hand_size + 1} cards to win (T2)."

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        assert isinstance(rules, ConquianRules)
        return deal(rules, deck, dealer)

    def deal_seeded(self, rules: Rules, seed: int, dealer: int) -> State:
        # The cards' indices shuffle as the cards do (C7); the deal reads them directly.
        assert isinstance(rules, ConquianRules)
        return deal_indices(rules, list(shuffle(_pack_indices(rules.pack), seed)), dealer)

    def most_melds(self, rules: Rules) -> int:
        # T2, C3: each player melds at most hand size + 1 cards (he wins there), three a meld.
        return rules.players * ((rules.hand_size + 1) // 3)

    def most_added(self, rules: Rules, onto: int) -> int:
        # T2: with ``onto + 1`` melds on the table the player owns at least ``onto + 1 - 3``
        # of them (each other player owns three at most), each of three cards or more, and
        # he never holds more than hand size + 1 cards in melds, hand and pending together.
        each = (rules.hand_size + 1) // 3
        return rules.hand_size + 1 - 3 * max(1, onto + 1 - (rules.players - 1) * each)

    def largest_meld(self, rules: Rules) -> int:
        # T8, T9: taken and borrowed cards join the hand's: the pack's longest sequence.
        return 40

    def sample(self, view: Any, rng: random.Random, deal: Any = None, accept: Any = None) -> State:
        sample: State = sample_offer(view, rng, deal=deal, accept=accept)
        return sample

    def sample_state(self, view: Any, rng: random.Random) -> State:
        # The deck drawn as `conquian.determinize` says, and the state built on it from the
        # view without replaying the history, except while a card borrowed in the turn in
        # progress is pending (T9, `sample.rebuildable`).
        if rebuildable(view):
            built: State = sample_offer(view, rng, rebuild=position)
            return built
        sampled: State = sample_offer(view, rng)
        return sampled

    def samples(self, view: Any) -> Callable[[random.Random], State]:
        if rebuildable(view):
            built: Callable[[random.Random], State] = offer_samples(view, positions(view))
            return built
        return functools.partial(self.sample_state, view)

    def asks(self, position: Any, seat: str, text: Any) -> str:
        pos = position
        if getattr(pos, "trading", False):  # T21: the trade rounds, before the starter
            n, chosen = pos.rules.players, len(pos.traded)
            line = f"{seat} to trade a card (T21), round {len(pos.history) // n + 1}"
            line += f" of {pos.rules.trades}"
            return line + (f", {chosen} chosen" if chosen else "")
        if pos.offer is not None:
            has = "have" if seat == "you" else "has"
            return f"{seat} {has} the say to {text((pos.offer,))}"
        if pos.pending:
            return f"{seat} to meld {text(pos.pending)}"
        return f"{seat} to meld, then discard or force"

    def observation_writer(self, rules: Rules, most_melds: int, **options: Any) -> Any:
        # Written from the board's card masks (one copy of each card, T1).
        assert isinstance(rules, ConquianRules)
        return ObservationWriter(rules, most_melds, **options)

    def utility(self, rules: Rules) -> float:
        return 1.0  # T13, T19: one counter from each loser


CONQUIAN = OfferGame()
"""Conquian for two to four (rules T), ``conquian.GAMES["conquian"]``."""
