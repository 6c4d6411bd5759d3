"""Numbers for learning frameworks: action ids (`ActionSpace`) and observations.

`ActionSpace(rules)` is a fixed bijection between the actions a deal under
`rules` can ever offer and the ids ``0 … len(space) - 1``. The ids are a
published format: for given rules they never change between releases (a
golden file in the tests pins them). The layout, family by family (the docs
page *Action ids and observations* gives the sizes):

1. ``pass`` (two-hand) or ``draw`` (Cooncan): one id;
2. ``take c`` and then ``discard c``: one id per distinct card of the pack,
   in canonical order (C1);
3. ``force f @i``: one id per face `f` and meld index `i` (face-major);
   with jokers, the faces are the cards, then each card's named joker
   (``JK=4D``), then the jokers named by rank (``JK=5``); then, with jokers,
   ``force f @i shift`` for the cards and the jokers naming a card (M9);
4. ``borrow c @i`` (two-hand only, T9): card-major;
5. ``meld <combination>``: every combination that may be laid down new,
   shortest first, then by its cards in canonical order;
6. ``meld <cards> @i``: every set of cards that may be added at once to a
   combination (a fourth card of a group, cards at either end of a sequence,
   jokers named), in the same order, each with every index;
7. ``meld f @i shift`` (with jokers, M9);
8. ``trade c`` (Conquian with ``trades``, T21 only): one id per card, in canonical
   order, after every other id, so that the ids of rules without trading are
   unchanged.

A meld is named by the combination it makes or the cards it adds, never by
the order of its cards (the action's cards are canonical). Meld indices run
below the most melds the rules allow on the table: six in the two-hand game
(no player can have four melds: twelve cards would have won, T2), and a third
of the pack in Cooncan (every meld holds three cards or more, C3).

>>> space = ActionSpace(ConquianRules())
>>> len(space), space.index(parse_action("pass")), str(space.action(1))
(4247, 0, 'take AC')
>>> space.index(parse_action("meld 6H 4H 5H")) == space.index(parse_action("meld 4H 5H 6H"))
True

`observation(view)` is a fixed-length tuple of floats for a view, built
from the view alone (layout in `observation_layout`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from ..actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, Trade, parse_action
from ..cards import FACES, Card, Face, NamedJoker, Suit, face_code
from ..combos.core import Order
from ..rules import Rules
from ..state.game import game_of

# Observer lives apart (this module is long); it is part of conquian.encoding.
from .factored import FactoredActions
from .observer import Observer, layout_of
from .observer import most_melds as _most_melds

__all__ = ["ActionSpace", "FactoredActions", "Observer", "observation", "observation_layout"]

_Faces = tuple[Face, ...]


def _offers(rules: Rules) -> bool:
    """Whether a card lies on offer in these rules' game (T4: Conquian: passing, borrowing),
    rather than a draw and a face-up stock (M2): the zones the game shows say."""
    return "offer" in game_of(rules).zones


def _most_added(rules: Rules, onto: int) -> int:
    """The most cards one `Meld` can add to the meld at index `onto` (the game says)."""
    return game_of(rules).most_added(rules, onto)


def _copies(rules: Rules) -> int:
    return rules.copies


def _jokers(rules: Rules) -> int:
    return rules.jokers


def _largest_meld(rules: Rules) -> int:
    """The most cards a new meld can hold (the game says)."""
    return game_of(rules).largest_meld(rules)


def _order(rules: Rules) -> Order:
    return game_of(rules).order(rules)


def _key(codes: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (len(codes), codes)


def _with_jokers(
    positions: Sequence[int], suit: Suit, order: Order, jokers: int
) -> Iterator[tuple[int, ...]]:
    """The cards at `positions` of `suit`, each itself or a joker naming it (C5), as codes."""
    natural = [suit * 13 + order.rank_at[p] - 1 for p in positions]
    yield tuple(sorted(natural))
    for k in range(1, min(jokers, len(positions)) + 1):
        for chosen in itertools.combinations(range(len(positions)), k):
            codes = list(natural)
            for at in chosen:
                codes[at] += 53
            yield tuple(sorted(codes))


def _group_sets(
    rank: int, copies: int, jokers: int, low: int, high: int, naturals_at_most: int
) -> Iterator[tuple[int, ...]]:
    """Cards of one rank: up to `copies` of each suit and jokers named by the rank (C5),
    from `low` to `high` cards in all, as codes."""
    for counts in itertools.product(range(copies + 1), repeat=4):
        naturals = sum(counts)
        if naturals > naturals_at_most:
            continue
        codes = tuple(s * 13 + rank - 1 for s in range(4) for _ in range(counts[s]))
        for k in range(jokers + 1):
            if low <= naturals + k <= high:
                yield codes + (104 + rank,) * k


def _pieces(order: Order, cap: int) -> Iterator[list[int]]:
    """The positions that may be added at once to a sequence (C4, T14, M5), at most `cap`:
    a piece just below it, a piece just above it, or both, around three places or more."""
    top, longest = order.top, order.longest

    def allowed(low: int, high: int) -> bool:
        corner = order.ace_high and low == 0 and high == top  # law 16
        return high - low + 1 <= longest and not corner

    for low in range(top + 1):
        for first in range(low + 1, top - 1):  # below: low .. first - 1
            if first - low <= cap and allowed(low, first + 2):
                yield list(range(low, first))
    for last in range(2, top + 1):
        for high in range(last + 1, top + 1):  # above: last + 1 .. high
            if high - last <= cap and allowed(last - 2, high):
                yield list(range(last + 1, high + 1))
    for low in range(top + 1):
        for first in range(low + 1, top + 1):
            for last in range(first + 2, top + 1):
                for high in range(last + 1, top + 1):
                    size = first - low + high - last
                    if size <= cap and allowed(low, high):
                        yield [*range(low, first), *range(last + 1, high + 1)]


_Patterns = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


def _patterns(rules: Rules) -> _Patterns:
    """The new combinations (M4, T8) and the additions (M5, T8) of these rules, as sorted
    codes, in id order: fewest cards first, then by the codes."""
    return _patterns_of(
        _order(rules), _copies(rules), _jokers(rules), _largest_meld(rules), _most_added(rules, 0)
    )


@functools.lru_cache(maxsize=8)
def _patterns_of(order: Order, copies: int, jokers: int, cap: int, most: int) -> _Patterns:
    """`_patterns` from what decides them (rules that differ only in players or stakes
    share them): bounded, and each entry is made once."""
    new: set[tuple[int, ...]] = set()
    added: set[tuple[int, ...]] = set()
    ranks = sorted(set(order.rank_at))
    # A group on the table holds three cards, one natural at least (C3, C5).
    on_table = max(1, 3 - jokers)
    for rank in ranks:
        new.update(_group_sets(rank, copies, jokers, 3, cap, 4 * copies))
        added.update(_group_sets(rank, copies, jokers, 1, most, 4 * copies - on_table))
    for suit in Suit:
        for first in range(order.top + 1):
            for last in range(first + 2, min(order.top, first + min(order.longest, cap) - 1) + 1):
                if not (order.ace_high and first == 0 and last == order.top):
                    new.update(_with_jokers(range(first, last + 1), suit, order, jokers))
        for places in _pieces(order, most):
            added.update(_with_jokers(places, suit, order, jokers))
    return tuple(sorted(new, key=_key)), tuple(sorted(added, key=_key))


class ActionSpace:
    """A fixed bijection between the actions of a deal under `rules` and ``0 … len - 1``.

    See the module for the layout. `index` raises `ValueError` for an action no
    deal under these rules can offer (as `tuple.index` does) and `TypeError` for
    anything but an action or its text; `action` raises `ValueError` for an id
    out of range.

    >>> space = ActionSpace(CooncanRules.three_hand())
    >>> meld = parse_action("meld 7H 5H 6H")
    >>> space.index(parse_action("draw")), space.action(space.index(meld)) == meld
    (0, True)
    """

    def __init__(self, rules: Rules) -> None:
        game = game_of(rules)  # a TypeError for anything but a rules object
        self.rules = rules
        self.most_melds = _most_melds(rules)
        self._memo: dict[Any, int] = {}
        # A game with its own numbering (Coo-Can: `conquian.coocan.ids`) gives its ids.
        self._own = game.action_ids(rules)
        if self._own is not None:
            self._offers = False
            self._len = len(self._own)
            self.families: tuple[tuple[str, int, int], ...] = self._own.families
            return
        m = self.most_melds
        self._offers = _offers(rules)
        self._cards: tuple[Card, ...] = tuple(sorted(set(rules.pack_cards())))
        self._card_at = {c: k for k, c in enumerate(self._cards)}
        naturals = [c for c in self._cards if c.suit is not None]
        named: list[Face] = []
        if _jokers(rules):
            named = [NamedJoker(c.rank, c.suit) for c in naturals]
            named += [NamedJoker(r) for r in range(1, 14)]
        self._force_faces: tuple[Face, ...] = (*naturals, *named)
        self._shift_faces: tuple[Face, ...] = (
            (*naturals, *named[: len(naturals)]) if _jokers(rules) else ()
        )
        if _jokers(rules) == 1:
            self._shift_faces = tuple(naturals)  # one joker: it is the one on the table
        self._force_at = {f: k for k, f in enumerate(self._force_faces)}
        self._shift_at = {f: k for k, f in enumerate(self._shift_faces)}
        self._new, self._added = _patterns(rules)
        self._new_at = {f: k for k, f in enumerate(self._new)}
        self._added_at = {f: k for k, f in enumerate(self._added)}
        # Onto index i takes the additions of at most `_most_added(rules, i)` cards: a
        # prefix of `_added`, which is sorted by size. Index-major: i, then the addition.
        sizes_added = [len(f) for f in self._added]
        self._onto_count = tuple(
            bisect.bisect_right(sizes_added, max(0, _most_added(rules, i))) for i in range(m)
        )
        self._onto_start = tuple(itertools.accumulate(self._onto_count, initial=0))
        sizes = [
            ("first", 1),
            ("take", len(self._cards)),
            ("discard", len(self._cards)),
            ("force", len(self._force_faces) * m),
            ("force shift", len(self._shift_faces) * m),
            ("borrow", len(self._cards) * m if self._offers else 0),
            ("meld", len(self._new)),
            ("meld onto", self._onto_start[-1]),
            ("meld shift", len(self._shift_faces) * m),
        ]
        self._trades = bool(getattr(rules, "trades", 0))
        if self._trades:  # T21: added after every other family
            sizes.append(("trade", len(self._cards)))
        self.families = tuple(
            (name, start, size)
            for (name, size), start in zip(
                sizes, itertools.accumulate((s for _, s in sizes), initial=0), strict=False
            )
        )
        self._start = {name: start for name, start, _ in self.families}
        self._len = sum(s for _, s in sizes)
        # `_memo` keeps the ids found so far: the same actions come back deal after deal, and
        # a dict lookup costs a third of working an id out (a meld's codes sorted, looked up).

    @staticmethod
    def of(rules: Rules) -> ActionSpace:
        """The shared `ActionSpace` of `rules`: one per rules object (equal rules share it) in
        a process, from a bounded cache of the last `SHARED_SPACES` rules used. The
        environments and the OpenSpiel games take theirs here, so that many environments of
        one game hold one space (a double-pack space weighs about 4.6 MiB).

        >>> ActionSpace.of(ConquianRules()) is ActionSpace.of(ConquianRules())
        True
        """
        return _shared_space(rules)

    def __len__(self) -> int:
        return self._len

    def __repr__(self) -> str:
        return f"ActionSpace({self.rules!r})  # {self._len} ids"

    def index(self, action: Action) -> int:
        """The id of `action` (its text is read too); `ValueError` if no deal offers it."""
        try:
            found = self._memo.get(action)
        except TypeError:  # unhashable: not an action, which `_index` says
            found = None
        if found is not None:
            return found
        if isinstance(action, str):
            action = parse_action(action)
        found = self._index(action)
        if len(self._memo) >= 100_000:  # bounded: the actions of a few thousand deals
            self._memo.clear()
        self._memo[action] = found
        return found

    def _index(self, action: Action) -> int:
        if not isinstance(action, (Pass, Draw, Take, Discard, Force, Borrow, Meld, Trade)):
            raise TypeError(f"action must be an action or its text (got {type(action).__name__})")
        if self._own is not None:
            found: int = self._own.index(action)
            return found
        start, m = self._start, self.most_melds
        kind = type(action)
        try:
            if kind is (Pass if self._offers else Draw):
                return 0
            if isinstance(action, Take):
                return start["take"] + self._card_at[action.card]
            if isinstance(action, Discard):
                return start["discard"] + self._card_at[action.card]
            if kind is Trade and self._trades:
                assert isinstance(action, Trade)
                if action.card is not None:
                    return start["trade"] + self._card_at[action.card]
            if kind is Force:
                assert isinstance(action, Force)
                self._check_index(action.onto)
                if action.shift:
                    return start["force shift"] + self._shift_at[action.card] * m + action.onto
                return start["force"] + self._force_at[action.card] * m + action.onto
            if kind is Borrow and self._offers:
                assert isinstance(action, Borrow)
                self._check_index(action.source)
                return start["borrow"] + self._card_at[action.card] * m + action.source
            if kind is Meld:
                assert isinstance(action, Meld)
                codes = tuple(sorted(map(face_code, action.cards)))
                if action.onto is None:
                    return start["meld"] + self._new_at[codes]
                self._check_index(action.onto)
                if action.shift:
                    (face,) = action.cards
                    return start["meld shift"] + self._shift_at[face] * m + action.onto
                k = self._added_at[codes]
                if k >= self._onto_count[action.onto]:
                    raise KeyError(action.onto)
                return start["meld onto"] + self._onto_start[action.onto] + k
        except (KeyError, ValueError):
            pass
        raise ValueError(f"no deal under these rules offers the action '{action}'")

    def _check_index(self, i: int) -> None:
        if not 0 <= i < self.most_melds:
            raise KeyError(i)

    def action(self, i: int) -> Action:
        """The action with id `i`; `ValueError` out of range."""
        if type(i) is not int and not hasattr(i, "__index__"):
            raise TypeError(f"an action id is an int (got {type(i).__name__})")
        i = int(i)
        if not 0 <= i < self._len:
            raise ValueError(f"no action id {i}: ids run from 0 to {self._len - 1}")
        if self._own is not None:
            own: Action = self._own.action(i)
            return own
        m = self.most_melds
        name, k = "", i
        for family, start, size in self.families:
            if i < start + size:
                name, k = family, i - start
                break
        if name == "first":
            return Pass() if self._offers else Draw()
        if name == "take":
            return Take(self._cards[k])
        if name == "discard":
            return Discard(self._cards[k])
        if name == "trade":
            return Trade(self._cards[k])
        face, onto = divmod(k, m)
        if name == "force":
            return Force(self._force_faces[face], onto=onto)
        if name == "force shift":
            return Force(self._shift_faces[face], onto=onto, shift=True)
        if name == "borrow":
            return Borrow(self._cards[face], source=onto)
        if name == "meld":
            return Meld(tuple(FACES[c] for c in self._new[k]))
        if name == "meld onto":
            onto = bisect.bisect_right(self._onto_start, k) - 1
            codes = self._added[k - self._onto_start[onto]]
            return Meld(tuple(FACES[c] for c in codes), onto=onto)
        return Meld((self._shift_faces[face],), onto=onto, shift=True)

    def ids(self, view: Any) -> tuple[int, ...]:
        """The ids of the view's legal actions, in the order of `view.legal_actions`."""
        if not isinstance(getattr(view, "legal_actions", None), tuple):
            raise TypeError(f"view must be a player's view (got {type(view).__name__})")
        return tuple(self.index(a) for a in view.legal_actions)

    def mask(self, view: Any) -> tuple[int, ...]:
        """A tuple of ``len(self)`` 0s and 1s: 1 at the id of each legal action of `view`."""
        out = bytearray(self._len)
        for i in self.ids(view):
            out[i] = 1
        return tuple(out)


