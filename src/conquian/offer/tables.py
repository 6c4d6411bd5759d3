"""What the engine derives from the rules, once: combinations as masks (C3, C4, T9, T10, T14).

A `Tables` holds, for one pack, sequence cap and borrowing rule, the
combinations of each rank and suit as masks, and per combination what fits
it, what it may lend and what it grows into. Each table is filled the first
time a combination is asked about and never changes after; each is bounded
by the number of combinations of the pack (a few hundred), never by the
hands or turns met in play. `tables_for` keeps the tables of the last
`MAX_TABLES` rule sets used (least recently used out), keyed by the
normalised options that shape them: the hand size and the lay-down rule do
not, and a sequence cap as long as the pack's longest sequence or longer
plays as no cap. The tables hold ints and tuples of ints only: melds by
their keys, cards by their masks; the `Combination` a key stands for is
made once (`combination`), the same for every rule set.

A `Memo` is what one deal remembers of its own searches; it goes with the
deal's states.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from contextlib import suppress
from typing import Any, Final

from .._mypyc import mypyc_attr
from ..cards import Card, Suit
from ..combos.core import Combination, Kind, Order, borrow, borrowable, extend, meld_codes
from ..rules import ConquianRules
from .board import (
    BITS,
    CARDS,
    OWNER,
    OWNER_BITS,
    Turn,
    cards_of,
    has_three_of_a_rank,
    mask,
    meld_cards,
    owner,
)
from .board import key as key_of

__all__ = [
    "LEND_BIT",
    "MAX_TABLES",
    "Lend",
    "Memo",
    "Tables",
    "combination",
    "sequence_order",
    "tables_for",
]

MAX_TABLES = 48
"""How many rule sets' tables are kept at most: every normalised rule set of the 40-card packs
fits (two packs and the Spanish pack's high ace, T26; no cap or a cap of 3 to 9; two
borrowing rules). A table of a 40-card pack is
1.7 MB at most (every combination of its pack asked about); the full pack's (T20) is larger,
its longer suits holding more sequences."""

MEMO_LIMIT: Final = 10_000
"""Entries one deal's search memo may hold before it is emptied."""


Lend = tuple[int, int, int, int, int, int, int, int]
"""A card that may be borrowed from a meld (T9), as ints: its bit (`LEND_BIT`), its index,
the key of the piece left in the meld's place and of the upper piece of a split sequence
(0: no split), and for each piece of three left (at most two) its cards and the cards that
fit it (0 and 0 for none). Read whole by unpacking, or its bit by `LEND_BIT`."""

LEND_BIT: Final = 0
"""Index of the borrowed card's bit in a `Lend`."""


# The combination of each meld key met: the same whatever the rules, so at most one for
# each combination of the three packs and each seat.
_COMBINATIONS: Final[dict[int, Combination]] = {}


def combination(key: int) -> Combination:
    """The combination meld `key` stands for (C3, C4).

    Its cards lie in one suit (a sequence) or are of one rank (a group). In
    every Conquian pack the canonical order is the order of the cards' indices:
    by suit in a group, from the low end in a sequence; but a sequence holding
    the ace and the king and not the two has its ace high, last (T26: Q K A;
    under the ace low such cards make no sequence, so the key alone decides).
    """
    found = _COMBINATIONS.get(key)
    if found is None:
        cards = key >> OWNER_BITS
        low = (cards & -cards).bit_length() - 1
        suit = 0x1FFF << (low - low % 13)  # the bits of the lowest card's suit
        kind = Kind.SEQUENCE if cards & suit == cards else Kind.GROUP
        faces = cards_of(cards)
        if kind is Kind.SEQUENCE and cards >> low + 12 & 1 and not cards >> low + 1 & 1:
            faces = (*faces[1:], faces[0])  # the lowest card is the ace (T26)
        found = _COMBINATIONS[key] = Combination(kind, faces, owner(key))
    return found


