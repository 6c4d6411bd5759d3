"""Coo-Can's hidden information (rules C6, K8): a whole position drawn behind a view.

`sample` draws among the positions that give a `CooCanView` (its exact
posterior, `conquian.coocan.posterior`, or for a deal of two
`conquian.coocan.pair`); `samples` draws many of one view, the history read
once for all of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from operator import attrgetter

from .._sampling import shuffled
from ..actions import Meld
from ..cards import Card, card_at
from .melds import COOCH
from .pair import pair_posterior
from .posterior import posterior, uncertain
from .state import CooCanState
from .tables import Deal
from .view import CooCanView

__all__ = ["sample", "samples"]

_CARDS = tuple(card_at(i) for i in range(52))
"""Every card by its `Card.index`."""

_INDEX = attrgetter("index")
"""A card's place in the canonical order (`Card.index`): the key hands are sorted by."""


def sample(view: CooCanView, rng: random.Random) -> CooCanState:
    """A position drawn among those giving `view` (C6, K8): its ``view(view.player) == view``.

    **Uniform**, here: over the orders of the pack and of each discard pile
    mixed into a new deck (K8) that give the view, and over which copy each
    play used, the two copies of a card counted as different cards (as the
    double-pack sampler of `conquian.determinize` counts them). Each source's
    cards are public (the pack; the pile, seen face up), so every order of it
    by card values stands for the same number of orders of its copies;
    counted this way a deal in which a player held both copies of a card
    when he played one comes up twice, as he could have played either.

    **Drawn exactly so** (`conquian.coocan.posterior`): each card another
    player played is given the place it came from (a card he took, or one
    of his dealt cards or draws before the play, each in its source),
    weighed over every way the rest of the history could go, the plays
    counted seat by seat; then each source's cards left are shuffled into
    the places left and the deck. In a deal of two that is every view: only
    what followed the last reshuffle is counted, the other hand being known
    then, by the lean count of one seat and one source of
    `conquian.coocan.pair` (the same weights, fewer steps; the random
    numbers are used otherwise than by `posterior`'s draw, the distribution
    is the same). With three players or more it is every view where at most
    `UNCERTAIN` plays may have more than one origin (a bound: before the
    first reshuffle, each card another player played of a value he had
    taken; after it, each card he played; so the early part of a deal) and
    the count keeps at most `LIMIT` partial sums. Before the first
    reshuffle, when no other player has played a card of a value he took
    (K3), every card played came from the pack and every placement of the
    unseen cards counts the same: the exact draw is then the shuffle below,
    which reads no more of the history than `uncertain` does.

    **Library choice, for speed**: any other view of three players or more
    (an exact count costs at least a reading of the history, and grows with
    the uncertain plays; `conquian.coocan.posterior.posterior` gives it to a
    bot that can afford it: most views of random deals of four within 4,096
    partial sums), and a view
    whose player's draws are not recorded (read from JSON written without
    them), is drawn by shuffling the cards of `view.unseen` (only
    ``rng.random`` is used) and dealing them to the places the player
    cannot see: the deck, in its order (from `deck_may_hold` after a
    reshuffle), and the unknown part of each other hand from what is left,
    every such arrangement equally likely. That is not the exact posterior:
    it does not follow which of another hand's cards came from the mixed
    pile and which were kept from before it (who drew from the pile and
    when), nor that a card a player played was in his hand when he played
    it (the taken card, or its twin).

    The position is built zone by zone with the view's history, not replayed
    from a deal: it has no deck to record (`to_json` refuses it), and its own
    later reshuffles are seeded from `rng`.
    """
    return samples(view)(rng)


UNCERTAIN = 10
"""With three players or more, `sample` draws exactly when at most this many plays of the
history may have more than one origin (`conquian.coocan.posterior.uncertain`) ..."""

LIMIT = 4096
"""... and the exact count keeps at most this many partial sums at one play."""


