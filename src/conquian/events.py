"""What happened, as one seat saw it, and what the player to move is asked (rule C6).

`events(view, since)` tells the story of a deal from a `PlayerView` alone: one
`Event` per thing that happened after the first `since` actions, or in the whole
deal with `since` None, its dealing included (a take, a pass
and the card it turned, a burial, a meld, a force, a draw, the end and the
hands shown), each with the seat that did it, the cards that seat's viewer
may know, an English line (``str(event)``) and a JSON document
(`Event.to_json`). A card the viewer may not know is never named: a card
drawn unseen from the pack is "a card", even to its drawer (his hand shows
it); a card turned from the two-hand stock is named, since everyone saw it
face up (C6), and so is a buried card, which was face up before burial.

How it is done: the view's history is replayed on a deal drawn from the view
(`PlayerView.sample_state`, seeded, so the same view always tells the same
story), and each step is read from the *viewer's* views of that replay, and
from their public fields only (the card on offer, the buried cards, the
stock, the table, the result). Everything public at a step is the same in
every deal that gives the view, so the story is the true one. A Coo-Can
story is read from the public history and the viewer's own draws instead
(`conquian.coocan.story`): its deck is mixed again from the discard pile
(K8), and a sample of its view is not a deal that could be replayed. There a
draw by the viewer names his card, as his `draws` hold it.

`decision_of(state_or_view)` names what the player to move is asked:
``"trade"``, ``"say"`` or ``"meld"`` in the offer game (Conquian), ``"draw"``
or ``"play"`` in the rummy games; None once the deal is over.

>>> state = new_game(ConquianRules(), seed=7)
>>> state = state.apply("pass").apply("pass")
>>> for event in events(state.view(1)):
...     print(event)
Seat 0 deals; QC is turned, on offer to you.
You pass QC to seat 0.
Seat 0 refuses QC: it is buried.
Seat 0 turns 5S from the stock.
>>> decision_of(state), decision_of(state.view(1))
('say', 'say')
"""

from __future__ import annotations

import json
import random
from typing import Any, Literal

import attrs

from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, Trade
from .cards import Face
from .rules import Rules
from .state.game import game_of

# States and views are typed loosely here: their `decision` and `events` call this module,
# so it does not import them back. `State` and `PlayerView` below mean those.
State = Any
PlayerView = Any

__all__ = ["DECISIONS", "KINDS", "Decision", "Event", "decision_of", "events"]

Decision = Literal["trade", "say", "meld", "draw", "play"]
"""What the player to move is asked (DESIGN: the fixed set)."""
DECISIONS: tuple[Decision, ...] = ("trade", "say", "meld", "draw", "play")
"""Every decision, offer game first."""

KINDS = (
    "deal",
    "trade",
    "receive",
    "take",
    "pass",
    "bury",
    "turn",
    "meld",
    "cooch",
    "borrow",
    "force",
    "discard",
    "declare",
    "draw",
    "new_pack",
    "reshuffle",
    "win",
    "tableau",
    "abandoned",
    "show",
    "pay",
)
"""Every `Event.kind`, in the order of a deal."""


def _offers(rules: Rules) -> bool:
    """Whether a card lies on offer between turns in this game (T4: Conquian), rather than
    a player drawing (M2, K3)."""
    return "offer" in game_of(rules).zones


_VERBS = {
    "deal": "deals",
    "trade": "trades",
    "receive": "receives",
    "take": "takes",
    "pass": "passes",
    "refuse": "refuses",
    "turn": "turns",
    "meld": "melds",
    "add": "adds",
    "borrow": "borrows",
    "force": "forces",
    "discard": "discards",
    "draw": "draws",
    "win": "wins",
    "show": "shows",
    "declare": "declares",
    "pay": "pays",
}