@mypyc_attr(acyclic=True)
class Memo:
    """What one deal remembers of its searches, shared by its states (bounded).

    `finish`: per seat (up to four, T16), whether a turn could be finished (`turn.finishable`);
    `last_melds`: per owner, the last pool asked of `Tables.new_melds` and its
    answer; `last_say`: per player, his last say's hand, table and `SayInfo`.
    """

    __slots__ = ("finish", "last_melds", "last_say")

    def __init__(self) -> None:
        self.finish: tuple[dict[Turn, bool], ...] = ({}, {}, {}, {})
        self.last_melds: list[tuple[int, tuple[int, ...]]] = [(0, ())] * 4
        self.last_say: list[tuple[int, tuple[int, ...], Any]] = [(-1, (), None)] * 4


@mypyc_attr(acyclic=True)
class Tables:
    """The combination tables of one pack, sequence cap and borrowing rule (C3, C4, T9, T14)."""

    def __init__(
        self, pack: str, max_sequence: int | None, borrow_middle: bool, ace: str = "low"
    ) -> None:
        order = sequence_order(pack, max_sequence, ace)
        self.order = order
        self.middle = borrow_middle  # T9
        pack_cards = ConquianRules(pack=pack).pack_cards()  # type: ignore[arg-type]
        self.suit_masks = tuple(mask(c for c in pack_cards if c.suit is s) for s in Suit)
        ranks = sorted({c.rank for c in pack_cards}, key=lambda r: order.position[r])
        self.rank_masks = tuple(mask(c for c in pack_cards if c.rank == r) for r in ranks)
        self.all_families = self.rank_masks + self.suit_masks  # the order of `new_melds`
        # Per card: the masks of its rank and of its suit.
        families: list[tuple[int, int]] = [(0, 0)] * 52
        for c in pack_cards:
            rank_family = next(m for m in self.rank_masks if m >> c.index & 1)
            families[c.index] = (rank_family, self.suit_masks[c.suit])  # type: ignore[index]
        self.families = tuple(families)
        # Every combination of each family, as masks in the order `combos.melds_in` gives them.
        # A natural card's code in `combos.meld_codes` is its index (a Conquian pack has no
        # joker), so a combination's mask is the sum of its codes' bits.
        self.family_melds = {
            family: tuple(
                [sum([BITS[f] for f in code[1:]]) for code in meld_codes(cards_of(family), order)]
            )
            for family in self.all_families
        }
        # The same in chains: runs of the list in which each combination holds the one
        # before it (a sequence and its longer ones from the same low card; a group of three
        # and the group of four).
        self.family_chains = {
            family: tuple([tuple(chain) for chain in chains(melds)])
            for family, melds in self.family_melds.items()
        }
        # Per suit, the bit of the card at each position of the order (C4).
        self.positions = tuple(
            tuple(1 << order.card_at(p, s).index for p in range(order.top + 1)) for s in Suit
        )
        # Per card: what makes a combination of three with it (`pairs`), the cards near it
        # that may partner it, and whether a set of those holds two partners (`two_partners`).
        pairs: list[tuple[int, tuple[int, ...]]] = [(0, ())] * 52
        nears = [0] * 52
        for c in pack_cards:
            pair = self._pairs(c)
            pairs[c.index] = pair
            near = pair[0]
            for run in pair[1]:
                near |= run
            nears[c.index] = near
        self.pairs = tuple(pairs)
        self.near = tuple(nears)
        self.partnered: tuple[dict[int, bool], ...] = tuple([{} for _ in range(52)])
        # Per combination (its cards' mask): the cards not in it that fit it alone (T10, T14),
        # and the cards that could ever extend it (the rest of its rank or suit).
        self.fit: dict[int, int] = {}
        self.related: dict[int, int] = {}
        self.groups: frozenset[int] = frozenset(
            cards for family in self.rank_masks for cards in self.family_melds[family]
        )
        for family in self.rank_masks:
            for cards in self.family_melds[family]:
                self.fit[cards] = self.related[cards] = family & ~cards
        for s, family in enumerate(self.suit_masks):
            at = self.positions[s]
            top = order.top
            for cards in self.family_melds[family]:
                n = cards.bit_count()
                if order.ace_high and cards & at[top - 1] and cards & at[0] and not cards & at[1]:
                    low, high = top - n + 1, top  # T26: the ace above the king, Q K A
                else:
                    low = next(p for p, bit in enumerate(at) if bit & cards)
                    high = low + n - 1
                fits = 0
                if n < order.longest:
                    fits = (at[low - 1] if low > 0 else 0) | (
                        at[high + 1] if high < order.top else 0
                    )
                self.fit[cards] = fits
                self.related[cards] = family & ~cards
        self.subsets: dict[int, tuple[int, ...]] = {}
        self.all_grown: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.borrows: dict[int, tuple[Lend, ...]] = {}
        self.forced: dict[int, int] = {}

    def _pairs(self, c: Card) -> tuple[int, tuple[int, ...]]:
        """What makes a combination of three with `c` (C3): any two of the other cards of
        its rank (one mask), or one of the pairs of its suit around it (masks)."""
        assert c.suit is not None
        order = self.order
        others = mask(CARDS[s * 13 + c.rank - 1] for s in Suit if s is not c.suit)
        runs = []
        pos = order.position[c.rank]
        for low in (pos - 2, pos - 1, pos):
            if low >= 0 and low + 2 <= order.top:
                run = (order.card_at(q, c.suit) for q in range(low, low + 3) if q != pos)
                runs.append(mask(run))
        if c.rank == 1 and order.ace_high:  # the ace above the king too: Q K A (T26)
            runs.append(mask(order.card_at(q, c.suit) for q in (order.top - 2, order.top - 1)))
        return others, tuple(runs)

    def two_partners(self, index: int, cards: int) -> bool:
        """Whether `cards` hold two partners making a combination of three with the card of
        `index` (C3): two others of its rank, or a pair of its suit around it."""
        near = cards & self.near[index]
        known = self.partnered[index]
        found = known.get(near)
        if found is None:
            others, runs = self.pairs[index]
            found = (near & others).bit_count() >= 2
            for run in runs:
                if near & run == run:
                    found = True
            known[near] = found
        return found

    def new_melds(self, pool: int, owner: int, memo: Memo) -> tuple[int, ...]:
        """The keys of every new combination in the cards of `pool` (C3, T8): groups, then
        sequences.

        A combination lies in one rank or one suit, so each family's share of
        the pool is looked up in `subset_melds`. Cards only leave a hand (T3),
        so a pool that lies in the last one asked (`memo`) has as combinations
        those of the last pool that lie in it, in the same order.
        """
        last_pool, last_found = memo.last_melds[owner]
        if not pool & ~last_pool:
            if pool == last_pool or not last_found:
                found = last_found
            else:
                found = tuple([k for k in last_found if not k >> 2 & ~pool])
        else:
            out: list[int] = []
            # Groups only where three cards of one rank are there.
            families = self.all_families if has_three_of_a_rank(pool) else self.suit_masks
            subsets = self.subsets
            for family in families:
                sub = pool & family
                if sub.bit_count() >= 3:
                    melds = subsets.get(sub << 2 | owner)
                    out.extend(self.subset_melds(family, sub, owner) if melds is None else melds)
            found = tuple(out)
        memo.last_melds[owner] = (pool, found)
        return found

    def melds_with(self, pool: int, pending: int, owner: int) -> Iterator[int]:
        """The keys of the new combinations in `pool` that hold a `pending` card (C3, T8), for
        the search.

        They lie in the rank or the suit of a pending card; a family holding
        two pending cards is asked once.
        """
        seen: list[int] = []
        rest = pending
        while rest:
            low = rest & -rest
            rest ^= low
            for family in self.families[low.bit_length() - 1]:
                if family in seen:
                    continue
                seen.append(family)
                sub = pool & family
                if sub.bit_count() >= 3:
                    for k in self.subset_melds(family, sub, owner):
                        if k >> 2 & pending:
                            yield k

    def subset_melds(self, family: int, sub: int, owner: int) -> tuple[int, ...]:
        """`combos.melds_in` of the cards `sub` of one `family`, as keys of `owner`: the
        family's combinations that lie in `sub`, in the same order.

        In a chain each combination holds the one before it, so once one does not lie in
        `sub` neither do the rest of its chain."""
        found = self.subsets.get(sub << 2 | owner)
        if found is None:
            out: list[int] = []
            missing = ~sub
            for chain in self.family_chains[family]:
                for m in chain:
                    if m & missing:
                        break
                    out.append(m << OWNER_BITS | owner)
            found = self.subsets[sub << 2 | owner] = tuple(out)
        return found

    def extensions(self, key: int, pool: int) -> list[tuple[int, int]]:
        """Every set of `pool` cards that may be added to meld `key` (T8, T14): pairs of
        the cards added and the key of the meld they make (`board.meld_action` gives the
        action).

        Every addition holds a card that fits the meld alone (one of its rank,
        or the card next to an end of the sequence), so none is possible
        without one.
        """
        cards = key >> OWNER_BITS
        if not pool & self.fit[cards]:
            return []
        seat = key & OWNER
        out: list[tuple[int, int]] = []
        missing = ~(pool | cards)
        for chain in self.all_extensions(cards):
            for bigger in chain:
                if bigger & missing:
                    break  # nor the rest of the chain, which hold it
                out.append((bigger ^ cards, bigger << OWNER_BITS | seat))
        return out

    def all_extensions(self, cards: int) -> tuple[tuple[int, ...], ...]:
        """`combos.extensions` of the meld of `cards` from every other card of its family,
        in order, as the masks of the melds they make (C3, T14), in chains: each holds the
        one before it (for a sequence, more cards above its high end with the same cards
        below)."""
        found = self.all_grown.get(cards)
        if found is None:
            valid = self.fit  # keyed by every combination of the pack
            grown = [
                cards | used
                for used in self._additions(cards, self.related[cards])
                if cards | used in valid
            ]
            if self.order.ace_high:  # T26: the ace fits both ends of 2 up to K: once
                grown = list(dict.fromkeys(grown))
            found = self.all_grown[cards] = tuple([tuple(chain) for chain in chains(grown)])
        return found

    def _additions(self, cards: int, related: int) -> Iterator[int]:
        """The sets of `related` cards that could be added to the meld of `cards`, in the order
        of `combos.extensions`: for a group every subset, for a sequence each run of cards
        below and above its ends (`all_extensions` keeps those making a combination)."""
        meld = combination(cards << OWNER_BITS)
        if meld.kind is Kind.GROUP:
            used = (-related) & related  # the subsets of `related` in increasing order
            while used:
                yield used
                used = (used - related) & related
            return
        at = self.positions[meld.cards[0].suit]  # type: ignore[index]
        position = self.order.position
        low, last = position[meld.cards[0].rank], meld.cards[-1].rank
        high = self.order.top if last == 1 else position[last]  # an ace last is high (T26)
        room = self.order.longest - len(meld.cards)
        under = 0  # the cards of the `below` places under its low end
        for below in range(low + 1):
            if below:
                under |= at[low - below]
            used = under
            for above in range(self.order.top - high + 1):
                if above:
                    used |= at[high + above]  # and of the `above` places over its high end
                elif not below:
                    continue
                if below + above > room:
                    break
                if used & related == used:
                    yield used

    def borrowings(self, key: int) -> tuple[Lend, ...]:
        """Each card that may be borrowed from meld `key` (T9), with the keys of the pieces
        it leaves (`board.borrow_action` gives the action)."""
        found = self.borrows.get(key)
        if found is None:
            out: list[Lend] = []
            meld = combination(key)
            for c in borrowable(meld, self.middle):
                pieces = borrow(meld, c, self.middle)
                assert pieces is not None
                keys = [key_of(p) for p in pieces]
                upper = keys[1] if len(keys) == 2 else 0
                threes = [(c, self.fit[c]) for c in map(meld_cards, keys) if c.bit_count() == 3]
                (a, a_fits), (b, b_fits) = (*threes, (0, 0), (0, 0))[:2]
                out.append((1 << c.index, c.index, keys[0], upper, a, a_fits, b, b_fits))
            found = tuple(out)
            self.borrows[key] = found
        return found

    def force_onto(self, key: int, index: int) -> int:
        """The key of meld `key` with the forced card of `index` in it (T10)."""
        found = self.forced.get(key << 6 | index)
        if found is None:
            bigger = extend(combination(key), (CARDS[index],), self.order)
            assert bigger is not None
            found = self.forced[key << 6 | index] = key_of(bigger)
        return found


