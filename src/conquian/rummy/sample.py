"""The position a view of Cooncan shows, with its hidden cards drawn (C6): `position`.

`CooncanView.sample_state` draws a deck among those that give the view
(`conquian.determinize.sample_rummy`) and builds the state the view shows
on it with `position`, without replaying the history: the table, the stock,
the known cards (C6), who acts and in which phase, the turns ended and the
result are the view's; each seat's hand is its cards now (the viewer's own,
for the others their known cards and the unseen cards drawn for them); the
pack is what the drawn deck leaves face down, or the turned-over stock (M11),
whose cards drawn so far the history tells. What the view does not show
outright is read from its history: the card taken this turn (M2) and the
turn of each seat's first Meld or Force (M8).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Discard, Draw, Force, Meld, Take
from ..cards import Card, card_at
from .melds import Fits
from .sampling import rummy_hidden
from .state import CooncanState, Deal
from .tables import physical
from .turn import forget, with_card

__all__ = ["current", "position", "positions"]


def _interned(cards: Sequence[Card]) -> tuple[Card, ...]:
    """`cards` as the engine's own card objects (it compares cards by identity)."""
    return tuple([card_at(c.index) for c in cards])


def _taken(history: Sequence[Any]) -> Card | None:
    """The card taken from the stock in the turn in progress, or in the turn that ended the
    deal by going out (M2, M10); None after a draw or before the turn's draw."""
    for i in range(len(history) - 1, -1, -1):
        kind = type(history[i])
        if kind is Take:
            return card_at(history[i].card.index)
        if kind is Draw or kind is Discard:
            return None
    return None


def _opened(history: Sequence[Any], players: int, dealer: int) -> tuple[int, ...]:
    """Per seat, the turn of his first Meld or Force (M8), -1 for none: turns end with a
    discard, and play passes to the left (M2)."""
    opened = [-1] * players
    turns = 0
    player = (dealer + 1) % players
    for action in history:
        kind = type(action)
        if kind is Discard:
            turns += 1
            player = player + 1 if player + 1 < players else 0
        elif (kind is Meld or kind is Force) and opened[player] < 0:
            opened[player] = turns
    return tuple(opened)


def _turned_over(
    history: Sequence[Any], starter: Card, left: int, players: int, dealer: int, known: bool
) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...] | None]:
    """The stock as it was last turned over to become the pack (M11), oldest card first;
    with `known`, also the cards known in each hand (C6), else None.

    The stock starts with `starter` (M1) and `left` cards face down; a take
    removes the topmost card equal to it (M3), a discard covers it, and a draw
    when the face-down pack is empty turns the whole stock over (law 25). A
    card taken, or drawn from the turned stock, is known in its hand until a
    card equal to it is played from there. Which card started the stock decides
    the cards drawn from the turned stock, so the known cards tell the deals
    with the starter the history leaves open from the others.
    """
    stock: list[int] = [starter.index]  # by `Card.index`
    pack: list[int] = []
    drawn = 0  # cards drawn from the turned stock
    turned = False
    hands: list[tuple[Card, ...]] = [()] * players
    player = (dealer + 1) % players
    for action in history:
        kind = type(action)
        if kind is Draw:
            if not turned and left:
                left -= 1
                continue
            if drawn >= len(pack):
                pack, stock, drawn, turned = stock, [], 0, True
            if known:
                hands[player] = with_card(hands[player], card_at(pack[drawn]))
            drawn += 1
        elif kind is Take:
            c = action.card.index
            del stock[len(stock) - 1 - stock[::-1].index(c)]
            if known:
                hands[player] = with_card(hands[player], card_at(c))
        elif kind is Discard:
            c = action.card.index
            stock.append(c)
            if known:
                if hands[player]:
                    hands[player] = forget(hands[player], (card_at(c),))
                player = player + 1 if player + 1 < players else 0
        elif known and hands[player]:
            if kind is Meld:
                hands[player] = forget(hands[player], [physical(f) for f in action.cards])
            elif kind is Force:
                hands[player] = forget(hands[player], (physical(action.card),))
    return tuple([card_at(c) for c in pack]), (tuple(hands) if known else None)


