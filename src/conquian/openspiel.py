"""The games in OpenSpiel (optional extra ``conquian[openspiel]``).

Importing this module registers the games with ``pyspiel`` where OpenSpiel is
installed (as OpenSpiel's own Python games do); `register()` does it again, or says
which extra to install. OpenSpiel's algorithms then run on them:

- ``conquian_two_hand``, ``conquian_three_hand``, ``conquian_double_pack`` and
  ``conquian_coo_can``, whose game parameters are the rules' options (`load` takes
  a rules object), their seat ranges the registry's (`conquian.games`);
- the deal is a chance node per card, from the top of the pack: an outcome is
  a card (its place in the pack's distinct cards, canonical order), drawn
  with the probability of the copies left, so the pack order is uniform (C7);
- player actions are numbered by `conquian.ActionSpace` (a published format; Coo-Can's
  are its own 9,222 ids, `conquian.coocan.ids`);
- the information state string is the player's view as JSON (`PlayerView.to_json`),
  the observation tensor `PlayerView.observation` (written by
  `conquian.encoding.Observer`, its pieces named as in `observation_layout`:
  ``hand``, ``table``, ``to_play`` …), the observation string the view's JSON
  without its history: nothing a player may not know (C6);
- the observer honours ``pyspiel.IIGObservationType``: a public-only request
  (``private_info=PrivateInfoType.NONE``) gets the public observation (what every
  seat knows: no hand, no unseen cards; its string the view's JSON without player,
  hand, history and legal actions); a request with neither public nor
  private information an empty one. There is no information-state *tensor*
  (perfect recall): ``information_state_tensor``, ``information_state_tensor_shape``
  and ``information_state_tensor_size`` raise ``pyspiel.SpielError`` saying so, as
  ``gin_rummy`` does (the perfect-recall observer gives the string and an empty
  tensor, which pyspiel needs);
- ``max_game_length`` is measured, with a margin: 8 times the stock after the deal
  in the two-hand game (random deals of 2,000 seeds took 76 actions at most, the
  bound is 160), ``3 * turn_limit`` plus the pack in Cooncan (438 at most for 200
  turns, the bound 652 to 704), and in Coo-Can, whose turn is at most a draw or
  take, one meld and a discard (K3), ``3 * turn_limit`` plus the pack too (about 410
  actions for 200 turns in random deals, where most deals reach the limit; the bound
  704); ``max_chance_nodes_in_history`` is the pack (the
  deal is the only chance), read from Python (pyspiel's C++ side keeps its own);
- ``resample_from_infostate`` draws a whole state with `sample_state`, so
  OpenSpiel's `ISMCTSBot` searches on worlds the player could be in;
- games and states pickle (and deep-copy): a game is loaded again by its name and
  parameters, a state replays its history on it, in a process that has not imported
  this module too (loading imports it, which registers the games);
- the utilities are bounded by the most one player can lose, times the other players
  for a winner: one counter in Conquian (T13), 15 pips a card of a hand and a
  splash bonus in Cooncan (M7, M8), and in Coo-Can twice the game stake and the
  spot stake for ten cards of ten spots (K9: a waiting hand holds ten cards at most,
  and a Cooch doubles; `conquian.coocan.tables.settle` pays exactly that).

OpenSpiel needs a bound on a game's length: the Cooncan games and Coo-Can default
``turn_limit`` to 200 turns (M11, K8) and refuse none; every option that is None
in the library (``max_sequence``, ``splash_bonus``) is 0 here.

>>> import pyspiel  # doctest: +SKIP
>>> import conquian.openspiel  # doctest: +SKIP
>>> game = pyspiel.load_game("conquian_two_hand", {"hand_size": 9})  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

import attrs

from .agents import HeuristicAgent
from .cards import Card
from .encoding import ActionSpace, Observer
from .game import new_game
from .games import Game, find_game, game_of
from .rules import Rules

if TYPE_CHECKING:
    from .state.base import PlayerView

__all__ = ["GAMES", "heuristic_bot", "load", "params", "register", "rules_of"]

GAMES = ("conquian_two_hand", "conquian_three_hand", "conquian_double_pack", "conquian_coo_can")
"""The short names of the games in ``pyspiel``: ``conquian_`` and each game's name (its older
name where it has one)."""

_TURN_LIMIT = 200
"""The Cooncan games' default `turn_limit` in OpenSpiel, which needs a bounded length."""


