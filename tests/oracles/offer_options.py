"""A plain, brute-force oracle of Conquian for 2 to 4 under every option (T1–T14, T16–T20).

Written from the rules pages, not from the engine: a deal is a `Position`
made of plain sets of cards and the combinations on the table, its
transitions follow T4–T12 directly, and whether a turn can still be
finished is an exhaustive search over every meld and borrow, with no
shortcut. The engine's `legal_actions()` must equal `legal_actions` here.

What it covers:

- T8 `lay_down`: ``"say"``: hand cards may go down at the say and while
  melding; ``"turn"``: only while melding after a take or a force (then
  freely); ``"meld"``: every meld holds a pending card;
- T9 borrowing: one of a group of four or more, an end of a sequence of
  four or more, a middle card when `borrow_middle` and both pieces are
  sequences of three or more; once per card per turn; never back into the
  meld it came from nor into a piece of it; with `borrow_other_kind` a card
  lent by a group must be melded into a sequence and one lent by a sequence
  into a group;
- T10 forcing, and the forced player's melding afterwards;
- T14 `max_sequence` (through `Order`, which `combos.build` checks);
- T20 the full pack: 52 cards, the ace low only (`order_of`);
- T26 ``ace="both"``: the ace also above the king (Q K A, J Q K A), never both
  in one sequence (K A 2 is not): the order with the ace at both ends, and a
  sequence holding the king and the ace but not the two has its ace high;
- T2 winning, T12 the tableau;
- T16–T18 more seats: the deal round the table from the pone, a passed or
  discarded card on offer to the left neighbour only, a turned card forced
  onto the left neighbour, a passed card back onto the passer (the right
  neighbour), a hand card onto the left neighbour;
- no dead ends: a take, meld or borrow is legal only if every pending card
  can still be placed in this turn.

>>> from conquian import ConquianRules, cards
>>> rules = ConquianRules.pagat()
>>> pos = deal(rules, rules.pack_cards(), dealer=0)
>>> sorted(map(str, legal_actions(pos)))
['pass']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from conquian import (
    Action,
    Borrow,
    Card,
    ConquianRules,
    ConquianState,
    Discard,
    Force,
    Meld,
    Pass,
    Take,
    Trade,
)
from conquian.combos.core import Combination, Kind, Order, build

__all__ = [
    "Position",
    "Turn",
    "after",
    "can_finish",
    "deal",
    "legal_actions",
    "position_of",
    "turn_moves",
]


# -- combinations, plainly ---------------------------------------------------------------


def order_of(rules: ConquianRules) -> Order:
    """The order of the pack in play, with the rules' longest sequence (C4, T14); the full
    pack of 52 cards has the ace low only (T20: "The Ace is not in sequence with the King"),
    which is the order ``"full"``, not Cooncan's ``"standard"``; with ``ace="both"`` (T26)
    the ace stands at both ends: Cooncan's ``"standard"``, the Spanish ``"spanish-both"``."""
    if rules.ace == "both":
        return Order.of(
            rules.pack + ("-both" if rules.pack == "spanish" else ""), rules.max_sequence
        )
    return Order.of("full" if rules.pack == "standard" else rules.pack, rules.max_sequence)


def places(meld: Combination, order: Order) -> list[int]:
    """The positions of a sequence's cards in `order`: the ace is at the low end (0), or at
    the high end (`order.top`) when the sequence also holds the king and not the two (T26)."""
    ranks = {c.rank for c in meld.cards}
    high_ace = order.ace_high and 13 in ranks and 2 not in ranks
    return [order.top if c.rank == 1 and high_ace else order.position[c.rank] for c in meld.cards]


def new_combinations(pool: Iterable[Card], order: Order, owner: int) -> list[Combination]:
    """Every combination that can be made of cards of `pool` (C3, C4, T14).

    Groups: every set of three or more cards of one rank. Sequences: every run
    of three or more consecutive positions of one suit whose cards are all in
    the pool; `build` decides (it refuses a run longer than `max_sequence`).
    """
    pool = set(pool)
    out: list[Combination] = []
    for rank in sorted({c.rank for c in pool}):
        same = sorted(c for c in pool if c.rank == rank)
        for size in range(3, len(same) + 1):
            for chosen in itertools.combinations(same, size):
                combo = build(chosen, order, owner)
                assert combo is not None
                out.append(combo)
    for suit in sorted({c.suit for c in pool if c.suit is not None}):
        for low in range(order.top + 1):
            for high in range(low + 2, order.top + 1):
                run = [order.card_at(p, suit) for p in range(low, high + 1)]
                if not set(run) <= pool:
                    break
                combo = build(run, order, owner)
                if combo is not None:
                    out.append(combo)
    return out


