"""States shared between threads give the answers one thread gives (docs/testing.md).

States are immutable values; what the engines remember is either kept on one
state (filled once, always with the same answer) or in bounded module tables
whose races can only make two threads compute the same entry. This test plays
the same deals in several threads at once, from the very same state objects,
and compares every answer with a single-threaded run.

The threads use rules values that no other test of this process has used, so
the engines' tables start empty and the threads fill them together.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator

from conquian import ConquianRules, CooncanRules, Rules, State, new_game

THREADS = 6
MOVES = 80  # per deal; every deal is played to its end or this many moves


def _rules_pairs() -> list[tuple[Rules, Rules]]:
    """Pairs of rules values that play the same deals: (single-threaded, shared)."""
    return [
        # No sequence of a 40-card pack is longer than 10, so these caps change nothing (T14).
        (ConquianRules(), ConquianRules(max_sequence=37)),
        (ConquianRules(hand_size=9), ConquianRules(hand_size=9, max_sequence=39)),
        (
            ConquianRules.hoyle(pack="american"),
            ConquianRules.hoyle(pack="american", max_sequence=38),
        ),
        # A turn limit no deal of MOVES moves reaches changes nothing (M11).
        (CooncanRules.three_hand(jokers=1), CooncanRules.three_hand(jokers=1, turn_limit=70_001)),
        (
            CooncanRules.double_pack(players=4),
            CooncanRules.double_pack(players=4, turn_limit=70_002),
        ),
    ]


def _walk(root: State, seed: int) -> Iterator[tuple[State, list[str], str]]:
    """The states of one deal from `root`, their sorted legal actions and the action chosen."""
    rng = random.Random(seed)
    state = root
    for _ in range(MOVES):
        if state.is_over:
            return
        legal = sorted(map(str, state.legal_actions()))
        chosen = rng.choice(legal)
        yield state, legal, chosen
        state = state.apply(chosen)


def _answers(state: State, legal: list[str], chosen: str) -> tuple[object, ...]:
    """What a caller may ask of a state, in text."""
    player = state.current_player
    assert player is not None
    view = state.view(player)
    return (
        tuple(legal),
        tuple(sorted(map(str, view.legal_actions))),
        state.is_legal(chosen),
        tuple(map(str, state.hand(player))),
        tuple(str(m) for m in state.table),
    )


def test_threads_sharing_states_agree_with_one_thread() -> None:
    """Six threads play the same deals from shared states; each answer equals the plain run's."""
    pairs = _rules_pairs()
    deals = [(plain, shared, seed) for plain, shared in pairs for seed in (11, 12, 13, 14)]

    expected: dict[tuple[int, int], tuple[object, ...]] = {}
    paths: dict[int, list[str]] = {}
    for d, (plain, _, seed) in enumerate(deals):
        paths[d] = []
        for step, (state, legal, chosen) in enumerate(_walk(new_game(plain, seed=seed), seed)):
            expected[d, step] = _answers(state, legal, chosen)
            paths[d].append(chosen)

    # The states the threads share: the first thread to reach a step publishes its state,
    # and the others go on from that very object.
    shared: dict[tuple[int, int], State] = {
        (d, 0): new_game(rules, seed=seed) for d, (_, rules, seed) in enumerate(deals)
    }
    lock = threading.Lock()
    mismatches: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def work(index: int) -> None:
        try:
            order = list(range(len(deals)))
            random.Random(index).shuffle(order)
            start.wait()
            for d in order:
                state = shared[d, 0]
                for step, chosen in enumerate(paths[d]):
                    legal = sorted(map(str, state.legal_actions()))
                    got = _answers(state, legal, chosen)
                    if got != expected[d, step]:
                        mismatches.append(f"thread {index}, deal {d}, step {step}")
                    after = state.apply(chosen)
                    with lock:
                        state = shared.setdefault((d, step + 1), after)
        except BaseException as error:  # reported below, with the thread's traceback
            errors.append(error)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, to interleave the engines' steps
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        sys.setswitchinterval(interval)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert mismatches == []
    assert len(expected) > 600  # enough states were compared
