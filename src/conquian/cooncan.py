"""The rummy engine: Foster's three-hand and double-pack Cooncan (RULES.md M).

A deal is an immutable `CooncanState`; `new_game` makes one with `deal`.
Each turn the player draws the top card of the pack unseen (``draw``) or
takes a face-up card of the stock (``take 5H``), then lays out and adds to
combinations (``meld``, ``force``) as he likes, and ends by discarding one
card face up (``discard KD``), unless he has got rid of every card first,
which wins the deal (M2, M10).

>>> state = new_game(CooncanRules.three_hand(), seed=3)
>>> state.current_player, state.phase, len(state.hand(1)), state.pack_size
(1, 'draw', 7, 30)
>>> [str(a) for a in state.legal_actions()]
['draw', 'take 3D']
>>> state = state.apply("draw")
>>> state.phase, len(state.hand(1))
('play', 8)

Each rule lives in one place, named by its id: the deal in `deal` (M1);
the turn, the stock and the discard in `CooncanState.legal_actions`, the
one list `apply` also checks against (M2, M3); laying out, adding, forcing
and the joker shift through `conquian.combos` (M4, M5, M9); the
settlement in `pips` and `CooncanState.result` (M7, M8, M10); the
exhausted pack and the turn limit in `CooncanState.apply` (M11); seats and
the first deal in `cut_for_deal` (M13). Cards on the table never move (M6):
there is no borrowing in Cooncan. The score sheet over several deals (M12)
is `conquian.scoring`'s.

Where Foster is silent the docstrings say *library's choice*: the card taken
from the stock may not be discarded that turn (M2); a joker at an ace end
may shift (M9); when both end jokers could shift for a card, the low-end one
moves (M9); a joker shift plays exactly one card (M9, law 18); the
`turn_limit` (M11).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

import attrs

from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, parse_action
from .cards import JOKER, Card, Face, NamedJoker, card_at, make_pack, pip_value
from .combos import (
    Combination,
    Kind,
    Order,
    build,
    explain,
    extend,
    extensions,
    fits,
    fitting,
    melds_in,
    shifts,
)
from .determinize import sample_cooncan
from .encoding import observation
from .errors import IllegalActionError
from .game import shuffle
from .rules import CooncanRules
from .state import History, Outcome, PlayerView, Result, State

__all__ = ["CooncanState", "CooncanView", "Cut", "cut_for_deal", "deal", "pips"]

_ORDER = Order.of("standard")
"""The 52-card order: the ace low or high, never round the corner (C4, law 16)."""

_DRAW = Draw()

Phase = Literal["draw", "play"]

# A legal action with what apply needs: the combination it leaves on the table
# (None: computed by apply when it is chosen) and the cards it takes from the hand.
_Entry = tuple[Action, "Combination | None", tuple[Card, ...]]


def pips(hand: Sequence[Card]) -> int:
    """What a hand left at the end of a deal costs its holder (M7, laws 23–24).

    The joker counts 15, an ace 11, a king, queen, jack or ten 10, and the
    other cards their face value (`conquian.cards.pip_value`).

    >>> pips(cards("QS QS"))
    20
    >>> pips(cards("JK AH 9H 2C"))
    37
    """
    return sum(pip_value(c) for c in hand)


def _physical(face: Face) -> Card:
    """The card itself: a named joker is the joker (C5)."""
    return JOKER if type(face) is NamedJoker else face  # type: ignore[return-value]


def _without(hand: tuple[Card, ...], played: Sequence[Card]) -> tuple[Card, ...]:
    """`hand` (sorted) less the `played` cards; every one of them must be there.

    Cards inside the engine are the interned ones (`deal`), so identity finds them.
    """
    rest = list(hand)
    for c in played:
        for i, h in enumerate(rest):
            if h is c:
                del rest[i]
                break
        else:
            rest.remove(c)
    return tuple(rest)


def _with(hand: tuple[Card, ...], c: Card) -> tuple[Card, ...]:
    """`hand` (sorted) with `c` put in its canonical place."""
    index = c.index
    for i, h in enumerate(hand):
        if h.index > index:
            return (*hand[:i], c, *hand[i:])
    return (*hand, c)


def _forget(known: tuple[Card, ...], played: Sequence[Card]) -> tuple[Card, ...]:
    """The known cards of a hand less the cards just played from it (C6).

    When a player holds a known copy and an unseen copy of a card and plays
    one, the others cannot tell which: the known copy is forgotten.
    """
    if not known:
        return known
    rest = list(known)
    for c in played:
        index = c.index  # equal cards have equal indices: no attrs __eq__ (speed)
        for i, k in enumerate(rest):
            if k.index == index:
                del rest[i]
                break
    return known if len(rest) == len(known) else tuple(rest)


def _has_shiftable_joker(combo: Combination) -> bool:
    """Whether a sequence has an unshifted joker at an end (M9, law 18)."""
    if combo.kind is not Kind.SEQUENCE:
        return False
    first, last = combo.cards[0], combo.cards[-1]
    return (type(first) is NamedJoker and not first.shifted) or (
        type(last) is NamedJoker and not last.shifted
    )


def _fit_of(combo: Combination) -> tuple[Card, ...]:
    """The cards that fit `combo` alone, without repeats (M5): kept beside the table."""
    return tuple(dict.fromkeys(fitting(combo, _ORDER)))


def _may_meld(hand: tuple[Card, ...]) -> bool:
    """A quick necessary condition for `melds_in` to find anything (speed only).

    Every combination holds a natural card and, around it, three places of
    one rank or of one suit in a row (positions 0-13, the ace at both ends)
    with no more gaps than the jokers in hand can fill. When no rank and no
    window of three has that, there is no combination to lay out and
    `melds_in` need not run. The rules are `melds_in`'s: this only skips work.

    Two integers hold the hand: `ranks`, a 5-bit count per rank, and
    `places`, a 16-bit lane of positions per suit (bits 14 and 15 stay
    empty, so no window of three straddles two suits).
    """
    jokers = 0
    ranks = places = 0
    for c in hand:
        index = c.index
        if index == 52:
            jokers += 1
        else:
            ranks += _RANK_COUNT[index]
            places |= _PLACES[index]
    if jokers >= 2:
        return len(hand) > jokers  # any natural card and two jokers make a combination
    if jokers:  # two of three: a pair of a rank, or two places of a suit at most two apart
        return bool((ranks + _AT_LEAST_2) & _FIELD_TOPS or places & ((places >> 1) | (places >> 2)))
    return bool((ranks + _AT_LEAST_3) & _FIELD_TOPS or places & (places >> 1) & (places >> 2))


# _may_meld's tables. A rank's 5-bit field holds at most 8 cards (the double
# pack) and has bit 4 set after adding 16 - n exactly when it holds n or more.
_RANK_COUNT = tuple(1 << 5 * (i % 13 + 1) for i in range(52))
_FIELD_TOPS = sum(16 << 5 * rank for rank in range(1, 14))
_AT_LEAST_2 = sum(14 << 5 * rank for rank in range(1, 14))
_AT_LEAST_3 = sum(13 << 5 * rank for rank in range(1, 14))
_PLACES = tuple(
    (1 | 1 << 13) << 16 * (i // 13) if i % 13 == 0 else 1 << (16 * (i // 13) + i % 13)
    for i in range(52)
)


# Small immutable actions, made once, by card index (actions are values; sharing is safe).
_DISCARDS = tuple(Discard(c) for c in make_pack(jokers=1))
_TAKES = tuple(Take(c) for c in make_pack(jokers=1))
_DRAW_ENTRY: _Entry = (_DRAW, None, ())
_TAKE_ENTRIES: tuple[_Entry, ...] = tuple((a, None, ()) for a in _TAKES)
_DISCARD_ENTRIES: tuple[_Entry, ...] = tuple((a, None, (a.card,)) for a in _DISCARDS)

_Play = tuple["Meld | Force", "Combination | None", tuple[Card, ...]]


def _plays(
    hand: tuple[Card, ...],
    table: tuple[Combination, ...],
    fit: tuple[tuple[Card, ...], ...],
    player: int,
) -> list[_Play]:
    """Every Meld and Force the rules allow from `hand` onto `table` (M4, M5, M9).

    `fit` holds, for each combination on the table, the cards that fit it
    alone (`_fit_of`). Each play is the action, the combination it leaves on the
    table (None when it is cheaper to compute it on `apply`) and the cards it
    takes from the hand. The turn rule (M2) is the caller's. Order: new
    combinations (M4), additions to his own (M5), joker shifts on his own
    (M9), forces on the others' (M5, law 19), forces with a joker shift (M9).
    The plays are made once and shared (actions and combinations are values).
    """
    out: list[_Play] = []
    if len(hand) >= 3 and _may_meld(hand):
        out.extend(_new_meld(combo) for combo in melds_in(hand, _ORDER, player))
    jokers = bool(hand) and hand[-1].index == 52  # the hand is sorted: a joker comes last
    held = [False] * 53
    for c in hand:
        held[c.index] = True
    shiftable = []
    for i, combo in enumerate(table):
        if _has_shiftable_joker(combo):
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


# Memo tables of plays (speed only). Every play is a value made from its key
# alone, so sharing one between states and threads is safe; each table is
# bounded, and a play dropped from it is simply made again.


def _new_meld(combo: Combination) -> _Play:
    """The play laying out `combo`, a new combination (M4), made once per combination."""
    play = _NEW_MELDS.get(combo)
    if play is None:
        if len(_NEW_MELDS) >= 8192:
            _NEW_MELDS.clear()
        play = _NEW_MELDS[combo] = (Meld(combo.cards), combo, combo.physical_cards)
    return play


_NEW_MELDS: dict[Combination, _Play] = {}


def _relevant(combo: Combination, hand: tuple[Card, ...]) -> tuple[int, ...]:
    """The indices of the hand cards that could go on `combo`: its suit or rank, and jokers."""
    if combo.kind is Kind.GROUP:
        rank = combo.cards[0].rank
        return tuple(c.index for c in hand if c.rank == rank or c.index == 52)
    suit = combo.cards[0].suit
    return tuple(c.index for c in hand if c.suit is suit or c.index == 52)


@functools.lru_cache(maxsize=4096)
def _additions(combo: Combination, onto: int, relevant: tuple[int, ...]) -> tuple[_Play, ...]:
    """The Melds adding cards to his own `combo` at `onto` (M5), from the `relevant` cards.

    `conquian.combos.extensions` looks only at the cards of the combination's
    suit (a sequence) or rank (a group) and the jokers, so those are the key.
    """
    faces_list = extensions(combo, [card_at(i) for i in relevant], _ORDER)
    return tuple(
        (Meld(faces, onto=onto), None, tuple(_physical(f) for f in faces)) for faces in faces_list
    )


@functools.lru_cache(maxsize=4096)
def _force(index: int, onto: int) -> _Play:
    """The play forcing the card `index` onto another player's combination `onto` (M5, law 19)."""
    c = card_at(index)
    return Force(c, onto=onto), None, (c,)


