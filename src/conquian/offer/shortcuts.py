"""Pruning conditions of the turn search: each gives the plain search's answer sooner.

Every condition here is either a necessary condition for finishing a turn
(it only drops lines the search of `turn.finishable` would reject) or a
sufficient one (a line the search would find). Each names the property
test of ``tests/properties/test_offer_props.py`` that pins it to the
plain search (``tests/oracles/offer.py``).
"""

from __future__ import annotations

from .board import OWNER, OWNER_BITS, Turn
from .tables import LEND_BIT, Tables

__all__ = ["hopeful", "leaves_finish", "usable_by_borrowing"]


def hopeful(tables: Tables, player: int, turn: Turn) -> bool:
    """A necessary condition for placing every pending card (C3, T8, T9).

    Each pending card must end in a combination of three or more cards, so
    it needs two partners among the cards the player may still use: his
    hand, the other pending cards and his own melds. Not the cards of a meld
    of three that nothing he has fits: it can never change (its cards cannot
    be borrowed, which needs four, T9, and nothing joins it). Nor, for a
    borrowed card, those of a meld it may not go back to (T9) that nothing
    else he has fits.

    Pinned by ``test_legal_takes_melds_and_borrows_match_a_naive_oracle``.
    """
    hand, keys, pend, _, sources = turn
    have = hand | pend
    threes = []
    for k in keys:
        if k & OWNER == player:
            cards = k >> OWNER_BITS
            have |= cards
            if cards.bit_count() == 3:
                threes.append(cards)
    for cards in threes:
        if not tables.fit[cards] & have:
            have &= ~cards  # a meld that stays as it is
    rest = pend
    # The borrowed cards first (the likeliest to fail): each may not go back to its sources.
    for index, back, _ in sources:
        low = 1 << index
        if not rest & low:
            continue
        rest ^= low
        usable = have
        for i in back:
            cards = keys[i] >> OWNER_BITS
            if cards.bit_count() == 3 and not tables.fit[cards] & have & ~low:
                usable &= ~cards  # it stays as it is, and the card may not join it
        if not tables.two_partners(index, usable):
            return False
    while rest:
        low = rest & -rest
        rest ^= low
        if not tables.two_partners(low.bit_length() - 1, have):
            return False
    return True


def leaves_finish(direct: list[tuple[int | None, int]], onto: int | None, used: int) -> bool:
    """Whether a meld of the hand cards `used` (onto meld `onto`, or new) leaves the turn
    finishable because a meld in `direct` placing every pending card can still be made.

    Such a meld takes none of the cards `used` and goes onto another meld (or
    is new): a meld of hand cards alone frees no barred card (T9) and changes
    no other meld, so it is still legal after this one: a sufficient condition.

    Pinned by ``test_legal_takes_melds_and_borrows_match_a_naive_oracle``.
    """
    return any(not cards & used and (target is None or target != onto) for target, cards in direct)


def usable_by_borrowing(
    tables: Tables, player: int, hand: int, keys: tuple[int, ...], index: int, other_kind: bool
) -> bool | None:
    """Whether the card of `index` could be placed after a take, settled without the search,
    or None: for a card that fits none of his melds alone and that two hand cards do not go
    with (T3, T8, T9).

    True: borrowing one card from one of his melds, or one from each of two,
    makes a combination of three with it and a hand card (T9, C3): a
    finishing line of the search (a borrowed card goes into a new meld, never
    back to its own; borrowing from one meld leaves the others as they were,
    at the same places).

    False: none of the cards he could ever use gives it two partners (as
    `hopeful`, but sharper). A meld of his that nothing he has fits (hand,
    the card, his melds' cards) can never grow: only borrowing changes it,
    after which only the borrowed card fits it, and that may not go back
    (T9). So it cannot take the card, and of its cards only those it could
    lend are partners: any card of a group of four; of a sequence of n, the
    card at position i (from 0, low end first) if i <= n - 4 or i >= 3,
    reached by borrowing the cards before it from one end, one by one while
    four are left, or by a split in the middle (T9): all of them from six
    on. Not for a sequence as long as the order allows (shorter, it fits new
    cards at its other end), nor with an ace at both ends.

    With ``borrow_other_kind`` (`other_kind`) the True answers are not given
    here (such a line may put a borrowed card into a meld of the kind it came
    from): the search decides; the False answer still holds, as the rule only
    forbids more.

    Pinned by ``test_take_shortcuts_answer_as_the_search``.
    """
    lent: list[tuple[int, int]] = []  # (meld index, bit) of each card he may borrow now
    for i, k in enumerate(keys):
        if other_kind:
            break
        if k & OWNER == player and (k >> OWNER_BITS).bit_count() >= 4:
            for lend in tables.borrowings(k):
                bit = lend[LEND_BIT]
                if tables.two_partners(index, hand | bit):
                    return True  # borrow it, then meld it with the card and a hand card
                lent.append((i, bit))
    for x, (i, one) in enumerate(lent):
        for j, other in lent[x + 1 :]:
            if i != j and tables.two_partners(index, hand | one | other):
                return True  # borrow both (from two melds), then meld them with the card
    order = tables.order
    if order.ace_high:
        return None
    longest = order.longest
    have = hand | 1 << index
    for k in keys:
        if k & OWNER == player:
            have |= k >> OWNER_BITS
    usable = hand
    for k in keys:
        if k & OWNER != player:
            continue
        cards = k >> OWNER_BITS
        n = cards.bit_count()
        if n >= 6 or n >= longest or tables.fit[cards] & have:
            usable |= cards  # it may grow, or lend every card
            continue
        if cards in tables.groups:
            if n >= 4:
                usable |= cards
            continue
        # A sequence of a Conquian pack runs from its lowest card index to its highest (the
        # ace is low only, also in the full pack, T20).
        rest = cards
        i = 0
        while rest:
            low = rest & -rest
            rest ^= low
            if i <= n - 4 or i >= 3:
                usable |= low
            i += 1
    return None if tables.two_partners(index, usable) else False
