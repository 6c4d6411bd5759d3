"""The observation of a Conquian deal written from the board's card masks (C6).

`ObservationWriter` gives what ``state.view(seat).observation()`` gives (or, with
``public``, what `conquian.encoding.Observer` writes for every seat alike), laid out
as `conquian.encoding.observation_layout`, as the native bytes of float32 numbers:
learning environments write it at every step. A Conquian pack holds each card once
(T1), so every card plane is 0 or 1 at each card and a set of cards is a mask
(`conquian.offer.board`): a plane is joined from tables built once per writer,
one for each eight bits of `Card.index`, and the unseen cards are the pack's
mask less every card the viewer sees (C6). `tests/encoding/test_encoding.py` checks the
writer against the view's observation, entry for entry, on every state of
seeded random deals for two to four seats, with and without trade rounds (T21).

>>> import array
>>> state = new_game(ConquianRules(), seed=7)
>>> write = ObservationWriter(ConquianRules(), 6, public=False, normalize=False)
>>> tuple(array.array("f", write(state, 0))) == state.view(0).observation()
True
"""

from __future__ import annotations

import array
from operator import getitem
from typing import Final

from ..rules import ConquianRules
from .board import HANDS, KEYS, OWNER, OWNER_BITS, PENDING
from .state import ConquianState
from .trading import chooser, known_cards

__all__ = ["ObservationWriter"]

_ORIGINS: Final = ("turned", "passed", "discarded")
_CHUNKS: Final = 7
"""Eight bits of `Card.index` (0 to 52) to a table: seven tables cover every card."""


def _floats(values: list[float]) -> bytes:
    return array.array("f", values).tobytes()


