"""Combinations: groups and sequences (rules C3, C4, C5, T9, T10, T14, M5, M9).

A combination is a **group** (three or more cards of one rank) or a
**sequence** (three or more cards of one suit in unbroken order). What order
is unbroken depends on the pack (C4), so every function here takes an
`Order`: the 40-card packs with the ace low only, or the 52-card pack whose
ace is low or high but never both (law 16), and an optional limit on the
length of a sequence (T14).

>>> spanish = Order.of("spanish")
>>> str(build(cards("6C 7C JC"), spanish))
'6C 7C JC'
>>> build(cards("QC KC AC"), spanish) is None
True
>>> str(build(cards("AC QC KC"), Order.of("standard")))
'QC KC AC'

Jokers lie on the table as `NamedJoker`s (C5):

>>> str(build((joker("6H"), *cards("4H 5H 7H")), Order.of("standard")))
'4H 5H JK=6H 7H'

Everything returns new values; combinations are never changed in place.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import suppress
from typing import Final

import attrs

from ..cards import FACES, JOKER, Card, Face, NamedJoker, Suit, card_at, face_code, sort_key
from .order import Order as Order
from .reasons import explain as explain

__all__ = [
    "Combination",
    "Kind",
    "Order",
    "borrow",
    "borrowable",
    "build",
    "explain",
    "extend",
    "extensions",
    "fits",
    "fitting",
    "melds_in",
    "shifts",
]


class Kind(str, enum.Enum):
    """The two kinds of combination (C3).

    >>> build(cards("5C 5D 5H"), Order.of("spanish")).kind, str(Kind.SEQUENCE)
    (<Kind.GROUP: 'group'>, 'sequence')
    """

    GROUP = "group"
    SEQUENCE = "sequence"

    def __str__(self) -> str:
        return self.value


@attrs.frozen(cache_hash=True)
class Combination:
    """A valid group or sequence as it lies on the table, with its owner's seat.

    `cards` are in canonical order: a sequence from its low end to its high
    end, a group by suit with jokers last. Build one with `build`.

    >>> combo = build(cards("5S 5C 5H"), Order.of("spanish"), owner=1)
    >>> combo.kind, str(combo), combo.owner
    (<Kind.GROUP: 'group'>, '5C 5H 5S', 1)
    """

    kind: Kind
    cards: tuple[Face, ...]
    owner: int = 0

    def _repr_svg_(self) -> str:
        """The combination drawn as cards, for Jupyter (`conquian.render.svg.render`)."""
        from ..render import svg

        return svg.render(self)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def physical_cards(self) -> tuple[Card, ...]:
        """The cards themselves, a named joker counted as the joker it is.

        >>> build((joker("5"), *cards("5C 5D")), Order.of("standard")).physical_cards
        (card('5C'), card('5D'), card('JK'))
        """
        return tuple(JOKER if type(f) is NamedJoker else f for f in self.cards)  # type: ignore[misc]

    @property
    def suit(self) -> Suit | None:
        """The suit of a sequence; None for a group."""
        return self.cards[0].suit if self.kind is Kind.SEQUENCE else None

    @property
    def rank(self) -> int | None:
        """The rank of a group; None for a sequence."""
        return self.cards[0].rank if self.kind is Kind.GROUP else None


def _seq_positions(faces: Sequence[Face], order: Order) -> list[int] | None:
    """The positions of a would-be sequence's cards, or None (ace high tried second)."""
    position = order.position
    pos = [position[f.rank] for f in faces]
    if -1 in pos:
        return None
    if len(set(pos)) == len(pos) and max(pos) - min(pos) == len(pos) - 1:
        return pos
    if order.ace_high and 0 in pos:
        top = order.top  # the high ace's place (T26, law 16)
        pos = [top if p == 0 else p for p in pos]
        if len(set(pos)) == len(pos) and max(pos) - min(pos) == len(pos) - 1:
            return pos
    return None