SHARED_SPACES = 8
"""How many rules objects' spaces `ActionSpace.of` keeps (the least recently used goes)."""


@functools.lru_cache(maxsize=SHARED_SPACES)
def _shared_space(rules: Rules) -> ActionSpace:
    return ActionSpace(rules)


def _distinct(rules: Rules) -> tuple[Card, ...]:
    return tuple(sorted(set(rules.pack_cards())))


def observation_layout(rules: Rules, public: bool = False) -> tuple[tuple[str, int], ...]:
    """The parts of `observation` for `rules`, in order, each with its length.

    Card planes have one entry per distinct card of the pack in canonical
    order (C1), holding how many of it (0, 1, or 2 in the double pack). Seats
    are counted from the viewer: 0 is himself, 1 the player to his left (the
    opponent in the two-hand game), and so on. With `public`, the parts of the
    public observation (`Observer` with ``public=True``): no hand, no unseen
    cards, the known cards of every hand, seats counted from seat 0.

    >>> observation_layout(ConquianRules())[:3]
    (('hand', 40), ('table', 258), ('to play', 3))
    >>> sum(n for _, n in observation_layout(CooncanRules.three_hand()))
    1271
    """
    return layout_of(rules, public)


@functools.lru_cache(maxsize=16)
def _card_slots(rules: Rules) -> dict[int, int]:
    return {c.index: k for k, c in enumerate(_distinct(rules))}