def _entry(name: str) -> Game:
    """The registry's entry of an OpenSpiel short name (``conquian_`` and the game's name)."""
    return find_game(name.removeprefix("conquian_").replace("_", "-"))


def _preset(name: str) -> Rules:
    """The default rules of a game in OpenSpiel, bounded by a `turn_limit` where the game has
    one (OpenSpiel needs a bounded game length)."""
    rules: Any = _entry(name).rules()
    if "turn_limit" in attrs.fields_dict(type(rules)) and rules.turn_limit is None:
        rules = attrs.evolve(rules, turn_limit=_TURN_LIMIT)
    return rules  # type: ignore[no-any-return]


def _name(rules: Rules) -> str:
    # OpenSpiel's names predate the game name "conquian": a game is registered under its
    # older name (its first alias) where it has one, so the offer engine is conquian_two_hand.
    game = game_of(rules)
    return "conquian_" + (game.aliases[:1] or (game.name,))[0].replace("-", "_")


def _options(rules: Rules) -> list[str]:
    return [f.name for f in attrs.fields(type(rules)) if f.init and f.name != "variant"]


def params(rules: Rules) -> dict[str, Any]:
    """The game parameters of `rules`: each option, None written as 0.

    >>> params(ConquianRules.pagat())["max_sequence"]
    8
    """
    out: dict[str, Any] = {}
    for option in _options(rules):
        value = getattr(rules, option)
        out[option] = 0 if value is None else value
    return out


def _specification(name: str) -> dict[str, Any]:
    return params(_preset(name))


def rules_of(name: str, values: dict[str, Any]) -> Rules:
    """The rules of the game `name` with these parameter values (0 read as None).

    >>> rules_of("conquian_three_hand", {"jokers": 1}).jokers
    1
    """
    preset = _preset(name)
    options: dict[str, Any] = {}
    for option in _options(preset):
        value = values.get(option, getattr(preset, option))
        if value == 0 and type(value) is int and option in ("max_sequence", "splash_bonus"):
            value = None
        options[option] = value
    if "turn_limit" in options and options["turn_limit"] in (0, None):
        raise ValueError("OpenSpiel needs a bounded game: give turn_limit of 1 or more (M11)")
    return attrs.evolve(preset, **options)


def _max_length(rules: Rules) -> int:
    """A bound on the player actions of a deal, measured with a margin (M11 for Cooncan).

    Two-hand: 8 times the stock after the deal (random deals of 2,000 seeds took 76
    actions at most for a stock of 20), and the trades of the trade rounds (T21).
    Cooncan: three actions a turn (draw, take or pass, discard) and one meld at most per
    card of the pack.
    """
    dealt = len(rules.pack_cards()) - rules.players * rules.hand_size
    limit: int | None = getattr(rules, "turn_limit", None)
    if limit is None:  # T21: and one trade of each player in each trade round
        return 8 * dealt + getattr(rules, "trades", 0) * rules.players
    return 3 * limit + len(rules.pack_cards())


def _utility(rules: Rules) -> float:
    """The most one player can lose in a deal (T13; M7, M8; K9)."""
    return game_of(rules).utility(rules)  # the test checks the bound over random deals


def _distinct(rules: Rules) -> tuple[Card, ...]:
    return tuple(sorted(set(rules.pack_cards())))


def register() -> None:
    """Register the games with ``pyspiel`` (once; calling again does nothing).

    Raises `ImportError` naming the extra to install when ``pyspiel`` is missing.
    """
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:  # pragma: no cover - the extra is installed in CI
        raise ImportError("OpenSpiel is missing: pip install 'conquian[openspiel]'") from e
    known = set(pyspiel.registered_names())
    for name in GAMES:
        if name in known:
            continue
        preset = _preset(name)
        game_type = pyspiel.GameType(
            short_name=name,
            long_name="Conquian " + preset.game,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=max(_entry(name).seats),
            min_num_players=min(_entry(name).seats),
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=_specification(name),
        )
        pyspiel.register_game(game_type, _game_class(game_type))