def grown(meld: Combination, added: Iterable[Card], order: Order) -> Combination | None:
    """`meld` with `added` in it, if that is a combination of the same kind (T8, T10)."""
    bigger = build((*meld.cards, *added), order, meld.owner)
    if bigger is None or bigger.kind is not meld.kind:
        return None
    return bigger


def additions(meld: Combination, pool: Iterable[Card], order: Order) -> list[tuple[Card, ...]]:
    """Every non-empty set of `pool` cards that may be added to `meld` at once (T8).

    A group takes any cards of its rank; a sequence takes a run below its low
    end and/or a run above its high end.
    """
    pool = set(pool)
    out: list[tuple[Card, ...]] = []
    if meld.kind is Kind.GROUP:
        same = sorted(c for c in pool if c.rank == meld.cards[0].rank)
        for size in range(1, len(same) + 1):
            for chosen in itertools.combinations(same, size):
                if grown(meld, chosen, order) is not None:
                    out.append(tuple(sorted(chosen)))
        return out
    suit = meld.cards[0].suit
    assert suit is not None
    positions = places(meld, order)
    low, high = min(positions), max(positions)
    for below in range(low + 1):
        for above in range(order.top - high + 1):
            if below + above == 0:
                continue
            span = [*range(low - below, low), *range(high + 1, high + above + 1)]
            added = [order.card_at(p, suit) for p in span]
            ok = set(added) <= pool and grown(meld, added, order) is not None
            if ok and tuple(sorted(added)) not in out:  # T26: the ace below 2..K or above it
                out.append(tuple(sorted(added)))
    return out


def lend(meld: Combination, c: Card, order: Order, middle: bool) -> tuple[Combination, ...] | None:
    """What stays of `meld` when `c` is borrowed from it, or None if T9 forbids it.

    One card of a group of four or more; an end card of a sequence of four or
    more; with `middle`, an inner card when both pieces are sequences of three
    or more (the lower piece first).
    """
    if c not in meld.cards or len(meld.cards) < 4:
        return None
    rest = [f for f in meld.cards if f != c]
    if meld.kind is Kind.GROUP:
        left = build(rest, order, meld.owner)
        return None if left is None else (left,)
    k = meld.cards.index(c)  # a sequence's cards run from its low end to its high end
    if k in (0, len(meld.cards) - 1):
        left = build(rest, order, meld.owner)
        return None if left is None else (left,)
    if not middle:
        return None
    lower = build(meld.cards[:k], order, meld.owner)
    upper = build(meld.cards[k + 1 :], order, meld.owner)
    if lower is None or upper is None:
        return None
    return (lower, upper)