def build(faces: Iterable[Face], order: Order, owner: int = 0) -> Combination | None:
    """The combination these cards make, in canonical order, or None (C3, C4, C5).

    A joker must be named: by rank alone in a group (``JK=5``), by rank and
    suit in a sequence (``JK=4D``). `explain` says why a set is not valid.

    >>> str(build(cards("7H 5H 6H"), Order.of("american")))
    '5H 6H 7H'
    >>> build(cards("KH AH 2H"), Order.of("standard")) is None
    True
    """
    faces = tuple(faces)
    n = len(faces)
    if n < 3 or JOKER in faces:
        return None
    first = faces[0]
    rank = first.rank
    if all(f.rank == rank for f in faces):
        if any(type(f) is NamedJoker and f.suit is not None for f in faces):
            return None
        return Combination(Kind.GROUP, tuple(sorted(faces, key=sort_key)), owner)
    suit = first.suit
    if suit is None or any(f.suit is not suit for f in faces):
        return None
    if order.max_sequence is not None and n > order.max_sequence:
        return None
    pos = _seq_positions(faces, order)
    if pos is None:
        return None
    ordered = tuple(f for _, f in sorted(zip(pos, faces, strict=True), key=lambda pf: pf[0]))
    return Combination(Kind.SEQUENCE, ordered, owner)


def _bounds(combo: Combination, order: Order) -> tuple[int, int]:
    """The low and high positions of a sequence."""
    position = order.position
    low = position[combo.cards[0].rank]
    last = combo.cards[-1].rank
    high = order.top if last == 1 else position[last]  # an ace last is high (T26, law 16)
    return low, high


def extend(combo: Combination, faces: Iterable[Face], order: Order) -> Combination | None:
    """The combination with these cards added, or None if it would not be valid (M5, T8).

    The result is of the same kind and owner; the cards already there keep
    their places and jokers keep their names.

    >>> o = Order.of("spanish")
    >>> str(extend(build(cards("5C 6C 7C"), o), cards("JC QC"), o))
    '5C 6C 7C JC QC'
    """
    faces = tuple(faces)
    if not faces:
        return None
    bigger = build(combo.cards + faces, order, combo.owner)
    if bigger is None or bigger.kind is not combo.kind:
        return None
    return bigger


def fits(combo: Combination, face: Face, order: Order) -> Combination | None:
    """The larger combination if `face` alone fits `combo`, else None (T10, M5, T14).

    >>> o = Order.of("spanish", max_sequence=8)
    >>> seq = build(cards("AH 2H 3H 4H 5H 6H 7H JH"), o)
    >>> fits(seq, card("QH"), o) is None
    True
    """
    return extend(combo, (face,), order)


def fitting(combo: Combination, order: Order) -> tuple[Card, ...]:
    """The cards that fit `combo` on their own, in canonical order (T10, M5).

    For a group, every card of its rank (the double pack holds each twice,
    and a group may take both); for a sequence, the card at each open end.

    >>> o = Order.of("spanish")
    >>> fitting(build(cards("6S 7S JS"), o), o)
    (card('5S'), card('QS'))
    """
    if combo.kind is Kind.GROUP:
        rank = combo.cards[0].rank
        return tuple(card_at(s * 13 + rank - 1) for s in Suit)
    if order.max_sequence is not None and len(combo.cards) >= order.max_sequence:
        return ()
    suit = combo.cards[0].suit
    assert suit is not None
    low, high = _bounds(combo, order)
    out = set()
    top = order.top
    if low > 0 and not (order.ace_high and low == 1 and high == top):
        out.add(order.card_at(low - 1, suit))
    if high < top and not (order.ace_high and low == 0 and high == top - 1):
        out.add(order.card_at(high + 1, suit))
    return tuple(sorted(out))


def borrowable(combo: Combination, middle: bool = True) -> tuple[Card, ...]:
    """The cards that may be borrowed from `combo`, leaving valid combinations (T9).

    One card of a group of four or more; an end card of a sequence of four or
    more; with `middle`, an inner card that leaves two sequences of three or
    more on either side.

    >>> o = Order.of("spanish")
    >>> borrowable(build(cards("AC 2C 3C 4C 5C 6C 7C"), o), middle=True)
    (card('AC'), card('4C'), card('7C'))
    >>> borrowable(build(cards("AC 2C 3C 4C 5C 6C 7C"), o), middle=False)
    (card('AC'), card('7C'))
    """
    faces = combo.cards
    n = len(faces)
    if n < 4:
        return ()
    if combo.kind is Kind.GROUP:
        return tuple(sorted({f for f in faces if type(f) is Card}))
    picks = [faces[0], faces[-1]]
    if middle:
        picks += faces[3 : n - 3]
    return tuple(sorted(f for f in set(picks) if isinstance(f, Card)))


