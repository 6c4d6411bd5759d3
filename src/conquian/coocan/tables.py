"""What Coo-Can's engine reads at every turn (rules K1-K9), made once: actions, the deal.

Nothing here changes while the program runs, except the bounded table of meld
actions (one per set of the pack and table index). Actions are values, so one
object per card serves every state and every thread.
"""

from __future__ import annotations

from typing import Literal

from ..actions import Action, Discard, Draw, Meld, Take
from ..cards import Card, make_pack
from ..rules import CooCanRules
from ..state.base import Legal, Outcome, Result
from .melds import spots

__all__ = [
    "DISCARDS",
    "DRAW",
    "DRAW_ONLY",
    "DRAW_PLAN",
    "TAKES",
    "Deal",
    "Phase",
    "Plan",
    "forget",
    "meld_action",
    "replaced",
    "reshuffle_seed",
    "settle",
    "with_card",
    "without",
]

Phase = Literal["draw", "play"]
"""Before the player has drawn or taken this turn (``"draw"``), and after (``"play"``)."""

Plan = tuple[Action, tuple[Card, ...], int, bool]
"""A legal action with what `apply` needs: the cards it takes from the hand, the table index
it goes onto (-1: a new meld) and whether it is a Cooch (K9)."""

DRAW = Draw()
TAKES = tuple(Take(c) for c in make_pack())
"""``take`` of each card, by `Card.index`."""
DISCARDS = tuple(Discard(c) for c in make_pack())
"""``discard`` of each card, by `Card.index`."""
DRAW_PLAN: Plan = (DRAW, (), -1, False)
DRAW_ONLY: Legal = ((DRAW,), (DRAW_PLAN,))
_MELDS: dict[tuple[tuple[int, ...], int], Meld] = {}
"""One `Meld` per cards and table index (bounded: the sets of the pack times the table)."""


def meld_action(played: tuple[Card, ...], onto: int) -> Meld:
    """The `Meld` of these cards, new (`onto` -1) or onto a meld of the table (K4, K5)."""
    key = (tuple(c.index for c in played), onto)
    action = _MELDS.get(key)
    if action is None:
        action = _MELDS[key] = Meld(played, None if onto < 0 else onto)
    return action


def reshuffle_seed(deck: tuple[Card, ...], earlier: int) -> int:
    """The seed of the shuffle of the discard pile when the deck runs out (K8, C7).

    A deal is its rules, its deck and its dealer (C7), whether the deck came
    from a seed or was given: the seed is read from the deck's order (the
    first eight bytes of the SHA-256 of its text) and the number of `earlier`
    reshuffles in the deal. The library's choice: the article says only that
    the pile is "mixed".

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> reshuffle_seed(CooCanRules().pack_cards(), 0) != reshuffle_seed(
    ...     CooCanRules().pack_cards(), 1)
    True
    """
    import hashlib  # where a reshuffle needs it, not at `import conquian`

    text = " ".join(map(str, deck)) + f" / reshuffle {earlier}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class Deal:
    """What stays the same over a deal (K1): its rules, dealer and deck. One object shared by
    every state of the deal; two deals are equal when their rules, dealer and deck are.

    A deal drawn by `CooCanView.sample_state` has no deck (`sampled`): its
    reshuffles are seeded by `key` instead.
    """

    __slots__ = ("dealer", "deck", "key", "limit", "players", "rules", "sampled")

    def __init__(
        self, rules: CooCanRules, dealer: int, deck: tuple[Card, ...], key: int | None = None
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck = deck
        self.players = rules.players
        self.limit = rules.turn_limit
        self.sampled = key is not None
        self.key = 0 if key is None else key

    def seed(self, earlier: int) -> int:
        """The seed of the reshuffle after `earlier` ones (K8)."""
        if self.sampled:
            return self.key * 64 + earlier
        return reshuffle_seed(self.deck, earlier)

    def _id(self) -> tuple[object, ...]:
        return (self.rules, self.dealer, self.deck, self.sampled, self.key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self is other or self._id() == other._id()

    def __hash__(self) -> int:
        return hash(self._id())

    def __repr__(self) -> str:
        return f"Deal({self.rules!r}, dealer={self.dealer}, deck=<{len(self.deck)} cards>)"

    def __reduce__(self) -> tuple[object, ...]:
        return (Deal, (self.rules, self.dealer, self.deck, self.key if self.sampled else None))


def with_card(hand: tuple[Card, ...], c: Card) -> tuple[Card, ...]:
    """A sorted `hand` with `c` added in its place."""
    i = 0
    for h in hand:
        if h.index > c.index:
            break
        i += 1
    return (*hand[:i], c, *hand[i:])


def without(hand: tuple[Card, ...], played: tuple[Card, ...]) -> tuple[Card, ...]:
    """`hand` less one copy of each card of `played` (the engine's cards are the interned ones,
    `conquian.cards.card_at`, so they are found by identity)."""
    for c in played:
        for i, h in enumerate(hand):
            if h is c:
                hand = hand[:i] + hand[i + 1 :]
                break
        else:
            raise ValueError(f"{c} is not in the hand")
    return hand


def forget(known: tuple[Card, ...], played: tuple[Card, ...]) -> tuple[Card, ...]:
    """The known cards of a hand that played `played`: one equal to a card played is not known."""
    rest = list(known)
    for c in played:
        if c in rest:
            rest.remove(c)
    return known if len(rest) == len(known) else tuple(rest)


def replaced(
    rows: tuple[tuple[Card, ...], ...], p: int, row: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """`rows` with seat `p`'s row replaced by `row`."""
    return rows if rows[p] is row else (*rows[:p], row, *rows[p + 1 :])


def settle(
    rules: CooCanRules, hands: tuple[tuple[Card, ...], ...], winner: int, *, cooch: bool
) -> Result:
    """K9: each loser pays the winner the game stake and the spot stake per spot in his hand;
    after a Cooch every loser pays double, game and spots.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> settle(CooCanRules(players=2), (cards("8C 8D 8H AS"), ()), 1, cooch=False).payments
    (-150, 150)
    """
    factor = 2 if cooch else 1
    payments = [0] * len(hands)
    for q, hand in enumerate(hands):
        if q != winner:
            owed = factor * (rules.game_stake + rules.spot_stake * spots(hand))
            payments[q] = -owed
            payments[winner] += owed
    return Result(Outcome.WIN, winner, tuple(payments))
