"""Determinization: a whole deal drawn among those a player's view allows (C6).

A searching bot sees a `PlayerView`, not the state. To look ahead it needs
whole states that agree with everything the player saw: `view.sample_state(rng)`
gives one, drawn **uniformly among the deals** (orders of the pack, with the
dealer) that would have shown this player exactly this view, in the position
the view shows, so that ``sample.view(view.player) == view``.

The sample is built from the view alone, in three steps:

1. Read the history as the player saw it and fix every place of the pack
   whose card he knows: his own dealt hand, the cards turned from the stock
   and the order they were turned and buried (T4–T7), the starter and every
   discard (M1, M2), the cards known to be in another hand because they were
   taken from the stock (C6), the turned-over stock of M11. What is left is a
   set of *places* (other players' dealt hands, their draws, the undealt stock
   or pack) and the cards of `view.unseen` to put there.
2. Shuffle `view.unseen` into the unknown places with the seeded shuffle of
   the library (only `random.Random.random` is used, as in `conquian.shuffle`),
   and arrange each player's cards over his places: a whole deck.
3. Build the position the view shows on that deck, without replaying the
   history (the engine's ``sample.position``: `conquian.offer.sample`,
   `conquian.rummy.sample`): the public zones, who acts, the result and the
   history are the view's, the viewer's hand is his, every other seat holds
   its known cards and the unseen cards drawn for it, and the face-down pack
   is what the deck leaves unturned (in Cooncan, or the turned-over stock,
   M11). The state's deck is the drawn deck, so a sample's record replays.

**Three-hand Cooncan: the position alone.** In a pack with no two equal cards
(three-hand, the joker being one card), every card a seat plays is seen, and no
action of the history depends on a hidden card but through them: a take (M2, M3)
needs the stock, a meld or a force the cards laid (M4, M5, M9), a discard the
card discarded, and no seat but the mover can be left with one card it may not
discard (M2). The deals that give the view are then, for every way the unseen
cards lie in the other hands and in the face-down pack, as many: the cards each
seat played spread over its places (dealt, or drawn face down) before it played
them, its hidden cards over the rest, in as many ways whichever they are; the
starter the history may leave open (M11) changes the past, not the cards now. So
the position drawn uniformly among the deals is a shuffle of `view.unseen`, each
other seat given its unknown cards (seat by seat) and the face-down pack the rest,
top first, or the turned-over stock the view shows (M11); once the deal is over
(C6 Showing) only the pack. `cooncan_hidden` draws so, reading no history for it,
and `CooncanView.sample_state` builds the state on those cards
(`conquian.rummy.sample.current`). Such a state has no deck: the order the cards
were dealt and drawn in is not drawn, so it has no record (writing it refuses,
C7). `CooncanView.sample_deal` draws the whole deal by the three steps above
(`events` replays it); from the same random numbers both give the same cards
wherever the history fixes the starter. Views this draw does not serve go to
`sample_deal`: the double pack (see below), a view whose unseen cards do not fill
its hidden places (the full sampler says what is wrong), and one where another
seat is in his turn with one card (the full sampler checks that he can finish it,
M2).

A few deals drawn in step 2 give the view's cards but not its history: one
where a seat now playing (not the viewer) took a card it could not meld or
keep with the hand drawn for it (T3, T8, M2), or, in Cooncan, one whose
starter (left open by the view, M11) gives other known cards than the
view's. Step 3 refuses them and another deck is drawn, as replaying the
history on them would have refused them: the same random numbers give the
same state as dealing the deck and replaying the history, which stays as
the plain reference (`sample_two_hand` and `sample_cooncan` without
``rebuild``; the JSON reader of views uses it, as its check of a view). One
position is not built: a two-hand view while a card borrowed in the turn in
progress is pending, as the view does not show which melds it may not go back
to (T9); that view's sample is drawn by the replay.

Because the true hidden cards never enter step 1 (only the view does), a
sample cannot favour the real hidden hand: the unseen cards are exchangeable
by construction. A card a player plays must be in his hand by the time he
plays it (Cooncan, where hands grow by drawing): each player's cards go to
his places latest deadline last, each to a place drawn among those still
free before its deadline, which is uniform over the arrangements that allow
the history (the sets of places a card may take are nested).

In the double pack, where each card has two equal copies, the draw is
uniform over where each *copy* goes, the two copies counted as different
cards. Counted as deals (sequences of cards), a deal in which a seat's
unknown cards hold the twin of a card that seat played from its unseen
places, or in which both copies of a card it played reached it before it
played the first, comes up to twice as often as the others. Every deal the
view allows can still be drawn, and nothing about the true hidden cards
enters the draw. This is the library's choice: drawing exactly uniformly
over sequences of cards by rejection would take thousands of draws a sample
late in a long double-pack deal. The two-hand game and three-hand Cooncan
have no equal cards, and there the draw is exactly uniform. For the same reason
the double pack's samples stay whole deals (`sample_deal`): where the twin of a
card played may lie changes how many deals give the view, so a plain shuffle of
the unseen cards would not draw as this sampler does.

With trade rounds (Conquian's ``trades``, T21) what is unknown is both the deal and the
other players' hidden choices of the rounds, and the draw is **uniform over the pairs of a
deal and the others' choices** that give the view: every such pair is as likely as any
other. The hands drawn are those after the rounds; the rounds are then undone from the
last (`TwoHandDeals`): in each, the viewer's hand gives back the card he received and his
left neighbour's the card he gave, and every other hand a card drawn uniformly among its
cards (each hand holds the hand size then, so every choice counts the same). A draw in
which a card the viewer gave was not in his neighbour's hand at its round is drawn again.
The sample's deck is the order dealt, before the trades, and its history holds the
choices drawn where the view hides them. With three or four seats and several rounds,
late in a deal the draws that allow both the rounds and the play can be few.

When a deal is over every hand is shown (C6 Showing): a view that holds the
hands (`hands`) puts each seat's remaining cards in its hand, and only the
undealt stock or pack is drawn.

This module imports nothing from the engines: the deal function of a view's
game is the registry's (`conquian.games`), read when a sample is drawn, so
that the views can offer `sample_state` as a method without importing their
states.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, TypeVar

from ._sampling import (
    STARTER,
    Ambiguous,
    NoDeal,
    Seat,
    Unplayable,
    Work,
    arrange,
    check_rng,
    rebuilt,
    sampled,
    shuffled,
)
from ._trading import known_cards, rounds_of
from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, Trade
from .cards import JOKER, Card, NamedJoker
from .errors import ConquianError

# Views and states are typed loosely: the engines import this module, so it imports none
# of them, nor `conquian.state.base` (a `PlayerView` and a `State` are what the names say).
PlayerView = Any
State = Any

# The shared steps by their former names (`conquian.agents.reading` shuffles as samples do).
_shuffled, _arrange, _Unplayable = shuffled, arrange, Unplayable

__all__ = [
    "DeterminizationError",
    "TwoHandDeals",
    "cooncan_hidden",
    "cooncan_samples",
    "sample_cooncan",
    "sample_state",
    "sample_two_hand",
    "samples",
    "two_hand_samples",
]

S = TypeVar("S", bound=Any)

_INDEX = attrgetter("index")
"""A card's `Card.index`: sorting by it is sorting cards (`Card.__lt__` compares it), in C."""


