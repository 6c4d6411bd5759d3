"""The command line: ``conquian demo | play | simulate | replay`` (also ``python -m conquian``).

- ``demo``: one seeded deal of each game between bots, move by move;
- ``play``: you (``--seat``, 0 by default; seat 0 deals first) against bots in
  the terminal (``--opponent NAME`` from `conquian.agents.AGENTS`, or
  ``cmd:COMMAND``): a deal, or a match with ``--deals``, ``--target``,
  ``--rounds`` or ``--scoring`` (the score sheet between deals); the rules from
  ``--rules`` and ``--option``; what happened told by `conquian.events`; the
  board, your legal moves numbered (type the number or the move), a single
  legal move made for you (``--no-auto`` asks), every hand shown at the end
  (C6); ``quit`` saves the game and ``--load FILE`` resumes it. No seed is
  ever printed: it foretells the deal;
- ``simulate``: many deals between bots, with win rates and 95% intervals, the
  rate and time left on stderr, and ``--plot FILE.svg`` for a chart;
- ``replay FILE``: check a saved game record and print it move by move.

Bad arguments or files exit with status 2 and one line on stderr;
``conquian --version`` prints the version.

>>> main(["simulate", "--games", "2", "--json", "--quiet"])  # doctest: +ELLIPSIS
{"game": "conquian", "games": 2, ...}
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, NoReturn

from .. import __version__
from ..actions import Action
from ..agents import AGENTS, HeuristicAgent, SimulationSummary, play, simulate, win_share_chart
from ..agents.process import BotError
from ..errors import ConquianError
from ..formats.jsonio import FORMAT_POSITION
from ..formats.records import MAX_TEXT, GameRecord
from ..game import new_game
from ..games import GAMES, game_of
from ..match import FORMAT_MATCH, Match
from ..render.terminal import (
    Printer,
    progress_bar,
)
from ..render.text import printable
from ..rules import Rules
from ..state.base import State
from ..table import PRESETS
from .session import (
    DEFAULT_GAME,
    GAME_NAMES,
    TURN_LIMIT,
    UsageError,
    agent_name,
    count,
    narrate,
    play_session,
    result_line,
    rules_asked,
    rules_for,
    title,
)

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


# -- demo ----------------------------------------------------------------------------------------


def _demo(args: argparse.Namespace, pr: Printer) -> int:
    for game in GAMES:
        rules = rules_for(game)
        seats = rules.players
        pr(f"== {title(rules)}, seed {args.seed}, dealer: seat {seats - 1} ==")
        start = new_game(rules, seed=args.seed, dealer=seats - 1)
        offer = getattr(start, "offer", None)
        if offer is not None:
            pr(f"       starter {pr.face(offer)} turned for seat {start.current_player} (T11)")
        elif hasattr(start, "stock"):  # a face-up stock from the deal (M2); else none
            pr(f"       stock starts with {pr.cards(start.stock)}")

        def observe(before: State, seat: int, action: Action, after: State) -> None:
            narrate(pr, before, seat, action, after, None)

        agents = [HeuristicAgent() for _ in range(seats)]
        final = play(agents, rules, seed=args.seed, dealer=seats - 1, observe=observe)
        pr(result_line(final))
        for seat in range(seats):
            pr(f"       seat {seat} holds {pr.cards(final.hand(seat))}")
        pr()
    return 0


# -- simulate -----------------------------------------------------------------------------------


def _report(pr: Printer, s: SimulationSummary, rules: Rules) -> None:
    pr(
        f"{title(rules)}: {count(s.games, 'game')}, seed {s.seed}, {count(s.jobs, 'job')}; "
        "seats and deal rotate between games"
    )
    if s.bot_seed is not None:  # the bots in other processes: their seeds came from it
        pr(f"  bots' seed {s.bot_seed} (--bot-seed {s.bot_seed} repeats what they were told)")
    w = max(12, *(len(name) for name in s.agents))
    pr(f"  {'agent':<{w}} {'wins':>6} {'win rate':>9}  {'95% CI (Wilson)':<18} {'payments':>9}")
    for i, name in enumerate(s.agents):
        lo, hi = s.interval(i)
        pr(
            f"  {name:<{w}} {s.wins[i]:>6} {100 * s.win_rate(i):>8.1f}%  "
            f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]   {s.payments[i]:>+9d}"
        )
    games = max(1, s.games)
    tableau = game_of(rules).turn_limit_rule is None  # a deal ends in a tableau (T12)
    label = "tableaus" if tableau else "abandoned"
    ended = s.tableaus if tableau else s.abandoned
    pr(f"  {label}: {ended} ({100 * ended / games:.1f}%)")
    pr(f"  mean game length: {s.mean_decisions:.1f} decisions")
    pr(f"  speed: {s.games_per_second:.1f} games/s ({s.elapsed:.2f} s)")


def _simulate(args: argparse.Namespace, pr: Printer, err: IO[str]) -> int:
    rules = rules_asked(args, args.turn_limit)
    if args.agents is None:
        names = ["heuristic"] + ["random"] * (rules.players - 1)
    else:
        names = [
            agent_name(n, "--agents")
            for word in args.agents
            for n in ([word] if word.strip().startswith("cmd:") else word.split(","))
        ]
        if len(names) != rules.players:
            raise UsageError(
                f"argument --agents: {rules.game} with {rules.players} players needs "
                f"{rules.players} agents, one per seat (got {len(names)})"
            )
    if args.duplicate and args.games % rules.players:
        raise UsageError(
            f"argument --duplicate: --games must be a multiple of the {rules.players} players"
        )
    progress = None if args.quiet else progress_bar(err)
    try:
        summary = simulate(
            names,
            rules,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            progress=progress,
            duplicate=args.duplicate,
            bot_seed=args.bot_seed,
        )
    except BotError as e:  # a cmd: bot crashed, timed out, answered illegally or never ran
        if progress is not None:
            err.write("\n")
        raise UsageError(f"the bot failed: {e}") from None
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
        raise UsageError(f"cannot write the chart to {path}: {e.strerror or e}") from None


# -- replay ---------------------------------------------------------------------------------


def _replay(args: argparse.Namespace, pr: Printer) -> int:
    """Tell a game record, or every deal of a match file (``play --target/--deals``, the
    network server's save); a position is pointed to ``play --load``."""
    try:
        with open(args.file, "rb") as f:
            text = f.read(MAX_TEXT + 1)  # the readers refuse anything longer
    except OSError as e:
        raise UsageError(f"cannot read {args.file}: {e.strerror or e}") from None
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        found = None  # the reader below names what is wrong
    fmt = found.get("format") if isinstance(found, dict) else None
    if fmt == FORMAT_POSITION:
        raise UsageError(
            f"{args.file} is a position, not a record of a deal: "
            f"play on from it with 'conquian play --load {args.file}'"
        )
    try:
        if fmt == FORMAT_MATCH:
            match = Match.from_json(text)
            records = [(r, r.replay()) for r in match.records()]
        else:
            record = GameRecord.from_json(text)
            records = [(record, record.replay())]
    except ConquianError as e:
        raise UsageError(f"{args.file}: {e}") from None
    if fmt != FORMAT_MATCH:
        _tell(pr, args.file, *records[0])
        return 0
    pr(f"== {title(match.rules)}: {args.file}, a match of {match.people} people ==")
    for k, (record, final) in enumerate(records):
        seats = ", ".join(f"seat {s}: person {p}" for s, p in enumerate(match._played[k].seats))
        _tell(pr, f"deal {k + 1} ({seats})", record, final)
    totals = ", ".join(f"person {p}: {t:+d}" for p, t in enumerate(match.sheet.totals))
    pr(f"== totals: {totals} ==")
    if match.is_over:
        winner = match.winner
        pr("the match is over: " + ("a tie" if winner is None else f"person {winner} wins"))
    return 0


def _tell(pr: Printer, name: str, record: GameRecord, final: State) -> None:
    """Tell one deal of a record, action by action, as `replay` prints it."""
    rules = final.rules
    pr(f"== {title(rules)}: {name}, dealer seat {record.dealer} ==")
    if record.player_names:
        names = (f"seat {s}: {printable(n)}" for s, n in enumerate(record.player_names))
        pr("   " + ", ".join(names))
    for key, value in record.metadata:
        pr(f"   {printable(key)}: {printable(value)}")
    state = new_game(rules, deck=record.deck, dealer=record.dealer)
    for action in final.history:
        seat = state.current_player
        assert seat is not None
        after = state.apply(action)
        narrate(pr, state, seat, action, after, None)
        state = after
    if state.result is not None:
        pr(result_line(state))
    else:
        pr(f"(the record stops before the end: seat {state.current_player} to play)")


# -- entry point ----------------------------------------------------------------------------


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number (got {text!r})") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1 (got {value})")
    return value


