"""Stakes over several deals: the score sheet and the tableau (rules T13, M12, M13).

A deal's `Result` says what each seat wins or pays in that deal. A
`ScoreSheet` adds the deals up, one row each, with the running plus or minus
of every seat, and who dealt each deal. A two-hand tableau is scored in one
of two ways (T13):

- ``tie="pool"`` (the default, Hoyle 1897 "Stakes" and "Showing"): each
  player puts one counter in the **pool**, and the winner of the next decided
  deal takes the pool as well as his adversary's counter;
- ``tie="next"`` (Foster p. 55 and special law 21): nothing is paid on a
  tableau, which "goes to the winner of the next game": the next decided
  deal's loser pays one counter more for each tableau before it.

Both give the same totals once the next deal is decided; in between, the
pool holds what Foster's reading has not yet paid.

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
from typing import Literal

import attrs

from .state import Outcome, Result

__all__ = ["ScoreSheet", "SheetRow"]

Tie = Literal["pool", "next"]
"""How a tableau is scored (T13): Hoyle's pool or Foster's "goes to the next game"."""


@attrs.frozen
class SheetRow:
    """One deal on the score sheet: what each seat won (+) or paid (−), the pool after it,
    and who dealt it (None when not recorded).

    `changes` includes counters put into or taken from the pool (``tie="pool"``)
    and the counters owed for earlier tableaus (``tie="next"``).

    >>> row = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1)), dealer=1).rows[0]
    >>> row.changes, row.won, row.pool, row.dealer
    ((1, -1), 1, 0, 1)
    """

    outcome: Outcome
    winner: int | None
    changes: tuple[int, ...]
    pool: int
    dealer: int | None = None

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
    """A running score over deals, as an immutable value (M12, T13).

    `add` returns a new sheet with a deal's result written in, and who dealt
    it. `totals` is each seat's running plus or minus; `pool` the counters
    waiting for the next winner; `tableaus` the tableaus not yet settled;
    `next_dealer` who deals next (M13, T13). Winnings always equal losses:
    ``sum(totals) + pool == 0``.

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
    """

    players: int
    rows: tuple[SheetRow, ...] = attrs.field(default=(), converter=_rows)
    tie: Tie = "pool"

    def __attrs_post_init__(self) -> None:
        if type(self.players) is not int or self.players < 2:
            raise ValueError(f"a score sheet needs at least two players (got {self.players!r})")
        if type(self.tie) is not str or self.tie not in ("pool", "next"):
            raise ValueError(f'tie must be "pool" or "next" (got {self.tie!r})')
        pool = 0
        for i, row in enumerate(self.rows):
            if len(row.changes) != self.players:
                raise ValueError(f"row {i} has {len(row.changes)} entries, not {self.players}")
            if sum(row.changes) + row.pool - pool != 0:
                raise ValueError(f"row {i} does not balance: winnings must equal losses (M12)")
            if self.tie == "next" and row.pool:
                raise ValueError(f'row {i} has a pool, which tie="next" never has (T13)')
            if row.dealer is not None:
                _check_seat(f"row {i}'s dealer", row.dealer, self.players)
            pool = row.pool

    @property
    def pool(self) -> int:
        """The counters in the pool, waiting for the next decided deal (T13, ``tie="pool"``;
        always 0 under ``tie="next"``)."""
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
    def totals(self) -> tuple[int, ...]:
        """Each seat's running plus or minus."""
        totals = [0] * self.players
        for row in self.rows:
            for seat, change in enumerate(row.changes):
                totals[seat] += change
        return tuple(totals)

    @property
    def balanced(self) -> bool:
        """The washbook check (M12, p. 33): total winnings equal total losses plus the pool."""
        return sum(self.totals) + self.pool == 0

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next deal: the player after the last row's dealer, or None when that
        row (or an empty sheet) records no dealer.

        The deal passes every deal, tableaus included, to the dealer's left, the
        next seat up: in Conquian for two to the other player (Hoyle 1897 "Showing":
        "The deal passes from one player to the other in rotation"; Foster p. 55:
        after a tableau the cards are "dealt by the one who was the non-dealer"),
        with more seats as play passes (T16), in Cooncan as law 8 says (M13).

        >>> sheet = ScoreSheet(3).add(Result("abandoned", payments=(0, 0, 0)), dealer=2)
        >>> sheet.next_dealer
        0
        """
        if not self.rows or self.rows[-1].dealer is None:
            return None
        return (self.rows[-1].dealer + 1) % self.players

    def add(self, result: Result, dealer: int | None = None) -> ScoreSheet:
        """The sheet with one more deal written in, dealt by `dealer` if given.

        A win pays as the result says. Under ``tie="pool"`` the winner also
        takes the pool, and a tableau puts one counter per player into it. Under
        ``tie="next"`` a tableau pays nothing, and a win makes every loser pay one
        counter more to the winner for each tableau since the last win (T13). An
        abandoned deal (M11) writes a row of zeros and leaves the tableaus waiting.
        """
        if not isinstance(result, Result):
            raise TypeError(f"result must be a Result (got {type(result).__name__})")
        if len(result.payments) != self.players:
            raise ValueError(
                f"the result has {len(result.payments)} payments for {self.players} players"
            )
        if dealer is not None:
            _check_seat("dealer", dealer, self.players)
        changes = list(result.payments)
        pool = self.pool
        if result.outcome is Outcome.WIN and result.winner is not None:
            if self.tie == "pool":
                changes[result.winner] += pool
                pool = 0
            else:
                owed = self.tableaus
                changes = [c - owed for c in changes]
                changes[result.winner] += owed * self.players
        elif result.outcome is Outcome.TABLEAU and self.tie == "pool":
            changes = [c - 1 for c in changes]
            pool += self.players
        row = SheetRow(result.outcome, result.winner, tuple(changes), pool, dealer)
        return ScoreSheet(self.players, (*self.rows, row), self.tie)
