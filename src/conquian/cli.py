"""The command line: ``conquian demo | play | simulate | replay`` (also ``python -m conquian``).

- ``demo``: one seeded deal of each game between bots, move by move;
- ``play``: you (seat 0) against bots in the terminal (``--opponent NAME`` from
  `conquian.agents.AGENTS`): the board, your legal moves numbered (type the
  number or the move), a single legal move made for you (``--no-auto`` asks),
  every hand shown at the end (C6);
- ``simulate``: many deals between bots, with win rates and 95% intervals, the
  rate and time left on stderr, and ``--plot FILE.svg`` for a chart;
- ``replay FILE``: check a saved game record and print it move by move.

Bad arguments or files exit with status 2 and one line on stderr;
``conquian --version`` prints the version.

>>> main(["simulate", "--games", "2", "--json", "--quiet"])  # doctest: +ELLIPSIS
{"game": "two-hand", "games": 2, ...}
0
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import IO, NoReturn

from . import __version__
from ._terminal import (
    LineReader,
    Printer,
    help_text,
    not_in_pack,
    print_moves,
    progress_bar,
)
from .actions import Action, Draw, Pass, parse_action
from .agents import AGENTS, HeuristicAgent, SimulationSummary, play, simulate, win_share_chart
from .diagram import diagram
from .errors import ConquianError, IllegalActionError, NotationError
from .game import new_game
from .records import MAX_TEXT, GameRecord
from .rules import ConquianRules, CooncanRules, Rules
from .state import Outcome, PlayerView, State

__all__ = ["main"]

GAMES = ("two-hand", "three-hand", "double-pack")
_TURN_LIMIT = 300


class _UsageError(Exception):
    """Bad arguments: reported on one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


# -- rules and names -----------------------------------------------------------------------------


def _rules(game: str, players: int | None = None, turn_limit: int = _TURN_LIMIT) -> Rules:
    if game == "two-hand":
        if players not in (None, 2):
            raise _UsageError(f"two-hand is for 2 players (got --players {players})")
        return ConquianRules()
    try:
        if game == "three-hand":
            if players is None:
                return CooncanRules.three_hand(turn_limit=turn_limit)
            return CooncanRules.three_hand(players=players, turn_limit=turn_limit)
        if players is None:
            return CooncanRules.double_pack(turn_limit=turn_limit)
        return CooncanRules.double_pack(players=players, turn_limit=turn_limit)
    except ConquianError as err:
        raise _UsageError(str(err)) from None


def _title(rules: Rules) -> str:
    if isinstance(rules, ConquianRules):
        return "Two-hand Conquian (Foster 1913, 40 cards)"
    if rules.variant == "three-hand":
        return f"Foster's three-hand Cooncan ({rules.players} players, one pack)"
    return f"Foster's double-pack Cooncan ({rules.players} players, 104 cards and 2 jokers)"


def _who(seat: int, me: int | None = None) -> str:
    return "you" if seat == me else f"player {seat}"


def _result_line(state: State, me: int | None = None) -> str:
    result = state.result
    assert result is not None
    pays = " ".join(f"{p:+d}" for p in result.payments)
    if result.outcome is Outcome.WIN:
        assert result.winner is not None
        verb = "win" if result.winner == me else "wins"
        return f"Result: {_who(result.winner, me)} {verb} (payments by seat: {pays})"
    if result.outcome is Outcome.TABLEAU:
        return "Result: tableau, the stock ran out with no winner (T12)"
    return "Result: abandoned at the turn limit, no payments (M11)"


def _narrate(
    pr: Printer,
    before: State,
    seat: int,
    action: Action,
    after: State,
    me: int | None,
    note: str = "",
) -> None:
    """One line for an action, plus what it revealed (a card turned, a card drawn)."""
    who = _who(seat, me)
    line = f"{who}: {pr.action(action)}"
    if isinstance(action, Draw) and (me is None or seat == me):
        drawn = Counter(after.hand(seat)) - Counter(before.hand(seat))
        if drawn:
            line += f" ({'you drew' if seat == me else 'drew'} {pr.cards(sorted(drawn))})"
    if note:
        line += f" ({note})"
    pr(f"  {len(after.history):3d}. {line}")
    offer = getattr(after, "offer", None)
    origin = getattr(after, "offer_origin", None)
    turned = (
        isinstance(action, Pass)
        and offer is not None
        and origin == "turned"
        and getattr(before, "offer_origin", None) != "turned"
    )
    if turned and offer is not None and after.current_player is not None:
        pr(f"       {_who(after.current_player, me)} turned {pr.face(offer)} from the stock")


