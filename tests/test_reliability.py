"""Only documented exceptions leave a public function (E1, E2).

A fuzzer's property: every public function and method of the package, called
with values of the wrong type or out of range, either works or raises one of

- a `ConquianError` (`IllegalActionError`, `NotationError`, `RecordError`,
  `RulesError`), or
- a `TypeError` or `ValueError` whose message names the argument at fault,

never a bare `KeyError`, `IndexError`, `AttributeError`, or a `TypeError`
from deep inside that the caller cannot act on.

The targets are listed by hand, one per argument, so that a new public
function is fuzzed only once it is added here (see `TARGETS`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import conquian
from conquian import (
    JOKER,
    ActionSpace,
    Borrow,
    Card,
    ConquianError,
    ConquianRules,
    ConquianState,
    CooCanRules,
    CooCanState,
    CooCanView,
    CooncanRules,
    CooncanState,
    Discard,
    Force,
    GameRecord,
    HeuristicAgent,
    Match,
    Meld,
    NamedJoker,
    Order,
    RandomAgent,
    Result,
    ScoreSheet,
    State,
    Suit,
    Take,
    Trade,
    card,
    cards,
    cut_for_deal,
    joker,
    make_pack,
    new_game,
    parse_action,
    pip_value,
    play,
    shuffle,
    simulate,
)
from conquian.cards import parse_face
from conquian.combos.core import build
from conquian.errors import check_seat
from conquian.games import find_game
from conquian.rules import options

# -- wrong values ---------------------------------------------------------------------------------

wrong_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.sampled_from([-(2**63), 2**63, 10**40]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, -1.0, math.nan, math.inf]),
    st.text(max_size=12),
    st.sampled_from(["", "0", "1", "5H", "JK", "JK=4D", "pass", "spanish", "@1", "-1", "{}", "[]"]),
    st.binary(max_size=6),
    st.just(object()),
    st.sampled_from(
        [JOKER, card("5H"), joker("5"), Take(card("5H")), Suit.HEARTS, ConquianRules()]
    ),
)
wrong_values = st.one_of(
    wrong_scalars,
    st.lists(wrong_scalars, max_size=4),
    st.tuples(wrong_scalars, wrong_scalars),
    st.dictionaries(st.text(max_size=4), wrong_scalars, max_size=3),
    st.sets(st.integers(), max_size=3),
    st.just(iter(())),
)

# -- the targets ----------------------------------------------------------------------------------

TWO = new_game(ConquianRules(), seed=1)
TWO_MELDING = TWO.apply(TWO.legal_actions()[0])
THREE = new_game(CooncanRules.three_hand(jokers=1), seed=2)
DOUBLE = new_game(CooncanRules.double_pack(players=5), seed=3)
STATES: tuple[State, ...] = (TWO, TWO_MELDING, THREE, DOUBLE)
RECORD = GameRecord.from_state(THREE.apply(THREE.legal_actions()[0]))
SHEET = ScoreSheet(players=3)
MATCH = Match(ConquianRules(), seed=1)
ORDER = Order.of("standard")
SPACE = ActionSpace(ConquianRules())
SEQUENCE = build(cards("4H 5H 6H"), ORDER)
assert SEQUENCE is not None


@dataclass(frozen=True)
class Target:
    """One argument of one public function: `call(value)` passes `value` as that argument.

    `names` are the words of which a TypeError or ValueError must contain one.
    """

    name: str
    call: Callable[[object], object]
    names: tuple[str, ...]

    def __repr__(self) -> str:
        return self.name


def _targets() -> list[Target]:
    t: list[Target] = []

    def add(name: str, call: Callable[[object], object], *names: str) -> None:
        t.append(Target(name, call, names or (name.rsplit(".", 1)[-1],)))

    # cards
    add("card", lambda v: card(v), "card", "text")  # type: ignore[arg-type]
    add("card.column", lambda v: card("XX", column=v), "column")  # type: ignore[arg-type]
    add("cards", lambda v: cards(v), "card", "text")  # type: ignore[arg-type]
    add("joker", lambda v: joker(v), "joker")  # type: ignore[arg-type]
    add("joker.shifted", lambda v: joker("5H", shifted=v), "shifted")  # type: ignore[arg-type]
    add("parse_face", lambda v: parse_face(v), "card")  # type: ignore[arg-type]
    add("make_pack.name", lambda v: make_pack(v), "pack")  # type: ignore[arg-type]
    add("make_pack.copies", lambda v: make_pack(copies=v))  # type: ignore[arg-type]
    add("make_pack.jokers", lambda v: make_pack(jokers=v))  # type: ignore[arg-type]
    add("pip_value", lambda v: pip_value(v), "Card")  # type: ignore[arg-type]
    add("Card.rank", lambda v: Card(v, Suit.HEARTS), "rank")  # type: ignore[arg-type]
    add("Card.suit", lambda v: Card(5, v), "suit")  # type: ignore[arg-type]
    add("NamedJoker.rank", lambda v: NamedJoker(v), "rank")  # type: ignore[arg-type]
    add("NamedJoker.suit", lambda v: NamedJoker(5, v), "suit")  # type: ignore[arg-type]
    add("NamedJoker.shifted", lambda v: NamedJoker(5, shifted=v), "shifted")  # type: ignore[arg-type]
    # actions
    add("parse_action", lambda v: parse_action(v), "action")  # type: ignore[arg-type]
    add("Take.card", lambda v: Take(v), "card")  # type: ignore[arg-type]
    add("Discard.card", lambda v: Discard(v), "card")  # type: ignore[arg-type]
    add("Trade.card", lambda v: Trade(v), "card")  # type: ignore[arg-type]
    add("Borrow.card", lambda v: Borrow(v, 0), "card")  # type: ignore[arg-type]
    add("Borrow.source", lambda v: Borrow(card("5H"), v), "source")  # type: ignore[arg-type]
    add("Force.card", lambda v: Force(v, 0), "card")  # type: ignore[arg-type]
    add("Force.onto", lambda v: Force(card("5H"), v), "onto")  # type: ignore[arg-type]
    add("Force.shift", lambda v: Force(card("5H"), 0, v), "shift")  # type: ignore[arg-type]
    add("Meld.cards", lambda v: Meld(v), "cards", "meld")  # type: ignore[arg-type]
    add("Meld.onto", lambda v: Meld(cards("5H"), v), "onto")  # type: ignore[arg-type]
    add("Meld.shift", lambda v: Meld(cards("5H"), 1, v), "shift")  # type: ignore[arg-type]
    # rules
    # Every option the rules classes declare (`conquian.rules.options`), and T8's old name.
    for option in (*[o.name for o in options(ConquianRules)], "lay_down_from_hand"):
        add(f"ConquianRules.{option}", lambda v, o=option: ConquianRules(**{o: v}), option)
        add(
            f"ConquianRules.pagat.{option}",
            lambda v, o=option: ConquianRules.pagat(**{o: v}),
            option,
        )
    for option in ("variant", *[o.name for o in options(CooncanRules)]):
        add(f"CooncanRules.{option}", lambda v, o=option: CooncanRules(**{o: v}), option)
        add(
            f"CooncanRules.double_pack.{option}",
            lambda v, o=option: CooncanRules.double_pack(**{o: v}),
            option,
        )
    for option in [o.name for o in options(CooCanRules)]:
        add(f"CooCanRules.{option}", lambda v, o=option: CooCanRules(**{o: v}), option)
    # states: the moves
    for i, state in enumerate(STATES):
        add(f"state{i}.apply", state.apply, "action")  # type: ignore[arg-type]
        add(f"state{i}.is_legal", state.is_legal, "action")  # type: ignore[arg-type]
    for i, state in enumerate(STATES):
        add(f"state{i}.hand", state.hand, "player")  # type: ignore[arg-type]
        add(f"state{i}.view", state.view, "player")  # type: ignore[arg-type]
    # combos
    add("Order.pack", lambda v: Order(v), "pack")  # type: ignore[arg-type]
    add("Order.max_sequence", lambda v: Order("standard", v), "max_sequence")  # type: ignore[arg-type]
    add("Order.of", lambda v: Order.of(v), "pack")  # type: ignore[arg-type]
    # games, records, scores
    add("new_game.rules", lambda v: new_game(v, seed=1), "rules")  # type: ignore[arg-type]
    add("game_of", lambda v: conquian.game_of(v), "rules")  # type: ignore[arg-type]
    add("games.find_game", lambda v: find_game(v), "game")  # type: ignore[arg-type]
    add("new_game.seed", lambda v: new_game(ConquianRules(), seed=v), "seed")  # type: ignore[arg-type]
    add("new_game.deck", lambda v: new_game(ConquianRules(), deck=v), "deck")  # type: ignore[arg-type]
    add("shuffle.seed", lambda v: shuffle(make_pack(), v), "seed")  # type: ignore[arg-type]
    add("cut_for_deal.seed", lambda v: cut_for_deal(["a", "b", "c"], v), "seed")  # type: ignore[arg-type]
    add("State.from_json", lambda v: State.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("ConquianState.from_json", lambda v: ConquianState.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("CooncanState.from_json", lambda v: CooncanState.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("CooCanState.from_json", lambda v: CooCanState.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("CooCanView.from_json", lambda v: CooCanView.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("GameRecord.from_json", lambda v: GameRecord.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("GameRecord.rules", lambda v: GameRecord(v, RECORD.deck), "rules")  # type: ignore[arg-type]
    add("GameRecord.deck", lambda v: GameRecord(RECORD.rules, v), "deck", "card")  # type: ignore[arg-type]
    add("GameRecord.dealer", lambda v: GameRecord(RECORD.rules, RECORD.deck, dealer=v), "dealer")  # type: ignore[arg-type]
    add(
        "GameRecord.metadata",
        lambda v: GameRecord(RECORD.rules, RECORD.deck, metadata=v),
        "metadata",
    )  # type: ignore[arg-type]
    add("GameRecord.from_state", lambda v: GameRecord.from_state(v), "state")  # type: ignore[arg-type]
    add("new_game.dealer", lambda v: new_game(ConquianRules(), seed=1, dealer=v), "dealer")  # type: ignore[arg-type]
    add("cut_for_deal.players", lambda v: cut_for_deal(v, 1), "player")  # type: ignore[arg-type]
    add("shuffle.pack", lambda v: shuffle(v, 1), "pack", "card")  # type: ignore[arg-type]
    add("ScoreSheet.rows", lambda v: ScoreSheet(2, v), "row")  # type: ignore[arg-type]
    add("GameRecord.actions", lambda v: GameRecord(RECORD.rules, RECORD.deck, actions=v), "action")  # type: ignore[arg-type]
    add(
        "GameRecord.player_names",
        lambda v: GameRecord(RECORD.rules, RECORD.deck, player_names=v),
        "name",
    )  # type: ignore[arg-type]
    add("ScoreSheet.players", lambda v: ScoreSheet(v), "player")  # type: ignore[arg-type]
    add("ScoreSheet.add", lambda v: SHEET.add(v), "result")  # type: ignore[arg-type]
    add("Result.outcome", lambda v: Result(v), "outcome")  # type: ignore[arg-type]
    add("Result.payments", lambda v: Result("win", 0, v), "payments")  # type: ignore[arg-type]
    add("check_seat", lambda v: check_seat(v, 3), "player")
    # bots and learning frameworks
    add("ActionSpace.rules", lambda v: ActionSpace(v), "rules")  # type: ignore[arg-type]
    add("ActionSpace.index", lambda v: SPACE.index(v), "action")  # type: ignore[arg-type]
    add("ActionSpace.action", lambda v: SPACE.action(v), "id", "index")  # type: ignore[arg-type]
    add("ActionSpace.mask", lambda v: SPACE.mask(v), "view")  # type: ignore[arg-type]
    add("RandomAgent.seed", lambda v: RandomAgent(v), "seed")  # type: ignore[arg-type]
    add("HeuristicAgent.seed", lambda v: HeuristicAgent(v), "seed")  # type: ignore[arg-type]
    add("play.agents", lambda v: play(v, ConquianRules(), seed=1), "agent")  # type: ignore[arg-type]
    add("play.rules", lambda v: play([RandomAgent(1), RandomAgent(2)], v, seed=1), "rules")  # type: ignore[arg-type]
    add("simulate.agents", lambda v: simulate(v, ConquianRules(), games=1), "agent")  # type: ignore[arg-type]
    add(
        "play_match.match",
        lambda v: conquian.play_match(v, [RandomAgent(1), RandomAgent(2)]),  # type: ignore[arg-type]
        "match",
    )
    add(
        "play_match.agents",
        lambda v: conquian.play_match(Match(ConquianRules(), 1, deals=1), v),  # type: ignore[arg-type]
        "agent",
    )
    add("simulate.seed", lambda v: simulate(["random"] * 2, ConquianRules(), 1, v), "seed")  # type: ignore[arg-type]
    # matches (conquian.match) and their sheets
    add("Match.rules", lambda v: Match(v, seed=1), "rules")  # type: ignore[arg-type]
    add("Match.seed", lambda v: Match(ConquianRules(), seed=v), "seed")  # type: ignore[arg-type]
    add("Match.scoring", lambda v: Match(ConquianRules(), 1, v), "scoring")  # type: ignore[arg-type]
    add("Match.target", lambda v: Match(ConquianRules(), 1, target=v), "target")  # type: ignore[arg-type]
    add("Match.rounds", lambda v: Match(ConquianRules(), 1, rounds=v), "rounds")  # type: ignore[arg-type]
    add("Match.people", lambda v: Match(ConquianRules(), 1, people=v), "people")  # type: ignore[arg-type]
    add("Match.dealer", lambda v: Match(ConquianRules(), 1, dealer=v), "dealer")  # type: ignore[arg-type]
    add("Match.deck", lambda v: Match(ConquianRules(), deck=v), "deck", "card")  # type: ignore[arg-type]
    add("Match.apply", lambda v: MATCH.apply(v), "action")  # type: ignore[arg-type]
    add("Match.view", lambda v: MATCH.view(v), "person")  # type: ignore[arg-type]
    add("Match.from_json", lambda v: Match.from_json(v), "text", "json")  # type: ignore[arg-type]
    add("ScoreSheet.from_json", lambda v: ScoreSheet.from_json(v), "text", "json")  # type: ignore[arg-type]
    add(
        "ScoreSheet.add.seats",
        lambda v: SHEET.add(Result("tableau", None, (0, 0)), seats=v),
        "seats",
    )  # type: ignore[arg-type]
    return t


TARGETS = _targets()

# The names of `conquian.__all__` that take no argument worth fuzzing, and why.
NOT_FUZZED = {
    "JOKER": "a constant",
    "GAMES": "a read-only mapping of the registry's entries",
    "Game": "an entry of the registry, made only in conquian.games",
    "Action": "a type alias",
    "Face": "a type alias",
    "Rules": "a type alias",
    "Agent": "a protocol",
    "Pass": "takes no argument",
    "Draw": "takes no argument",
    "Kind": "an enum: Kind(value) raises ValueError naming the class",
    "Outcome": "an enum: Outcome(value) raises ValueError naming the class",
    "Suit": "an enum: Suit(value) raises ValueError naming the class",
    "ConquianError": "an exception class",
    "IllegalActionError": "an exception class",
    "NotationError": "an exception class",
    "RecordError": "an exception class",
    "RulesError": "an exception class",
    "ConquianView": "made by state.view, fuzzed there",
    "CooncanView": "made by state.view, fuzzed there",
    "PlayerView": "made by state.view, fuzzed there",
    "Cut": "made by cut_for_deal, fuzzed there",
    "SimulationSummary": "made by simulate, fuzzed there",
    "Combination": "a plain value the engines build; its checks are `combos.build`'s",
}


def test_every_public_name_is_fuzzed_or_said_why_not() -> None:
    """Each name of `conquian.__all__` has a target above, or a reason in NOT_FUZZED."""
    roots = {t.name.split(".")[0] for t in TARGETS}
    roots |= {"ConquianState", "CooncanState"} if "state0" in roots else set()
    missing = [n for n in conquian.__all__ if n not in roots and n not in NOT_FUZZED]
    assert missing == []


def _documented(error: BaseException, target: Target) -> bool:
    """Whether `error` is one a caller of `target` may be expected to catch."""
    if isinstance(error, ConquianError):
        return True
    if type(error) in (TypeError, ValueError):
        text = str(error).lower()
        return any(name.lower() in text for name in target.names)
    return False


def _check(target: Target, value: object) -> None:
    try:
        target.call(value)
    except Exception as error:
        if not _documented(error, target):
            raise AssertionError(
                f"{target.name}({value!r}) raised {type(error).__name__}: {error}"
            ) from error


@pytest.mark.parametrize("target", TARGETS, ids=repr)
@given(value=wrong_values)
def test_e2_public_functions_raise_only_documented_errors(target: Target, value: object) -> None:
    """E1, E2: a wrong argument gets a ConquianError, or a TypeError/ValueError naming it."""
    _check(target, value)


# -- seats ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 2, 7, 10**30])
@pytest.mark.parametrize("state", STATES, ids=lambda s: type(s).__name__)
def test_seats_out_of_range_are_value_errors(state: State, seat: int) -> None:
    """An int that is no seat of the game raises ValueError from `hand` and `view`."""
    if seat < state.rules.players:
        seat = -1
    for method in (state.hand, state.view):
        with pytest.raises(ValueError):
            method(seat)


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, "0", None, [0]])
@pytest.mark.parametrize("state", STATES, ids=lambda s: type(s).__name__)
def test_seats_are_ints_not_bools_floats_or_strings(state: State, seat: object) -> None:
    """A seat given as a bool, a float or a string raises TypeError naming `player`."""
    for method in (state.hand, state.view):
        with pytest.raises(TypeError, match="player"):
            method(seat)  # type: ignore[arg-type]


# -- the checks of single arguments ---------------------------------------------------------------


@pytest.mark.parametrize("pack", [[], {}, ["standard"], b"standard", None])
def test_c4_order_of_checks_the_pack_before_its_cache(pack: object) -> None:
    """C4: an unhashable or non-str pack raises TypeError naming `pack`, never 'unhashable'."""
    for make in (Order, Order.of):
        with pytest.raises(TypeError, match="pack must be a pack name"):
            make(pack)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("max_sequence", "error"),
    [([8], TypeError), (8.0, TypeError), (True, TypeError), ("8", TypeError), (2, ValueError)],
)
def test_t14_order_checks_max_sequence(max_sequence: object, error: type[Exception]) -> None:
    """T14: a cap is None or an int of at least 3 (a sequence's least length, C4)."""
    for make in (Order, Order.of):
        with pytest.raises(error, match="max_sequence"):
            make("spanish", max_sequence)  # type: ignore[operator]


def test_t14_order_of_shares_one_order_per_pack_and_cap() -> None:
    """T14: the same pack and cap give the same object; a cap past the pack's longest is none."""
    assert Order.of("spanish", 8) is Order.of("spanish", 8)
    assert Order.of("american", 11) is Order.of("american", 10**30) is Order.of("american")
    assert Order.of("standard", 3).longest == 3


@pytest.mark.parametrize("payments", [(True, False), (-1.0, 1.0), ("-1", "1"), "01", 3, None])
def test_t13_result_payments_are_ints(payments: object) -> None:
    """T13, M7: a payment is an int of counters or pips; a bool is no payment."""
    with pytest.raises(TypeError, match="payments"):
        Result("win", 1, payments)  # type: ignore[arg-type]


def test_t13_result_winner_is_a_seat_of_the_payments() -> None:
    """T13: the winner is an int seat among those of `payments`."""
    assert Result("win", 1, iter([-1, 1])).payments == (-1, 1)
    with pytest.raises(TypeError, match="winner"):
        Result("win", True, (-1, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"winner.*payments"):
        Result("win", 2, (-1, 1))


@pytest.mark.parametrize("players", ["Ann Bob", None, 2, iter(["Ann", "Bob"]), ["Ann", 2]])
def test_m13_cut_for_deal_takes_a_sequence_of_names(players: object) -> None:
    """M13: cutting takes the players' names as a list or tuple of str."""
    with pytest.raises(TypeError, match="players"):
        cut_for_deal(players, 1)  # type: ignore[arg-type]


def test_m13_cut_for_deal_needs_a_card_for_each_player() -> None:
    """M13: a cut needs a card for each player: more players than cards is refused."""
    rules = CooncanRules.three_hand()
    with pytest.raises(ValueError, match="players"):
        cut_for_deal([str(i) for i in range(len(rules.pack_cards()) + 1)], 1, rules)


def test_play_and_simulate_name_the_wrong_argument() -> None:
    """`play` and `simulate` refuse agents, rules and seeds of the wrong type, naming them."""
    two = [RandomAgent(1), RandomAgent(2)]
    with pytest.raises(TypeError, match="rules"):
        play(two, None, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="agents"):
        play(RandomAgent(1), ConquianRules(), seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="agents"):
        play([RandomAgent(1), "random"], ConquianRules(), seed=1)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="rules"):
        simulate(["random"] * 2, "two-hand", games=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="agents"):
        simulate("random", ConquianRules(), games=1)
    with pytest.raises(TypeError, match="seed"):
        simulate(["random"] * 2, ConquianRules(), 1, True)
