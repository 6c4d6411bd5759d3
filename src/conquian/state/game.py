"""`Game`, what the rest of the package asks of a game, and the table of the games played.

Each engine package owns its games: `conquian.offer` plays Conquian (rules
T), `conquian.rummy` Foster's three-hand and double-pack Cooncan (rules M),
`conquian.coocan` Coo-Can (rules K). Each defines a subclass of `Game`
whose methods answer for its games (how to deal, the JSON codec, how to
draw a deal behind a view, the zones a diagram shows, what the player to
move is asked, the observation and action ids of learning frameworks, the
bots' facts); `conquian.games` lists them here, in order (`register`).
Shared code (formats, render, events, encoding, the samplers, the adapters,
the CLI, the bots) asks a state's or a view's game
(``position.game``) or, holding only a name (a document, a command-line
argument), looks it up here with `find_game`; it never branches on which
engine plays.

The table lives at the bottom of the package, below the engines, as
OpenSpiel's ``register_game`` does: the lower layers that read a name (the
JSON readers) find a game without importing the engines above them, so the
imports of the package go one way. `conquian.games`, at the top, fills it
when the package is imported and gives it as `conquian.GAMES`.
"""

from __future__ import annotations

import functools
import random
import types
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from ..cards import Card, shuffle
from ..combos.order import Order
from ..errors import RulesError
from ..rules import Rules

# States and views are typed loosely here: `conquian.state.base` and `conquian.state.view`
# ask this module for their game, so it does not import them back, not even for the type
# checker. `State` and `PlayerView` below mean those.
State = Any
PlayerView = Any

__all__ = ["Game", "Zone", "find_game", "game_of", "names_text", "register", "registered"]

Zone = Literal["offer", "pending", "stock", "buried", "face-up stock", "pack", "discards", "deck"]
"""A zone a diagram or an observation shows after the hands and the table, in the game's
words: Conquian's card on ``"offer"`` (T4), ``"pending"`` cards to meld (T8), face-down
``"stock"`` and ``"buried"`` cards (T5); Cooncan's ``"face-up stock"`` and ``"pack"``
(M1); Coo-Can's ``"discards"`` and ``"deck"`` (K3)."""


