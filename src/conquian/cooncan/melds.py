"""Laying out and adding to combinations (RULES.md M4, M5, M9): every Meld and Force a hand allows.

`plays` lists them for one hand and table; the turn rule that keeps a
player from a dead end (M2) is `conquian.cooncan.turn`'s. Cards on the table
never move (M6), except the joker shift (M9), so each combination's fitting
cards (`fit_of`) are kept beside the table and change only where a card goes.

The plays are values made from small keys (a combination, a table index, card
indices), so a few bounded tables share them between states and threads; a
play dropped from a table is simply made again.
"""

from __future__ import annotations

import functools

from ..actions import Force, Meld
from ..cards import JOKER, Card, Face, NamedJoker, card_at
from ..combos import (
    Combination,
    Kind,
    extend,
    extensions,
    fits,
    melds_in,
    shifts,
)
from .tables import ORDER, Play, fit_of, has_shiftable_joker, may_meld, physical

__all__ = ["TABLE_SIZE", "placed", "plays", "resolve", "tables_in_use"]


def plays(
    hand: tuple[Card, ...],
    table: tuple[Combination, ...],
    fit: tuple[tuple[Card, ...], ...],
    player: int,
) -> list[Play]:
    """Every Meld and Force the rules allow from `hand` onto `table` (M4, M5, M9).

    `fit` holds, for each combination on the table, the cards that fit it
    alone (`fit_of`). Each play is the action, the combination it leaves on the
    table (None when it is cheaper to compute it on `apply`) and the cards it
    takes from the hand. The turn rule (M2) is the caller's. Order: new
    combinations (M4), additions to his own (M5), joker shifts on his own
    (M9), forces on the others' (M5, law 19), forces with a joker shift (M9).
    The plays are made once and shared (actions and combinations are values).
    """
    out: list[Play] = []
    if len(hand) >= 3 and may_meld(hand):
        out.extend(new_meld(combo) for combo in melds_in(hand, ORDER, player))
    jokers = bool(hand) and hand[-1].index == 52  # the hand is sorted: a joker comes last
    held = [False] * 53
    for c in hand:
        held[c.index] = True
    shiftable = []
    for i, combo in enumerate(table):
        if has_shiftable_joker(combo):
            shiftable.append(i)
        if combo.owner != player:
            continue
        if not jokers and not any(held[c.index] for c in fit[i]):
            continue  # speed only: without a joker an addition needs a fitting card
        out.extend(_additions(combo, i, _relevant(combo, hand)))
    for i in shiftable:
        if table[i].owner == player:
            _shift_plays(out, table[i], i, True, hand, jokers)
    for i, combo in enumerate(table):
        if combo.owner == player:
            continue
        for c in fit[i]:
            if held[c.index]:
                out.append(_force(c.index, i))
        if jokers:
            out.extend(_joker_forces(combo, i, fit[i]))
    for i in shiftable:
        if table[i].owner != player:
            _shift_plays(out, table[i], i, False, hand, jokers)
    return out


# Memo tables of plays. Every play is a value made from its key alone (a
# combination, a table index, card indices), so sharing one between states and
# threads is safe. Each table holds at most TABLE_SIZE plays or lists of plays;
# a play dropped from it is simply made again. The plays are objects the
# garbage collector traverses, so the bound also bounds a full collection's
# work: the five tables hold a few tens of thousands of objects at most.

TABLE_SIZE = 256
"""The most entries in each memo table of plays."""


def new_meld(combo: Combination) -> Play:
    """The play laying out `combo`, a new combination (M4), made once per combination."""
    play = _NEW_MELDS.get(combo)
    if play is None:
        if len(_NEW_MELDS) >= TABLE_SIZE:
            _NEW_MELDS.clear()
        play = _NEW_MELDS[combo] = (Meld(combo.cards), combo, combo.physical_cards)
    return play


_NEW_MELDS: dict[Combination, Play] = {}


def _relevant(combo: Combination, hand: tuple[Card, ...]) -> tuple[int, ...]:
    """The indices of the hand cards that could go on `combo`: its suit or rank, and jokers."""
    if combo.kind is Kind.GROUP:
        rank = combo.cards[0].rank
        return tuple(c.index for c in hand if c.rank == rank or c.index == 52)
    suit = combo.cards[0].suit
    return tuple(c.index for c in hand if c.suit is suit or c.index == 52)


@functools.lru_cache(maxsize=TABLE_SIZE)
def _additions(combo: Combination, onto: int, relevant: tuple[int, ...]) -> tuple[Play, ...]:
    """The Melds adding cards to his own `combo` at `onto` (M5), from the `relevant` cards.

    `conquian.combos.extensions` looks only at the cards of the combination's
    suit (a sequence) or rank (a group) and the jokers, so those are the key.
    """
    faces_list = extensions(combo, [card_at(i) for i in relevant], ORDER)
    return tuple(
        (Meld(faces, onto=onto), None, tuple(physical(f) for f in faces)) for faces in faces_list
    )


@functools.lru_cache(maxsize=TABLE_SIZE)
def _force(index: int, onto: int) -> Play:
    """The play forcing the card `index` onto another player's combination `onto` (M5, law 19)."""
    c = card_at(index)
    return Force(c, onto=onto), None, (c,)