class DeterminizationError(ConquianError, ValueError):
    """A view that no deal can produce: its cards or history contradict each other."""


def _deal_for(view: Any) -> Callable[..., Any]:
    """The deal function of the view's game (a deck and a dealer to the first state, C7)."""
    # The registry holds the engines, which import this module: it is read when first used.
    from .games import game_of

    try:
        return game_of(view.rules).deal
    except TypeError:
        raise DeterminizationError(f"no engine deals {type(view.rules).__name__}") from None


def samples(view: PlayerView) -> Callable[[random.Random], State]:
    """Many samples of one view: ``draw = samples(view)``, then ``draw(rng)`` is
    ``view.sample_state(rng)`` (C6), the view's history read once for all of them where
    the view offers it (``view.samples()``, the offer game and Cooncan).

    >>> import random
    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(0)
    >>> draw = samples(view)
    >>> draw(random.Random(1)) == sample_state(view, random.Random(1))
    True
    """
    own: Callable[[], Callable[[random.Random], State]] | None = getattr(view, "samples", None)
    if own is not None:
        return own()
    method: Callable[[random.Random], State] = view.sample_state
    return method


def sample_state(view: PlayerView, rng: random.Random) -> State:
    """A whole state drawn uniformly among those that give `view` (C6); see the module.

    The same as ``view.sample_state(rng)``.

    >>> import random
    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(0)
    >>> sample_state(view, random.Random(1)).view(0) == view
    True
    """
    method: Callable[[random.Random], State] = view.sample_state
    return method(rng)


# -- shared steps ---------------------------------------------------------------------------


def _sampled(
    view: Any,
    draw: Callable[[], S | None],
    accept: Callable[[S], bool] | None,
    work: Work | None = None,
    own_fixed: bool = False,
) -> S:
    """`conquian._sampling.sampled`, its failure as a `DeterminizationError`."""
    try:
        state: S = sampled(view, draw, accept, work, own_fixed)
    except NoDeal as e:
        raise DeterminizationError(str(e)) from None
    return state


def _rebuilt(
    view: Any,
    draw: Callable[[], tuple[Any, ...] | None],
    build: Callable[..., S | None],
    replay: Callable[[], S],
    work: Work | None = None,
) -> S:
    """`conquian._sampling.rebuilt`, its failure as a `DeterminizationError`."""
    try:
        state: S = rebuilt(view, draw, build, replay, work)
    except NoDeal as e:
        raise DeterminizationError(str(e)) from None
    return state


