"""Text diagrams of a position: what ``str(state)`` and ``str(view)`` print.

Like ``print(board)`` in python-chess, a diagram shows the position at a
glance, one labelled line per zone:

- the game, the dealer and how many actions were played;
- the hands: every hand for a `State` (the whole deal), the player's own
  hand for a `PlayerView`, with the others' sizes and the cards known to be
  in them (C6); the number of cards in each hand (and melded, Conquian);
- the table, one combination per line with its index ``@N`` (the number
  actions use) and its owner;
- Conquian: the card on offer, to whom and where it came from (turned,
  passed or discarded, T3-T6), the pending cards, the stock (the face-down
  pile) and the buried cards;
- Cooncan: the stock (Foster's word for the face-up discards, top last) and
  the pack (the face-down pile);
- Coo-Can: the discard pile (face up, top last) and the deck (face down);
- who is to play, or the result.

Cards are written in the library's notation (C2), so they can be typed
back as actions; ``symbols=True`` writes the suits as ♣ ♦ ♥ ♠. A joker that
has been shifted (M9) is written with a trailing ``*``.

The functions here read positions by their public attributes only, so both
engines (and anything shaped like them) can be drawn, for any number of
seats; what the zones are is the game's entry in the registry
(`conquian.games`): its heading and its engine.

>>> from conquian import ConquianRules, new_game
>>> print(new_game(ConquianRules(), seed=3, dealer=1))
Two-hand Conquian (spanish pack, 40 cards), dealer seat 1, 0 actions
seat 0    7C AD JD QD AH 7H AS 5S 6S QS  (10 cards, 0 melded)
seat 1    2C 5C 6C 5H 6H QH 2S 4S JS KS  (10 cards, 0 melded)
table     -
offer     3S to seat 0 (turned for seat 0, T11)
stock     19 cards face down
next      seat 0 has the say to 3S
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import Card, NamedJoker

if TYPE_CHECKING:
    from ..games import Game

__all__ = ["card_text", "cards_text", "diagram", "origin", "shown_hand", "status"]

_LABEL = 10  # the width of the label column
_PILE_ROW = 12  # the cards of a long discard pile on one line (within 80 columns)


def card_text(face: Card | NamedJoker, *, symbols: bool = False) -> str:
    """One card (or named joker) as the diagram writes it.

    >>> from conquian import card, joker
    >>> card_text(card("10S")), card_text(card("QH"), symbols=True)
    ('10S', 'Q♥')
    >>> card_text(joker("6H", shifted=True), symbols=True)
    'JK=6♥*'
    """
    text = str(face)
    if symbols and face.suit is not None:
        text = text[:-1] + face.suit.symbol
    if isinstance(face, NamedJoker) and face.shifted:
        text += "*"
    return text


def cards_text(faces: Sequence[Card | NamedJoker], *, symbols: bool = False) -> str:
    """Cards separated by spaces, or ``-`` for none.

    >>> from conquian import cards
    >>> cards_text(cards("4H 5H 6H")), cards_text(())
    ('4H 5H 6H', '-')
    """
    if not faces:
        return "-"
    return " ".join(card_text(f, symbols=symbols) for f in faces)


def _game(rules: Any) -> Game:
    """The registry's entry of the game the rules play."""
    # The registry holds the engines, whose states draw themselves with this module.
    from ..games import game_of

    return game_of(rules)


