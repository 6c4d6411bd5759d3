"""The steps of sampling that every engine's sampler shares (`conquian.offer.sampling`,
`conquian.rummy.sampling`, `conquian.coocan.posterior`): shuffling the unseen cards, a
weighted pick, placing cards before their deadlines, reading what the history shows of a
Cooncan seat (`Seat`), replaying the history within a budget (`sampled`), and building the
position without replaying it, within the same budget (`rebuilt`). It imports no engine:
the deal of a view's game is asked of the table of games (`conquian.state.game`).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .actions import Action
from .cards import JOKER, Card, NamedJoker, card_at
from .errors import DeterminizationError, IllegalActionError, RecordError
from .state.game import game_of

__all__ = [
    "NEVER",
    "STARTER",
    "Ambiguous",
    "Seat",
    "Unplayable",
    "Work",
    "arrange",
    "by_time",
    "check_rng",
    "deal_for",
    "physical",
    "pick",
    "rebuilt",
    "sampled",
    "shown_hands",
    "shuffled",
]

S = TypeVar("S", bound=Any)
T = TypeVar("T")


def pick(options: Sequence[tuple[T, float]], x: float) -> T:
    """One of `options` (item, weight), each in proportion to its weight, `x` uniform in
    [0, 1) (0 picks the first of weight above 0)."""
    x *= sum(w for _, w in options)
    for item, w in options:
        if x < w:
            return item
        x -= w
    return options[-1][0]


def shuffled(items: Sequence[Any], rng: random.Random) -> list[Any]:
    """`items` in an order drawn uniformly, by the loop of `conquian.cards.shuffle`."""
    out = list(items)
    draw = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(draw() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def arrange(
    places: Sequence[int],
    times: Sequence[int],
    cards: Sequence[tuple[Card, int]],
    deck: list[Card | None],
    rng: random.Random,
    slots: tuple[list[int], list[int]] | None = None,
) -> None:
    """Put `cards` (each with the action it is played at) on `places` (each filled at its
    action, -1 for the deal), each card on a place filled before it is played.

    Cards with the earliest deadline go first, each to a free place drawn
    among those filled in time: as those sets are nested, every arrangement
    that meets the deadlines is equally likely. `slots` is `by_time` of `times`, when
    worked out already.
    """
    if len(places) != len(cards):
        raise DeterminizationError(f"{len(cards)} cards for {len(places)} places of one player")
    free, filled = slots if slots is not None else by_time(times)
    deadlines = [d for _, d in cards]
    order = sorted(range(len(cards)), key=deadlines.__getitem__)
    untaken = list(range(len(free)))  # the free places not taken yet, by their rank in `free`
    draw = rng.random
    for used, k in enumerate(order):
        c, deadline = cards[k]
        allowed = bisect_left(untaken, bisect_left(filled, deadline))
        if not allowed:
            raise Unplayable(used)
        q = free[untaken.pop(int(draw() * allowed))]
        deck[places[q]] = c


def by_time(times: Sequence[int]) -> tuple[list[int], list[int]]:
    """The places (their numbers) in the order they are filled, and the action each is filled
    at in that order: the places filled before a deadline lead (`arrange`)."""
    free = sorted(range(len(times)), key=times.__getitem__)
    return free, [times[k] for k in free]


class Unplayable(Exception):
    """A card drawn for a hand cannot reach it before it is played: draw again.

    `arrange` gives the random numbers it used before it found so as its argument."""


class _Failed:
    """Where a replay stopped: the index of the action, the action and why (E1)."""

    __slots__ = ("error", "index", "mine")

    def __init__(self, index: int, error: IllegalActionError, mine: bool) -> None:
        self.index = index
        self.error = error
        self.mine = mine  # an action of the viewer himself


def _replay(first: S, history: Sequence[Action], player: int) -> S | _Failed:
    """The deal `first` with `history` replayed; or where an action turned out illegal on it
    (an action can be legal only with some hidden cards, as a ``take`` in the two-hand game,
    T3, T8)."""
    state = first
    i = 0
    try:
        for action in history:
            state = state.apply(action)
            i += 1
    except IllegalActionError as e:
        return _Failed(i, e, state.current_player == player)
    return state


_TRIES = 10_000
"""Deals drawn at most before a view is declared impossible (see `sampled`)."""
_REPLAYS = 3
"""Replays of the whole history one sample may cost at most, past `_FLOOR` (see `sampled`)."""
_FLOOR = 20_000
"""Actions replayed at most on top of `_REPLAYS` replays: the retries a short history gets."""
_DRAW_COST = 32
"""The actions' worth a drawn deal is charged (dealing the pack, placing the cards)."""