# -- a turn ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    """A player melding after a take or a force (T8–T10).

    `borrowed`: the cards borrowed so far in this turn (each once, T9);
    `barred`: (pending borrowed card, index of a meld it may not join);
    `lent_by`: (pending borrowed card, kind of the meld it came from).
    """

    player: int
    hand: frozenset[Card]
    table: tuple[Combination, ...]
    pending: frozenset[Card]
    borrowed: frozenset[Card] = frozenset()
    barred: frozenset[tuple[Card, int]] = frozenset()
    lent_by: frozenset[tuple[Card, Kind]] = frozenset()


def _placed(turn: Turn, used: frozenset[Card], table: tuple[Combination, ...]) -> Turn:
    """The turn after `used` went down, the table being `table`."""
    return replace(
        turn,
        hand=turn.hand - used,
        table=table,
        pending=turn.pending - used,
        barred=frozenset(x for x in turn.barred if x[0] not in used),
        lent_by=frozenset(x for x in turn.lent_by if x[0] not in used),
    )


def _kind_allowed(turn: Turn, used: frozenset[Card], kind: Kind, other_kind: bool) -> bool:
    """T9 `borrow_other_kind`: a borrowed card goes into a meld of the other kind.

    The rule says where the card must *end the turn*; it is checked when the card is
    melded, which is the same thing: a card is borrowed at most once a turn, so it stays
    in that meld, and a meld never changes kind.
    """
    if not other_kind:
        return True
    return all(k is not kind for c, k in turn.lent_by if c in used)


def turn_moves(rules: ConquianRules, turn: Turn) -> Iterator[tuple[Meld | Borrow, Turn]]:
    """Every `Meld` and `Borrow` of a melding turn, with the turn after it (T8, T9).

    Whether the turn can be finished afterwards is `can_finish`'s question.
    """
    order = order_of(rules)
    hand_alone = rules.lay_down != "meld"  # T8: "say" and "turn" meld hand cards freely now
    other_kind = rules.borrow_other_kind
    player = turn.player
    pool = turn.hand | turn.pending
    for combo in new_combinations(pool, order, player):
        used = frozenset(c for c in combo.cards if isinstance(c, Card))
        if not hand_alone and not used & turn.pending:
            continue
        if not _kind_allowed(turn, used, combo.kind, other_kind):
            continue
        yield Meld(combo.cards), _placed(turn, used, (*turn.table, combo))
    for i, meld in enumerate(turn.table):
        if meld.owner != player:
            continue
        for added in additions(meld, pool, order):
            used = frozenset(added)
            if not hand_alone and not used & turn.pending:
                continue
            if any((c, i) in turn.barred for c in used):
                continue  # T9: not back into the meld it came from
            if not _kind_allowed(turn, used, meld.kind, other_kind):
                continue
            bigger = grown(meld, added, order)
            assert bigger is not None
            table = (*turn.table[:i], bigger, *turn.table[i + 1 :])
            yield Meld(added, onto=i), _placed(turn, used, table)
    for i, meld in enumerate(turn.table):
        if meld.owner != player:
            continue
        for c in meld.cards:
            assert isinstance(c, Card)
            if c in turn.borrowed:
                continue  # T9: once a turn
            pieces = lend(meld, c, order, rules.borrow_middle)
            if pieces is None:
                continue
            table = (*turn.table[:i], pieces[0], *turn.table[i + 1 :], *pieces[1:])
            barred = set(turn.barred) | {(c, i)}
            if len(pieces) == 2:  # the upper piece is a piece of the same meld
                split = len(turn.table)
                barred |= {(d, split) for d, j in turn.barred if j == i} | {(c, split)}
            yield (
                Borrow(c, source=i),
                replace(
                    turn,
                    table=table,
                    pending=turn.pending | {c},
                    borrowed=turn.borrowed | {c},
                    barred=frozenset(barred),
                    lent_by=turn.lent_by | {(c, meld.kind)},
                ),
            )


def can_finish(rules: ConquianRules, turn: Turn, memo: dict[Turn, bool] | None = None) -> bool:
    """Whether every pending card can still be placed in this turn: an exhaustive search.

    With nothing pending the turn can end: he has won (T2) or he holds a card
    to discard (hand + melds + pending is one more than the hand size).
    """
    if not turn.pending:
        return True
    if memo is None:
        memo = {}
    if turn not in memo:
        memo[turn] = any(can_finish(rules, nxt, memo) for _, nxt in turn_moves(rules, turn))
    return memo[turn]


# -- a deal ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A whole deal as the oracle keeps it.

    `player` acts next (None when the deal is over). With the say, `offer` is
    the card in the centre and `origin` where it came from (T4); while
    melding, `turn` is the turn in progress and `offer` is None.
    """

    rules: ConquianRules
    hands: tuple[frozenset[Card], ...]
    table: tuple[Combination, ...]
    stock: tuple[Card, ...]
    buried: tuple[Card, ...]
    player: int | None
    offer: Card | None = None
    origin: str | None = None
    turn: Turn | None = None
    winner: int | None = None
    tableau: bool = False
    dealer: int = 0
    trades_left: int = 0
    chosen: tuple[Card, ...] = ()
    starter: Card | None = None

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended, won (T2) or in a tableau (T12)."""
        return self.player is None


def deal(rules: ConquianRules, deck: Iterable[Card], dealer: int) -> Position:
    """The deal of T1, T11 and T16: two cards at a time round the table, the pone (on the
    dealer's left) first and the dealer last (one each in the last round with an odd hand);
    the next card is turned, on offer to the pone as if he had turned it."""
    deck = list(deck)
    n = rules.players
    pone = (dealer + 1) % n
    hands: list[list[Card]] = [[] for _ in range(n)]
    at = 0
    while len(hands[dealer]) < rules.hand_size:
        k = min(2, rules.hand_size - len(hands[dealer]))
        for i in range(n):
            hands[(pone + i) % n] += deck[at : at + k]
            at += k
    trading = rules.trades > 0  # T21: the trade rounds first, the starter after them
    return Position(
        rules=rules,
        hands=tuple(frozenset(h) for h in hands),
        table=(),
        stock=tuple(deck[at + 1 :]),
        buried=(),
        player=pone,
        offer=None if trading else deck[at],
        origin=None if trading else "turned",
        dealer=dealer,
        trades_left=rules.trades,
        starter=deck[at],
    )


def _traded(pos: Position, card: Card) -> Position:
    """T21: one more card chosen; when every player has chosen, each chosen card goes to its
    chooser's left neighbour, and after the last round the starter is turned for the pone."""
    n = pos.rules.players
    pone = (pos.dealer + 1) % n
    chosen = (*pos.chosen, card)
    if len(chosen) < n:
        return replace(pos, chosen=chosen, player=(pos.player + 1) % n)  # type: ignore[operator]
    hands = list(pos.hands)
    for i, c in enumerate(chosen):
        giver = (pone + i) % n
        hands[giver] = hands[giver] - {c}
    for i, c in enumerate(chosen):
        taker = (pone + i + 1) % n
        hands[taker] = hands[taker] | {c}
    left = pos.trades_left - 1
    moved = replace(pos, hands=tuple(hands), chosen=(), trades_left=left, player=pone)
    if left:
        return moved
    return replace(moved, offer=pos.starter, origin="turned")


def _melded(table: Iterable[Combination], player: int) -> int:
    return sum(len(m.cards) for m in table if m.owner == player)


def _forces(table: tuple[Combination, ...], c: Card, victim: int, order: Order) -> list[Force]:
    """T10: `c` may be forced onto each of the victim's melds that it fits alone (T14)."""
    return [
        Force(c, onto=j)
        for j, meld in enumerate(table)
        if meld.owner == victim and grown(meld, (c,), order) is not None
    ]


def legal_actions(pos: Position) -> frozenset[Action]:
    """Every legal action of the player to act (empty when the deal is over)."""
    if pos.player is None:
        return frozenset()
    rules = pos.rules
    order = order_of(rules)
    player = pos.player
    n = rules.players
    left, right = (player + 1) % n, (player - 1) % n
    legal: set[Action] = set()
    if pos.trades_left:  # T21: a card of his hand to pass to his left neighbour
        return frozenset(Trade(c) for c in pos.hands[player])
    if pos.turn is not None:  # melding (T8–T10)
        turn = pos.turn
        memo: dict[Turn, bool] = {}
        for move, nxt in turn_moves(rules, turn):
            if can_finish(rules, nxt, memo):  # no dead ends
                legal.add(move)
        if not turn.pending:  # T8: end the turn with a hand card
            for c in turn.hand:
                legal.add(Discard(c))
                legal.update(_forces(turn.table, c, left, order))  # T18: his left
        return frozenset(legal)
    offer = pos.offer
    assert offer is not None
    hand = pos.hands[player]
    legal.add(Pass())  # T5–T7
    taken = Turn(player, hand, pos.table, frozenset({offer}))
    if can_finish(rules, taken):  # T3, T8: only a card that can be placed now
        legal.add(Take(offer))
    if pos.origin == "turned":  # T5, T18: onto the player it would pass to
        legal.update(_forces(pos.table, offer, left, order))
    elif pos.origin == "passed":  # T6, T18: back onto the passer (T7: never a discard)
        legal.update(_forces(pos.table, offer, right, order))
    if rules.lay_down == "say":  # T8: laying down from the hand at the say, no borrowing
        for combo in new_combinations(hand, order, player):
            legal.add(Meld(combo.cards))
        for i, meld in enumerate(pos.table):
            if meld.owner == player:
                for added in additions(meld, hand, order):
                    legal.add(Meld(added, onto=i))
    return frozenset(legal)


def _won_or_melding(pos: Position, player: int) -> Position:
    """T2: the player wins the moment he has one more than his hand size melded."""
    if _melded(pos.table, player) == pos.rules.hand_size + 1:
        return replace(pos, player=None, offer=None, origin=None, turn=None, winner=player)
    return pos


def after(pos: Position, action: Action, legal: frozenset[Action] | None = None) -> Position:
    """The position after a legal `action`; ValueError if the oracle finds it illegal.

    `legal`, if given, is `legal_actions(pos)` worked out already.
    """
    if action not in (legal_actions(pos) if legal is None else legal):
        raise ValueError(f"{action} is not legal in the oracle")
    player = pos.player
    assert player is not None
    n = pos.rules.players
    left = (player + 1) % n
    order = order_of(pos.rules)
    hands = list(pos.hands)
    if isinstance(action, Trade):
        assert action.card is not None
        return _traded(pos, action.card)
    if isinstance(action, Pass):
        if pos.origin == "turned":  # T5, T17: to his left neighbour, as passed
            return replace(pos, player=left, origin="passed")
        assert pos.offer is not None
        buried = (*pos.buried, pos.offer)  # T6, T7: buried, and the next card turned
        if not pos.stock:  # T12
            return replace(pos, buried=buried, player=None, offer=None, origin=None, tableau=True)
        turner = player
        starter = pos.origin == "passed" and not pos.buried  # passed on, then refused again
        if starter and pos.rules.after_starter == "pone":  # T22: the pone turns
            turner = (pos.dealer + 1) % pos.rules.players
        return replace(
            pos,
            buried=buried,
            stock=pos.stock[1:],
            offer=pos.stock[0],
            origin="turned",
            player=turner,
        )
    if isinstance(action, Take):
        turn = Turn(player, pos.hands[player], pos.table, frozenset({action.card}))
        return replace(pos, offer=None, origin=None, turn=turn)
    if isinstance(action, Force):  # T10: the card joins the victim's meld, and he melds
        assert isinstance(action.card, Card)
        # T18: a passed card goes back to the passer, on his right; else to his left.
        victim = (player - 1) % n if pos.origin == "passed" else left
        if pos.offer is None:
            hands[player] = hands[player] - {action.card}
        meld = pos.table[action.onto]
        bigger = grown(meld, (action.card,), order)
        assert bigger is not None
        table = (*pos.table[: action.onto], bigger, *pos.table[action.onto + 1 :])
        forced = Turn(victim, hands[victim], table, frozenset())
        moved = replace(
            pos,
            hands=tuple(hands),
            table=table,
            player=victim,
            offer=None,
            origin=None,
            turn=forced,
        )
        return _won_or_melding(moved, victim)
    if isinstance(action, Discard):  # T8, T17: on offer to his left neighbour, as discarded
        hands[player] = hands[player] - {action.card}
        return replace(
            pos,
            hands=tuple(hands),
            player=left,
            offer=action.card,
            origin="discarded",
            turn=None,
        )
    assert isinstance(action, (Meld, Borrow))
    if pos.turn is None:  # T8 "say": laid down from the hand, the card stays on offer
        assert isinstance(action, Meld)
        used = frozenset(action.cards)
        hands[player] = hands[player] - used
        if action.onto is None:
            combo = build(action.cards, order, player)
            assert combo is not None
            table = (*pos.table, combo)
        else:
            bigger = grown(pos.table[action.onto], action.cards, order)  # type: ignore[arg-type]
            assert bigger is not None
            table = (*pos.table[: action.onto], bigger, *pos.table[action.onto + 1 :])
        return replace(pos, hands=tuple(hands), table=table)
    turn = dict(turn_moves(pos.rules, pos.turn))[action]
    hands[player] = turn.hand
    moved = replace(pos, hands=tuple(hands), table=turn.table, turn=turn)
    return _won_or_melding(moved, player) if not turn.pending else moved


def position_of(state: ConquianState) -> Position:
    """The oracle's position for an engine state: its deal replayed with the oracle's rules."""
    pos = deal(state.rules, state.deck, state.dealer)
    for action in state.history:
        pos = after(pos, action)
    return pos