def chains(masks: list[int] | tuple[int, ...]) -> list[list[int]]:
    """`masks` cut, in order, into runs in which each mask holds the one before it.

    >>> chains([0b111, 0b1111, 0b1110, 0b11110, 0b1101])
    [[7, 15], [14, 30], [13]]
    """
    out: list[list[int]] = []
    last = -1
    for m in masks:
        if out and m & last == last:
            out[-1].append(m)
        else:
            out.append([m])
        last = m
    return out


# The order of sequences of each Conquian pack and ace: the full pack's ace is low only (T20:
# "The Ace is not in sequence with the King"), unlike Cooncan's 52-card pack, unless it is
# played high as well (T26), as in Cooncan; the American pack has no king for it (T26).
_ORDER_NAMES: Final = {
    ("spanish", "low"): "spanish",
    ("american", "low"): "american",
    ("standard", "low"): "full",
    ("spanish", "both"): "spanish-both",
    ("standard", "both"): "standard",
}


def sequence_order(pack: str, max_sequence: int | None = None, ace: str = "low") -> Order:
    """The order of sequences of Conquian's `pack` with the cap `max_sequence` and the ace
    `ace` (C4, T14, T20, T26): the 52-card ``"standard"`` pack plays with the ace low only
    (`Order` ``"full"``); with ``ace="both"`` the ace is also above the king.

    >>> sequence_order("standard").ace_high, sequence_order("standard").longest
    (False, 13)
    >>> sequence_order("spanish", 8) is Order.of("spanish", 8)
    True
    >>> sequence_order("spanish", ace="both").ace_high
    True
    """
    return Order.of(_ORDER_NAMES.get((pack, ace), pack), max_sequence)


