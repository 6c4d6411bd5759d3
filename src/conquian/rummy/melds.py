"""Laying out and adding to combinations (rules M4, M5, M9): every Meld and Force a hand allows.

`plays` lists them for one hand and table; the turn rule that keeps a
player from a dead end (M2) is `conquian.rummy.turn`'s. Cards on the table
never move (M6), except the joker shift (M9), so what fits each combination
(`Fits`) is kept beside the table and changes only where a card goes.

The plays are values made from small keys (a combination, a table index,
card indices): the forces of one card onto one combination are a table made
once for the pack (`force`), and the others are remembered by the deal that
made them (`Memo`, bounded), so its states share them.
"""

from __future__ import annotations

from typing import Final

from ..actions import Force, Meld
from ..cards import JOKER, Card, Face, NamedJoker, card_at
from ..combos.core import (
    Combination,
    Kind,
    combination_of,
    extend,
    extensions,
    fits,
    meld_codes,
    shifts,
)
from .tables import ORDER, Play, fit_of, has_shiftable_joker, may_meld, physical

__all__ = ["MAX_COMBINATIONS", "MEMO_LIMIT", "Fits", "Memo", "force", "placed", "plays", "resolve"]

MAX_COMBINATIONS: Final = 35
"""The most combinations a table can hold: the double pack's 106 cards, three to a combination."""

MEMO_LIMIT = 2_000
"""The most plays (or lists of plays) each table of a deal's `Memo` holds before it is emptied."""


class Fits:
    """What may go on each combination of a table without a joker in hand (M5, M9).

    - `cards`: per combination, the cards that fit it alone (`fit_of`);
    - `masks`: the same cards as bits (bit `Card.index`);
    - `shift_masks`: per combination, the natural cards that could go on it
      with a joker shift (M9), as bits; 0 when no joker of it may shift;
    - `reach`: every card of all those, as bits.

    Made when a combination is laid or grows (`placed`); the states that
    share a table share it.
    """

    __slots__ = ("cards", "masks", "reach", "shift_masks")

    def __init__(
        self,
        cards: tuple[tuple[Card, ...], ...],
        masks: tuple[int, ...],
        shift_masks: tuple[int, ...],
    ) -> None:
        self.cards = cards
        self.masks = masks
        self.shift_masks = shift_masks
        reach = 0
        for mask in masks:
            reach |= mask
        for mask in shift_masks:
            reach |= mask
        self.reach = reach

    @staticmethod
    def of(table: tuple[Combination, ...]) -> Fits:
        """What fits each combination of `table`."""
        rows = [_fit_row(combo) for combo in table]
        return Fits(
            tuple([row[0] for row in rows]),
            tuple([row[1] for row in rows]),
            tuple([row[2] for row in rows]),
        )


def _fit_row(combo: Combination) -> tuple[tuple[Card, ...], int, int]:
    """The cards that fit `combo` alone, as cards and as bits, and the bits of the natural
    cards that could go on it with a joker shift (M5, M9)."""
    cards = fit_of(combo)
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    shift_mask = 0
    if has_shiftable_joker(combo):
        suit = combo.cards[0].suit
        assert suit is not None
        for rank in _shift_ranks(combo):
            shift_mask |= 1 << (suit * 13 + rank - 1)
    return cards, mask, shift_mask


def placed(
    table: tuple[Combination, ...], fit: Fits, onto: int | None, combo: Combination
) -> tuple[tuple[Combination, ...], Fits]:
    """The table and what fits it with `combo` laid anew (`onto` None) or replacing `onto`."""
    cards, mask, shift_mask = _fit_row(combo)
    if onto is None:
        return (*table, combo), Fits(
            (*fit.cards, cards), (*fit.masks, mask), (*fit.shift_masks, shift_mask)
        )
    after = onto + 1
    return (*table[:onto], combo, *table[after:]), Fits(
        (*fit.cards[:onto], cards, *fit.cards[after:]),
        (*fit.masks[:onto], mask, *fit.masks[after:]),
        (*fit.shift_masks[:onto], shift_mask, *fit.shift_masks[after:]),
    )


