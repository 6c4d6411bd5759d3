"""Action ids for Coo-Can (rules K3–K5, K9): a fixed bijection between actions and integers.

For learning frameworks and adapters (``conquian.ActionSpace``, the *Action ids and
observations* reference page): the layout depends on nothing but the game, so the ids
never change. A meld is
named by the cards it lays and the table index it goes onto; a table holds
at most 26 melds (104 cards, four or more in each, K4).

====================  ==============================================  ======
ids                    action                                          count
====================  ==============================================  ======
0                      ``draw``                                           1
1 – 52                 ``take c``, by the card's index                   52
53 – 104               ``discard c``, by the card's index                52
105 – 407              a new meld: 247 groups of four (13 ranks × 19      303
                       choices of suits, copies counted once), 40
                       four-card straight flushes, 16 Cooches (K4, K9)
408 – 9221             onto meld ``@i`` (i < 26): 52 single cards, then  8814
                       the 287 sets of four (K5), 339 ids for each i
====================  ==============================================  ======

>>> ids = ActionIds()
>>> len(ids), ids.index(parse_action("meld 5H 6H 7H 8H @2"))
(9222, 1409)
>>> str(ids.action(1409))
'meld 5H 6H 7H 8H @2'
"""

from __future__ import annotations

import itertools

from ..actions import Action, Discard, Draw, Meld, Take
from ..cards import Card, Suit, card_at
from .melds import COOCH, RUNS, SET

__all__ = ["MAX_MELDS", "ActionIds"]

MAX_MELDS = 26
"""The most melds a Coo-Can table can hold: 104 cards, at least four in each (K4)."""


def _groups() -> list[tuple[Card, ...]]:
    """Every group of four, by rank then the choice of suits (copies counted once)."""
    out = []
    for rank in range(1, 14):
        two_packs = [card_at(suit * 13 + rank - 1) for suit in Suit for _ in range(2)]
        out.extend(sorted(set(itertools.combinations(two_packs, SET))))
    return out


_SETS = tuple((*_groups(), *(RUNS[s][SET][low] for s in range(4) for low in range(1, 15 - SET))))
_NEW = (*_SETS, *(RUNS[s][COOCH][low] for s in range(4) for low in range(1, 15 - COOCH)))
_NEW_AT = 105
_ONTO_AT = _NEW_AT + len(_NEW)
_ONTO_EACH = 52 + len(_SETS)


class ActionIds:
    """The action ids of Coo-Can: `index`, `action`, `len` and `mask` (see the module)."""

    def __init__(self) -> None:
        self._new = {tuple(c.index for c in s): k for k, s in enumerate(_NEW)}
        self._sets = {tuple(c.index for c in s): k for k, s in enumerate(_SETS)}

    def __len__(self) -> int:
        return _ONTO_AT + MAX_MELDS * _ONTO_EACH

    @property
    def families(self) -> tuple[tuple[str, int, int], ...]:
        """Each family of ids: its name, first id and number of ids (the module's table)."""
        return (
            ("draw", 0, 1),
            ("take", 1, 52),
            ("discard", 53, 52),
            ("meld", _NEW_AT, len(_NEW)),
            ("meld onto", _ONTO_AT, MAX_MELDS * _ONTO_EACH),
        )

    def index(self, action: Action) -> int:
        """The id of `action`; `ValueError` for an action Coo-Can never offers."""
        if isinstance(action, Draw):
            return 0
        if isinstance(action, Take):
            return 1 + action.card.index
        if isinstance(action, Discard):
            return 53 + action.card.index
        if isinstance(action, Meld) and not action.shift:
            key = tuple(c.index for c in action.cards if isinstance(c, Card))
            if len(key) == len(action.cards):
                if action.onto is None and key in self._new:
                    return _NEW_AT + self._new[key]
                if action.onto is not None and action.onto < MAX_MELDS:
                    base = _ONTO_AT + action.onto * _ONTO_EACH
                    if len(key) == 1:
                        return base + key[0]
                    if key in self._sets:
                        return base + 52 + self._sets[key]
        raise ValueError(f"'{action}' has no id in Coo-Can")

    def action(self, i: int) -> Action:
        """The action of id `i` (0 ≤ i < len); `ValueError` outside."""
        if not 0 <= i < len(self):
            raise ValueError(f"no Coo-Can action id {i} (0 to {len(self) - 1})")
        if i == 0:
            return Draw()
        if i < 53:
            return Take(card_at(i - 1))
        if i < _NEW_AT:
            return Discard(card_at(i - 53))
        if i < _ONTO_AT:
            return Meld(_NEW[i - _NEW_AT])
        onto, k = divmod(i - _ONTO_AT, _ONTO_EACH)
        return Meld((card_at(k),) if k < 52 else _SETS[k - 52], onto=onto)

    def mask(self, legal: tuple[Action, ...]) -> tuple[int, ...]:
        """0/1 for every id: 1 for the ids of `legal` (a view's or a state's legal actions)."""
        out = [0] * len(self)
        for a in legal:
            out[self.index(a)] = 1
        return tuple(out)
