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
from typing import Any

from ..cards import Card, NamedJoker
from ..state.game import Zone, game_of

__all__ = ["card_text", "cards_text", "diagram", "origin", "printable", "shown_hand", "status"]

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
    game = game_of(rules)
    is_view = not callable(pos.hand)

    def text(faces: Sequence[Card | NamedJoker]) -> str:
        return cards_text(faces, symbols=symbols)

    head = f"{game.describe(rules)}, dealer {who[pos.dealer]}"
    if game.turn_limit_rule is not None:  # turns are counted toward the limit (M11, K8)
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
            if game.melded_counts:
                row += f", {melded[seat]} melded"
            known = known_cards(pos, seat)
            if known:
                row += f", known: {text(known)}"
        else:
            counts = _plural(len(held), "card")
            if game.melded_counts:
                counts += f", {melded[seat]} melded"
            row = f"{text(held)}  ({counts})"
        lines.append(_row(width, label, row))

    # -- table -----------------------------------------------------------------------------
    if not pos.table:
        lines.append(_row(width, "table", "-"))
    for i, combo in enumerate(pos.table):
        lines.append(_row(width, "table" if i == 0 else "", _meld(i, combo, who, text)))

    # -- the zones after the table: the card on offer, the stock, the pack, the discards -----
    for zone in game.zones:
        for label, row in _ZONES[zone](pos, who, text):
            lines.append(_row(width, label, row))

    state = status(pos, names=who, symbols=symbols)
    lines.append(_row(width, "next" if pos.result is None else "result", state))
    return "\n".join(lines)


Rows = list[tuple[str, str]]


def _offer(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """The card on offer and who has the say to it (T4)."""
    if pos.offer is None or pos.current_player is None:
        return []
    return [("offer", f"{text((pos.offer,))} to {who[pos.current_player]} ({origin(pos, who)})")]


def _pending(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """The cards taken or borrowed that must be melded this turn (T8, T9)."""
    return [("pending", f"{text(pos.pending)}  (to meld this turn)")] if pos.pending else []


def _stock(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """Conquian's face-down stock, turned a card at a time (T5)."""
    return [("stock", f"{_plural(pos.stock_size, 'card')} face down")]


def _buried(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """The cards passed by everyone, turned down for good (T5)."""
    return [("buried", text(pos.buried))] if pos.buried else []


def _face_up_stock(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """Cooncan's face-up stock, its top last (M1)."""
    return [("stock", f"{text(pos.stock)}  (face up, top last)" if pos.stock else "-")]


def _pack(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """Cooncan's face-down pack, and its cards known to all once turned over (M11)."""
    pack = f"{_plural(pos.pack_size, 'card')} face down"
    known_pack = getattr(pos, "known_pack", None)
    if known_pack:
        pack += f", known: {text(known_pack)}"
    return [("pack", pack)]


def _discards(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """Coo-Can's discard pile, face up, its top last; a long pile wraps (80 columns)."""
    pile = pos.discard_pile
    if not pile:
        return [("discards", "-")]
    rows = []
    for start in range(0, len(pile), _PILE_ROW):
        row = text(pile[start : start + _PILE_ROW])
        if start + _PILE_ROW >= len(pile):
            row += f"  ({_plural(len(pile), 'card')}, top last)"
        rows.append(("discards" if start == 0 else "", row))
    return rows


def _deck(pos: Any, who: Sequence[str], text: Callable[..., str]) -> Rows:
    """Coo-Can's face-down deck (K3)."""
    return [("deck", f"{_plural(pos.deck_size, 'card')} face down")]


_ZONES: dict[Zone, Callable[[Any, Sequence[str], Callable[..., str]], Rows]] = {
    "offer": _offer,
    "pending": _pending,
    "stock": _stock,
    "buried": _buried,
    "face-up stock": _face_up_stock,
    "pack": _pack,
    "discards": _discards,
    "deck": _deck,
}
"""The rows of each zone a game shows after the table (`Game.zones`)."""


def known_cards(position: object, seat: int) -> tuple[Card, ...]:
    """The cards of `seat`'s hidden hand that the position shows (taken from a face-up pile,
    C6), or none: in Conquian no card enters a hand (T3)."""
    known = getattr(position, "known", None)
    return () if known is None else tuple(known[seat])


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
        rule = game_of(pos.rules).turn_limit_rule
        return f"abandoned at the turn limit, no payments ({rule})"
    return game_of(pos.rules).asks(pos, who[pos.current_player], text)


def _verb(subject: str, verb: str) -> str:
    """`verb` agreeing with `subject`: "you" (a seat named for the reader) takes the plural."""
    if subject != "you":
        return verb
    return "have" if verb == "has" else verb.removesuffix("s")


def printable(text: str) -> str:
    """`text` as it may reach a terminal: unchanged when every character prints, else its
    ``repr``, so that no control character (an escape sequence that retitles the window or
    erases a line) comes from a file or a bot's output to the user's screen.

    >>> printable("Ana")
    'Ana'
    >>> print(printable("\\x1b[2Kgone"))
    '\\x1b[2Kgone'
    """
    return text if text.isprintable() else repr(text)