def samples(view: CooCanView) -> Callable[[random.Random], CooCanState]:
    """``draw = samples(view)``, then ``draw(rng)`` is ``sample(view, rng)``: the view's
    history read, and the sums of the exact draw made, once for every sample."""
    rules = view.rules
    n = rules.players
    if view.hands is not None:  # C6 Showing: only the deck is left unknown
        shown = view.hands

        def showing(rng: random.Random) -> CooCanState:
            return _build(view, shown, shuffled(view.unseen, rng), rng)

        return showing
    post = None
    count = 0 if n == 2 and view.reshuffles else uncertain(view, 0 if n == 2 else UNCERTAIN)
    if count == 0 and view.reshuffles == 0:
        pass  # every card played came from the pack: the shuffle is the exact draw
    elif n == 2:  # one other hand: the lean count of `conquian.coocan.pair`
        pair = pair_posterior(view)
        if pair is not None:
            exact_pair = pair
            other = pair.other

            def draw_pair(rng: random.Random) -> CooCanState:
                held, deck = exact_pair.draw(rng)
                hands = [view.hand, view.hand]
                hands[other] = tuple([_CARDS[v] for v in sorted(held)])
                return _build(view, tuple(hands), [_CARDS[v] for v in deck], rng)

            return draw_pair
    elif count <= UNCERTAIN:
        post = posterior(view, LIMIT)
    if post is not None:
        exact = post

        def draw_exact(rng: random.Random) -> CooCanState:
            held, deck = exact.draw(rng)
            hands: list[tuple[Card, ...]] = [view.hand] * n
            for q, values in zip(exact.others, held, strict=True):
                hands[q] = tuple(card_at(v) for v in sorted(values))
            return _build(view, tuple(hands), [card_at(v) for v in deck], rng)

        return draw_exact

    def draw_fast(rng: random.Random) -> CooCanState:
        return _build(view, *_fast_draw(view, rng), rng)

    return draw_fast


def _fast_draw(
    view: CooCanView, rng: random.Random
) -> tuple[tuple[tuple[Card, ...], ...], list[Card]]:
    """The hands and the deck, the unseen cards shuffled into the places the player
    cannot see (the library's choice for speed, see `sample`)."""
    n = view.rules.players
    me = view.player
    d = view.deck_size
    unknown = [0 if q == me else view.hand_sizes[q] - len(view.known[q]) for q in range(n)]
    if view.deck_may_hold is None:
        pool = shuffled(view.unseen, rng)
        stock, rest = pool[:d], pool[d:]
    else:
        stock = shuffled(view.deck_may_hold, rng)[:d]
        counts = [0] * 52
        for c in view.unseen:
            counts[c.index] += 1
        for c in stock:
            counts[c.index] -= 1
        if min(counts) < 0:
            raise ValueError("the view's deck may hold cards it does not count as unseen")
        rest = shuffled([card_at(i) for i in range(52) for _ in range(counts[i])], rng)
    if len(stock) != d or len(rest) != sum(unknown):
        raise ValueError("the view's unseen cards do not fill its unknown places")
    dealt: list[tuple[Card, ...]] = []
    at = 0
    for q in range(n):
        if q == me:
            dealt.append(view.hand)
        else:
            held = (*view.known[q], *rest[at : at + unknown[q]])
            dealt.append(tuple(sorted(held, key=_INDEX)))
            at += unknown[q]
    return tuple(dealt), stock


def _build(
    view: CooCanView,
    hands: tuple[tuple[Card, ...], ...],
    stock: Sequence[Card],
    rng: random.Random,
) -> CooCanState:
    """The position of `view` with these hands and this deck (top first)."""
    n = view.rules.players
    me = view.player
    history = list(view.history)
    last = history[-1] if history else None
    melded = 0
    if view.melded:
        melded = 2 if isinstance(last, Meld) and len(last.cards) == COOCH else 1  # K9
    return CooCanState(
        Deal(view.rules, view.dealer, (), key=int(rng.random() * 2**53)),
        hands,
        view.table,
        view.discard_pile,
        tuple(stock),
        view.reshuffles,
        view.deck_may_hold,
        ((),) * n,
        view.current_player,
        view.phase,
        view.taken,
        melded,
        view.opened,
        view.known,
        view.turns,
        history,
        len(history),
        view.result,
        tuple(view.draws if q == me else () for q in range(n)),
    )
