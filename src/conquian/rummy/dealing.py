"""The deal (rules M1) and cutting for seats and the first deal (M13)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..cards import Card, card_at, shuffle
from ..rules import CooncanRules, Rules
from .state import CooncanState, Deal

__all__ = ["Cut", "cut_for_deal", "deal"]


def deal(rules: CooncanRules, deck: tuple[Card, ...], dealer: int) -> CooncanState:
    """The first state of a deal from the whole `deck`, top card first (M1, laws 8, 11).

    One card at a time from the dealer's left, ending with the dealer, until
    each player has his hand (7 in three-hand, 10 with the double pack); the
    next card is turned up to start the stock and the rest is the pack. The
    player at the dealer's left plays first. `new_game` checks the deck and
    calls this.

    >>> top = cards("AC AD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D KS QS")
    >>> s = deal(CooncanRules.three_hand(players=2),
    ...          top + tuple(c for c in make_pack() if c not in top), dealer=1)
    >>> " ".join(map(str, s.hand(0))), s.stock, s.pack[0]
    ('AC 2C 3C 4C 5C 6C 7C', (card('KS'),), card('QS'))
    """
    n, size = rules.players, rules.hand_size
    deck = tuple(card_at(c.index) for c in deck)  # the engine compares cards by identity
    hands: list[list[Card]] = [[] for _ in range(n)]
    for k in range(n * size):
        hands[(dealer + 1 + k) % n].append(deck[k])
    start = n * size
    return CooncanState(
        Deal(rules, dealer, deck),
        tuple(tuple(sorted(h)) for h in hands),
        (),  # the table
        (deck[start],),  # the stock
        deck,
        start + 1,  # the pack is deck[start + 1:]
        False,  # nobody has seen the pack
        (dealer + 1) % n,
        "draw",
        None,  # no card taken from the stock
        ((),) * n,  # no card known in any hand
        (-1,) * n,  # nobody has opened (M8)
        0,  # no turn ended
        [],  # no action yet
        0,
        None,  # no result
    )


# -- seats and the first deal (M13) -------------------------------------------


@attrs.frozen
class Cut:
    """The outcome of cutting for seats and the first deal (M13, laws 2–4).

    `seats` lists the players in seat order: seat 0 is the highest cut (the
    lowest under Hoyle's cut, T25), who chose his seat and deals first (`dealer`
    is 0), the next sits on his left (seat 1), and so on. `rounds` records every
    round of cutting: the players who cut and the card each drew, ties cutting again.
    """

    seats: tuple[str, ...]
    dealer: int
    rounds: tuple[tuple[tuple[str, Card], ...], ...]


def _cut_rank(c: Card) -> int:
    """Law 2: the king high, then down to the ace, the joker lowest; suits do not count."""
    return c.rank  # the joker's rank is 0


def cut_for_deal(players: Sequence[str], seed: int, rules: Rules | None = None) -> Cut:
    """Cut for seats and the first deal with the seeded shuffle (M13, laws 2–4, p. 3; T25).

    Each player draws a card from the pack of `rules` (default: the double
    pack) shuffled by `seed` (`conquian.cards.shuffle`): the highest cut has
    the choice of seats and deals first, the next highest sits on his left,
    and so on; players who tie cut again from the cards left, and the second
    cut decides only the tie (law 2). Conquian rules with ``cut="low"`` (T25,
    `ConquianRules.hoyle()`: "the lowest cut having the choice, and dealing")
    order the cuts from the lowest up instead; the ace is low, the king high. If
    the pack runs short it is gathered and shuffled again with the next seed.
    Forming and reforming tables (laws 3 and 4: who plays when more than five
    want to, reseating every hour) are choices of the people at the table, not
    of a deal: they are not applicable to the engine. Later deals pass to the
    left (law 8): deal the next game with ``dealer=(dealer + 1) % players``.

    >>> cut = cut_for_deal(["Jones", "Smith", "Brown", "White", "Green"], seed=2)
    >>> cut.seats, cut.dealer
    (('Smith', 'White', 'Jones', 'Brown', 'Green'), 0)

    `players` is a sequence (a list or tuple) of names, each a `str`; anything
    else raises `TypeError`, and fewer than two players, a name given twice or
    more players than the pack has cards raise `ValueError`, naming `players`.
    """
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise TypeError(f"players must be a sequence of names (str), not {type(players).__name__}")
    names = tuple(players)
    for name in names:
        if type(name) is not str:
            raise TypeError(f"players must be names (str), not {type(name).__name__}")
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError("cutting needs two or more players with different names")
    pack = (rules or CooncanRules.double_pack()).pack_cards()
    lowest = getattr(rules, "cut", "high") == "low"  # T25: Hoyle's lowest cut deals
    if len(names) > len(pack):
        raise ValueError(f"cutting needs no more players than the pack's {len(pack)} cards")
    draws = shuffle(pack, seed)
    at = 0
    reshuffles = 0
    rounds: list[tuple[tuple[str, Card], ...]] = []

    def cut(group: tuple[str, ...]) -> list[tuple[str, ...]]:
        """Order `group` from the highest cut down, breaking ties by cutting again."""
        nonlocal at, draws, reshuffles
        if len(group) == 1:
            return [group]
        if at + len(group) > len(draws):
            reshuffles += 1
            draws, at = shuffle(pack, seed + reshuffles), 0
        drawn = tuple(zip(group, draws[at : at + len(group)], strict=True))
        at += len(group)
        rounds.append(drawn)
        by_rank: dict[int, list[str]] = {}
        for name, c in drawn:
            by_rank.setdefault(_cut_rank(c), []).append(name)
        out: list[tuple[str, ...]] = []
        for rank in sorted(by_rank, reverse=not lowest):
            out.extend(cut(tuple(by_rank[rank])))
        return out

    ordered = [name for group in cut(names) for name in group]
    return Cut(seats=tuple(ordered), dealer=0, rounds=tuple(rounds))
