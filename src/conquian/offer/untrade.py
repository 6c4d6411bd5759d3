"""The trade rounds of a view undone from the last, counted (T21, C6).

A sample of a view with trade rounds draws the hands after the rounds and
undoes the rounds from the last (`conquian.determinize.OfferDeals`). In
each round every hand holds one card its right neighbour chose: the
viewer's hand the card he received, his left neighbour's the card he gave,
and every other hand a card its right neighbour chose unseen, any of its
cards (each hand holds the hand size then, so every choice counts the
same). The deals and choices that give the view are all as likely.

Only the cards the viewer gave are bound: each must be in his left
neighbour's hand right after its round, and one he has not seen since is in
one of the other hands (only a hand passes it on, and a card played is
seen). So the rounds are counted on where those cards are: `ways` counts
the choices that undo the rounds from a placing of them (the other cards
are all alike), and the draw places them, then undoes each round, with the
chances of those counts, so that no draw is refused.
"""

from __future__ import annotations

import random
from itertools import product

from .._sampling import pick
from ..cards import Card

__all__ = ["Rounds"]

_Move = tuple[int, tuple[int, ...], tuple[int, ...]]
"""One way to undo a round: how many choices it stands for, where the cards he gave are
before it, and per seat receiving an unseen choice the card it gives back: one he gave (an
index into `cards`), or -1 for one of its other cards."""


class Rounds:
    """The completed trade rounds of a view (`rounds`: per round, the card its player gave
    and the card he received), undone from the last, counted on where the cards he gave
    are: `at` is the seat of each of `cards` (his own seat for one in his hand)."""

    def __init__(
        self, rounds: list[tuple[Card, Card]], player: int, players: int, hand: int
    ) -> None:
        self._rounds = rounds
        self.cards: list[Card] = list(dict.fromkeys(gave for gave, _ in rounds))
        """Each card he gave, once."""
        self._index = {c: i for i, c in enumerate(self.cards)}
        self._player = player
        self._n = players
        self._hand = hand
        self._left = (player + 1) % players
        self._right = (player - 1) % players
        # The seats that receive a card chosen unseen: every one but his left neighbour
        # (who receives the card he chose) and his own (he sees his right neighbour's).
        self._receivers = [(player + i) % players for i in range(2, players)]
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}

    def moves(self, r: int, at: tuple[int, ...]) -> list[_Move]:
        """The ways to undo round `r` (0 the first) with the cards he gave `at` their seats
        after it."""
        gave, got = self._rounds[r]
        g = self._index[gave]
        j = self._index.get(got)
        if at[g] != self._left or (j is not None and at[j] != self._player):
            return []  # the card he gave is not where it went, or the one he got
        options: list[list[tuple[int, int]]] = []
        for q in self._receivers:  # each gives back one card: one he gave, or another
            his = [i for i, p in enumerate(at) if p == q]
            options.append([(self._hand - len(his), -1), *((1, i) for i in his)])
        out: list[_Move] = []
        for chosen in product(*options):
            before = list(at)
            ways = 1
            for q, (k, i) in zip(self._receivers, chosen, strict=True):
                ways *= k
                if i >= 0:
                    before[i] = (q - 1) % self._n  # back to the seat that chose it
            before[g] = self._player
            if j is not None:
                before[j] = self._right
            if ways:
                out.append((ways, tuple(before), tuple(i for _, i in chosen)))
        return out

    def ways(self, r: int, at: tuple[int, ...]) -> int:
        """How many choices of the others, unseen, undo rounds `r` down to the first with the
        cards he gave `at` their seats after round `r`."""
        if r < 0:
            return 1
        key = (r, at)
        got = self._ways.get(key)
        if got is None:
            got = sum(k * self.ways(r - 1, before) for k, before, _ in self.moves(r, at))
            self._ways[key] = got
        return got

    def undo(
        self, r: int, at: tuple[int, ...], rng: random.Random | None
    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Round `r` undone from `at`, drawn with the chances of the ways each leaves (the
        first that leaves any when `rng` is None): where the cards are before it and the
        cards given back (see `_Move`); None when no way is left."""
        options = [
            ((before, picks), k * self.ways(r - 1, before))
            for k, before, picks in self.moves(r, at)
        ]
        if not any(w for _, w in options):
            return None
        return pick(options, 0.0 if rng is None else rng.random())

    @property
    def receivers(self) -> list[int]:
        """The seats that receive a card chosen unseen, in the order of `undo`'s picks."""
        return list(self._receivers)
