"""A turn of melding: the moves of T8 and T9, the goal (T2), and the no-dead-end search.

After a `Take` or a force the player is *melding*: he lays down new
combinations and adds cards to his own melds (T8), and he may borrow from
his own melds (T9), until no card is pending; then he has won (T2) or ends
his turn with a discard or a force (T8, T10). `turn_moves` is the one list
of the melds and borrows a player may make; `finishable` searches it to tell
whether every pending card can still be placed (no dead ends: an action
after which the turn could not be finished is not legal).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..actions import Action, Borrow, Meld
from ..state.base import Legal
from .board import (
    DISCARDS,
    HAND,
    OWNER,
    OWNER_BITS,
    PENDING,
    Sources,
    Turn,
    borrow_action,
    force_action,
    meld_action,
)
from .shortcuts import hopeful, leaves_finish
from .tables import MEMO_LIMIT, Memo, Tables

__all__ = ["after_meld", "finishable", "melding_actions", "turn_ends", "turn_moves", "won"]


def won(win: int, keys: tuple[int, ...], player: int) -> bool:
    """T2 (T10): a player wins the moment he has `win` cards (his hand size and one) melded."""
    melded = 0
    for k in keys:
        if k & OWNER == player:
            melded |= k
    return (melded >> OWNER_BITS).bit_count() >= win


def turn_moves(
    tables: Tables,
    memo: Memo,
    player: int,
    turn: Turn,
    *,
    hand_melds: bool,
    other_kind: bool,
    borrowing: bool,
    search: bool = False,
) -> Iterator[tuple[Meld | Borrow, Turn]]:
    """The `Meld` and `Borrow` moves of `player` in `turn`, each with the turn after it.

    T8: a meld is a new combination, or cards added to one of the player's
    own melds, from pending and hand cards; with `hand_melds` (``lay_down``
    "say" or "turn") hand cards alone may go down too, otherwise ("meld")
    every meld holds a pending card. T9:
    borrowing, allowed only while melding after a take or a force
    (`borrowing`), takes a card that `combos.borrowable` allows (one of a
    group of four, an end of a sequence of four, or with ``borrow_middle`` a
    middle card leaving two sequences of three) and that was not borrowed
    before in this turn; a borrowed card may not go back into the meld it
    came from, nor into either piece of a sequence it split, and with
    `other_kind` (``borrow_other_kind``) a card lent by a group goes into a
    sequence, one lent by a sequence into a group. A split
    sequence keeps its lower piece at its index and its upper piece is
    appended to the table.

    Whether the turn could still be finished afterwards is `finishable`'s
    question, not this one's; but a borrow is left out when the borrowed card
    has no two partners among the cards he may use (`shortcuts.hopeful`'s
    test: `finishable` would reject it). For the `search` the additions of
    hand cards alone come last, as the least likely to help, and new
    combinations of hand cards alone are left out: they never help place a
    pending card (whatever a finishing line does with such a combination
    works with its cards left in the hand).
    """
    hand, keys, pend, borrowed, sources = turn
    pool = hand | pend
    # His melds that a pool card fits alone (only those may grow), those of four cards or
    # more (only those lend a card, T9), and the cards he may still use.
    have = pool
    grow: list[int] = []
    big: list[int] = []
    for i, k in enumerate(keys):
        if k & OWNER == player:
            cards = k >> OWNER_BITS
            have |= cards
            if pool & tables.fit[cards]:
                grow.append(i)
            if cards.bit_count() >= 4:
                big.append(i)
    later: list[tuple[Meld, int, tuple[int, ...]]] = []  # hand-only additions, last in a search
    if pend or hand_melds:
        if search:
            new: Iterable[int] = tables.melds_with(pool, pend, player)
        else:
            new = tables.new_melds(pool, player, memo)
        for k in new:
            used = k >> OWNER_BITS
            if not hand_melds and not used & pend:
                continue
            if other_kind and sources and not _other_kind(sources, used, used in tables.groups):
                continue  # T9: a borrowed card goes into a meld of the other kind
            yield meld_action(used, None), after_meld(turn, used, (*keys, k))
        for i in grow:
            options = tables.extensions(keys[i], pool)
            if not options:
                continue
            barred = 0
            for c, back, lent_by_group in sources:
                if i in back or (
                    other_kind and lent_by_group == (keys[i] >> OWNER_BITS in tables.groups)
                ):
                    barred |= 1 << c  # T9: not back into its meld, nor one of the same kind
            for used, bigger in options:
                if used & barred:
                    continue  # T9: a borrowed card goes into a different meld
                new_keys = (*keys[:i], bigger, *keys[i + 1 :])
                if not used & pend:
                    if not hand_melds:
                        continue
                    if search:
                        later.append((meld_action(used, i), used, new_keys))
                        continue
                yield meld_action(used, i), after_meld(turn, used, new_keys)
    if borrowing:
        for i in big:
            for bit, index, lower, upper, three, fits, other, other_fits in tables.borrowings(
                keys[i]
            ):
                if borrowed & bit:
                    continue  # T9: a card is borrowed at most once in a turn
                # `hopeful`'s test of the borrowed card: it may not go back to a piece of three
                # left by the borrow that nothing else he has fits (T9), and needs two partners
                # among the other cards he may use (C3).
                usable = have
                if not fits & have & ~bit:
                    usable &= ~three
                if not other_fits & have & ~bit:
                    usable &= ~other
                if not tables.two_partners(index, usable):
                    continue
                group = keys[i] >> OWNER_BITS in tables.groups
                if not upper:
                    new_keys = (*keys[:i], lower, *keys[i + 1 :])
                    froms: tuple[int, ...] = (i,)
                    old = sources
                else:
                    split = len(keys)
                    new_keys = (*keys[:i], lower, *keys[i + 1 :], upper)
                    froms = (i, split)
                    # A card borrowed before from this meld may not go into its upper piece.
                    old = tuple([(d, (*s, split) if i in s else s, g) for d, s, g in sources])
                new_sources: Sources = tuple(sorted((*old, (index, froms, group))))
                after = (hand, new_keys, pend | bit, borrowed | bit, new_sources)
                yield borrow_action(index, i), after
    for action, used, new_keys in later:
        yield action, after_meld(turn, used, new_keys)


def _other_kind(sources: Sources, used: int, group: bool) -> bool:
    """T9 ``borrow_other_kind``: whether the borrowed cards among `used` may go into a meld
    that is a group (`group`) or a sequence: each must go into the other kind than the meld
    that lent it. A card is borrowed once a turn and a meld keeps its kind, so checking it
    when the card is melded is checking where it ends the turn."""
    return all(not used >> c & 1 or lent_by_group != group for c, _, lent_by_group in sources)


def after_meld(turn: Turn, used: int, keys: tuple[int, ...]) -> Turn:
    """The turn after the cards `used` went to the table, whose melds are now `keys`."""
    hand, _, pend, borrowed, sources = turn
    if sources:
        sources = tuple([x for x in sources if not used >> x[0] & 1])
    return (hand & ~used, keys, pend & ~used, borrowed, sources)


def finishable(
    tables: Tables, memo: Memo, player: int, turn: Turn, *, hand_melds: bool, other_kind: bool
) -> bool:
    """Whether `player` can still place every pending card this turn (no dead ends, T8, T9).

    With nothing pending the turn can always end (he has won, T2, or he has
    a hand card to discard, T8), so the search runs only while cards are
    pending. It is a depth-first search over `turn_moves`, remembered per
    deal (`Memo.finish`) by the whole turn. It ends, because each meld puts
    cards on the table and each borrow uses up a card that cannot be
    borrowed again in this turn (T9).
    """
    if not turn[PENDING]:
        return True
    known_turns = memo.finish[player]
    known = known_turns.get(turn)
    if known is None:
        known = False
        if hopeful(tables, player, turn):
            moves = turn_moves(
                tables,
                memo,
                player,
                turn,
                hand_melds=hand_melds,
                other_kind=other_kind,
                borrowing=True,
                search=True,
            )
            for _, after in moves:
                if not after[PENDING] or finishable(
                    tables, memo, player, after, hand_melds=hand_melds, other_kind=other_kind
                ):
                    known = True
                    break
        if len(known_turns) >= MEMO_LIMIT:
            known_turns.clear()
        known_turns[turn] = known
    return known


def melding_actions(
    tables: Tables,
    memo: Memo,
    player: int,
    turn: Turn,
    *,
    hand_melds: bool,
    other_kind: bool,
    victim: int,
) -> Legal:
    """The legal actions of `player` melding in `turn` (T8–T10), each with its plan.

    The melds and borrows of `turn_moves` after which every pending card can
    still be placed (no dead ends), each with the turn after it; then, with
    nothing pending (he has not won, T2), the turn ends with a hand card: each
    discard (no plan), and each force onto one of the melds of `victim`, his
    left neighbour, that the card fits (T10, T18; the meld's index as plan).
    """
    hand, keys, pending, _, _ = turn
    actions: list[Action] = []
    plans: list[object] = []
    moves = list(
        turn_moves(
            tables, memo, player, turn, hand_melds=hand_melds, other_kind=other_kind, borrowing=True
        )
    )
    # The melds that place every pending card at once: each finishes the turn.
    direct = [
        (a.onto, hand & ~after[HAND])
        for a, after in moves
        if type(a) is Meld and not after[PENDING]
    ]
    for action, after in moves:
        hand_only = pending and type(action) is Meld and after[PENDING] == pending
        if hand_only and leaves_finish(direct, action.onto, hand & ~after[HAND]):  # type: ignore[union-attr]
            actions.append(action)  # no dead ends: a direct finish is left untouched
            plans.append(after)
        elif not after[PENDING] or finishable(
            tables, memo, player, after, hand_melds=hand_melds, other_kind=other_kind
        ):
            actions.append(action)  # no dead ends
            plans.append(after)
    if pending:
        return tuple(actions), tuple(plans)
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        actions.append(DISCARDS[low.bit_length() - 1])
        plans.append(None)
    for j, k in enumerate(keys):
        if k & OWNER == victim:  # T18: only onto his left neighbour's melds
            fits = tables.fit[k >> OWNER_BITS] & hand
            while fits:
                low = fits & -fits
                fits ^= low
                actions.append(force_action(low.bit_length() - 1, j))
                plans.append(j)
    return tuple(actions), tuple(plans)


def turn_ends(
    tables: Tables,
    memo: Memo,
    player: int,
    turn: Turn,
    *,
    hand_melds: bool,
    other_kind: bool,
    limit: int = 1000,
) -> Iterator[Turn]:
    """Every way `player` can end the melding of `turn`: each turn reached with no card pending
    (T8, T9), once, by the moves of the search (`turn_moves` with ``search=True``: a meld of
    hand cards alone never helps place a pending card), at most `limit` of them.

    Only lines after which the turn can still be finished are followed (`finishable`).
    """
    seen: set[Turn] = set()
    stack = [turn]
    found = 0
    while stack and found < limit:
        at = stack.pop()
        moves = turn_moves(
            tables,
            memo,
            player,
            at,
            hand_melds=hand_melds,
            other_kind=other_kind,
            borrowing=True,
            search=True,
        )
        for _, after in moves:
            if after in seen:
                continue
            seen.add(after)
            if not after[PENDING]:
                found += 1
                yield after
                if found >= limit:
                    return
            elif finishable(
                tables, memo, player, after, hand_melds=hand_melds, other_kind=other_kind
            ):
                stack.append(after)
