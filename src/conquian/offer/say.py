"""The say: what a player may do with the card on offer (T3–T7, T8 laying down, T10, T11).

Between turns one card lies face up on offer to the player who has the say
(T4). It came from one of three origins, which decide his choices:

- *turned* (T5, and the starter, T11): take it, pass it to his left
  neighbour, or force it onto one of that neighbour's melds that it fits
  (T10, T17, T18);
- *passed* (T6): take it, force it back onto one of the passer's melds (the
  player on his right, T18), or pass it (it is buried and he turns the next
  stock card);
- *discarded* (T7): take it or pass it (buried, and he turns the next card).

A card is taken only to be placed at once (T3, T8): `usable` decides
whether it could reach his table in this turn. With the default rules he
may also lay down combinations from his hand while he has the say (T8).
"""

from __future__ import annotations

from typing import Final

from .._mypyc import mypyc_attr
from ..actions import Action
from ..cards import Card
from ..state.base import Legal
from .board import OWNER, OWNER_BITS, PASS, TAKES, Turn, force_action
from .dealing import Deal
from .shortcuts import usable_by_borrowing
from .tables import Memo, Tables
from .turn import finishable, turn_moves

__all__ = ["SayInfo", "say_actions", "say_info", "usable"]

# The legal actions of the usual say states: take and pass (by the card's index), or pass
# alone; their plans are None.
_TAKE_PASS: Final[tuple[Legal, ...]] = tuple(((take, PASS), (None, None)) for take in TAKES)
_PASS_ONLY: Final[Legal] = ((PASS,), (None,))


@mypyc_attr(acyclic=True)
class SayInfo:
    """What a player with the say may do whatever the card on offer (T4–T10), for one hand
    and table: the same over the say states of a run of passes.

    - `own`: whether he has a meld (to add to, or borrow from, T8, T9);
    - `own_fits`: the cards that fit one of his melds alone (T8);
    - `partners`: his hand and the cards of his melds that may change (see `usable`);
    - `forces`: each other seat's meld, its index, the cards fitting it and its owner (T10);
    - `force_fits`: the cards fitting one of the other seats' melds (T10);
    - `lay_downs`: the melds he may lay down from his hand, and the turn after each (T8).
    """

    __slots__ = ("force_fits", "forces", "lay_downs", "own", "own_fits", "partners")

    def __init__(
        self,
        own: bool,
        own_fits: int,
        partners: int,
        forces: tuple[tuple[int, int, int], ...],
        force_fits: int,
        lay_downs: Legal,
    ) -> None:
        self.own = own
        self.own_fits = own_fits
        self.partners = partners
        self.forces = forces
        self.force_fits = force_fits
        self.lay_downs = lay_downs


def say_info(
    tables: Tables, memo: Memo, player: int, hand: int, keys: tuple[int, ...], say_melds: bool
) -> SayInfo:
    """`SayInfo` of `player` with `hand`, the table's melds being `keys`.

    Kept in the deal's `Memo` for his next say: over a run of passes the
    same hand and table come back (a pass hands the same tuple of keys on).
    """
    last_hand, last_keys, last = memo.last_say[player]
    if last_keys is keys and last_hand == hand:
        return last  # type: ignore[no-any-return]
    found = None
    if last_hand == hand:
        found = _same_hand_say(tables, player, keys, last_keys, last)
    if found is None:
        found = _new_say(tables, memo, player, hand, keys, say_melds)
    memo.last_say[player] = (hand, keys, found)
    return found


def _same_hand_say(
    tables: Tables, player: int, keys: tuple[int, ...], old_keys: tuple[int, ...], old: SayInfo
) -> SayInfo | None:
    """`SayInfo` derived from his last say, with the same hand, when only the other seats'
    melds changed since (T10), or None: with the same melds of his own at the same places,
    what he may meld (T8) and his partners are the same. Only with nothing to lay down then:
    those plans hold the whole table."""
    if old.lay_downs[0] or len(keys) < len(old_keys):
        return None
    n_old = len(old_keys)
    forces = []
    force_fits = 0
    for j, k in enumerate(keys):
        seat = k & OWNER
        if seat == player or (j < n_old and old_keys[j] & OWNER == player):
            if j >= n_old or old_keys[j] != k:
                return None  # one of his melds is new or changed
        else:
            fits = tables.fit[k >> OWNER_BITS]
            forces.append((j, fits, seat))
            force_fits |= fits
    return SayInfo(old.own, old.own_fits, old.partners, tuple(forces), force_fits, old.lay_downs)