def _physical(face: Card | NamedJoker) -> Card:
    return JOKER if type(face) is NamedJoker else face  # type: ignore[return-value]


def _shown(view: Any) -> tuple[tuple[Card, ...], ...] | None:
    """Every seat's hand when the view shows them (C6 Showing, at the end of a deal)."""
    hands: tuple[tuple[Card, ...], ...] | None = getattr(view, "hands", None)
    return hands


# -- the two-hand game (T) ------------------------------------------------------------------


def _two_hand_seats(size: int, players: int, dealer: int) -> list[list[int]]:
    """T1, T16: by seat, the deck positions dealt to it, in twos from the pone round (with
    an odd hand, one card each in the last round)."""
    pairs, odd = divmod(size, 2)
    step, last = 2 * players, 2 * players * pairs
    places: list[list[int]] = [[] for _ in range(players)]
    for i in range(players):  # the i-th seat from the dealer's left
        row = [p for r in range(2 * i, last, step) for p in (r, r + 1)]
        if odd:
            row.append(last + i)
        places[(dealer + 1 + i) % players] = row
    return places


def _two_hand_known(view: Any) -> tuple[list[Card], list[set[Card]]]:
    """The cards turned from the stock in order (T4–T7, T11), and the cards each seat
    played from his hand (melded, discarded or forced from it), read from the history."""
    size, n = view.rules.hand_size, view.rules.players
    pack = len(view.rules.pack_cards())
    buried: Sequence[Card] = view.buried
    turned: list[Card | None] = [None]
    played: list[set[Card]] = [set() for _ in range(n)]
    seen: set[Card] = set()
    player = (view.dealer + 1) % n  # the pone (T11)
    slot: int | None = 0  # the turned card on offer (its number), or None
    offer = True  # a card is on offer (turned, passed or discarded)
    origin = "turned"
    b = 0

    def reveal(c: Card) -> None:
        if slot is not None:
            turned[slot] = c
        seen.add(c)

    for action in view.history:
        kind = type(action)
        if kind is Take:
            reveal(action.card)
            slot, offer = None, False
        elif kind is Pass:
            if origin == "turned":  # T17: to his left neighbour
                origin, player = "passed", (player + 1) % n
                continue
            if b >= len(buried):
                raise DeterminizationError("more cards passed twice than cards buried")
            reveal(buried[b])
            b += 1
            if size * n + len(turned) >= pack:  # T12: a tableau
                slot, offer = None, False
                continue
            if b == 1 and origin == "passed" and view.rules.after_starter == "pone":
                player = (view.dealer + 1) % n  # T22: the starter refused by both
            slot, origin = len(turned), "turned"
            turned.append(None)
        elif kind is Force:
            c = _physical(action.card)
            # T18: a passed card back onto the passer (on his right), else onto his left.
            victim = (player - 1) % n if offer and origin == "passed" else (player + 1) % n
            if offer:  # the card on offer (T5, T6)
                reveal(c)
                slot, offer = None, False
            elif c not in seen:  # from his hand, at the end of his turn (T8, T10)
                played[player].add(c)
                seen.add(c)
            player = victim
        elif kind is Discard:
            played[player].add(action.card)
            seen.add(action.card)
            slot, offer, origin, player = None, True, "discarded", (player + 1) % n
        elif kind is Meld:
            for face in action.cards:
                c = _physical(face)
                if c not in seen:
                    played[player].add(c)
                    seen.add(c)
        elif kind is Trade:
            continue  # T21: the trade rounds, before the starter (`TwoHandDeals` reads them)
        elif kind is not Borrow:
            raise DeterminizationError(f"'{action}' is not an action of the two-hand game")
    if len(view.history) < view.rules.trades * n:  # T21: the starter is not turned yet
        return [], played
    if slot is not None:
        if view.offer is None:
            raise DeterminizationError("a turned card should be on offer")
        turned[slot] = view.offer
    if any(c is None for c in turned):
        raise DeterminizationError("a card turned from the stock is not known")
    return [c for c in turned if c is not None], played


