"""`Observer`: observations written straight into a preallocated buffer (`conquian.encoding`).

The layout is `observation_layout`'s: the private observation is, entry for entry,
`observation(view)`; the public one leaves out what only the viewer knows (his hand
and the unseen cards) and numbers the seats from seat 0, so every seat gets the same.
"""

from __future__ import annotations

import array
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..cards import Card
from ..rules import Rules
from ..state.game import Game, game_of

__all__ = ["Observer", "layout_of", "most_melds"]


def _offer_game(rules: Rules) -> bool:
    """Whether the zones of the deal are Conquian's (a card on offer, pending and buried
    cards, T4-T8) rather than Cooncan's (a phase, a face-up stock, a pack, M1): the one
    switch of this module, on the zones the game shows (`Game.zones`)."""
    return "offer" in game_of(rules).zones


def most_melds(rules: Rules) -> int:
    """How many meld indices an action may name (T2, C3, M10).

    Conquian: each player melds at most hand size + 1 cards (he wins there,
    T2), three to a meld (C3): three melds each, six in all with two players
    (seat-generic: ``players`` times). Cooncan: while
    the deal goes on every player holds a card (M10), and the player who
    names a meld holds the card he plays onto it, so the table holds at most
    ``(pack - players) // 3`` melds.
    """
    return game_of(rules).most_melds(rules)


def _distinct(rules: Rules) -> tuple[Card, ...]:
    return tuple(sorted(set(rules.pack_cards())))


def _own_layout(rules: Rules) -> Game | None:
    """The game of `rules` if it lays out its own observations (`Game.observation_layout`),
    or None."""
    game = game_of(rules)
    return None if game.observation_layout(rules, False) is None else game


def layout_of(rules: Rules, public: bool = False) -> tuple[tuple[str, int], ...]:
    """The parts of an observation of `rules`, in order, each with its length."""
    own = game_of(rules).observation_layout(rules, public)
    if own is not None:
        return own
    d, n, m = len(_distinct(rules)), rules.players, most_melds(rules)
    others = n if public else n - 1
    parts: list[tuple[str, int]] = [] if public else [("hand", d)]
    parts += [("table", m * (1 + n + d)), ("to play", n + 1), ("hand sizes", n)]
    if _offer_game(rules):
        parts += [
            ("offer", d),
            ("offer origin", 3),
            ("pending", d),
            ("buried", d),
            ("stock size", 1),
        ]
        if getattr(rules, "trades", 0):  # T21: who has chosen, and the cards he gave
            parts.append(("trading", n + 1))
            if not public:
                parts.append(("known in hands", (n - 1) * d))
    else:
        parts += [
            ("phase", 2),
            ("stock", d),
            ("stock top", d),
            ("known in hands", others * d),
            ("known pack", d),
            ("pack size", 1),
            ("turns", 1),
        ]
    if not public:
        parts.append(("unseen", d))
    return tuple(parts)


_ORIGINS = ("turned", "passed", "discarded")
_TURNS_WITHOUT_LIMIT = 1000
"""Without a turn limit (M11), ``turns`` is normalised against this many turns, and clipped."""