def _row(width: int, label: str, text: str) -> str:
    return f"{label:<{width}}{text}".rstrip()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def diagram(position: object, *, symbols: bool = False, names: Sequence[str] = ()) -> str:
    """The multi-line text diagram of a state or a view (see the module docstring).

    `names` labels the seats (``names[s]`` for seat ``s``; ``"seat s"``
    where missing), e.g. ``("you", "bot")``.

    >>> from conquian import CooncanRules, new_game
    >>> view = new_game(CooncanRules.three_hand(), seed=3, dealer=2).view(1)
    >>> print(diagram(view, names=("Ann", "Bob", "Cy")))
    Foster's three-hand Cooncan (3 players, one pack), dealer Cy, turn 0, 0 actions
    Bob's view
    Bob       5C 8C AD 4D JH KH 4S  (7 cards)
    Ann       7 cards
    Cy        7 cards
    table     -
    stock     3D  (face up, top last)
    pack      30 cards face down
    next      Ann to draw from the pack or take from the stock
    """
    pos: Any = position
    rules = pos.rules
    seats = rules.players
    who = [names[s] if s < len(names) else f"seat {s}" for s in range(seats)]
    game = _game(rules)
    offer_engine = game.engine == "offer"  # the offer engine: melded counts, the card on offer
    is_view = not callable(pos.hand)

    def text(faces: Sequence[Card | NamedJoker]) -> str:
        return cards_text(faces, symbols=symbols)

    head = f"{game.describe(rules)}, dealer {who[pos.dealer]}"
    if not offer_engine:
        head += f", turn {pos.turns}"
    lines = [f"{head}, {_plural(len(pos.history), 'action')}"]
    if is_view:
        lines.append(f"{who[pos.player]}'s view")

    # -- hands -----------------------------------------------------------------------------
    melded = [0] * seats
    for combo in pos.table:
        melded[combo.owner] += len(combo.cards)
    width = max(_LABEL, *(len(w) + 2 for w in who))
    order = list(range(seats))
    if is_view:  # his own hand first
        order.remove(pos.player)
        order.insert(0, pos.player)
    for seat in order:
        label = who[seat]
        held = shown_hand(pos, seat)
        if held is None:
            size = pos.hand_sizes[seat]
            row = _plural(size, "card")
            if offer_engine:
                row += f", {melded[seat]} melded"
            known = pos.known[seat] if not offer_engine else ()
            if known:
                row += f", known: {text(known)}"
        else:
            counts = _plural(len(held), "card")
            if offer_engine:
                counts += f", {melded[seat]} melded"
            row = f"{text(held)}  ({counts})"
        lines.append(_row(width, label, row))

    # -- table -----------------------------------------------------------------------------
    if not pos.table:
        lines.append(_row(width, "table", "-"))
    for i, combo in enumerate(pos.table):
        lines.append(_row(width, "table" if i == 0 else "", _meld(i, combo, who, text)))

    # -- the card on offer or the face-up stock, and the face-down pile ----------------------
    if offer_engine:
        if pos.offer is not None and pos.current_player is not None:
            offer = f"{text((pos.offer,))} to {who[pos.current_player]} ({origin(pos, who)})"
            lines.append(_row(width, "offer", offer))
        if pos.pending:
            lines.append(_row(width, "pending", f"{text(pos.pending)}  (to meld this turn)"))
        lines.append(_row(width, "stock", f"{_plural(pos.stock_size, 'card')} face down"))
        if pos.buried:
            lines.append(_row(width, "buried", text(pos.buried)))
    elif game.engine == "coocan":
        pile = pos.discard_pile
        if not pile:
            lines.append(_row(width, "discards", "-"))
        for start in range(0, len(pile), _PILE_ROW):  # a long pile wraps (80 columns)
            row = text(pile[start : start + _PILE_ROW])
            if start + _PILE_ROW >= len(pile):
                row += f"  ({_plural(len(pile), 'card')}, top last)"
            lines.append(_row(width, "discards" if start == 0 else "", row))
        lines.append(_row(width, "deck", f"{_plural(pos.deck_size, 'card')} face down"))
    else:
        stock = text(pos.stock)
        lines.append(_row(width, "stock", f"{stock}  (face up, top last)" if pos.stock else "-"))
        pack = f"{_plural(pos.pack_size, 'card')} face down"
        known_pack = getattr(pos, "known_pack", None)
        if known_pack:
            pack += f", known: {text(known_pack)}"
        lines.append(_row(width, "pack", pack))

    state = status(pos, names=who, symbols=symbols)
    lines.append(_row(width, "next" if pos.result is None else "result", state))
    return "\n".join(lines)