def borrow(combo: Combination, taken: Card, middle: bool = True) -> tuple[Combination, ...] | None:
    """What remains of `combo` when `taken` is borrowed from it, or None if not allowed (T9).

    One combination, or two when a sequence is split in the middle (the lower
    piece first).

    >>> o = Order.of("spanish")
    >>> [str(c) for c in borrow(build(cards("AC 2C 3C 4C 5C 6C 7C"), o), card("4C"))]
    ['AC 2C 3C', '5C 6C 7C']
    """
    if taken not in borrowable(combo, middle):
        return None
    faces = combo.cards
    if combo.kind is Kind.GROUP:
        i = faces.index(taken)
        return (attrs.evolve(combo, cards=faces[:i] + faces[i + 1 :]),)
    i = faces.index(taken)
    if i == 0 or i == len(faces) - 1:
        return (attrs.evolve(combo, cards=faces[:i] + faces[i + 1 :]),)
    return (attrs.evolve(combo, cards=faces[:i]), attrs.evolve(combo, cards=faces[i + 1 :]))


def shifts(combo: Combination, face: Face, order: Order) -> tuple[Combination, ...]:
    """Every result of shifting an end joker of `combo` and adding `face` (M9, law 18).

    The joker at an end of a sequence moves to the other end, named for its
    new place and marked as shifted; `face` must then fit the moved sequence
    (in the gap the joker left, or beyond the joker). A joker that was shifted
    already, one inside a sequence or one in a group never moves. Results come
    low-end joker first, without repeats.

    >>> o = Order.of("standard")
    >>> seq = build((*cards("7H 8H"), joker("9H")), o)
    >>> [str(c) for c in shifts(seq, card("9H"), o)]
    ['JK=6H 7H 8H 9H']
    >>> [str(c) for c in shifts(seq, card("5H"), o)]
    ['5H JK=6H 7H 8H']
    """
    if combo.kind is not Kind.SEQUENCE:
        return ()
    faces = combo.cards
    suit = faces[0].suit
    assert suit is not None
    low, high = _bounds(combo, order)
    out: list[Combination] = []
    for end, rest, to in ((faces[0], faces[1:], high + 1), (faces[-1], faces[:-1], low - 1)):
        if type(end) is not NamedJoker or end.shifted or not 0 <= to <= order.top:
            continue
        moved_card = order.card_at(to, suit)
        moved = build((*rest, NamedJoker(moved_card.rank, suit, shifted=True)), order, combo.owner)
        if moved is None:
            continue
        result = fits(moved, face, order)
        if result is not None and result not in out:
            out.append(result)
    return tuple(out)


# -- enumeration -------------------------------------------------------------


def _fillings(
    positions: Sequence[int], suit: Suit, have: dict[int, int], jokers: int, order: Order
) -> Iterator[tuple[Face, ...]]:
    """Every way to fill these sequence positions from naturals in `have` and jokers."""
    if not positions:
        yield ()
        return
    pos, rest = positions[0], positions[1:]
    natural = order.card_at(pos, suit)
    if have.get(pos, 0):
        have[pos] -= 1
        for tail in _fillings(rest, suit, have, jokers, order):
            yield (natural, *tail)
        have[pos] += 1
    if jokers:
        named = NamedJoker(natural.rank, suit)
        for tail in _fillings(rest, suit, have, jokers - 1, order):
            yield (named, *tail)