def sample_two_hand(
    view: Any,
    rng: random.Random,
    deal: Callable[..., S] | None = None,
    accept: Callable[[S], bool] | None = None,
    rebuild: Callable[..., S | None] | None = None,
) -> S:
    """`ConquianView.sample_state`: a deal drawn uniformly among those giving `view` (C6).

    Known places: the viewer's dealt hand (his hand and the cards he played
    from it), the cards turned from the stock in order (each buried, taken,
    forced or on offer), the cards the opponent played from his hand. The
    opponent's other cards and the untouched stock are `view.unseen`,
    shuffled. `deal` is the engine's deal function (by default the registry's for
    the view's game, `conquian.games`); `accept` (by default: the state gives `view`)
    decides whether a replayed deal will do.

    With `rebuild` (and neither `deal` nor `accept`), the state is built from the
    view and the drawn deck without replaying the history:
    ``rebuild(view, deck, hands)`` is the position the view shows on `deck`, with
    every seat's hand now (`hands`), or None when no deal with those hidden cards
    gives the view (see `_rebuilt`). The same rng gives the same state as the
    replay.
    """
    check_rng(rng)
    if rebuild is not None and deal is None and accept is None:
        sample: S = two_hand_samples(view, rebuild)(rng)
        return sample
    deal_with = TwoHandDeals(view, deal)
    hidden = deal_with.hidden

    def draw() -> S | None:
        unseen = _shuffled(view.unseen, rng)
        first: S | None = deal_with(unseen[:hidden], unseen[hidden:], rng)
        return first

    if not deal_with.skip:
        return _sampled(view, draw, accept, own_fixed=True)  # his hand: dealt less played
    # T21: the drawn deal comes with its trade rounds played; the rest of the history is
    # replayed on it.
    if accept is None:

        def accept(state: S) -> bool:
            return bool(state.view(view.player) == view)

    rest = _Rest(view.player, tuple(view.history)[deal_with.skip :])
    return _sampled(rest, draw, accept, own_fixed=True)


class _Rest:
    """What the replay of a sample needs of a view whose trade rounds are played (T21): its
    player and the rest of its history."""

    def __init__(self, player: int, history: tuple[Action, ...]) -> None:
        self.player = player
        self.history = history


def two_hand_samples(view: Any, rebuild: Callable[..., S | None]) -> Callable[[random.Random], S]:
    """The samples of one view of the offer game, built with `rebuild` (`sample_two_hand`):
    ``samples(rng)`` is ``sample_two_hand(view, rng, rebuild=rebuild)``, the view's
    history read once for every call (`ConquianView.samples`)."""
    deal_with = TwoHandDeals(view, _deck_only)
    hidden = deal_with.hidden
    seats = _two_hand_hidden(view)

    def samples(rng: random.Random) -> S:
        check_rng(rng)

        def drawn() -> tuple[Any, ...]:
            unseen = _shuffled(view.unseen, rng)
            held = unseen[:hidden]
            deck = deal_with(held, unseen[hidden:], rng)
            return (view, deck, _two_hand_hands(view, seats, held))

        def replay() -> S:
            return sample_two_hand(view, rng)

        return _rebuilt(view, drawn, rebuild, replay)

    return samples


def _deck_only(rules: Any, deck: tuple[Card, ...], dealer: int) -> tuple[Card, ...]:
    """A deal function giving the deck itself: the state is built from it (`sample_two_hand`)."""
    return deck


def _two_hand_hidden(view: Any) -> list[tuple[int, int]]:
    """The other seats from the viewer's left round the table (T16), each with how many of
    its cards are hidden from him: its whole hand while the deal goes on, none once every
    hand is shown (C6 Showing)."""
    n, me = view.rules.players, view.player
    shown = _shown(view) is not None
    return [((me + i) % n, 0 if shown else view.hand_sizes[(me + i) % n]) for i in range(1, n)]


def _two_hand_hands(
    view: Any, seats: list[tuple[int, int]], held: Sequence[Card]
) -> list[Sequence[Card]]:
    """Every seat's hand now: the viewer's own, the shown hands at the end of the deal (C6
    Showing), else for each other seat the hidden cards drawn for it (`held`, seat by seat
    from his left, as `TwoHandDeals` takes them)."""
    shown = _shown(view)
    hands: list[Sequence[Card]] = list(shown) if shown else [()] * view.rules.players
    hands[view.player] = view.hand
    at = 0
    for seat, hidden in seats:
        if not shown:
            hands[seat] = held[at : at + hidden]
        at += hidden
    return hands


