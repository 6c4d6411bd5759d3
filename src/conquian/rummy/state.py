"""A position in a deal of Cooncan (rules M): `CooncanState`, its legal actions and `apply`.

The legal actions come from `turn` (M2, M3) and `melds` (M4, M5, M9); `apply` takes only
those and builds the next state from their entries. Settlement (M7, M8, M10) and the end of
a deal (M11) are here.
"""

from __future__ import annotations

from typing import final

from .._mypyc import mypyc_attr
from ..actions import Action, Discard, Draw, Force, Meld, Take, parse_action
from ..cards import Card, card_at
from ..combos.core import Combination
from ..errors import check_seat
from ..rules import CooncanRules
from ..state.base import History, Legal, Outcome, Result, State, extend_line
from .explain import why
from .melds import Fits, Memo, placed, resolve
from .tables import DISCARDS, DRAW, TAKES, Entry, Phase, physical, pips
from .turn import draw_legal, forget, play_legal, with_card, without, without_card
from .view import CooncanView

__all__ = ["CooncanState", "Deal"]


class Deal:
    """What stays the same over a deal (M1): its rules, dealer and deck, and what the turn
        reads of the rules (the number of seats, an open stock, the turn limit) and the deal's
    `Memo` of the plays it has made. One object
        shared by every state of the deal; two deals are equal when their rules, dealer and
        deck are."""

    __slots__ = ("dealer", "deck", "memo", "open_stock", "players", "rules", "turn_limit")

    def __init__(self, rules: CooncanRules, dealer: int, deck: tuple[Card, ...]) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck = deck
        self.players: int = rules.players
        self.open_stock: bool = rules.stock == "open"
        self.turn_limit: int | None = rules.turn_limit
        self.memo = Memo()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self is other or (
            self.dealer == other.dealer and self.deck == other.deck and self.rules == other.rules
        )

    def __hash__(self) -> int:
        return hash((self.rules, self.dealer, self.deck))

    def __repr__(self) -> str:
        return f"Deal({self.rules!r}, dealer={self.dealer}, deck=<{len(self.deck)} cards>)"

    def __reduce__(self) -> tuple[object, ...]:
        return (Deal, (self.rules, self.dealer, self.deck))