class Game:
    """One game the library plays: its facts, and the hooks its engine fills in.

    A subclass per engine package (`conquian.offer.game`, `conquian.rummy.game`,
    `conquian.coocan.game`); its instances are the entries of `conquian.GAMES`.
    The methods that take a `rules` object take one of this game's.
    """

    name: str
    """The game's name, written as ``rules.game`` and as ``"game"`` in every document."""
    aliases: tuple[str, ...] = ()
    """Older names, still read in records and positions (never written)."""
    title: str
    """The game's name in English, for headings."""
    rules_class: type
    """The class of this game's rules objects (`conquian.rules`)."""
    rules_maker: str
    """How its default rules are made in Python, for messages: ``"CooCanRules"``."""
    seats: range
    """The numbers of players the game is played by (its rules object checks its own)."""
    examples: str = ""
    """Actions in notation for the help of the terminal (`conquian.render.terminal`), a line
    of help each; ``{top}`` stands for the highest diamond of the pack in play."""
    words: Mapping[str, str] = types.MappingProxyType({})
    """The words of the game and what each means, for the terminal's ``help``."""
    presets: Mapping[str, Callable[..., Rules]] = types.MappingProxyType({})
    """The rules presets of the game's sources by name (``--rules`` of the CLI), the first
    the default; none where the game has one set of rules with options."""
    zones: tuple[Zone, ...] = ()
    """The zones after the hands and the table, in the order a diagram shows them."""
    melded_counts: bool = False
    """Whether a seat's melded cards are counted beside its hand: the deal is won by
    melding them (T2)."""
    turn_limit_rule: str | None = None
    """The rule by which a deal is abandoned at its turn limit (M11, K8), or None where a
    deal that runs out of cards is a tableau instead (T12)."""
    points_in_hands: bool = False
    """Whether a match to points scores the cards left in the losers' hands (T23), rather
    than the winner's payment (M7, K9)."""
    dealer_sits_out: bool = False
    """Whether three people may play a two-seat game, the dealer sitting out each deal
    (T24)."""
    hands_grow: bool = True
    """Whether cards drawn from the pack enter the hands (M, K), so that a hidden hand
    grows by draws; in Conquian they never do (T3)."""

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {self.title}>"

    # -- rules and deals -----------------------------------------------------------------

    def rules(self, **options: Any) -> Rules:
        """The game's default rules, with any option given as a keyword (a `RulesError` for
        a bad value; the CLI passes ``players``)."""
        raise NotImplementedError

    def describe(self, rules: Rules) -> str:
        """The heading of a diagram of a deal under `rules`."""
        return self.title

    def goal(self, rules: Rules) -> str:
        """How a deal is won, in a line for the player of the terminal, or ""."""
        return ""

    def deal(self, rules: Rules, deck: tuple[Card, ...], dealer: int) -> State:
        """The first state of a deal from the whole checked deck, top card first."""
        raise NotImplementedError

    def deal_seeded(self, rules: Rules, seed: int, dealer: int) -> State:
        """The first state of a deal from the seeded shuffle of the pack (C7)."""
        return self.deal(rules, shuffle(rules.pack_cards(), seed), dealer)

    def order(self, rules: Rules) -> Order:
        """The order of the cards in sequences under `rules` (C4, T14)."""
        order: Order = self.codec.order(rules)
        return order

    def most_melds(self, rules: Rules) -> int:
        """The most melds the table can hold while the deal goes on, so the most meld
        indices an action may name (T2, C3, M10)."""
        raise NotImplementedError

    def most_added(self, rules: Rules, onto: int) -> int:
        """The most cards one `Meld` can add to the meld at index `onto` (a bound for the
        action ids of `conquian.encoding`)."""
        raise NotImplementedError

    def largest_meld(self, rules: Rules) -> int:
        """The most cards a new meld can hold (a bound for the action ids)."""
        raise NotImplementedError

    # -- documents ------------------------------------------------------------------------

    codec: Any
    """The game's part of the position, view and record JSON (its
    `conquian.formats.codec.Codec`)."""

    def read_view(self, text: str | bytes) -> PlayerView | None:
        """The engine's own reading of a view's JSON, or None to let the shared reader
        (`conquian.formats.views`) draw the view's deal with `sample`."""
        return None

    # -- hidden information ---------------------------------------------------------------

    def sample(self, view: Any, rng: random.Random, deal: Any = None, accept: Any = None) -> State:
        """A deal drawn uniformly among those that give `view` (C6), replayed to its state;
        `accept(state)` may refuse a draw (then another is drawn)."""
        raise NotImplementedError

    def sample_state(self, view: Any, rng: random.Random) -> State:
        """`PlayerView.sample_state`: a whole state drawn among those that give `view` (C6),
        by the engine's own draw (its samplers live in its package)."""
        raise NotImplementedError

    def samples(self, view: Any) -> Callable[[random.Random], State]:
        """`view.samples()`: ``draw(rng)`` is ``self.sample_state(view, rng)``, what the view
        alone gives worked out once for all the samples."""
        return functools.partial(self.sample_state, view)

    def dealt(self, state: State) -> State | None:
        """A state drawn without its deal (`sample_state`, C6), the same position dealt
        from a deck whose replay gives it (C7), for the writers of records and positions;
        None where no such deal is found."""
        return None

    def story(self, view: PlayerView, since: int | None) -> tuple[Any, ...] | None:
        """The events of `view` after its first `since` actions (None: the whole deal, its
        dealing too) read by the engine itself, or None to replay a deal drawn behind the
        view (`conquian.events`)."""
        return None

    # -- what the player to move is asked ---------------------------------------------------

    def asks(self, position: Any, seat: str, text: Any) -> str:
        """What the seat to move (named `seat`) is asked, in a line of the diagram;
        `text(cards)` writes cards."""
        raise NotImplementedError

    # -- learning and bots --------------------------------------------------------------------

    def action_ids(self, rules: Rules) -> Any:
        """The game's own numbering of its actions (`len`, `index`, `action`), or None for
        the shared layout of `conquian.encoding`."""
        return None

    def observation_layout(self, rules: Rules, public: bool) -> tuple[tuple[str, int], ...] | None:
        """The game's own observation layout, or None for the shared one
        (`conquian.encoding.observation_layout`)."""
        return None

    def public_observation(self, view: Any) -> tuple[float, ...]:
        """What every seat knows of a view, in the game's own layout (public form)."""
        raise NotImplementedError

    def state_observation(self, state: Any, seat: int, public: bool) -> tuple[float, ...] | None:
        """What ``state.view(seat).observation()`` gives, written from the state without the
        view (for learning environments' every step), or None to build the view."""
        return None

    def observation_writer(self, rules: Rules, most_melds: int, **options: Any) -> Any:
        """A writer of the shared observation layout from a state (``writer(state, seat)``
        gives float32 bytes), made once per rules object, or None for the Observer's own."""
        return None

    def payment_scale(self, rules: Rules) -> float | None:
        """The payment that counts for about three quarters of a win to a searching bot, or
        None when a deal is won or lost, not paid by size."""
        return None

    def utility(self, rules: Rules) -> float:
        """The most one player can lose in a deal (for frameworks that ask a range)."""
        return 1.0


_TABLE: dict[str, Game] = {}
_BY_NAME: dict[str, Game] = {}


def register(game: Game) -> None:
    """Add `game` to the table, under its name and aliases (each engine package, when it is
    imported). A name taken by another game is a `ValueError`."""
    for name in (game.name, *game.aliases):
        other = _BY_NAME.get(name)
        if other is not None and other is not game:
            raise ValueError(f"the game name {name!r} is taken by {other!r}")
    _TABLE[game.name] = game
    for name in (game.name, *game.aliases):
        _BY_NAME[name] = game


def registered() -> Mapping[str, Game]:
    """Every game registered so far by its name, in the order registered (read-only)."""
    return types.MappingProxyType(_TABLE)


def names_text(names: Sequence[str] | None = None) -> str:
    """The games' names for a message: ``"conquian, three-hand, double-pack or coo-can"``."""
    names = list(_TABLE) if names is None else list(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def find_game(name: str) -> Game:
    """The game called `name` or one of its aliases.

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
    """The game a rules object plays.

    Raises `TypeError` for anything but a rules object of a registered game.

    >>> game_of(CooncanRules.double_pack()).title
    "Foster's double-pack Cooncan"
    >>> game_of("conquian")
    Traceback (most recent call last):
    ...
    TypeError: rules must be ConquianRules, CooncanRules or CooCanRules (got str)
    """
    name = getattr(rules, "game", None)
    game = _BY_NAME.get(name) if isinstance(name, str) else None
    if game is None or type(rules) is not game.rules_class:
        names = list(dict.fromkeys(g.rules_class.__name__ for g in _TABLE.values()))
        classes = ", ".join(names[:-1]) + " or " + names[-1]
        raise TypeError(f"rules must be {classes} (got {type(rules).__name__})")
    return game
