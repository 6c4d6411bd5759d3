"""Two-hand Conquian: the offer engine (RULES.md T1–T15).

A deal is a `ConquianState`, made by `conquian.new_game` with `ConquianRules`.
Between turns one card lies face up **on offer** to the player who has **the
say** to it (`state.offer`, `state.offer_origin`, T4). He may take it and meld
it (T8), pass it (T5–T7) or force it onto one of his opponent's melds (T10).
A player who took a card, or was forced, is **melding**: `state.offer` is
None, the cards he must still place are `state.pending`, he may borrow from
his own melds (T9), and he ends his turn with a discard or a force. The deal
is won by the first player with one card more than his hand size melded
(T2); it is a tableau when a card must be turned and the stock is empty (T12).

>>> state = new_game(ConquianRules(), seed=5)
>>> state.current_player, state.offer, state.offer_origin, state.stock_size
(1, card('KD'), 'turned', 19)
>>> [str(a) for a in state.legal_actions()]
['take KD', 'pass']
>>> state = state.apply("take KD")      # the pone takes the starter (T11, T5)...
>>> state.offer, state.pending
(None, (card('KD'),))
>>> state = state.apply("meld JD QD KD").apply("discard 2S")    # ...melds it, discards (T8)
>>> state.current_player, state.offer, state.offer_origin
(0, card('2S'), 'discarded')

Where each rule lives:

- T1 deal, T11 first offer: `deal`;
- T2 goal (and T10, winning by a force): `_won`, asked after every meld and force;
- T3 cards never enter the hand: no transition puts a card in a hand, and
  `_usable` decides whether a card on offer could reach the table this turn;
- T4–T7 the say: `ConquianState.legal_actions` (what may be done with the card
  on offer) and `ConquianState.apply` (passing: burying and turning);
- T8 melding and laying down from the hand, T9 borrowing: `_turn_moves`, the
  one list of the melds and borrows a player may make, used both for the
  legal actions and for the search of `_finishable`;
- no dead ends (DESIGN.md principle 3): `_finishable`, a memoised search of the
  rest of a turn;
- T10 forcing: `_say_more`, `ConquianState._melding_actions`
  and `ConquianState._after_force`;
- T12 tableau: `ConquianState.apply` (a pass with no card left to turn);
- T13 stakes: the deal's `Result` here (one counter, nothing on a tableau); the
  pool carried over deals lives in `conquian.scoring`;
- T14 sequence length: `conquian.combos.Order.of` with the rules'
  ``max_sequence``, which every combination question here goes through;
- T15 irregularities (misdeals, exposed cards: Foster's special laws 9–12)
  cannot happen in an engine, so there is nothing to enforce;
- E1 illegal actions: `ConquianState.apply`, with the reasons of
  `ConquianState._why_illegal`.

Inside, a hand is a bit mask over `Card.index`; every question about
combinations goes to `conquian.combos`, whose answers are cached by the
cards they depend on (one suit, one rank, one meld). The combinations of
each rank and suit are asked once per rules (`combos.melds_in`) and kept as
masks, from which new melds and additions are read.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from operator import itemgetter
from typing import Any, Literal, NamedTuple

import attrs

from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, parse_action
from .cards import Card, Face, NamedJoker, Suit, card_at
from .combos import (
    Combination,
    Kind,
    Order,
    borrow,
    borrowable,
    build,
    explain,
    extend,
    fitting,
    melds_in,
)
from .determinize import sample_two_hand
from .encoding import observation
from .errors import IllegalActionError
from .rules import ConquianRules
from .state import Outcome, PlayerView, Result, State, _history_of

__all__ = ["ConquianState", "ConquianView", "Origin", "deal", "deal_indices"]

Origin = Literal["turned", "passed", "discarded"]
"""Where the card on offer came from (T4): turned from the stock, passed, or discarded."""

_TURNED: Origin = "turned"
_PASSED: Origin = "passed"
_DISCARDED: Origin = "discarded"

# The result of a deal (T13): one counter from the loser to the winner, nothing on a tableau.
_WINS = (
    Result(outcome=Outcome.WIN, winner=0, payments=(1, -1)),
    Result(outcome=Outcome.WIN, winner=1, payments=(-1, 1)),
)
_TABLEAU = Result(outcome=Outcome.TABLEAU, winner=None, payments=(0, 0))

_CACHE_LIMIT = 100_000
"""Entries one cache may hold before it is emptied, so memory stays bounded."""

_Sources = tuple[tuple[int, tuple[int, ...]], ...]
"""Each pending borrowed card (its index), with the table indices it may not go back to (T9)."""

_Turn = tuple[int, tuple[int, ...], int, int, _Sources]
"""A turn in progress: (hand, keys of the table's melds, pending, borrowed, sources).

Sets of cards are bit masks over `Card.index`. A meld's *key* is its cards'
mask shifted left once, plus its owner: in a 40-card pack the cards of a
combination decide it, so inside the engine keys stand for the melds
(`_Ctx.combo` gives the combination back), in caches and in the memo of
`_finishable`: they are much cheaper to hash than combinations.
"""

_Board = tuple[tuple[int, int], tuple[int, ...], int, int, _Sources]
"""(both hands, keys of the table's melds, pending, borrowed, sources): a `_Turn` with both
hands. One field of a state (fewer slots to write), which a pass hands on unchanged."""

_Plan = _Turn | int | None
"""What `apply` keeps from the legal actions to build a successor fast."""

_Log = tuple[Any, ...]
"""The actions of a deal (T4-T10), as a persistent list shared between states like
`History`: ``()`` at the deal, then ``(log before, action)`` for each action taken.
A node is one tuple, built with no call (`History` keeps the same list as attrs objects)."""


def _actions_of(log: _Log) -> tuple[Action, ...]:
    """The actions of `log`, oldest first (as `History.actions`)."""
    out = []
    while log:
        log, action = log
        out.append(action)
    out.reverse()
    return tuple(out)


# -- cards as bits ----------------------------------------------------------------

_CARDS_OF: dict[int, tuple[Card, ...]] = {}


def _mask(cards: Iterable[Face]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index  # type: ignore[union-attr]
    return m


def _key(meld: Combination) -> int:
    return _mask(meld.cards) << 1 | meld.owner


def _cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    found = _CARDS_OF.get(mask)
    if found is None:
        out = []
        rest = mask
        while rest:
            low = rest & -rest
            out.append(card_at(low.bit_length() - 1))
            rest ^= low
        found = tuple(out)
        _store(_CARDS_OF, mask, found)
    return found


def _three_of_a_rank(cards: int) -> bool:
    """Whether `cards` hold three or more cards of one rank (a group may be there, C3).

    `Card.index` is 13 times the suit plus the rank less one, so the masks
    of the four suits, shifted to the same place, have a rank's bit in common.
    """
    a = cards & 0x1FFF
    b = cards >> 13 & 0x1FFF
    c = cards >> 26 & 0x1FFF
    d = cards >> 39 & 0x1FFF
    return bool(a & b & (c | d) | c & d & (a | b))


def _store(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


_TAKE = {c: Take(c) for c in map(card_at, range(52))}
# The discard of each card (T8), made once; a list by `Card.index` (no `Card.__hash__`).
_DISCARDS: list[Discard] = [Discard(c) for c in map(card_at, range(52))]
_FORCE: dict[int, Force] = {}
_PASS = Pass()

_Legal = tuple[tuple[Action, ...], tuple[_Plan, ...]]
"""The legal actions in order, and in the same order the plans `apply` builds from.

Fast path: two tuples, not a dict of the plans, so that no action (an attrs class, with a
Python-level `__hash__`) is hashed to build it: `apply` finds the action it is given by
identity (`ConquianState._plan`), and a dict is made only for an equal copy of one."""

# The legal actions of the usual say states (T3-T5): take and pass, or pass alone; and of a
# finished deal. Made once and shared by the states (neither is ever changed). A list by
# `Card.index`.
_TAKE_PASS: list[_Legal] = [((take, _PASS), (None, None)) for take in _TAKE.values()]
_PASS_ONLY: _Legal = ((_PASS,), (None,))
_NO_ACTIONS: _Legal = ((), ())

_DISCARDS_OF: dict[int, _Legal] = {}


def _discards(hand: int) -> _Legal:
    """The discards of the cards of `hand` in canonical order (T8), with their plans (none),
    made once per hand: shared by the states where they are all the legal actions."""
    found = _DISCARDS_OF.get(hand)
    if found is None:
        actions = tuple([_DISCARDS[c.index] for c in _cards(hand)])
        found = (actions, (None,) * len(actions))
        _store(_DISCARDS_OF, hand, found)
    return found


# Keyed by one small int, index << 8 | source (a table holds < 256 melds): cheap to hash.
_BORROW: dict[int, Borrow] = {}


def _borrow(index: int, source: int) -> Borrow:
    """The action borrowing the card of `index` from meld `source` (T9), made once."""
    action = _BORROW.get(index << 8 | source)
    if action is None:
        action = _BORROW[index << 8 | source] = Borrow(card_at(index), source=source)
    return action


def _force(c: Card, onto: int) -> Force:
    """The action forcing `c` onto meld `onto` (T10), made once."""
    action = _FORCE.get(c.index << 8 | onto)  # one int key: a table holds < 256 melds
    if action is None:
        action = _FORCE[c.index << 8 | onto] = Force(c, onto=onto)
    return action


def _say_more(usual: _Legal, say: _SayInfo, offer: Card, forcing: int) -> _Legal:
    """The legal actions of a say state beyond take and pass (`usual`): the forces of the
    card `offer` onto the melds of `say.forces` fitting `forcing` (its bit, or 0 when it may
    not be forced: T5, T6, T7, T10), then the melds he may lay down from his hand (T8)."""
    actions = list(usual[0])
    plans = list(usual[1])
    if forcing:
        for j, fits in say.forces:
            if fits & forcing:
                actions.append(_force(offer, j))
                plans.append(j)
    lay_downs = say.lay_downs
    actions += lay_downs
    plans += lay_downs.values()
    return tuple(actions), tuple(plans)


# -- what the engine derives from one rules object ------------------------------


@attrs.frozen
class _MeldOption:
    """A meld that can be made: its action, the combination it leaves and its key, the cards."""

    action: Meld
    meld: Combination
    key: int
    used: int


@attrs.frozen
class _BorrowOption:
    """A card that can be borrowed (its bit and index) and the keys of the pieces it leaves;
    `threes`: the cards of each piece of three, with the cards fitting it (for `_turn_moves`)."""

    bit: int
    index: int
    keys: tuple[int, ...]
    threes: tuple[tuple[int, int], ...]


@attrs.frozen
class _MeldInfo:
    """Facts about one meld on the table."""

    fits: int  # the cards not in it that fit it alone (T10, T14)
    related: int  # the cards that could ever extend it: the rest of its suit or rank


class _SayInfo(NamedTuple):
    """What a player with the say may do whatever the card on offer (T4–T10), for one hand
    and table: they stay the same over the say states of a run of passes.

    A named tuple, not a frozen attrs class: it is made at each new hand or table (a miss
    of `_Ctx.say_info`), and a tuple is built at once, not field by field.
    """

    own: bool  # whether he has a meld (to add to, or borrow from, T8, T9)
    own_fits: int  # the cards that fit one of his melds alone (T8)
    partners: int  # his hand and the cards of his melds that may change (see `_hopeful`)
    forces: tuple[
        tuple[int, int], ...
    ]  # each opponent's meld: its index, the cards fitting it (T10)
    force_fits: int  # the cards fitting one of them (T10)
    lay_downs: dict[
        Action, _Plan
    ]  # the melds he may lay down from his hand, and the turn after (T8)


class _Partnered(dict[int, bool]):
    """For one card, whether a set of the cards near it (`_Ctx.partnered`) holds two partners
    (`_two_partners`), worked out once per set: then one `&` and one look-up ask it."""

    __slots__ = ("pair",)

    def __init__(self, pair: tuple[int, tuple[int, ...]]) -> None:
        super().__init__()
        self.pair = pair  # the card's `_Ctx.pairs` entry

    def __missing__(self, cards: int) -> bool:
        found = self[cards] = _two_partners(cards, self.pair)
        return found


# Fast path: a `_SayInfo` made by `tuple.__new__`, as the named tuple's own `__new__` (Python
# code) makes it: the same object, one call fewer.
_new_tuple = tuple.__new__


class _Ctx:
    """The rules' order and options, and the caches of combination questions.

    Every cache maps values to values, so it never changes an answer: it
    only saves asking `conquian.combos` again.
    """

    __slots__ = (
        "all_families",
        "all_grown",
        "borrows",
        "combos",
        "families",
        "family_melds",
        "finish",
        "forced",
        "grown",
        "info",
        "last_melds",
        "last_say",
        "lay_down",
        "melds",
        "middle",
        "onto",
        "options",
        "order",
        "pairs",
        "partnered",
        "positions",
        "rank_masks",
        "rules",
        "subsets",
        "suit_masks",
        "win",
    )

    def __init__(self, rules: ConquianRules) -> None:
        self.rules = rules
        self.order = Order.of(rules.pack, rules.max_sequence)  # C4, T14
        self.middle = rules.borrow_middle  # T9
        # T8: hand cards may go down while he has the say (lay_down="say"); under "turn"
        # and "meld" this engine applies T8's "meld" reading: every meld holds a pending card.
        self.lay_down = rules.lay_down == "say"
        self.win = rules.win_size  # T2
        pack = rules.pack_cards()
        self.suit_masks = tuple(_mask(c for c in pack if c.suit is s) for s in Suit)
        ranks = sorted({c.rank for c in pack}, key=lambda r: self.order.position[r])
        self.rank_masks = tuple(_mask(c for c in pack if c.rank == r) for r in ranks)
        self.all_families = self.rank_masks + self.suit_masks  # the order of `new_melds`
        self.families = [(0, 0)] * 52  # per card: the masks of its rank and of its suit
        for c in pack:
            rank_family = next(m for m in self.rank_masks if m >> c.index & 1)
            self.families[c.index] = (rank_family, self.suit_masks[c.suit])  # type: ignore[index]
        # Every combination of each family, as masks in the order `combos.melds_in` gives
        # them; and, per suit, the mask of the card at each position of the order (C3, C4).
        self.family_melds = {
            family: tuple(_mask(m.cards) for m in melds_in(_cards(family), self.order))
            for family in self.rank_masks + self.suit_masks
        }
        self.positions = tuple(
            tuple(1 << self.order.card_at(p, s).index for p in range(self.order.top + 1))
            for s in Suit
        )
        self.pairs: list[tuple[int, tuple[int, ...]]] = [(0, ())] * 52
        for c in pack:
            self.pairs[c.index] = self._pairs(c)
        # Per card: the cards that may partner it (its rank, and two places either side in its
        # suit), and whether a set of them holds two partners (`_Partnered`, for `_usable`).
        self.partnered: list[tuple[int, _Partnered]] = [(0, _Partnered((0, ())))] * 52
        for c in pack:
            pair = self.pairs[c.index]
            near = pair[0]
            for run in pair[1]:
                near |= run
            self.partnered[c.index] = (near, _Partnered(pair))
        self.subsets: dict[tuple[int, int], tuple[_MeldOption, ...]] = {}
        self.melds: dict[tuple[int, int], tuple[_MeldOption, ...]] = {}
        self.options: dict[int, _MeldOption] = {}
        self.onto: dict[tuple[int, int], Meld] = {}
        self.grown: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.all_grown: dict[int, tuple[tuple[int, int], ...]] = {}
        self.borrows: dict[int, tuple[_BorrowOption, ...]] = {}
        self.info: dict[int, _MeldInfo] = {}
        # Per player, the memo of `_finishable` by turn (no (player, turn) pair to build and hash).
        self.finish: tuple[dict[_Turn, bool], dict[_Turn, bool]] = ({}, {})
        self.combos: dict[int, Combination] = {}
        self.forced: dict[tuple[int, int], int] = {}
        empty = _SayInfo(False, 0, 0, (), 0, {})
        # Per owner: the last pool `new_melds` was asked about, and its answer.
        self.last_melds: list[tuple[int, tuple[_MeldOption, ...]]] = [(0, ())] * 2
        self.last_say: list[tuple[int, tuple[int, ...], _SayInfo]] = [(-1, (), empty)] * 2

    def _pairs(self, c: Card) -> tuple[int, tuple[int, ...]]:
        """What makes a combination of three with `c` (C3): any two of the other cards of
        its rank (given as one mask), or one of the pairs of its suit around it (masks)."""
        assert c.suit is not None
        order = self.order
        others = _mask(card_at(s * 13 + c.rank - 1) for s in Suit if s is not c.suit)
        runs = []
        pos = order.position[c.rank]
        for low in (pos - 2, pos - 1, pos):
            if low >= 0 and low + 2 <= order.top:
                run = (order.card_at(q, c.suit) for q in range(low, low + 3) if q != pos)
                runs.append(_mask(run))
        return others, tuple(runs)

    def combo(self, key: int) -> Combination:
        """The combination a key stands for."""
        found = self.combos.get(key)
        if found is None:
            other = self.combos.get(key ^ 1)
            if other is not None:
                # Fast path: the same cards built for the other seat; `build` sets only the owner.
                found = Combination(other.kind, other.cards, key & 1)
            else:
                found = build(_cards(key >> 1), self.order, key & 1)
                assert found is not None
            _store(self.combos, key, found)
        return found

    def _known(self, meld: Combination) -> int:
        """The key of a combination made by `combos`, remembered for `combo`."""
        key = _key(meld)
        if key not in self.combos:
            _store(self.combos, key, meld)
        return key

    def meld_info(self, key: int) -> _MeldInfo:
        found = self.info.get(key >> 1)
        if found is None:
            meld = self.combo(key)
            cards = key >> 1
            if meld.kind is Kind.GROUP:
                family = next(m for m in self.rank_masks if m & cards)
            else:
                family = next(m for m in self.suit_masks if m & cards)
            found = _MeldInfo(_mask(fitting(meld, self.order)) & ~cards, family & ~cards)
            _store(self.info, cards, found)
        return found

    def new_melds(self, pool: int, owner: int) -> tuple[_MeldOption, ...]:
        """Every new combination in the cards of `pool` (C3, T8): groups, then sequences.

        A combination lies in one rank or one suit, so `combos.melds_in` is
        asked about the pool's cards of each rank and of each suit.
        """
        last_pool, last_found = self.last_melds[owner]
        if not pool & ~last_pool:
            # Fast path, before the cache: `pool` lies in the last pool asked for this owner
            # (cards only leave a hand, T3, and a meld only takes cards from the pool), so its
            # combinations are those of the last pool that lie in it, in the same order: the
            # same answer, filtered from a short tuple (often empty, or the same pool).
            if pool == last_pool or not last_found:
                found = last_found
            else:
                found = tuple([opt for opt in last_found if not opt.used & ~pool])
            self.last_melds[owner] = (pool, found)
            return found
        cached = self.melds.get((pool, owner))
        if cached is not None:
            found = cached
        else:
            out: list[_MeldOption] = []
            subsets = self.subsets
            # Fast path: the ranks are looked at only if three cards of one rank are there.
            families = self.all_families if _three_of_a_rank(pool) else self.suit_masks
            for family in families:
                sub = pool & family
                if sub.bit_count() >= 3:
                    melds = subsets.get((sub, owner))  # the cache of `_subset_melds`, read inline
                    if melds is None:
                        melds = self._subset_melds(family, sub, owner)
                    out.extend(melds)
            found = tuple(out)
            _store(self.melds, (pool, owner), found)
        self.last_melds[owner] = (pool, found)
        return found

    def melds_with(self, pool: int, pending: int, owner: int) -> Iterator[_MeldOption]:
        """The new combinations in `pool` that hold a `pending` card (C3, T8), for the search.

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
                    for opt in self._subset_melds(family, sub, owner):
                        if opt.used & pending:
                            yield opt

    def _subset_melds(self, family: int, sub: int, owner: int) -> tuple[_MeldOption, ...]:
        """`combos.melds_in` of the cards `sub` of one `family`: the family's combinations
        that lie in `sub`, in the same order."""
        found = self.subsets.get((sub, owner))
        if found is None:
            out = []
            for used in self.family_melds[family]:
                if used & sub == used:
                    out.append(self._new_meld(used << 1 | owner))
            found = tuple(out)
            _store(self.subsets, (sub, owner), found)
        return found

    def _new_meld(self, key: int) -> _MeldOption:
        """The option of laying down meld `key` as a new combination (C3, T8), made once
        per key: its `Meld` action is built only the first time (a fast path)."""
        found = self.options.get(key)
        if found is None:
            meld = self.combo(key)
            found = _MeldOption(Meld(meld.cards), meld, key, key >> 1)
            _store(self.options, key, found)
        return found

    def extensions(self, key: int, pool: int) -> tuple[tuple[int, int], ...]:
        """Every set of `pool` cards that may be added to meld `key` (T8, T14): pairs of
        the cards added and the key of the meld they make (`meld_onto` gives the action)."""
        info = self.info.get(key >> 1) or self.meld_info(key)  # the cache read inline
        # Fast path: every addition holds a card that fits the meld alone (one of its rank, or
        # the card next to an end of the sequence, C3, T14), so none is possible without one.
        if not pool & info.fits:
            return ()
        related = pool & info.related
        found = self.grown.get((key, related))
        if found is None:
            # Fast path: the meld's additions from all its family, computed once per meld,
            # filtered to the pool's cards (a filter keeps their order).
            found = tuple(
                (used, bigger)
                for used, bigger in self._all_extensions(key)
                if used & related == used
            )
            _store(self.grown, (key, related), found)
        return found

    def _all_extensions(self, key: int) -> tuple[tuple[int, int], ...]:
        """`combos.extensions` of meld `key` from every other card of its family, in order:
        the cards added and the key of the meld they make (C3, T14)."""
        found = self.all_grown.get(key)
        if found is None:
            out = []
            cards = key >> 1
            related = self.meld_info(key).related
            valid = self.family_melds[related | cards]
            for used in self._additions(key, related):
                if cards | used in valid:
                    out.append((used, (cards | used) << 1 | key & 1))
            found = tuple(out)
            _store(self.all_grown, key, found)
        return found

    def meld_onto(self, used: int, index: int) -> Meld:
        """The action adding the cards `used` to table meld `index` (T8), made once."""
        found = self.onto.get((used, index))
        if found is None:
            found = Meld(_cards(used), onto=index)
            _store(self.onto, (used, index), found)
        return found

    def _additions(self, key: int, related: int) -> Iterator[int]:
        """The sets of `related` cards that could be added to meld `key`, in the order of
        `combos.extensions`: for a group every subset, for a sequence each run of cards
        below and above its ends (`_all_extensions` keeps those making a combination)."""
        meld = self.combo(key)
        if meld.kind is Kind.GROUP:
            used = (-related) & related  # the subsets of `related` in increasing order
            while used:
                yield used
                used = (used - related) & related
            return
        at = self.positions[meld.cards[0].suit]  # type: ignore[index]
        position = self.order.position
        low, high = position[meld.cards[0].rank], position[meld.cards[-1].rank]
        room = self.order.longest - len(meld.cards)
        for below in range(low + 1):
            for above in range(self.order.top - high + 1):
                if below + above == 0:
                    continue
                if below + above > room:
                    break
                used = 0
                for p in (*range(low - below, low), *range(high + 1, high + above + 1)):
                    used |= at[p]
                if used & related == used:
                    yield used

    def borrowings(self, key: int) -> tuple[_BorrowOption, ...]:
        """Each card that may be borrowed from meld `key` (T9), with the keys of the pieces
        it leaves; asked of `combos` once per meld (`borrow_action` gives the action)."""
        found = self.borrows.get(key)
        if found is None:
            out = []
            meld = self.combo(key)
            for c in borrowable(meld, self.middle):
                pieces = borrow(meld, c, self.middle)
                assert pieces is not None
                keys = tuple(self._known(p) for p in pieces)
                threes = tuple(
                    (key >> 1, self.meld_info(key).fits)
                    for key in keys
                    if len(self.combo(key).cards) == 3
                )
                out.append(_BorrowOption(1 << c.index, c.index, keys, threes))
            found = tuple(out)
            _store(self.borrows, key, found)
        return found

    def say_info(self, player: int, hand: int, keys: tuple[int, ...]) -> _SayInfo:
        """`_SayInfo` of `player` with `hand`, the table's melds being `keys`.

        Kept for his next say only (`last_say`), in no dict: over a run of passes the same
        hand and table come back, but once either has changed they hardly ever do in a
        deal, and a dict of every one cost more than it saved (its keys hashed twice, its
        entries kept).
        """
        last = self.last_say[player]
        # Fast path: the hand and table of his last say (a run of passes, T5-T7). A pass hands
        # the same tuple of keys on, so `is` finds it without hashing; the entry holds the
        # tuple, so no other tuple can have its identity.
        if last[1] is keys and last[0] == hand:
            return last[2]
        # Fast path: after the opponent's turn, from his last say (asked only with his hand).
        found = self._same_hand_say(player, hand, keys, last) if last[0] == hand else None
        if found is None:
            found = self._new_say(player, hand, keys)
        self.last_say[player] = (hand, keys, found)
        return found

    def _same_hand_say(
        self,
        player: int,
        hand: int,
        keys: tuple[int, ...],
        last: tuple[int, tuple[int, ...], _SayInfo],
    ) -> _SayInfo | None:
        """`_SayInfo` derived from his last say when only the opponent's melds changed since
        (T10), or None: with the same hand and the same melds of his own at the same places,
        what he may meld (T8) and his partners are the same. Only with nothing to lay down
        then: those plans hold the whole table."""
        old_hand, old_keys, old = last
        if old_hand != hand or old.lay_downs or len(keys) < len(old_keys):
            return None
        n_old = len(old_keys)
        forces = []
        force_fits = 0
        info = self.info
        for j, key in enumerate(keys):
            if key & 1 == player or (j < n_old and old_keys[j] & 1 == player):
                if j >= n_old or old_keys[j] != key:
                    return None  # one of his melds is new or changed
            else:  # the opponent's meld: the cards fitting it (T10), the cache read inline
                fits = (info.get(key >> 1) or self.meld_info(key)).fits
                forces.append((j, fits))
                force_fits |= fits
        own, own_fits, partners, _, _, lay_downs = old
        return _new_tuple(_SayInfo, (own, own_fits, partners, tuple(forces), force_fits, lay_downs))

    def _new_say(self, player: int, hand: int, keys: tuple[int, ...]) -> _SayInfo:
        """`_SayInfo` of `player` with `hand`, the table's melds being `keys`, worked out."""
        own = False
        own_fits = 0
        partners = hand
        threes = []
        forces = []
        force_fits = 0
        info = self.info
        for j, key in enumerate(keys):
            cards = key >> 1
            fits = (info.get(cards) or self.meld_info(key)).fits  # the cache read inline
            if key & 1 == player:
                own = True
                own_fits |= fits
                partners |= cards
                if key.bit_count() - player == 3:
                    threes.append((cards, fits))
            else:
                forces.append((j, fits))
                force_fits |= fits
        # As in `_hopeful`, for a card on offer that fits none of his melds: a meld of
        # three that nothing he has fits can never change, and gives no partner.
        for cards, fits in threes:
            if not fits & partners:
                partners &= ~cards
        # T8 (lay_down_from_hand): hand cards may go down while he has the say; no borrowing.
        lay_downs: dict[Action, _Plan] = {}
        # Fast path: a lay-down is a new meld of hand cards or an addition to his melds,
        # which holds a hand card fitting one alone (see `extensions`): without either,
        # there is none to look for.
        if self.lay_down and hand and (hand & own_fits or self.new_melds(hand, player)):
            turn: _Turn = (hand, keys, 0, 0, ())
            lay_downs.update(_turn_moves(self, player, turn, borrowing=False))
        return _new_tuple(_SayInfo, (own, own_fits, partners, tuple(forces), force_fits, lay_downs))

    def force_onto(self, key: int, c: Card) -> int:
        """The key of meld `key` with the forced card `c` in it (T10), asked of `combos` once
        per meld and card."""
        found = self.forced.get((key, c.index))
        if found is None:
            bigger = extend(self.combo(key), (c,), self.order)
            assert bigger is not None
            found = self._known(bigger)
            _store(self.forced, (key, c.index), found)
        return found


_CONTEXTS: dict[ConquianRules, _Ctx] = {}
_LAST_CONTEXT: list[_Ctx] = []  # the context of the last deal's rules (one entry)


def _context(rules: ConquianRules) -> _Ctx:
    # Fast path: the rules of the last deal, found by identity, without hashing them.
    if _LAST_CONTEXT and _LAST_CONTEXT[0].rules is rules:
        return _LAST_CONTEXT[0]
    ctx = _CONTEXTS.get(rules)
    if ctx is None:
        ctx = _CONTEXTS[rules] = _Ctx(rules)
    _LAST_CONTEXT[:] = [ctx]
    return ctx


# -- the rules of a turn ------------------------------------------------------------


def _won(ctx: _Ctx, keys: tuple[int, ...], player: int) -> bool:
    """T2 (T10): a player wins the moment he has one card more than his hand size melded."""
    melded = 0
    for key in keys:
        if key & 1 == player:
            melded += key.bit_count() - player
    return melded >= ctx.win


def _turn_moves(
    ctx: _Ctx, player: int, turn: _Turn, *, borrowing: bool, search: bool = False
) -> Iterator[tuple[Meld | Borrow, _Turn]]:
    """The `Meld` and `Borrow` moves of `player` in `turn`, each with the turn after it (T8, T9).

    T8: a meld is a new combination, or cards added to one of the player's
    own melds, from pending and hand cards; under ``lay_down_from_hand=False``
    (pagat) it must use a pending card, otherwise hand cards alone may go
    down too. T9: a borrowed card may not go back into the meld it came
    from, nor into either piece of a sequence it split. Borrowing, allowed
    only while melding after a take or a force (`borrowing`), takes a card
    that `combos.borrowable` allows (one of a group of four, an end of a
    sequence of four, or with ``borrow_middle`` a middle card leaving two
    sequences of three) and that was not borrowed before in this turn; a
    split sequence keeps its lower piece at its index and its upper piece is
    appended to the table (DESIGN.md).

    Whether the turn could still be finished afterwards is `_finishable`'s
    question, not this one's; but a borrow is left out when the card borrowed
    fails `_hopeful`'s test (a fast path: `_finishable` would reject it). For
    its `search` the additions of hand cards alone come last, as they are the
    least likely to help, and new
    combinations of hand cards alone are left out: they never help place a
    pending card. (Whatever a finishing line does with such a combination
    works with its cards left in the hand: what is added to it with a
    pending card is a new combination of those cards, and a card borrowed
    from it is a hand card that may be used as it is.)
    """
    hand, keys, pend, borrowed, sources = turn
    pool = hand | pend
    # Fast path: one pass over the table finds his melds that a pool card fits alone (only
    # those may grow, see `_Ctx.extensions`), those of four cards or more (only those lend a
    # card, T9) and the cards he may still use (for the test of the borrows).
    info = ctx.info
    have = pool
    grow: list[int] = []
    big: list[int] = []
    for i, key in enumerate(keys):
        if key & 1 == player:
            cards = key >> 1
            have |= cards
            if pool & (info.get(cards) or ctx.meld_info(key)).fits:  # the cache read inline
                grow.append(i)
            if cards.bit_count() >= 4:
                big.append(i)
    later: list[tuple[Meld, int, tuple[int, ...]]] = []  # hand-only melds, tried last in a search
    if pend or ctx.lay_down:
        need_pending = not ctx.lay_down
        new = ctx.melds_with(pool, pend, player) if search else ctx.new_melds(pool, player)
        for opt in new:
            used = opt.used
            if need_pending and not used & pend:
                continue
            if sources:
                yield opt.action, _after_meld(turn, used, (*keys, opt.key))
            else:  # fast path: `_after_meld` inline, no borrowed card to drop from the sources
                yield opt.action, (hand & ~used, (*keys, opt.key), pend & ~used, borrowed, ())
        for i in grow:
            key = keys[i]
            options = ctx.extensions(key, pool)
            if not options:
                continue  # fast path: nothing to add to this meld, no barred cards to find
            barred = 0
            for c, back in sources:
                if i in back:
                    barred |= 1 << c
            for used, bigger in options:
                if used & barred:
                    continue  # T9: a borrowed card goes into a different meld
                new_keys = (*keys[:i], bigger, *keys[i + 1 :])
                if not used & pend:
                    if need_pending:
                        continue
                    if search:
                        later.append((ctx.meld_onto(used, i), used, new_keys))
                        continue
                onto = ctx.meld_onto(used, i)
                if sources:
                    yield onto, _after_meld(turn, used, new_keys)
                else:  # fast path: `_after_meld` inline, as above
                    yield onto, (hand & ~used, new_keys, pend & ~used, borrowed, ())
    if borrowing:
        partnered = ctx.partnered
        borrows = ctx.borrows
        for i in big:
            # Fast path: `_Ctx.borrowings`' cache read inline.
            for b in borrows.get(keys[i]) or ctx.borrowings(keys[i]):
                bit = b.bit
                if borrowed & bit:
                    continue  # T9: a card is borrowed at most once in a turn
                # Fast path: `_hopeful`'s test of the borrowed card, before the move is built.
                # It may not go back to a piece of three left by the borrow that nothing else
                # he has fits (T9), and needs two partners among the other cards he may use
                # (C3). The test keeps every card `_hopeful` keeps (it leaves out fewer
                # melds), so it drops only moves that `_finishable` would reject.
                usable = have
                for cards, fits in b.threes:
                    if not fits & have & ~bit:
                        usable &= ~cards
                near, two = partnered[b.index]  # `_two_partners` read from `_Ctx.partnered`
                if not two[usable & near]:
                    continue  # no two partners: the borrowed card could not be placed
                if len(b.keys) == 1:
                    new_keys = (*keys[:i], b.keys[0], *keys[i + 1 :])
                    froms: tuple[int, ...] = (i,)
                    old = sources
                else:
                    split = len(keys)
                    new_keys = (*keys[:i], b.keys[0], *keys[i + 1 :], b.keys[1])
                    froms = (i, split)
                    # A card borrowed before from this meld may not go into its upper piece.
                    old = tuple((d, (*s, split) if i in s else s) for d, s in sources)
                if old:
                    new_sources = tuple(sorted((*old, (b.index, froms))))
                else:  # fast path: the first borrow of the turn, nothing to sort
                    new_sources = ((b.index, froms),)
                # Fast path: `_borrow`'s table read inline.
                lend = _BORROW.get(b.index << 8 | i) or _borrow(b.index, i)
                yield lend, (hand, new_keys, pend | bit, borrowed | bit, new_sources)
    for action, used, new_keys in later:
        yield action, _after_meld(turn, used, new_keys)


def _after_meld(turn: _Turn, used: int, keys: tuple[int, ...]) -> _Turn:
    """The turn after the cards `used` went to the table, whose melds are now `keys`."""
    hand, _, pend, borrowed, sources = turn
    if sources:
        sources = tuple([x for x in sources if not used >> x[0] & 1])
    return (hand & ~used, keys, pend & ~used, borrowed, sources)


def _hopeful(ctx: _Ctx, player: int, turn: _Turn) -> bool:
    """A quick necessary condition for placing every pending card (prunes `_finishable`).

    Each pending card must end in a combination of three or more cards (C3,
    T8), so it needs two partners among the cards the player may still use:
    his hand, the other pending cards and his own melds. Not the cards of a
    meld of three that nothing he has fits: it can never change (its cards
    cannot be borrowed, which needs four, T9, and nothing joins it). Nor, for
    a borrowed card, those of a meld it may not go back to (T9) that nothing
    else he has fits.
    """
    hand, keys, pend, _, sources = turn
    have = hand | pend
    threes = []
    for key in keys:
        if key & 1 == player:
            have |= key >> 1
            if key.bit_count() - player == 3:
                threes.append(key)
    info = ctx.info
    for key in threes:
        found = info.get(key >> 1) or ctx.meld_info(key)  # fast path: the cache read inline
        if not found.fits & have:
            have &= ~(key >> 1)  # a meld that stays as it is
    # Fast path: `_two_partners` read from `_Ctx.partnered` (one `&` and a look-up), as `_usable`.
    partnered = ctx.partnered
    rest = pend
    # The borrowed cards first (the likeliest to fail): each may not go back to its sources.
    for index, back in sources:
        low = 1 << index
        if not rest & low:
            continue  # not pending (cannot happen: a borrowed card leaves `sources` when melded)
        rest ^= low
        usable = have
        for i in back:
            cards = keys[i] >> 1
            if cards.bit_count() == 3:
                found = info.get(cards) or ctx.meld_info(keys[i])  # the cache read inline
                if not found.fits & have & ~low:
                    usable &= ~cards  # it stays as it is, and the card may not join it
        near, two = partnered[index]
        if not two[usable & near]:
            return False
    # Then the others, which may use every card in `have`.
    while rest:
        low = rest & -rest
        rest ^= low
        near, two = partnered[low.bit_length() - 1]
        if not two[have & near]:
            return False
    return True


def _two_partners(cards: int, pair: tuple[int, tuple[int, ...]]) -> bool:
    """Whether `cards` hold two partners making a combination of three with a card whose
    `_Ctx.pairs` entry is `pair` (C3): two others of its rank, or a pair of its suit around it."""
    others, runs = pair
    if (cards & others).bit_count() >= 2:
        return True
    found = False
    for run in runs:  # fast path: a plain loop, cheaper than any() over a generator
        if cards & run == run:
            found = True
            break
    return found


def _finishable(ctx: _Ctx, player: int, turn: _Turn) -> bool:
    """Whether `player` can still place every pending card this turn (DESIGN.md principle 3).

    With nothing pending the turn can always end (he has won, T2, or he has
    a hand card to discard, T8), so the search runs only while cards are
    pending. It is a depth-first search over `_turn_moves`, memoised on the
    whole turn: hand, melds, pending cards, cards borrowed so far and where
    from. It ends, because each meld puts cards on the table and each borrow
    uses up a card that cannot be borrowed again in this turn (T9).
    """
    if not turn[2]:
        return True
    memo = ctx.finish[player]
    known = memo.get(turn)  # the memo first: a turn met again skips `_hopeful` too
    if known is None:
        if not _hopeful(ctx, player, turn):
            return False
        known = False
        # A plain loop, cheaper than any() over a generator: stop at the first line that works.
        for _, after in _turn_moves(ctx, player, turn, borrowing=True, search=True):
            # Fast path: a move placing every pending card finishes, with no call.
            if not after[2] or _finishable(ctx, player, after):
                known = True
                break
        # Fast path: `_store` inline (no call).
        if len(memo) >= _CACHE_LIMIT:
            memo.clear()
        memo[turn] = known
    return known


def _leaves_finish(direct: list[tuple[int | None, int]], onto: int | None, used: int) -> bool:
    """Whether a meld of the hand cards `used` (onto meld `onto`, or new) leaves the turn
    finishable because a meld in `direct` placing every pending card still can be made.

    Such a meld takes none of the cards `used` and goes onto another meld (or is new):
    a meld of hand cards alone frees no barred card (T9) and changes no other meld, so
    it is still legal after this one. A speed-up of `_finishable` for the legal
    actions; the answer is the same.
    """
    return any(not cards & used and (target is None or target != onto) for target, cards in direct)


def _usable(
    ctx: _Ctx, player: int, hand: int, keys: tuple[int, ...], c: Card, say: _SayInfo
) -> bool:
    """Whether `player` could take `c` and place it in this turn (T3, T8, no dead ends)."""
    bit = 1 << c.index
    if say.own_fits & bit:
        return True  # onto one of his melds at once
    # `_two_partners` read from `_Ctx.partnered` (a fast path: one `&` and a look-up), first
    # for his partners, then for his hand.
    near, two = ctx.partnered[c.index]
    if not two[say.partners & near]:
        # Fast path: `_hopeful` for this one pending card, from the partners computed once
        # for the hand. They hold his hand (all of it when he has no meld), so this also
        # settles "no two hand cards go with it" without asking it of the hand.
        return False
    if two[hand & near]:
        return True  # a new combination with two hand cards (C3)
    if not say.own:
        return False  # no meld to add to or borrow from (cannot happen: his partners are his hand)
    settled = _usable_by_borrowing(ctx, player, hand, keys, c.index)
    if settled is not None:
        return settled
    return _finishable(ctx, player, (hand, keys, bit, 0, ()))


def _usable_by_borrowing(
    ctx: _Ctx, player: int, hand: int, keys: tuple[int, ...], index: int
) -> bool | None:
    """`_usable`'s answer for the card of `index` settled without the search of
    `_finishable`, or None: two hand cards do not go with it, it fits none of his melds
    alone, and his melds' cards may give it partners. The same answer as the search.

    True: borrowing one card from one of his melds, or one from each of two, makes a
    combination of three with it and a hand card (T9, C3): a finishing line of the search
    (a borrowed card goes into a new meld, never back to its own; borrowing from one meld
    leaves the others as they were, at the same places).

    False: none of the cards he could ever use gives it two partners (as `_hopeful`, but
    sharper). A meld of his that nothing he has fits (hand, the card, his melds' cards) can
    never grow: only borrowing changes it, after which only the borrowed card fits it, and
    that may not go back (T9). So it cannot take the card, and of its cards only those it
    could lend are partners: any card of a group of four; of a sequence of n, the card at
    position i (from 0, low end first) if i <= n - 4 or i >= 3, reached by borrowing the
    cards before it from one end, one by one while four are left, or by a split in the
    middle (T9): all of them from six on. Not for a sequence as long as the order allows
    (shorter, it fits new cards at its other end), nor with an ace at both ends.
    """
    # Fast path: `_two_partners` read from `_Ctx.partnered` (one `&` and a look-up), as `_usable`.
    near, two = ctx.partnered[index]
    lent: list[tuple[int, int]] = []  # (meld index, bit) of each card he may borrow now
    for i, key in enumerate(keys):
        if key & 1 == player and key.bit_count() - player >= 4:
            for b in ctx.borrowings(key):
                if two[(hand | b.bit) & near]:
                    return True  # borrow it, then meld it with the card and a hand card
                lent.append((i, b.bit))
    for x, (i, one) in enumerate(lent):
        for j, other in lent[x + 1 :]:
            if i != j and two[(hand | one | other) & near]:
                return True  # borrow both (from two melds), then meld them with the card
    order = ctx.order
    if order.ace_high:
        return None
    longest = order.longest
    have = hand | 1 << index
    for key in keys:
        if key & 1 == player:
            have |= key >> 1
    usable = hand
    for key in keys:
        if key & 1 != player:
            continue
        cards = key >> 1
        n = cards.bit_count()
        if n >= 6 or n >= longest or (ctx.info.get(cards) or ctx.meld_info(key)).fits & have:
            usable |= cards  # it may grow, or lend every card
            continue
        meld = ctx.combo(key)
        if meld.kind is Kind.GROUP:
            if n >= 4:
                usable |= cards
            continue
        for i, f in enumerate(meld.cards):
            if i <= n - 4 or i >= 3:
                usable |= 1 << f.index  # type: ignore[union-attr]
    return None if two[usable & near] else False


# -- the state ----------------------------------------------------------------------


@attrs.frozen
class _Deal:
    """What stays the same over a deal (T1): its rules, dealer and deck, the engine's
    context for the rules, and where the stock starts in the deck (after the starter, T11).
    One object shared by every state of the deal, so that a successor copies one field for
    them (a fast path of `ConquianState.apply`)."""

    rules: ConquianRules
    dealer: int
    deck: tuple[Card, ...]
    ctx: _Ctx = attrs.field(eq=False, hash=False, repr=False)
    stock_start: int = attrs.field(eq=False, hash=False, repr=False)


@attrs.frozen(repr=False, getstate_setstate=False)
class ConquianState(State):
    """A deal of two-hand Conquian (RULES.md T): an immutable value; `apply` returns a new one.

    Between turns `offer` is the card face up in the centre and
    `current_player` has the say to it (T4); `offer_origin` tells whether he
    turned it, or the opponent passed or discarded it, which decides what he
    may do (T5–T7). After a `Take` or a force `offer` is None and the player
    is melding: `pending` holds the cards he must still place (T8, T9).
    `deck` is the whole order of the deal, top card first, kept for records;
    views never show it (C6). Make one with `conquian.new_game`.

    >>> state = new_game(ConquianRules(), deck=ConquianRules().pack_cards(), dealer=0)
    >>> " ".join(map(str, state.hand(1))), state.offer
    ('AC 2C 5C 6C QC KC 3D 4D 7D JD', card('AH'))
    >>> state.apply("take AH")
    Traceback (most recent call last):
    ...
    conquian.errors.IllegalActionError: illegal action 'take AH': AH could not be melded \
in this turn, and a card taken is never held in the hand (T3)
    >>> state.apply("pass").offer_origin                   # now the dealer has the say
    'passed'
    """

    _deal: _Deal
    current_player: int | None
    offer: Card | None
    offer_origin: Origin | None
    table: tuple[Combination, ...]
    buried: tuple[Card, ...]
    result: Result | None
    # Its keys follow from `table`: comparing them too leaves equality as it was.
    _board: _Board
    # Compared and hashed as its actions, as a `History` is (the same values, the same hash).
    _log: _Log = attrs.field(eq=_actions_of)
    _legal: _Legal | None = attrs.field(init=False, default=None, eq=False, hash=False, repr=False)

    # -- what may be read ----------------------------------------------------------

    @property
    def rules(self) -> ConquianRules:
        """The rules of this deal.

        >>> new_game(ConquianRules(hand_size=9), seed=1).rules.hand_size
        9
        """
        return self._deal.rules

    @property
    def dealer(self) -> int:
        """The dealer's seat (T1).

        >>> new_game(ConquianRules(), seed=1, dealer=1).dealer
        1
        """
        return self._deal.dealer

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole order of the deal, top card first, kept for records; views never show it.

        >>> len(new_game(ConquianRules(), seed=1).deck)
        40
        """
        return self._deal.deck

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order.

        >>> len(new_game(ConquianRules(hand_size=9), seed=1).hand(0))
        9
        """
        if player not in (0, 1):
            raise ValueError(f"no seat {player!r} in the two-hand game: the seats are 0 and 1")
        return _cards(self._board[0][player])

    @property
    def pending(self) -> tuple[Card, ...]:
        """The cards taken or borrowed that must still be melded in this turn, in canonical order.

        >>> new_game(ConquianRules(), seed=5).apply("take KD").pending
        (card('KD'),)
        """
        return _cards(self._board[2])

    @property
    def stock_size(self) -> int:
        """How many cards are left face down in the stock (the card on offer is not counted).

        >>> new_game(ConquianRules(hand_size=8), seed=1).stock_size
        23
        """
        return len(self._deal.deck) - self._stock

    @property
    def _stock(self) -> int:
        """The position in the deck of the next card to turn: each card buried had the next
        one turned (T6, T7), save the last on a tableau (T12). Not a field: one slot fewer
        to write for each state."""
        deal = self._deal
        return min(deal.stock_start + len(self.buried), len(deal.deck))

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since the deal, oldest first.

        >>> new_game(ConquianRules(), seed=7).apply("pass").history
        (parse_action('pass'),)
        """
        return _actions_of(self._log)

    # -- legal actions -------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the current player, in a deterministic order (E1).

        With the say: ``take`` (only if the card can be placed in this turn),
        ``pass``, each ``force`` the card's origin allows, then the melds he
        may lay down from his hand (default rules). While melding: new melds,
        additions to his melds and borrows (each only if every pending card
        can still be placed), then, with nothing pending, each ``discard`` and
        each ``force``. Empty when the deal is over.

        >>> [str(a) for a in new_game(ConquianRules(), seed=7).legal_actions()]
        ['pass']
        """
        legal = self._legal
        if legal is not None:
            return legal[0]
        offer = self.offer
        if offer is None or self.result is not None:
            # The deal is over (none), or he is melding (T8-T10).
            legal = _NO_ACTIONS if self.result is not None else self._melding_actions()
            _set_legal(self, legal)
            return legal[0]
        # T4–T8, T10, T11: what the player with the say may do (most states). Fast path: here,
        # not in a method of its own (one call fewer).
        ctx = self._deal.ctx
        player = self.current_player
        assert player is not None
        hands, keys, _, _, _ = self._board
        hand = hands[player]
        last = ctx.last_say[player]
        # Fast path: the first check of `_Ctx.say_info` inline (no call), his last say's info.
        say = last[2] if last[1] is keys and last[0] == hand else ctx.say_info(player, hand, keys)
        # T3, T8: a card is taken only to be placed at once. T5: he may always pass it (to
        # the opponent; T6, T7: buried, and the next card turned).
        legal = (
            _TAKE_PASS[offer.index] if _usable(ctx, player, hand, keys, offer, say) else _PASS_ONLY
        )
        # T5, T6, T10: a card he turned, or one passed to him, may be forced onto the
        # opponent's melds (the passer's, for a passed card); T7: not a discard.
        # Fast path: none to look for if the card fits none of them (`force_fits`).
        bit = 1 << offer.index
        forcing = say.force_fits & bit and self.offer_origin != _DISCARDED
        if forcing or say.lay_downs:
            legal = _say_more(legal, say, offer, bit if forcing else 0)
        # Else, fast path: take and pass, or pass alone, made once per card.
        _set_legal(self, legal)  # the cache of a frozen state, written through its slot
        return legal[0]

    def is_legal(self, action: Action | str) -> bool:
        """Whether `action` (or its text) is legal now: exactly when it is in `legal_actions`.

        >>> state = new_game(ConquianRules(), seed=7)
        >>> state.is_legal("pass"), state.is_legal("take 4C"), state.is_legal("nonsense")
        (True, False, False)
        """
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError:
                return False
        try:
            return action in dict.fromkeys(self._actions()[0])  # the actions' own equality
        except TypeError:  # an unhashable object is no action
            return False

    def _actions(self) -> _Legal:
        """The legal actions and their plans (`_Legal`), from the cache `legal_actions` fills."""
        legal = self._legal
        if legal is None:
            self.legal_actions()  # the cache of a frozen state, written through its slot
            legal = self._legal
            assert legal is not None
        return legal

    def _melding_actions(self) -> _Legal:
        """T8–T10: melding after a take or a force, then ending the turn."""
        ctx = self._deal.ctx
        player = self.current_player
        assert player is not None
        hands, keys, pending, borrowed, sources = self._board
        hand = hands[player]
        turn: _Turn = (hand, keys, pending, borrowed, sources)
        actions: list[Action] = []
        plans: list[_Plan] = []
        moves = list(_turn_moves(ctx, player, turn, borrowing=True))
        # The melds that place every pending card at once: each finishes the turn. Fast path:
        # none to look for without moves (often so with nothing pending).
        direct = (
            [(a.onto, hand & ~after[0]) for a, after in moves if type(a) is Meld and not after[2]]
            if moves
            else []
        )
        for action, after in moves:
            hand_only = pending and type(action) is Meld and after[2] == pending
            if hand_only and _leaves_finish(direct, action.onto, hand & ~after[0]):  # type: ignore[union-attr]
                actions.append(action)  # no dead ends: a direct finish is left untouched
                plans.append(after)
            # No dead ends; fast path: with nothing pending the turn can always end (T8).
            elif not after[2] or _finishable(ctx, player, after):
                actions.append(action)
                plans.append(after)
        if not pending:
            # T8: nothing pending and not won, so he ends the turn with a hand card.
            discards = _discards(hand)
            forces: list[Action] = []
            onto: list[_Plan] = []
            opponent = 1 - player
            info = ctx.info
            for j, key in enumerate(keys):
                if key & 1 == opponent:
                    fits = (info.get(key >> 1) or ctx.meld_info(key)).fits & hand  # cache inline
                    if not fits:
                        continue  # fast path: no card of his fits this meld
                    for c in _cards(fits):
                        forces.append(_force(c, j))  # T10: forcing in place of a discard
                        onto.append(j)
            if not actions and not forces:
                return discards  # fast path: the discards alone, made once per hand
            return (*actions, *discards[0], *forces), (*plans, *discards[1], *onto)
        return tuple(actions), tuple(plans)

    # -- applying --------------------------------------------------------------------

    def apply(self, action: Action | str) -> ConquianState:
        """The state after `action` (or its text); raises `IllegalActionError` if it is not legal.

        The error's message says which rule forbids the action and cites its
        id (E1); this state is unchanged, as always.

        >>> state = new_game(ConquianRules(), seed=7).apply("pass")
        >>> state.apply("discard 5H")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        conquian.errors.IllegalActionError: illegal action 'discard 5H': you have the say to ...
        """
        offer = self.offer
        if type(action) is Pass and offer is not None:
            # T5-T7: whoever has the say may pass it, so there is nothing to look up.
            # Fast path: the pass made here, not in a method of its own (most actions are
            # passes), and by `_make` itself, not through `_next`: a pass changes neither the
            # hands nor the table (nothing is pending in a say state), so it hands on the
            # board and the table unchanged.
            player = self.current_player
            assert player is not None
            deal = self._deal
            board = self._board
            log: _Log = (self._log, action)
            if self.offer_origin == _TURNED:  # T5: to the opponent, as passed
                return _make(
                    deal, 1 - player, offer, _PASSED, self.table, self.buried, None, board, log
                )
            # T6, T7: a passed or discarded card is buried and he turns the next stock card,
            # on offer to himself. T12: tableau.
            buried = (*self.buried, offer)
            stock = deal.stock_start + len(self.buried)  # T6, T7: one card turned per card buried
            deck = deal.deck
            if stock >= len(deck):  # T12: a card must be turned and none is left
                return self._next(log, None, None, None, board, buried, _TABLEAU)
            return _make(deal, player, deck[stock], _TURNED, self.table, buried, None, board, log)
        if isinstance(action, str):
            return self.apply(parse_action(action))  # as if the action itself were given
        legal = self._legal
        if legal is None:
            legal = self._actions()
        actions, plans = legal
        # Fast path: the action given is usually one of `legal_actions()` itself (a random
        # playout's choice): found by identity, so it is not hashed (an attrs class). An equal
        # copy of one (a parsed text, say) is looked up in a dict of the plans made for it.
        i = 0
        for a in actions:
            if a is action:
                plan = plans[i]
                break
            i += 1  # noqa: SIM113 (cheaper than `enumerate`'s tuples)
        else:
            plan = self._plan_of(action, actions, plans)
        log = (self._log, action)
        kind = type(action)  # not a pass: a legal pass was made above
        player = self.current_player
        assert player is not None
        if kind is Take:
            assert self.offer is not None  # T8: the taken card is pending, never in the hand
            hands, keys, _, _, _ = self._board
            board = (hands, keys, 1 << self.offer.index, 0, ())
            return self._next(log, player, None, None, board)
        if kind is Force:
            assert isinstance(plan, int)
            return self._after_force(log, action, plan)  # type: ignore[arg-type]
        if kind is Discard:
            thrown = card_at(action.card.index)  # type: ignore[union-attr]
            board = (self._without(player, 1 << thrown.index), self._board[1], 0, 0, ())
            return self._next(log, 1 - player, thrown, _DISCARDED, board)
        assert isinstance(plan, tuple)  # Meld or Borrow: the plan is the turn after it
        return self._after_turn_move(log, player, plan)

    def _plan_of(
        self, action: Action, actions: tuple[Action, ...], plans: tuple[_Plan, ...]
    ) -> _Plan:
        """The plan of `action`, equal to one of the legal `actions` but not one of them; or
        the error saying why it is not legal (E1)."""
        try:
            return dict(zip(actions, plans, strict=True))[action]
        except (KeyError, TypeError):
            if not isinstance(action, (Take, Pass, Draw, Meld, Borrow, Force, Discard)):
                raise TypeError(
                    f"apply needs an action or its text (got {type(action).__name__})"
                ) from None
            why, rule = self._why_illegal(action)
            raise IllegalActionError(
                f"illegal action '{action}': {why}", action=str(action), rule=rule
            ) from None

    def _without(self, player: int, cards: int) -> tuple[int, int]:
        """The hands, with `cards` gone from `player`'s."""
        h0, h1 = self._board[0]
        return (h0 & ~cards, h1) if player == 0 else (h0, h1 & ~cards)

    def _next(
        self,
        log: _Log,
        current: int | None,
        offer: Card | None,
        origin: Origin | None,
        board: _Board,
        buried: tuple[Card, ...] | None = None,
        result: Result | None = None,
    ) -> ConquianState:
        if board[1] is self._board[1]:
            table = self.table  # the same melds
        else:
            combo = self._deal.ctx.combo
            table = tuple(combo(key) for key in board[1])
        return _make(
            self._deal,
            current,
            offer,
            origin,
            table,
            self.buried if buried is None else buried,
            result,
            board,
            log,
        )

    def _after_force(self, log: _Log, action: Force, j: int) -> ConquianState:
        """T10: the card joins the opponent's meld `j`; he wins (T2) or plays on, melding."""
        player = self.current_player
        assert player is not None and isinstance(action.card, Card)
        forced = card_at(action.card.index)
        victim = 1 - player
        ctx = self._deal.ctx
        hands, keys, _, _, _ = self._board
        keys = (*keys[:j], ctx.force_onto(keys[j], forced), *keys[j + 1 :])
        if self.offer is None:  # from the hand, in place of a discard (T8)
            hands = self._without(player, 1 << forced.index)
        board = (hands, keys, 0, 0, ())
        if _won(ctx, keys, victim):
            return self._next(log, None, None, None, board, result=_WINS[victim])
        return self._next(log, victim, None, None, board)

    def _after_turn_move(self, log: _Log, player: int, turn: _Turn) -> ConquianState:
        """After a `Meld` or a `Borrow` (T8, T9): with only the say, the offer stays."""
        hand, keys, pending, _, _ = turn
        h0, h1 = self._board[0]
        hands = (hand, h1) if player == 0 else (h0, hand)
        if self.offer is not None:  # laid down from the hand while having the say
            return self._next(log, player, self.offer, self.offer_origin, (hands, keys, 0, 0, ()))
        if not pending and _won(self._deal.ctx, keys, player):
            return self._next(log, None, None, None, (hands, keys, 0, 0, ()), result=_WINS[player])
        return self._next(log, player, None, None, (hands, *turn[1:]))

    # -- why an action is not legal (E1) --------------------------------------------

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        """The reason `action` is not legal now, in the game's words, and the rule's id."""
        if self.result is not None:
            if self.result.winner is not None:
                return f"the deal is over: player {self.result.winner} has won", "T2"
            return "the deal is over: it ended in a tableau", "T12"
        player = self.current_player
        assert player is not None
        if isinstance(action, Draw):
            return (
                "there is no drawing in two-hand Conquian: a card is turned face up from the "
                "stock when the card on offer is refused",
                "T4",
            )
        faces: tuple[Face, ...] = action.cards if isinstance(action, Meld) else ()
        if isinstance(action, Force):
            faces = (action.card,)
        shift = isinstance(action, (Meld, Force)) and action.shift
        if shift or any(isinstance(f, NamedJoker) for f in faces):
            return "the two-hand pack has no joker, so no joker is named or shifted", "T1"
        if self.offer is not None:
            return self._why_illegal_on_say(action, player)
        return self._why_illegal_melding(action, player)

    def _why_illegal_on_say(self, action: Action, player: int) -> tuple[str, str]:
        offer = self.offer
        assert offer is not None
        if isinstance(action, Take):
            if action.card != offer:
                return f"{action.card} is not on offer: the card on offer is {offer}", "T4"
            return (
                f"{offer} could not be melded in this turn, and a card taken is never held in "
                "the hand",
                "T3",
            )
        if isinstance(action, Force):
            if self.offer_origin == _DISCARDED:
                return (
                    "a discard is not forced back onto the player who discarded it: take it "
                    "or pass it",
                    "T7",
                )
            if action.card != offer:
                return f"only the card on offer, {offer}, may be forced now", "T10"
            return self._why_no_fit(action, 1 - player)
        if isinstance(action, Borrow):
            return (
                "a player borrows only while melding after a take or a force, not while he "
                f"has the say to {offer}",
                "T9",
            )
        if isinstance(action, Discard):
            return (
                f"you have the say to {offer}: take it, pass it or force it; a discard ends "
                "a turn in which you melded",
                "T4",
            )
        assert isinstance(action, Meld)
        if not self._deal.ctx.lay_down:
            return (
                "under these rules hand cards go down only together with a card taken or borrowed",
                "T8",
            )
        return self._why_bad_meld(action, player)

    def _why_illegal_melding(self, action: Action, player: int) -> tuple[str, str]:
        pending = self.pending
        if isinstance(action, (Take, Pass)):
            verb = "take" if isinstance(action, Take) else "pass"
            return (
                f"no card is on offer: you are melding, and may not {verb} before your next say",
                "T8",
            )
        if isinstance(action, (Discard, Force)):
            if pending:
                return (
                    f"the pending {_text(pending)} must be melded before the turn ends",
                    "T8",
                )
            if action.card not in self.hand(player):
                return f"{action.card} is not in your hand", "T8"
            assert isinstance(action, Force)
            return self._why_no_fit(action, 1 - player)
        if isinstance(action, Meld):
            if not self._deal.ctx.lay_down and not set(action.cards) & set(pending):
                return (
                    "under these rules every meld must use a pending card (one taken or borrowed)",
                    "T8",
                )
            return self._why_bad_meld(action, player)
        assert isinstance(action, Borrow)
        return self._why_bad_borrow(action, player)

    def _why_no_fit(self, action: Force, victim: int) -> tuple[str, str]:
        j = action.onto
        if j >= len(self.table):
            return f"there is no meld @{j} on the table", "T10"
        meld = self.table[j]
        if meld.owner != victim:
            return "a card is forced only onto the opponent's melds", "T10"
        order = self._deal.ctx.order
        if (
            meld.kind is Kind.SEQUENCE
            and order.max_sequence is not None
            and len(meld.cards) >= order.max_sequence
        ):
            return (
                f"{action.card} does not fit {meld}: a sequence holds at most "
                f"{order.max_sequence} cards",
                "T14",
            )
        return f"{action.card} does not fit the meld {meld}", "T10"

    def _why_bad_meld(self, action: Meld, player: int) -> tuple[str, str]:
        pending = self.pending
        have = set(self.hand(player)) | set(pending)
        for c in action.cards:
            if c not in have:
                if c == self.offer:
                    return f"{c} is on offer, not in your hand: take it first", "T8"
                return f"{c} is not in your hand{' or pending' if pending else ''}", "T8"
        order = self._deal.ctx.order
        if action.onto is not None:
            i = action.onto
            if i >= len(self.table):
                return f"there is no meld @{i} on the table", "T8"
            meld = self.table[i]
            if meld.owner != player:
                return (
                    "you add cards only to your own melds; a card goes onto the opponent's "
                    "melds only by a force",
                    "T8",
                )
            for index, src in self._board[4]:
                c = card_at(index)
                if i in src and c in action.cards:
                    return (
                        f"{c} was borrowed from this meld and must go into a different one",
                        "T9",
                    )
            if extend(meld, action.cards, order) is None:
                why, rule = _explained((*meld.cards, *action.cards), order)
                return f"{_text(action.cards)} cannot be added to {meld}: {why}", rule
        elif build(action.cards, order) is None:
            return _explained(action.cards, order)
        return self._unfinishable(pending)

    def _why_bad_borrow(self, action: Borrow, player: int) -> tuple[str, str]:
        i = action.source
        c = action.card
        if i >= len(self.table):
            return f"there is no meld @{i} on the table", "T9"
        meld = self.table[i]
        if meld.owner != player:
            return "a player borrows only from his own melds, never from the opponent's", "T9"
        if c not in meld.cards:
            return f"{c} is not in the meld {meld}", "T9"
        if self._board[3] >> c.index & 1:
            return f"{c} was borrowed already in this turn: a card is borrowed once a turn", "T9"
        if len(meld.cards) <= 3:
            return f"{meld} would be left with fewer than three cards", "T9"
        if meld.kind is Kind.SEQUENCE and c not in (meld.cards[0], meld.cards[-1]):
            if not self._deal.ctx.middle:
                return "under these rules no card is borrowed from the middle of a sequence", "T9"
            k = meld.cards.index(c)
            return (
                f"borrowing {c} would leave {_text(meld.cards[:k])} and "
                f"{_text(meld.cards[k + 1 :])}: both pieces must be sequences of three or more",
                "T9",
            )
        return self._unfinishable((*self.pending, c))

    def _unfinishable(self, pending: tuple[Card, ...]) -> tuple[str, str]:
        if len(pending) == 1:
            return f"after it, the pending {_text(pending)} could not be melded in this turn", "T8"
        if pending:
            return (
                f"after it, the pending {_text(pending)} could not all be melded in this turn",
                "T8",
            )
        return "it is not legal now", "T8"  # pragma: no cover - nothing pending always ends

    # -- views, repr, pickling ------------------------------------------------------

    def view(self, player: int) -> ConquianView:
        """All that `player` may know of this deal, and nothing more (C6).

        >>> view = new_game(ConquianRules(), seed=7).view(0)
        >>> len(view.hand), view.hand_sizes, len(view.unseen), view.legal_actions
        (10, (10, 10), 29, ())
        """
        hand = self.hand(player)
        return ConquianView(
            rules=self.rules,
            player=player,
            dealer=self.dealer,
            current_player=self.current_player,
            hand=hand,
            hand_sizes=(self._board[0][0].bit_count(), self._board[0][1].bit_count()),
            table=self.table,
            offer=self.offer,
            offer_origin=self.offer_origin,
            pending=self.pending,
            stock_size=self.stock_size,
            buried=self.buried,
            history=self.history,
            result=self.result,
            legal_actions=self.legal_actions() if self.current_player == player else (),
            unseen=tuple(sorted(self.hand(1 - player) + self._deal.deck[self._stock :])),
        )

    def __repr__(self) -> str:
        hands = ", ".join(_text(self.hand(p)) or "-" for p in (0, 1))
        table = "; ".join(f"@{i} ({m.owner}) {m}" for i, m in enumerate(self.table))
        return (
            f"<ConquianState dealer={self.dealer} current_player={self.current_player} "
            f"offer={self.offer} ({self.offer_origin}) pending=[{_text(self.pending)}] "
            f"hands=[{hands}] table=[{table}] stock_size={self.stock_size} "
            f"result={self.result} history={len(_actions_of(self._log))} actions>"
        )

    def __getstate__(self) -> dict[str, Any]:
        # The deal's rules, dealer and deck as entries of their own (not the engine's
        # context, rebuilt from the rules), as pickles have always held them.
        # The other fields, with the parts of `_board` (not the keys, which follow from the
        # table) and the log (a `History`) as pickles have always held them.
        hands, _, pending, borrowed, sources = self._board
        return {
            "rules": self.rules,
            "dealer": self.dealer,
            "deck": self.deck,
            "current_player": self.current_player,
            "offer": self.offer,
            "offer_origin": self.offer_origin,
            "table": self.table,
            "buried": self.buried,
            "result": self.result,
            "_hands": hands,
            "_pending": pending,
            "_stock": self._stock,
            "_borrowed": borrowed,
            "_sources": sources,
            "_log": _history_of(_actions_of(self._log)),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        rules = state["rules"]
        start = _deal_positions(rules.hand_size)[2] + 1
        deal = _Deal(rules, state["dealer"], state["deck"], _context(rules), start)
        object.__setattr__(self, "_deal", deal)
        for name in ("current_player", "offer", "offer_origin", "table", "buried", "result"):
            object.__setattr__(self, name, state[name])
        keys = tuple(_key(m) for m in state["table"])
        board = (state["_hands"], keys, state["_pending"], state["_borrowed"], state["_sources"])
        object.__setattr__(self, "_board", board)
        log: _Log = ()
        for action in state["_log"].actions():
            log = (log, action)
        object.__setattr__(self, "_log", log)
        object.__setattr__(self, "_legal", None)


# The setters of `ConquianState`'s slots (member descriptors), for `_make`:
# writing a slot through its descriptor skips the frozen class's `__setattr__`, as attrs'
# own `__init__` does, and the look-up of the slot by name.
_new_object = object.__new__
_SLOTS = ConquianState.__dict__
_set_deal = _SLOTS["_deal"].__set__
_set_current = _SLOTS["current_player"].__set__
_set_offer = _SLOTS["offer"].__set__
_set_origin = _SLOTS["offer_origin"].__set__
_set_table = _SLOTS["table"].__set__
_set_buried = _SLOTS["buried"].__set__
_set_result = _SLOTS["result"].__set__
_set_board = _SLOTS["_board"].__set__
_set_log = _SLOTS["_log"].__set__
_set_legal = _SLOTS["_legal"].__set__
# `_make` must write every field: a field added to the class needs its setter there too.
assert len(attrs.fields(ConquianState)) == 10, "_make: a field is not set"


def _make(
    deal: _Deal,
    current: int | None,
    offer: Card | None,
    origin: Origin | None,
    table: tuple[Combination, ...],
    buried: tuple[Card, ...],
    result: Result | None,
    board: _Board,
    log: _Log,
) -> ConquianState:
    """A state with these fields (the deal's first one, or a successor, `_next`).

    Fast path: the state is filled in slot by slot through the slots' own setters, not
    through attrs' `__init__` (which writes each field by name with `object.__setattr__`):
    the same fields with the same values, so equality, hashing, repr and pickling are
    those of any state; only the writing is cheaper.
    """
    new = _new_object(ConquianState)
    _set_deal(new, deal)
    _set_current(new, current)
    _set_offer(new, offer)
    _set_origin(new, origin)
    _set_table(new, table)
    _set_buried(new, buried)
    _set_result(new, result)
    _set_board(new, board)
    _set_log(new, log)
    _set_legal(new, None)
    return new


def _text(cards: Iterable[Face]) -> str:
    return " ".join(map(str, cards))


_RULE_AT_END = re.compile(r"\s*\(([A-Z]\d+)(?:,[^)]*)?\)$")


def _explained(faces: Iterable[Face], order: Order) -> tuple[str, str]:
    """`combos.explain` split into its reason and the rule id it cites."""
    text = explain(faces, order)
    m = _RULE_AT_END.search(text)
    if m is None:  # pragma: no cover - explain always cites a rule
        return text, "C3"
    return text[: m.start()], m.group(1)


@attrs.frozen
class ConquianView(PlayerView):
    """What one player of a two-hand deal may know (C6): a value, equal when it shows the same.

    His own `hand` and the sizes of both hands; the table, the card on offer
    and where it came from, the pending cards, the buried cards (each was
    face up before burial, in the order buried), the stock's size, the
    history (every action is public), the result, and his `legal_actions`
    when it is his turn (else empty). `unseen` is what he cannot place: the
    other hand and the stock, as one sorted multiset. Never the order of the
    deck, nor the other hand.

    >>> view = new_game(ConquianRules(), seed=7).view(1)
    >>> view.player, view.current_player, view.offer, view.legal_actions
    (1, 1, card('QC'), (parse_action('pass'),))
    """

    rules: ConquianRules
    player: int
    dealer: int
    current_player: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int]
    table: tuple[Combination, ...]
    offer: Card | None
    offer_origin: Origin | None
    pending: tuple[Card, ...]
    stock_size: int
    buried: tuple[Card, ...]
    history: tuple[Action, ...]
    result: Result | None
    legal_actions: tuple[Action, ...]
    unseen: tuple[Card, ...]

    # -- bridges (conquian.determinize, conquian.encoding) --
    def sample_state(self, rng: random.Random) -> ConquianState:
        """A whole deal drawn uniformly among those that give this view (C6).

        See `conquian.determinize`: the state's ``view(self.player)`` equals this view.

        >>> view = new_game(ConquianRules(), seed=7).view(0)
        >>> view.sample_state(random.Random(3)).view(0) == view
        True
        """
        return sample_two_hand(self, rng, deal)

    def observation(self) -> tuple[float, ...]:
        """This view as a fixed-length tuple of floats (`conquian.encoding.observation`)."""
        return observation(self)

    # -- end bridges --


_DEALS: dict[int, tuple[itemgetter[Any], itemgetter[Any], int]] = {}
_INTERNED = tuple(map(card_at, range(53)))  # every card, by `Card.index`
_BITS = tuple(1 << i for i in range(53))  # every card's bit, by `Card.index`


def _deal_positions(size: int) -> tuple[itemgetter[Any], itemgetter[Any], int]:
    """T1: getters of the deck positions dealt to the pone and to the dealer, two at a time
    (with a hand of nine the last round is one card each), and the position of the starter."""
    found = _DEALS.get(size)
    if found is None:
        to_pone: list[int] = []
        to_dealer: list[int] = []
        at = dealt = 0
        while dealt < size:
            k = min(2, size - dealt)
            to_pone.extend(range(at, at + k))
            to_dealer.extend(range(at + k, at + 2 * k))
            at += 2 * k
            dealt += k
        # `itemgetter` of one position gives the item, not a tuple: a hand has two or more.
        found = _DEALS[size] = (itemgetter(*to_pone), itemgetter(*to_dealer), at)
    return found


def deal(rules: ConquianRules, deck: tuple[Card, ...], dealer: int) -> ConquianState:
    """Deal a two-hand game from `deck`, the whole pack top card first (T1, T11).

    Two cards at a time, the pone (seat ``dealer + 1``) first; with a hand of
    nine the last round is one card each. ``deck[2 * hand_size]`` is turned
    and on offer to the pone as if he had turned it; the rest is the stock.
    `conquian.new_game` calls this once it has checked the deck.

    >>> from conquian.two_hand import deal
    >>> state = deal(ConquianRules(hand_size=9), ConquianRules().pack_cards(), dealer=1)
    >>> " ".join(map(str, state.hand(0))), state.offer
    ('AC 2C 5C 6C QC KC 3D 4D 7D', card('QD'))
    """
    return deal_indices(rules, [c.index for c in deck], dealer)


def deal_indices(rules: ConquianRules, indices: list[int], dealer: int) -> ConquianState:
    """`deal` from the deck's `Card.index` values, top card first (T1, T11): the interned
    cards are those of the indices. `conquian.new_game` deals a seeded shuffle this way.

    >>> from conquian.two_hand import deal_indices
    >>> state = deal_indices(ConquianRules(), [c.index for c in ConquianRules().pack_cards()], 1)
    >>> state.offer
    card('AH')
    """
    pone = 1 - dealer
    # What each seat is dealt, as getters of deck positions made once per hand size.
    to_pone, to_dealer, at = _deal_positions(rules.hand_size)
    # Fast path: the interned cards and their bits are picked from ready tables in C (by
    # `itemgetter`), not card by card in a Python loop.
    pick = itemgetter(*indices)
    deck = pick(_INTERNED)
    bits = pick(_BITS)
    hands = [0, 0]
    hands[pone] = sum(to_pone(bits))
    hands[dealer] = sum(to_dealer(bits))
    return _make(
        _Deal(rules, dealer, deck, _context(rules), at + 1),
        pone,
        deck[at],  # T11: the starter, on offer to the pone as if he had turned it
        _TURNED,
        (),
        (),
        None,
        ((hands[0], hands[1]), (), 0, 0, ()),
        (),
    )