class Work:
    """The actions' worth of work a sample did besides replays and draws (`sampled`): a
    reading of the history counts as many actions as it has."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = 0


def sampled(
    view: Any,
    draw: Callable[[], S | None],
    accept: Callable[[S], bool] | None,
    work: Work | None = None,
    own_fixed: bool = False,
) -> S:
    """A state from `draw` (a deal drawn from the view's known places) whose history replays
    and gives the view (or that `accept` takes).

    Drawing again until the history replays keeps the draw uniform among the deals that
    give the view: an action whose legality hangs on hidden cards (a ``take`` of a card
    the taker must meld this turn, T3, T8) rejects the deals where it is illegal.

    The cost is bounded whatever the view (E2): when every deal drawn gives the viewer
    the same cards at every step (`own_fixed`: the two-hand game, where his hand is his
    dealt cards less those he played), an illegal action of his own is illegal on every
    deal, so it ends the search at the first replay; and the replays and draws together
    cost at most `_REPLAYS` replays of the whole history plus `_FLOOR` actions (with
    the `work` `draw` reports), after which the view is refused naming the action that
    most often failed.
    """
    if accept is None:

        def accept(state: S) -> bool:
            return bool(state.view(view.player) == view)

    history: Sequence[Action] = view.history
    n = len(history)
    budget = _REPLAYS * (n + 1) + _FLOOR
    spent = 0
    failed: dict[int, _Failed] = {}
    counts: Counter[int] = Counter()
    for _ in range(_TRIES):
        try:
            first = draw()
        except RecordError as e:  # the known places hold a card twice: on every draw
            placed = f"the view's history places its known cards so: {e}"
            raise DeterminizationError(placed) from None
        spent += _DRAW_COST
        if first is not None:
            outcome = _replay(first, history, view.player)
            if isinstance(outcome, _Failed):
                spent += outcome.index + 1
                if outcome.mine and own_fixed:
                    raise DeterminizationError(_illegal(outcome, history))
                failed.setdefault(outcome.index, outcome)
                counts[outcome.index] += 1
            else:
                spent += n
                if accept(outcome):
                    return outcome
        if spent + (0 if work is None else work.done) > budget:
            break
    if counts:
        worst = failed[counts.most_common(1)[0][0]]
        raise DeterminizationError(f"{_illegal(worst, history)}, on every deal drawn")
    raise DeterminizationError("no deal drawn gives this view")


def rebuilt(
    view: Any,
    draw: Callable[[], tuple[Any, ...] | None],
    build: Callable[..., S | None],
    replay: Callable[[], S],
    work: Work | None = None,
) -> S:
    """A state built by `build` from a deal `draw` gives (its arguments), without replaying
    the history: the first one `build` does not refuse (None).

    `build` refuses a drawn deal exactly where `sampled` would see an action of the history
    turn out illegal on it (the taker of a card he cannot meld, T3, T8, M2), and the draws
    are the same: the same random numbers give the same state as `sampled`. After as many
    refusals as `sampled`'s budget allows (each charged a whole replay), the search is
    left to `replay` (`sampled`), which names the action that fails.
    """
    n = len(view.history)
    budget = _REPLAYS * (n + 1) + _FLOOR
    spent = 0
    for _ in range(_TRIES):
        try:
            args = draw()
            state = None if args is None else build(*args)
        except RecordError as e:  # the known places hold a card twice: on every draw
            placed = f"the view's history places its known cards so: {e}"
            raise DeterminizationError(placed) from None
        if state is not None:
            return state
        spent += _DRAW_COST + (0 if args is None else n)
        if spent + (0 if work is None else work.done) > budget:
            break
    return replay()


def _illegal(failed: _Failed, history: Sequence[Action]) -> str:
    """The action at which a replay failed, named by its index and text, and why (E1)."""
    return f"history[{failed.index}]: {failed.error}"


def check_rng(rng: object) -> None:
    """A sample needs a source of random numbers: `rng` must have `random()` (E2)."""
    if not callable(getattr(rng, "random", None)):
        raise TypeError(f"sample_state: rng must be a random.Random, not {type(rng).__name__}")


# -- what the history shows of a Cooncan seat (M2) --------------------------------------

NEVER = 1 << 30
"""The deadline of a card never played: any place will do."""


class Seat:
    """What the history shows of one seat's hand (M2): the places of the deck it was
    filled from unseen (dealt, or drawn from the face-down pack) with the action each
    came at, the cards it received face up (taken, or drawn from the turned stock) and
    the cards it played, with the action of each.

    Cards are read by `Card.index` (equal cards, the copies of the double pack, have
    one index), `STARTER` standing for a starter not yet named."""

    def __init__(self) -> None:
        self.places: list[int] = []
        self.times: list[int] = []
        self.arrived: list[tuple[Any, int]] = []
        self.played: list[tuple[int, int]] = []
        self._cards: dict[Any, tuple[int, list[int]]] | None = None
        self._rows: list[tuple[int, list[tuple[Card, int]] | None]] | None = None
        self._rest: tuple[tuple[int, ...], list[tuple[Card, int]] | None] | None = None
        self._slots: tuple[list[int], list[int]] | None = None

    def slots(self) -> tuple[list[int], list[int]]:
        """`by_time` of its places (worked out once, then kept)."""
        found = self._slots
        if found is None:
            found = self._slots = by_time(self.times)
        return found

    def with_starter(self, starter: Card) -> Seat:
        """This seat read with `STARTER` standing for the starter: the same, `starter` named
        (its cards' reading reused, only the starter's card read again)."""
        cards = self._by_card()
        if STARTER not in cards:
            return self  # no starter to name: the same reading, and what it worked out
        new = Seat()
        new.places, new.times, new.played = self.places, self.times, self.played
        new.arrived = self.arrived  # with `STARTER` still: only its reading below is read
        named = starter.index
        merged = self._moves_of(named) + self._moves_of(STARTER)
        new._cards = {}
        for c, read in cards.items():  # in the order the cards first moved, as read anew
            if c is STARTER or c == named:
                if named not in new._cards:
                    new._cards[named] = _read(merged)
            else:
                new._cards[c] = read
        return new

    def _moves_of(self, card: Any) -> list[tuple[int, int]]:
        """The moves of `card` in and out of the hand: (action, +1) for each arrival,
        (action, -1) for each play."""
        return [(t, 1) for c, t in self.arrived if c == card] + [
            (t, -1) for c, t in self.played if c == card
        ]

    def _by_card(self) -> dict[Any, tuple[int, list[int]]]:
        """For each card the history moves (by index), `_read` of its moves, the cards
        received face up first, then the others in the order first played (read once, then
        kept)."""
        found = self._cards
        if found is None:
            arrivals: dict[Any, list[tuple[int, int]]] = {}
            for c, t in self.arrived:
                arrivals.setdefault(c, []).append((t, 1))
            plays: dict[Any, list[int]] = {}
            for c, t in self.played:
                at = plays.get(c)
                if at is None:
                    plays[c] = [t]
                else:
                    at.append(t)
            found = {}
            for c, moves in arrivals.items():
                found[c] = _read(moves + [(t, -1) for t in plays.get(c, NONE)])
            for c, times in plays.items():
                if c not in arrivals:  # every play from an unseen place, each by its action
                    found[c] = (-len(times), times)
            self._cards = found
        return found

    def _unheld(self) -> list[tuple[int, list[tuple[Card, int]] | None]]:
        """For each card the history moves, in the order of `_by_card`, what its unseen
        places must hold when the hand holds none of it (None: the history cannot be
        played so). Worked out once, then kept."""
        rows = self._rows
        if rows is None:
            rows = []
            for c, (balance, deadlines) in self._by_card().items():
                extra = -balance - len(deadlines)  # plays less arrivals, less the deadlines
                if extra < 0:
                    rows.append((c, None))
                    continue
                card = card_at(c)
                rows.append((c, [(card, t) for t in deadlines] + [(card, NEVER)] * extra))
            self._rows = rows
        return rows

    def needs(self, held: Sequence[Card]) -> list[tuple[Card, int]] | None:
        """The cards its unseen places must hold, each with the action it is needed by, for
        a hand that now holds `held`; None if the history cannot be played with them.

        The held cards come first, in the order held, then the other cards the history
        moves, in the order they first moved."""
        by_card = self._by_card()
        count = Counter([c.index for c in held])
        out: list[tuple[Card, int]] = []
        for c, held_c in count.items():
            balance, deadlines = by_card.get(c, (0, NONE))
            total = held_c - balance  # plays less arrivals, plus what is held
            if total < len(deadlines):
                return None
            card = card_at(c)
            out.extend([(card, t) for t in deadlines])
            out.extend([(card, NEVER)] * (total - len(deadlines)))
        rest = self._rest_of(tuple([c for c in count if c in by_card]))
        if rest is None:
            return None
        out.extend(rest)
        return out

    def _rest_of(self, held: tuple[int, ...]) -> list[tuple[Card, int]] | None:
        """What the unseen places must hold of the cards the history moves that the hand
        holds none of (`held`: those it holds), in the order of `_by_card`; None if the
        history cannot be played so. The last one worked out is kept: the same on every
        draw unless equal cards are drawn into the hand (the double pack)."""
        kept = self._rest
        if kept is not None and kept[0] == held:
            return kept[1]
        out: list[tuple[Card, int]] | None = []
        for c, entries in self._unheld():
            if c in held:
                continue
            if entries is None:
                out = None
                break
            out.extend(entries)  # type: ignore[union-attr]
        self._rest = (held, out)
        return out


NONE: list[int] = []
"""No deadline (a card the history does not move)."""


def _read(moves: list[tuple[int, int]]) -> tuple[int, list[int]]:
    """One card's moves in and out of a hand (action, +1 or -1): its known arrivals less
    plays, and the actions by which an unseen copy must be in the hand."""
    if len(moves) == 1:  # one arrival, or one play from an unseen place
        t, step = moves[0]
        return step, [t] if step < 0 else []
    balance = 0  # known arrivals less plays so far
    deadlines: list[int] = []
    for t, step in sorted(moves):
        balance += step
        if -balance > len(deadlines):  # a play not covered: an unseen copy by then
            deadlines.append(t)
    return balance, deadlines


class Ambiguous(Exception):
    """Reading the history with `STARTER` for the starter, a take whose card may be it."""


STARTER = "starter"
"""The card first turned to start a Cooncan stock (M1), while its name is not known."""


# -- what every draw reads of a view ----------------------------------------------------------


def deal_for(view: Any) -> Callable[..., Any]:
    """The deal function of the view's game (a deck and a dealer to the first state, C7)."""
    try:
        return game_of(view.rules).deal
    except TypeError:
        raise DeterminizationError(f"no engine deals {type(view.rules).__name__}") from None


def physical(face: Card | NamedJoker) -> Card:
    """The card a face is: the joker for a named joker (M9), else the card itself."""
    return JOKER if type(face) is NamedJoker else face  # type: ignore[return-value]


def shown_hands(view: Any) -> tuple[tuple[Card, ...], ...] | None:
    """Every seat's hand when the view shows them (C6 Showing, at the end of a deal)."""
    hands: tuple[tuple[Card, ...], ...] | None = getattr(view, "hands", None)
    return hands