def position(
    view: Any, deck: Sequence[Card], hands: Sequence[Sequence[Card]], starter_open: bool = True
) -> CooncanState | None:
    """The state `view` shows, dealt from `deck`, each seat holding `hands[seat]` (C6).

    `deck` is a whole deal that gives the view (each seat's dealt and drawn
    places holding the cards it played from them and its hidden cards, each
    before it is played; the face-down pack after), `hands` every seat's
    cards now. With `starter_open` (the history leaves open which card started the
    stock, M1, M11), the known cards the deal gives are checked against the view's:
    None if they differ. None also when the seat playing (not the viewer) could not end its
    turn with the hand drawn for it (every card left equal to the one it took,
    M2): the take would not have been legal, so no deal with those hidden cards
    gives the view.
    """
    return positions(view)(view, deck, hands, starter_open)


def positions(view: Any) -> Callable[..., CooncanState | None]:
    """`position` for many decks of one view, what the view alone gives read once: the
    history, the card taken this turn (M2), each seat's first Meld or Force (M8), what
    fits each combination of the table, and by starter the turned-over stock (M11)."""
    rules = view.rules
    n = rules.players
    start = n * rules.hand_size
    history = tuple(view.history)
    taken = _taken(history) if view.phase == "play" else None
    opened = _opened(history, n, view.dealer)
    stock = _interned(view.stock)
    seen = tuple([_interned(k) for k in view.known])
    fit = Fits.of(view.table)
    turned: dict[int, tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...] | None]] = {}
    mover = view.current_player
    check_take = taken is not None and mover is not None and mover != view.player

    def build(
        view: Any, deck: Sequence[Card], hands: Sequence[Sequence[Card]], starter_open: bool = True
    ) -> CooncanState | None:
        cards = _interned(deck)
        if view.known_pack is None:
            pack, pack_at, pack_known = cards, len(cards) - view.pack_size, False
        else:  # M11: the turned-over stock, the cards drawn from it first
            starter = cards[start]
            read = turned.get(starter.index)  # one reading for each starter
            if read is None:
                left = len(cards) - start - 1
                read = _turned_over(history, starter, left, n, view.dealer, starter_open)
                turned[starter.index] = read
            pack, known = read
            if known is not None and known != view.known:
                return None  # the cards drawn from the turned stock are not those the view knows
            pack_at, pack_known = len(pack) - view.pack_size, True
        line = list(history)
        state = CooncanState(
            Deal(rules, view.dealer, cards),
            tuple([tuple(sorted(_interned(h))) for h in hands]),
            view.table,
            stock,
            pack,
            pack_at,
            pack_known,
            mover,
            view.phase,
            taken,
            seen,
            opened,
            view.turns,
            line,
            len(line),
            view.result,
            fit,
        )
        if check_take and all(c == taken for c in hands[mover]) and not state.legal_actions():
            return None  # M2: he took a card he could then neither meld nor keep
        return state

    return build


def current(view: Any) -> Callable[[random.Random], CooncanState] | None:
    """Samples of `view` drawn as positions, with no deal behind them (C6): ``draw(rng)`` is
    the state the view shows, its hidden cards drawn by `conquian.determinize.rummy_hidden`
    without reading the history for them; None where that draw does not serve the view.

    The state has no deck (its `Deal` holds none): only the position is drawn, not the
    order the cards were dealt and drawn in; a writer of its record or position finds a
    deal that gives it when it is written (`conquian.rummy.sampling.deal_of`), and
    `CooncanView.sample_deal` draws a whole deal. Its pack is the face-down cards
    drawn, top first, or the turned-over stock the view shows (M11); every other part is
    the view's, as `position` makes it.
    """
    hidden = rummy_hidden(view)
    if hidden is None:
        return None
    rules = view.rules
    history = tuple(view.history)
    taken = _taken(history) if view.phase == "play" else None
    opened = _opened(history, rules.players, view.dealer)
    stock = _interned(view.stock)
    seen = tuple([_interned(k) for k in view.known])
    fit = Fits.of(view.table)
    turned = view.known_pack is not None
    mover, dealer, phase, table = view.current_player, view.dealer, view.phase, view.table
    turns, result = view.turns, view.result

    def draw(rng: random.Random) -> CooncanState:
        hands, pack = hidden(rng)
        line = list(history)
        return CooncanState(
            Deal(rules, dealer, ()),
            tuple([tuple(sorted(_interned(h))) for h in hands]),
            table,
            stock,
            _interned(pack),
            0,
            turned,
            mover,
            phase,
            taken,
            seen,
            opened,
            turns,
            line,
            len(line),
            result,
            fit,
        )

    return draw