@functools.lru_cache(maxsize=4096)
def _joker_forces(
    combo: Combination, onto: int, fitting_cards: tuple[Card, ...]
) -> tuple[_Play, ...]:
    """The plays forcing a joker onto another player's `combo` (M5, law 19; C5 names it).

    In a group the joker is named by rank only; on a sequence, as each card that fits.
    """
    if combo.kind is Kind.GROUP:
        return ((Force(NamedJoker(combo.cards[0].rank), onto=onto), None, (JOKER,)),)
    return tuple(
        (Force(NamedJoker(c.rank, c.suit), onto=onto), None, (JOKER,)) for c in fitting_cards
    )


def _shift_plays(
    out: list[_Play], combo: Combination, onto: int, own: bool, hand: tuple[Card, ...], jokers: bool
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


@functools.lru_cache(maxsize=1024)
def _shift_options(
    combo: Combination, onto: int, own: bool
) -> tuple[dict[int, _Play], tuple[_Play, ...]]:
    """What may go on `combo` (at `onto`) with a joker shift (M9), by card index, and the jokers.

    Law 18: the end joker moves to the other end (renamed) and the card must
    then fit. Where both ends hold a joker that may move and both give a
    valid result, the library takes the first that `conquian.combos.shifts`
    gives, the low-end joker moving (library's choice; law 18 does not say).
    """
    suit = combo.cards[0].suit
    assert suit is not None
    naturals: dict[int, _Play] = {}
    named: list[_Play] = []
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

    The sequence spans positions low to high (`_ORDER`, the ace at 0 or 13).
    The low joker moving up leaves low to high + 1 and takes a card at low or
    high + 2; the high joker moving down leaves low - 1 to high - 1 and takes
    one at low - 2 or high. No other card can fit (speed only: `shifts`
    decides each of these).
    """
    position, top = _ORDER.position, _ORDER.top
    first, last = combo.cards[0].rank, combo.cards[-1].rank
    low = position[first]
    high = 13 if last == 1 else position[last]
    at = {p for p in (low - 2, low, high, high + 2) if 0 <= p <= top}
    return sorted({_ORDER.rank_at[p] for p in at})


def _shift_play(combo: Combination, onto: int, own: bool, face: Face) -> _Play | None:
    """The play putting `face` on `combo` with a joker shift, if it fits (M9)."""
    results = shifts(combo, face, _ORDER)
    if not results:
        return None
    action = Meld((face,), onto=onto, shift=True) if own else Force(face, onto=onto, shift=True)
    return action, results[0], (_physical(face),)


def _resolve(
    action: Meld | Force, combo: Combination | None, table: tuple[Combination, ...]
) -> Combination:
    """The combination a Meld or Force leaves on the table (M4, M5)."""
    if combo is not None:
        return combo
    onto = action.onto
    assert onto is not None
    if type(action) is Meld:
        bigger = extend(table[onto], action.cards, _ORDER)
    else:
        bigger = fits(table[onto], action.card, _ORDER)  # type: ignore[union-attr]
    assert bigger is not None
    return bigger


def _placed(
    table: tuple[Combination, ...],
    fit: tuple[tuple[Card, ...], ...],
    onto: int | None,
    combo: Combination,
) -> tuple[tuple[Combination, ...], tuple[tuple[Card, ...], ...]]:
    """The table and its fitting cards with `combo` laid anew or replacing `onto`."""
    if onto is None:
        return (*table, combo), (*fit, _fit_of(combo))
    return (
        (*table[:onto], combo, *table[onto + 1 :]),
        (*fit[:onto], _fit_of(combo), *fit[onto + 1 :]),
    )


def _can_go_out(
    hand: tuple[Card, ...],
    table: tuple[Combination, ...],
    fit: tuple[tuple[Card, ...], ...],
    player: int,
) -> bool:
    """Whether some Melds and Forces can empty `hand` (M2, M10).

    Used only when every card left is one he may not discard, so `hand`
    holds at most two cards (two copies in the double pack): the search is
    tiny.
    """
    for action, combo, played in _plays(hand, table, fit, player):
        rest = _without(hand, played)
        if not rest:
            return True
        new_table, new_fit = _placed(table, fit, action.onto, _resolve(action, combo, table))
        if _can_go_out(rest, new_table, new_fit, player):
            return True
    return False


def _illegal(action: object, why: str, rule: str) -> IllegalActionError:
    return IllegalActionError(f"illegal action '{action}': {why}", action=str(action), rule=rule)


def _split_rule(text: str, default: str) -> tuple[str, str]:
    """Split the rule id off an explanation: ``'x (C4, law 16)'`` -> ``('x (law 16)', 'C4')``."""
    head, sep, tail = text.rpartition(" (")
    if not sep or not tail.endswith(")"):
        return text, default
    first, _, rest = tail[:-1].partition(", ")
    if not (first[:1].isalpha() and first[:1].isupper() and first[1:].isdigit()):
        return text, default
    return (f"{head} ({rest})" if rest else head), first


def _no_fit(state: CooncanState) -> tuple[tuple[Card, ...], ...]:
    return tuple(_fit_of(combo) for combo in state.table)


class _Legal:
    """The legal actions of one state, kept beside it rather than on it (memory).

    Storing every state of a deal must stay cheap, so a state holds no cache
    of its actions. A playout asks a state for its legal actions and then
    applies one of them, so a few of the latest states' action lists, kept
    here, find them again; a state not among them computes them anew (the
    same list: `CooncanState._generate` depends on the state alone). The
    entry holds the state itself, so `is` cannot mistake another state for
    it. Threads may share the ring: an entry is written whole, and a lost
    or overwritten one only costs a recomputation.
    """

    __slots__ = ("actions", "entries", "lookup", "state")

    def __init__(self, state: CooncanState, entries: list[_Entry]) -> None:
        self.state = state
        self.entries = entries  # each action with what apply needs (M2-M5, M9)
        self.actions: tuple[Action, ...] | None = None  # made on the first legal_actions()
        self.lookup: dict[Action, _Entry] | None = None  # made on the first equal-not-same find


_RECENT: list[_Legal | None] = [None] * 4
"""The side cache of `_Legal` entries, a ring written at `_NEXT`."""

_NEXT = 0


@attrs.frozen(repr=False)
class CooncanState(State):
    """A position in a deal of Cooncan (RULES.md M); `new_game` makes the first one.

    - `rules`, `dealer`, and `deck`: the whole pack in the order it was dealt,
      top card first (kept for records, never shown in a view);
    - `current_player` (None when the deal is over) and `phase`: ``"draw"``
      before he has drawn or taken this turn, ``"play"`` after;
    - `hand`, `table` (combinations in the order laid, each with its
      `owner`), `stock` (the face-up discards, oldest first, top last),
      `pack` and `pack_size`;
    - `history`, `turns` (turns ended so far), `known` (C6), `result`.

    States are values: `apply` returns a new one and the old stays valid.

    >>> state = new_game(CooncanRules.double_pack(players=5), seed=11, dealer=4)
    >>> state.current_player, [len(state.hand(p)) for p in range(5)], state.stock
    (0, [10, 10, 10, 10, 10], (card('7H'),))
    >>> state.apply("take 7H").apply("discard 7H")
    Traceback (most recent call last):
    ...
    conquian.errors.IllegalActionError: illegal action 'discard 7H': he may not discard 7H, \
the card he took from the stock this turn (M2)
    """

    rules: CooncanRules
    dealer: int
    deck: tuple[Card, ...] = attrs.field(repr=False)
    _hands: tuple[tuple[Card, ...], ...]
    table: tuple[Combination, ...]
    stock: tuple[Card, ...]
    _pack: tuple[Card, ...] = attrs.field(repr=False)
    _pack_at: int
    _pack_known: bool
    current_player: int | None
    phase: Phase
    _taken: Card | None
    _known: tuple[tuple[Card, ...], ...]
    _opened: tuple[int, ...]
    turns: int
    _log: History = attrs.field(repr=False)
    result: Result | None
    # Derived and cached values: not part of the state's value.
    _fit: tuple[tuple[Card, ...], ...] = attrs.field(
        default=attrs.Factory(_no_fit, takes_self=True), eq=False, repr=False
    )
    # The legal actions are not kept on the state (memory): see `_Legal`.

    # -- what the state shows ------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and copy) with the history as a flat tuple, without the caches.

        `History` is a linked list; pickled as it is, a long deal would nest
        too deep for pickle's recursion limit.
        """
        values = [getattr(self, a.name) for a in _INIT_FIELDS]
        values[_LOG_AT] = self._log.actions()
        return _restore, tuple(values)

    def __repr__(self) -> str:
        who = "over" if self.current_player is None else f"seat {self.current_player}"
        return (
            f"<CooncanState {self.rules.variant}, turn {self.turns}, {who} to "
            f"{self.phase}, {len(self._log)} actions>"
        )

    @property
    def history(self) -> tuple[Action, ...]:
        """The actions applied since the deal, in order (Draw shows no card, so it is public).

        >>> new_game(CooncanRules.three_hand(), seed=1).apply("draw").history
        (parse_action('draw'),)
        """
        return self._log.actions()

    @property
    def pack(self) -> tuple[Card, ...]:
        """The face-down pack, top card first (hidden from the players unless M11 made it).

        >>> len(new_game(CooncanRules.three_hand(jokers=1), seed=1).pack)
        31
        """
        return self._pack[self._pack_at :]

    @property
    def pack_size(self) -> int:
        """How many cards are left in the pack.

        >>> new_game(CooncanRules.double_pack(), seed=1).pack_size
        65
        """
        return len(self._pack) - self._pack_at

    @property
    def pack_is_known(self) -> bool:
        """Whether the pack is a turned-over stock, whose order everyone saw (M11, C6).

        >>> new_game(CooncanRules.three_hand(), seed=1).pack_is_known
        False
        """
        return self._pack_known

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards everyone knows are in that hand (C6, M11).

        A card taken from the stock, or drawn from a pack made of the turned
        stock, is known until its holder plays a card equal to it.

        >>> s = new_game(CooncanRules.three_hand(), seed=3)
        >>> s.apply(f"take {s.stock[-1]}").known[1] == s.stock
        True
        """
        return self._known

    @property
    def taken(self) -> Card | None:
        """The card the current player took from the stock this turn: he may not discard it (M2).

        >>> s = new_game(CooncanRules.three_hand(), seed=3)
        >>> s.taken, s.apply("take 3D").taken, s.apply("draw").taken
        (None, card('3D'), None)
        """
        return self._taken

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order.

        >>> len(new_game(CooncanRules.three_hand(), seed=3).hand(0))
        7
        """
        if not 0 <= player < len(self._hands):
            raise ValueError(f"no seat {player!r} in a game of {len(self._hands)}")
        return self._hands[player]

    # -- legal actions (M2-M5, M9) ---------------------------------------------

    def _legal(self) -> _Legal:
        """The legal actions of this state, from the side cache of recent states or made anew."""
        for legal in _RECENT:
            if legal is not None and legal.state is self:
                return legal  # fast path: a playout asks for the actions, then applies one
        global _NEXT
        legal = _Legal(self, self._generate())
        at = _NEXT
        _RECENT[at] = legal
        _NEXT = (at + 1) % len(_RECENT)
        return legal

    def _generate(self) -> list[_Entry]:
        """The legal actions, each with what `apply` needs: the one rule implementation."""
        p = self.current_player
        if p is None:
            return []
        hand = self._hands[p]
        table, fit = self.table, self._fit
        if self.phase == "draw":
            # M2, law 11: draw the top of the pack unseen, or take a stock card.
            # When the pack is empty the stock is turned over first (M11), so
            # drawing is always possible: the stock holds the last discard.
            out = [_DRAW_ENTRY]
            stock = self.stock
            if self.rules.stock == "closed":
                candidates: Sequence[Card] = stock[-1:]  # M3: only the top card
            else:
                candidates = sorted(set(stock))  # M3, p. 36: any exposed card
            for c in candidates:
                # M2: he may not discard the card he takes; if every card he
                # holds is equal to it, he must be able to lay them all off.
                if any(h is not c for h in hand) or _can_go_out((*hand, c), table, fit, p):
                    out.append(_TAKE_ENTRIES[c.index])
            return out
        taken = self._taken
        free = len(hand) + 1 if taken is None else sum(1 for c in hand if c is not taken)
        out = []
        for play in _plays(hand, table, fit, p):
            action, combo, played = play
            if free <= len(played) and free <= sum(1 for c in played if c is not taken):
                # M2: nothing he may discard would be left; the action is legal
                # only if he goes out with it or can still lay off every card.
                rest = _without(hand, played)
                if rest:
                    new_table, new_fit = _placed(
                        table, fit, action.onto, _resolve(action, combo, table)
                    )
                    if not _can_go_out(rest, new_table, new_fit, p):
                        continue
            out.append(play)
        previous = None
        for c in hand:  # sorted, and cards are interned: equal cards are adjacent
            if c is not previous and c is not taken:
                out.append(_DISCARD_ENTRIES[c.index])
            previous = c
        return out

    def _find(self, action: object) -> _Entry | None:
        """The legal entry for `action`: the very object offered, or an equal one."""
        legal = self._legal()
        for entry in legal.entries:
            if entry[0] is action:
                return entry  # fast path: the object legal_actions() gave
        lookup = legal.lookup
        if lookup is None:
            lookup = legal.lookup = {entry[0]: entry for entry in legal.entries}
        try:
            return lookup.get(action)  # type: ignore[call-overload, no-any-return]
        except TypeError:  # not hashable, so not an action
            return None

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the current player may take now, in a deterministic order.

        Draw phase: ``draw``, then ``take`` (the top of a closed stock, or
        each card of an open one in canonical order). Play phase: new
        combinations, additions to his own, joker shifts on his own, forces
        on the others', forces with a joker shift, then discards. No action
        is offered after which he could not finish his turn (M2).

        >>> s = new_game(CooncanRules.three_hand(), seed=3)
        >>> [str(a) for a in s.legal_actions()] == ["draw", f"take {s.stock[-1]}"]
        True
        """
        legal = self._legal()
        actions = legal.actions
        if actions is None:
            actions = legal.actions = tuple([entry[0] for entry in legal.entries])
        return actions

    def is_legal(self, action: Action | str) -> bool:
        """Whether `action` (or its text) is legal now: exactly when it is in `legal_actions()`.

        >>> new_game(CooncanRules.three_hand(), seed=3).is_legal("pass")
        False
        """
        if isinstance(action, str):
            return super().is_legal(action)
        return self._find(action) is not None

    # -- applying an action -------------------------------------------------

    def apply(self, action: Action | str) -> CooncanState:
        """The state after `action` (or its text); raises `IllegalActionError` if not legal (E1).

        The error says which rule forbids the action, in the game's words, and
        this state is unchanged.

        >>> s = new_game(CooncanRules.three_hand(), seed=3)
        >>> s.apply("borrow 5H @0")
        Traceback (most recent call last):
        ...
        conquian.errors.IllegalActionError: illegal action 'borrow 5H @0': cards on the table \
never move: there is no borrowing (M6)
        """
        if isinstance(action, str):
            action = parse_action(action)
        entry = self._find(action)
        if entry is None:
            raise self._why(action)
        action, combo, _ = entry  # the engine's own copy of the action
        p = self.current_player
        assert p is not None
        kind = type(action)
        if kind is Discard:
            return self._discard(p, action.card)  # type: ignore[union-attr, arg-type]
        if kind is Draw:
            return self._draw(p)
        if kind is Take:
            return self._take(p, action.card)  # type: ignore[union-attr, arg-type]
        return self._lay(p, action, combo)  # type: ignore[arg-type]

    def _draw(self, p: int) -> CooncanState:
        pack, at, pack_known, stock = self._pack, self._pack_at, self._pack_known, self.stock
        if at >= len(pack):
            # M11, law 25, p. 11: the stock is turned face down and becomes the
            # pack, its oldest card on top; the discard starts a new stock.
            pack, at, pack_known, stock = stock, 0, True, ()
        drawn = pack[at]
        hands = list(self._hands)
        hands[p] = _with(hands[p], drawn)
        known = self._known
        if pack_known:  # everyone saw the turned stock (C6, M11)
            known = _replace(known, p, _with(known[p], drawn))
        return CooncanState(
            self.rules, self.dealer, self.deck, tuple(hands), self.table, stock,
            pack, at + 1, pack_known, p, "play", None, known, self._opened, self.turns,
            self._log.append(_DRAW), None, self._fit,
        )  # fmt: skip

    def _take(self, p: int, c: Card) -> CooncanState:
        stock = self.stock
        i = len(stock) - 1 - stock[::-1].index(c)  # M3: the top, or any card when open
        hands = list(self._hands)
        hands[p] = _with(hands[p], c)
        return CooncanState(
            self.rules, self.dealer, self.deck, tuple(hands), self.table,
            stock[:i] + stock[i + 1 :], self._pack, self._pack_at, self._pack_known, p,
            "play", c, _replace(self._known, p, _with(self._known[p], c)), self._opened,
            self.turns, self._log.append(_TAKES[c.index]), None, self._fit,
        )  # fmt: skip

    def _lay(self, p: int, action: Meld | Force, combo: Combination | None) -> CooncanState:
        played = (
            tuple(_physical(f) for f in action.cards)
            if type(action) is Meld
            else (_physical(action.card),)  # type: ignore[union-attr]
        )
        table, fit = _placed(
            self.table, self._fit, action.onto, _resolve(action, combo, self.table)
        )
        hands = list(self._hands)
        hand = hands[p] = _without(hands[p], played)
        opened = self._opened
        if opened[p] < 0:  # his first Meld or Force of the deal (M8)
            opened = _replace(opened, p, self.turns)
        known = _replace(self._known, p, _forget(self._known[p], played))
        log = self._log.append(action)
        new_hands = tuple(hands)
        if hand:
            return CooncanState(
                self.rules, self.dealer, self.deck, new_hands, table, self.stock,
                self._pack, self._pack_at, self._pack_known, p, "play", self._taken, known,
                opened, self.turns, log, None, fit,
            )  # fmt: skip
        # M10, laws 21-22: he wins the moment his hand is empty.
        return CooncanState(
            self.rules, self.dealer, self.deck, new_hands, table, self.stock, self._pack,
            self._pack_at, self._pack_known, None, "play", self._taken, known, opened,
            self.turns + 1, log, self._settle(p, new_hands, opened), fit,
        )  # fmt: skip

    def _discard(self, p: int, c: Card) -> CooncanState:
        hands = list(self._hands)
        hand = hands[p] = _without(hands[p], (c,))
        new_hands = tuple(hands)
        turns = self.turns + 1
        known = _replace(self._known, p, _forget(self._known[p], (c,)))
        log = self._log.append(_DISCARDS[c.index])
        stock = (*self.stock, c)
        player: int | None = (p + 1) % len(hands)  # M2: play passes to the left
        result = None
        limit = self.rules.turn_limit
        if not hand:  # M10, law 21: going out by discarding the last card
            player, result = None, self._settle(p, new_hands, self._opened)
        elif limit is not None and turns >= limit:  # M11: abandoned, no payments
            player, result = None, Result(Outcome.ABANDONED, None, (0,) * len(hands))
        return CooncanState(
            self.rules, self.dealer, self.deck, new_hands, self.table, stock, self._pack,
            self._pack_at, self._pack_known, player, "draw", None, known, self._opened, turns,
            log, result, self._fit,
        )  # fmt: skip

    def _settle(
        self, winner: int, hands: tuple[tuple[Card, ...], ...], opened: tuple[int, ...]
    ) -> Result:
        """Every other player pays the winner his pips (M7), plus any splash bonus (M8).

        A splash is going out in the turn of one's first Meld or Force: nothing
        laid down or added before (p. 11); the last card may go by discarding
        (p. 18).
        """
        bonus = self.rules.splash_bonus
        extra = bonus if bonus is not None and opened[winner] in (-1, self.turns) else 0
        payments = [0] * len(hands)
        for q, hand in enumerate(hands):
            if q != winner:
                owed = pips(hand) + extra
                payments[q] = -owed
                payments[winner] += owed
        return Result(Outcome.WIN, winner, tuple(payments))

    @property
    def splash(self) -> bool:
        """Whether the deal was won by a splash (M8), whatever the `splash_bonus` option.

        >>> new_game(CooncanRules.three_hand(), seed=1).splash
        False
        """
        result = self.result
        if result is None or result.winner is None:
            return False
        return self._opened[result.winner] in (-1, self.turns - 1)  # the winning turn

    # -- why an action is illegal (E1) -----------------------------------------

    def _why(self, action: object) -> IllegalActionError:
        """The most specific reason `action` is not in the legal set, citing the rule."""
        result = self.result
        if result is not None:
            if result.outcome is Outcome.ABANDONED:
                return _illegal(action, "the deal was abandoned at the turn limit", "M11")
            return _illegal(action, f"the deal is over: seat {result.winner} went out", "M10")
        if isinstance(action, Pass):
            return _illegal(action, "there is no passing: draw, or take from the stock", "M2")
        if isinstance(action, Borrow):
            return _illegal(action, "cards on the table never move: there is no borrowing", "M6")
        if not isinstance(action, (Draw, Take, Meld, Force, Discard)):
            return _illegal(action, "this is not an action", "M2")
        p = self.current_player
        assert p is not None
        hand = self._hands[p]
        if self.phase == "draw":
            if isinstance(action, Take):
                c = action.card
                if c not in self.stock:
                    return _illegal(action, f"{c} is not in the stock", "M3")
                if self.rules.stock == "closed" and c != self.stock[-1]:
                    return _illegal(
                        action,
                        f"only the top card of the closed stock, {self.stock[-1]}, may be taken",
                        "M3",
                    )
                return _illegal(
                    action,
                    f"he could not finish his turn: he may not discard {c} and could not "
                    "lay off every card",
                    "M2",
                )
            if not isinstance(action, Draw):
                return _illegal(
                    action, "he must first draw from the pack or take from the stock", "M2"
                )
            return _illegal(action, "not legal now", "M2")  # pragma: no cover
        if isinstance(action, (Draw, Take)):
            return _illegal(action, "he has already drawn this turn", "M2")
        if isinstance(action, Discard):
            c = action.card
            if c not in hand:
                return _illegal(action, f"{c} is not in his hand", "M2")
            if c == self._taken:
                return _illegal(
                    action,
                    f"he may not discard {c}, the card he took from the stock this turn",
                    "M2",
                )
            return _illegal(action, "not legal now", "M2")  # pragma: no cover
        faces = action.cards if isinstance(action, Meld) else (action.card,)
        rule = "M4" if isinstance(action, Meld) and action.onto is None else "M5"
        if JOKER in faces:
            return _illegal(action, "a joker must be named, as JK=4D or JK=5", "C5")
        if any(type(f) is NamedJoker and f.shifted for f in faces):
            return _illegal(action, "a joker played from the hand cannot be marked shifted", "M9")
        missing = Counter(_physical(f) for f in faces) - Counter(hand)
        if missing:
            return _illegal(
                action, " ".join(map(str, sorted(missing.elements()))) + " not in his hand", rule
            )
        onto = action.onto
        if onto is None:
            if build(faces, _ORDER) is None:
                text, why_rule = _split_rule(explain(faces, _ORDER), "M4")
                return _illegal(action, text, why_rule)
            return self._dead_end(action)
        table = self.table
        if onto >= len(table):
            return _illegal(action, f"there is no combination @{onto} on the table", "M5")
        combo = table[onto]
        if isinstance(action, Meld) and combo.owner != p:
            return _illegal(
                action,
                f"combination @{onto} ({combo}) belongs to seat {combo.owner}: "
                "add to it with force, one card at a time",
                "M5",
            )
        if isinstance(action, Force) and combo.owner == p:
            return _illegal(
                action, f"combination @{onto} ({combo}) is his own: add to it with meld", "M5"
            )
        if action.shift:
            if len(faces) != 1:
                return _illegal(
                    action,
                    "a joker shift plays exactly one card (law 18); add the others after",
                    "M9",
                )
            if not _has_shiftable_joker(combo):
                return _illegal(
                    action,
                    f"combination @{onto} ({combo}) has no joker at an end of a sequence "
                    "that may be shifted",
                    "M9",
                )
            if not shifts(combo, faces[0], _ORDER):
                return _illegal(
                    action,
                    f"{faces[0]} does not fit combination @{onto} ({combo}) with its joker shifted",
                    "M9",
                )
            return self._dead_end(action)
        if extend(combo, faces, _ORDER) is None:
            shown = " ".join(map(str, faces))
            verb = "does" if len(faces) == 1 else "do"
            return _illegal(action, f"{shown} {verb} not fit combination @{onto} ({combo})", "M5")
        return self._dead_end(action)

    def _dead_end(self, action: object) -> IllegalActionError:
        return _illegal(
            action,
            f"he could not finish his turn: only {self._taken}, which he took from the stock "
            "and may not discard, would be left, and it cannot all be laid off",
            "M2",
        )

    # -- what a player may know (C6) -----------------------------------------

    def view(self, player: int) -> CooncanView:
        """All that `player` may know of this deal, and nothing more (C6).

        >>> v = new_game(CooncanRules.three_hand(), seed=3).view(0)
        >>> v.hand_sizes, len(v.unseen), v.known_pack is None
        ((7, 7, 7), 44, True)
        """
        n = len(self._hands)
        if type(player) is not int or not 0 <= player < n:
            raise ValueError(f"no seat {player!r} in a game of {n}")
        counts = [0] * 53
        for c in self.rules.pack_cards():
            counts[c.index] += 1
        seen: list[Card] = [*self._hands[player], *self.stock]
        for combo in self.table:
            seen.extend(combo.physical_cards)
        for q in range(n):
            if q != player:
                seen.extend(self._known[q])
        known_pack = self.pack if self._pack_known else None
        if known_pack is not None:
            seen.extend(known_pack)
        for c in seen:
            counts[c.index] -= 1
        unseen = tuple(card_at(i) for i in range(53) for _ in range(counts[i]))
        return CooncanView(
            rules=self.rules,
            player=player,
            dealer=self.dealer,
            current_player=self.current_player,
            phase=self.phase,
            hand=self._hands[player],
            hand_sizes=tuple(len(h) for h in self._hands),
            table=self.table,
            stock=self.stock,
            pack_size=self.pack_size,
            known=self._known,
            known_pack=known_pack,
            history=self.history,
            turns=self.turns,
            result=self.result,
            legal_actions=self.legal_actions() if player == self.current_player else (),
            unseen=unseen,
        )


_INIT_FIELDS = tuple(a for a in attrs.fields(CooncanState) if a.init and a.name != "_fit")
_LOG_AT = [a.name for a in _INIT_FIELDS].index("_log")


def _restore(*values: Any) -> CooncanState:
    """Rebuild a pickled state (see `CooncanState.__reduce__`)."""
    args = list(values)
    log = History()
    for action in args[_LOG_AT]:
        log = log.append(action)
    args[_LOG_AT] = log
    return CooncanState(*args)


def _replace(values: tuple[object, ...], i: int, value: object) -> tuple:  # type: ignore[type-arg]
    """`values` with `value` at `i`; the same tuple when nothing changes (shared, memory)."""
    if values[i] is value:
        return values
    return (*values[:i], value, *values[i + 1 :])


@attrs.frozen
class CooncanView(PlayerView):
    """What one player of a Cooncan deal may know (C6); `CooncanState.view` makes it.

    His own `hand`; the size of every hand; the `table`, the `stock` and
    the `history` (a draw shows no card); `known`: per seat, the cards
    known to be in that hand (taken from the stock, or drawn from a pack
    made of the turned stock, M11); `known_pack`: the pack, top first, when
    it is the turned stock that everyone saw, else None; his
    `legal_actions` when it is his turn; and `unseen`, the cards whose place
    he cannot know. Never the deck, the pack's hidden order or the unknown
    part of another hand.

    >>> v = new_game(CooncanRules.three_hand(), seed=3).view(1)
    >>> v.player, v.current_player, [str(a) for a in v.legal_actions]
    (1, 1, ['draw', 'take 3D'])
    >>> new_game(CooncanRules.three_hand(), seed=3).view(2).legal_actions
    ()
    """

    rules: CooncanRules
    player: int
    dealer: int
    current_player: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Combination, ...]
    stock: tuple[Card, ...]
    pack_size: int
    known: tuple[tuple[Card, ...], ...]
    known_pack: tuple[Card, ...] | None
    history: tuple[Action, ...]
    turns: int
    result: Result | None
    legal_actions: tuple[Action, ...]
    unseen: tuple[Card, ...]

    # -- bridges (conquian.determinize, conquian.encoding) --
    def sample_state(self, rng: random.Random) -> CooncanState:
        """A whole deal drawn among those that give this view (C6).

        See `conquian.determinize`: the state's ``view(self.player)`` equals this view.

        >>> view = new_game(CooncanRules.three_hand(), seed=3).apply("draw").view(0)
        >>> view.sample_state(random.Random(3)).view(0) == view
        True
        """
        return sample_cooncan(self, rng, deal)

    def observation(self) -> tuple[float, ...]:
        """This view as a fixed-length tuple of floats (`conquian.encoding.observation`)."""
        return observation(self)

    # -- end bridges --


def deal(rules: CooncanRules, deck: tuple[Card, ...], dealer: int) -> CooncanState:
    """The first state of a deal from the whole `deck`, top card first (M1, laws 8, 11).

    One card at a time from the dealer's left, ending with the dealer, until
    each player has his hand (7 in three-hand, 10 with the double pack); the
    next card is turned up to start the stock and the rest is the pack. The
    player at the dealer's left plays first. `new_game` checks the deck and
    calls this.

    >>> top = cards("AC AD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D KS QS")
    >>> s = deal(CooncanRules.three_hand(players=2),
    ...          top + tuple(c for c in make_pack() if c not in top), dealer=1)
    >>> " ".join(map(str, s.hand(0))), s.stock, s.pack[0]
    ('AC 2C 3C 4C 5C 6C 7C', (card('KS'),), card('QS'))
    """
    n, size = rules.players, rules.hand_size
    deck = tuple(card_at(c.index) for c in deck)  # the engine compares cards by identity
    hands: list[list[Card]] = [[] for _ in range(n)]
    for k in range(n * size):
        hands[(dealer + 1 + k) % n].append(deck[k])
    start = n * size
    return CooncanState(
        rules=rules,
        dealer=dealer,
        deck=deck,
        hands=tuple(tuple(sorted(h)) for h in hands),
        table=(),
        stock=(deck[start],),
        pack=deck,
        pack_at=start + 1,
        pack_known=False,
        current_player=(dealer + 1) % n,
        phase="draw",
        taken=None,
        known=((),) * n,
        opened=(-1,) * n,
        turns=0,
        log=History(),
        result=None,
    )


# -- seats and the first deal (M13) -------------------------------------------


@attrs.frozen
class Cut:
    """The outcome of cutting for seats and the first deal (M13, laws 2–4).

    `seats` lists the players in seat order: seat 0 is the highest cut, who
    chose his seat and deals first (`dealer` is 0), the next highest sits on
    his left (seat 1), and so on. `rounds` records every round of cutting:
    the players who cut and the card each drew, ties cutting again.
    """

    seats: tuple[str, ...]
    dealer: int
    rounds: tuple[tuple[tuple[str, Card], ...], ...]


def _cut_rank(c: Card) -> int:
    """Law 2: the king high, then down to the ace, the joker lowest; suits do not count."""
    return c.rank  # the joker's rank is 0


def cut_for_deal(players: Sequence[str], seed: int, rules: CooncanRules | None = None) -> Cut:
    """Cut for seats and the first deal with the seeded shuffle (M13, laws 2–4, p. 3).

    Each player draws a card from the pack of `rules` (default: the double
    pack) shuffled by `seed` (`conquian.game.shuffle`): the highest cut has
    the choice of seats and deals first, the next highest sits on his left,
    and so on; players who tie cut again from the cards left, and the second
    cut decides only the tie (law 2). If the pack runs short it is gathered
    and shuffled again with the next seed. Forming and reforming tables
    (laws 3 and 4: who plays when more than five want to, reseating every
    hour) are choices of the people at the table, not of a deal: they are not
    applicable to the engine. Later deals pass to the left (law 8): deal the
    next game with ``dealer=(dealer + 1) % players``.

    >>> cut = cut_for_deal(["Jones", "Smith", "Brown", "White", "Green"], seed=2)
    >>> cut.seats, cut.dealer
    (('Smith', 'White', 'Jones', 'Brown', 'Green'), 0)
    """
    names = tuple(players)
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError("cutting needs two or more players with different names")
    pack = (rules or CooncanRules.double_pack()).pack_cards()
    draws = shuffle(pack, seed)
    at = 0
    reshuffles = 0
    rounds: list[tuple[tuple[str, Card], ...]] = []

    def cut(group: tuple[str, ...]) -> list[tuple[str, ...]]:
        """Order `group` from the highest cut down, breaking ties by cutting again."""
        nonlocal at, draws, reshuffles
        if len(group) == 1:
            return [group]
        if at + len(group) > len(draws):
            reshuffles += 1
            draws, at = shuffle(pack, seed + reshuffles), 0
        drawn = tuple(zip(group, draws[at : at + len(group)], strict=True))
        at += len(group)
        rounds.append(drawn)
        by_rank: dict[int, list[str]] = {}
        for name, c in drawn:
            by_rank.setdefault(_cut_rank(c), []).append(name)
        out: list[tuple[str, ...]] = []
        for rank in sorted(by_rank, reverse=True):
            out.extend(cut(tuple(by_rank[rank])))
        return out

    ordered = [name for group in cut(names) for name in group]
    return Cut(seats=tuple(ordered), dealer=0, rounds=tuple(rounds))
