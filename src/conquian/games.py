"""The registry of games: one frozen `Game` entry per game the library plays.

Everything outside the rules module and the engine packages learns what it
needs about a game here, never by testing the type of a rules object or
comparing game names: `conquian.new_game` deals with the entry's `deal`,
positions, views and records read and write with its `codec`,
`PlayerView.sample_state` and the JSON reader of views draw with its
`sampler`, the CLI builds rules with its `rules`, the diagrams head with its
`describe`, and the action and observation encodings read its pack facts.

`GAMES` maps each game's name to its entry, in the order the games are
listed; `find_game` also knows the older names (aliases), which records and
positions written before keep using; `game_of` gives the entry of a rules
object.

>>> sorted(GAMES)
['conquian', 'coo-can', 'double-pack', 'three-hand']
>>> game_of(ConquianRules()).name, find_game("two-hand").name
('conquian', 'conquian')
>>> GAMES["three-hand"].rules(players=2)
CooncanRules(variant='three-hand', players=2, jokers=0, stock='closed', splash_bonus=None, \
turn_limit=None)

A new game is one rules class, one engine package and one entry here; see
the contributors' page "Adding a game or a variant". Coo-Can (rules K, the
`conquian.coocan` package) joined that way.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

from . import coocan, determinize, offer, rummy
from .cards import Card, make_pack, shuffle
from .combos.core import Order
from .coocan import view as coocan_view
from .coocan.codec import CODEC as _COOCAN_CODEC
from .coocan.ids import MAX_MELDS, ActionIds
from .coocan.viewjson import read_view as _read_coocan_view
from .errors import RulesError
from .formats.codec import Codec
from .offer.codec import TwoHandCodec
from .offer.observe import ObservationWriter
from .rules import ConquianRules, CooCanRules, CooncanRules, Rules
from .rummy.codec import CooncanCodec
from .state.base import PlayerView, State

__all__ = ["GAMES", "Engine", "Game", "find_game", "game_of", "names_text"]

Engine = Literal["offer", "rummy", "coocan"]
"""The engine family: ``"offer"`` (`conquian.offer`, rules T: a card on offer, the say,
borrowing, tableau), ``"rummy"`` (`conquian.rummy`, rules M: draw, face-up stock,
jokers, pips) or ``"coocan"`` (`conquian.coocan`, rules K: draw or take the top discard,
sets of four, a discard pile and a face-down deck, stakes and spots)."""


@attrs.frozen
class Game:
    """What the rest of the package needs to know about one game.

    Build-time data, not options: the options of a deal are the rules
    object's. Every callable takes the rules object of this game.
    """

    name: str
    """The game's name, written as ``rules.game`` and as ``"game"`` in every document."""
    aliases: tuple[str, ...]
    """Older names, still read in records and positions (never written)."""
    title: str
    """The game's name in English, for headings."""
    rules_class: type
    """The class of this game's rules objects (`conquian.rules`)."""
    seats: range
    """The numbers of players the game is played by (its rules object checks its own)."""
    engine: Engine
    """The engine family that plays it (see `Engine`)."""
    rules: Callable[..., Rules]
    """The game's default rules, with any option given as a keyword (a `RulesError` for a
    bad value; the CLI passes ``players``)."""
    deal: Callable[[Any, tuple[Card, ...], int], State]
    """The first state of a deal from the whole checked deck, top card first, and the dealer."""
    deal_seeded: Callable[[Any, int, int], State]
    """The first state of a deal from the seeded shuffle of the pack (C7), and the dealer."""
    codec: Codec
    """The game's part of the position, view and record JSON (`conquian.formats.codec`)."""
    sampler: Callable[..., State]
    """A deal drawn uniformly among those that give a view (`conquian.determinize`, C6):
    ``sampler(view, rng, deal=None, accept=None)``."""
    describe: Callable[[Any], str]
    """The heading of a diagram of a deal under these rules (`conquian.render.text`)."""
    pack_name: Callable[[Any], str]
    """The name of the pack (`conquian.cards.make_pack`): its ranks and their order (C4)."""
    copies: int
    """How many copies of each card of that pack the deal uses (M1)."""
    jokers: Callable[[Any], int]
    """How many jokers the deal uses (C5, M1)."""
    most_melds: Callable[[Any], int]
    """The most melds the table can hold while the deal goes on, so the most meld indices an
    action may name (T2, C3, M10)."""
    goal: Callable[[Any], str]
    """How a deal is won, in a line for the player of the terminal (`conquian.cli`), or ""."""
    examples: str
    """Actions in notation for the help of the terminal (`conquian.render.terminal`), a line of
    help each; ``{top}`` stands for the highest diamond of the pack in play."""
    payment_scale: Callable[[Any], float | None]
    """The payment that counts for about three quarters of a win to a searching bot
    (`conquian.agents.search`), or None when a deal is won or lost, not paid by size."""
    read_view: Callable[[str | bytes], PlayerView] | None = None
    """The engine's own reader of a view's JSON (`PlayerView.from_json`), or None to draw
    the view's deal with `sampler` from the facts the shared reader finds
    (`conquian.formats.views`)."""
    action_ids: Callable[[Any], Any] | None = None
    """The game's own numbering of its actions (`len`, `index`, `action`), which
    `conquian.ActionSpace` then gives, or None for the shared layout of `conquian.encoding`."""
    observation_layout: Callable[[Any, bool], tuple[tuple[str, int], ...]] | None = None
    """The game's own observation layout (``layout(rules, public)``), or None for the shared
    one of `conquian.encoding`."""
    public_observation: Callable[[Any], tuple[float, ...]] | None = None
    """What every seat knows of a view, laid out as `observation_layout` with ``public``
    says; a game with its own layout gives its private form as ``view.observation()``."""
    state_observation: Callable[[Any, int, bool], tuple[float, ...]] | None = None
    """``state_observation(state, seat, public)``: what ``state.view(seat).observation()``
    (or `public_observation` of that view) gives, written from the state without building
    the view, for learning environments' every step; None to build the view."""
    observation_writer: Callable[..., Callable[[Any, int], bytes]] | None = None
    """``observation_writer(rules, most_melds, public=..., normalize=...)``: made once per
    rules object, a writer whose ``writer(state, seat)`` gives the shared layout's
    observation of `state` for `seat` (as `conquian.encoding.Observer` writes it) as the
    native bytes of float32 numbers; None for the Observer's own writing."""

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {self.title}>"

    def order(self, rules: Rules) -> Order:
        """The order of the cards in sequences under `rules` (C4, T14), as the codec reads it.

        >>> GAMES["conquian"].order(ConquianRules.pagat())
        Order(pack='spanish', max_sequence=8)
        """
        return self.codec.order(rules)


