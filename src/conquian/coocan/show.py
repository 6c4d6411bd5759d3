"""Text diagrams of a Coo-Can position or view: what ``str(state)`` and ``str(view)`` print.

One labelled line per zone: the hands (every hand for a state, the player's
own for a view, with the others' sizes), the table with each meld's index
``@N`` and owner, the discard pile (top last), the deck, and who is to play
or the result.
"""

from __future__ import annotations

from typing import Any

__all__ = ["diagram"]


def _cards(cards: Any) -> str:
    return " ".join(map(str, cards)) or "-"


def _count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def diagram(position: Any) -> str:
    """The diagram of a `CooCanState` or `CooCanView`.

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> s = deal(CooCanRules(players=2), CooCanRules().pack_cards(), dealer=0)
    >>> print(s.apply("discard JC"))
    Coo-Can, 2 players, dealer player 0, 1 actions
    player 0  AC 2C 3C 4C 5C 6C 7C 8C 9C 10C  (10 cards)
    player 1  AC 2C 3C 4C 5C 6C 7C 8C 9C 10C  (10 cards)
    table     -
    discards  JC
    deck      83 cards face down
    next      player 1 to draw or take
    """
    rules = position.rules
    n = rules.players
    lines = [
        f"Coo-Can, {n} players, dealer player {position.dealer}, {len(position.history)} actions"
    ]
    viewer = getattr(position, "player", None)
    shown = getattr(position, "hands", None)
    for q in range(n):
        label = f"player {q}".ljust(9)
        if viewer is None:
            hand = position.hand(q)
        elif q == viewer:
            hand = position.hand
        elif shown is not None:
            hand = shown[q]
        else:
            known = position.known[q]
            extra = f", known {_cards(known)}" if known else ""
            lines.append(f"{label} ({_count(position.hand_sizes[q])}{extra})")
            continue
        lines.append(f"{label} {_cards(hand)}  ({_count(len(hand))})")
    if position.table:
        for i, combo in enumerate(position.table):
            label = "table" if i == 0 else ""
            lines.append(f"{label.ljust(9)} @{i} {combo}  (player {combo.owner})")
    else:
        lines.append("table     -")
    lines.append(f"discards  {_cards(position.discard_pile)}")
    lines.append(f"deck      {_count(position.deck_size)} face down")
    result = position.result
    if result is not None:
        if result.winner is None:
            lines.append(f"result    {result.outcome}, no payments")
        else:
            paid = " ".join(f"{v:+d}" for v in result.payments)
            lines.append(f"result    player {result.winner} went out; payments {paid}")
    else:
        todo = "to draw or take" if position.phase == "draw" else "to meld or discard"
        if position.turns == 0:
            todo = "to discard"
        lines.append(f"next      player {position.current_player} {todo}")
    return "\n".join(lines)
