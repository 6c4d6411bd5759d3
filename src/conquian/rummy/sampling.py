"""The samples of Foster's Cooncan (rules M, C6), as `conquian.determinize` draws them: the
starter a view leaves open (`_rummy_starter`), each seat's places and deadlines
(`_rummy_seats`), the position drawn without reading the history where it is exact
(`rummy_hidden`), and `sample_rummy`.

It lives apart from `conquian.determinize`, which describes the draw and re-exports its
public names, to keep each module short; it imports no engine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .._sampling import (
    STARTER,
    Ambiguous,
    Seat,
    Unplayable,
    Work,
    arrange,
    check_rng,
    deal_for,
    physical,
    rebuilt,
    sampled,
    shown_hands,
    shuffled,
)
from ..actions import Discard, Draw, Force, Meld, Take
from ..cards import JOKER, Card, NamedJoker
from ..errors import DeterminizationError

S = TypeVar("S", bound=Any)


def _rummy_starter(view: Any) -> list[Card]:
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
                after.extend(physical(f) for f in cards)
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
    # A card equal to it was played since, or it is still known in the holder's hand.
    cards = sorted({*after, *view.known[holder]})
    if not cards:  # M11: drawn face up, so known until played; the view shows neither
        raise DeterminizationError(
            f"seat {holder} drew the card that started the stock (M11), and the view shows "
            "it neither in his hand nor played"
        )
    return cards


def _at_place(cards: Sequence[Card], at: int, zone: str) -> Card:
    """The card at place `at` of a zone the view shows, which the history says it holds."""
    if at >= len(cards):
        raise DeterminizationError(f"the history leaves more cards in the {zone} than it shows")
    return cards[at]


def _rummy_seats(view: Any, starter: Any) -> tuple[list[Seat], list[int]]:
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


def rummy_hidden(
    view: Any,
) -> Callable[[random.Random], tuple[list[Sequence[Card]], Sequence[Card]]] | None:
    """The hidden cards of the position `view` shows, drawn without reading its history:
    ``draw(rng)`` gives every seat's hand now and the face-down pack, top first (the
    turned-over stock the view shows, M11). None for a view this draw does not serve: a
    mover (not the viewer) who may hold only cards equal to the one he took in his turn (the
    take of M2 may not be allowed by them), or unseen cards that do not fill the hidden
    places (the full sampler says why).

    The full sampler (`rummy_samples`) shuffles `view.unseen` into the other hands and the
    pack, then spreads each seat's cards over its places dealt or drawn face down, each
    card it played before the action that plays it (M2–M11). Whether that spreading can be
    done does not hang on which unseen cards a seat was given: every card it played from
    those places is seen, with its deadline, and the unseen cards it holds need places with
    none (in the double pack too: a twin it holds of a card it played adds a place with no
    deadline). Nor does the starter the history may leave open (M11): it changes the past
    (which cards were drawn from the turned-over stock), not the cards now, and whether it
    gives the view's known cards is the same for every shuffle. So the position it draws is
    the shuffle alone, and this draw makes it without the history: a shuffle of
    `view.unseen`, each other seat given its unknown cards in seat order and the pack the
    rest, after the random number with which the full sampler draws the starter (the same
    cards from the same random numbers where it keeps its first draw). In a pack with no
    two equal cards (three-hand) that is the deal-uniform draw (C6): every placement of
    the unseen cards is given by as many deals. In the double pack it is the library's
    draw (see `conquian.determinize`).
    """
    rules = view.rules
    copies = rules.copies  # of each card: 2 in the double pack (M1)
    n = rules.players
    me = view.player
    shown = shown_hands(view)  # C6 Showing: at the end of the deal every hand is shown
    unknown = [
        view.hand_sizes[q] - len(view.known[q]) if q != me and not shown else 0 for q in range(n)
    ]
    turned = view.known_pack
    if len(view.unseen) != sum(unknown) + (view.pack_size if turned is None else 0):
        return None
    mover = view.current_player
    if (
        view.phase == "play"
        and mover is not None
        and mover != me
        and view.hand_sizes[mover] <= copies
    ):
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


def sample_rummy(
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
    for `sample_offer`: with `rebuild`, the state is built on the drawn deck from
    the view and every seat's hand now, without replaying the history.
    """
    check_rng(rng)
    sample: S = rummy_samples(view, rebuild, deal, accept)(rng)
    return sample


