"""Stakes over several deals: the score sheet and the tableau (rules T13, T19, T23, T24, T27,
M12, M13, M15).

A deal's `Result` says what each seat wins or pays in that deal. A
`ScoreSheet` adds the deals up, one row each, with the running plus or minus
of every seat, and who dealt each deal. A tableau is scored in one of three
ways (`tie`):

- ``tie="pool"`` (the default, Hoyle 1897 "Stakes" and "Showing", T13): each
  player puts one counter in the **pool**, and the winner of the next decided
  deal takes the pool as well as his adversary's counter;
- ``tie="next"`` (Foster p. 55 and special law 21, T13): nothing is paid on a
  tableau, which "goes to the winner of the next game": each player of the
  tableau owes the winner of the next decided deal one counter for it;
- ``tie="double"`` (pagat, T27): nothing is paid on a tableau, and the next
  decided deal is played for twice the stake, doubled again for each further
  tableau before it (1 tableau: 2 counters, 2: 4, 3: 8).

"pool" and "next" give the same totals once the next deal is decided; in
between, the pool holds what Foster's reading has not yet paid.

A fourth way to score a match is in **points** (T23, ``points=True``): the
winner of a deal scores what is left in the losers' hands, nobody pays, and
a tableau scores nothing. Three people may share a table of two-hand
(T24): each deal's `add` names the people who played it (``seats``), and
the sheet keeps all three totals. A tableau's counters are owed by the two
who played it, never by the person who sat it out (the library's reading of
T24 under "next"). The sheet knows when every player has dealt equally often
(`rounds`, M15), and it reads and writes JSON (`ScoreSheet.to_json`,
`ScoreSheet.from_json`).

Foster's washbook (pp. 32–33): five players; C wins 105 points, then A 87.

>>> sheet = ScoreSheet(players=5)
>>> sheet = sheet.add(Result("win", winner=2, payments=(-20, -46, 105, -30, -9)))
>>> sheet = sheet.add(Result("win", winner=0, payments=(87, -24, -24, -28, -11)))
>>> sheet.totals
(67, -70, 81, -58, -20)
>>> [row.won for row in sheet.rows], sheet.balanced
([105, 87], True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import attrs

from .formats.jsonio import MAX_INT, Problems, Reader, is_int, loads, pretty, read_format, short
from .state.base import Outcome, Result

__all__ = [
    "FORMAT_SHEET",
    "MAX_ROWS",
    "MAX_SHEET_PLAYERS",
    "TIES",
    "ScoreSheet",
    "SheetRow",
    "read_sheet",
    "sheet_data",
]

FORMAT_SHEET = "conquian-sheet"
"""The ``"format"`` of a score sheet's JSON (version 1, as records)."""
MAX_ROWS = 10_000
"""The most rows (deals) a score sheet read from JSON may hold."""
MAX_SHEET_PLAYERS = 16
"""The most players (columns) a score sheet read from JSON may hold."""

Tie = Literal["pool", "next", "double"]
"""How a tableau is scored: Hoyle's pool or Foster's "goes to the next game" (T13), or pagat's
double stake (T27)."""

TIES: tuple[Tie, ...] = ("pool", "next", "double")
"""The values of `ScoreSheet.tie`, in the order the docs give them."""


@attrs.frozen
class SheetRow:
    """One deal on the score sheet: what each seat won (+) or paid (−), the pool after it,
    who dealt it (None when not recorded), and who played it (`seats`).

    On a points sheet (T23) `changes` holds the points scored, the winner's only.

    `changes` includes counters put into or taken from the pool (``tie="pool"``),
    the counters owed for earlier tableaus (``tie="next"``: with three at a table
    of two-hand, T24, also those of a player of a tableau who sits this deal out)
    and the doubled stake (``tie="double"``, T27).

    >>> row = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), dealer=1).rows[0]
    >>> row.changes, row.won, row.pool, row.dealer
    ((1, -1), 1, 0, 1)
    """

    outcome: Outcome
    winner: int | None
    changes: tuple[int, ...]
    pool: int
    dealer: int | None = None
    seats: tuple[int, ...] | None = None
    """The people who played the deal, by seat of the deal (T24), or None: every player,
    each at the seat of his own number."""

    @property
    def won(self) -> int:
        """The points won in this deal, the figure Foster writes in the margin (p. 32)."""
        return sum(c for c in self.changes if c > 0)