class Memo:
    """The plays one deal has made, by their keys, shared by its states (M4, M5, M9).

    Each table holds at most `MEMO_LIMIT` entries and is emptied when full;
    a play dropped is simply made again. It goes with the deal and is freed
    with its last state.
    """

    __slots__ = ("additions", "joker_forces", "new_melds", "shift_options")

    def __init__(self) -> None:
        self.new_melds: dict[int, dict[tuple[int, ...], Play]] = {}  # by owner, then code
        self.additions: dict[tuple[Combination, int, tuple[int, ...]], tuple[Play, ...]] = {}
        self.joker_forces: dict[tuple[Combination, int], tuple[Play, ...]] = {}
        self.shift_options: dict[
            tuple[Combination, int, bool], tuple[dict[int, Play], tuple[Play, ...]]
        ] = {}

    def sizes(self) -> dict[str, int]:
        """How many entries each table holds now (each at most `MEMO_LIMIT`)."""
        return {
            "new_melds": sum(len(known) for known in self.new_melds.values()),
            "additions": len(self.additions),
            "joker_forces": len(self.joker_forces),
            "shift_options": len(self.shift_options),
        }


def plays(
    hand: tuple[Card, ...],
    table: tuple[Combination, ...],
    fit: Fits,
    player: int,
    memo: Memo,
) -> list[Play]:
    """Every Meld and Force the rules allow from `hand` onto `table` (M4, M5, M9).

    `fit` tells what may go on each combination of the table. Each play is
    the action, the combination it leaves on the table (None when it is
    cheaper to compute it on `apply`) and the cards it takes from the hand.
    The turn rule (M2) is the caller's. Order: new combinations (M4),
    additions to his own (M5), joker shifts on his own (M9), forces on the
    others' (M5, law 19), forces with a joker shift (M9).

    Without a joker in hand a card goes on a combination only if it fits it
    alone or with a joker shift (`Fits`), so the combinations it reaches are
    the only ones looked at; pinned against the plain search (every
    combination tried) by
    ``tests/rummy/test_rummy_package.py::test_plays_agree_with_every_combination_tried``.
    """
    out: list[Play] = []
    if len(hand) >= 3 and may_meld(hand):
        known = memo.new_melds.get(player)
        if known is None:
            known = memo.new_melds[player] = {}
        for code in meld_codes(hand, ORDER):
            play = known.get(code)
            out.append(new_meld(memo, code, player) if play is None else play)
    if not table:
        return out
    jokers = bool(hand) and hand[-1].index == 52  # the hand is sorted: a joker comes last
    held = 0
    for c in hand:
        held |= 1 << c.index
    if not jokers and not held & fit.reach:
        return out
    masks, shift_masks = fit.masks, fit.shift_masks
    for i, combo in enumerate(table):
        if combo.owner == player and (jokers or held & masks[i]):
            out.extend(_additions(memo, combo, i, _relevant(combo, hand)))
    for i, combo in enumerate(table):
        if combo.owner == player and shift_masks[i] and (jokers or held & shift_masks[i]):
            _shift_plays(out, memo, combo, i, True, hand, jokers)
    for i, combo in enumerate(table):
        if combo.owner == player:
            continue
        if held & masks[i]:
            for c in fit.cards[i]:
                if held >> c.index & 1:
                    out.append(force(c.index, i))
        if jokers:
            out.extend(_joker_forces(memo, combo, i, fit.cards[i]))
    for i, combo in enumerate(table):
        if combo.owner != player and shift_masks[i] and (jokers or held & shift_masks[i]):
            _shift_plays(out, memo, combo, i, False, hand, jokers)
    return out


def new_meld(memo: Memo, code: tuple[int, ...], owner: int) -> Play:
    """The play laying out a new combination of `owner` from its code (M4;
    `conquian.combos.core.meld_codes`), remembered in `memo`."""
    if sum(map(len, memo.new_melds.values())) >= MEMO_LIMIT:
        for known in memo.new_melds.values():
            known.clear()
    combo = combination_of(code, owner)
    play = memo.new_melds.setdefault(owner, {})[code] = (
        Meld(combo.cards),
        combo,
        combo.physical_cards,
    )
    return play


