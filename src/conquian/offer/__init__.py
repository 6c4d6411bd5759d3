"""Conquian for two to four: the offer engine (rules T1–T19, T21, T22).

A deal is a `ConquianState`, made by `conquian.new_game` with `ConquianRules`.
Between turns one card lies face up **on offer** to the player who has **the
say** to it (`state.offer`, `state.offer_origin`, T4). He may take it and meld
it (T8), pass it (T5–T7) or force it onto one of the melds of the player it
would go to next or came from (T10, T18).
A player who took a card, or was forced, is **melding**: `state.offer` is
None, the cards he must still place are `state.pending`, he may borrow from
his own melds (T9), and he ends his turn with a discard or a force. The deal
is won by the first player with one card more than his hand size melded
(T2); it is a tableau when a card must be turned and the stock is empty (T12).

>>> state = new_game(ConquianRules(), seed=5)
>>> state.current_player, state.offer, state.offer_origin, state.stock_size
(1, card('KD'), 'turned', 19)
>>> [str(a) for a in state.legal_actions()]
['take KD', 'pass']
>>> state = state.apply("take KD")      # the pone takes the starter (T11, T5)...
>>> state.offer, state.pending
(None, (card('KD'),))
>>> state = state.apply("meld JD QD KD").apply("discard 2S")    # ...melds it, discards (T8)
>>> state.current_player, state.offer, state.offer_origin
(0, card('2S'), 'discarded')

Where each rule lives:

- T1 pack and deal, T11 first offer: `start.deal` and `dealing` (the pack is
  `conquian.rules.ConquianRules.pack_cards`);
- T2 goal (and T10, winning by a force): `turn.won`, asked after every meld and force;
- T3 cards never enter the hand: no transition puts a card in a hand, and
  `say.usable` decides whether a card on offer could reach the table this turn;
- T4 the say, T5 a card he turned, T6 a card passed to him, T7 a discard:
  `say.say_actions` (what may be done with the card on offer) and
  `ConquianState.apply` (passing: burying and turning);
- T8 melding and laying down from the hand, T9 borrowing: `turn.turn_moves`,
  the one list of the melds and borrows a player may make, used both for the
  legal actions and for the search of `turn.finishable`;
- the ends of a turn, for bots: `search.turn_finishes` (`turn.turn_ends`);
- no dead ends: `turn.finishable`, the search of the rest of a turn, with the
  pruning conditions of `shortcuts` (each pinned to the plain search);
- T10 forcing: `say.say_actions` (a card on offer), `turn.melding_actions`
  (a hand card in place of a discard) and `ConquianState.apply`;
- T12 tableau: `ConquianState.apply` (a pass with no card left to turn);
- T13 stakes: the deal's `Result`, from `dealing.results` (one counter, nothing on a tableau);
  the pool carried over deals lives in `conquian.scoring`;
- T14 sequence length: `conquian.combos.core.Order.of` with the rules'
  ``max_sequence``, which every combination question of `tables` goes through;
- T20 the full pack: `tables.sequence_order`, the order ``"full"`` (52 cards, the
  ace low only) for ``pack="standard"``;
- T26 the ace high as well: `tables.sequence_order` with ``ace="both"`` (the
  orders ``"spanish-both"`` and ``"standard"``), read by `tables.Tables` once, and
  `tables.combination` (a sequence of the ace and the king without the two ends
  with the ace);
- T16 seats, hands and deal: `ConquianRules.players`, `dealing.deal_positions`
  and `start.deal`; the player on the left: `board.left_of` (`Deal.left`);
- T17 the say with more seats: `ConquianState.apply` (a pass or a discard goes
  to the left neighbour); T18 forcing with more seats: the victim given to
  `say.say_actions` and `turn.melding_actions` by `ConquianState.legal_actions`;
- T21 trading: the trade rounds of `start.deal` and `trade` (each card chosen,
  then every card moved at once, applied by `ConquianState.apply`), what each seat sees of them in
  `ConquianState.view` (`conquian.offer.trading`);
- T19 stakes with more seats: `dealing.results` (one counter
  from each loser), and showing every hand in `ConquianState.view`;
- T15 irregularities (misdeals, exposed cards: Foster's special laws 9–12)
  cannot happen in an engine, so there is nothing to enforce;
- C6 what a player may know: `view.ConquianView`, made by `ConquianState.view`;
  its observation for learning, written from the board's card masks: `observe`;
  a whole deal drawn from a view: `sampling` draws the deck (with the trade
  rounds undone by `untrade`, T21) and `sample.position` builds the position
  the view shows on it; what each seat sees of the trade rounds: `trading`;
- E1 illegal actions: `ConquianState.apply`, with the reasons of `explain`.

The modules, in the order they build on each other: `board` (cards, melds and
a turn as ints), `tables` (what the rules' pack and options give, built once
per rule set and bounded in number), `shortcuts` (pruning conditions),
`turn` (T2, T8, T9, no dead ends), `say` (T3–T7, T10), `explain` (E1),
`view` (C6), `dealing` (what stays the same over a deal), `trade` (T21), `state` (the state),
`start` (the deal itself), `trading`, `untrade` and `sampling` (the deck drawn behind a
view, C6), `sample` (a view's position on a drawn deck, C6), `search` (the
ends of a turn, for bots), `observe` (the observation written from the state, for
learning environments), `codec` (positions
and views as JSON, for the formats' shared driver), and `game` (`CONQUIAN`, the game
as the rest of the package asks it). The plain statement of T8, T9
and the no-dead-end rule, with which every shortcut is checked, is the oracle
of the test suite (``tests/oracles/offer.py``).
"""

from .game import CONQUIAN, OfferGame
from .search import turn_finishes
from .start import deal, deal_indices
from .state import ConquianState
from .view import ConquianView, Origin

__all__ = [
    "CONQUIAN",
    "ConquianState",
    "ConquianView",
    "OfferGame",
    "Origin",
    "deal",
    "deal_indices",
    "turn_finishes",
]