# -- demo ----------------------------------------------------------------------------------------


def _demo(args: argparse.Namespace, pr: Printer) -> int:
    for game in GAMES:
        rules = _rules(game)
        seats = rules.players
        pr(f"== {_title(rules)}, seed {args.seed}, dealer: player {seats - 1} ==")
        start = new_game(rules, seed=args.seed, dealer=seats - 1)
        offer = getattr(start, "offer", None)
        if offer is not None:
            pr(f"       starter {pr.face(offer)} turned for player {start.current_player} (T11)")
        else:
            stock = getattr(start, "stock", ())
            pr(f"       stock starts with {pr.cards(stock)}")

        def observe(before: State, seat: int, action: Action, after: State) -> None:
            _narrate(pr, before, seat, action, after, None)

        agents = [HeuristicAgent() for _ in range(seats)]
        final = play(agents, rules, seed=args.seed, dealer=seats - 1, observe=observe)
        pr(_result_line(final))
        for seat in range(seats):
            pr(f"       player {seat} holds {pr.cards(final.hand(seat))}")
        pr()
    return 0


# -- play ------------------------------------------------------------------------------------


def _names(seats: int, me: int) -> tuple[str, ...]:
    return tuple(_who(s, me) for s in range(seats))


def _show(pr: Printer, view: PlayerView, rules: Rules, me: int) -> None:
    """The human's view of the deal as a diagram (conquian.diagram), without its title."""
    pr()
    lines = diagram(view, symbols=pr.symbols, names=_names(rules.players, me)).splitlines()
    pr("\n".join(lines[2:]))


def _save(path: str, state: State, seed: int, opponent: str, pr: Printer, err: Printer) -> bool:
    """Write the game record (conquian.records) of the deal to `path`."""
    names = ["human"] + [f"{opponent} bot"] * (state.rules.players - 1)
    metadata = {
        "event": "conquian play",
        "date": datetime.date.today().isoformat(),
        "seed": str(seed),
    }
    text = GameRecord.from_state(state, player_names=names, metadata=metadata).to_json()
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as e:
        err(f"conquian: error: cannot save the game to {path}: {e.strerror or e}")
        return False
    pr(f"Saved the game record to {path}.")
    return True


def _agent_name(text: str) -> str:
    name = text.strip().lower()
    if name not in AGENTS:
        known = ", ".join(sorted(AGENTS))
        raise _UsageError(f"argument --opponent: unknown agent {text!r} (use {known})")
    return name


def _choose(line: str, view: PlayerView, state: State, pr: Printer) -> tuple[Action, State] | str:
    """The action a line names (a number or notation) and the state after it, or why not."""
    legal = view.legal_actions
    if line.isdigit():
        number = int(line)
        if not 1 <= number <= len(legal):
            return f"There is no move {number}: type 1 to {len(legal)}, or a move in notation."
        action = legal[number - 1]
        return action, state.apply(action)
    try:
        action = parse_action(line)
    except NotationError as e:
        return pr.message(str(e))
    why = not_in_pack(action, state.rules)
    if why is not None:
        return pr.message(why)
    try:
        return action, state.apply(action)
    except IllegalActionError as e:
        return pr.message(str(e))