@functools.lru_cache(maxsize=TABLE_SIZE)
def _joker_forces(
    combo: Combination, onto: int, fitting_cards: tuple[Card, ...]
) -> tuple[Play, ...]:
    """The plays forcing a joker onto another player's `combo` (M5, law 19; C5 names it).

    In a group the joker is named by rank only; on a sequence, as each card that fits.
    """
    if combo.kind is Kind.GROUP:
        return ((Force(NamedJoker(combo.cards[0].rank), onto=onto), None, (JOKER,)),)
    return tuple(
        (Force(NamedJoker(c.rank, c.suit), onto=onto), None, (JOKER,)) for c in fitting_cards
    )


def _shift_plays(
    out: list[Play], combo: Combination, onto: int, own: bool, hand: tuple[Card, ...], jokers: bool
) -> None:
    """Add the plays with a joker shift on `combo` to `out` (M9).

    Melds on his own combination, Forces on the others': the cards of `hand`
    first (canonical order, each once), then the named jokers by rank, as
    `_shift_options` lists what may go on with a shift.
    """
    naturals, named = _shift_options(combo, onto, own)
    previous = -1
    for c in hand:  # sorted: equal cards are adjacent
        if c.index != previous:
            play = naturals.get(c.index)
            if play is not None:
                out.append(play)
        previous = c.index
    if jokers:
        out.extend(named)


@functools.lru_cache(maxsize=TABLE_SIZE)
def _shift_options(
    combo: Combination, onto: int, own: bool
) -> tuple[dict[int, Play], tuple[Play, ...]]:
    """What may go on `combo` (at `onto`) with a joker shift (M9), by card index, and the jokers.

    Law 18: the end joker moves to the other end (renamed) and the card must
    then fit. Where both ends hold a joker that may move and both give a
    valid result, the library takes the first that `conquian.combos.shifts`
    gives, the low-end joker moving (library's choice; law 18 does not say).
    """
    suit = combo.cards[0].suit
    assert suit is not None
    naturals: dict[int, Play] = {}
    named: list[Play] = []
    for rank in _shift_ranks(combo):
        c = card_at(suit * 13 + rank - 1)
        play = _shift_play(combo, onto, own, c)
        if play is not None:
            naturals[c.index] = play
        play = _shift_play(combo, onto, own, NamedJoker(rank, suit))
        if play is not None:
            named.append(play)
    return naturals, tuple(named)


def _shift_ranks(combo: Combination) -> list[int]:
    """The ranks, low first, at which a card could go on `combo` with a joker shift (M9).

    The sequence spans positions low to high (`ORDER`, the ace at 0 or 13).
    The low joker moving up leaves low to high + 1 and takes a card at low or
    high + 2; the high joker moving down leaves low - 1 to high - 1 and takes
    one at low - 2 or high. No other card can fit (speed only: `shifts`
    decides each of these).
    """
    position, top = ORDER.position, ORDER.top
    first, last = combo.cards[0].rank, combo.cards[-1].rank
    low = position[first]
    high = 13 if last == 1 else position[last]
    at = {p for p in (low - 2, low, high, high + 2) if 0 <= p <= top}
    return sorted({ORDER.rank_at[p] for p in at})


def _shift_play(combo: Combination, onto: int, own: bool, face: Face) -> Play | None:
    """The play putting `face` on `combo` with a joker shift, if it fits (M9)."""
    results = shifts(combo, face, ORDER)
    if not results:
        return None
    action = Meld((face,), onto=onto, shift=True) if own else Force(face, onto=onto, shift=True)
    return action, results[0], (physical(face),)


def resolve(
    action: Meld | Force, combo: Combination | None, table: tuple[Combination, ...]
) -> Combination:
    """The combination a Meld or Force leaves on the table (M4, M5)."""
    if combo is not None:
        return combo
    onto = action.onto
    assert onto is not None
    if type(action) is Meld:
        bigger = extend(table[onto], action.cards, ORDER)
    else:
        bigger = fits(table[onto], action.card, ORDER)  # type: ignore[union-attr]
    assert bigger is not None
    return bigger


def placed(
    table: tuple[Combination, ...],
    fit: tuple[tuple[Card, ...], ...],
    onto: int | None,
    combo: Combination,
) -> tuple[tuple[Combination, ...], tuple[tuple[Card, ...], ...]]:
    """The table and its fitting cards with `combo` laid anew or replacing `onto`."""
    if onto is None:
        return (*table, combo), (*fit, fit_of(combo))
    return (
        (*table[:onto], combo, *table[onto + 1 :]),
        (*fit[:onto], fit_of(combo), *fit[onto + 1 :]),
    )




def tables_in_use() -> dict[str, int]:
    """How many entries each memo table of plays holds now (each at most `TABLE_SIZE`)."""
    return {
        "new_melds": len(_NEW_MELDS),
        "additions": _additions.cache_info().currsize,
        "forces": _force.cache_info().currsize,
        "joker_forces": _joker_forces.cache_info().currsize,
        "shift_options": _shift_options.cache_info().currsize,
    }
