"""`FactoredActions`: actions as (kind, target, cards), for policies at every size.

Part of `conquian.encoding` (which re-exports it): the ids of `ActionSpace` run to
1.8 million in the double pack, too many for one softmax; a factored action is a
short vector of small choices, which a network outputs as a ``MultiDiscrete``
(independent heads) or autoregressively (kind, then target, then cards one by
one, each masked by the legal continuations).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, Trade
from ..cards import Face

__all__ = ["KINDS", "FactoredActions"]

KINDS = ("first", "take", "discard", "force", "force shift", "borrow", "meld", "meld shift")
"""The kinds of action, in the order of the first factor: ``first`` is ``pass`` (two-hand)
or ``draw`` (Cooncan). Conquian with trading (T21) has a ninth, ``trade``, after them."""


class FactoredActions:
    """The actions of `space` (an `ActionSpace`) as vectors ``(kind, target, card_1 …
    card_L)``, each factor a small choice.

    - ``kind``: its index in `KINDS` (``len(KINDS)`` = 8 choices);
    - ``target``: the meld index the action names (``onto`` of a force or a meld,
      ``source`` of a borrow), or ``most_melds`` for none (``most_melds + 1`` choices);
    - ``card_1 … card_L``: the action's cards in canonical order, each an index in
      `faces` (the pack's distinct cards, the joker included, then the named jokers), and
      ``len(faces)`` for none after the last (``len(faces) + 1`` choices each).
      ``L`` (`cards`) is the most cards one action names under these rules.

    `nvec` gives the sizes, for ``gymnasium.spaces.MultiDiscrete(nvec)``. `vector`
    and `action` are a bijection between the actions of the space and their
    vectors; `id` maps a vector to its action id, `vectors` the legal ids to theirs.

    >>> from conquian.encoding import ActionSpace
    >>> f = FactoredActions(ActionSpace(CooncanRules.double_pack()))
    >>> f.nvec[:3], len(f.nvec)
    ((8, 35, 119), 13)
    >>> v = f.vector(parse_action("meld 5H 6H 7H"))
    >>> v[:5], f.action(v)
    ((6, 34, 30, 31, 32), parse_action('meld 5H 6H 7H'))
    """

    def __init__(self, space: Any) -> None:
        if getattr(space, "_own", None) is not None:
            raise ValueError(
                f"{space.rules.game} numbers its actions itself ({len(space):,} ids, a dense "
                "mask is cheap): use the ActionSpace's ids"
            )
        self.space = space
        self.most_melds: int = space.most_melds
        cards = tuple(space._cards)  # the pack's distinct cards, the joker among them
        named = tuple(f for f in space._force_faces if f not in set(cards))
        self.faces: tuple[Face, ...] = (*cards, *named)
        self._face_at = {f: k for k, f in enumerate(self.faces)}
        longest = max((len(p) for p in (*space._new, *space._added)), default=1)
        self.cards: int = max(1, longest)
        self.kinds: tuple[str, ...] = KINDS + (("trade",) if space._trades else ())
        """The kinds of this space's actions: `KINDS`, and ``trade`` with trading (T21)."""
        self.nvec: tuple[int, ...] = (
            len(self.kinds),
            self.most_melds + 1,
            *([len(self.faces) + 1] * self.cards),
        )
        self._first = Pass() if space._offers else Draw()

    def __repr__(self) -> str:
        return f"FactoredActions({self.space!r})  # nvec {self.nvec[:3]} x {self.cards} cards"

    def vector(self, action: Action) -> tuple[int, ...]:
        """The vector of `action` (an action of the space: `ValueError` otherwise)."""
        self.space.index(action)  # ValueError / TypeError for an action no deal offers
        none_target, none_card = self.most_melds, len(self.faces)
        faces: Sequence[Face]
        if isinstance(action, (Pass, Draw)):
            kind, target, faces = 0, none_target, ()
        elif isinstance(action, Take):
            kind, target, faces = 1, none_target, (action.card,)
        elif isinstance(action, Discard):
            kind, target, faces = 2, none_target, (action.card,)
        elif isinstance(action, Force):
            kind, target, faces = 3 + action.shift, action.onto, (action.card,)
        elif isinstance(action, Borrow):
            kind, target, faces = 5, action.source, (action.card,)
        elif isinstance(action, Trade):
            assert action.card is not None  # the space has no hidden trade (T21)
            kind, target, faces = len(KINDS), none_target, (action.card,)
        else:
            assert isinstance(action, Meld)
            kind = 7 if action.shift else 6
            target = none_target if action.onto is None else action.onto
            faces = sorted(action.cards, key=self._face_at.__getitem__)
        codes = [self._face_at[f] for f in faces]
        return (kind, target, *codes, *([none_card] * (self.cards - len(codes))))

    def action(self, vector: Sequence[int]) -> Action:
        """The action of `vector`; `ValueError` if no action of the space has it."""
        values = [int(v) for v in vector]
        if len(values) != len(self.nvec) or not all(
            0 <= v < n for v, n in zip(values, self.nvec, strict=True)
        ):
            raise ValueError(f"not a vector of sizes {self.nvec}: {tuple(values)}")
        kind, target, *codes = values
        none = len(self.faces)
        count = codes.index(none) if none in codes else len(codes)
        if any(c != none for c in codes[count:]):
            raise ValueError(f"cards after the end of the action's cards: {tuple(values)}")
        faces = tuple(self.faces[c] for c in codes[:count])
        onto = None if target == self.most_melds else target
        name = self.kinds[kind]
        try:
            made = self._make(name, onto, faces)
            self.space.index(made)
        except (TypeError, ValueError, IndexError):
            raise ValueError(f"no action of these rules has the vector {tuple(values)}") from None
        if self.vector(made) != tuple(values):
            raise ValueError(f"not the canonical vector of '{made}': {tuple(values)}")
        return made

    def _make(self, name: str, onto: int | None, faces: tuple[Face, ...]) -> Action:
        if name == "first":
            if faces or onto is not None:
                raise ValueError(name)
            return self._first
        if name == "meld":
            return Meld(faces, onto=onto)
        if name == "meld shift":
            if onto is None:
                raise ValueError(name)
            return Meld(faces, onto=onto, shift=True)
        (face,) = faces
        if name == "trade":
            if onto is not None:
                raise ValueError(name)
            return Trade(face)  # type: ignore[arg-type]
        if name in ("take", "discard"):
            if onto is not None:
                raise ValueError(name)
            return Take(face) if name == "take" else Discard(face)  # type: ignore[arg-type]
        if onto is None:
            raise ValueError(name)
        if name == "borrow":
            return Borrow(face, source=onto)  # type: ignore[arg-type]
        return Force(face, onto=onto, shift=name == "force shift")

    def id(self, vector: Sequence[int]) -> int:
        """The action id (`ActionSpace`) of `vector`."""
        found: int = self.space.index(self.action(vector))
        return found

    def vectors(self, ids: Iterable[int]) -> tuple[tuple[int, ...], ...]:
        """The vectors of these action ids (for instance ``info["legal_ids"]``), in order:
        the legal continuations of an autoregressive policy are their prefixes."""
        action = self.space.action
        return tuple(self.vector(action(i)) for i in ids)
