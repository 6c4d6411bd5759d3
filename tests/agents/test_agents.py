"""Bots and simulation: agents see only views, always play legally, and the heuristic wins."""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest

from conquian import (
    Action,
    Card,
    ConquianRules,
    CooncanRules,
    Discard,
    Force,
    Outcome,
    Pass,
    PlayerView,
    Rules,
    State,
    Take,
    cards,
    new_game,
)
from conquian.agents import (
    AGENTS,
    Agent,
    HeuristicAgent,
    RandomAgent,
    SimulationSummary,
    analysis,
    make_agent,
    play,
    simulate,
    wilson_interval,
)
from conquian.agents.heuristic import ranked

TWO_HAND = ConquianRules()
THREE_HAND = CooncanRules.three_hand(turn_limit=300)
DOUBLE_PACK = CooncanRules.double_pack(players=4, turn_limit=300)

VARIANTS = [
    ConquianRules(),
    ConquianRules.pagat(),
    ConquianRules.hoyle(pack="american", hand_size=9),
    CooncanRules.three_hand(turn_limit=120),
    CooncanRules.three_hand(jokers=1, stock="open", splash_bonus=25, turn_limit=120),
    CooncanRules.three_hand(players=2, turn_limit=120),
    CooncanRules.double_pack(players=4, turn_limit=120),
    CooncanRules.double_pack(players=5, splash_bonus=50, turn_limit=120),
]


