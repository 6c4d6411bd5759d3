"""The rummy engine: Foster's three-hand and double-pack Cooncan (rules M).

A deal is an immutable `CooncanState`; `new_game` makes one with `deal`.
Each turn the player draws the top card of the pack unseen (``draw``) or
takes a face-up card of the stock (``take 5H``), then lays out and adds to
combinations (``meld``, ``force``) as he likes, and ends by discarding one
card face up (``discard KD``), unless he has got rid of every card first,
which wins the deal (M2, M10).

>>> state = new_game(CooncanRules.three_hand(), seed=3)
>>> state.current_player, state.phase, len(state.hand(1)), state.pack_size
(1, 'draw', 7, 30)
>>> [str(a) for a in state.legal_actions()]
['draw', 'take 3D']
>>> state = state.apply("draw")
>>> state.phase, len(state.hand(1))
('play', 8)

Where each rule lives (each in one place, named by its id):

- M1 the packs and the deal: `dealing.deal` (the pack itself is
  `CooncanRules.pack_cards`);
- M2 the turn, with no dead ends (the card taken from the stock may not be
  discarded, so a play that would leave only it is not offered), and M3 the
  closed and open stock: `turn` (`draw_legal`, `play_legal`,
  `can_go_out`), the one list `CooncanState.apply` accepts;
- M4 laying out, M5 adding to one's own (meld) and to another's (force),
  M9 the joker shift: `melds` (`plays`), through `conquian.combos.core`; the
  melding pre-filter `tables.may_meld` skips hands that hold no combination,
  and `melds.Fits` the combinations no card of the hand reaches;
- M6 fixed combinations: the table is only ever added to (`melds.placed`);
  `explain` names it when a borrow is tried;
- M7 scores (`tables.pips`), M8 the splash and M10 going out:
  `CooncanState._settle` and `CooncanState._lay` / `_discard`;
- M11 the exhausted pack (the stock turned over at a draw) and the turn
  limit: `CooncanState._draw` and `CooncanState._discard`;
- M12 the score sheet over several deals: `conquian.scoring`;
- M13 seats and the first deal: `dealing.cut_for_deal`;
- C5 jokers named when played (and their physical card): `tables.physical`,
  `melds`; C6 what a player may know, and every hand shown once the deal is
  over: `view.make_view`; a whole deal drawn from a view: `sample.position`
  builds the position the view shows on a drawn deck
  (its deck drawn by `sampling`); E1 why an action is illegal: `explain.why`;
- the JSON position and view of these games: `codec`; the games as the rest of the
  package asks them (`THREE_HAND`, `DOUBLE_PACK`): `game`.

Where Foster is silent the docstrings say *library's choice*: the card taken
from the stock may not be discarded that turn (M2); a joker at an ace end
may shift (M9); when both end jokers could shift for a card, the low-end one
moves (M9); a joker shift plays exactly one card (M9, law 18); the
`turn_limit` (M11).
"""

from .dealing import Cut, cut_for_deal, deal
from .game import DOUBLE_PACK, THREE_HAND, RummyGame
from .state import CooncanState
from .tables import pips
from .view import CooncanView

__all__ = [
    "DOUBLE_PACK",
    "THREE_HAND",
    "CooncanState",
    "CooncanView",
    "Cut",
    "RummyGame",
    "cut_for_deal",
    "deal",
    "pips",
]
