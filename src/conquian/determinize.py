"""Determinization: a whole deal drawn among those a player's view allows (C6).

A searching bot sees a `PlayerView`, not the state. To look ahead it needs
whole states that agree with everything the player saw: `view.sample_state(rng)`
gives one, drawn **uniformly among the deals** (orders of the pack, with the
dealer) that would have shown this player exactly this view, in the position
the view shows, so that ``sample.view(view.player) == view``.

The sample is built from the view alone, in three steps:

1. Read the history as the player saw it and fix every place of the pack
   whose card he knows: his own dealt hand, the cards turned from the stock
   and the order they were turned and buried (T4–T7), the starter and every
   discard (M1, M2), the cards known to be in another hand because they were
   taken from the stock (C6), the turned-over stock of M11. What is left is a
   set of *places* (other players' dealt hands, their draws, the undealt stock
   or pack) and the cards of `view.unseen` to put there.
2. Shuffle `view.unseen` into the unknown places with the seeded shuffle of
   the library (only `random.Random.random` is used, as in `conquian.shuffle`),
   and arrange each player's cards over his places: a whole deck.
3. Build the position the view shows on that deck, without replaying the
   history (the engine's ``sample.position``: `conquian.offer.sample`,
   `conquian.rummy.sample`): the public zones, who acts, the result and the
   history are the view's, the viewer's hand is his, every other seat holds
   its known cards and the unseen cards drawn for it, and the face-down pack
   is what the deck leaves unturned (in Cooncan, or the turned-over stock,
   M11). The state's deck is the drawn deck, so a sample's record replays.

**Cooncan: the position alone.** In a pack with no two equal cards
(three-hand, the joker being one card), every card a seat plays is seen, and no
action of the history depends on a hidden card but through them: a take (M2, M3)
needs the stock, a meld or a force the cards laid (M4, M5, M9), a discard the
card discarded, and no seat but the mover can be left with one card it may not
discard (M2). The deals that give the view are then, for every way the unseen
cards lie in the other hands and in the face-down pack, as many: the cards each
seat played spread over its places (dealt, or drawn face down) before it played
them, its hidden cards over the rest, in as many ways whichever they are; the
starter the history may leave open (M11) changes the past, not the cards now. So
the position drawn uniformly among the deals is a shuffle of `view.unseen`, each
other seat given its unknown cards (seat by seat) and the face-down pack the rest,
top first, or the turned-over stock the view shows (M11); once the deal is over
(C6 Showing) only the pack. `rummy_hidden` draws so, reading no history for it,
and `CooncanView.sample_state` builds the state on those cards
(`conquian.rummy.sample.current`). The double pack's positions are drawn the same
way (the paragraph on the double pack below says why). Such a state has no deck:
the order the cards were dealt and drawn in is not drawn, so it has no record
(writing it refuses, C7). `CooncanView.sample_deal` draws the whole deal by the three steps
above (`events` replays it); from the same random numbers both give the same
cards wherever the full sampler keeps its first draw. Views this draw does not
serve go to `sample_deal`: a view whose unseen cards do not fill its hidden
places (the full sampler says what is wrong), and one where another seat is in
his turn with no more cards than a card has copies (one, or two in the double
pack: he may hold only cards equal to the one he took, and the full sampler
checks that he can finish his turn, M2).

A few deals drawn in step 2 give the view's cards but not its history: one
where a seat now playing (not the viewer) took a card it could not meld or
keep with the hand drawn for it (T3, T8, M2), or, in Cooncan, one whose
starter (left open by the view, M11) gives other known cards than the
view's. Step 3 refuses them and another deck is drawn, as replaying the
history on them would have refused them: the same random numbers give the
same state as dealing the deck and replaying the history, which stays as
the plain reference (`sample_offer` and `sample_rummy` without
``rebuild``; the JSON reader of views uses it, as its check of a view). One
position is not built: a two-hand view while a card borrowed in the turn in
progress is pending, as the view does not show which melds it may not go back
to (T9); that view's sample is drawn by the replay.

Because the true hidden cards never enter step 1 (only the view does), a
sample cannot favour the real hidden hand: the unseen cards are exchangeable
by construction. A card a player plays must be in his hand by the time he
plays it (Cooncan, where hands grow by drawing): each player's cards go to
his places latest deadline last, each to a place drawn among those still
free before its deadline, which is uniform over the arrangements that allow
the history (the sets of places a card may take are nested).

In the double pack, where each card has two equal copies, the copies are told
apart by what the history asks of them: a seat's copy played first goes to a
place filled before the action that plays it, a copy it holds to any place left.
Counted as deals (sequences of cards) this is not exactly uniform: where the twin
of a card a seat played from its unseen places lies (in its hand or elsewhere)
changes how many deals give the position, and the draw does not weigh that.
Every position and deal the view allows can still be drawn, and nothing about
the true hidden cards enters the draw. This is the library's choice: drawing
exactly uniformly over sequences of cards by rejection would take thousands of
draws a sample late in a long double-pack deal. The two-hand game and
three-hand Cooncan have no equal cards, and there the draw is exactly uniform.
Placing the cards never fails for one shuffle of step 2 and succeeds for
another: the deadlines a seat's places must meet are those of the cards it
played, all seen, the unseen cards it holds adding places with none, and
whether a starter left open (M11) gives the view's known cards does not hang on
the shuffle either. So the position this draws is the shuffle of step 2 alone,
and `sample_state` draws it without the history, as in three-hand;
`sample_deal` draws the deal behind it.

With trade rounds (Conquian's ``trades``, T21) what is unknown is both the deal and the
other players' hidden choices of the rounds, and the draw is **uniform over the pairs of a
deal and the others' choices** that give the view: every such pair is as likely as any
other. The hands drawn are those after the rounds; the rounds are then undone from the
last (`OfferDeals`): in each, the viewer's hand gives back the card he received and his
left neighbour's the card he gave, and every other hand a card its right neighbour chose,
any of its cards (each hand holds the hand size then, so every choice counts the same).
Only the cards the viewer gave are bound (each in his neighbour's hand right after its
round, and one he has not seen since in some other hand, never in the stock), so the
draw counts the choices on where those cards are, and places them
and undoes each round with the chances of those counts: no draw is refused for the
rounds, whatever their number. The sample's deck is the order dealt, before the trades,
and its history holds the choices drawn where the view hides them.

When a deal is over every hand is shown (C6 Showing): a view that holds the
hands (`hands`) puts each seat's remaining cards in its hand, and only the
undealt stock or pack is drawn.

The draws live with their engines: `conquian.offer.sampling` (the offer
game), `conquian.rummy.sampling` (Cooncan) and `conquian.coocan.posterior`
(Coo-Can), over the shared steps of `conquian._sampling`; this module
describes them and names them. A sampler asks the deal of a view's game of
the table of games (`conquian.state.game`) when a sample is drawn, so that
the views can offer `sample_state` as a method without importing their
states.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ._sampling import shuffled
from .errors import DeterminizationError
from .offer.sampling import OfferDeals, offer_samples, sample_offer
from .rummy.sampling import rummy_hidden, rummy_samples, sample_rummy
from .state.base import PlayerView, State

# The shared shuffle by its former name (`conquian.agents.reading` shuffles as samples do).
_shuffled = shuffled

# The names of before the engines' vocabulary (offer, rummy), which programs keep using.
TwoHandDeals = OfferDeals
sample_two_hand = sample_offer
two_hand_samples = offer_samples
sample_cooncan = sample_rummy
cooncan_samples = rummy_samples
cooncan_hidden = rummy_hidden

__all__ = [
    "DeterminizationError",
    "OfferDeals",
    "TwoHandDeals",
    "cooncan_hidden",
    "cooncan_samples",
    "offer_samples",
    "rummy_hidden",
    "rummy_samples",
    "sample_cooncan",
    "sample_offer",
    "sample_rummy",
    "sample_state",
    "sample_two_hand",
    "samples",
    "two_hand_samples",
]


def samples(view: PlayerView) -> Callable[[random.Random], State]:
    """Many samples of one view: ``draw = samples(view)``, then ``draw(rng)`` is
    ``view.sample_state(rng)`` (C6), the view's history read once for all of them where
    the view offers it (``view.samples()``, the offer game and Cooncan).

    >>> import random
    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(0)
    >>> draw = samples(view)
    >>> draw(random.Random(1)) == sample_state(view, random.Random(1))
    True
    """
    own: Callable[[], Callable[[random.Random], State]] | None = getattr(view, "samples", None)
    if own is not None:
        return own()
    method: Callable[[random.Random], State] = view.sample_state  # type: ignore[attr-defined]
    return method


def sample_state(view: PlayerView, rng: random.Random) -> State:
    """A whole state drawn uniformly among those that give `view` (C6); see the module.

    The same as ``view.sample_state(rng)``.

    >>> import random
    >>> view = new_game(ConquianRules(), seed=7).apply("pass").view(0)
    >>> sample_state(view, random.Random(1)).view(0) == view
    True
    """
    method: Callable[[random.Random], State] = view.sample_state  # type: ignore[attr-defined]
    return method(rng)