class TwoHandDeals:
    """The deals that give a view of the offer game, told apart by its unseen cards (T1–T17).

    ``deals(held, stock, rng)`` deals the pack in which the other seats' hidden
    cards are `held` (`hidden` cards of `view.unseen`, seat by seat from his
    left) and the untouched stock is `stock` (the other unseen cards) in that
    order. The known places are as the view shows them; each hand's cards
    lie over its places in an order drawn with `rng`, or in sorted order when
    `rng` is None (the order of a hand plays no part in the game). The deal
    is not replayed: a searching bot that weighs hidden hands replays it
    itself (`conquian.agents.reading`). `deal` is the engine's deal function,
    as for `sample_two_hand`.

    >>> import random
    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(0)
    >>> deals = TwoHandDeals(view)
    >>> unseen = sorted(view.unseen)
    >>> first = deals(unseen[: deals.hidden], unseen[deals.hidden :], random.Random(1))
    >>> sorted(first.hand(1)) == unseen[: deals.hidden]  # the other seat's hidden cards
    True
    """

    def __init__(self, view: Any, deal: Callable[..., Any] | None = None) -> None:
        self._deal = deal or _deal_for(view)
        rules, me = view.rules, view.player
        size, n = rules.hand_size, rules.players
        turned, played = _two_hand_known(view)
        others = [(me + i) % n for i in range(1, n)]  # from his left round the table (T16)
        mine = sorted([*view.hand, *played[me]], key=_INDEX)
        shown = _shown(view)  # C6 Showing: at the end of the deal every hand is shown
        # T21, C6: the cards he gave that he knows are still in a hand (not played from it).
        trades, history = rules.trades, view.history
        located: list[list[Card]] = [[] for _ in range(n)]
        if trades and not shown:
            for c, q in known_cards(history, n, view.dealer, trades, me).items():
                if c not in played[q]:
                    located[q].append(c)
        hidden = [0 if shown else view.hand_sizes[o] - len(located[o]) for o in others]
        self.hidden: int = sum(hidden)
        known = [
            sorted([*played[o], *located[o], *(shown[o] if shown else ())], key=_INDEX)
            for o in others
        ]
        # T21: the trade rounds the history holds (the last one maybe under way).
        self.skip: int = min(len(history), trades * n)
        """How many actions of the view's history the drawn deals come with (T21: the trade
        rounds); the rest is to be replayed."""
        self._rounds = rounds_of(history, n, view.dealer, trades, me) if trades else []
        self._chosen: list[Card | None] = [
            a.card for a in history[len(self._rounds) * n : self.skip] if type(a) is Trade
        ]
        pack = len(rules.pack_cards())
        stock = pack - n * size - len(turned)
        if (
            len(mine) != size
            or any(len(k) + h != size for k, h in zip(known, hidden, strict=True))
            or len(view.unseen) != self.hidden + stock
        ):
            raise DeterminizationError("the view's cards do not add up to a deal")
        self._rules, self._dealer, self._pack, self._turned = rules, view.dealer, pack, turned
        self._mine, self._known, self._hidden = mine, known, hidden
        self._places, self._me, self._others = _two_hand_seats(size, n, view.dealer), me, others

    def __call__(
        self, held: Sequence[Card], stock: Sequence[Card], rng: random.Random | None
    ) -> Any:
        hands, at = [(self._me, self._mine)], 0
        for seat, known, hidden in zip(self._others, self._known, self._hidden, strict=True):
            hands.append((seat, sorted([*known, *held[at : at + hidden]], key=_INDEX)))
            at += hidden
        trades: list[Action] = []
        if self.skip:  # T21: the hands above are those after the trade rounds
            undone = self._untrade(dict(hands), rng)
            if undone is None:
                return None
            dealt, trades = undone
            hands = [(seat, dealt[seat]) for seat, _ in hands]
        deck: list[Card | None] = [None] * self._pack
        for seat, cards in hands:
            order = cards if rng is None else _shuffled(cards, rng)
            for place, c in zip(self._places[seat], order, strict=True):
                deck[place] = c
        start = self._rules.players * self._rules.hand_size
        deck[start : start + len(self._turned)] = self._turned
        deck[start + len(self._turned) :] = stock
        state = self._deal(self._rules, tuple(deck), self._dealer)
        for action in trades:
            state = state.apply(action)
        return state

    def _untrade(
        self, after: dict[int, list[Card]], rng: random.Random | None
    ) -> tuple[dict[int, list[Card]], list[Action]] | None:
        """T21: the dealt hands and the trades that lead to the hands `after` the rounds of
        the view, or None if the draw cannot have come from them.

        The rounds are undone from the last: in each, every hand holds one card its right
        neighbour chose. The viewer's is the card he received, his left neighbour's the
        card he gave; each other hand's is drawn uniformly among its cards (the count is
        the hand size whatever the draw, so that every deal and choice of the others that
        gives the view is as likely). A draw where the card the viewer gave is not in his
        left neighbour's hand at its round is refused (the sampler draws again). A round
        under way moves no card: the others who chose in it chose a card of their hands,
        drawn uniformly; his own choice is his.
        """
        n, me = self._rules.players, self._me
        left = (me + 1) % n
        pone = (self._dealer + 1) % n
        hands = {q: set(cards) for q, cards in after.items()}
        rounds: list[list[Card]] = []
        for gave, got in reversed(self._rounds):
            d: list[Card] = []
            for q in range(n):
                if q == me:
                    c = got
                elif q == left:
                    c = gave
                else:
                    c = _pick(sorted(hands[q]), rng)
                if c not in hands[q]:
                    return None
                d.append(c)
            for q in range(n):  # q received d[q] from his right, gave d[q + 1] to his left
                hands[q] = hands[q] - {d[q]} | {d[(q + 1) % n]}
            rounds.append([d[(pone + i + 1) % n] for i in range(n)])
        actions: list[Action] = [Trade(c) for cards in reversed(rounds) for c in cards]
        now = {q: sorted(cards) for q, cards in after.items()}
        for i, mine in enumerate(self._chosen):  # the round under way
            q = (pone + i) % n
            actions.append(Trade(mine if q == me and mine else _pick(now[q], rng)))
        return {q: sorted(cards) for q, cards in hands.items()}, actions


