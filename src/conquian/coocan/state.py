"""A position in a deal of Coo-Can (rules K1–K9): `CooCanState`, its legal actions and `apply`.

The legal actions are worked out here from `melds` (K4, K5, the Cooch of K9)
and the turn of K2, K3 and K7; `apply` accepts only those. The exhausted deck
(K8) is here; the deal is `dealing`, the settlement (K9) `tables.settle`.
"""

from __future__ import annotations

from typing import final

from ..actions import Action, Discard, Draw, Take, parse_action
from ..cards import Card, shuffle
from ..combos.core import Combination
from ..errors import check_seat
from ..rules import CooCanRules
from ..state.base import History, Legal, Outcome, Result, State, extend_line
from .explain import why
from .melds import Held, extended, group, sequence
from .tables import (
    DISCARDS,
    DRAW,
    DRAW_ONLY,
    DRAW_PLAN,
    TAKES,
    Deal,
    Phase,
    Plan,
    forget,
    meld_action,
    replaced,
    settle,
    with_card,
    without,
)
from .view import CooCanView, make_view

__all__ = ["CooCanState"]


@final
class CooCanState(State):
    """A position in a deal of Coo-Can (rules K1–K9); `deal` makes the first one.

    - `rules`, `dealer` and `deck`: the whole pack in the order it was dealt,
      top card first (for records, never in a view);
    - `current_player` (None when the deal is over), `phase` and `decision`:
      ``"draw"`` before he has drawn or taken this turn, ``"play"`` after
      (the dealer's opening discard is a ``"play"``, K2);
    - `hand`, `table` (melds in the order laid, each with its `owner`),
      `discard_pile` (oldest first, top last), `deck_cards` (face down, top
      first) and `deck_size`;
    - `taken` (the card taken this turn), `melded` (whether he has made his one
      meld this turn), `opened` (per seat: has laid a new meld of his own, K5),
      `known` (C6), `reshuffles` (K8), `turns`, `history` and `result`.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> state = deal(CooCanRules(players=3), shuffle(CooCanRules().pack_cards(), 4), dealer=2)
    >>> state.current_player, [len(state.hand(p)) for p in range(3)], state.decision
    (2, [10, 10, 11], 'play')
    >>> state.apply("draw")
    Traceback (most recent call last):
    ...
    conquian.errors.IllegalActionError: illegal action 'draw': the dealer begins by \
discarding one card face up, and does nothing else in that turn (K2)
    """

    __slots__ = (
        "_current",
        "_deal",
        "_drawn",
        "_draws",
        "_hands",
        "_known",
        "_legal_cache",
        "_length",
        "_line",
        "_melded",
        "_opened",
        "_phase",
        "_pile",
        "_pool",
        "_reshuffles",
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
        pile: tuple[Card, ...],
        stock: tuple[Card, ...],
        reshuffles: int,
        pool: tuple[Card, ...] | None,
        drawn: tuple[tuple[Card, ...], ...],
        current_player: int | None,
        phase: Phase,
        taken: Card | None,
        melded: int,
        opened: tuple[bool, ...],
        known: tuple[tuple[Card, ...], ...],
        turns: int,
        line: list[Action],
        length: int,
        result: Result | None,
        draws: tuple[tuple[Card, ...], ...],
    ) -> None:
        """A state with these values; `deal` and `apply` make them.

        `stock` is the face-down deck, top first; `pool` the discard pile that
        the last reshuffle made the deck (None before any, K8) and `drawn`, per
        seat, the cards drawn from it since; `melded` 0 (no meld this turn), 1
        or 2 (a Cooch); the history is the first `length` actions of `line`;
        `draws`, per seat, every card drawn from the deck this deal, in order.
        """
        self._deal = deal
        self._hands = hands
        self._table = table
        self._pile = pile
        self._stock = stock
        self._reshuffles = reshuffles
        self._pool = pool
        self._drawn = drawn
        self._current = current_player
        self._phase: Phase = phase
        self._taken = taken
        self._melded = melded
        self._opened = opened
        self._known = known
        self._turns = turns
        self._line = line
        self._length = length
        self._result = result
        self._draws = draws
        self._legal_cache = None

    # -- the value ----------------------------------------------------------------------------

    def _value(self) -> tuple[object, ...]:
        return (
            self._deal, self._hands, self._table, self._pile, self._stock, self._reshuffles,
            self._pool, self._drawn, self._current, self._phase, self._taken, self._melded,
            self._opened, self._known, self._turns, self._length, self._result, self._draws,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CooCanState):
            return NotImplemented
        if self._value() != other._value():
            return False
        n = self._length
        return self._line is other._line or self._line[:n] == other._line[:n]

    def __hash__(self) -> int:
        return hash((self._value(), tuple(self._line[: self._length])))

    def __reduce__(self) -> tuple[object, ...]:
        n = self._length
        args = list(self._value())
        args[15:15] = [self._line[:n]]
        return (CooCanState, tuple(args))

    def __repr__(self) -> str:
        who = "over" if self._current is None else f"seat {self._current}"
        return (
            f"<CooCanState {self.rules.players} players, turn {self._turns}, {who} to "
            f"{self._phase}, {self._length} actions>"
        )

    # -- what the state shows -----------------------------------------------------------------

    @property
    def rules(self) -> CooCanRules:
        """The rules this deal is played under."""
        return self._deal.rules

    @property
    def dealer(self) -> int:
        """The dealer's seat: he is dealt first and opens with a discard (K1, K2)."""
        return self._deal.dealer

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole pack in the order it was dealt, top card first: for records, not views."""
        return self._deal.deck

    @property
    def current_player(self) -> int | None:
        """The seat that acts next, or None when the deal is over."""
        return self._current

    @property
    def phase(self) -> Phase:
        """``"draw"`` before the current player has drawn or taken this turn, ``"play"`` after."""
        return self._phase

    @property
    def decision(self) -> Phase | None:
        """What the player to move is asked: ``"draw"`` or ``"play"``; None when over."""
        return None if self._result is not None else self._phase

    @property
    def result(self) -> Result | None:
        """None while the deal goes on, then its `Result` (K7, K8, K9)."""
        return self._result

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self._result is not None

    @property
    def table(self) -> tuple[Combination, ...]:
        """The melds on the table, in the order laid, each with its `owner`."""
        return self._table

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The face-up discards, oldest first, top last (K2, K3)."""
        return self._pile

    @property
    def deck_cards(self) -> tuple[Card, ...]:
        """The face-down deck, top card first: hidden from every player (C6, K8)."""
        return self._stock

    @property
    def deck_size(self) -> int:
        """How many cards are left in the face-down deck."""
        return len(self._stock)

    @property
    def reshuffles(self) -> int:
        """How many times the discard pile has been mixed into a new deck (K8)."""
        return self._reshuffles

    @property
    def taken(self) -> Card | None:
        """The card the current player took from the discard pile this turn (K3)."""
        return self._taken

    @property
    def melded(self) -> bool:
        """Whether the current player has made his one meld of this turn (K3)."""
        return self._melded > 0

    @property
    def opened(self) -> tuple[bool, ...]:
        """Per seat, whether he has laid a new meld of his own this deal (K5)."""
        return self._opened

    @property
    def known(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, the cards everyone knows are in that hand: taken from the discard pile (C6)."""
        return self._known

    @property
    def pool(self) -> tuple[Card, ...] | None:
        """The discard pile the last reshuffle made the deck, sorted; None before any (K8)."""
        return self._pool

    def drawn(self, player: int) -> tuple[Card, ...]:
        """The cards `player` drew from the deck since the last reshuffle (K8), sorted."""
        return self._drawn[check_seat(player, len(self._hands))]

    def draws(self, player: object) -> tuple[Card, ...]:
        """Every card `player` drew from the deck this deal, in the order drawn (C6: his to
        know, nobody else's; a card taken from the discard pile is not a draw)."""
        return self._draws[check_seat(player, len(self._hands))]

    @property
    def turns(self) -> int:
        """How many turns have ended so far (K8's turn limit)."""
        return self._turns

    @property
    def history(self) -> History:
        """The actions applied since the deal, in order (a draw shows no card)."""
        return History.of_line(self._line, self._length)

    def hand(self, player: object) -> tuple[Card, ...]:
        """The cards in `player`'s hand, in canonical order."""
        return self._hands[check_seat(player, len(self._hands))]

    def view(self, player: object) -> CooCanView:
        """All that `player` may know of this deal, and nothing more (C6); see `CooCanView`."""
        return make_view(self, check_seat(player, len(self._hands)))

    # -- legal actions (K2-K5, K7) ------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the current player may take, in a deterministic order (K2–K5, K7).

        Draw phase: ``draw``, then ``take`` of the top discard. Play phase: the
        new sets of four, a Cooch, the additions to each meld of the table by
        its index, then the discards in canonical order.
        """
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._generate_legal()
        return legal[0]

    def _generate_legal(self) -> Legal:
        p = self._current
        if p is None:
            return (), ()
        hand = self._hands[p]
        pile = self._pile
        if self._phase == "draw":
            # K3: one card in hand draws only from the deck; a take must leave a card to
            # discard other than the one taken (K3, K7: no dead ends).
            if pile and len(hand) > 1:
                top = pile[-1]
                if any(c is not top for c in hand):  # cards are interned
                    take = TAKES[top.index]
                    return (DRAW, take), (DRAW_PLAN, (take, (), -1, False))
            return DRAW_ONLY
        actions: list[Action] = []
        plans: list[Plan] = []
        taken = self._taken
        if self._melded == 0 and self._turns > 0:  # K2: the opening turn is a discard only
            held = Held(hand)
            # K7: a meld must leave a card he may discard: not the one he took (K3).
            size = len(hand)
            equal = 0 if taken is None else held.counts[taken.index]
            for played, onto, cooch in self._melds(p, held):
                kept = equal - played.count(taken) if equal else 0
                if size - len(played) > kept:
                    meld = meld_action(played, onto)
                    actions.append(meld)
                    plans.append((meld, played, onto, cooch))
        last = None
        for c in hand:  # sorted: equal cards (the same interned object) side by side
            if c is not last and c is not taken:
                action = DISCARDS[c.index]
                actions.append(action)
                plans.append((action, (c,), -1, False))
            last = c
        return tuple(actions), tuple(plans)

    def _melds(self, p: int, held: Held) -> list[tuple[tuple[Card, ...], int, bool]]:
        """Every meld the hand can make now (K4, K5, K9), before the no-dead-end check."""
        out = [(s, -1, False) for s in held.new_sets()]
        out.extend((s, -1, True) for s in held.cooches())
        if self._opened[p]:  # K5: adding only after one's own first new meld
            for i, combo in enumerate(self._table):
                out.extend((played, i, False) for played in held.additions(combo))
        return out

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        return why(self, action)

    # -- applying an action -------------------------------------------------------------------

    def apply(self, action: Action | str) -> CooCanState:
        """The state after `action` (or its text); raises `IllegalActionError` if not legal (E1).

        >>> from conquian.coocan import CooCanRules, deal
        >>> from conquian.cards import cards, shuffle
        >>> s = deal(CooCanRules(), shuffle(CooCanRules().pack_cards(), 4), dealer=0)
        >>> s.apply("meld 5H 6H 7H")
        Traceback (most recent call last):
        ...
        conquian.errors.IllegalActionError: illegal action 'meld 5H 6H 7H': the dealer begins \
by discarding one card face up, and does nothing else in that turn (K2)
        """
        if isinstance(action, str):
            action = parse_action(action)
        legal = self._legal_plans()
        found: object = None
        i = 0
        for a in legal[0]:
            if a is action:
                found = legal[1][i]
                break
            i += 1  # noqa: SIM113
        if found is None:
            found = self._plan(action)
        plan: Plan = found  # type: ignore[assignment]
        action, played, onto, cooch = plan
        p = self._current
        assert p is not None
        kind = type(action)
        if kind is Discard:
            return self._discard(p, played[0])
        if kind is Draw:
            return self._draw(p)
        if kind is Take:
            return self._take(p)
        return self._lay(p, action, played, onto, cooch)

    def _draw(self, p: int) -> CooCanState:
        """K3: the top card of the deck, unseen by the others."""
        stock = self._stock
        drawn = stock[0]
        hands = replaced(self._hands, p, with_card(self._hands[p], drawn))
        seen = self._drawn
        if self._pool is not None:  # K8: a card of the reshuffled pile
            seen = replaced(seen, p, with_card(seen[p], drawn))
        n = self._length
        return CooCanState(
            self._deal, hands, self._table, self._pile, stock[1:], self._reshuffles,
            self._pool, seen, p, "play", None, 0, self._opened, self._known, self._turns,
            extend_line(self._line, n, DRAW), n + 1, None,
            replaced(self._draws, p, (*self._draws[p], drawn)),
        )  # fmt: skip

    def _take(self, p: int) -> CooCanState:
        """K3: the top card of the discard pile, face up: known to be in his hand (C6)."""
        top = self._pile[-1]
        n = self._length
        return CooCanState(
            self._deal, replaced(self._hands, p, with_card(self._hands[p], top)), self._table,
            self._pile[:-1], self._stock, self._reshuffles, self._pool, self._drawn, p, "play",
            top, 0, self._opened, replaced(self._known, p, with_card(self._known[p], top)),
            self._turns, extend_line(self._line, n, TAKES[top.index]), n + 1, None, self._draws,
        )  # fmt: skip

    def _lay(
        self,
        p: int,
        action: Action,
        played: tuple[Card, ...],
        onto: int,
        cooch: bool,
    ) -> CooCanState:
        """K4, K5: one meld, a new one appended to the table or an addition in its place."""
        table = self._table
        if onto >= 0:
            combo = extended(table[onto], played)
        elif played[0].rank == played[-1].rank:
            combo = group(played, p)
        else:
            combo = sequence(played, p)
        table = (*table, combo) if onto < 0 else (*table[:onto], combo, *table[onto + 1 :])
        opened = self._opened
        if onto < 0 and not opened[p]:
            opened = (*opened[:p], True, *opened[p + 1 :])
        n = self._length
        return CooCanState(
            self._deal, replaced(self._hands, p, without(self._hands[p], played)), table,
            self._pile, self._stock, self._reshuffles, self._pool, self._drawn, p, "play",
            self._taken, 2 if cooch else 1, opened,
            replaced(self._known, p, forget(self._known[p], played)), self._turns,
            extend_line(self._line, n, action), n + 1, None, self._draws,
        )  # fmt: skip

    def _discard(self, p: int, c: Card) -> CooCanState:
        """K3: a card face up on the discard pile ends the turn; play passes to the left.

        K7: the discard that empties his hand wins. K8: a turn that would begin
        with an empty deck begins with the discard pile mixed into a new deck.
        """
        hand = without(self._hands[p], (c,))
        hands = replaced(self._hands, p, hand)
        pile = (*self._pile, c)
        turns = self._turns + 1
        known = self._known
        if known[p]:
            known = replaced(known, p, forget(known[p], (c,)))
        deal = self._deal
        stock, reshuffles, pool, drawn = self._stock, self._reshuffles, self._pool, self._drawn
        player: int | None = p + 1 if p + 1 < deal.players else 0
        result = None
        if not hand:
            player, result = None, settle(self.rules, hands, p, cooch=self._melded == 2)
        elif deal.limit is not None and turns >= deal.limit:  # K8: abandoned, no payments
            player, result = None, Result(Outcome.ABANDONED, None, (0,) * deal.players)
        elif not stock:  # K8: the whole discard pile, mixed, becomes the deck
            stock = shuffle(pile, deal.seed(reshuffles))
            pool = tuple(sorted(pile))
            pile, reshuffles, drawn = (), reshuffles + 1, ((),) * deal.players
        n = self._length
        return CooCanState(
            deal, hands, self._table, pile, stock, reshuffles, pool, drawn, player, "draw",
            None, 0, self._opened, known, turns,
            extend_line(self._line, n, DISCARDS[c.index]), n + 1, result, self._draws,
        )  # fmt: skip
