"""OpenSpiel's IS-MCTS against conquian's `HeuristicAgent`, through `conquian.openspiel`.

Needs the ``[openspiel]`` extra. Each deal is played twice, IS-MCTS in each
seat, so the deal's luck cancels; the table gives IS-MCTS's deals won, lost
and tied (two-hand: one counter a deal, T13) and its mean return.

    python benchmarks/openspiel_ismcts.py --deals 24 --simulations 50
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

from conquian import ConquianRules
from conquian import openspiel as conquian_openspiel


class RestartableISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's IS-MCTS bot, restarted by `evaluate_bots` at each deal."""

    def restart_at(self, state: object) -> None:
        self.reset()

    def inform_action(self, state: object, player: int, action: int) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--simulations", type=int, default=50)
    args = parser.parse_args()
    game = conquian_openspiel.load(ConquianRules())
    wins = losses = ties = 0
    total = 0.0
    start = time.perf_counter()
    for deal in range(args.deals):
        for seat in (0, 1):
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(deal))
            searcher = RestartableISMCTS(
                game, evaluator, 2.0, args.simulations, random_state=np.random.RandomState(deal)
            )
            bots = [searcher, conquian_openspiel.heuristic_bot(game, 1 - seat, seed=deal)]
            if seat == 1:
                bots.reverse()
            returns = evaluate_bots.evaluate_bots(
                game.new_initial_state(), bots, np.random.RandomState(deal)
            )
            mine = returns[seat]
            total += mine
            wins += mine > 0
            losses += mine < 0
            ties += mine == 0
    played = 2 * args.deals
    seconds = time.perf_counter() - start
    print(f"two-hand, {args.deals} deals x 2 seats, IS-MCTS {args.simulations} simulations/move")
    print("| IS-MCTS won | lost | tableaus | mean return | seconds |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    print(f"| {wins} | {losses} | {ties} | {total / played:+.2f} | {seconds:.0f} |")
    assert pyspiel  # the extra is installed


if __name__ == "__main__":
    main()