class Observer:
    """Writes the observations of `rules` into a buffer the caller keeps: no tuple, no list.

    - ``public=False`` (the default): what the viewer knows, entry for entry
      `observation(view)`, seats counted from the viewer;
    - ``public=True``: only what every seat knows (the table, whose turn, the hand
      sizes, the offer, pending and buried cards, or the stock, the known cards of
      every hand and the pack; never a hand or the unseen cards), seats counted from
      seat 0, so that it is the same for every viewer;
    - ``normalize=True``: every entry in [0, 1]: card counts divided by the copies
      of the card in the pack, hand sizes by ``hand_size + 1``, the stock's or pack's
      size by its size after the deal, the turns by ``turn_limit`` (without one, by
      1000, clipped); ``normalize=False`` keeps the raw counts.

    `slices` names the parts (name -> slice of the buffer) and `high` gives each
    entry's largest value, for an observation space with its true bounds.

    >>> obs = Observer(ConquianRules())
    >>> buf = obs.buffer()
    >>> state = new_game(ConquianRules(), seed=7)
    >>> obs.write(state, buf, player=0)
    >>> tuple(buf) == state.view(0).observation(), sum(buf[obs.slices["hand"]])
    (True, 10.0)
    """

    def __init__(self, rules: Rules, *, public: bool = False, normalize: bool = False) -> None:
        self.rules = rules
        self.public = public
        self.normalize = normalize
        self.layout = layout_of(rules, public)
        starts: dict[str, int] = {}
        at = 0
        for name, length in self.layout:
            starts[name] = at
            at += length
        self.size = at
        self.slices = {name: slice(starts[name], starts[name] + n) for name, n in self.layout}
        self._zeros = array.array("f", bytes(4 * self.size))
        # A game with its own layout (Coo-Can) writes its own observation, in [0, 1] already.
        self._own = _own_layout(rules)
        # A game may write the shared layout from its state's own representation (the
        # Conquian board's card masks), made once here: `write` then copies its bytes.
        self._writer = None
        if self._own is None:
            self._writer = game_of(rules).observation_writer(
                rules, most_melds(rules), public=public, normalize=normalize
            )
        if self._own is not None:
            # Its entries are in [0, 1] already (`CooCanView.observation`), either way.
            self.high = (1.0,) * self.size
            return
        cards = _distinct(rules)
        counts = Counter(rules.pack_cards())
        self._d = len(cards)
        self._slot = [-1] * 53
        for k, c in enumerate(cards):
            self._slot[c.index] = k
        copies = [float(counts[c]) for c in cards]
        self._unit = [1.0 / c if normalize else 1.0 for c in copies]
        self._full = array.array("f", (c * u for c, u in zip(copies, self._unit, strict=True)))
        self._offers = _offer_game(rules)
        self._trades = bool(getattr(rules, "trades", 0))
        n = rules.players
        dealt = len(rules.pack_cards()) - n * rules.hand_size
        turns = getattr(rules, "turn_limit", None) or _TURNS_WITHOUT_LIMIT
        self._scale = {
            "hand sizes": 1.0 / (rules.hand_size + 1) if normalize else 1.0,
            "pile": 1.0 / dealt if normalize else 1.0,
            "turns": 1.0 / turns if normalize else 1.0,
        }
        self._turn_cap = float(turns) if normalize else float("inf")
        self._start = starts
        self._tables: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
        high = [1.0] * self.size
        if not normalize:
            for name in ("hand", "offer", "pending", "buried", "stock", "known in hands"):
                self._raise(high, name, copies)
            for name in ("known pack", "unseen"):
                self._raise(high, name, copies)
            for k in range(most_melds(rules)):
                first = starts["table"] + k * (1 + n + self._d) + 1 + n
                high[first : first + self._d] = copies
            for k in range(n):
                high[starts["hand sizes"] + k] = float(rules.hand_size + 1)
            for name in ("stock size", "pack size"):
                if name in starts:
                    high[starts[name]] = float(dealt)
            if "turns" in starts:
                limit = getattr(rules, "turn_limit", None)
                high[starts["turns"]] = float(limit) if limit else float("inf")
        self.high = tuple(high)

    def _raise(self, high: list[float], name: str, copies: list[float]) -> None:
        if name in self.slices:
            s = self.slices[name]
            for at in range(s.start, s.stop, self._d):
                high[at : at + self._d] = copies

    def __repr__(self) -> str:
        return (
            f"Observer({self.rules!r}, public={self.public}, normalize={self.normalize})"
            f"  # {self.size} entries"
        )

    def buffer(self) -> array.array[float]:
        """A fresh buffer for `write`: ``array('f')`` of `size` zeros (numpy reads it with
        ``np.frombuffer(buf, np.float32)``, sharing the memory)."""
        return array.array("f", self._zeros)

    def write(self, source: Any, out: Any, player: int | None = None) -> None:
        """Write the observation of `source` into `out` (a buffer of `size` floats that
        takes item and slice assignment: ``array('f')``, a ``memoryview`` of one, or a
        numpy float32 array).

        `source` is a player's view, or a state and the `player` whose view it is: the
        state is read through what that view shows (C6), without building the view.
        """
        if self._own is not None:
            values = None
            if player is not None:
                values = self._own.state_observation(source, player, self.public)
            if values is None:
                view = source if player is None else source.view(player)
                own = self._own.public_observation if self.public else type(view).observation
                values = own(view)
            out[: self.size] = array.array("f", values)  # one copy, not one item at a time
            return
        if player is not None and self._writer is not None:
            data = self._writer(source, player)
            try:
                whole = memoryview(out)
            except TypeError:  # no buffer of its own: slice assignment
                whole = None
            if whole is not None and whole.format == "f" and whole.c_contiguous:
                whole.cast("B")[: len(data)] = data  # float32 in place: the bytes themselves
            else:
                out[: self.size] = array.array("f", data)
            return
        if player is None:
            view = source
            self._fill(out, view.player, self._view_facts(view), view.unseen)
        else:
            self._fill(out, player, self._state_facts(source, player), None)

    def _view_facts(self, view: Any) -> tuple[Any, ...]:
        if self._offers:
            extra: tuple[Any, ...] = (
                view.offer,
                view.offer_origin,
                view.pending,
                view.buried,
                view.stock_size,
            )
            if self._trades:
                extra += (view.trading, view.traded, view.known)
        else:
            extra = (view.phase, view.stock, view.known, view.known_pack)
            extra += (view.pack_size, view.turns)
        return (view.hand, view.table, view.current_player, view.hand_sizes, view.hands, extra)

    def _state_facts(self, state: Any, player: int) -> tuple[Any, ...]:
        n = self.rules.players
        hands = [state.hand(q) for q in range(n)]
        if self._offers:
            extra: tuple[Any, ...] = (
                state.offer,
                state.offer_origin,
                state.pending,
                state.buried,
                state.stock_size,
            )
        else:
            pack = state.pack if state.pack_is_known else None
            extra = (state.phase, state.stock, state.known, pack, state.pack_size, state.turns)
        over = state.result is not None
        sizes = tuple(len(h) for h in hands)
        shown = hands if over else None
        return (hands[player], state.table, state.current_player, sizes, shown, extra)

    def _table(self, table: Sequence[Any], me: int) -> tuple[Any, Any]:
        """The table's part of the buffer, and the pack less the table's cards, for the
        viewer `me`: kept while the table lives (it changes only when a meld is laid or
        grows, so most steps find it here, and both are copied in whole)."""
        key = (id(table), me)
        got = self._tables.get(key)
        if got is not None and got[0] is table:
            return got[1], got[2]
        if len(self._tables) > 256:
            self._tables.clear()
        n, d, slot, unit = self.rules.players, self._d, self._slot, self._unit
        width = 1 + n + d
        part = array.array("f", bytes(4 * width * most_melds(self.rules)))
        rest = array.array("f", self._full)
        base = 0
        for meld in table:
            part[base] = 1.0
            part[base + 1 + (meld.owner - me) % n] = 1.0
            for c in meld.physical_cards:
                k = slot[c.index]
                part[base + 1 + n + k] += unit[k]
                rest[k] -= unit[k]
            base += width
        self._tables[key] = (table, part, rest)
        return part, rest

    def _fill(
        self, out: Any, me: int, facts: tuple[Any, ...], unseen: Sequence[Card] | None
    ) -> None:
        hand, table, current, sizes, shown, extra = facts
        out[:] = self._zeros
        slot, unit, d, start = self._slot, self._unit, self._d, self._start
        n = self.rules.players
        public = self.public
        if public:
            me = 0
        part, rest = self._table(table, me)
        tb = start["table"]
        out[tb : tb + len(part)] = part
        # `ub`: where the unseen cards go, when they are worked out here as the pack less
        # all the viewer sees (C6); -1 when the view gives them, or when public.
        ub = -1 if public or unseen is not None else start["unseen"]
        if ub >= 0:
            out[ub : ub + d] = rest

        def plane(base: int, cards: Iterable[Card]) -> None:
            for c in cards:
                k = slot[c.index]
                out[base + k] += unit[k]
                if ub >= 0:
                    out[ub + k] -= unit[k]

        if not public:
            hb = start["hand"]
            for c in hand:  # the longest plane: written here rather than through `plane`
                k = slot[c.index]
                out[hb + k] += unit[k]
                if ub >= 0:
                    out[ub + k] -= unit[k]
        out[start["to play"] + (n if current is None else (current - me) % n)] = 1.0
        at, scale = start["hand sizes"], self._scale["hand sizes"]
        for k in range(n):
            out[at + k] = sizes[(me + k) % n] * scale
        if self._offers:
            offer, origin, pending, buried, stock_size = extra[:5]
            if self._trades:  # T21: the round under way, and the cards he knows he gave
                trading, traded, known = extra[5:]
                at = start["trading"]
                out[at] = float(trading)
                for q in traded:
                    out[at + 1 + (q - me) % n] = 1.0
                if not public:
                    base = start["known in hands"]
                    for k in range(1, n):
                        plane(base, known[(me + k) % n])
                        base += d
            if offer is not None:
                plane(start["offer"], (offer,))
            if origin is not None:
                out[start["offer origin"] + _ORIGINS.index(origin)] = 1.0
            plane(start["pending"], pending)
            plane(start["buried"], buried)
            out[start["stock size"]] = stock_size * self._scale["pile"]
        else:
            phase, stock, known, known_pack, pack_size, turns = extra
            out[start["phase"] + (0 if phase == "draw" else 1)] = float(phase in ("draw", "play"))
            plane(start["stock"], stock)
            if stock:
                k = slot[stock[-1].index]
                out[start["stock top"] + k] += unit[k]
            base = start["known in hands"]
            for k in range(0 if public else 1, n):
                cards = known[(me + k) % n]
                if shown is None:
                    plane(base, cards)
                else:  # the whole hand is shown: taken off the unseen below
                    for c in cards:
                        out[base + slot[c.index]] += unit[slot[c.index]]
                base += d
            plane(start["known pack"], known_pack or ())
            out[start["pack size"]] = pack_size * self._scale["pile"]
            out[start["turns"]] = min(turns, self._turn_cap) * self._scale["turns"]
        if unseen is not None and not public:
            base = start["unseen"]
            for c in unseen:
                k = slot[c.index]
                out[base + k] += unit[k]
        elif ub >= 0 and shown is not None:
            for q in range(n):
                if q != me:
                    for c in shown[q]:
                        k = slot[c.index]
                        out[ub + k] -= unit[k]
