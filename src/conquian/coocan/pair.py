"""The exact draw of a Coo-Can view in a deal of two (rules C6, K8), counted lean.

The measure is `conquian.coocan.posterior`'s (see its module): uniform over
the orders of each source that give the view, and over which copy each play
used, the two copies of a card counted as different cards. In a deal of two
there is one other hand, and at a reshuffle (K8) it is known: every card is
then in the player's hand, on the table, in the mixed pile or in his. So
only what followed the last reshuffle is counted, from one source (the pack
before any reshuffle, else the last pile mixed), with one seat's places (his
dealt cards and draws, or his draws since the reshuffle) and his cards
"taken" (from the discard pile, K3, or held at the reshuffle). Before the
last reshuffle the history is read only for the pile and the table.

Each card he played came from a card he took, or from one of his places
before the play. For one seat and one source the weight of a choice of
origins is, per value, the nested count of his takes of it (the takes of
that value before each play less his earlier such plays); the nested count
of his places (his places before each play given a place, less those used
already); and per value C·(C−1)··· over the plays given a place (C its
copies in the source the player did not see), over S·(S−1)··· for them all
(S the hidden places of the source: his and the deck's). `posterior` counts
the same weights for any number of seats and sources; the tests hold the
two equal.

A play of a value he has not taken can only come from a place; a play of a
value whose hidden copies his earlier plays used, or before his first
place, only from a take. Such a *forced* play's copy and take factors are
the same whatever the others do, so they are counted once; what is left of
a forced play from a place is his places before it less those used, which
depends only on `g`, the plays *with a choice* given a place so far. The
plays of one value are forced first, then all have a choice (takes and
places only grow), so a value's state is needed only between its first and
last choice: how many of its choices were given a place (at most its 2
copies). The forward pass keeps partial sums keyed by `g` and those counts
of the values open; a run of forced plays multiplies each by its factor at
its `g`. The backward pass draws each choice from those sums, and the
source's cards left are shuffled into his places left and the deck (top
first), as `posterior` does. The sums grow with the values open at once,
about as 2 to their number.
"""

from __future__ import annotations

import math
import random
from itertools import chain, repeat
from operator import add, sub
from typing import TYPE_CHECKING

from .._sampling import pick
from ..actions import Discard, Draw, Take

if TYPE_CHECKING:
    from .view import CooCanView

__all__ = ["PairPosterior", "pair_posterior"]

_Step = tuple[dict[int, float], int, int, bool, int, int, dict[int, tuple[float, float]]]
"""A play with a choice: the sums before it (key: `g` in the low bits, above them the
open values' choices given a place), the value, its slot in a key (0: none), whether it
is the value's last choice, the take factor and the copies left with none of its choices
given a place, and per `g` the factor of a take and of a place but for those (the forced
plays just before it counted in both)."""

_G = 0xFF
"""The low bits of a key: `g` (at most 104 places to a source)."""


