"""Matches: many deals of one game, their score sheet and the deal passing round (T13, T19,
T23, T24, T27, M12, M13, M15).

A `Match` is an immutable value, like a deal's state: `apply` plays a move
in the deal in play, `next_deal` deals the next one once it is over, and
both return a new match. The score sheet (`conquian.scoring.ScoreSheet`)
holds each deal's result as soon as the deal ends.

- **Scorings**: ``"pool"`` (Hoyle's pool for a tableau, the default),
  ``"next"`` (Foster's: the tableau goes to the next game, T13, T19),
  ``"double"`` (pagat's: the next decided deal is played for a double stake,
  doubled again for each further tableau, T27) and ``"points"`` (T23: the
  winner scores what is left in the losers' hands, first to `target` wins,
  100 by default).
- **Ends**: at `target` (a person's total reaches it), after `rounds` rounds
  of deals (every person has dealt that often, M15), or after `deals` deals;
  without any of them the match goes on until its owner stops.
- **Three at a table of two-hand** (``people=3`` with `ConquianRules`, T24):
  the dealer sits out each deal; the person on his left is the pone, at
  seat 0, the third person at seat 1. The deal passes to the left.
- **Seeds**: deal ``k`` (0 first) is dealt from a seed derived from the
  match's seed and ``k`` alone (`deal_seed`), so the same seed plays the
  same match; a match may also be given each deal's deck.

>>> m = Match(ConquianRules(), seed=7, deals=2)
>>> m.dealer, m.state.current_player, m.is_over
(0, 1, False)
>>> while not m.state.is_over:
...     m = m.apply(m.state.legal_actions()[0])
>>> len(m.sheet.rows), m.is_over, m.next_deal().dealer
(1, False, 1)
>>> Match.from_json(m.to_json()) == m
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

import attrs

from .actions import Action
from .cards import Card
from .errors import IllegalActionError, RecordError
from .formats.codec import codec_for, read_actions, read_rules
from .formats.jsonio import (
    MAX_INT,
    MAX_TEXT,
    Problems,
    Reader,
    loads,
    pretty,
    read_deck,
    read_format,
    texts,
)
from .formats.records import GameRecord
from .game import check_deck, new_game
from .rules import Rules
from .scoring import ScoreSheet, Tie, read_sheet, sheet_data
from .state.base import Outcome, PlayerView, State
from .state.game import game_of

__all__ = [
    "FORMAT_MATCH",
    "MAX_DEALS",
    "MAX_MATCH_ACTIONS",
    "Match",
    "MatchView",
    "Scoring",
    "deal_seed",
]

Scoring = Literal["pool", "next", "double", "points"]
"""How a match is scored: Hoyle's pool, Foster's "next" (T13), pagat's double stake (T27) or
points to a target (T23)."""

FORMAT_MATCH = "conquian-match"
"""The ``"format"`` of a match file (version 1)."""
MAX_DEALS = 1_000
"""The most deals a match file may hold."""
MAX_MATCH_ACTIONS = 50_000
"""The most actions a match file may hold, all its deals together: as many as one record
may hold (`MAX_ACTIONS`), so that a match file loads in the time of a record at its limit."""

_MASK = (1 << 64) - 1
_TARGET = 100  # T23: the library's default, the source names no number


def deal_seed(seed: int, k: int) -> int:
    """The seed of deal `k` (0 first) of a match seeded with `seed`: splitmix64 steps over
    the two numbers, the same on every platform, kept below 2**63.

    >>> deal_seed(7, 0) != deal_seed(7, 1), deal_seed(7, 3) == deal_seed(7, 3)
    (True, True)
    """
    x = 0x9E3779B97F4A7C15
    for v in (seed, k):
        x = (x ^ (v & _MASK)) & _MASK
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
    return x >> 1


def _t23_value(c: Card) -> int:
    """A card left in a loser's hand, counted for the winner (T23): 2-10 face value,
    J Q K 10, ace 15."""
    if c.rank == 1:
        return 15
    return min(c.rank, 10)


def points_won(state: State) -> int:
    """What the winner of a finished deal scores in a points match (T23); 0 without a winner.

    The offer game counts the cards left in every loser's hand (shown at the
    end, C6): 2 to 10 at face value, J Q K 10, ace 15. In the rummy games the
    winner scores what the losers paid him (M7, and K9 in Coo-Can).
    """
    result = state.result
    if result is None or result.winner is None:
        return 0
    if not game_of(state.rules).points_in_hands:  # T23
        return result.payments[result.winner]
    return sum(
        _t23_value(c)
        for seat in range(len(result.payments))
        if seat != result.winner
        for c in state.hand(seat)
    )


@attrs.frozen
class _Deal:
    """One deal of a match: who dealt, who sat where, its seed (or None), its state."""

    dealer: int
    seats: tuple[int, ...]
    seed: int | None
    state: State


def _positive(name: str, value: object) -> None:
    if value is not None and (type(value) is not int or value < 1):
        raise ValueError(f"{name} must be an int of at least 1 or None (got {value!r})")


@attrs.frozen(init=False, repr=False)
class Match:
    """A match of deals of one game, as an immutable value (see the module's docstring).

    `state` is the deal in play (finished until `next_deal`), `sheet` the score
    sheet, `dealer` the person who dealt it. People are numbered 0 to
    ``people - 1``; with as many people as seats, person and seat are the same.

    Give `seed` (the match's seed: deal ``k`` is dealt from ``deal_seed(seed, k)``)
    or `deck` (the first deal's whole pack, top card first: later deals then
    need theirs, ``next_deal(deck=...)``); without either the match draws a
    random seed. `dealer` is the first deal's dealer.

    >>> m = Match(ConquianRules(), seed=3, people=3)
    >>> m.dealer, m.seats, m.seat_of(0), m.view(1).seat
    (0, (1, 2), None, 0)
    """

    rules: Rules
    seed: int | None
    scoring: Scoring
    target: int | None
    rounds: int | None
    deals: int | None
    people: int
    sheet: ScoreSheet
    _played: tuple[_Deal, ...]

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        scoring: Scoring = "pool",
        target: int | None = None,
        rounds: int | None = None,
        people: int | None = None,
        *,
        deals: int | None = None,
        dealer: int = 0,
        deck: Sequence[Card] | None = None,
    ) -> None:
        if codec_for(getattr(rules, "game", None)) is None:
            raise TypeError(f"rules must be a rules object (got {type(rules).__name__})")
        if scoring not in ("pool", "next", "double", "points"):
            raise ValueError(
                f'scoring must be "pool", "next", "double" or "points" (got {scoring!r})'
            )
        for name, value in (("target", target), ("rounds", rounds), ("deals", deals)):
            _positive(name, value)
        if scoring == "points" and target is None:
            target = _TARGET
        n = rules.players
        if people is None:
            people = n
        elif type(people) is not int or (
            people != n and not (people == 3 and n == 2 and game_of(rules).dealer_sits_out)
        ):
            raise ValueError(
                f"people must be {n} for these rules, or 3 with two-hand rules (T24) "
                f"(got {people!r})"
            )
        if type(dealer) is not int or not 0 <= dealer < people:
            raise ValueError(f"dealer must be a person from 0 to {people - 1} (got {dealer!r})")
        if seed is not None and deck is not None:
            raise TypeError("Match takes seed= or deck=, not both")
        if seed is None and deck is None:
            import secrets  # only for a match dealt without a seed

            seed = secrets.randbits(63)
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_INT):
            raise ValueError(f"seed must be an int from 0 to {MAX_INT} (got {seed!r})")
        tie: Tie = "pool" if scoring == "points" else scoring
        sheet = ScoreSheet(people, tie=tie, points=scoring == "points")
        values: tuple[object, ...] = (rules, seed, scoring, target, rounds, deals, people, sheet)
        for name, given in zip(_FIELDS, values, strict=False):
            object.__setattr__(self, name, given)
        first = self._deal(0, dealer, None if deck is None else check_deck(rules, deck))
        object.__setattr__(self, "_played", (first,))

    def __repr__(self) -> str:
        """A one-line summary: the game, the deal in play, the totals and where it stands.

        >>> Match(ConquianRules(), seed=1, deals=2)
        <Match conquian, pool, deal 1 dealt by 0, totals (0, 0): in play>
        """
        where = "over" if self.is_over else "between deals" if self.state.is_over else "in play"
        return (
            f"<Match {self.rules.game}, {self.scoring}, deal {self.number} dealt by "
            f"{self.dealer}, totals {self.sheet.totals}: {where}>"
        )

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The deal in play (or just finished, until `next_deal`)."""
        return self._played[-1].state

    @property
    def dealer(self) -> int:
        """The person who dealt the deal in play."""
        return self._played[-1].dealer

    @property
    def seats(self) -> tuple[int, ...]:
        """The person at each seat of the deal in play."""
        return self._played[-1].seats

    @property
    def number(self) -> int:
        """How many deals have been dealt, this one included."""
        return len(self._played)

    @property
    def current_person(self) -> int | None:
        """The person who acts next in the deal in play, or None when it is over."""
        seat = self.state.current_player
        return None if seat is None else self.seats[seat]

    def seat_of(self, person: int) -> int | None:
        """The seat of `person` in the deal in play, or None when he sits out (T24)."""
        self._check_person(person)
        return self.seats.index(person) if person in self.seats else None

    @property
    def is_over(self) -> bool:
        """Whether the match has ended: the deal in play is over and a person reached the
        `target`, the `rounds` are played (M15) or the `deals` are dealt."""
        if not self.state.is_over:
            return False
        sheet = self.sheet
        if self.target is not None and max(sheet.totals) >= self.target:
            return True
        if self.rounds is not None and sheet.rounds >= self.rounds:
            return True
        return self.deals is not None and len(sheet.rows) >= self.deals

    @property
    def winner(self) -> int | None:
        """Once the match is over, the person with the highest total; None before, and on a
        tie for the highest."""
        if not self.is_over:
            return None
        totals = self.sheet.totals
        best = max(totals)
        return totals.index(best) if totals.count(best) == 1 else None

    def records(self) -> tuple[GameRecord, ...]:
        """Each deal so far as a `GameRecord` (its seats' persons are in `seats` of each)."""
        return tuple(GameRecord.from_state(d.state) for d in self._played)

    def view(self, person: int) -> MatchView:
        """What `person` may know: his view of the deal in play (None while he sits out,
        T24) and the score sheet."""
        self._check_person(person)
        seat = self.seat_of(person)
        return MatchView(
            person=person,
            seat=seat,
            view=None if seat is None else self.state.view(seat),
            sheet=self.sheet,
            number=self.number,
            dealer=self.dealer,
            seats=self.seats,
            is_over=self.is_over,
            winner=self.winner,
        )

    # -- playing ---------------------------------------------------------------------------

    def apply(self, action: Action | str) -> Match:
        """The match after `action` in the deal in play; raises `IllegalActionError` (E1)
        and leaves this match as it was. A deal's result goes on the sheet as it ends."""
        if self.state.is_over:
            raise IllegalActionError(
                f"illegal action '{action}': deal {self.number} is over; "
                + ("the match is over" if self.is_over else "deal the next one (next_deal)")
            )
        state = self.state.apply(action)
        last = attrs.evolve(self._played[-1], state=state)
        sheet = self.sheet
        if state.is_over:
            sheet = self._scored(sheet, last)
        return self._with((*self._played[:-1], last), sheet)

    def next_deal(self, deck: Sequence[Card] | None = None) -> Match:
        """The match with the next deal dealt: by the next dealer (M13, T13, T24), from the
        derived seed, or from `deck` when given (needed when the match has no seed)."""
        if not self.state.is_over:
            raise ValueError(f"deal {self.number} is not over yet")
        if self.is_over:
            raise ValueError("the match is over")
        if deck is None and self.seed is None:
            raise ValueError("this match has no seed: give next_deal the deck")
        dealer = (self.dealer + 1) % self.people
        checked = None if deck is None else check_deck(self.rules, deck)
        return self._with((*self._played, self._deal(self.number, dealer, checked)), self.sheet)

    # -- the machinery ---------------------------------------------------------------------

    def _check_person(self, person: object) -> None:
        if type(person) is not int or not 0 <= person < self.people:
            raise ValueError(f"person must be from 0 to {self.people - 1} (got {person!r})")

    def _deal(
        self, k: int, dealer: int, deck: tuple[Card, ...] | None, seed: int | None = None
    ) -> _Deal:
        if self.people == self.rules.players:
            seats, seat = tuple(range(self.people)), dealer
        else:  # T24: the dealer sits out; his left neighbour is the pone, at seat 0
            seats, seat = ((dealer + 1) % 3, (dealer + 2) % 3), 1
        if deck is not None:
            return _Deal(dealer, seats, None, new_game(self.rules, deck=deck, dealer=seat))
        if seed is None:
            assert self.seed is not None
            seed = deal_seed(self.seed, k)
        return _Deal(dealer, seats, seed, new_game(self.rules, seed=seed, dealer=seat))

    def _scored(self, sheet: ScoreSheet, deal: _Deal) -> ScoreSheet:
        result = deal.state.result
        assert result is not None
        seats = None if self.people == self.rules.players else deal.seats
        points = points_won(deal.state) if self.scoring == "points" else None
        if points is not None and result.outcome is not Outcome.WIN:
            points = None
        return sheet.add(result, dealer=deal.dealer, seats=seats, points=points)

    def _with(self, played: tuple[_Deal, ...], sheet: ScoreSheet) -> Match:
        new = object.__new__(Match)
        for name in _FIELDS:
            object.__setattr__(new, name, getattr(self, name))
        object.__setattr__(new, "sheet", sheet)
        object.__setattr__(new, "_played", played)
        return new

    # -- JSON ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """The match file (format ``conquian-match``, version 1): the rules, the scoring,
        and every deal (its dealer, its seed or deck, its actions), with the sheet.

        Keep it from the players: a seed foretells the deals. Raises `RecordError`
        past the limits of records (`MAX_TEXT` characters, `MAX_DEALS` deals,
        `MAX_MATCH_ACTIONS` actions over all the deals).
        """
        data = self.to_dict()
        text = pretty(data)
        problems = []
        if len(text) > MAX_TEXT:
            problems.append(f"{len(text)} characters, more than the limit of {MAX_TEXT}")
        if len(data["played"]) > MAX_DEALS:
            problems.append(
                f"played: {len(data['played'])} deals, more than the limit of {MAX_DEALS}"
            )
        actions = sum(len(d.state.history) for d in self._played)
        if actions > MAX_MATCH_ACTIONS:
            problems.append(
                f"played: {actions} actions, more than the limit of {MAX_MATCH_ACTIONS} a match"
            )
        if problems:
            raise RecordError(problems, what="match")
        return text

    def to_dict(self) -> dict[str, Any]:
        """The match file as Python data: the ``conquian-match`` document that `to_json`
        writes (its limits are checked by `to_json` alone). Keep it from the players: a
        seed foretells the deals.

        >>> match = Match(ConquianRules(), seed=7, deals=2)
        >>> data = match.to_dict()
        >>> data["format"], data["deals"], len(data["played"])
        ('conquian-match', 2, 1)
        """
        codec = codec_for(self.rules.game)
        assert codec is not None
        played = []
        for d in self._played:
            entry: dict[str, Any] = {"dealer": d.dealer}
            if d.seed is not None:
                entry["seed"] = d.seed
            else:
                entry["deck"] = texts(d.state.deck)  # type: ignore[attr-defined, unused-ignore]
            entry["actions"] = texts(d.state.history)
            played.append(entry)
        data = {
            "format": FORMAT_MATCH,
            "version": 1,
            "rules": codec.rules_data(self.rules),
            "scoring": self.scoring,
            "target": self.target,
            "rounds": self.rounds,
            "deals": self.deals,
            "people": self.people,
            "seed": self.seed,
            "played": played,
            "sheet": sheet_data(self.sheet),
        }
        return data

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """A match back from its file, every deal replayed and checked (E2, E3).

        Raises `RecordError` listing the problems found, each with its field
        (``played[2].actions[7]: illegal action …``): a bad option, a deal not
        over before the next one, a dealer out of turn, a sheet that does not
        match the deals (reading stops at the first deal that cannot be
        replayed). The match read equals the match written, so play resumes
        where it stopped.
        """
        problems = Problems()
        r = Reader(problems)
        data = loads(text, "match", problems)
        if problems or not read_format(data, FORMAT_MATCH, r):
            raise problems.error("match")
        match = _read_match(data, r)
        if match is None or problems:
            raise problems.error("match")
        return match


_FIELDS = ("rules", "seed", "scoring", "target", "rounds", "deals", "people", "sheet", "_played")
_MATCH_FIELDS = (
    "format",
    "version",
    "rules",
    "scoring",
    "target",
    "rounds",
    "deals",
    "people",
    "seed",
    "played",
)


class _At(Reader):
    """A reader whose problems are reported under a path (``played[2].``)."""

    def __init__(self, problems: Problems, prefix: str) -> None:
        super().__init__(problems)
        self.prefix = prefix

    def add(self, text: str) -> None:
        self.problems.add(self.prefix + text)


def _read_match(data: dict[str, Any], r: Reader) -> Match | None:
    """The match of a file's data, or None after reporting its problems.

    Each deal is replayed once, action by action on its state, and scored once:
    the work grows with the file, not with its square (the sheet's rows are
    checked as each is added, never all again).
    """
    fields = r.fields(data, "", _MATCH_FIELDS, ("sheet",))
    if fields is None or any(k not in fields for k in _MATCH_FIELDS):
        return None
    rules = read_rules(fields["rules"], r)
    r.choice(fields["scoring"], "scoring", ("pool", "next", "double", "points"))
    limits = {}
    for name in ("target", "rounds", "deals", "people", "seed"):
        value = fields[name]
        low = 0 if name == "seed" else 1
        limits[name] = None if value is None else r.integer(value, name, low)
    items = r.array(fields["played"], "played", MAX_DEALS, "deals")
    if rules is None or items is None or _has_problems(r):
        return None
    if not items:
        r.add("played: a match holds at least its first deal")
        return None
    actions = sum(
        len(v["actions"]) for v in items if type(v) is dict and type(v.get("actions")) is list
    )
    if actions > MAX_MATCH_ACTIONS:  # counted before any deal is replayed
        r.add(f"played: {actions} actions, more than the limit of {MAX_MATCH_ACTIONS} a match")
        return None
    seed = limits["seed"]
    match: Match | None = None
    played: list[_Deal] = []
    sheet: ScoreSheet | None = None
    people = limits["people"] or rules.players
    totals, dealt = [0] * people, [0] * people  # the sheet's, kept as each row is added
    for k, item in enumerate(items):
        at = _At(r.problems, f"played[{k}].")
        entry = at.fields(item, f"played[{k}]", ("dealer", "actions"), ("seed", "deck"))
        if entry is None or "dealer" not in entry or "actions" not in entry:
            return None
        if ("seed" in entry) == ("deck" in entry):
            r.add(f"played[{k}]: give exactly one of seed and deck")
            return None
        dealer = at.seat(entry["dealer"], "dealer", people)
        deck = read_deck(entry["deck"], rules, at) if "deck" in entry else None
        given = at.integer(entry["seed"], "seed") if "seed" in entry else None
        read = read_actions(entry["actions"], at)
        if dealer is None or (deck is None and given is None) or read is None or not read[1]:
            return None
        # A deal's seed is the match's seed's (deal_seed): the file is bound to its seed,
        # and a seeded match deals its first deal from it.
        if given is not None and (seed is None or given != deal_seed(seed, k)):
            r.add(
                f"played[{k}].seed: not the seed of deal {k} of "
                + ("a match without a seed" if seed is None else "the match's seed")
            )
            return None
        if k == 0 and seed is not None and given is None:
            r.add("played[0]: a seeded match deals its first deal from its seed, not a deck")
            return None
        try:
            if match is None:
                match = Match(
                    rules,
                    seed=seed,
                    scoring=fields["scoring"],
                    target=limits["target"],
                    rounds=limits["rounds"],
                    people=limits["people"],
                    deals=limits["deals"],
                    dealer=dealer,
                    deck=deck,
                )
                sheet = match.sheet
                deal = match._played[0]
            else:
                assert sheet is not None
                match = match._with((*played, deal), sheet)
                if _ended(match, totals, dealt):
                    r.add(f"played[{k}]: the match was over before this deal")
                    return None
                if dealer != (match.dealer + 1) % match.people:
                    r.add(f"played[{k}].dealer: person {dealer} deals out of turn (M13, T13)")
                    return None
                played.append(deal)
                deal = match._deal(k, dealer, deck, given)
        except (TypeError, ValueError) as e:
            r.add(f"played[{k}]: {e}")
            return None
        assert sheet is not None
        state = deal.state
        for i, action in enumerate(read[0]):
            if state.is_over:
                at.add(f"actions[{i}]: illegal action '{action}': deal {k + 1} is over")
                return None
            try:
                state = state.apply(action)
            except IllegalActionError as e:
                at.add(f"actions[{i}]: {e}")
                return None
        deal = attrs.evolve(deal, state=state)
        if state.is_over:
            sheet = match._scored(sheet, deal)
            row = sheet.rows[-1]
            totals = [t + c for t, c in zip(totals, row.changes, strict=True)]
            dealt[deal.dealer] += 1
        elif k + 1 < len(items):
            r.add(f"played[{k + 1}]: deal {k + 1} is dealt before deal {k} is over")
            return None
    assert match is not None and sheet is not None
    match = match._with((*played, deal), sheet)
    if "sheet" in fields:
        written = read_sheet(fields["sheet"], "sheet", r)
        if written is not None and written != match.sheet:
            r.add("sheet: does not match the results of the deals played")
    return None if _has_problems(r) else match


def _ended(match: Match, totals: list[int], dealt: list[int]) -> bool:
    """`match.is_over` between deals, from the sheet's `totals` and `dealt` kept by the
    reader (the sheet would add up all its rows again)."""
    if match.target is not None and max(totals) >= match.target:
        return True
    if match.rounds is not None and min(dealt) >= match.rounds:
        return True
    return match.deals is not None and len(match.sheet.rows) >= match.deals


def _has_problems(r: Reader) -> bool:
    """Whether `r` has found any problem yet."""
    return len(r.problems) > 0


@attrs.frozen
class MatchView:
    """What one person may know of a match: his view of the deal in play and the sheet.

    `view` is None while he sits out a deal (T24). `number` counts the deals
    dealt, this one included; `seats` gives the person at each seat.
    """

    person: int
    seat: int | None
    view: PlayerView | None
    sheet: ScoreSheet
    number: int
    dealer: int
    seats: tuple[int, ...]
    is_over: bool
    winner: int | None

    @property
    def deal_view(self) -> PlayerView:
        """His view of the deal in play, for a person who has a seat in it: `view`, typed
        without None (when every person has a seat, as in a match of as many people as
        seats, it is never None). Raises `ValueError` while he sits the deal out (T24).

        >>> Match(ConquianRules(), seed=7).view(1).deal_view.player
        1
        """
        if self.view is None:
            raise ValueError(f"person {self.person} sits out deal {self.number} (T24)")
        return self.view

    def to_json(self) -> str:
        """This view as one line of JSON (format ``conquian-match-view``): the person's
        view of the deal (a ``conquian-view``, or null) and the sheet; never a seed."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    def to_dict(self) -> dict[str, Any]:
        """This view as Python data: the ``conquian-match-view`` document that `to_json`
        writes, the view of the deal as `PlayerView.to_dict` gives it."""
        return {
            "format": "conquian-match-view",
            "version": 1,
            "person": self.person,
            "seat": self.seat,
            "number": self.number,
            "dealer": self.dealer,
            "seats": list(self.seats),
            "is_over": self.is_over,
            "winner": self.winner,
            "sheet": sheet_data(self.sheet),
            "view": None if self.view is None else self.view.to_dict(),
        }
