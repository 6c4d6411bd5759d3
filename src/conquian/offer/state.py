"""A deal of the offer game as a value: `ConquianState` (the deal itself is in `start`).

A state holds the deal (`Deal`: rules, dealer, deck, the engine's tables and
memo), who acts, the card on offer and its origin, the table, the buried cards,
the result, the `Board` (hands, melds' keys and the turn in progress, as ints)
and the `History`; `apply` follows the plan the legal actions were made with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

from .._mypyc import mypyc_attr
from ..actions import Action, Discard, Force, Pass, Take, Trade, parse_action
from ..cards import Card
from ..combos.core import Combination
from ..errors import check_seat
from ..rules import ConquianRules
from ..state.base import History, Legal, Result, State
from ..state.line import extend_line
from .board import CARDS, HANDS, KEYS, OWNER, PENDING, Board, Turn, cards_of
from .dealing import Deal
from .explain import Position, text, why_ended, why_illegal
from .say import say_actions
from .tables import combination
from .trade import after_trade, choosers, trade_actions, why_not_trade
from .trading import known_cards, masked
from .turn import melding_actions, won
from .view import ConquianView, Origin

__all__ = ["ConquianState"]

_TURNED: Final[Origin] = "turned"
_PASSED: Final[Origin] = "passed"
_DISCARDED: Final[Origin] = "discarded"
_NO_ACTIONS: Final[Legal] = ((), ())


@final
@mypyc_attr(acyclic=True)
class ConquianState(State):
    """A deal of Conquian for 2 to 4 (rules T): an immutable value; `apply` returns a new one.

    Between turns `offer` is the card face up in the centre and
    `current_player` has the say to it (T4); `offer_origin` tells whether he
    turned it, or the player on his right passed or discarded it, which
    decides what he may do (T5–T7, T17). After a `Take` or a force `offer` is None and the player
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

    __slots__ = (
        "_board",
        "_buried",
        "_current",
        "_deal",
        "_legal_cache",
        "_length",
        "_line",
        "_offer",
        "_origin",
        "_result",
        "_table",
        "_trade",
    )

    def __init__(
        self,
        deal: Deal,
        current_player: int | None,
        offer: Card | None,
        offer_origin: Origin | None,
        table: tuple[Combination, ...],
        buried: tuple[Card, ...],
        result: Result | None,
        board: Board,
        line: list[Action],
        length: int,
        trade: tuple[int, ...] | None = None,
    ) -> None:
        """A state with these values; `conquian.new_game` and `apply` make them.

        `board` holds every seat's hand, the keys of `table`'s melds and the turn in
        progress (`board.Board`); the history is the first `length` actions of
        `line` (`conquian.state.base.extend_line`). `trade` is None except in the trade
        rounds (T21), where it holds the `Card.index` of each card chosen so far in the
        round, in the order chosen (from the pone).
        """
        self._deal = deal
        self._current = current_player
        self._offer = offer
        self._origin = offer_origin
        self._table = table
        self._buried = buried
        self._result = result
        self._board = board
        self._line = line
        self._length = length
        self._trade = trade
        self._legal_cache = None

    # -- the value: read-only fields, equality, hashing, pickling ------------------

    @property
    def current_player(self) -> int | None:
        """The seat that acts next, or None when the deal is over."""
        return self._current

    @property
    def offer(self) -> Card | None:
        """The card on offer (T4), or None while a player is melding or the deal is over."""
        return self._offer

    @property
    def offer_origin(self) -> Origin | None:
        """Where the card on offer came from: ``"turned"``, ``"passed"`` or ``"discarded"``."""
        return self._origin

    @property
    def table(self) -> tuple[Combination, ...]:
        """The melds on the table, in the order they were laid down (each with its owner)."""
        return self._table

    @property
    def buried(self) -> tuple[Card, ...]:
        """The cards buried face down (T6, T7), in the order buried."""
        return self._buried

    @property
    def result(self) -> Result | None:
        """None while the deal goes on, then its `Result` (T2, T12, T13)."""
        return self._result

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._result is not None

    def _value(self) -> tuple[object, ...]:
        # The board's keys follow from the table; the history compares by its actions.
        return (
            self._deal,
            self._current,
            self._offer,
            self._origin,
            self._table,
            self._buried,
            self._result,
            self._board,
            self._trade,
            self._length,
        )

    def _line_of(self) -> tuple[list[Action], int]:
        return self._line, self._length

    def __reduce__(self) -> tuple[object, ...]:
        n = self._length
        values = self._value()[:-2]
        return (ConquianState, (*values, self._line[:n], n, self._trade))

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

    def hand(self, player: object) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order.

        >>> len(new_game(ConquianRules(hand_size=9), seed=1).hand(0))
        9
        """
        return cards_of(self._board[HANDS][check_seat(player, self._deal.players)])

    @property
    def pending(self) -> tuple[Card, ...]:
        """The cards taken or borrowed that must still be melded in this turn, in canonical order.

        >>> new_game(ConquianRules(), seed=5).apply("take KD").pending
        (card('KD'),)
        """
        return cards_of(self._board[PENDING])

    @property
    def stock_size(self) -> int:
        """How many cards are left face down in the stock (the card on offer is not counted).

        >>> new_game(ConquianRules(hand_size=8), seed=1).stock_size
        23
        """
        return len(self._deal.deck) - self._stock

    @property
    def pack_size(self) -> int:
        """The face-down pile, by the name every game shares (here the stock: `stock_size`)."""
        return len(self._deal.deck) - self._stock

    @property
    def _stock(self) -> int:
        """The position in the deck of the next card to turn: each card buried had the next
        one turned (T6, T7), save the last on a tableau (T12); in the trade rounds, the
        starter's (T21)."""
        deal = self._deal
        if self._trade is not None:  # T21: the starter is not turned yet
            return deal.stock_start - 1
        return min(deal.stock_start + len(self.buried), len(deal.deck))

    @property
    def history(self) -> History:
        """The actions applied since the deal, oldest first (a `History`, read as a tuple).

        >>> new_game(ConquianRules(), seed=7).apply("pass").history
        (parse_action('pass'),)
        """
        return History.of_line(self._line, self._length)

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
        legal = self._legal_cache
        if legal is None:
            deal = self._deal
            player = self._current
            offer = self._offer
            if player is None:  # the deal is over
                legal = _NO_ACTIONS
            elif offer is not None:  # T4-T8, T10, T11: the say
                hands, keys, _, _, _ = self._board
                # T18: a card he turned is forced onto his left neighbour's melds, a passed
                # card back onto the passer's (on his right), a discard onto nobody's.
                origin = self._origin
                if origin == _TURNED:
                    victim = deal.left[player]
                elif origin == _PASSED:
                    victim = deal.right[player]
                else:
                    victim = -1
                legal = say_actions(deal, player, hands[player], keys, offer, victim)
            elif self._trade is not None:  # T21: a trade round, one card of his hand
                legal = trade_actions(self._board[HANDS][player])
            else:  # T8-T10: melding
                hands, keys, pending, borrowed, sources = self._board
                turn = (hands[player], keys, pending, borrowed, sources)
                legal = melding_actions(
                    deal.tables,
                    deal.memo,
                    player,
                    turn,
                    hand_melds=deal.hand_melds,
                    other_kind=deal.other_kind,
                    victim=deal.left[player],  # T18: onto the left neighbour's melds
                )
            self._legal_cache = legal  # a cache, not part of the value
        return legal[0]

    def _generate_legal(self) -> Legal:
        self.legal_actions()
        legal = self._legal_cache
        assert legal is not None
        return legal

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
        offer = self._offer
        if type(action) is Pass and offer is not None:
            # T5-T7: whoever has the say may pass. A pass changes neither the hands nor the
            # table (nothing is pending in a say state).
            player = self._current
            assert player is not None
            deal = self._deal
            line = extend_line(self._line, self._length, action)
            if self._origin == _TURNED:  # T5, T17: to his left neighbour, as passed
                return ConquianState(
                    deal,
                    deal.left[player],
                    offer,
                    _PASSED,
                    self._table,
                    self._buried,
                    None,
                    self._board,
                    line,
                    self._length + 1,
                )
            # T6, T7: a passed or discarded card is buried and he turns the next stock card,
            # on offer to himself. T12: a tableau when none is left.
            buried = (*self._buried, offer)
            stock = deal.stock_start + len(self._buried)
            deck = deal.deck
            if stock >= len(deck):
                return ConquianState(
                    deal,
                    None,
                    None,
                    None,
                    self._table,
                    buried,
                    deal.results[1],
                    self._board,
                    line,
                    self._length + 1,
                )
            # T22: the starter refused by both who had the say to it (a passed card with
            # nothing buried yet) is followed by the pone's turn under after_starter="pone".
            if self._origin == _PASSED and not self._buried and deal.rules.after_starter == "pone":
                player = deal.left[deal.dealer]
            return ConquianState(
                deal,
                player,
                deck[stock],
                _TURNED,
                self._table,
                buried,
                None,
                self._board,
                line,
                self._length + 1,
            )
        if isinstance(action, str):
            return self.apply(parse_action(action))  # as if the action itself were given
        # The plan of the very object `legal_actions` gave (found by identity), or of an equal
        # one; else the error saying why the action is not legal (E1).
        legal = self._legal_cache
        plan: object = None
        if legal is not None:
            actions, plans = legal
            i = 0
            for a in actions:
                if a is action:
                    plan = plans[i]
                    break
                i += 1  # noqa: SIM113
            else:
                plan = self._plan(action)
        else:
            plan = self._plan(action)
        line = extend_line(self._line, self._length, action)
        kind = type(action)
        player = self._current
        assert player is not None
        hands, keys, _, _, _ = self._board
        if kind is Take:
            assert offer is not None  # T8: the taken card is pending, never in the hand
            return self._next(line, player, None, None, (hands, keys, 1 << offer.index, 0, ()))
        if kind is Force:
            assert isinstance(plan, int) and isinstance(action, Force)
            return self._after_force(line, action.card.index, plan)  # type: ignore[union-attr]
        if kind is Trade:
            return self._after_trade(line, player, action.card.index)  # type: ignore[union-attr]
        if kind is Discard:
            assert isinstance(action, Discard)
            index = action.card.index
            board = (self._without(player, 1 << index), keys, 0, 0, ())
            # T7, T17: the discard goes on offer to his left neighbour.
            return self._next(line, self._deal.left[player], CARDS[index], _DISCARDED, board)
        assert isinstance(plan, tuple)  # Meld or Borrow: the plan is the turn after it
        return self._after_turn_move(line, player, plan)

    @property
    def trading(self) -> bool:
        """Whether the deal is in its trade rounds (T21): the starter is not turned yet, and
        each player in turn chooses a card to pass to his left neighbour.

        >>> new_game(ConquianRules(trades=1), seed=5).trading
        True
        """
        return self._trade is not None

    @property
    def traded(self) -> tuple[int, ...]:
        """The seats that have chosen their card in the trade round under way, in the order
        they chose (from the pone); empty outside the trade rounds (T21). Which card each
        chose is in the history, and hidden from the others in their views (C6).

        >>> new_game(ConquianRules(trades=1), seed=5).apply("trade 2S").traded
        (1,)
        """
        chosen = self._trade
        return choosers(self._deal, chosen) if chosen else ()

    def _after_trade(self, line: list[Action], player: int, index: int) -> ConquianState:
        """T21: the card of `index` is chosen (`trade.after_trade`); after the last round
        the starter is on offer to the pone as if he had turned it (T11)."""
        current, starter, board, chosen = after_trade(
            self._deal, self._trade or (), index, self._board, player, self._length
        )
        return ConquianState(
            self._deal, current, starter, None if starter is None else _TURNED, self._table,
            self._buried, None, board, line, self._length + 1, chosen,
        )  # fmt: skip

    def _without(self, player: int, cards: int) -> tuple[int, ...]:
        """The hands, with `cards` gone from `player`'s."""
        hands = list(self._board[HANDS])
        hands[player] &= ~cards
        return tuple(hands)

    def _next(
        self,
        line: list[Action],
        current: int | None,
        offer: Card | None,
        origin: Origin | None,
        board: Board,
        result: Result | None = None,
    ) -> ConquianState:
        """The successor with these fields; the table follows from the board's keys."""
        if board[KEYS] is self._board[KEYS]:
            table = self._table
        else:
            table = tuple([combination(k) for k in board[KEYS]])
        return ConquianState(
            self._deal,
            current,
            offer,
            origin,
            table,
            self._buried,
            result,
            board,
            line,
            self._length + 1,
        )

    def _after_force(self, line: list[Action], index: int, j: int) -> ConquianState:
        """T10, T18: the card joins meld `j` of its owner, who wins (T2) or plays on, melding."""
        player = self.current_player
        assert player is not None
        deal = self._deal
        hands, keys, _, _, _ = self._board
        victim = keys[j] & OWNER
        keys = (*keys[:j], deal.tables.force_onto(keys[j], index), *keys[j + 1 :])
        if self.offer is None:  # from the hand, in place of a discard (T8)
            hands = self._without(player, 1 << index)
        board = (hands, keys, 0, 0, ())
        if won(deal.win, keys, victim):
            return self._next(line, None, None, None, board, deal.results[0][victim])
        return self._next(line, victim, None, None, board)

    def _after_turn_move(self, line: list[Action], player: int, turn: Turn) -> ConquianState:
        """After a `Meld` or a `Borrow` (T8, T9): with only the say, the offer stays."""
        hand, keys, pending, borrowed, sources = turn
        seats = list(self._board[HANDS])
        seats[player] = hand
        hands = tuple(seats)
        if self.offer is not None:  # laid down from the hand while having the say
            return self._next(line, player, self.offer, self.offer_origin, (hands, keys, 0, 0, ()))
        if not pending and won(self._deal.win, keys, player):
            win = self._deal.results[0][player]
            return self._next(line, None, None, None, (hands, keys, 0, 0, ()), win)
        return self._next(line, player, None, None, (hands, keys, pending, borrowed, sources))

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        """The reason `action` is not legal now, in the game's words, and the rule's id."""
        if self.result is not None:
            return why_ended(self.result)
        player = self.current_player
        assert player is not None
        if self._trade is not None or type(action) is Trade:
            return why_not_trade(self.rules, self.trading, action)
        _, _, _, borrowed, sources = self._board
        at = Position(
            self.rules,
            self._deal.tables.order,
            player,
            self.offer,
            self.offer_origin,
            self.table,
            self.hand(player),
            self.pending,
            borrowed,
            sources,
        )
        return why_illegal(action, at)

    # -- views and repr -------------------------------------------------------------

    def view(self, player: object) -> ConquianView:
        """All that `player` may know of this deal, and nothing more (C6).

        Once the deal is over every hand is shown (C6 "Showing", T19): the
        view's `hands` holds them and `unseen` is the stock left. Every turned
        card and where it went is in the history, which every player sees.

        >>> view = new_game(ConquianRules(), seed=7).view(0)
        >>> len(view.hand), view.hand_sizes, len(view.unseen), view.legal_actions, view.hands
        (10, (10, 10), 29, (), None)
        """
        seat = check_seat(player, self._deal.players)
        hand = self.hand(seat)
        hands = self._board[HANDS]
        stock = self._deal.deck[self._stock :]
        history: Sequence[Action] = self.history
        trades = self._deal.rules.trades
        if self._result is None:
            shown = None
            others = 0
            for p, h in enumerate(hands):
                if p != seat:
                    others |= h
            if trades and self._length:  # T21, C6: the cards he knows he gave
                for c, q in known_cards(history, len(hands), self.dealer, trades, seat).items():
                    others &= ~(hands[q] & 1 << c.index)
            unseen = tuple(sorted(cards_of(others) + stock))
        else:
            shown = tuple([cards_of(h) for h in hands])
            unseen = tuple(sorted(stock))
        if trades and self._length:  # T21, C6: the others' choices hidden
            history = masked(history, len(hands), self.dealer, trades, seat)
        return ConquianView(
            rules=self.rules,
            player=seat,
            dealer=self.dealer,
            current_player=self._current,
            hand=hand,
            hand_sizes=tuple([h.bit_count() for h in hands]),
            table=self._table,
            offer=self._offer,
            offer_origin=self._origin,
            pending=self.pending,
            stock_size=self.stock_size,
            buried=self._buried,
            history=history,
            result=self._result,
            legal_actions=self.legal_actions() if self._current == seat else (),
            unseen=unseen,
            hands=shown,
        )

    def __repr__(self) -> str:
        hands = ", ".join(text(self.hand(p)) or "-" for p in range(self._deal.players))
        table = "; ".join(f"@{i} ({m.owner}) {m}" for i, m in enumerate(self.table))
        return (
            f"<ConquianState dealer={self.dealer} current_player={self.current_player} "
            f"offer={self.offer} ({self.offer_origin}) pending=[{text(self.pending)}] "
            f"hands=[{hands}] table=[{table}] stock_size={self.stock_size} "
            f"result={self.result} history={self._length} actions>"
        )
