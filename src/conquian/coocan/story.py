"""The story of a Coo-Can deal as one seat saw it (rules K2–K9, C6): `story`.

`conquian.events.events` gives it for a Coo-Can view. It is read from the
view alone: its public history (`conquian.coocan.public`), its player's own
draws (`CooCanView.draws`), its result and the hands shown at the end. A
card drawn by another player is never named; a card the viewer drew is.
"""

from __future__ import annotations

from ..actions import Discard, Draw, Meld, Take
from ..events import Event
from .melds import COOCH
from .public import read_history
from .view import CooCanView

__all__ = ["story"]

DECLARED = (4, 1)
"""The hand sizes a player announces at the end of his turn (K6)."""


def story(view: CooCanView, since: int | None = None) -> list[Event]:
    """The events after the first `since` actions (None: the whole deal, its dealing too),
    without their viewer.

    - ``deal`` (who deals, no card: there is no starter, K1);
    - ``draw`` (the card named only if the viewer drew it), ``take``,
      ``meld`` (new, or added to a meld ``@i``, K4, K5), ``cooch`` after a
      Cooch (K9), ``discard``;
    - ``declare`` when a turn leaves a hand with four cards or one, and the
      turn before did not (K6);
    - ``reshuffle`` when the deck ran out after a discard and the discard
      pile became the new deck (K8), with the number of its cards (`count`;
      which cards they were the view's `deck_may_hold` tells);
    - at the end ``win`` or ``abandoned``, ``show`` of each hand left (C6
      Showing) and ``pay`` of each loser to the winner (K9).

    >>> from conquian.coocan import CooCanRules, deal
    >>> from conquian.cards import shuffle
    >>> s = deal(CooCanRules(players=2), shuffle(CooCanRules().pack_cards(), 2), dealer=0)
    >>> s = s.apply("discard KD").apply("draw")
    >>> [e.kind for e in story(s.view(0))], [e.cards for e in story(s.view(0))][-1]
    (['deal', 'discard', 'draw'], ())
    """
    pub = read_history(view.rules, view.dealer, view.history)
    me = view.player
    own = iter(view.draws)
    out: list[Event] = []
    if since is None:
        out.append(Event("deal", view.dealer, (), 0))
        since = 0
    last = None
    ended = list(pub.dealt)  # each hand's size at the end of its last turn
    for step in pub.steps:
        seat, action, i = step.seat, step.action, step.index
        drawn = next(own, None) if isinstance(action, Draw) and seat == me else None
        last = step
        told = isinstance(action, Discard) and step.size in DECLARED and step.size != ended[seat]
        if isinstance(action, Discard):
            ended[seat] = step.size
        if i <= since:
            continue
        if isinstance(action, Draw):
            out.append(Event("draw", seat, () if drawn is None else (drawn,), i))
        elif isinstance(action, Take):
            out.append(Event("take", seat, (action.card,), i))
        elif isinstance(action, Meld):
            out.append(Event("meld", seat, action.cards, i, meld=action.onto))
            if action.onto is None and len(action.cards) == COOCH:
                out.append(Event("cooch", seat, (), i))
        elif isinstance(action, Discard):
            out.append(Event("discard", seat, (action.card,), i))
            ends = view.result is not None and i == len(pub.steps)
            if told and not ends:
                out.append(Event("declare", seat, (), i, count=step.size))
            if step.mixed is not None:
                out.append(Event("reshuffle", None, (), i, count=len(step.mixed)))
    result = view.result
    if result is not None and last is not None and last.index > since:
        i = last.index
        out.append(Event(str(result.outcome), result.winner, (), i))
        for q, hand in enumerate(view.hands or ()):
            if hand:  # C6 Showing: what is left in each hand
                out.append(Event("show", q, hand, i))
        for q, paid in enumerate(result.payments):
            if paid < 0:
                out.append(Event("pay", q, (), i, other=result.winner, count=-paid))
    return out