def shown_hand(position: object, seat: int) -> tuple[Card, ...] | None:
    """The cards of `seat`'s hand if `position` shows them, else None.

    A state shows every hand; a view its player's own, and every hand once
    the deal is over if it holds them as ``hands`` (C6, "Showing").
    """
    pos: Any = position
    if callable(pos.hand):
        return tuple(pos.hand(seat))
    if seat == pos.player:
        return tuple(pos.hand)
    hands = getattr(pos, "hands", None) if pos.result is not None else None
    return None if hands is None else tuple(hands[seat])


def _meld(i: int, combo: Any, who: Sequence[str], text: Callable[..., str]) -> str:
    return f"@{i} {who[combo.owner]}: {text(combo.cards)}"


def origin(position: object, names: Sequence[str] = ()) -> str:
    """Where the card on offer in a Conquian deal came from, in words.

    The starter is turned by the dealer for the pone, who has the say to it
    as if he had turned it (T11); later a player turns his own card from the
    stock (T5), or the card was passed (T6) or discarded (T8) by the player on
    his right: a passed or discarded card goes to the left neighbour (T17).

    >>> from conquian import ConquianRules, new_game
    >>> state = new_game(ConquianRules(), seed=3, dealer=1)
    >>> origin(state), origin(state.apply("pass"))
    ('turned for seat 0, T11', 'passed by seat 0')
    """
    pos: Any = position
    seats = pos.rules.players
    who = [names[s] if s < len(names) else f"seat {s}" for s in range(seats)]
    seat = pos.current_player
    if pos.offer_origin == "turned":
        # T11: the starter, turned after the trade rounds if any (T21).
        first = all(str(a).startswith("trade") for a in pos.history)
        return f"turned for {who[seat]}, T11" if first else f"turned by {who[seat]}"
    return f"{pos.offer_origin} by {who[(seat - 1) % seats]}"


def status(position: object, *, names: Sequence[str] = (), symbols: bool = False) -> str:
    """One line: who is to play and what, or how the deal ended.

    >>> from conquian import ConquianRules, new_game
    >>> status(new_game(ConquianRules(), seed=3, dealer=1))
    'seat 0 has the say to 3S'
    """
    pos: Any = position
    who = [names[s] if s < len(names) else f"seat {s}" for s in range(pos.rules.players)]

    def text(faces: Sequence[Card | NamedJoker]) -> str:
        return cards_text(faces, symbols=symbols)

    result = pos.result
    if result is not None:
        pays = " ".join(f"{p:+d}" for p in result.payments)
        if result.winner is not None:
            winner = who[result.winner]
            return f"{winner} {_verb(winner, 'wins')} (payments by seat: {pays})"
        if str(result.outcome) == "tableau":
            return "tableau: the stock ran out with no winner (T12)"
        rule = "K8" if _game(pos.rules).engine == "coocan" else "M11"
        return f"abandoned at the turn limit, no payments ({rule})"
    seat = who[pos.current_player]
    engine = _game(pos.rules).engine
    if engine == "coocan":
        if pos.turns == 0:
            return f"{seat} to discard, the dealer's opening (K2)"
        if pos.phase == "draw":
            return f"{seat} to draw from the deck or take the top discard"
        return f"{seat} to meld or discard"
    if engine == "offer":
        if getattr(pos, "trading", False):  # T21: the trade rounds, before the starter
            n, chosen = pos.rules.players, len(pos.traded)
            line = f"{seat} to trade a card (T21), round {len(pos.history) // n + 1}"
            line += f" of {pos.rules.trades}"
            return line + (f", {chosen} chosen" if chosen else "")
        if pos.offer is not None:
            return f"{seat} {_verb(seat, 'has')} the say to {text((pos.offer,))}"
        if pos.pending:
            return f"{seat} to meld {text(pos.pending)}"
        return f"{seat} to meld, then discard or force"
    if pos.phase == "draw":
        return f"{seat} to draw from the pack or take from the stock"
    return f"{seat} to meld, force or discard"


def _verb(subject: str, verb: str) -> str:
    """`verb` agreeing with `subject`: "you" (a seat named for the reader) takes the plural."""
    if subject != "you":
        return verb
    return "have" if verb == "has" else verb.removesuffix("s")