class Checked:
    """An agent wrapper that checks what it is given and what the inner agent returns."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.seen: list[type] = []

    def __call__(self, view: PlayerView) -> Action:
        self.seen.append(type(view))
        assert isinstance(view, PlayerView) and not isinstance(view, State)
        for field in attrs.fields(type(view)):
            assert not isinstance(getattr(view, field.name), State), field.name
        action = self.inner(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        return action


def _deck_two_hand(pone: str, dealer: str, starter: str) -> list[Card]:
    """A two-hand deck dealing these hands (two at a time, pone first) and this starter (T1)."""
    p, d, s = list(cards(pone)), list(cards(dealer)), cards(starter)[0]
    rest = [c for c in TWO_HAND.pack_cards() if c not in {*p, *d, s}]
    deck: list[Card] = []
    for i in range(0, 10, 2):
        deck += p[i : i + 2] + d[i : i + 2]
    return [*deck, s, *rest]


def _deck_three_hand(hands: Sequence[str], stock: str, pack_top: str) -> list[Card]:
    """A three-hand deck dealing hands[0..2] to seats 1, 2, 0 (dealer 0), then stock, pack (M1)."""
    dealt = [list(cards(h)) for h in hands]
    first = [cards(stock)[0], cards(pack_top)[0]]
    used = {c for h in dealt for c in h} | set(first)
    deck = [dealt[k % 3][k // 3] for k in range(21)]
    return deck + first + [c for c in THREE_HAND.pack_cards() if c not in used]


# -- the protocol and RandomAgent --------------------------------------------------------


def test_agent_protocol_accepts_plain_functions_and_the_bots() -> None:
    """Any callable from a view to an action is an Agent, and so are both bots."""

    def first(view: PlayerView) -> Action:
        return view.legal_actions[0]

    assert isinstance(first, Agent)
    assert isinstance(RandomAgent(seed=1), Agent)
    assert isinstance(HeuristicAgent(), Agent)


def test_random_agent_is_reproducible_from_its_seed() -> None:
    """Two random agents with one seed play the same game; another seed plays another."""
    games = [
        play([RandomAgent(seed), RandomAgent(seed + 1)], TWO_HAND, seed=4).history
        for seed in (10, 10, 11)
    ]
    assert games[0] == games[1]
    assert games[0] != games[2]


def test_random_agent_is_uniform_over_the_legal_actions() -> None:
    """Over many calls every legal action comes up, in about equal shares."""
    state = new_game(TWO_HAND, seed=7).apply("pass")
    view = state.view(state.current_player or 0)
    agent = RandomAgent(seed=5)
    counts = {a: 0 for a in view.legal_actions}
    for _ in range(600):
        counts[agent(view)] += 1
    assert len(counts) >= 2
    expected = 600 / len(counts)
    assert all(0.6 * expected < n < 1.4 * expected for n in counts.values()), counts


@pytest.mark.parametrize("agent", [RandomAgent(seed=1), HeuristicAgent()], ids=repr)
def test_agents_refuse_a_view_without_legal_actions(agent: Agent) -> None:
    """Asked to act when it is not his turn, a bot raises instead of inventing a move."""
    state = new_game(TWO_HAND, seed=7)
    with pytest.raises(ValueError, match="no legal action"):
        agent(state.view(1 - (state.current_player or 0)))


# -- agents only ever see views ------------------------------------------------------------


SHORT = [
    TWO_HAND,
    CooncanRules.three_hand(turn_limit=60),
    CooncanRules.double_pack(players=4, turn_limit=60),
]


@pytest.mark.parametrize("rules", SHORT, ids=lambda r: r.game)
def test_play_gives_agents_views_never_states(rules: Rules) -> None:
    """Every agent receives PlayerView values of its own seat, never a State (C6)."""
    seats = [Checked(RandomAgent(seed=s)) for s in range(rules.players)]
    final = play(seats, rules, seed=3)
    assert final.is_over
    for agent in seats:
        assert agent.seen
        assert all(issubclass(t, PlayerView) and not issubclass(t, State) for t in agent.seen)


def test_play_calls_each_agent_with_its_own_seat() -> None:
    """The view an agent gets is the view of the seat it sits in."""
    players: list[list[int]] = [[], [], []]

    def seat_recorder(seat: int) -> Agent:
        inner = RandomAgent(seed=seat)

        def agent(view: PlayerView) -> Action:
            players[seat].append(view.player)
            return inner(view)

        return agent

    play([seat_recorder(s) for s in range(3)], CooncanRules.three_hand(turn_limit=30), seed=2)
    assert all(seen and set(seen) == {seat} for seat, seen in enumerate(players))


# -- the heuristic always plays legally --------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_heuristic_always_returns_a_legal_action(rules: Rules) -> None:
    """In every game and option set, each choice of the heuristic is in view.legal_actions."""
    for seed in (1, 2):
        agents: list[Agent] = [Checked(HeuristicAgent())]
        agents += [Checked(RandomAgent(seed=s)) for s in range(rules.players - 1)]
        assert play(agents, rules, seed=seed, dealer=seed % rules.players).is_over


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_heuristic_keeping_its_splits_chooses_as_a_fresh_one(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The splits a HeuristicAgent keeps between decisions change none of its choices.

    The kept splits are a shortcut: each decision is checked against `ranked`,
    which works the hand out afresh. The store is bounded: a small bound makes it
    start over often, and it never holds more hands than the bound allows.
    """
    monkeypatch.setattr(analysis, "_SPLITS_KEPT", 40)
    bot = HeuristicAgent()
    restarts = 0
    for seed in (3, 4):
        state = new_game(rules, seed=seed)
        for _ in range(150):
            seat = state.current_player
            if seat is None:
                break
            view = state.view(seat)
            before = {kind: (id(kept), len(kept)) for kind, kept in bot._splits.items()}
            action = bot(view)
            assert action == ranked(view)[0]
            for kind, (place, size) in before.items():
                if size > 40 and len(view.legal_actions) > 1:
                    assert id(bot._splits[kind]) != place  # over the bound: started over
                    restarts += 1
            state = state.apply(action)
    assert restarts > 0


