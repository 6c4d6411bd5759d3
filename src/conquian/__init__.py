"""conquian: the rules of Conquian, Foster's Cooncan and Coo-Can as an immutable state machine.

>>> import conquian
>>> conquian.card("5H"), conquian.parse_action("take 5H")
(card('5H'), parse_action('take 5H'))
"""

from .actions import Action, Borrow, Discard, Draw, Force, Meld, Pass, Take, Trade, parse_action
from .agents import Agent, HeuristicAgent, RandomAgent, SimulationSummary, play, simulate
from .cards import JOKER, Card, Face, NamedJoker, Suit, card, cards, joker, make_pack, pip_value
from .combos.core import Combination, Kind, Order
from .coocan import CooCanState, CooCanView
from .encoding import ActionSpace
from .errors import ConquianError, IllegalActionError, NotationError, RecordError, RulesError
from .formats.records import GameRecord
from .game import new_game, shuffle
from .games import GAMES, Game, game_of
from .match import Match
from .offer import ConquianState, ConquianView
from .rules import ConquianRules, CooCanRules, CooncanRules, Rules
from .rummy import CooncanState, CooncanView, Cut, cut_for_deal
from .scoring import ScoreSheet
from .state.base import Outcome, PlayerView, Result, State
from .table import play_match

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "JOKER",
    "Action",
    "ActionSpace",
    "Agent",
    "Borrow",
    "Card",
    "Combination",
    "ConquianError",
    "ConquianRules",
    "ConquianState",
    "ConquianView",
    "CooCanRules",
    "CooCanState",
    "CooCanView",
    "CooncanRules",
    "CooncanState",
    "CooncanView",
    "Cut",
    "Discard",
    "Draw",
    "Face",
    "Force",
    "Game",
    "GameRecord",
    "HeuristicAgent",
    "IllegalActionError",
    "Kind",
    "Match",
    "Meld",
    "NamedJoker",
    "NotationError",
    "Order",
    "Outcome",
    "Pass",
    "PlayerView",
    "RandomAgent",
    "RecordError",
    "Result",
    "Rules",
    "RulesError",
    "ScoreSheet",
    "SimulationSummary",
    "State",
    "Suit",
    "Take",
    "Trade",
    "card",
    "cards",
    "cut_for_deal",
    "game_of",
    "joker",
    "make_pack",
    "new_game",
    "parse_action",
    "pip_value",
    "play",
    "play_match",
    "shuffle",
    "simulate",
]