# -- the offer engine: Conquian (rules T) ---------------------------------------------------


@functools.lru_cache(maxsize=8)
def _pack_indices(name: str) -> tuple[int, ...]:
    """The `Card.index` of each card of a Conquian pack, in canonical order."""
    return tuple(c.index for c in make_pack(name))


def _conquian_seeded(rules: ConquianRules, seed: int, dealer: int) -> State:
    # The cards' indices shuffle as the cards do (C7); the deal reads them directly.
    return offer.deal_indices(rules, list(shuffle(_pack_indices(rules.pack), seed)), dealer)


def _conquian_rules(**options: Any) -> Rules:
    # Two players is the default of the rules object (T16): it need not be named.
    if options.get("players") == 2:
        options = {k: v for k, v in options.items() if k != "players"}
    return ConquianRules(**options)


def _conquian_title(rules: ConquianRules) -> str:
    size = len(rules.pack_cards())
    head = "Two-hand Conquian" if rules.players == 2 else f"Conquian for {rules.players}"
    trades = f", {rules.trades} trade{'s' * (rules.trades > 1)}" if rules.trades else ""
    return f"{head} ({rules.pack} pack, {size} cards{trades})"  # T20, T21


def _conquian_melds(rules: ConquianRules) -> int:
    # T2, C3: each player melds at most hand size + 1 cards (he wins there), three to a meld.
    return rules.players * ((rules.hand_size + 1) // 3)


# -- the rummy engine: Foster's Cooncan (rules M) -------------------------------------------


def _cooncan_seeded(rules: CooncanRules, seed: int, dealer: int) -> State:
    return rummy.deal(rules, shuffle(rules.pack_cards(), seed), dealer)


def _three_hand_title(rules: CooncanRules) -> str:
    return f"Foster's three-hand Cooncan ({rules.players} players, one pack)"


def _double_pack_title(rules: CooncanRules) -> str:
    return f"Foster's double-pack Cooncan ({rules.players} players, two packs)"


_PIP_SCALE = 60.0
"""Pips at which a Cooncan payment counts for about three quarters of a win."""


def _cooncan_melds(rules: CooncanRules) -> int:
    # M10: while the deal goes on every player holds a card, and the player who names a meld
    # holds the card he plays onto it; three cards to a meld (C3).
    return (len(rules.pack_cards()) - rules.players) // 3


_CONQUIAN = Game(
    name="conquian",
    aliases=("two-hand",),
    title="Conquian",
    rules_class=ConquianRules,
    seats=range(2, 5),
    engine="offer",
    rules=_conquian_rules,
    deal=offer.deal,
    deal_seeded=_conquian_seeded,
    codec=TwoHandCodec(),
    sampler=determinize.sample_two_hand,
    describe=_conquian_title,
    pack_name=lambda rules: rules.pack,
    copies=1,
    jokers=lambda rules: 0,
    most_melds=_conquian_melds,
    goal=lambda rules: f"Meld {rules.hand_size + 1} cards to win (T2).",
    examples="take 5H | pass | meld 4H 5H 6H | meld 7H @2\n"
    "borrow 7S @0 | force 6S @1 | discard {top} | trade 5H",
    payment_scale=lambda rules: None,  # a counter from each loser (T13, T19)
    observation_writer=ObservationWriter,  # from the board's card masks (one copy each, T1)
)

_COONCAN_CODEC = CooncanCodec()

_THREE_HAND = Game(
    name="three-hand",
    aliases=(),
    title="Foster's three-hand Cooncan",
    rules_class=CooncanRules,
    seats=range(2, 4),
    engine="rummy",
    rules=CooncanRules.three_hand,
    deal=rummy.deal,
    deal_seeded=_cooncan_seeded,
    codec=_COONCAN_CODEC,
    sampler=determinize.sample_cooncan,
    describe=_three_hand_title,
    pack_name=lambda rules: "standard",
    copies=1,
    jokers=lambda rules: rules.jokers,
    most_melds=_cooncan_melds,
    goal=lambda rules: "",
    examples="draw | take 5H | meld 4H 5H 6H | meld 7H @2 | force 9H @0 | discard {top}",
    payment_scale=lambda rules: _PIP_SCALE,
)

_DOUBLE_PACK = Game(
    name="double-pack",
    aliases=(),
    title="Foster's double-pack Cooncan",
    rules_class=CooncanRules,
    seats=range(2, 8),
    engine="rummy",
    rules=CooncanRules.double_pack,
    deal=rummy.deal,
    deal_seeded=_cooncan_seeded,
    codec=_COONCAN_CODEC,
    sampler=determinize.sample_cooncan,
    describe=_double_pack_title,
    pack_name=lambda rules: "standard",
    copies=2,
    jokers=lambda rules: rules.jokers,
    most_melds=_cooncan_melds,
    goal=lambda rules: "",
    examples="draw | take 5H | meld 4H 5H 6H | meld 7H @2 | force 9H @0 | discard {top}",
    payment_scale=lambda rules: _PIP_SCALE,
)

# -- the Coo-Can engine: the Cork double-pack game (rules K) ---------------------------------


def _coocan_seeded(rules: CooCanRules, seed: int, dealer: int) -> State:
    return coocan.deal(rules, shuffle(rules.pack_cards(), seed), dealer)


def _coocan_sampler(
    view: Any, rng: Any, deal: Any = None, accept: Callable[[Any], bool] | None = None
) -> State:
    # C6, K8: the engine's own draw among the positions that give the view (`view.sample`);
    # it is built zone by zone, so there is no other deal to replay it from.
    state = coocan.view.sample(view, rng)
    if accept is not None:
        accept(state)
    return state


def _coocan_title(rules: CooCanRules) -> str:
    return f"Coo-Can ({rules.players} players, two packs)"


def _coocan_scale(rules: CooCanRules) -> float:
    # K9: a loser pays the game and his spots; some thirty spots is a usual losing hand.
    return float(rules.game_stake + 30 * rules.spot_stake) or 1.0


_COOCAN = Game(
    name="coo-can",
    aliases=(),
    title="Coo-Can",
    rules_class=CooCanRules,
    seats=range(2, 7),
    engine="coocan",
    rules=CooCanRules,
    deal=coocan.deal,
    deal_seeded=_coocan_seeded,
    codec=_COOCAN_CODEC,
    sampler=_coocan_sampler,
    describe=_coocan_title,
    pack_name=lambda rules: "standard",
    copies=2,
    jokers=lambda rules: 0,
    most_melds=lambda rules: MAX_MELDS,  # K4: 104 cards, four or more to a meld (coocan.ids)
    goal=lambda rules: (
        "One meld a turn. A new meld is four cards: four of a rank, or four in suit "
        "sequence, aces low (K4); after your own first one you may add to any meld (K5). "
        "The discard that empties your hand wins (K7)."
    ),
    examples="draw | take 5H | meld 4H 5H 6H 7H | meld 7C 7D 7H 7S\nmeld 8H @2 | discard {top}",
    payment_scale=_coocan_scale,
    read_view=_read_coocan_view,
    action_ids=lambda rules: ActionIds(),  # 9,222 ids, the same for any number of players
    observation_layout=coocan_view.observation_layout,
    public_observation=coocan_view.public_observation,
    state_observation=coocan_view.state_observation,
)

GAMES: Mapping[str, Game] = types.MappingProxyType(
    {g.name: g for g in (_CONQUIAN, _THREE_HAND, _DOUBLE_PACK, _COOCAN)}
)
"""Every game by its name, in the order the games are listed (read-only)."""

_BY_NAME: dict[str, Game] = {
    **{alias: g for g in GAMES.values() for alias in g.aliases},
    **GAMES,
}


def names_text() -> str:
    """The games' names for a message: ``"conquian, three-hand, double-pack or coo-can"``."""
    names = list(GAMES)
    return ", ".join(names[:-1]) + " or " + names[-1]


def find_game(name: str) -> Game:
    """The entry of the game called `name` or one of its aliases.

    Raises `RulesError` naming the games for any other name.

    >>> find_game("chess")
    Traceback (most recent call last):
    ...
    conquian.errors.RulesError: game must be one of conquian, three-hand, double-pack or \
coo-can (got 'chess')
    """
    game = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is None:
        raise RulesError("game", f"must be one of {names_text()} (got {name!r})")
    return game


def game_of(rules: Rules) -> Game:
    """The entry of the game a rules object plays.

    Raises `TypeError` for anything but a rules object of a registered game.

    >>> game_of(CooncanRules.double_pack()).copies
    2
    >>> game_of("conquian")
    Traceback (most recent call last):
    ...
    TypeError: rules must be ConquianRules, CooncanRules or CooCanRules (got str)
    """
    name = getattr(rules, "game", None)
    game = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is None or type(rules) is not game.rules_class:
        names = list(dict.fromkeys(g.rules_class.__name__ for g in GAMES.values()))
        classes = ", ".join(names[:-1]) + " or " + names[-1]
        raise TypeError(f"rules must be {classes} (got {type(rules).__name__})")
    return game