def _relevant(combo: Combination, hand: tuple[Card, ...]) -> tuple[int, ...]:
    """The indices of the hand cards that could go on `combo`: its suit or rank, and jokers."""
    if combo.kind is Kind.GROUP:
        rank = combo.cards[0].rank
        return tuple([c.index for c in hand if c.rank == rank or c.index == 52])
    suit = combo.cards[0].suit
    return tuple([c.index for c in hand if c.suit is suit or c.index == 52])


def _additions(
    memo: Memo, combo: Combination, onto: int, relevant: tuple[int, ...]
) -> tuple[Play, ...]:
    """The Melds adding cards to his own `combo` at `onto` (M5), from the `relevant` cards.

    `conquian.combos.core.extensions` looks only at the cards of the combination's
    suit (a sequence) or rank (a group) and the jokers, so those are the key.
    """
    key = (combo, onto, relevant)
    found = memo.additions.get(key)
    if found is None:
        faces_list = extensions(combo, [card_at(i) for i in relevant], ORDER)
        found = tuple(
            [
                (Meld(faces, onto=onto), None, tuple(physical(f) for f in faces))
                for faces in faces_list
            ]
        )
        if len(memo.additions) >= MEMO_LIMIT:
            memo.additions.clear()
        memo.additions[key] = found
    return found


_FORCES: list[tuple[Play, ...] | None] = [None] * MAX_COMBINATIONS
"""Per table index, the play forcing each natural card onto it (by `Card.index`): each row
made once, the first time a combination at that index is forced."""


def force(index: int, onto: int) -> Play:
    """The play forcing the natural card `index` onto another player's combination `onto` (M5)."""
    row = _FORCES[onto]
    if row is None:
        row = tuple([(Force(c, onto=onto), None, (c,)) for c in map(card_at, range(52))])
        _FORCES[onto] = row
    return row[index]


def _joker_forces(
    memo: Memo, combo: Combination, onto: int, fitting_cards: tuple[Card, ...]
) -> tuple[Play, ...]:
    """The plays forcing a joker onto another player's `combo` (M5, law 19; C5 names it).

    In a group the joker is named by rank only; on a sequence, as each card that fits.
    """
    key = (combo, onto)
    found = memo.joker_forces.get(key)
    if found is None:
        if combo.kind is Kind.GROUP:
            found = ((Force(NamedJoker(combo.cards[0].rank), onto=onto), None, (JOKER,)),)
        else:
            found = tuple(
                [
                    (Force(NamedJoker(c.rank, c.suit), onto=onto), None, (JOKER,))
                    for c in fitting_cards
                ]
            )
        if len(memo.joker_forces) >= MEMO_LIMIT:
            memo.joker_forces.clear()
        memo.joker_forces[key] = found
    return found


def _shift_plays(
    out: list[Play],
    memo: Memo,
    combo: Combination,
    onto: int,
    own: bool,
    hand: tuple[Card, ...],
    jokers: bool,
) -> None:
    """Add the plays with a joker shift on `combo` to `out` (M9).

    Melds on his own combination, Forces on the others': the cards of `hand`
    first (canonical order, each once), then the named jokers by rank, as
    `_shift_options` lists what may go on with a shift.
    """
    key = (combo, onto, own)
    options = memo.shift_options.get(key)
    if options is None:
        options = _shift_options(combo, onto, own)
        if len(memo.shift_options) >= MEMO_LIMIT:
            memo.shift_options.clear()
        memo.shift_options[key] = options
    naturals, named = options
    previous = -1
    for c in hand:  # sorted: equal cards are adjacent
        if c.index != previous:
            play = naturals.get(c.index)
            if play is not None:
                out.append(play)
        previous = c.index
    if jokers:
        out.extend(named)


def _shift_options(
    combo: Combination, onto: int, own: bool
) -> tuple[dict[int, Play], tuple[Play, ...]]:
    """What may go on `combo` (at `onto`) with a joker shift (M9), by card index, and the jokers.

    Law 18: the end joker moves to the other end (renamed) and the card must
    then fit. Where both ends hold a joker that may move and both give a
    valid result, the library takes the first that `conquian.combos.core.shifts`
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