def _pick(cards: Sequence[Card], rng: random.Random | None) -> Card:
    """One of `cards`, drawn uniformly with `rng` (the first when `rng` is None)."""
    return cards[0 if rng is None else int(rng.random() * len(cards))]


# -- Cooncan (M) ----------------------------------------------------------------------------


def _cooncan_starter(view: Any) -> list[Card]:
    """The card that started the stock (M1), or the cards it may be when the view leaves
    it open (it went round the turned-over stock into a hand and was played, M11)."""
    rules = view.rules
    n = rules.players
    left = len(rules.pack_cards()) - n * rules.hand_size - 1  # the face-down pack
    stock: list[Any] = [STARTER]
    pack: list[Any] | None = None  # the turned-over stock, once the pack is empty
    open_stock = rules.stock == "open"
    player = (view.dealer + 1) % n
    holder: int | None = None  # the seat the starter went to, drawn face up (M11)
    arrived: list[list[Card]] = [[] for _ in range(n)]  # named cards each seat received
    after: list[Card] = []  # what the holder played since
    for action in view.history:
        kind = type(action)
        if kind is Draw:
            if pack is None and left:
                left -= 1
                continue
            if not pack:
                pack, stock = stock, []
            if not pack:
                raise DeterminizationError(f"'{action}': no card is left to draw (M11)")
            top = pack.pop(0)
            if top is STARTER:
                holder = player
            else:
                arrived[player].append(top)
        elif kind is Take:
            c = action.card
            if not stock:
                raise DeterminizationError(f"'{action}': the stock is empty (M3)")
            if not open_stock:
                at = len(stock) - 1  # M3: the top card
            elif c in stock:
                at = len(stock) - 1 - stock[::-1].index(c)  # the topmost equal card
            else:
                at = stock.index(STARTER) if STARTER in stock else -1
            if stock[at] is STARTER:
                return [c]
            del stock[at]
            arrived[player].append(c)
        elif kind is Discard or kind is Meld or kind is Force:
            cards = action.cards if kind is Meld else (action.card,)
            if holder == player:
                after.extend(_physical(f) for f in cards)
            if kind is Discard:
                stock.append(action.card)
                player = (player + 1) % n
    shown_stock: Sequence[Card] = view.stock
    shown_pack: Sequence[Card] = view.known_pack or ()
    if STARTER in stock:
        return [_at_place(shown_stock, stock.index(STARTER), "stock")]
    if pack is not None and STARTER in pack:
        return [_at_place(shown_pack, pack.index(STARTER), "known_pack")]
    if holder is None:
        raise DeterminizationError("the card that started the stock cannot be placed")
    # Known in the holder's hand: the known card no named arrival accounts for.
    rest = Counter(view.known[holder]) - Counter(arrived[holder])
    if len(rest) == 1:
        return list(rest)
    return sorted({*after, *view.known[holder]})  # a card equal to it was played since


def _at_place(cards: Sequence[Card], at: int, zone: str) -> Card:
    """The card at place `at` of a zone the view shows, which the history says it holds."""
    if at >= len(cards):
        raise DeterminizationError(f"the history leaves more cards in the {zone} than it shows")
    return cards[at]


def _cooncan_seats(view: Any, starter: Any) -> tuple[list[Seat], list[int]]:
    """Each seat's places and cards (`Seat`, cards by index), and the places of the pack
    still face down.

    `starter` may be `STARTER`, to read the history once for every starter it leaves open
    (`Seat.with_starter` then names it): `Ambiguous` if a take may be of the starter."""
    rules = view.rules
    n, size = rules.players, rules.hand_size
    seats = [Seat() for _ in range(n)]
    for k in range(n * size):  # M1: one at a time from the dealer's left
        seat = seats[(view.dealer + 1 + k) % n]
        seat.places.append(k)
        seat.times.append(-1)
    total = len(rules.pack_cards())
    next_place = n * size + 1
    unnamed = starter is STARTER
    stock: list[Any] = [STARTER if unnamed else starter.index]  # by index
    pack: list[Any] | None = None
    open_stock = rules.stock == "open"
    player = (view.dealer + 1) % n
    joker = JOKER.index
    t = -1
    for action in view.history:
        t += 1
        kind = type(action)
        seat = seats[player]
        if kind is Draw:
            if pack is None and next_place < total:
                seat.places.append(next_place)
                seat.times.append(t)
                next_place += 1
                continue
            if not pack:  # M11: the stock turned over, its oldest card on top
                pack, stock = stock, []
            if not pack:
                raise DeterminizationError(f"'{action}': no card is left to draw (M11)")
            seat.arrived.append((pack.pop(0), t))
        elif kind is Take:
            c = action.card.index
            if c not in stock or (not open_stock and stock[-1] != c):
                if unnamed and STARTER in stock:
                    raise Ambiguous
                raise DeterminizationError(f"'{action}': no such card in the stock")
            at = len(stock) - 1 - stock[::-1].index(c)
            if unnamed and STARTER in stock[at:]:  # the starter may be the topmost c
                raise Ambiguous
            del stock[at]
            seat.arrived.append((c, t))
        elif kind is Meld:
            seat.played.extend(
                [(joker if type(f) is NamedJoker else f.index, t) for f in action.cards]
            )
        elif kind is Force:
            f = action.card
            seat.played.append((joker if type(f) is NamedJoker else f.index, t))
        elif kind is Discard:
            c = action.card.index
            seat.played.append((c, t))
            stock.append(c)
            player = (player + 1) % n
        else:
            raise DeterminizationError(f"'{action}' is not an action of Cooncan")
    return seats, list(range(next_place, total)) if pack is None else []


