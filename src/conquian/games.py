"""The games the library plays: `GAMES`, one `Game` per game, by name.

Each engine package owns its games (`conquian.offer.game`,
`conquian.rummy.game`, `conquian.coocan.game`); this module lists them, in
order, in the table of `conquian.state.game`, where the lower layers that
read a game's name (the JSON readers) find them. `find_game` also knows the
older names (aliases), which records and positions written before keep
using; `game_of` gives the game of a rules object.

>>> sorted(GAMES)
['conquian', 'coo-can', 'double-pack', 'three-hand']
>>> game_of(ConquianRules()).name, find_game("two-hand").name
('conquian', 'conquian')
>>> GAMES["three-hand"].rules(players=2)
CooncanRules(variant='three-hand', players=2, jokers=0, stock='closed', splash_bonus=None, \
turn_limit=None)

A new game is one rules class, one engine package with its `Game`, and one
entry in the list below; see the contributors' page "Adding a game or a variant".
"""

from __future__ import annotations

from collections.abc import Mapping

from .coocan import COOCAN
from .offer import CONQUIAN
from .rummy import DOUBLE_PACK, THREE_HAND
from .state.game import Game, find_game, game_of, names_text, register, registered

__all__ = ["GAMES", "Game", "find_game", "game_of", "names_text"]

for _game in (CONQUIAN, THREE_HAND, DOUBLE_PACK, COOCAN):
    register(_game)

GAMES: Mapping[str, Game] = registered()
"""Every game by its name, in the order the games are listed (read-only)."""