def _new_say(
    tables: Tables, memo: Memo, player: int, hand: int, keys: tuple[int, ...], say_melds: bool
) -> SayInfo:
    """`SayInfo` of `player` with `hand`, the table's melds being `keys`, worked out."""
    own = False
    own_fits = 0
    partners = hand
    threes = []
    forces = []
    force_fits = 0
    for j, k in enumerate(keys):
        cards = k >> OWNER_BITS
        fits = tables.fit[cards]
        seat = k & OWNER
        if seat == player:
            own = True
            own_fits |= fits
            partners |= cards
            if cards.bit_count() == 3:
                threes.append((cards, fits))
        else:
            forces.append((j, fits, seat))
            force_fits |= fits
    # For a card on offer that fits none of his melds: a meld of three that nothing he has
    # fits can never change, and gives no partner.
    for cards, fits in threes:
        if not fits & partners:
            partners &= ~cards
    # T8 (lay_down="say"): hand cards may go down while he has the say; no borrowing. A
    # lay-down is a new meld of hand cards or an addition to his melds, which holds a hand
    # card fitting one alone.
    actions: list[Action] = []
    plans: list[object] = []
    if say_melds and hand and (hand & own_fits or tables.new_melds(hand, player, memo)):
        turn: Turn = (hand, keys, 0, 0, ())
        for action, after in turn_moves(
            tables, memo, player, turn, hand_melds=True, other_kind=False, borrowing=False
        ):
            actions.append(action)
            plans.append(after)
    lay_downs: Legal = (tuple(actions), tuple(plans))
    return SayInfo(own, own_fits, partners, tuple(forces), force_fits, lay_downs)


def usable(
    deal: Deal, player: int, hand: int, keys: tuple[int, ...], c: Card, say: SayInfo
) -> bool:
    """Whether `player` could take `c` and place it in this turn (T3, T8, no dead ends)."""
    tables = deal.tables
    bit = 1 << c.index
    if say.own_fits & bit:
        return True  # onto one of his melds at once
    # Whether a set of the cards near it holds two partners, as `Tables.two_partners`.
    index = c.index
    near = tables.near[index]
    known = tables.partnered[index]
    two = known.get(say.partners & near)
    if two is None:
        two = tables.two_partners(index, say.partners)
    if not two:
        # `shortcuts.hopeful` for this one pending card, from the partners of his hand and
        # melds; they hold his hand, so this also settles "no two hand cards go with it".
        return False
    two = known.get(hand & near)
    if two is None:
        two = tables.two_partners(index, hand)
    if two:
        return True  # a new combination with two hand cards (C3)
    if not say.own:
        return False  # no meld to add to or borrow from
    other_kind = deal.other_kind
    settled = usable_by_borrowing(tables, player, hand, keys, index, other_kind)
    if settled is not None:
        return settled
    turn = (hand, keys, bit, 0, ())
    hand_melds = deal.hand_melds
    return finishable(tables, deal.memo, player, turn, hand_melds=hand_melds, other_kind=other_kind)


def say_actions(
    deal: Deal, player: int, hand: int, keys: tuple[int, ...], offer: Card, victim: int
) -> Legal:
    """The legal actions of `player` with the say to `offer` (T3–T8, T10, T11), with plans.

    ``take`` if the card could be placed in this turn (T3, T8); ``pass``
    always (T5–T7); each ``force`` onto the melds of `victim` the card fits,
    when its origin allows it (T18: a card he turned onto his left
    neighbour's melds, T5; one passed to him back onto the passer's, T6;
    `victim` is -1 for a discard, T7), with the meld's index as plan; then
    the melds he may lay down from his hand (T8), with the turn after each.
    """
    last_hand, last_keys, last = deal.memo.last_say[player]
    if last_keys is keys and last_hand == hand:  # his last say's (a run of passes)
        say: SayInfo = last
    else:
        say = say_info(deal.tables, deal.memo, player, hand, keys, deal.say_melds)
    # T3, T8: a card is taken only to be placed at once; T5-T7: he may always pass.
    legal = _TAKE_PASS[offer.index] if usable(deal, player, hand, keys, offer, say) else _PASS_ONLY
    bit = 1 << offer.index
    forcing = victim >= 0 and bool(say.force_fits & bit)
    if not forcing and not say.lay_downs[0]:
        return legal
    actions = list(legal[0])
    plans = list(legal[1])
    if forcing:
        for j, fits, seat in say.forces:
            if fits & bit and seat == victim:
                actions.append(force_action(offer.index, j))
                plans.append(j)
    actions += say.lay_downs[0]
    plans += say.lay_downs[1]
    return tuple(actions), tuple(plans)