def cooncan_hidden(
    view: Any,
) -> Callable[[random.Random], tuple[list[Sequence[Card]], Sequence[Card]]] | None:
    """The hidden cards of the position `view` shows, drawn without reading its history:
    ``draw(rng)`` gives every seat's hand now and the face-down pack, top first (the
    turned-over stock the view shows, M11). None for a view this draw does not serve: a
    pack with equal cards (the double pack), a mover (not the viewer) holding one card in
    his turn (the take of M2 may not be allowed by it), or unseen cards that do not fill
    the hidden places (the full sampler says why).

    In a pack with no two equal cards (three-hand, the joker being one card) every card a
    seat plays is seen, and no action of the history depends on a hidden card but through
    them (M2–M11): the number of deals giving the view (the cards each seat played over
    its places dealt or drawn face down before it played them, its hidden cards over the
    rest) is the same for every way the unseen cards lie in the other hands and the pack.
    The deal-uniform draw of the position (C6) is then a shuffle of `view.unseen`, each
    other seat given its unknown cards in seat order and the pack the rest, in order:
    the layout `cooncan_samples` gives the unseen cards, after the random number with
    which it draws the starter.
    """
    rules = view.rules
    pack = rules.pack_indices()
    if len(set(pack)) != len(pack):  # equal copies: the counts differ (see the module)
        return None
    n = rules.players
    me = view.player
    shown = _shown(view)  # C6 Showing: at the end of the deal every hand is shown
    unknown = [
        view.hand_sizes[q] - len(view.known[q]) if q != me and not shown else 0 for q in range(n)
    ]
    turned = view.known_pack
    if len(view.unseen) != sum(unknown) + (view.pack_size if turned is None else 0):
        return None
    mover = view.current_player
    if view.phase == "play" and mover is not None and mover != me and view.hand_sizes[mover] < 2:
        return None  # M2: the full sampler checks that he can finish his turn
    hands: list[Sequence[Card]] = [
        view.hand if q == me else shown[q] if shown else view.known[q] for q in range(n)
    ]
    others = [q for q in range(n) if unknown[q]]
    unseen = view.unseen

    def draw(rng: random.Random) -> tuple[list[Sequence[Card]], Sequence[Card]]:
        check_rng(rng)
        rng.random()  # the full sampler's draw of the starter: the same cards from a seed
        cards = shuffled(unseen, rng)
        held = list(hands)
        at = 0
        for q in others:
            held[q] = (*hands[q], *cards[at : at + unknown[q]])
            at += unknown[q]
        return held, cards[at:] if turned is None else turned

    return draw


def sample_cooncan(
    view: Any,
    rng: random.Random,
    deal: Callable[..., S] | None = None,
    accept: Callable[[S], bool] | None = None,
    rebuild: Callable[..., S | None] | None = None,
) -> S:
    """`CooncanView.sample_state`: a deal drawn among those giving `view` (C6); see the module.

    Known places: the starter (M1) and, through the history, every card taken
    or drawn from the turned-over stock (M2, M11). Each seat's unseen places
    (dealt, or drawn face down) hold the cards it played from them and, for the
    other seats, the unknown part of the hand, drawn from `view.unseen`, each
    card placed before the action that plays it. `deal`, `accept` and `rebuild` as
    for `sample_two_hand`: with `rebuild`, the state is built on the drawn deck from
    the view and every seat's hand now, without replaying the history.
    """
    check_rng(rng)
    sample: S = cooncan_samples(view, rebuild, deal, accept)(rng)
    return sample