def test_heuristic_never_forces_a_card_that_puts_the_opponent_out() -> None:
    """A force that gives the opponent his winning card is never chosen (T10; Foster p. 52)."""
    agent = HeuristicAgent()
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(TWO_HAND, seed=seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if any(isinstance(a, Force) for a in state.legal_actions()):
                choice = agent(state.view(seat))
                if isinstance(choice, Force):
                    checked += 1
                    result = state.apply(choice).result
                    assert result is None or result.winner != 1 - seat
            actions = state.legal_actions()
            state = state.apply(actions[int(rng.random() * len(actions))])
    assert checked > 0


# -- Foster's suggestions in clear cases ---------------------------------------------------


def test_heuristic_takes_a_card_that_fills_a_sequence_and_discards_deadwood() -> None:
    """Starter 3C fills AC 2C: take it, meld the sequence, let an unconnected card go (T8)."""
    deck = _deck_two_hand("AC 2C 5D 5H 6H 7H JS QS 4D KH", "AD 2D 3D AH 2H 3H AS 2S 3S 4S", "3C")
    state = new_game(TWO_HAND, deck=deck, dealer=1)
    agent = HeuristicAgent()
    played = []
    while state.current_player == 0:
        action = agent(state.view(0))
        played.append(action)
        state = state.apply(action)
    assert played[0] == Take(cards("3C")[0])
    assert any(str(a) == "meld AC 2C 3C" for a in played)
    assert isinstance(played[-1], Discard)
    assert played[-1] == Discard(cards("KH")[0])  # the one card that connects with nothing


def test_heuristic_plays_for_a_tableau_with_a_hopeless_hand() -> None:
    """Eight unconnected cards: refuse even a card that fills (Foster p. 60, pagat)."""
    hopeless = "AC 2C 6C 3D 7D KD 4H QH 5S JS"
    deck = _deck_two_hand(hopeless, "AD 2D 4D AH 2H 3H AS 2S 3S 4S", "3C")
    state = new_game(TWO_HAND, deck=deck, dealer=1)
    view = state.view(0)
    assert Take(cards("3C")[0]) in view.legal_actions
    assert HeuristicAgent()(view) == Pass()


def test_heuristic_goes_out_as_soon_as_it_can() -> None:
    """Drawing the card that completes his hand, a Cooncan player lays all down (M10)."""
    deck = _deck_three_hand(
        ["2C 3C 4C 9D 9H 9S KD", "AH 3H 5H 7H JH KH 2S", "AD 3D 5D 7D JD 4S 6S"], "QC", "5C"
    )
    final = play([HeuristicAgent() for _ in range(3)], THREE_HAND, deck=deck, dealer=0)
    assert final.result is not None
    assert final.result.winner == 1
    assert len(final.history) == 4  # draw, meld, meld, discard: a splash (p. 11)


def test_heuristic_sheds_its_highest_card_when_it_cannot_win() -> None:
    """With seven unconnected cards and nothing to fill, the king goes first (p. 13)."""
    deck = _deck_three_hand(
        ["2C 6C 9C 3D 8D 5H KS", "AH 3H 7H JH 2S 4D 6D", "AD 5D 7D 10D 3S 6S 8S"], "QH", "4S"
    )
    state = new_game(THREE_HAND, deck=deck, dealer=0)
    agent = HeuristicAgent()
    state = state.apply(agent(state.view(1)))
    assert str(state.history[-1]) == "draw"
    assert agent(state.view(1)) == Discard(cards("KS")[0])


# -- the heuristic against random play ---------------------------------------------------


def test_heuristic_beats_random_in_the_two_hand_game() -> None:
    """Seats swapped game by game, the heuristic wins far more deals than random play."""
    s = simulate(["heuristic", "random"], TWO_HAND, games=40, seed=2024)
    assert s.wins[0] >= 16  # measured: 20 wins, 1 loss, 19 tableaus
    assert s.wins[0] >= 4 * s.wins[1]


def test_heuristic_beats_two_random_players_in_three_hand() -> None:
    """One heuristic against two random players wins most deals (fair share: a third)."""
    s = simulate(["heuristic", "random", "random"], THREE_HAND, games=12, seed=2024)
    assert s.wins[0] >= 10  # measured: 12 of 12
    assert s.payments[0] > 0


def test_heuristic_beats_three_random_players_with_the_double_pack() -> None:
    """One heuristic against three random players wins most deals (fair share: a quarter)."""
    s = simulate(["heuristic", "random", "random", "random"], DOUBLE_PACK, games=8, seed=2024)
    assert s.wins[0] >= 6  # measured: 8 of 8
    assert s.payments[0] > 0


# -- play and simulate -------------------------------------------------------------------


def test_play_returns_the_finished_state_of_the_seeded_deal() -> None:
    """play deals with new_game(seed, dealer) and applies exactly the agents' actions."""
    final = play([RandomAgent(1), RandomAgent(2)], TWO_HAND, seed=9, dealer=1)
    state = new_game(TWO_HAND, seed=9, dealer=1)
    for action in final.history:
        state = state.apply(action)
    assert state == final and final.is_over


def test_play_observer_sees_every_action() -> None:
    """The observer is told each action with the states around it and the seat that acted."""
    seen: list[tuple[int, Action]] = []

    def observe(before: State, seat: int, action: Action, after: State) -> None:
        assert before.current_player == seat and after.history[-1] == action
        seen.append((seat, action))

    final = play([RandomAgent(3), RandomAgent(4)], TWO_HAND, seed=1, observe=observe)
    assert [a for _, a in seen] == list(final.history)


def test_play_checks_the_number_of_agents_and_the_turn_limit() -> None:
    """One agent per seat; a Cooncan deal between bots needs a turn_limit to end (M11)."""
    with pytest.raises(ValueError, match="needs 2 agents"):
        play([RandomAgent(1)], TWO_HAND, seed=1)
    with pytest.raises(ValueError, match="turn_limit"):
        play([RandomAgent(s) for s in range(3)], CooncanRules.three_hand(), seed=1)


def test_simulate_is_reproducible_and_counts_every_deal() -> None:
    """The same seed gives the same summary; every deal is a win, tableau or abandon."""
    a = simulate(["heuristic", "random", "random"], THREE_HAND, games=6, seed=3)
    b = simulate(["heuristic", "random", "random"], THREE_HAND, games=6, seed=3)
    assert a == b
    assert sum(a.wins) + a.tableaus + a.abandoned == a.games == 6
    assert sum(a.seat_wins) == sum(a.wins)
    assert sum(a.payments) == 0
    assert a.mean_decisions > 0 and a.games_per_second > 0


def test_simulate_gives_the_same_counts_with_two_processes() -> None:
    """jobs=2 plays the same deals as jobs=1 and sums them to the same summary."""
    one = simulate(["heuristic", "random"], TWO_HAND, games=8, seed=12, jobs=1)
    two = simulate(["heuristic", "random"], TWO_HAND, games=8, seed=12, jobs=2)
    assert one == two
    assert (one.jobs, two.jobs) == (1, 2)


def test_simulate_rotates_seats_so_results_follow_the_agent() -> None:
    """With identical agents on both sides, rotation spreads the deals over both seats."""
    s = simulate([RandomAgent, RandomAgent], TWO_HAND, games=20, seed=1)
    assert s.agents == ("RandomAgent", "RandomAgent")
    unrotated = simulate(["random", "random"], TWO_HAND, games=20, seed=1, rotate=False)
    assert unrotated.wins == unrotated.seat_wins


def test_simulate_reports_progress() -> None:
    """The progress callback counts the deals up to the total."""
    calls: list[tuple[int, int]] = []
    simulate(
        ["random", "random"], TWO_HAND, games=3, seed=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_simulate_rejects_bad_arguments() -> None:
    """Unknown agent names, a wrong number of agents and bad counts are ValueErrors."""
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        simulate(["genius", "random"], TWO_HAND, games=1)
    with pytest.raises(ValueError, match="needs 3 agents"):
        simulate(["random"], THREE_HAND, games=1)
    with pytest.raises(ValueError, match="jobs"):
        simulate(["random", "random"], TWO_HAND, games=1, jobs=0)


def test_summary_dict_holds_rates_and_intervals() -> None:
    """to_dict gives JSON-ready win rates with Wilson intervals around them."""
    s = SimulationSummary(
        game="two-hand",
        agents=("a", "b"),
        games=10,
        seed=0,
        wins=(6, 1),
        seat_wins=(4, 3),
        payments=(5, -5),
        tableaus=3,
        abandoned=0,
        decisions=500,
        elapsed=2.0,
    )
    d = s.to_dict()
    assert d["agents"][0]["win_rate"] == 0.6
    lo, hi = d["agents"][0]["ci95"]
    assert lo < 0.6 < hi
    assert d["mean_decisions"] == 50.0 and d["games_per_second"] == 5.0


def test_wilson_interval_matches_the_formula() -> None:
    """Known values of the 95% Wilson interval, and its behaviour at the edges."""
    lo, hi = wilson_interval(60, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5020, 0.6906)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_make_agent_knows_the_named_agents() -> None:
    """make_agent builds every agent of AGENTS and names the known ones on a typo."""
    known = {"heuristic", "heuristic@v1", "ismcts", "pimc", "pimc@v1", "random", "search"}
    assert set(AGENTS) == known
    assert isinstance(make_agent("heuristic", 1), HeuristicAgent)
    with pytest.raises(ValueError, match=", ".join(sorted(known))):
        make_agent("clever", 1)


def test_a_finished_deal_between_heuristics_ends_in_every_game() -> None:
    """Heuristic bots finish deals of every game without reaching the turn limit."""
    for rules in (TWO_HAND, THREE_HAND, DOUBLE_PACK):
        final = play([HeuristicAgent() for _ in range(rules.players)], rules, seed=5)
        assert final.result is not None
        assert final.result.outcome in (Outcome.WIN, Outcome.TABLEAU)