def _replaced(
    rows: tuple[tuple[Card, ...], ...], seat: int, row: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    """`rows` with `seat`'s row replaced by `row` (the same tuple when it is that row already)."""
    if rows[seat] is row:
        return rows
    return (*rows[:seat], row, *rows[seat + 1 :])


@final
@mypyc_attr(acyclic=True)
class CooncanState(State):
    """A position in a deal of Cooncan (rules M); `new_game` makes the first one.

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
    conquian.errors.IllegalActionError: illegal action 'discard 7H': you may not discard 7H, \
the card you took from the stock this turn (M2)
    """

    __slots__ = (
        "_current",
        "_deal",
        "_fit",
        "_hands",
        "_known",
        "_legal_cache",
        "_length",
        "_line",
        "_opened",
        "_pack",
        "_pack_at",
        "_pack_known",
        "_phase",
        "_result",
        "_stock",
        "_table",
        "_taken",
        "_turns",
    )

    def __init__(
        self,
        deal: Deal,
        hands: tuple[tuple[Card, ...], ...],
        table: tuple[Combination, ...],
        stock: tuple[Card, ...],
        pack: tuple[Card, ...],
        pack_at: int,
        pack_known: bool,
        current_player: int | None,
        phase: Phase,
        taken: Card | None,
        known: tuple[tuple[Card, ...], ...],
        opened: tuple[int, ...],
        turns: int,
        line: list[Action],
        length: int,
        result: Result | None,
        fit: Fits | None = None,
    ) -> None:
        """A state with these values; `conquian.new_game` and `apply` make them.

        The pack is ``pack[pack_at:]``; the history is the first `length`
        actions of `line` (`conquian.state.base.extend_line`); `opened` holds per
        seat the turn of his first Meld or Force (-1: none yet, M8); `fit`,
        what may go on each combination of the table (`melds.Fits`, made from
        the table when not given).
        """
        self._deal = deal
        self._hands = hands
        self._table = table
        self._stock = stock
        self._pack = pack
        self._pack_at = pack_at
        self._pack_known = pack_known
        self._current = current_player
        self._phase: Phase = phase
        self._taken = taken
        self._known = known
        self._opened = opened
        self._turns = turns
        self._line = line
        self._length = length
        self._result = result
        self._fit = Fits.of(table) if fit is None else fit
        self._legal_cache = None

    # -- the value: read-only fields, equality, hashing, pickling ---------------------------

    @property
    def table(self) -> tuple[Combination, ...]:
        """The combinations on the table, in the order laid, each with its `owner`."""
        return self._table

    @property
    def stock(self) -> tuple[Card, ...]:
        """The face-up discards, oldest first, top last (M3)."""
        return self._stock

    @property
    def current_player(self) -> int | None:
        """The seat that acts next, or None when the deal is over."""
        return self._current

    @property
    def phase(self) -> Phase:
        """``"draw"`` before the current player has drawn or taken this turn, ``"play"`` after."""
        return self._phase

    @property
    def turns(self) -> int:
        """How many turns have ended so far (M11)."""
        return self._turns

    @property
    def result(self) -> Result | None:
        """None while the deal goes on, then its `Result` (M7, M8, M10, M11)."""
        return self._result

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._result is not None

    def _value(self) -> tuple[object, ...]:
        # The fitting cards follow from the table; the history compares by its actions.
        return (
            self._deal,
            self._hands,
            self._table,
            self._stock,
            self._pack,
            self._pack_at,
            self._pack_known,
            self._current,
            self._phase,
            self._taken,
            self._known,
            self._opened,
            self._turns,
            self._length,
            self._result,
        )

    def _line_of(self) -> tuple[list[Action], int]:
        return self._line, self._length

    def __reduce__(self) -> tuple[object, ...]:
        n = self._length
        return (
            CooncanState,
            (
                self._deal,
                self._hands,
                self._table,
                self._stock,
                self._pack,
                self._pack_at,
                self._pack_known,
                self._current,
                self._phase,
                self._taken,
                self._known,
                self._opened,
                self._turns,
                self._line[:n],
                n,
                self._result,
            ),
        )

    # -- what the state shows ---------------------------------------------------------------

    @property
    def rules(self) -> CooncanRules:
        """The rules this deal is played under."""
        return self._deal.rules

    @property
    def dealer(self) -> int:
        """The dealer's seat; the player on his left plays first (M2)."""
        return self._deal.dealer

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole pack in the order it was dealt, top card first: for records, never in a view.

        >>> len(new_game(CooncanRules.three_hand(), seed=1).deck)
        52
        """
        return self._deal.deck

    def __repr__(self) -> str:
        who = "over" if self.current_player is None else f"seat {self.current_player}"
        hands = "; ".join(" ".join(map(str, h)) or "-" for h in self._hands)
        table = ", ".join(f"@{i} {combo}" for i, combo in enumerate(self.table)) or "-"
        return (
            f"<CooncanState {self.rules.variant}, turn {self.turns}, {who} to "
            f"{self.phase}, {self._length} actions; hands {hands}; table {table}>"
        )

    @property
    def history(self) -> History:
        """The actions applied since the deal, in order (Draw shows no card, so it is public).

        >>> new_game(CooncanRules.three_hand(), seed=1).apply("draw").history
        (parse_action('draw'),)
        """
        return History.of_line(self._line, self._length)

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

    def hand(self, player: object) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order.

        >>> len(new_game(CooncanRules.three_hand(), seed=3).hand(0))
        7
        """
        return self._hands[check_seat(player, len(self._hands))]

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

    def view(self, player: object) -> CooncanView:
        """All that `player` may know of this deal, and nothing more (C6).

        While the deal goes on: his hand, the other hands' known cards (taken
        from the stock, or drawn from the turned stock), the table, the stock
        and the turned pack when everyone saw it. Once it is over every hand
        is shown (C6 "Showing"), so `unseen` holds only the pack's cards.

        >>> v = new_game(CooncanRules.three_hand(), seed=3).view(0)
        >>> v.hand_sizes, len(v.unseen), v.known_pack is None
        ((7, 7, 7), 44, True)
        """
        n = self.rules.players
        seat = check_seat(player, n)
        over = self.result is not None
        counts = [0] * 53
        for c in self.rules.pack_cards():
            counts[c.index] += 1
        seen: list[Card] = [*self._hands[seat], *self.stock]
        for combo in self.table:
            seen.extend(combo.physical_cards)
        known = self._known
        for q in range(n):
            if q != seat:
                seen.extend(self._hands[q] if over else known[q])
        known_pack = self.pack if self._pack_known else None
        if known_pack is not None:
            seen.extend(known_pack)
        for c in seen:
            counts[c.index] -= 1
        unseen = tuple(card_at(i) for i in range(53) for _ in range(counts[i]))
        return CooncanView(
            rules=self.rules,
            player=seat,
            dealer=self.dealer,
            current_player=self.current_player,
            phase=self.phase,
            hand=self._hands[seat],
            hand_sizes=tuple(len(self._hands[q]) for q in range(n)),
            table=self.table,
            stock=self.stock,
            pack_size=self.pack_size,
            known=known,
            known_pack=known_pack,
            history=self.history,
            turns=self.turns,
            result=self.result,
            legal_actions=self.legal_actions() if seat == self.current_player else (),
            unseen=unseen,
            hands=tuple(self._hands[q] for q in range(n)) if over else None,
        )

    # -- legal actions (M2-M5, M9) ----------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the current player may take, in a deterministic order (M2-M5, M9).

        >>> [str(a) for a in new_game(CooncanRules.three_hand(), seed=3).legal_actions()]
        ['draw', 'take 3D']
        """
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._generate_legal()  # a cache, not part of the value
        return legal[0]

    def _generate_legal(self) -> Legal:
        """The legal actions, each with what `apply` needs (its entry): the one rule implementation.

        Draw phase: ``draw``, then ``take`` (the top of a closed stock, or
        each card of an open one in canonical order). Play phase: new
        combinations, additions to his own, joker shifts on his own, forces
        on the others', forces with a joker shift, then discards. No action
        is offered after which he could not finish his turn (M2).
        """
        p = self._current
        if p is None:
            return (), ()
        hand = self._hands[p]
        if self._phase == "draw":
            return draw_legal(
                hand,
                self._stock,
                self._deal.open_stock,
                self._table,
                self._fit,
                p,
                self._deal.memo,
            )
        return play_legal(hand, self._taken, self._table, self._fit, p, self._deal.memo)

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        return why(self, action)

    # -- applying an action -----------------------------------------------------------------

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
        # The entry of the object `legal_actions` gave (by identity) or of an equal one (E1).
        legal = self._legal_cache
        found: object = None
        if legal is not None:
            actions, entries = legal
            i = 0
            for a in actions:
                if a is action:
                    found = entries[i]
                    break
                i += 1  # noqa: SIM113
        if found is None:
            found = self._plan(action)
        entry: Entry = found  # type: ignore[assignment]
        action, combo, _ = entry  # the engine's own copy of the action
        p = self._current
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
        """Law 11: the top card of the pack, unseen by the others (M2)."""
        pack, at, pack_known, stock = self._pack, self._pack_at, self._pack_known, self._stock
        if at >= len(pack):
            # M11, law 25, p. 11: the stock turned down is the pack, its oldest card on top.
            pack, at, pack_known, stock = stock, 0, True, ()
        drawn = pack[at]
        known = self._known
        if pack_known:  # everyone saw the turned stock (C6, M11)
            known = _replaced(known, p, with_card(known[p], drawn))
        n = self._length
        return CooncanState(
            self._deal, _replaced(self._hands, p, with_card(self._hands[p], drawn)),
            self._table, stock, pack, at + 1, pack_known, p, "play", None, known,
            self._opened, self._turns, extend_line(self._line, n, DRAW), n + 1, None, self._fit,
        )  # fmt: skip

    def _take(self, p: int, c: Card) -> CooncanState:
        """A face-up card of the stock: the top one, or any when the stock is open (M3)."""
        stock = self._stock
        i = len(stock) - 1 - stock[::-1].index(c)
        n = self._length
        return CooncanState(
            self._deal, _replaced(self._hands, p, with_card(self._hands[p], c)),
            self._table, stock[:i] + stock[i + 1 :], self._pack, self._pack_at,
            self._pack_known, p, "play", c,
            _replaced(self._known, p, with_card(self._known[p], c)), self._opened,
            self._turns, extend_line(self._line, n, TAKES[c.index]), n + 1, None, self._fit,
        )  # fmt: skip

    def _lay(self, p: int, action: Meld | Force, combo: Combination | None) -> CooncanState:
        """A Meld or a Force (M4, M5, M9); the player wins if his hand is empty (M10)."""
        played = (
            tuple(physical(f) for f in action.cards)
            if type(action) is Meld
            else (physical(action.card),)  # type: ignore[union-attr]
        )
        table, fit = placed(
            self._table, self._fit, action.onto, resolve(action, combo, self._table)
        )
        hand = without(self._hands[p], played)
        hands = _replaced(self._hands, p, hand)
        known = _replaced(self._known, p, forget(self._known[p], played))
        opened = self._opened
        if opened[p] < 0:  # his first Meld or Force of the deal (M8)
            opened = (*opened[:p], self._turns, *opened[p + 1 :])
        n = self._length
        line = extend_line(self._line, n, action)
        if hand:
            return CooncanState(
                self._deal, hands, table, self._stock, self._pack, self._pack_at,
                self._pack_known, p, "play", self._taken, known, opened, self._turns,
                line, n + 1, None, fit,
            )  # fmt: skip
        # M10, laws 21-22: he wins the moment his hand is empty.
        return CooncanState(
            self._deal, hands, table, self._stock, self._pack, self._pack_at,
            self._pack_known, None, "play", self._taken, known, opened, self._turns + 1,
            line, n + 1, self._settle(p, opened), fit,
        )  # fmt: skip

    def _discard(self, p: int, c: Card) -> CooncanState:
        """A card face up on the stock ends the turn; play passes to the left (M2)."""
        hand = without_card(self._hands[p], c)
        turns = self._turns + 1
        deal = self._deal
        player: int | None = p + 1 if p + 1 < deal.players else 0
        result = None
        limit = deal.turn_limit
        if not hand:  # M10, law 21: going out by discarding the last card
            player, result = None, self._settle(p, self._opened)
        elif limit is not None and turns >= limit:  # M11: abandoned, no payments
            player, result = None, Result(Outcome.ABANDONED, None, (0,) * deal.players)
        n = self._length
        return CooncanState(
            deal, _replaced(self._hands, p, hand), self._table, (*self._stock, c),
            self._pack, self._pack_at, self._pack_known, player, "draw", None,
            _replaced(self._known, p, forget(self._known[p], (c,))), self._opened, turns,
            extend_line(self._line, n, DISCARDS[c.index]), n + 1, result, self._fit,
        )  # fmt: skip

    def _settle(self, winner: int, opened: tuple[int, ...]) -> Result:
        """Every other player pays the winner his pips (M7), plus any splash bonus (M8).

        A splash is going out in the turn of one's first Meld or Force: nothing
        laid down or added before (p. 11); the last card may go by discarding
        (p. 18).
        """
        bonus = self._deal.rules.splash_bonus
        extra = bonus if bonus is not None and opened[winner] in (-1, self.turns) else 0
        hands = self._hands  # the winner's own is empty, or all but the card he discards
        payments = [0] * len(hands)
        for q, hand in enumerate(hands):
            if q != winner:
                owed = pips(hand) + extra
                payments[q] = -owed
                payments[winner] += owed
        return Result(Outcome.WIN, winner, tuple(payments))
