"""A position in a deal of Cooncan (RULES.md M): `CooncanState`, its legal actions and `apply`.

The legal actions come from `conquian.cooncan.turn` (M2, M3) and
`conquian.cooncan.melds` (M4, M5, M9); `apply` accepts exactly those and
builds the next state with `CooncanState._successor`; the settlement (M7,
M8, M10) and the end of a deal (M11) are here.
"""

from __future__ import annotations

import attrs

from ..actions import Action, Discard, Draw, Force, Meld, Take, parse_action
from ..cards import Card, card_at
from ..combos import Combination
from ..rules import CooncanRules
from ..state import History, Legal, Outcome, Result, State
from .explain import why
from .melds import placed, resolve
from .tables import DISCARDS, DRAW, TAKES, Entry, Phase, fit_of, physical, pips
from .turn import draw_entries, forget, play_entries, with_card, without
from .view import CooncanView, check_seat

__all__ = ["CooncanState"]


def _no_fit(state: CooncanState) -> tuple[tuple[Card, ...], ...]:
    return tuple(fit_of(combo) for combo in state.table)


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

    _deal: tuple[CooncanRules, int, tuple[Card, ...]]  # the rules, dealer and deck: fixed
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
    _legal_cache: Legal | None = attrs.field(
        init=False, default=None, eq=False, hash=False, repr=False
    )

    # -- building the next state ------------------------------------------------------------

    def _successor(
        self,
        action: Action,
        seat: int,
        hand: tuple[Card, ...],
        known: tuple[Card, ...],
        player: int | None,
        phase: Phase,
        taken: Card | None,
        turns: int,
        result: Result | None = None,
        *,
        table: tuple[Combination, ...] | None = None,
        fit: tuple[tuple[Card, ...], ...] | None = None,
        stock: tuple[Card, ...] | None = None,
        pack: tuple[Card, ...] | None = None,
        pack_at: int | None = None,
        pack_known: bool | None = None,
        opened: tuple[int, ...] | None = None,
    ) -> CooncanState:
        """The state after `seat` played `action`: his `hand` and `known` cards, the turn, result.

        Only the seat that acts changes his hand and what the others know of
        it; the table, its fitting cards, the stock, the pack and who has
        opened stay this state's unless given.
        """
        hands = list(self._hands)
        hands[seat] = hand
        all_known = self._known
        if all_known[seat] is not known:  # unchanged known cards are shared (memory)
            all_known = (*all_known[:seat], known, *all_known[seat + 1 :])
        return CooncanState(
            self._deal,
            tuple(hands),
            self.table if table is None else table,
            self.stock if stock is None else stock,
            self._pack if pack is None else pack,
            self._pack_at if pack_at is None else pack_at,
            self._pack_known if pack_known is None else pack_known,
            player,
            phase,
            taken,
            all_known,
            self._opened if opened is None else opened,
            turns,
            self._log.append(action),
            result,
            self._fit if fit is None else fit,
        )

    # -- what the state shows ---------------------------------------------------------------

    @property
    def rules(self) -> CooncanRules:
        """The rules this deal is played under."""
        return self._deal[0]

    @property
    def dealer(self) -> int:
        """The dealer's seat; the player on his left plays first (M2)."""
        return self._deal[1]

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole pack in the order it was dealt, top card first: for records, never in a view.

        >>> len(new_game(CooncanRules.three_hand(), seed=1).deck)
        52
        """
        return self._deal[2]

    def __repr__(self) -> str:
        who = "over" if self.current_player is None else f"seat {self.current_player}"
        hands = "; ".join(" ".join(map(str, h)) or "-" for h in self._hands)
        table = ", ".join(f"@{i} {combo}" for i, combo in enumerate(self.table)) or "-"
        return (
            f"<CooncanState {self.rules.variant}, turn {self.turns}, {who} to "
            f"{self.phase}, {len(self._log)} actions; hands {hands}; table {table}>"
        )

    @property
    def history(self) -> History:
        """The actions applied since the deal, in order (Draw shows no card, so it is public).

        >>> new_game(CooncanRules.three_hand(), seed=1).apply("draw").history
        (parse_action('draw'),)
        """
        return self._log

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

    def view(self, player: int) -> CooncanView:
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
        check_seat(player, n)
        over = self.result is not None
        counts = [0] * 53
        for c in self.rules.pack_cards():
            counts[c.index] += 1
        seen: list[Card] = [*self._hands[player], *self.stock]
        for combo in self.table:
            seen.extend(combo.physical_cards)
        known = self._known
        for q in range(n):
            if q != player:
                seen.extend(self._hands[q] if over else known[q])
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
            hand_sizes=tuple(len(self._hands[q]) for q in range(n)),
            table=self.table,
            stock=self.stock,
            pack_size=self.pack_size,
            known=known,
            known_pack=known_pack,
            history=self.history,
            turns=self.turns,
            result=self.result,
            legal_actions=self.legal_actions() if player == self.current_player else (),
            unseen=unseen,
            hands=tuple(self._hands[q] for q in range(n)) if over else None,
        )

    # -- legal actions (M2-M5, M9) ----------------------------------------------------------

    def _generate_legal(self) -> Legal:
        """The legal actions, each with what `apply` needs (its entry): the one rule implementation.

        Draw phase: ``draw``, then ``take`` (the top of a closed stock, or
        each card of an open one in canonical order). Play phase: new
        combinations, additions to his own, joker shifts on his own, forces
        on the others', forces with a joker shift, then discards. No action
        is offered after which he could not finish his turn (M2).
        """
        p = self.current_player
        if p is None:
            return (), ()
        hand = self._hands[p]
        if self.phase == "draw":
            open_stock = self._deal[0].stock == "open"
            entries = draw_entries(hand, self.stock, open_stock, self.table, self._fit, p)
        else:
            entries = play_entries(hand, self._taken, self.table, self._fit, p)
        return tuple([entry[0] for entry in entries]), tuple(entries)

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
        entry: Entry = self._plan(action)  # type: ignore[assignment]
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
        """Law 11: the top card of the pack, unseen by the others (M2)."""
        pack, at, pack_known, stock = self._pack, self._pack_at, self._pack_known, self.stock
        if at >= len(pack):
            # M11, law 25, p. 11: the stock is turned face down and becomes the
            # pack, its oldest card on top; the discard starts a new stock.
            pack, at, pack_known, stock = stock, 0, True, ()
        drawn = pack[at]
        known = self._known[p]
        if pack_known:  # everyone saw the turned stock (C6, M11)
            known = with_card(known, drawn)
        return self._successor(
            DRAW, p, with_card(self._hands[p], drawn), known, p, "play", None, self.turns,
            stock=stock, pack=pack, pack_at=at + 1, pack_known=pack_known,
        )  # fmt: skip

    def _take(self, p: int, c: Card) -> CooncanState:
        """A face-up card of the stock: the top one, or any when the stock is open (M3)."""
        stock = self.stock
        i = len(stock) - 1 - stock[::-1].index(c)
        return self._successor(
            TAKES[c.index], p, with_card(self._hands[p], c), with_card(self._known[p], c),
            p, "play", c, self.turns, stock=stock[:i] + stock[i + 1 :],
        )  # fmt: skip

    def _lay(self, p: int, action: Meld | Force, combo: Combination | None) -> CooncanState:
        """A Meld or a Force (M4, M5, M9); the player wins if his hand is empty (M10)."""
        played = (
            tuple(physical(f) for f in action.cards)
            if type(action) is Meld
            else (physical(action.card),)  # type: ignore[union-attr]
        )
        table, fit = placed(self.table, self._fit, action.onto, resolve(action, combo, self.table))
        hand = without(self._hands[p], played)
        known = forget(self._known[p], played)
        opened = self._opened
        if opened[p] < 0:  # his first Meld or Force of the deal (M8)
            opened = (*opened[:p], self.turns, *opened[p + 1 :])
        if hand:
            return self._successor(
                action, p, hand, known, p, "play", self._taken, self.turns,
                table=table, fit=fit, opened=opened,
            )  # fmt: skip
        # M10, laws 21-22: he wins the moment his hand is empty.
        return self._successor(
            action, p, hand, known, None, "play", self._taken, self.turns + 1,
            self._settle(p, opened), table=table, fit=fit, opened=opened,
        )  # fmt: skip

    def _discard(self, p: int, c: Card) -> CooncanState:
        """A card face up on the stock ends the turn; play passes to the left (M2)."""
        hand = without(self._hands[p], (c,))
        turns = self.turns + 1
        player: int | None = (p + 1) % len(self._hands)
        result = None
        limit = self._deal[0].turn_limit
        if not hand:  # M10, law 21: going out by discarding the last card
            player, result = None, self._settle(p, self._opened)
        elif limit is not None and turns >= limit:  # M11: abandoned, no payments
            player, result = None, Result(Outcome.ABANDONED, None, (0,) * len(self._hands))
        return self._successor(
            DISCARDS[c.index], p, hand, forget(self._known[p], (c,)), player, "draw", None,
            turns, result, stock=(*self.stock, c),
        )  # fmt: skip

    def _settle(self, winner: int, opened: tuple[int, ...]) -> Result:
        """Every other player pays the winner his pips (M7), plus any splash bonus (M8).

        A splash is going out in the turn of one's first Meld or Force: nothing
        laid down or added before (p. 11); the last card may go by discarding
        (p. 18).
        """
        bonus = self.rules.splash_bonus
        extra = bonus if bonus is not None and opened[winner] in (-1, self.turns) else 0
        hands = self._hands  # the winner's own is empty, or all but the card he discards
        payments = [0] * len(hands)
        for q, hand in enumerate(hands):
            if q != winner:
                owed = pips(hand) + extra
                payments[q] = -owed
                payments[winner] += owed
        return Result(Outcome.WIN, winner, tuple(payments))