def observation(view: Any) -> tuple[float, ...]:
    """The view as a fixed-length tuple of floats, laid out as `observation_layout` says.

    Built from the view alone (C6): the player's hand; each meld on the table
    by its index (present, owner, cards: a joker counts as the joker); whose
    turn it is (or the deal over); every hand's size; then, in the two-hand
    game, the card on offer and its origin (T4), the pending and buried cards
    and the stock's size; in Cooncan, the phase (M2), the face-up stock and its
    top card (M3), the cards known in each other hand (C6), the turned-over
    pack when known (M11), the pack's size and the turns played; last the
    unseen cards.

    >>> view = new_game(ConquianRules(), seed=7).view(0)
    >>> obs = observation(view)
    >>> len(obs) == sum(n for _, n in observation_layout(view.rules)), sum(obs[:40])
    (True, 10.0)
    """
    rules = view.rules
    if game_of(rules).observation_layout(rules, False) is not None:  # its own (Coo-Can)
        own: tuple[float, ...] = view.observation()
        return own
    slots = _card_slots(rules)
    d, n, m = len(slots), rules.players, _most_melds(rules)
    me = view.player

    def plane(cards: Sequence[Card]) -> list[float]:
        out = [0.0] * d
        for c in cards:
            out[slots[c.index]] += 1.0
        return out

    def seat(p: int | None) -> list[float]:
        out = [0.0] * (n + 1)
        out[n if p is None else (p - me) % n] = 1.0
        return out

    obs = plane(view.hand)
    for i in range(m):
        if i < len(view.table):
            meld = view.table[i]
            obs += [1.0, *seat(meld.owner)[:n], *plane(meld.physical_cards)]
        else:
            obs += [0.0] * (1 + n + d)
    obs += seat(view.current_player)
    obs += [float(view.hand_sizes[(me + k) % n]) for k in range(n)]
    if _offers(rules):
        obs += plane(() if view.offer is None else (view.offer,))
        obs += [float(view.offer_origin == o) for o in ("turned", "passed", "discarded")]
        obs += [*plane(view.pending), *plane(view.buried), float(view.stock_size)]
        if rules.trades:  # T21: the round under way, and the cards he knows he gave
            chosen = [0.0] * n
            for q in view.traded:
                chosen[(q - me) % n] = 1.0
            obs += [float(view.trading), *chosen]
            for k in range(1, n):
                obs += plane(view.known[(me + k) % n])
    else:
        obs += [float(view.phase == "draw"), float(view.phase == "play")]
        obs += plane(view.stock) + plane(view.stock[-1:])
        for k in range(1, n):
            obs += plane(view.known[(me + k) % n])
        obs += [*plane(view.known_pack or ()), float(view.pack_size), float(view.turns)]
    obs += plane(view.unseen)
    return tuple(obs)