class PairPosterior:
    """The forward pass of a view of two (see the module); `draw` draws, call after call,
    the other hand and the deck from the same sums."""

    __slots__ = (
        "_after",
        "_cards",
        "_final",
        "_given",
        "_kept",
        "_owed",
        "_steps",
        "copies",
        "forced",
        "held",
        "log_z",
        "other",
        "places",
        "played",
    )

    def __init__(
        self,
        other: int,
        plays: list[tuple[int, int, int]],
        copies: list[int],
        held: list[int],
        places: int,
        size: int,
    ) -> None:
        """`plays`, in time order: (value, his places before it, his takes of that value
        before it); `copies` per value in the source, unseen by the player; `held` per
        value the cards he took (or held at the reshuffle); `places` his places in the
        source and `size` all its hidden places (his and the deck's)."""
        self.other = other
        self.copies = copies
        self.held = held
        self.places = places
        played = [0] * 52  # per value, his plays so far
        forced = [0] * 52  # per value, his plays forced to a place
        choices = [0] * 52
        kinds: list[int] = []  # per play: 0 from a take, 1 from a place, 2 a choice
        weight = 1  # the forced plays' factors but their places': an int, exact
        for v, before, taken in plays:
            if copies[v] > forced[v] and before > 0 and taken:
                kinds.append(2)  # the forced plays of a value come before its choices
                choices[v] += 1
            elif copies[v] > forced[v] and before > 0 and not choices[v]:
                kinds.append(1)
                weight *= copies[v] - forced[v]  # the copy it gives
                forced[v] += 1
            elif taken > played[v] - forced[v]:  # a take: no copy left, or no place yet
                kinds.append(0)
                weight *= taken - played[v] + forced[v]
            else:
                raise ValueError("the view's history leaves a played card no place")
            played[v] += 1
        n_forced = sum(forced)
        if n_forced > size:
            raise ValueError("the view's history leaves a played card no place")
        log_z = math.log(weight) - math.lgamma(size + 1) + math.lgamma(size - n_forced + 1)
        slot = [0] * 52
        at = 8
        for v in range(52):
            if choices[v] > 1:
                slot[v], at = at, at + 2
        self.played = played
        self.forced = forced
        rest = size - n_forced  # the hidden places the plays with a choice may use
        so_far = [0] * 52
        seen = [0] * 52
        sums: dict[int, float] = {0: 1.0}
        steps: list[_Step] = []
        run: list[int] = []  # forced plays from a place: his places free before, g = 0
        used = 0  # forced plays from a place so far
        for (v, before, taken), kind in zip(plays, kinds, strict=True):
            if kind == 1:
                run.append(before - used)
                used += 1
            elif kind == 2:
                if run:
                    log_z = _log_run(run, log_z)
                s = slot[v]
                seen[v] += 1
                last = seen[v] == choices[v]
                t0 = taken - so_far[v] + forced[v]  # the take factor, no choice given a place
                c0 = copies[v] - forced[v]
                factors: dict[int, tuple[float, float]] = {}
                steps.append((sums, v, s, last, t0, c0, factors))
                sums = _step(sums, s, last, t0, c0, factors, run, before - used, rest)
                run = []
                total = sum(sums.values())
                if not total > 0.0:
                    raise ValueError("the view's history leaves a played card no place")
                if not 1e-150 < total < 1e150:  # far from underflow and overflow
                    sums = {k: w / total for k, w in sums.items()}
                    log_z += math.log(total)
            so_far[v] += 1
        self._after = sums
        if run:
            log_z = _log_run(run, log_z)
            sums = {k: w * _factors(k & _G, run, 0, 1)[0] for k, w in sums.items()}
        total = sum(sums.values())
        if total <= 0.0:
            raise ValueError("the view's history leaves a played card no place")
        self._final = sums
        self._steps = steps
        self.log_z = log_z + math.log(total)
        """The log of the total weight of every choice of origins (the partition function)."""
        self._given = n_forced
        # with no choice given a place: the source's cards left, and the cards he kept
        values = range(52)
        self._cards = list(chain.from_iterable(map(repeat, values, map(sub, copies, forced))))
        kept = list(map(sub, map(add, held, forced), played))
        self._kept = list(chain.from_iterable(map(repeat, values, kept)))
        self._owed = {v: -kept[v] for v in {x for _, x, *_ in steps} if kept[v] < 0}

    def given(self) -> dict[int, float]:
        """The exact chances of how many of his places gave his plays."""
        out: dict[int, float] = {}
        total = sum(self._final.values())
        for k, w in self._final.items():
            if w:
                g = self._given + (k & _G)
                out[g] = out.get(g, 0.0) + w / total
        return out

    def before(self, e: int, key: int) -> list[tuple[int, float]]:
        """The partial sums before the `e`-th play with a choice that lead to `key` after
        it, each with its weight: the sum before it times the factor of the play."""
        sums, _, s, last, t0, c0, factors = self._steps[e]
        g = key & _G
        options: list[tuple[int, float]] = []
        if s and last:  # the key kept no count of the value's choices given a place
            before: tuple[int, ...] = (key, key | (1 << s), key | (2 << s))
        else:
            before = (key,)
        for k in before:
            pc = (k >> s) & 3 if s else 0
            if t0 + pc > 0 and g in factors:
                w = sums.get(k, 0.0) * factors[g][0] * (t0 + pc)
                if w > 0:
                    options.append((k, w))
            if not g:
                continue
            if s and not last:  # given a place: one fewer then
                if not pc:
                    continue
                k -= 1 << s
                pc -= 1
            if c0 > pc and g - 1 in factors:
                w = sums.get(k - 1, 0.0) * factors[g - 1][1] * (c0 - pc)
                if w > 0:
                    options.append((k - 1, w))
        return options

    @property
    def choices(self) -> int:
        """How many of his plays had a choice of origin (the draw's steps back)."""
        return len(self._steps)

    def value(self, e: int) -> int:
        """The value (`Card.index`) of his `e`-th play with a choice."""
        return self._steps[e][1]

    def sums(self, e: int) -> dict[int, float]:
        """The partial sums right after the `e`-th play with a choice (up to a scale): key,
        `g` in its low bits, to weight."""
        return self._after if e == len(self._steps) - 1 else self._steps[e + 1][0]

    def draw(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """The values of his hand, and the deck's values (top first): the origins of the
        plays with a choice drawn back through the sums, then the source's cards left
        shuffled into his places left and the deck."""
        draw = rng.random
        final = self._final
        key = pick(list(final.items()), draw())
        placed: list[int] = []  # the values of the choices given a place
        for e in range(len(self._steps) - 1, -1, -1):
            options = self.before(e, key)
            k = pick(options, draw())
            if k & _G < key & _G:
                placed.append(self._steps[e][1])
            key = k
        cards = list(self._cards)
        hand = list(self._kept)
        owed = dict(self._owed)
        for v in placed:
            cards.remove(v)
            if owed.get(v):  # a card taken, played by a choice drawn as a take
                owed[v] -= 1
            else:
                hand.append(v)
        for i in range(len(cards) - 1, 0, -1):
            j = int(draw() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        unknown = self.places - self._given - len(placed)
        hand += cards[:unknown]
        return hand, cards[unknown:]


def _step(
    sums: dict[int, float],
    s: int,
    last: bool,
    t0: int,
    c0: int,
    factors: dict[int, tuple[float, float]],
    run: list[int],
    free: int,
    rest: int,
) -> dict[int, float]:
    """The sums after a play with a choice (see `_Step`), the forced plays from a place
    before it (`run`) counted; `factors` gets its factors but for the value's counts."""
    new: dict[int, float] = {}
    get = new.get
    # The value's count of choices given a place (2 bits at `s`; none when this is its
    # only choice): read, then emptied at its last choice, else grown by a place.
    clear = ~(3 << s) if s and last else -1
    grow = (1 << s) + 1 if s and not last else 1
    for key, w in sums.items():
        g = key & _G
        f = factors.get(g) or _factors(g, run, free, rest, factors)
        pc = (key >> s) & 3 if s else 0
        k = key & clear
        if t0 + pc > 0:
            x = f[0] * (t0 + pc)
            if x > 0:
                new[k] = get(k, 0.0) + w * x
        if c0 > pc:
            x = f[1] * (c0 - pc)
            if x > 0:
                new[k + grow] = get(k + grow, 0.0) + w * x
    return new


def _log_run(run: list[int], log_z: float) -> float:
    """`log_z` plus the log of the places free before each forced play of `run` (with no
    choice given a place); raises `ValueError` when one has none."""
    if min(run) <= 0:
        raise ValueError("the view's history leaves a played card no place")
    return log_z + math.log(math.prod(run))


def _factors(
    g: int,
    run: list[int],
    free: int,
    rest: int,
    memo: dict[int, tuple[float, float]] | None = None,
) -> tuple[float, float]:
    """At `g`, the factor of a run of forced plays from a place (for each, his places free
    before it with no choice given a place, `run`, less `g`, over the same with none), and
    that times a place's factor for a play with a choice but for the value's copies (his
    places `free` before it less `g`, over the source's places `rest` left less `g`)."""
    y = 1.0
    for before in run:
        if before <= g:
            y = 0.0
            break
        y *= (before - g) / before
    out = (y, y * (free - g) / (rest - g) if free > g < rest else 0.0)
    if memo is not None:
        memo[g] = out
    return out


def pair_posterior(view: CooCanView) -> PairPosterior | None:
    """The forward pass of a view of a deal of two (see the module), read from its history
    (K8: where the reshuffles fall; C6: what its player saw). None when its player's draws
    are not all recorded (a view read from JSON written without them). Raises `ValueError`
    when no deal gives the view.

    Seat 1 takes the 5C seat 0 discarded (K3) and later discards a 5C: the one he
    took, or its twin, from his dealt cards or his draw (10 chances in 101):

    >>> import random
    >>> from conquian.cards import shuffle
    >>> from conquian.coocan import CooCanRules, deal
    >>> rules = CooCanRules(players=2)
    >>> s = deal(rules, shuffle(rules.pack_cards(), 0), dealer=0)
    >>> s = s.apply("discard 5C").apply("take 5C").apply("discard 2C").apply("draw")
    >>> s = s.apply("discard AC").apply("draw").apply("discard 5C")
    >>> pair = pair_posterior(s.view(0))
    >>> pair.choices, {n: round(p, 4) for n, p in sorted(pair.given().items())}
    (1, {1: 0.901, 2: 0.099})
    >>> hand, deck = pair.draw(random.Random(1))
    >>> len(hand), len(deck)
    (10, 81)
    """
    rules = view.rules
    me = view.player
    other = (me + 1) % rules.players  # the one other seat of a deal of two
    history = view.history
    dealt = rules.hand_size + (other == view.dealer)  # his dealt cards
    p = view.dealer
    deck = 2 * 52 - 2 * rules.hand_size - 1  # the source's cards not dealt
    mine = 0  # the player's draws
    mixed: list[int] | None = None  # the pile of the last reshuffle
    table: list[int] = []  # the table then
    start = 0  # the first action after it
    if view.reshuffles:  # up to the last reshuffle only the pile and the table are needed
        pile: list[int] = []
        on_table = [0] * 52
        left = deck
        for t, action in enumerate(history, 1):
            kind = type(action)
            if kind is Draw:
                left -= 1
                if p == me:
                    mine += 1
            elif kind is Discard:
                pile.append(action.card.index)  # type: ignore[union-attr]
                p = 1 - p
                if left == 0:  # K8: the whole pile, mixed, becomes the deck
                    mixed, left, pile = pile, len(pile), []
                    start, turn, mine_then, table = t, p, mine, list(on_table)
            elif kind is Take:
                pile.pop()
            else:
                for c in action.cards:  # type: ignore[union-attr]
                    on_table[c.index] += 1  # type: ignore[union-attr]  # K1: no jokers
        if mixed is None:
            raise ValueError("the view's history has no reshuffle")
        p, mine, deck = turn, mine_then, len(mixed)
    mine_then = mine
    places = 0 if mixed else dealt  # his places in the source: dealt, then drawn
    delta = [0] * 52  # the player's cards taken less those played, since
    took = [0] * 52  # his takes per value since
    plays: list[tuple[int, int, int]] = []  # his plays since: value, places, takes before
    play = plays.append
    pile = []
    for action in history[start:] if start else history:
        kind = type(action)
        if kind is Draw:
            if p == me:
                mine += 1
            else:
                places += 1
        elif kind is Discard:
            v = action.card.index  # type: ignore[union-attr]
            pile.append(v)
            if p == me:
                delta[v] -= 1
            else:
                play((v, places, took[v]))
            p = 1 - p
        elif kind is Take:
            v = pile.pop()
            if p == me:
                delta[v] += 1
            else:
                took[v] += 1
        else:
            for c in action.cards:  # type: ignore[union-attr]
                v = c.index  # type: ignore[union-attr]  # K1: no jokers
                if p == me:
                    delta[v] -= 1
                else:
                    play((v, places, took[v]))
    own = view.draws
    if mine != len(own):
        return None
    if deck - (mine - mine_then) - (places - (0 if mixed else dealt)) != view.deck_size:
        raise ValueError("the view's history leads to another deck size")
    hand = [0] * 52
    for c in view.hand:
        hand[c.index] += 1
    if mixed is None:  # the pack less the player's dealt cards and draws
        copies = [2 - hand[v] + delta[v] for v in range(52)]
        held = took
    else:  # the pile mixed less his draws from it; the other hand then is known
        copies = [0] * 52
        for v in mixed:
            copies[v] += 1
        then = [2 - copies[v] - table[v] - hand[v] + delta[v] for v in range(52)]
        for c in own[mine_then:]:  # the player's hand then did not hold his draws since
            copies[c.index] -= 1
            then[c.index] += 1
        held = [then[v] + took[v] for v in range(52)]
        plays = [(v, before, taken + then[v]) for v, before, taken in plays]
    if min(copies) < 0 or min(held) < 0 or sum(copies) != places + view.deck_size:
        raise ValueError("the view's cards do not fill its hidden places")
    return PairPosterior(other, plays, copies, held, places, places + view.deck_size)