@attrs.frozen
class Event:
    """One thing that happened in a deal, as the `viewer`'s seat saw it.

    - `kind`: one of `KINDS`;
    - `seat`: who did it (the dealer for ``"deal"``, the winner for ``"win"``,
      None for what nobody did: ``"new_pack"``, ``"tableau"``, ``"abandoned"``);
    - `cards`: the cards it names, only those the viewer may know (C6);
    - `index`: the length of the history once it happened (0 for the deal):
      ``events(view, since=index)`` tells what came after;
    - `other`: the other seat it concerns: who receives a passed, discarded,
      traded or dealt card on offer, who gave a card received in a trade, whose
      meld a card is forced onto;
    - `meld`: the index on the table of the meld it adds to, borrows from or
      forces onto (``@2`` in notation);
    - `shift`: a joker shift goes with it (M9);
    - `count`: the number it tells, in Coo-Can: the cards left in a hand that
      declares (K6), the cards of the discard pile mixed into the new deck
      (K8), what a loser pays (K9); None otherwise (and then not in its JSON).

    >>> str(Event("take", seat=1, cards=(card("5H"),), index=3, viewer=1))
    'You take 5H.'
    """

    kind: str
    seat: int | None
    cards: tuple[Face, ...] = ()
    index: int = 0
    other: int | None = None
    meld: int | None = None
    shift: bool = False
    viewer: int | None = None
    count: int | None = None

    def _who(self, seat: int | None, verb: str) -> str:
        if seat is not None and seat == self.viewer:
            return f"You {verb}"
        return f"Seat {seat} {_VERBS[verb]}"

    def _whom(self, seat: int | None) -> str:
        return "you" if seat is not None and seat == self.viewer else f"seat {seat}"

    def __str__(self) -> str:
        """The event as one English line: "You take 5H.", "Seat 0 passes QC to you."."""
        names = " ".join(str(c) for c in self.cards)
        k, seat = self.kind, self.seat
        at = f"meld @{self.meld}"
        if k == "deal":
            text = self._who(seat, "deal")
            if names:
                text += f"; {names} is turned"
                if self.other is not None:
                    text += f", on offer to {self._whom(self.other)}"
        elif k == "trade":
            text = self._who(seat, "trade") + (f" {names}" if names else " a card")
            if self.other is not None:
                text += f" to {self._whom(self.other)}"
        elif k == "receive":
            text = self._who(seat, "receive") + f" {names} from {self._whom(self.other)}"
        elif k in ("take", "discard", "turn"):
            text = self._who(seat, k) + f" {names}" + (" from the stock" if k == "turn" else "")
        elif k == "pass":
            text = self._who(seat, "pass") + f" {names} to {self._whom(self.other)}"
        elif k == "bury":
            text = self._who(seat, "refuse") + f" {names}: it is buried"
        elif k == "meld":
            verb = "meld" if self.meld is None else "add"
            text = self._who(seat, verb) + f" {names}" + ("" if self.meld is None else f" to {at}")
        elif k == "borrow":
            text = self._who(seat, "borrow") + f" {names} from {at}"
        elif k == "force":
            owner = "your" if self.other == self.viewer else f"seat {self.other}'s"
            text = self._who(seat, "force") + f" {names} onto {owner} {at}"
        elif k == "draw":
            text = self._who(seat, "draw") + (f" {names}" if names else " a card")
        elif k == "new_pack":
            text = "The stock becomes the new pack"
        elif k == "reshuffle":
            text = f"The discard pile ({self.count} cards) is mixed into a new deck"
        elif k == "cooch":
            text = self._who(seat, "meld") + " a Cooch: every loser pays double"
        elif k == "declare":
            text = self._who(seat, "declare") + (" one card" if self.count == 1 else " four cards")
        elif k == "pay":
            text = self._who(seat, "pay") + f" {self._whom(self.other)} {self.count}"
        elif k == "win":
            text = self._who(seat, "win") + " the deal"
        elif k == "tableau":
            text = "The stock is exhausted: the deal is a tableau"
        elif k == "abandoned":
            text = "The deal is abandoned at the turn limit"
        else:  # show
            text = self._who(seat, "show") + f" {names}"
        if self.shift:
            text += ", shifting the joker"
        return text + "."

    def data(self) -> dict[str, Any]:
        """The event as JSON data (`to_json` writes it)."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "index": self.index,
            "seat": self.seat,
            "cards": [str(c) for c in self.cards],
            "other": self.other,
            "meld": self.meld,
            "shift": self.shift,
            "text": str(self),
        }
        if self.count is not None:
            data["count"] = self.count
        return data

    def to_json(self) -> str:
        """The event as one line of JSON, its English line included as ``"text"``.

        >>> Event("pass", seat=0, cards=(card("QC"),), index=1, other=1).to_json()
        '{"kind":"pass","index":1,"seat":0,"cards":["QC"],"other":1,"meld":null,\
"shift":false,"text":"Seat 0 passes QC to seat 1."}'
        """
        return json.dumps(self.data(), ensure_ascii=False, separators=(",", ":"))


def decision_of(position: State | PlayerView) -> Decision | None:
    """What the player to move is asked in a state or a view (of any seat); None when over.

    Offer game: ``"trade"`` before the starter while trades are chosen (T21),
    ``"say"`` when a card is on offer (T4), ``"meld"`` while a player melds
    after a take or a force (T8, T10). Rummy games: ``"draw"`` at the start of
    a turn, ``"play"`` after it (M2, K3).

    >>> state = new_game(CooncanRules.three_hand(), seed=3)
    >>> decision_of(state), decision_of(state.apply("draw").view(0))
    ('draw', 'play')
    """
    if position.result is not None or position.current_player is None:
        return None
    rules: Rules = position.rules  # type: ignore[union-attr, unused-ignore]  # every view has its rules
    if _offers(rules):
        if getattr(position, "offer", None) is not None:
            return "say"
        # T21: the trade rounds, before the starter is turned.
        return "trade" if getattr(position, "trading", False) else "meld"
    phase = getattr(position, "phase", None)
    return "draw" if phase == "draw" else "play"


def events(view: PlayerView, since: int | None = None) -> tuple[Event, ...]:
    """What happened after the first `since` actions of the history, as the view's player
    saw it (C6); with `since` None (the default), the whole deal, its dealing included.

    The rule for a client that tells a player the news: start each deal with `since`
    None, and after each call set it to ``len(view.history)`` of the view just told.
    Then nothing is told twice and nothing is missed: the dealing, which comes before
    the first action, is told only when `since` is None, and an event is told once
    `since` is below its `Event.index`. Raises `ValueError` for a `since` outside
    ``0 … len(view.history)``.

    >>> state = new_game(ConquianRules(), seed=5)
    >>> [str(e) for e in events(state.view(0))]
    ['You deal; KD is turned, on offer to seat 1.']
    >>> events(state.view(0), since=0)
    ()
    >>> state = state.apply("take KD").apply("meld JD QD KD")
    >>> [str(e) for e in events(state.view(0), since=1)]
    ['Seat 1 melds JD QD KD.']
    """
    history = tuple(view.history)
    whole = since is None
    start = 0 if since is None else since
    if type(start) is not int or not 0 <= start <= len(history):
        raise ValueError(f"since must be None or from 0 to {len(history)} (got {since!r})")
    if start == len(history) and not whole:
        return ()
    rules: Rules = view.rules  # type: ignore[attr-defined, unused-ignore]  # every engine's view has them
    game = game_of(rules)
    told = game.story(view, since)  # an engine that reads the events itself (Coo-Can, K8)
    if told is not None:
        return tuple(attrs.evolve(e, viewer=view.player) for e in told)
    # A whole deal, whose deck replays: Cooncan's `sample_state` draws only the position.
    draw = getattr(view, "sample_deal", None) or view.sample_state  # type: ignore[attr-defined, unused-ignore]
    sample = draw(random.Random(0))
    state = game.deal(rules, tuple(sample.deck), sample.dealer)
    p = view.player
    offer = _offers(rules)
    out: list[Event] = []
    before = state.view(p) if whole else None
    if before is not None:
        out.append(_dealt(before, offer))
    # The sample's own history: the view's, with the others' hidden trades (T21) filled in.
    played = tuple(sample.history)
    for i, action in enumerate(history):
        after_state = state.apply(played[i])
        if i >= start:
            if before is None:
                before = state.view(p)
            after = after_state.view(p)
            out.extend(_step(before, action, after, i + 1, offer))
            before = after
        state = after_state
    return tuple(attrs.evolve(e, viewer=p) for e in out)


def _dealt(view: Any, offer: bool) -> Event:
    """The deal: who dealt, and the card turned face up (the starter; a rummy stock's first
    card), if any."""
    if offer:
        starter = view.offer
        cards = () if starter is None else (starter,)
        return Event("deal", view.dealer, cards, 0, other=view.current_player)
    return Event("deal", view.dealer, tuple(getattr(view, "stock", ())), 0)


def _step(before: Any, action: Action, after: Any, index: int, offer: bool) -> list[Event]:
    """The events of one action, from the viewer's views before and after it."""
    seat = before.current_player
    out: list[Event] = []

    def add(kind: str, who: int | None, cards: tuple[Face, ...] = (), **more: Any) -> None:
        out.append(Event(kind, who, cards, index, **more))

    if isinstance(action, Take):
        add("take", seat, (action.card,))
    elif isinstance(action, Pass) and offer:
        card = before.offer
        shown = () if card is None else (card,)
        if after.offer == card and after.offer_origin == "passed" and card is not None:
            add("pass", seat, shown, other=after.current_player)
        else:
            add("bury", seat, shown)
            if after.offer is not None:
                # T6, T22: the next card is turned by the player who now has the say to it.
                add("turn", after.current_player, (after.offer,))
    elif isinstance(action, Meld):
        add("meld", seat, action.cards, meld=action.onto, shift=action.shift)
    elif isinstance(action, Borrow):
        add("borrow", seat, (action.card,), meld=action.source)
    elif isinstance(action, Force):
        owner = before.table[action.onto].owner if action.onto < len(before.table) else None
        add("force", seat, (action.card,), other=owner, meld=action.onto, shift=action.shift)
    elif isinstance(action, Discard):
        add("discard", seat, (action.card,), other=after.current_player if offer else None)
    elif isinstance(action, Draw):
        if before.pack_size == 0:
            add("new_pack", None)
        known = getattr(before, "known_pack", None)
        add("draw", seat, (known[0],) if known else ())
    elif type(action) is Trade:  # the view's action: a card only where the viewer knows it
        known = getattr(action, "card", None)
        left = (seat + 1) % len(after.hand_sizes)
        add("trade", seat, () if known is None else (known,), other=left)
        received = set(after.hand) - set(before.hand)
        if received:  # the round's cards have moved: the viewer's from his right (T21, C6)
            me = before.player
            add("receive", me, tuple(received), other=(me - 1) % len(after.hand_sizes))
        if after.offer is not None:  # the last trade of the last round: the starter (T11)
            add("turn", after.dealer, (after.offer,), other=after.current_player)
    if after.result is not None and before.result is None:
        result = after.result
        add(str(result.outcome), result.winner)
        for q, hand in enumerate(getattr(after, "hands", None) or ()):
            if hand:  # C6 Showing: what is left in each hand
                add("show", q, tuple(hand))
    return out