def _play(args: argparse.Namespace, pr: Printer, err: Printer, stdin: IO[str]) -> int:
    rules = _rules(args.game, args.players)
    opponent = _agent_name(args.opponent)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    me = 0
    seats = rules.players
    dealer = seats - 1
    # The bots' seeds come from the deal's through SHA-512 (random.Random of a text), which
    # cannot be undone: no seat can rebuild the deck from its seed, nor the player from the
    # screen, which shows no seed (C6; the saved record holds the deal).
    bots = [
        AGENTS[opponent](random.Random(f"conquian play bot {seed} {seat}").randrange(2**31))
        for seat in range(seats)
    ]
    state = new_game(rules, seed=seed, dealer=dealer)
    pr(f"{_title(rules)}: dealer player {dealer}. You are player {me}.")
    if isinstance(rules, ConquianRules):
        pr(f"Meld {rules.win_size} cards to win (T2).")
    pr(f"The other seats are played by the {opponent} bot. Type help for the notation.")
    keyboard = LineReader(stdin, pr)
    shown = False
    quitted = False
    while state.current_player is not None:
        seat = state.current_player
        if seat != me:
            action = bots[seat](state.view(seat))
            after = state.apply(action)
            _narrate(pr, state, seat, action, after, me)
            state, shown = after, False
            continue
        view = state.view(me)
        legal = view.legal_actions
        if len(legal) == 1 and not args.no_auto:
            after = state.apply(legal[0])
            _narrate(pr, state, me, legal[0], after, me, note="your only move, made for you")
            state, shown = after, False
            continue
        if not shown:
            _show(pr, view, rules, me)
            print_moves(pr, legal)
            shown = True
        keyboard.words = [str(a).lower() for a in legal] + ["help", "hint", "legal", "show"]
        line = keyboard.read()
        if line is None or line.lower() in ("quit", "exit", "q"):
            quitted = True
            break
        command = line.lower()
        if not command:
            continue
        if command in ("help", "?"):
            pr(help_text(rules))
        elif command == "hint":
            pr(f"hint: {pr.action(HeuristicAgent()(view))}")
        elif command == "legal":
            print_moves(pr, legal)
        elif command in ("show", "table", "board"):
            shown = False
        else:
            chosen = _choose(line, view, state, pr)
            if isinstance(chosen, str):
                pr(chosen)
                pr("Try again (a number, help, hint, legal, quit).")
                continue
            action, after = chosen
            _narrate(pr, state, me, action, after, me)
            state, shown = after, False
    if quitted:
        pr("You left the game.")
    else:
        pr(_result_line(state, me))
        pr()
        pr("Every hand is shown (C6):")
        lines = diagram(state, symbols=pr.symbols, names=_names(seats, me)).splitlines()
        pr("\n".join(lines[1:-1]))
    if args.save is not None and not _save(args.save, state, seed, opponent, pr, err):
        return 2
    return 0


# -- simulate -----------------------------------------------------------------------------------


def _report(pr: Printer, s: SimulationSummary, rules: Rules) -> None:
    pr(
        f"{_title(rules)}: {s.games} games, seed {s.seed}, {s.jobs} job(s); "
        "seats and deal rotate between games"
    )
    pr(f"  {'agent':<12} {'wins':>6} {'win rate':>9}  {'95% CI (Wilson)':<18} {'payments':>9}")
    for i, name in enumerate(s.agents):
        lo, hi = s.interval(i)
        pr(
            f"  {name:<12} {s.wins[i]:>6} {100 * s.win_rate(i):>8.1f}%  "
            f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]   {s.payments[i]:>+9d}"
        )
    games = max(1, s.games)
    label = "tableaus" if isinstance(rules, ConquianRules) else "abandoned"
    count = s.tableaus if isinstance(rules, ConquianRules) else s.abandoned
    pr(f"  {label}: {count} ({100 * count / games:.1f}%)")
    pr(f"  mean game length: {s.mean_decisions:.1f} decisions")
    pr(f"  speed: {s.games_per_second:.1f} games/s ({s.elapsed:.2f} s)")


def _simulate(args: argparse.Namespace, pr: Printer, err: IO[str]) -> int:
    rules = _rules(args.game, args.players, args.turn_limit)
    if args.agents is None:
        names = ["heuristic"] + ["random"] * (rules.players - 1)
    else:
        names = [n.strip().lower() for n in args.agents.split(",")]
        unknown = [n for n in names if n not in AGENTS]
        if unknown:
            known = ", ".join(sorted(AGENTS))
            raise _UsageError(f"argument --agents: unknown agent {unknown[0]!r} (use {known})")
        if len(names) != rules.players:
            raise _UsageError(
                f"argument --agents: {rules.game} with {rules.players} players needs "
                f"{rules.players} agents, one per seat (got {len(names)})"
            )
    progress = None if args.quiet else progress_bar(err)
    summary = simulate(
        names, rules, games=args.games, seed=args.seed, jobs=args.jobs, progress=progress
    )
    if args.json:
        pr(json.dumps(summary.to_dict()))
    else:
        _report(pr, summary, rules)
    if args.plot is not None:
        _plot(args.plot, summary)
    return 0


def _plot(path: str, summary: SimulationSummary) -> None:
    """Write the win shares chart of a run (`conquian.agents.win_share_chart`) to `path`."""
    text = win_share_chart(summary)
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise _UsageError(f"cannot write the chart to {path}: {e.strerror or e}") from None


# -- replay ---------------------------------------------------------------------------------


def _safe(text: str) -> str:
    """A name or metadata value from a file, with no control character reaching the terminal."""
    return text if text.isprintable() else repr(text)


