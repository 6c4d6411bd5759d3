"""Stakes over several deals: the score sheet and the tableau pool (RULES.md T13, M12).

A deal's `Result` says what each seat wins or pays in that deal. A
`ScoreSheet` adds the deals up, one row each, with the running plus or minus
of every seat. In the two-hand game a tableau puts one counter per player
into the **pool**, which the winner of the next decided deal takes as well
(T13, Hoyle 1897; Foster special law 21).

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

import attrs

from .state import Outcome, Result

__all__ = ["ScoreSheet", "SheetRow"]


@attrs.frozen
class SheetRow:
    """One deal on the score sheet: what each seat won (+) or paid (−), and the pool after it.

    `changes` includes counters put into or taken from the pool.

    >>> row = ScoreSheet(2).add(Result("win", winner=0, payments=(1, -1))).rows[0]
    >>> row.changes, row.won, row.pool
    ((1, -1), 1, 0)
    """

    outcome: Outcome
    winner: int | None
    changes: tuple[int, ...]
    pool: int

    @property
    def won(self) -> int:
        """The points won in this deal, the figure Foster writes in the margin (p. 32)."""
        return sum(c for c in self.changes if c > 0)


def _rows(value: Iterable[SheetRow]) -> tuple[SheetRow, ...]:
    return tuple(value)


@attrs.frozen
class ScoreSheet:
    """A running score over deals, as an immutable value (M12, T13).

    `add` returns a new sheet with a deal's result written in. `totals` is
    each seat's running plus or minus; `pool` the counters waiting for the
    next winner. Winnings always equal losses: ``sum(totals) + pool == 0``.

    A two-hand tableau, then a win by seat 1, who takes the pool:

    >>> sheet = ScoreSheet(players=2).add(Result("tableau", payments=(0, 0)))
    >>> sheet.totals, sheet.pool
    ((-1, -1), 2)
    >>> sheet = sheet.add(Result("win", winner=1, payments=(-1, 1)))
    >>> sheet.totals, sheet.pool
    ((-2, 2), 0)
    """

    players: int
    rows: tuple[SheetRow, ...] = attrs.field(default=(), converter=_rows)

    def __attrs_post_init__(self) -> None:
        if type(self.players) is not int or self.players < 2:
            raise ValueError(f"a score sheet needs at least two players (got {self.players!r})")
        pool = 0
        for i, row in enumerate(self.rows):
            if len(row.changes) != self.players:
                raise ValueError(f"row {i} has {len(row.changes)} entries, not {self.players}")
            if sum(row.changes) + row.pool - pool != 0:
                raise ValueError(f"row {i} does not balance: winnings must equal losses (M12)")
            pool = row.pool

    @property
    def pool(self) -> int:
        """The counters in the pool, waiting for the next decided deal (T13)."""
        return self.rows[-1].pool if self.rows else 0

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

    def add(self, result: Result) -> ScoreSheet:
        """The sheet with one more deal written in.

        A win pays as the result says and the winner also takes the pool; a
        tableau puts one counter per player into the pool; an abandoned deal
        (M11) writes a row of zeros.
        """
        if len(result.payments) != self.players:
            raise ValueError(
                f"the result has {len(result.payments)} payments for {self.players} players"
            )
        changes = list(result.payments)
        pool = self.pool
        if result.outcome is Outcome.TABLEAU:
            changes = [c - 1 for c in changes]
            pool += self.players
        elif result.outcome is Outcome.WIN and result.winner is not None:
            changes[result.winner] += pool
            pool = 0
        row = SheetRow(result.outcome, result.winner, tuple(changes), pool)
        return ScoreSheet(self.players, (*self.rows, row))
