"""The samples of the offer game (Conquian, rules T, C6), as `conquian.determinize` draws them:
the reading of a view's history (`_offer_known`), the deals that give a view
(`OfferDeals`), and `sample_offer`, with the trade rounds of T21 undone.

It lives apart from `conquian.determinize`, which describes the draw and re-exports its
public names, to keep each module short; it imports no engine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from operator import attrgetter
from typing import Any, TypeVar

from .._sampling import (
    check_rng,
    deal_for,
    physical,
    pick,
    rebuilt,
    sampled,
    shown_hands,
    shuffled,
)
from ..actions import Action, Borrow, Discard, Force, Meld, Pass, Take, Trade
from ..cards import Card
from ..errors import DeterminizationError
from .trading import known_cards, rounds_of
from .untrade import Rounds

S = TypeVar("S", bound=Any)

_INDEX = attrgetter("index")
"""A card's `Card.index`: sorting by it is sorting cards (`Card.__lt__` compares it), in C."""


@lru_cache(maxsize=64)
def _offer_seats(size: int, players: int, dealer: int) -> tuple[tuple[int, ...], ...]:
    """T1, T16: by seat, the deck positions dealt to it, in twos from the pone round (with
    an odd hand, one card each in the last round). A table for each deal's shape (a few
    hand sizes, seat counts and dealers), worked out once."""
    pairs, odd = divmod(size, 2)
    step, last = 2 * players, 2 * players * pairs
    places: list[tuple[int, ...]] = [() for _ in range(players)]
    for i in range(players):  # the i-th seat from the dealer's left
        row = [p for r in range(2 * i, last, step) for p in (r, r + 1)]
        if odd:
            row.append(last + i)
        places[(dealer + 1 + i) % players] = tuple(row)
    return tuple(places)


def _offer_known(view: Any) -> tuple[list[Card], list[set[Card]]]:
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
            c = physical(action.card)
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
                c = physical(face)
                if c not in seen:
                    played[player].add(c)
                    seen.add(c)
        elif kind is Trade:
            continue  # T21: the trade rounds, before the starter (`OfferDeals` reads them)
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