def _replay(args: argparse.Namespace, pr: Printer) -> int:
    try:
        with open(args.file, "rb") as f:
            text = f.read(MAX_TEXT + 1)  # GameRecord.from_json refuses anything longer
    except OSError as e:
        raise _UsageError(f"cannot read {args.file}: {e.strerror or e}") from None
    try:
        record = GameRecord.from_json(text)
        final = record.replay()
    except ConquianError as e:
        raise _UsageError(f"{args.file}: {e}") from None
    rules = final.rules
    pr(f"== {_title(rules)}: {args.file}, dealer player {record.dealer} ==")
    if record.player_names:
        names = (f"player {s}: {_safe(n)}" for s, n in enumerate(record.player_names))
        pr("   " + ", ".join(names))
    for key, value in record.metadata:
        pr(f"   {_safe(key)}: {_safe(value)}")
    state = new_game(rules, deck=record.deck, dealer=record.dealer)
    for action in final.history:
        seat = state.current_player
        assert seat is not None
        after = state.apply(action)
        _narrate(pr, state, seat, action, after, None)
        state = after
    if state.result is not None:
        pr(_result_line(state))
    else:
        pr(f"(the record stops before the end: player {state.current_player} to play)")
    return 0


# -- entry point ----------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number (got {text!r})") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1 (got {value})")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed (got {text!r})") from None


def _parser() -> _Parser:
    parser = _Parser(
        prog="conquian",
        description="Conquian and Foster's Cooncan: demo games, play against bots, "
        "simulate, replay records.",
    )
    parser.add_argument("--version", action="version", version=f"conquian {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    demo = sub.add_parser("demo", help="one seeded game of each kind between bots")
    demo.add_argument("--seed", type=_seed, default=1, help="the deals' seed (default 1)")

    game_help = "the game: " + ", ".join(GAMES) + " (default two-hand)"
    p = sub.add_parser("play", help="play against bots in the terminal (you are seat 0)")
    p.add_argument("--game", choices=GAMES, default="two-hand", help=game_help)
    p.add_argument("--players", type=_positive, help="players in a Cooncan game")
    p.add_argument("--seed", type=_seed, help="the deal's seed (default: a random one)")
    p.add_argument("--save", metavar="FILE", help="save the game record to FILE at the end")
    p.add_argument(
        "--opponent",
        metavar="NAME",
        default="heuristic",
        help="the bot in the other seats: " + ", ".join(sorted(AGENTS)) + " (default heuristic)",
    )
    p.add_argument(
        "--no-auto",
        action="store_true",
        help="ask even when you have a single legal move (by default it is made for you)",
    )

    s = sub.add_parser("simulate", help="many games between bots, with win rates")
    s.add_argument("--game", choices=GAMES, default="two-hand", help=game_help)
    s.add_argument("--players", type=_positive, help="players in a Cooncan game")
    s.add_argument("--games", type=_positive, default=100, help="how many deals (default 100)")
    s.add_argument(
        "--agents",
        help="one agent per seat, comma separated: "
        + ", ".join(sorted(AGENTS))
        + " (default: heuristic, then random)",
    )
    s.add_argument("--jobs", type=_positive, default=1, help="processes (default 1)")
    s.add_argument("--seed", type=_seed, default=0, help="the run's seed (default 0)")
    s.add_argument(
        "--turn-limit",
        type=_positive,
        default=_TURN_LIMIT,
        help=f"Cooncan deals are abandoned after this many turns (default {_TURN_LIMIT})",
    )
    s.add_argument("--json", action="store_true", help="print a JSON object")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument(
        "--plot", metavar="FILE", help="also write the win shares as an SVG chart to FILE"
    )

    r = sub.add_parser("replay", help="check a game record and print it move by move")
    r.add_argument("file", metavar="FILE", help="a game record (JSON)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default ``sys.argv[1:]``); return the exit status.

    Reads ``sys.stdin`` and writes ``sys.stdout`` and ``sys.stderr`` as they
    are at the call, so tests can replace them.

    >>> main(["simulate", "--games", "0"])  # one line on stderr: --games must be at least 1
    2
    """
    stdout, stderr, stdin = sys.stdout, sys.stderr, sys.stdin
    pr, err = Printer(stdout), Printer(stderr)
    parser = _parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as e:  # --help
            return e.code if isinstance(e.code, int) else 0
        if args.command == "demo":
            return _demo(args, pr)
        if args.command == "play":
            return _play(args, pr, err, stdin)
        if args.command == "simulate":
            return _simulate(args, pr, stderr)
        return _replay(args, pr)
    except _UsageError as e:
        print(f"conquian: error: {e}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("conquian: interrupted", file=stderr)
        return 130
    except BrokenPipeError:
        return 0
