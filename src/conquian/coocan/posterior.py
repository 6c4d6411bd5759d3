"""The hidden cards of a Coo-Can view drawn from their exact posterior (rules C6, K8).

What a player cannot see is drawn from the *sources* the game dealt it
from: source 0 is the pack, source k the discard pile mixed into a new deck
at the k-th reshuffle (K8). Every source's cards are public (the pack; the
pile, seen face up), less what the player saw himself (his dealt cards and
draws). Each other player's dealt cards are *places* of source 0 at the
deal, each of his draws a place of the source of its period, at its time.

The measure (`CooCanView.sample_state`): uniform over the orders of each
source that give the view, and over which copy each play used, the two
copies of a card counted as different cards. Each card another player
played came from an *origin*: a card he took from the discard pile earlier
and has not played yet, or one of his places filled before the play. The
weight of a choice of origins is the product of

- per seat and value, the nested count of takes: for his plays of that
  value given a take, in time order, the takes before each less those
  used by his earlier such plays;
- per seat and source, the nested count of places: for his plays given
  that source, in time order, his places of it before each less those used;
- per source, the chance that the places used hold those values: for each
  value, C·(C−1)··· over its plays given the source (C its copies the
  player did not see), over S·(S−1)··· for all of them (S the places the
  player does not see, his opponents' and, for the last source, the deck).

Every factor but the nested counts is the same whatever order the plays
are counted in, and the nested counts only need each seat's plays in time
order. So `Posterior` counts the plays seat by seat. A play with one
possible origin (a *forced* play) takes its copy and its place in the
source whatever the others do, so those chances are counted once for all;
a play with a choice is then weighed with the copies and places the forced
plays left. A forward pass sums the weights over every choice of origins,
keeping only the current seat's places used per source, the places chosen
per source by all seats, for a value with more than one choice the copies
chosen per source between its first and last choice, and the current
seat's takes used of a value he plays again; a backward pass draws the
origins from those sums; each source's cards left are then shuffled into
its places left (the deck last, in order). The partial sums grow with the
choices made, about as a power of their number.

In a deal of two the other hand is known at each reshuffle (every card is
then in a hand, on the table or in the mixed pile), so only what followed
the last one is counted, his hand then standing as cards taken at the
reshuffle: one source, one seat.

Runs of forced plays are counted as one step. `uncertain` bounds the plays
with a choice: `conquian.coocan.sampling.sample` draws this way with three
players or more where they are few; in a deal of two it draws by
`conquian.coocan.pair`, which counts the same weights for one seat and one
source with less bookkeeping (the tests hold the two counts equal).
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from .._sampling import pick
from ..actions import Discard, Draw, Meld, Take
from ..cards import Card

if TYPE_CHECKING:
    from .view import CooCanView

T = TypeVar("T")

__all__ = ["Posterior", "posterior", "uncertain"]

_BITS = 8
"""The width of a count of places in a key (at most 104 places to a source)."""

_P_BITS = 2
"""The width of the copies of one value given from one source (a source holds at most 2)."""

_KN_BITS = 6
"""The width of the cards of one value taken and given by the current seat."""


_RUN = 32
"""The most plays with one origin each counted as one step (their factors multiplied in one
float stay far from underflow)."""


class _Play:
    """One card another player played, with what its origins need, read off a key (an int
    of fields: per source the current seat's places given and every seat's places given,
    then per value played more than once its copies given per source and the current
    seat's takes given)."""

    __slots__ = ("forced", "keep", "kn_at", "seat", "sources", "taken", "v")

    def __init__(self, seat: int, v: int) -> None:
        self.seat = seat  # among the other players, in the order counted
        self.v = v
        self.taken = 0  # cards of this value he took (or held at the start) before it
        self.kn_at = -1  # where the key holds his takes of this value given (-1: nowhere)
        # per source that may hold it: source, his places of it before the play, copies,
        # hidden places, where the key holds his places given, every seat's, the copies
        # given (-1: nowhere), and what giving it adds to the key
        self.sources: list[tuple[int, int, int, int, int, int, int, int]] = []
        self.keep = -1  # the fields the key keeps after it (the others are emptied)
        self.forced = False  # one possible origin


class Posterior:
    """The forward pass of one view (see the module): `draw` then draws, call after call,
    the other hands and the deck from the same sums."""

    def __init__(
        self,
        others: Sequence[int],
        places: Sequence[Sequence[int]],
        held: Sequence[Sequence[int]],
        copies: Sequence[Sequence[int]],
        plays: Sequence[_Play],
        seat_keep: int,
        limit: int | None,
        log_const: float = 0.0,
        fixed_given: Sequence[int] = (),
    ) -> None:
        self.others = list(others)
        self.places = places  # per seat, per source: how many places
        self.held = held  # per seat: the values of the cards he took (or held at the start)
        self.copies = copies  # per source, per value: the copies not seen by the player
        self.plays = plays
        self.fixed_given = fixed_given  # per source, the places given by plays with one origin
        self.complete = True
        sums: list[dict[int, float]] = [{0: 1.0}]
        steps: list[tuple[list[tuple[int, int, int, float]], list[int] | None]] = []
        log_z = log_const
        mask_m = (1 << _BITS) - 1
        mask_p = (1 << _P_BITS) - 1
        mask_kn = (1 << _KN_BITS) - 1
        for block in _blocks(plays):
            now: dict[int, float] = {}
            step: list[tuple[int, int, int, float]] = []
            move = step.append
            fixed: list[int] | None = None
            if not block:  # a new seat: its own counts start again
                fixed = []
                for key, weight in sums[-1].items():
                    new = key & seat_keep
                    now[new] = now.get(new, 0.0) + weight
                    move((new, key, -2, 1.0))
            elif block[0].forced:
                # plays with one origin each: one factor per partial sum, no choice
                fixed = [-1 if play.taken else play.sources[0][0] for play in block]
                for key, weight in sums[-1].items():
                    new, factor = key, 1.0
                    for play in block:
                        if play.taken:
                            kn_at = play.kn_at
                            kn = (new >> kn_at) & mask_kn if kn_at >= 0 else 0
                            if play.taken <= kn:
                                break
                            factor *= play.taken - kn
                            new = (new + (1 << kn_at if kn_at >= 0 else 0)) & play.keep
                        else:  # his place: its copy and the source's chance counted once
                            _, before, _, _, m_at, _, _, delta = play.sources[0]
                            free = before - ((new >> m_at) & mask_m)
                            if free <= 0:
                                break
                            factor *= free
                            new = (new + delta) & play.keep
                    else:
                        now[new] = now.get(new, 0.0) + weight * factor
                        move((new, key, -3, factor))
            else:
                play = block[0]
                taken, kn_at, keep, sources = play.taken, play.kn_at, play.keep, play.sources
                for key, weight in sums[-1].items():
                    if taken:
                        kn = (key >> kn_at) & mask_kn if kn_at >= 0 else 0
                        if taken > kn:  # a card he took
                            factor = float(taken - kn)
                            new = (key + (1 << kn_at if kn_at >= 0 else 0)) & keep
                            now[new] = now.get(new, 0.0) + weight * factor
                            move((new, key, -1, factor))
                    for k, before, c, size, m_at, g_at, p_at, delta in sources:
                        free = before - ((key >> m_at) & mask_m)
                        left = c - ((key >> p_at) & mask_p) if p_at >= 0 else c
                        if free <= 0 or left <= 0:
                            continue
                        factor = free * left / (size - ((key >> g_at) & mask_m))
                        new = (key + delta) & keep
                        now[new] = now.get(new, 0.0) + weight * factor
                        move((new, key, k, factor))
            total = sum(now.values())
            if not now or total <= 0.0:
                raise ValueError("the view's history leaves a played card no place")
            if limit is not None and len(now) > limit:
                self.complete = False
                break
            scale = 1.0 / total
            for key in now:
                now[key] *= scale
            log_z += math.log(total)
            sums.append(now)
            steps.append((step, fixed))
        self.log_z = log_z
        """The log of the total weight of every choice of origins (the partition function)."""
        self.sums = sums
        self.steps = steps
        self._into: list[dict[int, list[tuple[int, int, float]]]] | None = None
        self._drawn = 0

    def given(self, k: int) -> dict[int, float]:
        """The exact chances of how many places of source `k` (its last, in a deal of two
        counted from the last reshuffle) gave the other players' plays."""
        at = (len(self.copies) + k) * _BITS
        out: dict[int, float] = {}
        for key, weight in self.sums[-1].items():
            count = (key >> at) & ((1 << _BITS) - 1)
            count += self.fixed_given[k] if self.fixed_given else 0
            out[count] = out.get(count, 0.0) + weight
        return out

    def origins(self, rng: random.Random) -> list[int]:
        """The origin of each play drawn from the sums (-1 a take, else its source)."""
        self._drawn += 1
        if self._into is None and self._drawn > 1:  # many draws: the moves indexed once
            into: list[dict[int, list[tuple[int, int, float]]]] = []
            for moves, _ in self.steps:
                index: dict[int, list[tuple[int, int, float]]] = {}
                for new, old, k, f in moves:
                    index.setdefault(new, []).append((old, k, f))
                into.append(index)
            self._into = into
        key = pick(list(self.sums[-1].items()), rng.random())
        out: list[int] = []
        for e in range(len(self.steps) - 1, -1, -1):
            sums = self.sums[e]
            moves, fixed = self.steps[e]
            if self._into is None:
                options = [((old, k), sums[old] * f) for new, old, k, f in moves if new == key]
            else:
                options = [((old, k), sums[old] * f) for old, k, f in self._into[e][key]]
            key, k = pick(options, rng.random()) if len(options) > 1 else options[0][0]
            if fixed is None:
                out.append(k)
            else:
                out.extend(reversed(fixed))
        out.reverse()
        return out

    def draw(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Per other seat (in `others`' order) the values of his hand, and the deck's values
        (top first): origins drawn, then each source's cards left shuffled into its places
        left."""
        nk = len(self.copies)
        used = [[0] * nk for _ in self.others]
        left = [list(row) for row in self.copies]
        held = [list(row) for row in self.held]
        for play, k in zip(self.plays, self.origins(rng), strict=True):
            if k < 0:
                held[play.seat].remove(play.v)
            else:
                used[play.seat][k] += 1
                left[k][play.v] -= 1
        hands = held
        deck: list[int] = []
        draw = rng.random
        for k in range(nk):
            cards = [v for v in range(52) for _ in range(left[k][v])]
            for a in range(len(cards) - 1, 0, -1):
                b = int(draw() * (a + 1))
                cards[a], cards[b] = cards[b], cards[a]
            at = 0
            for i in range(len(self.others)):
                count = self.places[i][k] - used[i][k]
                hands[i].extend(cards[at : at + count])
                at += count
            if k == nk - 1:
                deck = cards[at:]
        return hands, deck


def _blocks(plays: Sequence[_Play]) -> list[list[_Play]]:
    """The plays in the order counted, cut into steps: a play that may have more than one
    origin alone, the plays between with one origin each together, and an empty step where
    a new seat begins."""
    out: list[list[_Play]] = []
    run: list[_Play] = []
    seat = plays[0].seat if plays else 0
    for play in plays:
        if play.seat != seat:
            if run:
                out.append(run)
            out.append([])
            run, seat = [], play.seat
        if play.forced and len(run) < _RUN:
            run.append(play)
        elif play.forced:
            out.append(run)
            run = [play]
        else:
            if run:
                out.append(run)
            out.append([play])
            run = []
    if run:
        out.append(run)
    return out


def uncertain(view: CooCanView, most: int = 104) -> int:
    """A bound on the plays of `view`'s history that may have more than one origin (see
    the module): the cards other players played after the first reshuffle (K8), when two
    sources may have held them, and before it the cards they played of a value they had
    taken (K3). Any other play before a reshuffle comes from the pack. The history is read
    only until the count passes `most`.

    >>> from conquian.coocan import CooCanRules, deal
    >>> s = deal(CooCanRules(players=3), CooCanRules().pack_cards(), dealer=0)
    >>> s = s.apply("discard JC").apply("take JC").apply("discard 2D")
    >>> s = s.apply("draw").apply("discard 2C").apply("draw").apply("discard AC")
    >>> uncertain(s.view(0)), uncertain(s.apply("draw").apply("discard JC").view(0))
    (0, 1)
    """
    rules = view.rules
    n = rules.players
    me = view.player
    p = view.dealer
    left = 2 * 52 - n * rules.hand_size - 1
    count = 0
    mixed = False
    pile: list[int] = []
    took = [0] * (52 * n)  # per seat and value: has he taken one
    for action in view.history:
        if isinstance(action, Discard):
            v = action.card.index
            pile.append(v)
            if p != me:
                count += mixed or took[52 * p + v]
                if count > most:
                    break
            p = (p + 1) % n
            if left == 0:  # K8: the pile becomes the deck
                left, pile, mixed = len(pile), [], True
        elif isinstance(action, Draw):
            left -= 1
        elif isinstance(action, Take):
            took[52 * p + pile.pop()] = 1
        elif p != me and isinstance(action, Meld):
            for c in action.cards:
                count += mixed or took[52 * p + c.index]  # type: ignore[union-attr]
    return count


def posterior(view: CooCanView, limit: int | None = None, whole: bool = False) -> Posterior | None:
    """The forward pass of `view` (see the module), read from its history (K8: the deck's
    sources; C6: what its player saw). None when its player's draws are not all recorded
    (a view read from JSON written without them), or when `limit` is given and more partial
    sums than that would be kept at one play. Raises `ValueError` when no deal gives the
    view. With `whole`, a deal of two is counted from the deal too, not from the last
    reshuffle (the same draw, at more cost).

    >>> import random
    >>> from conquian.coocan import CooCanRules, deal
    >>> s = deal(CooCanRules(players=3), CooCanRules().pack_cards(), dealer=0)
    >>> hands, deck = posterior(s.apply("discard JC").apply("draw").view(0)).draw(random.Random(1))
    >>> [len(h) for h in hands], len(deck)
    ([11, 10], 72)
    """
    rules = view.rules
    n = rules.players
    me = view.player
    sizes_now = [rules.hand_size + (q == view.dealer) for q in range(n)]
    deck_left = 2 * 52 - sum(sizes_now)
    pile: list[int] = []
    piles: list[list[int]] = []
    turn_limit = rules.turn_limit
    turns = 0
    p = view.dealer
    own = view.draws
    delta = [0] * 52  # the player's cards taken and drawn less those played, so far
    delta_then = delta  # ... at the last reshuffle
    drawn_at: list[int] = []  # the period of each of his draws
    places: list[list[list[int]]] = [[[0] * size] for size in sizes_now]  # dealt: time 0
    takes: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    plays: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # time, value
    table = [0] * 52
    table_then = table  # the table at the last reshuffle
    last = 0  # the time of the last reshuffle
    for t, action in enumerate(view.history, 1):
        kind = type(action)
        if kind is Draw:
            deck_left -= 1
            sizes_now[p] += 1
            if p == me:
                if len(drawn_at) < len(own):
                    delta[own[len(drawn_at)].index] += 1
                drawn_at.append(len(piles))
            else:
                places[p][-1].append(t)
        elif kind is Take:
            v = pile.pop()
            sizes_now[p] += 1
            if p == me:
                delta[v] += 1
            else:
                takes[p].append((t, v))
        elif kind is Meld:
            cards = cast(tuple[Card, ...], cast(Meld, action).cards)  # K1: no jokers
            sizes_now[p] -= len(cards)
            for c in cards:
                table[c.index] += 1
                if p == me:
                    delta[c.index] -= 1
                else:
                    plays[p].append((t, c.index))
        else:  # a discard
            v = cast(Discard, action).card.index
            pile.append(v)
            sizes_now[p] -= 1
            turns += 1
            if p == me:
                delta[v] -= 1
            else:
                plays[p].append((t, v))
            if sizes_now[p] == 0 or (turn_limit is not None and turns >= turn_limit):
                break  # K7, K8: the deal is over
            p = (p + 1) % n
            if deck_left == 0:  # K8: the whole pile, mixed, becomes the deck
                piles.append(pile)
                deck_left, pile = len(pile), []
                for seat in places:
                    seat.append([])
                table_then, delta_then = list(table), list(delta)
                last = t
    if len(own) != len(drawn_at):
        return None
    if sizes_now != list(view.hand_sizes) or deck_left != view.deck_size:
        raise ValueError("the view's history leads to other hand sizes or deck size")
    dealt = [0] * 52  # the player's dealt hand
    for c in view.hand:
        dealt[c.index] += 1
    for v in range(52):
        dealt[v] -= delta[v]
    copies = [[2 - dealt[v] for v in range(52)]]
    for pile_k in piles:
        row = [0] * 52
        for v in pile_k:
            row[v] += 1
        copies.append(row)
    for c, k in zip(own, drawn_at, strict=True):
        copies[k][c.index] -= 1
    others = [q for q in range(n) if q != me]
    held: list[list[tuple[int, int]]] = [takes[q] for q in others]
    if n == 2 and piles and not whole:  # K8: the other hand is known at the last reshuffle
        q = others[0]
        then = [2 - dealt[v] - delta_then[v] - table_then[v] for v in range(52)]
        for v in piles[-1]:
            then[v] -= 1
        if min(then) < 0:
            raise ValueError("the view's cards do not fill its hidden places")
        held = [[(last, v) for v in range(52) for _ in range(then[v])]]
        held[0] += [(t, v) for t, v in takes[q] if t > last]
        seat_places = [[places[q][-1]]]
        seat_plays = [[(t, v) for t, v in plays[q] if t > last]]
        copies = copies[-1:]
    else:
        seat_places = [places[q] for q in others]
        seat_plays = [plays[q] for q in others]
    nk = len(copies)
    sizes = [sum(len(seat[k]) for seat in seat_places) for k in range(nk)]
    sizes[-1] += view.deck_size
    if any(min(row) < 0 for row in copies) or [sum(row) for row in copies] != sizes:
        raise ValueError("the view's cards do not fill its hidden places")
    return _build(others, seat_places, held, seat_plays, copies, sizes, limit)


def _build(
    others: list[int],
    places: list[list[list[int]]],
    held: list[list[tuple[int, int]]],
    plays: list[list[tuple[int, int]]],
    copies: list[list[int]],
    sizes: list[int],
    limit: int | None,
) -> Posterior | None:
    """The `Posterior` of the other seats' places (per source, their times), cards taken
    (time, value) and plays (time, value), counted seat by seat."""
    nk = len(copies)
    order = [_Play(i, v) for i, seat_plays in enumerate(plays) for _, v in seat_plays]
    times_of = [t for seat_plays in plays for t, _ in seat_plays]
    options: list[list[tuple[int, int]]] = []  # per play: (source, his places before it)
    e = 0
    for i, seat_plays in enumerate(plays):
        times: dict[int, list[int]] = {}
        for t, v in held[i]:
            times.setdefault(v, []).append(t)
        for _ in seat_plays:
            play, t = order[e], times_of[e]
            play.taken = bisect_left(times.get(play.v, []), t)
            options.append(
                [
                    (k, before)
                    for k in range(nk)
                    if copies[k][play.v] > 0 and (before := bisect_left(places[i][k], t)) > 0
                ]
            )
            e += 1
    # a play with one possible origin: its copy and its place in the source are given
    # whatever the other plays' origins, so those factors are counted once for all
    forced = [[0] * 52 for _ in range(nk)]
    choices: dict[int, int] = {}  # per value: its plays with more than one origin
    for play, opts in zip(order, options, strict=True):
        if (play.taken > 0) + len(opts) == 1:
            play.forced = True
            if opts:
                forced[opts[0][0]][play.v] += 1
        else:
            choices[play.v] = choices.get(play.v, 0) + 1
    log_const = 0.0
    for k in range(nk):
        row = forced[k]
        for v in range(52):
            if row[v]:
                if row[v] > copies[k][v]:
                    raise ValueError("the view's history leaves a played card no place")
                log_const += math.log(math.perm(copies[k][v], row[v]))
        given = sum(row)
        if given > sizes[k]:
            raise ValueError("the view's history leaves a played card no place")
        log_const -= sum(math.log(sizes[k] - j) for j in range(given))
    count: dict[int, int] = {}
    for play in order:
        count[play.v] = count.get(play.v, 0) + 1
    slot_width = nk * _P_BITS + _KN_BITS
    base = 2 * nk * _BITS
    slot_at: dict[int, int] = {}
    for v in sorted(count):
        if count[v] > 1:
            slot_at[v] = base + len(slot_at) * slot_width
    ones = (1 << (base + len(slot_at) * slot_width)) - 1
    seat_keep = ones
    for k in range(nk):
        seat_keep &= ~(((1 << _BITS) - 1) << (k * _BITS))
    for at in slot_at.values():
        seat_keep &= ~(((1 << _KN_BITS) - 1) << (at + nk * _P_BITS))
    last_choice = {play.v: e for e, play in enumerate(order) if not play.forced}
    last_here: dict[tuple[int, int], int] = {(play.seat, play.v): e for e, play in enumerate(order)}
    for e, (play, opts) in enumerate(zip(order, options, strict=True)):
        v = play.v
        at = slot_at.get(v, -1)
        play.kn_at = at + nk * _P_BITS if at >= 0 else -1
        tracked = at >= 0 and choices.get(v, 0) > 1  # copies chosen: kept between its choices
        for k, before in opts:
            if play.forced:  # only his own place is counted here
                play.sources.append((k, before, 0, 0, k * _BITS, 0, -1, 1 << (k * _BITS)))
                continue
            p_at = at + k * _P_BITS if tracked else -1
            delta = (1 << (k * _BITS)) + (1 << ((nk + k) * _BITS))
            delta += 1 << p_at if p_at >= 0 else 0
            play.sources.append(
                (
                    k,
                    before,
                    copies[k][v] - forced[k][v],
                    sizes[k] - sum(forced[k]),
                    k * _BITS,
                    (nk + k) * _BITS,
                    p_at,
                    delta,
                )
            )
        keep = ones
        if tracked and last_choice[v] == e:  # its last choice: the copies chosen are not needed
            keep &= ~(((1 << (nk * _P_BITS)) - 1) << at)
        if at >= 0 and last_here[play.seat, v] == e:  # his last play of it: his takes given
            keep &= ~(((1 << _KN_BITS) - 1) << play.kn_at)
        play.keep = keep
    result = Posterior(
        others,
        [[len(row) for row in seat] for seat in places],
        [[v for _, v in seat] for seat in held],
        copies,
        order,
        seat_keep,
        limit,
        log_const,
        [sum(row) for row in forced],
    )
    return result if result.complete else None