def sample_offer(
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
        sample: S = offer_samples(view, rebuild)(rng)
        return sample
    deal_with = OfferDeals(view, deal)

    def draw() -> S | None:
        first: S | None = deal_with(*deal_with.split(view.unseen, rng), rng)
        return first

    if not deal_with.skip:
        return sampled(view, draw, accept, own_fixed=True)  # his hand: dealt less played

    # T21: the drawn deal comes with its trade rounds played; the rest of the history is
    # replayed on it.
    def gives_view(state: S) -> bool:
        return bool(state.view(view.player) == view)

    rest = _Rest(view.player, tuple(view.history)[deal_with.skip :])
    return sampled(rest, draw, accept or gives_view, own_fixed=True)


class _Rest:
    """What the replay of a sample needs of a view whose trade rounds are played (T21): its
    player and the rest of its history."""

    def __init__(self, player: int, history: tuple[Action, ...]) -> None:
        self.player = player
        self.history = history


def offer_samples(view: Any, rebuild: Callable[..., S | None]) -> Callable[[random.Random], S]:
    """The samples of one view of the offer game, built with `rebuild` (`sample_offer`):
    ``samples(rng)`` is ``sample_offer(view, rng, rebuild=rebuild)``, the view's
    history read once for every call (`ConquianView.samples`)."""
    deal_with = OfferDeals(view, _deck_only)
    seats = _offer_hidden(view)

    def samples(rng: random.Random) -> S:
        check_rng(rng)

        def drawn() -> tuple[Any, ...]:
            held, stock = deal_with.split(view.unseen, rng)
            deck = deal_with(held, stock, rng)
            return (view, deck, _offer_hands(view, seats, held))

        def replay() -> S:
            return sample_offer(view, rng)

        return rebuilt(view, drawn, rebuild, replay)

    return samples


def _deck_only(rules: Any, deck: tuple[Card, ...], dealer: int) -> tuple[Card, ...]:
    """A deal function giving the deck itself: the state is built from it (`sample_offer`)."""
    return deck


def _offer_hidden(view: Any) -> list[tuple[int, int]]:
    """The other seats from the viewer's left round the table (T16), each with how many of
    its cards are hidden from him: its whole hand while the deal goes on, none once every
    hand is shown (C6 Showing)."""
    n, me = view.rules.players, view.player
    shown = shown_hands(view) is not None
    return [((me + i) % n, 0 if shown else view.hand_sizes[(me + i) % n]) for i in range(1, n)]


def _offer_hands(
    view: Any, seats: list[tuple[int, int]], held: Sequence[Card]
) -> list[Sequence[Card]]:
    """Every seat's hand now: the viewer's own, the shown hands at the end of the deal (C6
    Showing), else for each other seat the hidden cards drawn for it (`held`, seat by seat
    from his left, as `OfferDeals` takes them)."""
    shown = shown_hands(view)
    hands: list[Sequence[Card]] = list(shown) if shown else [()] * view.rules.players
    hands[view.player] = view.hand
    at = 0
    for seat, hidden in seats:
        if not shown:
            hands[seat] = held[at : at + hidden]
        at += hidden
    return hands


class OfferDeals:
    """The deals that give a view of the offer game, told apart by its unseen cards (T1–T17).

    ``deals(held, stock, rng)`` deals the pack in which the other seats' hidden
    cards are `held` (`hidden` cards of `view.unseen`, seat by seat from his
    left) and the untouched stock is `stock` (the other unseen cards) in that
    order. The known places are as the view shows them; each hand's cards
    lie over its places in an order drawn with `rng`, or in sorted order when
    `rng` is None (the order of a hand plays no part in the game). The deal
    is not replayed: a searching bot that weighs hidden hands replays it
    itself (`conquian.agents.reading`). `deal` is the engine's deal function,
    as for `sample_offer`. ``deals.split(view.unseen, rng)`` draws `held`
    and `stock` as the samples do: uniformly, and with trade rounds (T21) with
    the chances of the deals and the others' choices that give the view.

    >>> import random
    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(0)
    >>> deals = OfferDeals(view)
    >>> unseen = sorted(view.unseen)
    >>> first = deals(unseen[: deals.hidden], unseen[deals.hidden :], random.Random(1))
    >>> sorted(first.hand(1)) == unseen[: deals.hidden]  # the other seat's hidden cards
    True
    """

    def __init__(self, view: Any, deal: Callable[..., Any] | None = None) -> None:
        self._deal = deal or deal_for(view)
        rules, me = view.rules, view.player
        size, n = rules.hand_size, rules.players
        turned, played = _offer_known(view)
        others = [(me + i) % n for i in range(1, n)]  # from his left round the table (T16)
        mine = sorted([*view.hand, *played[me]], key=_INDEX)
        shown = shown_hands(view)  # C6 Showing: at the end of the deal every hand is shown
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
        self._places, self._me, self._others = _offer_seats(size, n, view.dealer), me, others
        self._undo = Rounds(self._rounds, me, n, size) if self._rounds else None
        self._free: list[Card] = []
        """T21: the cards he gave that he has not seen since (`_placed`)."""
        self._placings = [] if self._undo is None else self._placed(self._undo, view.unseen)

    def _placed(self, undo: Rounds, unseen: Sequence[Card]) -> list[tuple[tuple[int, ...], int]]:
        """T21: each seat the cards he gave and has not seen since may be in after the
        rounds (`_free`, in one of the other hands: never in the stock), with its weight:
        the hidden places that could hold them, times the ways to undo the rounds then."""
        at: list[int] = []
        known = {c: self._me for c in self._mine}
        for seat, cards in zip(self._others, self._known, strict=True):
            known.update((c, seat) for c in cards)
        unseen_set = set(unseen)
        for c in undo.cards:
            if c not in known and c not in unseen_set:
                raise DeterminizationError(f"the card {c} he gave is in no hand")
            at.append(known.get(c, -1))
        self._free = [c for c in undo.cards if c not in known]
        free = [i for i, seat in enumerate(at) if seat < 0]
        placings: list[tuple[tuple[int, ...], int]] = []
        for seats in product(self._others, repeat=len(free)):
            for i, seat in zip(free, seats, strict=True):
                at[i] = seat
            weight = undo.ways(len(self._rounds) - 1, tuple(at))
            for seat, hidden in zip(self._others, self._hidden, strict=True):
                weight *= math.perm(hidden, seats.count(seat))
            if weight:
                placings.append((seats, weight))
        if not placings:
            raise DeterminizationError("no deal and choices give the view's trade rounds")
        return placings

    def split(self, unseen: Sequence[Card], rng: random.Random) -> tuple[list[Card], list[Card]]:
        """`unseen` split at random into the other seats' hidden cards (`hidden` of them, seat
        by seat from his left) and the untouched stock (T21: with the chances of the deals
        and the others' choices that give the view's trade rounds)."""
        if not self._free:
            cards = shuffled(unseen, rng)
            return cards[: self.hidden], cards[self.hidden :]
        seats = pick(self._placings, rng.random())
        rest = shuffled([c for c in unseen if c not in self._free], rng)
        held: list[Card] = []
        at = 0
        for seat, hidden in zip(self._others, self._hidden, strict=True):
            here = [c for c, s in zip(self._free, seats, strict=True) if s == seat]
            held += here
            held += rest[at : at + hidden - len(here)]
            at += hidden - len(here)
        return held, rest[at:]

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
            order = cards if rng is None else shuffled(cards, rng)
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
        the view, or None if no choices lead there.

        The rounds are undone from the last (`conquian.offer.untrade`): in each, every hand
        holds one card its right neighbour chose. The viewer's is the card he received,
        his left neighbour's the card he gave; each other hand's is one of the cards he
        gave that it holds, or another of its cards drawn uniformly, with the chances of
        the choices each leaves to undo the earlier rounds. A round under way moves no
        card: the others who chose in it chose a card of their hands, drawn uniformly; his
        own choice is his.
        """
        n, me, undo = self._rules.players, self._me, self._undo
        left = (me + 1) % n
        pone = (self._dealer + 1) % n
        hands = {q: set(cards) for q, cards in after.items()}
        rounds: list[list[Card]] = []
        if undo is not None:  # the completed rounds, from the last
            where = {c: q for q, cards in after.items() for c in cards}
            at = tuple(where.get(c, -1) for c in undo.cards)
            for r in range(len(self._rounds) - 1, -1, -1):
                undone = undo.undo(r, at, rng)
                if undone is None:
                    return None
                before, picks = undone
                gave, got = self._rounds[r]
                d = {me: got, left: gave}
                for q, i in zip(undo.receivers, picks, strict=True):
                    if i >= 0:
                        d[q] = undo.cards[i]
                    else:
                        his = {undo.cards[i] for i, p in enumerate(at) if p == q}
                        d[q] = _pick(sorted(hands[q] - his), rng)
                order = [d[q] for q in range(n)]
                for q in range(n):  # q received d[q] from his right, gave d[q + 1] to his left
                    hands[q] = hands[q] - {order[q]} | {order[(q + 1) % n]}
                rounds.append([order[(pone + i + 1) % n] for i in range(n)])
                at = before
        actions: list[Action] = [Trade(c) for cards in reversed(rounds) for c in cards]
        now = {q: sorted(cards) for q, cards in after.items()}
        for i, mine in enumerate(self._chosen):  # the round under way
            q = (pone + i) % n
            actions.append(Trade(mine if q == me and mine else _pick(now[q], rng)))
        return {q: sorted(cards) for q, cards in hands.items()}, actions


def _pick(cards: Sequence[Card], rng: random.Random | None) -> Card:
    """One of `cards`, drawn uniformly with `rng` (the first when `rng` is None)."""
    return cards[0 if rng is None else int(rng.random() * len(cards))]