def rummy_samples(
    view: Any,
    rebuild: Callable[..., S | None] | None,
    deal: Callable[..., S] | None = None,
    accept: Callable[[S], bool] | None = None,
) -> Callable[[random.Random], S]:
    """The samples of one Cooncan view (`sample_rummy`): ``samples(rng)`` is
    ``sample_rummy(view, rng, deal, accept, rebuild)``, the view's history read once for
    every call (`CooncanView.samples`)."""
    dealt: Callable[..., S] = deal or deal_for(view)
    rules = view.rules
    n = rules.players
    history_length = len(view.history)
    starters = _rummy_starter(view)
    plans: dict[Card, tuple[list[Seat], list[int]]] = {}
    shared: list[tuple[list[Seat], list[int]] | None] = []  # read once for all starters

    def _plan(starter: Card) -> tuple[list[Seat], list[int]]:
        if len(starters) > 1 and not shared:
            try:
                shared.append(_rummy_seats(view, STARTER))
            except Ambiguous:
                shared.append(None)
        read = shared[0] if shared else None
        if read is None:
            return _rummy_seats(view, starter)
        return [seat.with_starter(starter) for seat in read[0]], read[1]

    me = view.player
    shown = shown_hands(view)  # C6 Showing: at the end of the deal every hand is shown
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
            unseen = shuffled(view.unseen, rng)
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
                        raise Unplayable(0)
                    arrange(seat.places, seat.times, needs, deck, rng, seat.slots())
                    used += len(needs)  # one random number a card
                except Unplayable as e:
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
                return sample_rummy(view, rng)

            return rebuilt(view, drawn, rebuild, replay, work)

        def draw() -> S | None:
            found = drawn()
            return None if found is None else dealt(rules, found[1], view.dealer)

        return sampled(view, draw, accept, work)

    return samples


def deal_of(state: Any) -> Any | None:
    """A Cooncan state drawn without its deal (`sample_state`, C6) with a deal found for it:
    a state equal in every zone, dealt from a deck whose replay gives it (C7), for the
    writer of records and positions (the writer pays, not every sample). None when the
    state is not such a Cooncan state, or no deal is found.

    Each seat's places (dealt, or drawn face down, M2) hold the cards it played from them
    and the cards it holds now, each before it is played; the face-down pack follows as the
    state holds it, top first; the starter is one the history leaves possible (M1, M11).
    """
    rules = state.rules
    if state.deck or not hasattr(state, "pack_is_known"):  # dealt, or no Cooncan state
        return None
    n, dealer = rules.players, state.dealer
    view = state.view(0)  # its seats' reading of the history; the hands are the state's
    hands = [list(state.hand(q)) for q in range(n)]
    pack = list(state.pack)
    total, start = len(rules.pack_cards()), n * rules.hand_size
    deal = deal_for(view)
    try:
        starters = _rummy_starter(view)
    except DeterminizationError:
        return None
    for starter in starters:
        try:
            seats, rest = _rummy_seats(view, starter)
        except (Ambiguous, DeterminizationError):
            continue
        if view.known_pack is not None:  # M11: the pack is the turned-over stock, in view
            pack = []
        if len(rest) != len(pack):
            continue
        deck: list[Card | None] = [None] * total
        deck[start] = starter
        try:
            for q, seat in enumerate(seats):
                needs = seat.needs(hands[q])
                if needs is None:
                    raise Unplayable(0)
                arrange(seat.places, seat.times, needs, deck, random.Random(q), seat.slots())
        except (Unplayable, DeterminizationError):
            continue
        for place, c in zip(sorted(rest), pack, strict=True):
            deck[place] = c
        if any(c is None for c in deck):
            continue
        try:
            found = deal(rules, tuple(deck), dealer)
            for action in state.history:
                found = found.apply(action)
        except ValueError:  # an illegal action (E1) on this deal: another starter may do
            continue
        if found.pack == state.pack and all(found.view(q) == state.view(q) for q in range(n)):
            return found
    return None