def cooncan_samples(
    view: Any,
    rebuild: Callable[..., S | None] | None,
    deal: Callable[..., S] | None = None,
    accept: Callable[[S], bool] | None = None,
) -> Callable[[random.Random], S]:
    """The samples of one Cooncan view (`sample_cooncan`): ``samples(rng)`` is
    ``sample_cooncan(view, rng, deal, accept, rebuild)``, the view's history read once for
    every call (`CooncanView.samples`)."""
    dealt: Callable[..., S] = deal or _deal_for(view)
    rules = view.rules
    n = rules.players
    history_length = len(view.history)
    starters = _cooncan_starter(view)
    plans: dict[Card, tuple[list[Seat], list[int]]] = {}
    shared: list[tuple[list[Seat], list[int]] | None] = []  # read once for all starters

    def _plan(starter: Card) -> tuple[list[Seat], list[int]]:
        if len(starters) > 1 and not shared:
            try:
                shared.append(_cooncan_seats(view, STARTER))
            except Ambiguous:
                shared.append(None)
        read = shared[0] if shared else None
        if read is None:
            return _cooncan_seats(view, starter)
        return [seat.with_starter(starter) for seat in read[0]], read[1]

    me = view.player
    shown = _shown(view)  # C6 Showing: at the end of the deal every hand is shown
    unknown = [
        view.hand_sizes[q] - len(view.known[q]) if q != me and not shown else 0 for q in range(n)
    ]
    total = len(rules.pack_cards())
    start = n * rules.hand_size
    # With no two equal cards in the pack (three-hand), no unseen card is one the history
    # moves: whether a draw with a given starter fails, and after how many random numbers,
    # is the same whatever the shuffle. A starter whose draw failed has its later draws use
    # up as many random numbers and fail at once: the same draws, without the work.
    distinct = len(set(rules.pack_indices())) == total
    failing: dict[Card, int] = {}  # such a starter: the random numbers its draws use

    def samples(rng: random.Random) -> S:
        check_rng(rng)
        work = Work()  # each reading of the history counts in the sample's budget
        named: set[Card] = set()  # the starters this sample has drawn

        def charge(starter: Card) -> None:
            """Count the readings of the history a first draw with `starter` costs, as if
            this sample read the history itself (the budget is the same on every call)."""
            if starter in named:
                return
            if len(starters) > 1 and not named:
                work.done += history_length  # the reading shared by every starter
            named.add(starter)
            if not shared or shared[0] is None:
                work.done += history_length

        def drawn() -> tuple[Any, ...] | None:
            """The drawn deck and every seat's hand now, or None to draw again."""
            starter = starters[int(rng.random() * len(starters))]
            if starter not in plans:
                plans[starter] = _plan(starter)
            charge(starter)
            used = failing.get(starter)
            if used is not None:
                draw = rng.random
                for _ in range(used):
                    draw()
                return None
            seats, rest = plans[starter]
            unseen = _shuffled(view.unseen, rng)
            used = max(len(unseen) - 1, 0)  # the shuffle's random numbers
            if len(unseen) != sum(unknown) + len(rest):
                raise DeterminizationError("the view's unseen cards do not fill its unknown places")
            deck: list[Card | None] = [None] * total
            deck[start] = starter
            at = 0
            hands: list[Sequence[Card]] = []
            for q, seat in enumerate(seats):
                if q == me:
                    held = list(view.hand)
                elif shown:
                    held = list(shown[q])
                else:
                    held = [*view.known[q], *unseen[at : at + unknown[q]]]
                at += unknown[q]
                hands.append(held)
                needs = seat.needs(held)
                # No unseen card in it and one starter: the same on every draw.
                fixed = (q == me or shown is not None) and len(starters) == 1
                if needs is not None and len(needs) != len(seat.places):  # the same every draw
                    raise DeterminizationError(
                        f"seat {q} holds {len(held)} cards, and its history needs {len(needs)} "
                        f"cards dealt or drawn face down where it got {len(seat.places)}"
                    )
                try:
                    if needs is None:
                        raise _Unplayable(0)
                    _arrange(seat.places, seat.times, needs, deck, rng, seat.slots())
                    used += len(needs)  # one random number a card
                except _Unplayable as e:
                    if fixed:
                        raise DeterminizationError(
                            f"seat {q}'s cards cannot be dealt and drawn as the history plays them"
                        ) from None
                    if distinct:
                        failing[starter] = used + e.args[0]
                    return None
            for place, c in zip(rest, unseen[at:], strict=True):
                deck[place] = c
            return (view, tuple(deck), hands, len(starters) > 1)

        if rebuild is not None and deal is None and accept is None:

            def replay() -> S:
                return sample_cooncan(view, rng)

            return _rebuilt(view, drawn, rebuild, replay, work)

        def draw() -> S | None:
            found = drawn()
            return None if found is None else dealt(rules, found[1], view.dealer)

        return _sampled(view, draw, accept, work)

    return samples