def load(rules: Rules) -> Any:
    """The ``pyspiel`` game of `rules` (registering the games first)."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    register()
    return pyspiel.load_game(_name(rules), params(rules))


class _Shared:
    """A value every copy of a pyspiel state may share: the library's states and cards are
    immutable, so a deep copy (pyspiel's clone) takes the same object."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


@attrs.frozen
class _Context:
    """What the states of one game share: its rules, action ids and the pack's cards."""

    rules: Rules
    space: ActionSpace = attrs.field(eq=False)
    cards: tuple[Card, ...] = attrs.field(eq=False)

    @staticmethod
    def of(name: str, values: dict[str, Any]) -> _Context:
        return _context(name, tuple(sorted(values.items())))


@functools.lru_cache(maxsize=16)
def _context(name: str, values: tuple[tuple[str, Any], ...]) -> _Context:
    rules = rules_of(name, dict(values))
    return _Context(rules, ActionSpace.of(rules), _distinct(rules))


def _load_game(name: str, values: dict[str, Any]) -> Any:
    """The pyspiel game `name` with these parameters (a pickled game loads with this)."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    register()
    return pyspiel.load_game(name, values)


def _load_state(game: Any, history: list[int], deck: tuple[Card, ...], position: Any) -> Any:
    """The state of `game` after `history`, chance outcomes included (a pickled state),
    holding the library's `position` on `deck` (a state drawn by
    ``resample_from_infostate`` holds a position its history does not reach)."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    state._set(deck, position)
    return state