def _sub_multisets(items: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every sub-multiset of a sorted multiset of cards, the empty one included: the
    copies of its first card vary fastest, of its last card slowest."""
    counts = sorted(Counter(items).items())
    # `product` varies its last factor fastest: the cards go to it last first.
    for taken in itertools.product(*[range(k + 1) for _, k in reversed(counts)]):
        sub: list[Card] = []
        for (c, _), m in zip(counts, reversed(taken), strict=True):
            sub += [c] * m
        yield tuple(sub)


def _suit_positions(hand: Iterable[Card], suit: Suit, order: Order) -> dict[int, int]:
    """How many cards of `suit` the hand holds at each position of the order (an ace twice
    when it may also be high)."""
    have: dict[int, int] = {}
    for c in hand:
        if c.suit is suit and order.position[c.rank] >= 0:
            position = order.position[c.rank]
            have[position] = have.get(position, 0) + 1
            if c.rank == 1 and order.ace_high:
                have[order.top] = have.get(order.top, 0) + 1
    return have


def melds_in(hand: Iterable[Card], order: Order, owner: int = 0) -> tuple[Combination, ...]:
    """Every combination that can be laid down from these cards (M4, T8).

    `hand` is a multiset of cards; jokers in it are named in every useful way
    (each joker may stand for any card, even one in the hand, C5). The result
    is in a deterministic order without repeats.

    >>> o = Order.of("spanish")
    >>> [str(c) for c in melds_in(cards("5C 5D 5H 6H 7H"), o)]
    ['5C 5D 5H', '5H 6H 7H']
    """
    return tuple([combination_of(code, owner) for code in meld_codes(hand, order)])


def meld_codes(hand: Iterable[Card], order: Order) -> list[tuple[int, ...]]:
    """`melds_in` as codes, in the same order: each combination as its kind (0 a group,
    1 a sequence) followed by its faces' codes (`face_code`); `combination_of` makes it.

    >>> [str(combination_of(c)) for c in meld_codes(cards("5C 5D JK"), Order.of("standard"))]
    ['5C 5D JK=5']
    """
    # Groups come rank by rank (low first), then sequences suit by suit, each memoised on
    # its rank's or suit's cards and the jokers, as ints (`SEQUENCES_KEPT` bounds the
    # second). A suit's cards go as a bit per rank: a sequence holds a card at most once.
    jokers = 0
    by_rank: dict[int, list[int]] = {}
    suit_cards = [0, 0, 0, 0]
    suit_ranks = [0, 0, 0, 0]
    for c in hand:
        suit = c.suit
        if suit is None:
            jokers += 1
            continue
        by_rank.setdefault(c.rank, []).append(c.index)
        suit_cards[suit] += 1
        suit_ranks[suit] |= 1 << c.rank - 1
    out: list[tuple[int, ...]] = []
    for rank in sorted(by_rank):
        same = by_rank[rank]
        if len(same) + jokers >= 3:
            out.extend(_groups_in(tuple(sorted(same)), jokers))
    for n in range(4):  # the suits by number
        if suit_cards[n] and suit_cards[n] + jokers >= 3:
            out.extend(_sequences_in(order.pack, order.max_sequence, n, suit_ranks[n], jokers))
    return out


_KINDS = (Kind.GROUP, Kind.SEQUENCE)


def combination_of(code: tuple[int, ...], owner: int = 0) -> Combination:
    """The combination of `owner` a code of `meld_codes` stands for."""
    return Combination(_KINDS[code[0]], tuple([FACES[f] for f in code[1:]]), owner)


# Every key fits: a rank's cards hold at most two of each suit and there are at most two
# jokers (2,886 keys in all).
@functools.lru_cache(maxsize=4096)
def _groups_in(same: tuple[int, ...], jokers: int) -> tuple[tuple[int, ...], ...]:
    """`meld_codes`' groups from one rank's cards (indices, sorted) and the jokers (C3, C5)."""
    rank = card_at(same[0]).rank
    named = 104 + rank
    out: list[tuple[int, ...]] = []
    for sub in _sub_multisets([card_at(i) for i in same]):
        for k in range(jokers + 1):
            if sub and len(sub) + k >= 3:
                out.append((0, *(c.index for c in sub), *(named,) * k))
    return tuple(out)


SEQUENCES_KEPT: Final = 20_000
"""How many sequences `meld_codes` keeps memoised at most, each suit's cards met counting
one more; the least recently used go first."""

_SEQUENCES: OrderedDict[tuple[str, int | None, int, int, int], tuple[tuple[int, ...], ...]] = (
    OrderedDict()
)
_kept = [0]  # what `_SEQUENCES` holds, as `SEQUENCES_KEPT` counts it


def _sequences_in(
    pack: str, max_sequence: int | None, suit_number: int, ranks: int, jokers: int
) -> tuple[tuple[int, ...], ...]:
    """`_sequences_of`, memoised: the least recently used go when over `SEQUENCES_KEPT`."""
    key = (pack, max_sequence, suit_number, ranks, jokers)
    found = _SEQUENCES.get(key)
    if found is not None:
        with suppress(KeyError):  # another thread may have let it go: it is still good
            _SEQUENCES.move_to_end(key)
        return found
    found = _SEQUENCES[key] = _sequences_of(pack, max_sequence, suit_number, ranks, jokers)
    _kept[0] += len(found) + 1
    while _kept[0] > SEQUENCES_KEPT:
        try:
            gone = _SEQUENCES.popitem(last=False)[1]
        except KeyError:  # emptied by another thread
            _kept[0] = 0
            break
        _kept[0] -= len(gone) + 1
    return found


def _sequences_of(
    pack: str, max_sequence: int | None, suit_number: int, ranks: int, jokers: int
) -> tuple[tuple[int, ...], ...]:
    """`meld_codes`' sequences from one suit's cards (`ranks`: a bit per rank held), in the
    order of `pack` and `max_sequence`, with the jokers (C4, C5)."""
    order = Order.of(pack, max_sequence)
    suit = Suit(suit_number)
    out: list[tuple[Face, ...]] = []
    held = [card_at(suit * 13 + r) for r in range(13) if ranks >> r & 1]
    have = _suit_positions(held, suit, order)
    top = order.top
    longest = order.longest
    counts = [have.get(p, 0) for p in range(top + 1)]
    for low in range(top - 1):
        missing = (not counts[low]) + (not counts[low + 1])
        if missing > jokers:
            continue
        for high in range(low + 2, min(top, low + longest - 1) + 1):
            missing += not counts[high]
            if missing > jokers:
                break
            if order.ace_high and low == 1 and high == top:
                # 2 up to the high ace is the same set as the ace up to the king,
                # found already (low 0): build gives its canonical order.
                for faces in _fillings(range(low, high + 1), suit, have, jokers, order):
                    combo = build(faces, order) if any(type(f) is Card for f in faces) else None
                    if combo is not None and combo.cards not in out:
                        out.append(combo.cards)
                continue
            if not jokers:  # fast path: the one filling, all natural cards
                out.append(tuple(order.card_at(p, suit) for p in range(low, high + 1)))
                continue
            # Different spans hold different cards: these are new combinations.
            for faces in _fillings(range(low, high + 1), suit, have, jokers, order):
                if any(type(f) is Card for f in faces):
                    out.append(faces)
    return tuple([(1, *map(face_code, faces)) for faces in out])


def extensions(
    combo: Combination, hand: Iterable[Card], order: Order
) -> tuple[tuple[Face, ...], ...]:
    """Every non-empty set of hand cards that may be added to `combo` at once (M5, T8).

    Each is given as the faces to add (jokers named), in canonical order.

    >>> o = Order.of("spanish")
    >>> seq = build(cards("3D 4D 5D"), o)
    >>> [" ".join(map(str, e)) for e in extensions(seq, cards("2D 6D 7D KD"), o)]
    ['6D', '6D 7D', '2D', '2D 6D', '2D 6D 7D']
    """
    hand = sorted(hand)
    jokers = hand.count(JOKER)
    out: list[tuple[Face, ...]] = []
    if combo.kind is Kind.GROUP:
        rank = combo.cards[0].rank
        own = [c for c in hand if c.rank == rank and c is not JOKER]
        for sub in _sub_multisets(own):
            for k in range(jokers + 1):
                if sub or k:
                    out.append((*sub, *(NamedJoker(rank),) * k))
        return tuple(out)
    suit = combo.cards[0].suit
    assert suit is not None
    have = _suit_positions(hand, suit, order)
    low, high = _bounds(combo, order)
    room = order.longest - len(combo.cards)
    seen: set[tuple[Face, ...]] = set()
    for below in range(low + 1):
        for above in range(order.top - high + 1):
            if below + above == 0:
                continue
            if below + above > room:
                break
            span = [*range(low - below, low), *range(high + 1, high + above + 1)]
            missing = sum(1 for p in span if not have.get(p, 0))
            if missing > jokers:
                continue
            for faces in _fillings(span, suit, have, jokers, order):
                key = tuple(sorted(faces, key=sort_key))
                if key not in seen and extend(combo, key, order) is not None:
                    seen.add(key)
                    out.append(key)
    return tuple(out)
