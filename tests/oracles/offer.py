"""The plain statement of T8, T9 and the no-dead-end rule of two-hand Conquian, in code.

Nothing here is fast: the moves of a turn are worked out directly from
`conquian.combos.core` (every combination in the cards, every addition to each of
the player's melds, every card each of his melds may lend), and whether a
turn can be finished is a plain search over them. The engine
(`conquian.offer`) must agree with it on every state; the properties in
``tests/properties/test_offer_props.py`` check that.

A turn is a `Turn`: the mover's hand, the table, the pending cards, the cards
borrowed this turn, and for each pending borrowed card the table indices it
may not go back to and the kind of the meld that lent it (T9).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from conquian import Borrow, Card, ConquianRules, Meld
from conquian.combos.core import Combination, Kind, Order, borrow, build, extensions, melds_in


class Turn(NamedTuple):
    """A turn in progress, as plain values."""

    hand: tuple[Card, ...]
    table: tuple[Combination, ...]
    pending: tuple[Card, ...]
    borrowed: frozenset[Card]
    sources: tuple[tuple[Card, frozenset[int], Kind], ...]


def start(
    hand: tuple[Card, ...], table: tuple[Combination, ...], pending: tuple[Card, ...]
) -> Turn:
    """The turn of a player with `hand` who must place `pending` (after a take or a force)."""
    return Turn(hand, table, tuple(sorted(pending)), frozenset(), ())


def moves(
    rules: ConquianRules, player: int, turn: Turn, *, borrowing: bool
) -> Iterator[tuple[Meld | Borrow, Turn]]:
    """Every `Meld` and `Borrow` of `player` in `turn` (T8, T9), with the turn after it.

    `borrowing` is False at the say (the card still on offer) and True while
    melding after a take or a force.

    T8: a meld lays down a new combination of his hand and pending cards, or
    adds some of them to one of his own melds. Hand cards alone may go down:
    at the say only under ``lay_down="say"``; while melding under "say" and
    "turn"; under "meld" each meld holds a pending card. T9 (only while
    melding): a card that leaves valid melds behind may be borrowed from his
    own melds, once a turn, and may not go back into the meld it came from
    (for a split sequence, either piece); under ``borrow_other_kind`` it goes
    into a meld of the other kind than the one that lent it.
    """
    # T20: the full pack's ace is low only (the order "full", not Cooncan's "standard"); T26:
    # with ace="both" it is at both ends (Cooncan's "standard", the Spanish "spanish-both").
    if rules.ace == "both":
        pack = "spanish-both" if rules.pack == "spanish" else rules.pack
        order = Order.of(pack, rules.max_sequence)
    else:
        order = Order.of("full" if rules.pack == "standard" else rules.pack, rules.max_sequence)
    hand, table, pending, borrowed, sources = turn
    pool = tuple(sorted(hand + pending))
    barred = {c: s for c, s, _ in sources}
    lent_by = {c: k for c, _, k in sources}
    other_kind = rules.borrow_other_kind

    def kind_ok(used: set[Card], kind: Kind) -> bool:
        return not other_kind or all(lent_by[c] is not kind for c in used if c in lent_by)

    def after(used: set[Card], new_table: tuple[Combination, ...]) -> Turn:
        return Turn(
            tuple(c for c in hand if c not in used),
            new_table,
            tuple(c for c in pending if c not in used),
            borrowed,
            tuple((c, s, k) for c, s, k in sources if c not in used),
        )

    from_hand = rules.lay_down == "say" if not borrowing else rules.lay_down != "meld"
    if pending or from_hand:
        for meld in melds_in(pool, order, player):
            used = set(meld.cards)
            if (from_hand or used & set(pending)) and kind_ok(used, meld.kind):  # type: ignore[arg-type]
                yield Meld(meld.cards), after(used, (*table, meld))  # type: ignore[arg-type]
        for i, meld in enumerate(table):
            if meld.owner != player:
                continue
            for faces in extensions(meld, pool, order):
                used = set(faces)  # type: ignore[arg-type]
                if not from_hand and not used & set(pending):
                    continue
                if any(i in barred.get(c, ()) for c in used) or not kind_ok(used, meld.kind):
                    continue
                bigger = build((*meld.cards, *faces), order, player)
                assert bigger is not None
                yield Meld(faces, onto=i), after(used, (*table[:i], bigger, *table[i + 1 :]))
    if not borrowing:
        return
    for i, meld in enumerate(table):
        if meld.owner != player:
            continue
        for c in meld.cards:
            assert isinstance(c, Card)
            pieces = borrow(meld, c, rules.borrow_middle)
            if pieces is None or c in borrowed:
                continue
            split = len(pieces) > 1
            new_table = (*table[:i], pieces[0], *table[i + 1 :], *pieces[1:])
            froms = frozenset({i, len(table)} if split else {i})
            new_sources = tuple(
                sorted(
                    [(d, s | {len(table)} if split and i in s else s, k) for d, s, k in sources]
                    + [(c, froms, meld.kind)]
                )
            )
            yield (
                Borrow(c, source=i),
                Turn(hand, new_table, tuple(sorted((*pending, c))), borrowed | {c}, new_sources),
            )


def finishable(rules: ConquianRules, player: int, turn: Turn, memo: dict[Turn, bool]) -> bool:
    """Whether every pending card can still be placed this turn: a plain search (no dead ends)."""
    if not turn.pending:
        return True
    if turn not in memo:
        memo[turn] = any(
            finishable(rules, player, after, memo)
            for _, after in moves(rules, player, turn, borrowing=True)
        )
    return memo[turn]