def _rows(value: Iterable[SheetRow]) -> tuple[SheetRow, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"rows must be a sequence of SheetRow (got {type(value).__name__})")
    rows = tuple(value)
    for row in rows:
        if not isinstance(row, SheetRow):
            raise TypeError(f"rows must hold SheetRow values (got {type(row).__name__})")
    return rows


def _check_seat(what: str, seat: object, players: int) -> None:
    # bool is an int: True must not pass for seat 1.
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"{what} must be a seat from 0 to {players - 1} (got {seat!r})")


@attrs.frozen
class ScoreSheet:
    """A running score over deals, as an immutable value (M12, T13, T23, T24, T27, M15).

    `add` returns a new sheet with a deal's result written in, and who dealt
    it. `totals` is each seat's running plus or minus; `pool` the counters
    waiting for the next winner; `tableaus` the tableaus not yet settled;
    `stake` what the next decided deal is played for; `next_dealer` who deals
    next (M13, T13). Winnings always equal losses:
    ``sum(totals) + pool == 0``, except on a points sheet (``points=True``,
    T23), where only winners score.

    A two-hand tableau, then a win by seat 1, who takes the pool (Hoyle 1897):

    >>> sheet = ScoreSheet(players=2).add(Result("tableau", payments=(0, 0)), dealer=0)
    >>> sheet.totals, sheet.pool, sheet.next_dealer
    ((-1, -1), 2, 1)
    >>> sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)), dealer=1)
    >>> sheet.totals, sheet.pool, sheet.next_dealer
    ((-2, 2), 0, 0)

    The same deals scored Foster's way: nothing paid on the tableau, two
    counters on the next game, the same totals after it:

    >>> sheet = ScoreSheet(players=2, tie="next").add(Result("tableau", payments=(0, 0)))
    >>> sheet.totals, sheet.pool, sheet.tableaus
    ((0, 0), 0, 1)
    >>> sheet.add(Result("win", winner=1, payments=(-1, 1))).totals
    (-2, 2)

    pagat's double stake (T27): nothing paid on the tableau, the next deal
    played for two counters:

    >>> sheet = ScoreSheet(players=2, tie="double").add(Result("tableau", payments=(0, 0)))
    >>> sheet.totals, sheet.stake
    ((0, 0), 2)
    >>> sheet.add(Result("win", winner=1, payments=(-1, 1))).totals
    (-2, 2)

    Three people at a table of two-hand, in points (T23, T24): person 0 deals
    and sits out, persons 1 and 2 play at seats 0 and 1; seat 1 wins and
    scores 23 points:

    >>> sheet = ScoreSheet(players=3, points=True)
    >>> sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)), dealer=0,
    ...                   seats=(1, 2), points=23)
    >>> sheet.totals, sheet.rows[0].winner, sheet.next_dealer
    ((0, 0, 23), 2, 1)
    """

    players: int
    rows: tuple[SheetRow, ...] = attrs.field(default=(), converter=_rows)
    tie: Tie = "pool"
    points: bool = False
    """A points sheet (T23): the winner of a deal scores the points given to `add`; nobody
    pays, and a tableau scores nothing (`tie` is then unused)."""

    def __attrs_post_init__(self) -> None:
        if type(self.players) is not int or self.players < 2:
            raise ValueError(f"a score sheet needs at least two players (got {self.players!r})")
        if type(self.tie) is not str or self.tie not in TIES:
            raise ValueError(f'tie must be "pool", "next" or "double" (got {self.tie!r})')
        if type(self.points) is not bool:
            raise TypeError(f"points must be True or False (got {self.points!r})")
        pool: int = 0
        owed: dict[int, int] = {}
        for i, row in enumerate(self.rows):
            _check_row(self, i, row, pool, owed)
            pool, owed = row.pool, _owed_after(owed, row, self.players)

    @property
    def pool(self) -> int:
        """The counters in the pool, waiting for the next decided deal (T13, ``tie="pool"``;
        always 0 under ``tie="next"`` and on a points sheet)."""
        return self.rows[-1].pool if self.rows else 0

    @property
    def tableaus(self) -> int:
        """How many tableaus the next decided deal settles: those since the last win (T13).

        An abandoned deal (M11) settles nothing and leaves them waiting.
        """
        count = 0
        for row in reversed(self.rows):
            if row.outcome is Outcome.WIN:
                break
            count += row.outcome is Outcome.TABLEAU
        return count

    @property
    def stake(self) -> int:
        """What the next decided deal is played for, as a multiple of its own stake: 1, or
        under ``tie="double"`` 2 for one tableau before it, doubled for each further one
        (T27: 2, 4, 8, …).

        >>> tableau = Result("tableau", payments=(0, 0))
        >>> ScoreSheet(2, tie="double").add(tableau).add(tableau).stake
        4
        """
        if self.tie != "double" or self.points:
            return 1
        return 1 << self.tableaus

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's running plus or minus (on a points sheet, each one's points)."""
        totals = [0] * self.players
        for row in self.rows:
            for seat, change in enumerate(row.changes):
                totals[seat] += change
        return tuple(totals)

    @property
    def balanced(self) -> bool:
        """The washbook check (M12, p. 33): total winnings equal total losses plus the pool.

        A points sheet (T23) has no losses: it is balanced when no one has less than
        nothing.
        """
        if self.points:
            return all(t >= 0 for t in self.totals)
        return sum(self.totals) + self.pool == 0

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next deal: the player after the last row's dealer, or None when that
        row (or an empty sheet) records no dealer.

        The deal passes every deal, tableaus included, to the dealer's left, the
        next seat up: in Conquian for two to the other player (Hoyle 1897 "Showing":
        "The deal passes from one player to the other in rotation"; Foster p. 55:
        after a tableau the cards are "dealt by the one who was the non-dealer"),
        with more seats as play passes (T16), in Cooncan as law 8 says (M13); with
        three at a table of two-hand to the left too (T24).

        >>> sheet = ScoreSheet(3).add(Result("abandoned", payments=(0, 0, 0)), dealer=2)
        >>> sheet.next_dealer
        0
        """
        if not self.rows or self.rows[-1].dealer is None:
            return None
        return (self.rows[-1].dealer + 1) % self.players

    @property
    def dealt(self) -> tuple[int, ...]:
        """How many deals each player has dealt, by the rows that record their dealer."""
        counts = [0] * self.players
        for row in self.rows:
            if row.dealer is not None:
                counts[row.dealer] += 1
        return tuple(counts)

    @property
    def rounds(self) -> int:
        """The rounds of deals complete: how often every player has dealt (M15, law 5).

        Foster's "game" is one round: every player has dealt once.

        >>> sheet = ScoreSheet(2)
        >>> for dealer in (0, 1, 0):
        ...     sheet = sheet.add(Result("tableau", payments=(0, 0)), dealer=dealer)
        >>> sheet.dealt, sheet.rounds, sheet.round_complete
        ((2, 1), 1, False)
        """
        return min(self.dealt)

    @property
    def round_complete(self) -> bool:
        """Whether every player has dealt equally often, at least once (M15): a round of
        deals has just ended."""
        dealt = self.dealt
        return dealt[0] > 0 and len(set(dealt)) == 1

    def add(
        self,
        result: Result,
        dealer: int | None = None,
        *,
        seats: Iterable[int] | None = None,
        points: int | None = None,
    ) -> ScoreSheet:
        """The sheet with one more deal written in, dealt by `dealer` if given.

        A win pays as the result says. Under ``tie="pool"`` the winner also
        takes the pool, and a tableau puts one counter per player into it. Under
        ``tie="next"`` a tableau pays nothing, and a win makes every player of each
        tableau since the last win pay the winner one counter for it (T13; the
        winner owes himself nothing). Under ``tie="double"`` a tableau pays nothing,
        and a win pays the result's payments times `stake` (T27). An abandoned
        deal (M11) writes a row of zeros and leaves the tableaus waiting.

        `seats` names the people who played the deal, by seat of the deal, when
        they are not every player in order (T24: the dealer sits out); only they
        pay the deal's stake and put into the pool. Under ``tie="next"`` a person
        who played a tableau still owes its counter when he sits out the deal that
        settles it, and one who sat the tableau out owes nothing for it (the
        library's reading of T24). On a points sheet (T23) `points` is what the
        winner of a won deal scores.

        Three people, Foster's "next" (T24): person 0 deals and sits out, persons
        1 and 2 tie; person 1 deals, person 2 beats person 0. Persons 1 and 2 owe
        the tableau's counters, person 0 only the deal he lost, as with the pool:

        >>> tableau = Result("tableau", payments=(0, 0))
        >>> win = Result("win", winner=0, payments=(1, -1))
        >>> sheet = ScoreSheet(3, tie="next").add(tableau, dealer=0, seats=(1, 2))
        >>> sheet.add(win, dealer=1, seats=(2, 0)).totals
        (-1, -1, 2)
        """
        if not isinstance(result, Result):
            raise TypeError(f"result must be a Result (got {type(result).__name__})")
        people = self._people(result, seats)
        if dealer is not None:
            _check_seat("dealer", dealer, self.players)
        won = result.outcome is Outcome.WIN and result.winner is not None
        winner = people[result.winner] if won and result.winner is not None else None
        changes = [0] * self.players
        pool = self.pool
        # T13, T24 under "next": who owes the winner of this deal for the tableaus before it.
        before = _owed(self.rows, self.players) if self.tie == "next" and not self.points else {}
        if self.points:
            if won:
                if type(points) is not int or points < 0:
                    raise ValueError(
                        f"a points sheet needs the points a won deal scores (got {points!r})"
                    )
                assert winner is not None
                changes[winner] = points
            elif points not in (None, 0):
                raise ValueError(f"a deal with no winner scores no points (got {points!r})")
        else:
            if points is not None:
                raise ValueError("points are given only to a points sheet (T23)")
            stake = self.stake if winner is not None else 1
            for seat, payment in enumerate(result.payments):
                changes[people[seat]] += payment * stake
            if winner is not None:
                if self.tie == "pool":
                    changes[winner] += pool
                    pool = 0
                elif self.tie == "next":
                    for person, owed in before.items():
                        if person != winner:
                            changes[person] -= owed
                            changes[winner] += owed
            elif result.outcome is Outcome.TABLEAU and self.tie == "pool":
                for person in people:
                    changes[person] -= 1
                pool += len(people)
        row = SheetRow(
            result.outcome,
            winner,
            tuple(changes),
            pool,
            dealer,
            None if seats is None else people,
        )
        # Only the new row is checked: the rows before it were checked as they were added.
        _check_row(self, len(self.rows), row, self.pool, before)
        sheet = object.__new__(ScoreSheet)
        object.__setattr__(sheet, "players", self.players)
        object.__setattr__(sheet, "rows", (*self.rows, row))
        object.__setattr__(sheet, "tie", self.tie)
        object.__setattr__(sheet, "points", self.points)
        return sheet

    def _people(self, result: Result, seats: Iterable[int] | None) -> tuple[int, ...]:
        """The person at each seat of the deal: `seats` checked, or every player in order."""
        if seats is None:
            if len(result.payments) != self.players:
                raise ValueError(
                    f"the result has {len(result.payments)} payments for {self.players} players "
                    "(give seats= to name the players of a deal not every player played)"
                )
            return tuple(range(self.players))
        if isinstance(seats, (str, bytes)) or not isinstance(seats, Iterable):
            raise TypeError(f"seats must be a sequence of players (got {type(seats).__name__})")
        people = tuple(seats)
        for person in people:
            _check_seat("seats", person, self.players)
        if len(set(people)) != len(people) or len(people) < 2:
            raise ValueError(f"seats must name two or more different players (got {people})")
        if len(people) != len(result.payments):
            raise ValueError(
                f"the result has {len(result.payments)} payments for {len(people)} seats"
            )
        return people

    def to_json(self) -> str:
        """The sheet as JSON text (format ``conquian-sheet``, version 1), one row per line.

        >>> sheet = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), dealer=1)
        >>> ScoreSheet.from_json(sheet.to_json()) == sheet
        True
        """
        return pretty(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """The sheet as Python data: the ``conquian-sheet`` document that `to_json` writes.

        >>> sheet = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), dealer=1)
        >>> sheet.to_dict()["format"], sheet.to_dict()["players"]
        ('conquian-sheet', 2)
        """
        return {"format": FORMAT_SHEET, "version": 1, **sheet_data(self)}

    @classmethod
    def from_json(cls, text: str | bytes) -> ScoreSheet:
        """Read a score sheet from its JSON, checked (E2): `RecordError` lists every problem.

        Each row must balance as `add` would have written it (M12), its seats and
        dealer must be players, and the limits are those of records.

        >>> ScoreSheet.from_json('{"format": "conquian-sheet", "version": 1, "players": 1}')
        Traceback (most recent call last):
        ...
        conquian.errors.RecordError: invalid score sheet: rows: missing; tie: missing; \
points: missing; players: expected an integer of at least 2 (got the number 1)
        """
        problems = Problems()
        r = Reader(problems)
        data = loads(text, "score sheet", problems)
        if problems or not read_format(data, FORMAT_SHEET, r):
            raise problems.error("score sheet")
        for key in data:
            if key not in ("format", "version", *_SHEET_FIELDS):
                r.add(f"{short(key)}: unknown field")
        sheet = read_sheet({k: v for k, v in data.items() if k in _SHEET_FIELDS}, "", r)
        if sheet is None or problems:
            raise problems.error("score sheet")
        return sheet


_SHEET_FIELDS = ("players", "rows", "tie", "points")
_ROW_FIELDS = ("outcome", "winner", "changes", "pool", "dealer")


def _owed(rows: tuple[SheetRow, ...], players: int) -> dict[int, int]:
    """What each person owes the next winner under ``tie="next"``, by person (those who owe
    nothing left out): one counter for each tableau since the last win that he played
    (T13, T19; T24: not one he sat out)."""
    start = len(rows)  # a win settles every tableau before it: read from the last one on
    while start and rows[start - 1].outcome is not Outcome.WIN:
        start -= 1
    owed: dict[int, int] = {}
    for row in rows[start:]:
        owed = _owed_after(owed, row, players)
    return owed


def _owed_after(owed: dict[int, int], row: SheetRow, players: int) -> dict[int, int]:
    """`_owed` after one more row: a win settles every tableau, a tableau adds one counter
    for each of its players, an abandoned deal (M11) changes nothing."""
    if row.outcome is Outcome.WIN:
        return {}
    if row.outcome is Outcome.TABLEAU:
        owed = dict(owed)
        for person in range(players) if row.seats is None else row.seats:
            owed[person] = owed.get(person, 0) + 1
    return owed


def _check_row(sheet: ScoreSheet, i: int, row: SheetRow, pool: int, owed: dict[int, int]) -> None:
    """Raise `ValueError` if row `i` could not have been written by `add` (M12, T13, T23,
    T24, T27); `owed` is what each person owed for tableaus before it (``tie="next"``)."""
    if len(row.changes) != sheet.players:
        raise ValueError(f"row {i} has {len(row.changes)} entries, not {sheet.players}")
    if row.dealer is not None:
        _check_seat(f"row {i}'s dealer", row.dealer, sheet.players)
    if row.winner is not None:
        _check_seat(f"row {i}'s winner", row.winner, sheet.players)
    if row.seats is not None:
        for person in row.seats:
            _check_seat(f"row {i}'s seats", person, sheet.players)
        if len(set(row.seats)) != len(row.seats) or len(row.seats) < 2:
            raise ValueError(f"row {i}'s seats must name two or more different players")
        if row.winner is not None and row.winner not in row.seats:
            raise ValueError(f"row {i}'s winner did not play that deal")
        # T24 under "next": who sits out the deal that settles a tableau he played still
        # owes its counter; otherwise one who did not play the deal pays nothing in it.
        settles = sheet.tie == "next" and row.winner is not None and not sheet.points
        for p in range(sheet.players):
            due = -owed.get(p, 0) if settles else 0
            if p not in row.seats and row.changes[p] != due:
                raise ValueError(
                    f"row {i}: player {p} did not play that deal, so his score changes by "
                    f'{due} (T24; under tie="next" one counter for each tableau he played), '
                    f"not {row.changes[p]}"
                )
    if sheet.points:
        others = [c for p, c in enumerate(row.changes) if p != row.winner]
        if row.pool or any(others) or min(row.changes) < 0:
            raise ValueError(f"row {i}: on a points sheet only the winner scores (T23)")
        return
    if sum(row.changes) + row.pool - pool != 0:
        raise ValueError(f"row {i} does not balance: winnings must equal losses (M12)")
    if sheet.tie != "pool" and row.pool:
        raise ValueError(f'row {i} has a pool, which tie="{sheet.tie}" never has (T13, T27)')


def sheet_data(sheet: ScoreSheet) -> dict[str, Any]:
    """A score sheet's fields as JSON data (`ScoreSheet.to_json` adds format and version)."""
    rows = []
    for row in sheet.rows:
        data: dict[str, Any] = {
            "outcome": row.outcome.value,
            "winner": row.winner,
            "changes": list(row.changes),
            "pool": row.pool,
            "dealer": row.dealer,
        }
        if row.seats is not None:
            data["seats"] = list(row.seats)
        rows.append(data)
    return {"players": sheet.players, "tie": sheet.tie, "points": sheet.points, "rows": rows}


def read_sheet(data: object, path: str, r: Reader) -> ScoreSheet | None:
    """A score sheet from its JSON data (as `sheet_data` writes it), or None after adding
    each problem to `r` with its field under `path`."""
    pre = f"{path}." if path else ""
    before = len(r.problems)
    fields = r.fields(data, path, _SHEET_FIELDS)
    if fields is None:
        return None
    players = None
    if "players" in fields:
        players = r.integer(fields["players"], f"{pre}players", 2)
        if players is not None and players > MAX_SHEET_PLAYERS:
            r.add(f"{pre}players: {players}, more than the limit of {MAX_SHEET_PLAYERS}")
            players = None
    if "tie" in fields:
        r.choice(fields["tie"], f"{pre}tie", TIES)
    if "points" in fields:
        r.choice(fields["points"], f"{pre}points", (True, False))
    items = None
    if "rows" in fields:
        items = r.array(fields["rows"], f"{pre}rows", MAX_ROWS, "rows")
    if players is None or items is None or len(r.problems) > before:
        return None
    rows = [_read_row(v, f"{pre}rows[{i}]", players, r) for i, v in enumerate(items)]
    if len(r.problems) > before:
        return None
    try:
        return ScoreSheet(
            players, [row for row in rows if row is not None], fields["tie"], fields["points"]
        )
    except (TypeError, ValueError) as e:
        r.add(f"{pre}rows: {e}")
        return None


def _read_row(value: object, path: str, players: int, r: Reader) -> SheetRow | None:
    row = r.fields(value, path, _ROW_FIELDS, ("seats",))
    if row is None or any(k not in row for k in _ROW_FIELDS):
        return None
    before = len(r.problems)
    r.choice(row["outcome"], f"{path}.outcome", ("win", "tableau", "abandoned"))
    winner = r.seat(row["winner"], f"{path}.winner", players, null=True)
    dealer = r.seat(row["dealer"], f"{path}.dealer", players, null=True)
    pool = r.integer(row["pool"], f"{path}.pool")
    changes = r.array(row["changes"], f"{path}.changes", players + 1, "changes")
    if changes is not None:
        if len(changes) != players:
            r.add(f"{path}.changes: {len(changes)} entries for {players} players")
        changes = [r.integer(c, f"{path}.changes[{k}]", -MAX_INT) for k, c in enumerate(changes)]
    seats = None
    if "seats" in row:
        seats = r.array(row["seats"], f"{path}.seats", players, "seats")
        if seats is not None:
            seats = [r.seat(s, f"{path}.seats[{k}]", players) for k, s in enumerate(seats)]
    if len(r.problems) > before or changes is None:
        return None
    if (row["outcome"] == "win") != (winner is not None):
        r.add(f"{path}: a row has a winner exactly when its outcome is a win")
        return None
    assert pool is not None and is_int(pool)
    return SheetRow(
        Outcome(row["outcome"]),
        winner,
        tuple(c for c in changes if c is not None),
        pool,
        dealer,
        None if seats is None else tuple(s for s in seats if s is not None),
    )
