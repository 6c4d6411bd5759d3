"""What one player of a Coo-Can deal may know (rules C6, K8): `CooCanView`, and its samples.

A view holds the player's own hand, the size of every hand, the table, the
discard pile, the deck's size, the cards known to be in other hands (taken
from the discard pile), and the public history. When the deck has been made
from the discard pile (K8) everyone saw which cards went into it, though not
their order: `deck_may_hold` is the part of `unseen` that can still be in the
deck (the mixed pile, less the cards the player drew from it himself).

`CooCanView.sample_state` draws a whole position that gives the view, for
searching bots (see `sample`; `CooCanView.samples` for many of one view).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from operator import attrgetter

import attrs

from .._sampling import shuffled
from ..actions import Action, Meld
from ..cards import Card, card_at
from ..combos.core import Combination
from ..rules import CooCanRules
from ..state.base import PlayerView, Result
from .melds import COOCH
from .pair import pair_posterior
from .posterior import posterior, uncertain
from .state import CooCanState
from .tables import Deal, Phase

__all__ = [
    "CooCanView",
    "make_view",
    "observation_layout",
    "public_observation",
    "sample",
    "samples",
    "state_observation",
]


@attrs.frozen
class CooCanView(PlayerView):
    """What one player of a Coo-Can deal may know (C6); `CooCanState.view` makes it.

    His own `hand`; every hand's size (so the declarations of K6 need no
    action); the `table`, the `discard_pile`, the `deck_size`; `known`, per
    seat, the cards known to be in that hand (taken from the discard pile and
    not yet played); who has `opened` (K5); the card `taken` and whether the
    player to move has `melded` this turn; the `reshuffles` so far and
    `deck_may_hold` (None before the first, K8); the `history` (a draw shows
    no card); his `legal_actions` on his turn; and `unseen`, the cards whose
    place he cannot know. Never the deck's order nor another hand's unknown
    cards while the deal goes on; once it is over every hand is shown
    (`hands`, C6 "Showing"). `draws` are the cards he drew from the deck, in
    order (his own, C6).

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import cards, shuffle
    >>> view = deal(CooCanRules(), shuffle(CooCanRules().pack_cards(), 1), dealer=0).view(1)
    >>> view.hand_sizes, view.deck_size, len(view.unseen), view.decision
    ((11, 10, 10, 10), 63, 94, 'play')
    """

    rules: CooCanRules
    player: int
    dealer: int
    current_player: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Combination, ...]
    discard_pile: tuple[Card, ...]
    deck_size: int
    known: tuple[tuple[Card, ...], ...]
    opened: tuple[bool, ...]
    taken: Card | None
    melded: bool
    reshuffles: int
    deck_may_hold: tuple[Card, ...] | None
    history: Sequence[Action]
    turns: int
    result: Result | None
    legal_actions: tuple[Action, ...]
    unseen: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...] | None = None
    draws: tuple[Card, ...] = ()

    @property
    def decision(self) -> Phase | None:
        """What the player to move is asked: ``"draw"`` or ``"play"``; None when over."""
        return None if self.result is not None else self.phase

    def sample_state(self, rng: random.Random) -> CooCanState:
        """A whole position drawn among those that give this view (C6); see `sample`.

        >>> from conquian.coocan import CooCanRules, deal
        >>> from conquian.cards import cards, shuffle
        >>> import random
        >>> s = deal(CooCanRules(), shuffle(CooCanRules().pack_cards(), 1), dealer=0)
        >>> view = s.apply("discard KD").apply("draw").view(0)
        >>> view.sample_state(random.Random(3)).view(0) == view
        True
        """
        return sample(self, rng)

    def samples(self) -> Callable[[random.Random], CooCanState]:
        """Many samples of this view: ``draw = view.samples()``, then ``draw(rng)`` is
        ``view.sample_state(rng)``, the history read once for all of them (see `sample`).

        >>> from conquian.coocan import CooCanRules, deal
        >>> import random
        >>> s = deal(CooCanRules(players=3), CooCanRules().pack_cards(), dealer=0)
        >>> view = s.apply("discard JC").apply("draw").view(0)
        >>> draw = view.samples()
        >>> draw(random.Random(3)).hand(1) == view.sample_state(random.Random(3)).hand(1)
        True
        """
        return samples(self)

    def observation(self) -> tuple[float, ...]:
        """This view as a fixed-length tuple of floats, for learning (the layout depends only
        on the number of players `n`; seats are counted from this player, to his left):

        - 52 × 5: per card (`Card.index`), the copies in his hand, in the discard pile, on
          the table (each halved), the top discard and the card taken this turn (0 or 1);
        - 52 × (n − 1): the copies known to be in each other hand, halved (C6);
        - n hand sizes (divided by 11), n flags of having opened (K5);
        - the deck's size (÷ 104), the reshuffles (÷ 10, at most 1), whether he is to play,
          whether it is a draw phase, whether he has melded this turn.

        >>> from conquian.coocan import CooCanRules, deal
        >>> view = deal(CooCanRules(players=3), CooCanRules().pack_cards(), 0).view(1)
        >>> len(view.observation()), 52 * 5 + 52 * 2 + 2 * 3 + 5
        (375, 375)
        """
        return _observe(self, self.player, self.hand, self.hand_sizes)


def make_view(state: CooCanState, seat: int) -> CooCanView:
    """`CooCanState.view`: all that `seat` may know of `state`, and nothing more (C6, K8)."""
    rules = state.rules
    n = rules.players
    over = state.result is not None
    counts = [0] * 52
    for c in rules.pack_cards():
        counts[c.index] += 1
    hands = tuple(state.hand(q) for q in range(n))
    seen: list[Card] = [*hands[seat], *state.discard_pile]
    for combo in state.table:
        seen.extend(combo.physical_cards)
    known = state.known
    for q in range(n):
        if q != seat:
            seen.extend(hands[q] if over else known[q])
    for c in seen:
        counts[c.index] -= 1
    unseen = tuple(card_at(i) for i in range(52) for _ in range(counts[i]))
    may_hold = None
    pool = state.pool
    if pool is not None:  # K8: the mixed pile, less his own draws from it, among the unseen
        left = (Counter(pool) - Counter(state.drawn(seat))) & Counter(unseen)
        may_hold = tuple(sorted(left.elements()))
    return CooCanView(
        rules=rules,
        player=seat,
        dealer=state.dealer,
        current_player=state.current_player,
        phase=state.phase,
        hand=hands[seat],
        hand_sizes=tuple(len(h) for h in hands),
        table=state.table,
        discard_pile=state.discard_pile,
        deck_size=state.deck_size,
        known=known,
        opened=state.opened,
        taken=state.taken,
        melded=state.melded,
        reshuffles=state.reshuffles,
        deck_may_hold=may_hold,
        history=state.history,
        turns=state.turns,
        result=state.result,
        legal_actions=state.legal_actions() if seat == state.current_player else (),
        unseen=unseen,
        hands=hands if over else None,
        draws=state.draws(seat),
    )


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


def observation_layout(rules: CooCanRules, public: bool = False) -> tuple[tuple[str, int], ...]:
    """The parts of a Coo-Can observation, in order, each with its length: a player's
    (`CooCanView.observation`), or with `public` what every seat knows (`public_observation`):
    no hand, the known cards of every hand, seats counted from seat 0.

    >>> sum(n for _, n in observation_layout(CooCanRules(players=3)))
    375
    """
    n = rules.players
    parts = [] if public else [("hand", 52)]
    parts += [("discard pile", 52), ("table", 52), ("top discard", 52), ("taken", 52)]
    parts += [("known in hands", 52 * (n if public else n - 1))]
    parts += [("hand sizes", n), ("opened", n), ("deck size", 1), ("reshuffles", 1)]
    parts += [("to play", n + 1) if public else ("to play", 1)]
    parts += [("draw phase", 1), ("melded", 1)]
    return tuple(parts)


def public_observation(view: CooCanView) -> tuple[float, ...]:
    """What every seat knows of the deal, the same for every viewer, laid out as
    `observation_layout` with ``public=True`` says (values in [0, 1], as in
    `CooCanView.observation`; "to play" is one-hot over the seats, then none).

    >>> from conquian.coocan import CooCanRules, deal
    >>> state = deal(CooCanRules(players=3), CooCanRules().pack_cards(), 0)
    >>> public_observation(state.view(0)) == public_observation(state.view(2))
    True
    """
    return _observe_public(view, view.hand_sizes)


def state_observation(state: CooCanState, seat: int, public: bool = False) -> tuple[float, ...]:
    """``state.view(seat).observation()``, or with `public` `public_observation` of that
    view, written from the state without building the view (its unseen cards and the
    pool it may draw from are not needed): what learning environments write every step.

    >>> from conquian.coocan import CooCanRules, deal
    >>> state = deal(CooCanRules(players=3), CooCanRules().pack_cards(), 0)
    >>> state_observation(state, 2) == state.view(2).observation()
    True
    """
    sizes = tuple(len(state.hand(q)) for q in range(state.rules.players))
    if public:
        return _observe_public(state, sizes)
    return _observe(state, seat, state.hand(seat), sizes)


def _observe(
    source: CooCanView | CooCanState, me: int, hand: tuple[Card, ...], sizes: tuple[int, ...]
) -> tuple[float, ...]:
    """`CooCanView.observation` from a view or a state (the fields both hold) of seat `me`."""
    n = source.rules.players
    table = [c for m in source.table for c in m.physical_cards]
    out = [0.0] * (52 * (4 + n))
    for k, cards in enumerate((hand, source.discard_pile, table)):
        for c in cards:
            out[52 * k + c.index] += 0.5
    if source.discard_pile:
        out[156 + source.discard_pile[-1].index] = 1.0
    if source.taken is not None:
        out[208 + source.taken.index] = 1.0
    known = source.known
    for k in range(1, n):
        for c in known[(me + k) % n]:
            out[52 * (4 + k) + c.index] += 0.5
    seats = [(me + k) % n for k in range(n)]
    out.extend(sizes[q] / 11 for q in seats)
    opened = source.opened
    out.extend(float(opened[q]) for q in seats)
    out += [
        source.deck_size / 104,
        min(source.reshuffles, 10) / 10,
        float(source.current_player == me),
        float(source.phase == "draw"),
        float(source.melded),
    ]
    return tuple(out)


def _observe_public(source: CooCanView | CooCanState, sizes: tuple[int, ...]) -> tuple[float, ...]:
    """`public_observation` from a view or a state (the fields both hold)."""
    n = source.rules.players
    table = [c for m in source.table for c in m.physical_cards]
    out = [0.0] * (52 * (4 + n))
    for k, cards in enumerate((source.discard_pile, table)):
        for c in cards:
            out[52 * k + c.index] += 0.5
    if source.discard_pile:
        out[104 + source.discard_pile[-1].index] = 1.0
    if source.taken is not None:
        out[156 + source.taken.index] = 1.0
    for q in range(n):
        for c in source.known[q]:
            out[52 * (4 + q) + c.index] += 0.5
    out.extend(size / 11 for size in sizes)
    out.extend(float(opened) for opened in source.opened)
    out += [source.deck_size / 104, min(source.reshuffles, 10) / 10]
    to_play = [0.0] * (n + 1)
    to_play[n if source.current_player is None else source.current_player] = 1.0
    out += [*to_play, float(source.phase == "draw"), float(source.melded)]
    return tuple(out)