class ObservationWriter:
    """The observation of a `ConquianState` for a seat, as float32 bytes (see the module).

    Built once per rules object and options (`most_melds`: the table's most melds, T2,
    C3, whose places the table's part holds); ``writer(state, seat)`` reads only what
    that seat's view shows (C6): with ``public`` only what every seat knows, seats
    counted from seat 0. ``normalize`` scales the hand sizes by ``hand_size + 1`` and
    the stock's size by its size after the deal (the card planes are 0 or 1 either
    way: one copy of each card, T1).
    """

    def __init__(
        self, rules: ConquianRules, most_melds: int, *, public: bool, normalize: bool
    ) -> None:
        indices = [c.index for c in sorted(set(rules.pack_cards()))]  # canonical order (C1)
        if indices != sorted(indices):
            raise ValueError(f"the pack of {rules!r} is not in Card.index order")
        n = rules.players
        self.players = n
        self.public = public
        # A plane lists the pack's cards in canonical order, which is `Card.index` order:
        # each table gives the part of the plane its eight bits of the index hold, so the
        # parts of a mask's eight-bit pieces join into its plane.
        tables: list[tuple[bytes, ...]] = []
        for j in range(_CHUNKS):
            held = [i - 8 * j for i in indices if 8 * j <= i < 8 * j + 8]
            tables.append(tuple(_floats([float(b >> k & 1) for k in held]) for b in range(256)))
        self._t = tuple(tables)
        self._zero_plane = _floats([0.0] * len(indices))
        self._card_plane = {i: self._plane_of(1 << i) for i in indices}
        self._pack = sum(1 << i for i in indices)
        self._most = most_melds
        width = 1 + n + len(indices)
        self._empty_melds = tuple(_floats([0.0] * (width * k)) for k in range(self._most + 1))
        one = _floats([1.0])
        self._meld_head = tuple(
            one + _floats([float(k == seat) for k in range(n)]) for seat in range(n)
        )
        self._to_play = tuple(
            _floats([float(k == at) for k in range(n + 1)]) for at in range(n + 1)
        )
        size_scale = 1.0 / (rules.hand_size + 1) if normalize else 1.0
        pack = len(indices)
        self._size = tuple(_floats([s * size_scale]) for s in range(pack + 1))
        dealt = pack - n * rules.hand_size
        pile_scale = 1.0 / dealt if normalize else 1.0
        self._stock = tuple(_floats([s * pile_scale]) for s in range(pack + 1))
        self._origin = {
            origin: _floats([float(origin == o) for o in _ORIGINS]) for origin in (None, *_ORIGINS)
        }
        # T21: the trade rounds are the first `_rounds` actions; in them, who has chosen.
        self._trades = rules.trades
        self._rounds = rules.trades * n
        self._no_trading = _floats([0.0] * (n + 1))

    def __repr__(self) -> str:
        return f"ObservationWriter(players={self.players}, public={self.public})"

    def _plane_of(self, cards: int) -> bytes:
        parts: list[bytes] = []
        self._plane(cards, parts)
        return b"".join(parts)

    def _plane(self, cards: int, parts: list[bytes]) -> None:
        """Append the plane of the card mask `cards` to `parts`: a table's part for each
        eight bits of `Card.index`."""
        parts += map(getitem, self._t, cards.to_bytes(_CHUNKS, "little"))

    def __call__(self, state: ConquianState, seat: int) -> bytes:
        """The observation of `state` for `seat` (any seat with ``public``)."""
        n = self.players
        me = 0 if self.public else seat
        board = state._board  # the engine's card masks (`conquian.offer.board.Board`)
        hands = board[HANDS]
        keys = board[KEYS]
        pending = board[PENDING]
        offer = state.offer
        current = state.current_player
        plane = self._plane
        parts: list[bytes] = []
        seen = 0  # every card the viewer sees, taken off the pack for the unseen (C6)
        if not self.public:
            plane(hands[me], parts)
            seen = hands[me]
        for key in keys:  # the table, meld after meld, as laid down
            cards = key >> OWNER_BITS
            parts.append(self._meld_head[((key & OWNER) - me) % n])
            plane(cards, parts)
            seen |= cards
        parts.append(self._empty_melds[self._most - len(keys)])
        parts.append(self._to_play[n if current is None else (current - me) % n])
        sizes = self._size
        parts += [sizes[hands[(me + k) % n].bit_count()] for k in range(n)]
        if offer is None:
            parts.append(self._zero_plane)
        else:
            parts.append(self._card_plane[offer.index])
            seen |= 1 << offer.index
        parts.append(self._origin[state.offer_origin])
        plane(pending, parts)
        buried = 0
        for c in state.buried:
            buried |= 1 << c.index
        plane(buried, parts)
        parts.append(self._stock[state.stock_size])
        if not self.public:
            seen |= pending | buried
        if self._trades:
            seen = self._trading(state, me, seen, parts)
        if not self.public:
            if state.result is not None:  # every hand is shown (C6, T19)
                for h in hands:
                    seen |= h
            plane(self._pack & ~seen, parts)
        return b"".join(parts)

    def _trading(self, state: ConquianState, me: int, seen: int, parts: list[bytes]) -> int:
        """T21: append whether the trade rounds go on and who has chosen in the round under
        way, then (but for the public observation) the cards `me` gave that he knows are
        in another hand and sees nowhere else (`ConquianView.known`); the cards seen, those
        included."""
        n = self.players
        history = state.history
        played = len(history)
        if state.result is None and played < self._rounds:
            chosen = [0.0] * n
            for i in range(played % n):
                chosen[(chooser(i, n, state.dealer) - me) % n] = 1.0
            parts.append(_floats([1.0, *chosen]))
        else:
            parts.append(self._no_trading)
        if self.public:
            return seen
        known = [0] * n
        if state.result is None:
            located = known_cards(history, n, state.dealer, self._trades, me)
            for c, q in located.items():
                known[q] |= 1 << c.index
        for k in range(1, n):
            cards = known[(me + k) % n] & ~seen
            self._plane(cards, parts)
            seen |= cards
        return seen