_TABLES: OrderedDict[tuple[str, int | None, bool, str], Tables] = OrderedDict()


def tables_key(rules: ConquianRules) -> tuple[str, int | None, bool, str]:
    """The options that shape the tables, normalised: pack, sequence cap, borrowing, ace.

    A cap as long as the longest sequence of the pack, or longer, plays as no cap (T14).
    """
    cap = rules.max_sequence
    if cap is not None and cap >= sequence_order(rules.pack, ace=rules.ace).longest:
        cap = None
    return (rules.pack, cap, rules.borrow_middle, rules.ace)


_LAST: list[tuple[ConquianRules, Tables]] = []  # the rules object last asked about


def tables_for(rules: ConquianRules) -> Tables:
    """The tables for `rules`, made on first use; the last `MAX_TABLES` sets are kept."""
    last = _LAST[0] if _LAST else None
    if last is not None and last[0] is rules:  # the same rules object as the last deal's
        return last[1]
    k = tables_key(rules)
    found = _TABLES.get(k)
    if found is None:
        found = _TABLES[k] = Tables(*k)
        while len(_TABLES) > MAX_TABLES:
            _TABLES.popitem(last=False)
    else:
        with suppress(KeyError):  # another thread may have let it go: it is still good
            _TABLES.move_to_end(k)
    _LAST[:] = [(rules, found)]
    return found


def tables_count() -> int:
    """How many rule sets' tables are kept now (at most `MAX_TABLES`)."""
    return len(_TABLES)
