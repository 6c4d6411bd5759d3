"""Coo-Can, the Cork double-pack game (rules K1–K9; encyclopedia "Coo-Can").

Two packs without jokers, two to six players. The dealer is dealt first and
has 11 cards, the others 10; he opens with a discard. Then each turn the
player draws the top card of the deck (``draw``) or takes the top card of
the discard pile (``take 5H``), makes at most one meld, and discards
(``discard KD``). New melds are sets of four; single cards and sets of four
go onto melds only after one's own first set. The discard that empties a
hand wins; a Cooch (a ten-card straight flush laid at once) pays double.

>>> from conquian.coocan import CooCanRules, deal
>>> from conquian.cards import shuffle
>>> rules = CooCanRules(players=4)
>>> state = deal(rules, shuffle(rules.pack_cards(), 7), dealer=0)
>>> state.current_player, [len(state.hand(p)) for p in range(4)], state.deck_size
(0, [11, 10, 10, 10], 63)
>>> state = state.apply(state.legal_actions()[0])
>>> state.current_player, state.decision, [str(a) for a in state.legal_actions()]
(1, 'draw', ['draw', 'take 9C'])

Where each rule lives (each in one place, named by its id):

- K1 the pack and the deal: `CooCanRules.pack_cards`, `deal`;
- K2 the opening discard, K3 the turn (draw or take, one meld, the discard;
  one card in hand draws only; the card taken is not discarded) and K7
  going out with no dead ends: `CooCanState._generate_legal` and
  `CooCanState._discard`;
- K4 new sets of four, K5 adding after one's own first set, the Cooch of
  K9: `melds` (`new_sets`, `additions`, `cooches`);
- K6 the declarations: hand sizes are public in every view (`CooCanView`);
- K8 the exhausted deck (the pile mixed with the seeded shuffle, `reshuffle_seed`)
  and the turn limit: `CooCanState._discard`; its hidden order: `view.make_view`;
- K9 the scoring and the Cooch: `settle`, `melds.spots`;
- C6 what a player may know: `view.make_view`, `sampling.sample` (its exact
  draw: `posterior`); E1 why an
  action is illegal: `explain.why`; the JSON position and view: `codec`; the game as
  the rest of the package asks it (`COOCAN`): `game`.

Where the article is silent the docstrings say *library's choice*: the card
taken may not be discarded that turn (K3), the reshuffle's seed (K8), the
`turn_limit` (K8), the sampling after a reshuffle (`sampling.sample`).
"""

from ..rules import CooCanRules
from .dealing import deal
from .game import COOCAN, CooCanGame
from .melds import spots
from .state import CooCanState
from .tables import reshuffle_seed, settle
from .view import CooCanView

__all__ = [
    "COOCAN",
    "CooCanGame",
    "CooCanRules",
    "CooCanState",
    "CooCanView",
    "deal",
    "reshuffle_seed",
    "settle",
    "spots",
]