def _seat(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a seat number (got {text!r})") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a seat of at least 0 (got {value})")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed (got {text!r})") from None


def _rules_arguments(command: argparse.ArgumentParser) -> None:
    """``--rules`` and ``--option``, the rules of ``play`` and ``simulate`` (`rules_asked`)."""
    command.add_argument(
        "--rules",
        choices=tuple(PRESETS),
        help="the two-hand rules: " + ", ".join(PRESETS) + " (default foster)",
    )
    command.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rules option, as hand_size=9 or max_sequence=none (repeat for more)",
    )


def _parser() -> _Parser:
    parser = _Parser(
        prog="conquian",
        description="Conquian, Foster's Cooncan and Coo-Can: demo games, play against bots, "
        "simulate, replay records.",
    )
    parser.add_argument("--version", action="version", version=f"conquian {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    demo = sub.add_parser("demo", help="one seeded game of each kind between bots")
    demo.add_argument("--seed", type=_seed, default=1, help="the deals' seed (default 1)")

    named = (
        f"{g.name} (or {', '.join(g.aliases)})" if g.aliases else g.name for g in GAMES.values()
    )
    game_help = f"the game: {', '.join(named)} (default {DEFAULT_GAME})"
    players_help = "the number of players (default: the game's own)"
    p = sub.add_parser("play", help="play a deal or a match against bots in the terminal")
    p.add_argument("--game", choices=GAME_NAMES, metavar="GAME", help=game_help)
    p.add_argument("--players", type=_positive, help=players_help)
    _rules_arguments(p)
    p.add_argument("--seat", type=_seat, help="your seat (default 0; the dealer is seat 0)")
    p.add_argument("--seed", type=_seed, help="the deal's or match's seed (default: a random one)")
    p.add_argument("--deals", type=_positive, metavar="N", help="play a match of N deals")
    p.add_argument("--target", type=_positive, metavar="P", help="play a match to P points")
    p.add_argument(
        "--rounds",
        type=_positive,
        metavar="R",
        help="play a match of R rounds (each seat deals R times)",
    )
    p.add_argument(
        "--scoring",
        choices=("pool", "next", "double", "points"),
        help="how a match is scored: pool (the default), next or points (T13, T23)",
    )
    p.add_argument("--load", metavar="FILE", help="resume a saved deal or match")
    p.add_argument("--save", metavar="FILE", help="save the game to FILE at the end or on quit")
    p.add_argument(
        "--opponent",
        metavar="NAME",
        default="heuristic",
        help="the bot in the other seats: "
        + ", ".join(sorted(AGENTS))
        + " or cmd:COMMAND (default heuristic)",
    )
    p.add_argument(
        "--no-auto",
        action="store_true",
        help="ask even when you have a single legal move (by default it is made for you)",
    )

    s = sub.add_parser("simulate", help="many games between bots, with win rates")
    s.add_argument(
        "--game", choices=GAME_NAMES, default=DEFAULT_GAME, metavar="GAME", help=game_help
    )
    s.add_argument("--players", type=_positive, help=players_help)
    _rules_arguments(s)
    s.add_argument("--games", type=_positive, default=100, help="how many deals (default 100)")
    s.add_argument(
        "--agents",
        nargs="+",
        metavar="NAME",
        help="one agent per seat, separated by commas or spaces: "
        + ", ".join(sorted(AGENTS))
        + ", or cmd:COMMAND for a bot in another process (default: heuristic, then random)",
    )
    s.add_argument("--jobs", type=_positive, default=1, help="processes (default 1)")
    s.add_argument("--seed", type=_seed, default=0, help="the run's seed (default 0)")
    s.add_argument(
        "--bot-seed",
        type=_seed,
        metavar="SEED",
        help="the seed cmd: bots are told seeds from (default: fresh entropy, printed)",
    )
    s.add_argument(
        "--turn-limit",
        type=_positive,
        default=TURN_LIMIT,
        help=f"Cooncan deals are abandoned after this many turns (default {TURN_LIMIT})",
    )
    s.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per seat, the bots rotated (--games: a multiple of players)",
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
            return play_session(args, pr, err, stdin)
        if args.command == "simulate":
            return _simulate(args, pr, stderr)
        return _replay(args, pr)
    except UsageError as e:
        print(f"conquian: error: {e}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print("conquian: interrupted", file=stderr)
        return 130
    except BrokenPipeError:
        return 0