def _no_tensor(name: str) -> Exception:
    """The error for an information-state tensor, which these games do not give."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    error: Exception = pyspiel.SpielError(
        f"{name} has no information-state tensor (perfect recall): use observation_tensor "
        "(the player's view now) or information_state_string (the view's JSON, history "
        "included)"
    )
    return error


def _game_class(game_type: Any) -> type:
    """A ``pyspiel.Game`` class for one of the games (classes made here: pyspiel is lazy)."""
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    class Game(pyspiel.Game):  # type: ignore[misc]
        """A Conquian game for OpenSpiel; its parameters are the rules' options."""

        def __init__(self, values: dict[str, Any] | None = None) -> None:
            given = dict(_specification(game_type.short_name), **(values or {}))
            context = _Context.of(game_type.short_name, given)
            rules = context.rules
            info = pyspiel.GameInfo(
                num_distinct_actions=len(context.space),
                max_chance_outcomes=len(context.cards),
                num_players=rules.players,
                min_utility=-_utility(rules) * (rules.players - 1),
                max_utility=_utility(rules) * (rules.players - 1),
                utility_sum=0.0,
                max_game_length=_max_length(rules),
            )
            super().__init__(game_type, info, params(rules))

        def new_initial_state(self) -> Any:
            return State(self)

        def __reduce__(self) -> tuple[Any, ...]:
            return (_load_game, (game_type.short_name, dict(self.get_parameters())))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return SpielObserver(self, iig_obs_type)

        def max_chance_nodes_in_history(self) -> int:
            """The deal's chance nodes: one per card of the pack (there is no other chance)."""
            rules = _Context.of(game_type.short_name, self.get_parameters()).rules
            return len(rules.pack_cards())

        def information_state_tensor_shape(self) -> list[int]:
            raise _no_tensor(game_type.short_name)

        def information_state_tensor_size(self) -> int:
            raise _no_tensor(game_type.short_name)

    class State(pyspiel.State):  # type: ignore[misc]
        """A deal: chance nodes for the pack, then the library's state."""

        def __init__(self, game: Game) -> None:
            super().__init__(game)
            # What the game knows, from its parameters: the Python object of a game that
            # pyspiel hands back may be a fresh wrapper without this module's attributes.
            context = _Context.of(game_type.short_name, game.get_parameters())
            self.shared = _Shared((context, (), None))

        # The context, the cards dealt so far and the library's state (None while the pack
        # is dealt): one immutable triple, shared by clones.
        @property
        def game(self) -> _Context:
            context: _Context = self.shared.value[0]
            return context

        @property
        def deck(self) -> tuple[Card, ...]:
            deck: tuple[Card, ...] = self.shared.value[1]
            return deck

        @property
        def state(self) -> Any:
            return self.shared.value[2]

        def _set(self, deck: tuple[Card, ...], state: Any) -> None:
            self.shared = _Shared((self.game, deck, state))

        def current_player(self) -> int:
            if self.state is None:
                return int(pyspiel.PlayerId.CHANCE)
            player = self.state.current_player
            return int(pyspiel.PlayerId.TERMINAL) if player is None else player

        def _legal_actions(self, player: int) -> list[int]:
            assert self.state is not None
            return sorted(map(self.game.space.index, self.state.legal_actions()))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            left = Counter(self.game.rules.pack_cards())
            left.subtract(self.deck)
            total = len(self.game.rules.pack_cards()) - len(self.deck)
            return [(k, left[c] / total) for k, c in enumerate(self.game.cards) if left[c] > 0]

        def _apply_action(self, action: int) -> None:
            if self.state is None:
                deck = (*self.deck, self.game.cards[action])
                dealt = len(deck) == len(self.game.rules.pack_cards())
                self._set(deck, new_game(self.game.rules, deck=deck) if dealt else None)
                return
            self._set(self.deck, self.state.apply(self.game.space.action(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"deal {self.game.cards[action]}"
            return str(self.game.space.action(action))

        def is_terminal(self) -> bool:
            return self.state is not None and self.state.is_over

        def returns(self) -> list[float]:
            result = None if self.state is None else self.state.result
            if result is None:
                return [0.0] * self.game.rules.players
            return [float(p) for p in result.payments]

        def view(self, player: int) -> PlayerView | None:
            """The library's view for `player`, or None while the pack is dealt."""
            return None if self.state is None else self.state.view(player)

        def resample_from_infostate(self, player: int, sampler: Any) -> State:
            """A state drawn among those `player` cannot tell from this one (C6)."""
            new = State(self.get_game())
            view = self.view(player)
            if view is None:
                return new  # nothing dealt yet: every pack is possible
            rng = random.Random(int(sampler() * 2**52))
            sample = view.sample_state(rng)  # type: ignore[attr-defined]
            new._set(sample.deck, sample)
            return new

        def information_state_tensor(self, player: int | None = None) -> list[float]:
            raise _no_tensor(game_type.short_name)

        def __reduce__(self) -> tuple[Any, ...]:
            return (_load_state, (self.get_game(), list(self.history()), self.deck, self.state))

        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            return self.clone()

        def __str__(self) -> str:
            if self.state is None:
                return f"dealing: {len(self.deck)} cards"
            return repr(self.state)

    class SpielObserver:
        """What a player observes, as `IIGObservationType` asks: the view's JSON
        (perfect recall: the information state, with an empty tensor), the view's
        observation tensor and its JSON without the history (private), or the public
        observation and the view's JSON without what only the viewer knows (public)."""

        def __init__(self, game: Game, iig_obs_type: Any) -> None:
            rules = _Context.of(game_type.short_name, game.get_parameters()).rules
            recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
            private = iig_obs_type is None or (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
            )
            public = iig_obs_type is None or bool(iig_obs_type.public_info)
            self.recall = recall
            self.kind = "recall" if recall else "private" if private else "public"
            if not (private or public):
                self.kind = "none"
            self.observer = Observer(rules, public=self.kind == "public")
            size = self.observer.size if self.kind in ("private", "public") else 0
            self.buffer = self.observer.buffer() if size else None
            self.tensor = (
                np.zeros(0, np.float32)
                if self.buffer is None
                else np.frombuffer(self.buffer, np.float32)
            )
            self.dict: dict[str, Any] = {}
            if size:
                for name, piece in self.observer.slices.items():
                    self.dict[name.replace(" ", "_")] = self.tensor[piece]

        def set_from(self, state: State, player: int) -> None:
            if self.buffer is None:
                return
            if state.state is None:
                self.tensor.fill(0.0)
            else:
                self.observer.write(state.state, self.buffer, player)

        def string_from(self, state: State, player: int) -> str:
            view = state.view(player)
            if view is None:
                return f"dealing {len(state.deck)}"
            if self.kind == "recall":
                return view.to_json()
            if self.kind == "none":
                return ""
            data = json.loads(view.to_json())
            del data["history"]
            if self.kind == "public":
                for key in ("player", "hand", "legal_actions"):
                    data.pop(key, None)
            return json.dumps(data, separators=(",", ":"))

    return Game


def heuristic_bot(game: Any, player: int, seed: int = 0) -> Any:
    """OpenSpiel bot for `player` that asks `conquian.HeuristicAgent` (views only, C6)."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    class Bot(pyspiel.Bot):  # type: ignore[misc]
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            self.agent = HeuristicAgent(seed=seed)
            self.space = _Context.of(game.get_type().short_name, game.get_parameters()).space

        def step(self, state: Any) -> int:
            view = state.view(player)
            return int(self.space.index(self.agent(view)))

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

    return Bot()


# Importing the module registers the games, as OpenSpiel's Python games do;
# without the extra, `register()` says what to install.
with contextlib.suppress(ImportError):
    register()
