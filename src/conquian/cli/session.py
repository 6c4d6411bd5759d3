"""The play session of the command line (``conquian play``): you against bots at the
terminal, a deal or a match, saved and resumed; and what the other commands share with it
(rules from the options, titles, who did what).

`conquian.cli` parses the arguments and calls `play`; nothing else uses this module.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import os
import random
import secrets
from collections import Counter
from collections.abc import Sequence
from typing import IO, Any

import attrs

from ..actions import Action, Draw, Pass, parse_action
from ..agents import AGENTS, HeuristicAgent
from ..agents.base import Agent
from ..agents.process import BotError, agent_from_name
from ..agents.registry import make_agent
from ..errors import ConquianError, IllegalActionError, NotationError
from ..events import events
from ..formats.jsonio import MAX_INT
from ..formats.records import MAX_TEXT, GameRecord
from ..game import new_game
from ..games import GAMES, find_game, game_of
from ..match import Match
from ..render.terminal import (
    LineReader,
    Printer,
    help_text,
    not_in_pack,
    print_moves,
    wrap,
)
from ..render.text import diagram
from ..rules import Rules
from ..state.base import Outcome, PlayerView, State
from ..table import load, parse_option, preset, sheet_lines

GAME_NAMES = tuple(n for g in GAMES.values() for n in (g.name, *g.aliases))
"""What ``--game`` accepts: every game's name and its older names."""
DEFAULT_GAME = next(iter(GAMES))
TURN_LIMIT = 300


class UsageError(Exception):
    """Bad arguments: reported on one line, exit status 2."""


def count(n: int, noun: str) -> str:
    """`n` and the noun, plural unless `n` is 1: "1 deal", "3 deals"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# -- rules and names -----------------------------------------------------------------------------


def rules_for(game: str, players: int | None = None, turn_limit: int = TURN_LIMIT) -> Rules:
    """The game's default rules, with the players asked for; the rules object checks them."""
    entry = find_game(game)
    options: dict[str, object] = {}
    if players is not None:
        options["players"] = players
    if "turn_limit" in attrs.fields_dict(entry.rules_class):
        options["turn_limit"] = turn_limit  # a deal between bots must end (M11)
    try:
        return entry.rules(**options)
    except ConquianError as err:
        raise UsageError(f"argument --players: {err}") from None
    except TypeError:  # a rules object without the option
        raise UsageError(f"argument --players: {entry.name} is for 2 players") from None


def title(rules: Rules) -> str:
    return game_of(rules).describe(rules)


def _who(seat: int, me: int | None = None) -> str:
    return "you" if seat == me else f"seat {seat}"


def result_line(state: State, me: int | None = None) -> str:
    result = state.result
    assert result is not None
    pays = " ".join(f"{p:+d}" for p in result.payments)
    if result.outcome is Outcome.WIN:
        assert result.winner is not None
        verb = "win" if result.winner == me else "wins"
        return f"Result: {_who(result.winner, me)} {verb} (payments by seat: {pays})"
    if result.outcome is Outcome.TABLEAU:
        return "Result: tableau, the stock ran out with no winner (T12)"
    rule = game_of(state.rules).turn_limit_rule
    return f"Result: abandoned at the turn limit, no payments ({rule})"


def narrate(
    pr: Printer,
    before: State,
    seat: int,
    action: Action,
    after: State,
    me: int | None,
    note: str = "",
) -> None:
    """One line for an action, plus what it revealed (a card turned, a card drawn)."""
    name = _who(seat, me)
    line = f"{name}: {pr.action(action)}"
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


# -- play ------------------------------------------------------------------------------------


def _names(seats: int, me: int) -> tuple[str, ...]:
    return tuple("you" if s == me else f"seat {s}" for s in range(seats))


def _print(pr: Printer, text: str, width: int | None = None) -> None:
    """Print `text`, each line wrapped at the terminal's width between whole cards."""
    for line in text.splitlines() or [""]:
        for part in wrap(line, width):
            pr(part)


def _show(pr: Printer, view: PlayerView, me: int) -> None:
    """The human's view of the deal as a diagram (conquian.render.text), without its title."""
    pr()
    names = _names(view.rules.players, me)  # type: ignore[attr-defined, unused-ignore]
    lines = diagram(view, symbols=pr.symbols, names=names).splitlines()
    _print(pr, "\n".join(lines[2:]))


def agent_name(text: str, option: str = "--opponent") -> str:
    name = text.strip()
    if agent_from_name(name) is not None:
        return name
    name = name.lower()
    if name not in AGENTS:
        known = ", ".join(sorted(AGENTS))
        raise UsageError(f"argument {option}: unknown agent {text!r} (use {known} or cmd:COMMAND)")
    return name


def _choose(line: str, view: PlayerView, state: State, pr: Printer) -> Action | str:
    """The legal action a line names (a number or notation), or why not."""
    legal = view.legal_actions
    if line.isdigit():
        number = int(line)
        if not 1 <= number <= len(legal):
            return f"There is no move {number}: type 1 to {len(legal)}, or a move in notation."
        return legal[number - 1]
    try:
        action = parse_action(line)
    except NotationError as e:
        return pr.message(str(e)) + _did_you_mean(line, legal)
    why = not_in_pack(action, state.rules)
    if why is not None:
        return pr.message(why)
    try:
        state.apply(action)
    except IllegalActionError as e:
        return pr.message(str(e))
    return action


_COMMANDS = ("help", "hint", "legal", "show", "sheet", "quit")
"""The words of the play session besides the moves."""


def _did_you_mean(line: str, legal: Sequence[Action]) -> str:
    """A guess at a mistyped first word (``tkae 5H``): the nearest word of a legal move or
    of the session, with the rest of the line; empty when none is near."""
    word, _, rest = line.strip().partition(" ")
    verbs = sorted({str(a).split()[0] for a in legal})
    near = difflib.get_close_matches(word.lower(), [*verbs, *_COMMANDS], n=1, cutoff=0.6)
    if not near or near[0] == word.lower():
        return ""
    guess = f"{near[0]} {rest.strip()}".strip() if near[0] in verbs else near[0]
    return f" Did you mean {guess!r}?"


def _options(args: argparse.Namespace, rules_class: type, name: str) -> dict[str, Any]:
    """The ``--option`` values, each the name of a field of the rules; an unknown name is
    refused with the names the rules take (and the nearest one)."""
    try:
        values = dict(parse_option(o) for o in args.option)
    except ConquianError as e:
        raise UsageError(f"argument --option: {e}") from None
    known = [f.name for f in attrs.fields(rules_class) if f.init]
    for given in values:
        if given not in known:
            near = difflib.get_close_matches(given, known, n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            shown = ", ".join(k for k in known if k != "variant")  # --game says the variant
            raise UsageError(
                f"argument --option: {name} rules have no option {given!r}{hint} "
                f"(their options: {shown})"
            )
    return values


def rules_asked(args: argparse.Namespace, turn_limit: int = TURN_LIMIT) -> Rules:
    """The rules asked for: ``--game``, ``--players``, ``--rules`` and ``--option`` (a
    Cooncan or Coo-Can deal abandoned after `turn_limit` turns unless an option says)."""
    game = args.game or DEFAULT_GAME
    entry = find_game(game)
    values = _options(args, entry.rules_class, entry.name)
    if args.rules is not None or entry.presets:
        if not entry.presets:
            raise UsageError(f"argument --rules: the presets are for two-hand Conquian, not {game}")
        options = list(args.option)
        if args.players not in (None, 2):
            try:  # rules with more seats take players (T16); the others are for two
                preset(args.rules or "foster", [f"players={args.players}"])
            except ConquianError as e:
                why = str(e) if "players" in str(e) and "unknown" not in str(e) else ""
                raise UsageError(
                    f"argument --players: {why or f'{entry.name} is for 2 players'}"
                ) from None
            options.append(f"players={args.players}")
        try:
            return preset(args.rules or "foster", options)
        except ConquianError as e:
            raise UsageError(f"argument --option: {e}") from None
    rules = rules_for(game, args.players, turn_limit)
    if not values:
        return rules
    try:
        return attrs.evolve(rules, **values)  # type: ignore[misc, unused-ignore]
    except (ConquianError, TypeError) as e:
        raise UsageError(f"argument --option: {e}") from None


def _is_match(args: argparse.Namespace) -> bool:
    return any(x is not None for x in (args.deals, args.target, args.rounds, args.scoring))


def _resume(args: argparse.Namespace) -> tuple[Match, bool]:
    """The saved game of ``--load FILE``, as a match (and whether it is one, not a deal)."""
    given = [
        f"--{name}"
        for name in ("game", "players", "rules", "seed", "deals", "target", "rounds", "scoring")
        if getattr(args, name) is not None
    ] + (["--option"] if args.option else [])
    if given:
        raise UsageError(
            f"argument --load: a saved game resumes as it was saved (drop {', '.join(given)})"
        )
    try:
        with open(args.load, "rb") as f:
            text = f.read(MAX_TEXT + 1)
    except OSError as e:
        raise UsageError(f"cannot read {args.load}: {e.strerror or e}") from None
    try:
        loaded = load(text)
    except ConquianError as e:
        raise UsageError(f"{args.load}: {e}") from None
    if isinstance(loaded, Match):
        return loaded, True
    return _single(loaded), False


def _single(state: State) -> Match:
    """A one-deal match around a deal (a new one, or one resumed with its history)."""
    deck = state.deck  # type: ignore[attr-defined, unused-ignore]  # every engine's state has its deck
    dealer = state.dealer  # type: ignore[attr-defined, unused-ignore]  # and its dealer
    match = Match(state.rules, deck=deck, dealer=dealer, deals=1)
    for action in state.history:
        match = match.apply(action)
    return match


def _save_game(
    path: str, match: Match, whole: bool, names: Sequence[str], pr: Printer, err: Printer
) -> bool:
    """Write the match file (`whole`) or the deal's game record to `path`, with the players'
    `names` in the record."""
    if whole:
        text = match.to_json()
    else:
        metadata = {"event": "conquian play", "date": datetime.date.today().isoformat()}
        record = GameRecord.from_state(match.state, player_names=names, metadata=metadata)
        text = record.to_json()
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as e:
        err(f"conquian: error: cannot save the game to {path}: {e.strerror or e}")
        return False
    what = "match" if whole else "game record"
    pr(f"Saved the {what} to {path}.")
    return True


def _quit_path(rules: Rules) -> str:
    """A new file name in the current directory for a game saved on ``quit``."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = f"conquian-{rules.game}-{stamp}"
    path, n = f"{base}.json", 1
    while os.path.exists(path):
        n += 1
        path = f"{base}-{n}.json"
    return path


class _Narrator:
    """Tells the human what happened since the last time (`conquian.events`), as his seat saw
    it, with the card he drew."""

    def __init__(self, pr: Printer, me: int) -> None:
        self.pr = pr
        self.me = me

    def __call__(self, before: State, after: State, note: str = "") -> None:
        since = None if after is before else len(before.history)  # None: the dealing too
        first = True
        try:
            told = events(after.view(self.me), since)
        except NotImplementedError:  # a game whose views do not replay yet: the moves plainly
            self._moves(before, after, note)
            return
        for event in told:
            if event.kind == "deal" and after is not before:
                continue  # told when the deal was dealt
            text = self.pr.message(str(event))
            if event.kind == "draw" and event.seat == self.me and not event.cards:
                drawn = Counter(after.hand(self.me)) - Counter(before.hand(self.me))
                if drawn:
                    text = text[:-1] + f" ({self.pr.cards(sorted(drawn))})."
            if note and first:
                text = text[:-1] + f" ({note})."
            first = False
            for part in wrap(f"  {event.index:3d}. {text}", indent=7):
                self.pr(part)

    def _moves(self, before: State, after: State, note: str) -> None:
        """Each move since `before`, replayed from it on the true state (what it showed to
        the human only: the card he drew)."""
        state = before
        for i, action in enumerate(after.history[len(before.history) :]):
            seat = state.current_player
            if seat is None:
                break
            nxt = state.apply(action)
            narrate(self.pr, state, seat, action, nxt, self.me, note if i == 0 else "")
            state = nxt


def play_session(args: argparse.Namespace, pr: Printer, err: Printer, stdin: IO[str]) -> int:
    opponent = agent_name(args.opponent)
    if args.load is not None:
        match, whole = _resume(args)
    else:
        if args.seed is not None and not 0 <= args.seed <= MAX_INT:
            raise UsageError(f"argument --seed: expected 0 to {MAX_INT} (got {args.seed})")
        rules = rules_asked(args)
        seed = args.seed if args.seed is not None else secrets.randbits(63)
        whole = _is_match(args)
        try:
            if whole:
                match = Match(
                    rules,
                    seed=seed,
                    scoring=args.scoring or "pool",
                    target=args.target,
                    rounds=args.rounds,
                    deals=args.deals,
                )
            else:
                match = _single(new_game(rules, seed=seed))
        except (ValueError, ConquianError) as e:
            raise UsageError(str(e)) from None
    rules = match.rules
    seats = rules.players
    me = args.seat if args.seat is not None else 0
    if not 0 <= me < match.people:
        raise UsageError(f"argument --seat: {rules.game} has seats 0 to {match.people - 1}")
    if match.people != seats:
        raise UsageError(
            "conquian play seats you at every deal: three at two-hand is not played here"
        )
    # the bots' seeds are drawn apart from the deal's: nothing in them tells the cards
    bot_seed = random.SystemRandom()
    factory = agent_from_name(opponent)
    bots: dict[int, Agent] = {
        p: factory(bot_seed.randrange(2**63))
        if factory
        else make_agent(opponent, bot_seed.randrange(2**63))
        for p in range(seats)
        if p != me
    }
    try:
        return _play_match(args, match, whole, me, bots, opponent, pr, err, stdin)
    except BotError as e:
        err(f"conquian: error: the bot failed: {e}")
        return 2
    finally:
        for bot in bots.values():
            close = getattr(bot, "close", None)
            if callable(close):
                close()


def _play_match(
    args: argparse.Namespace,
    match: Match,
    whole: bool,
    me: int,
    bots: dict[int, Agent],
    opponent: str,
    pr: Printer,
    err: Printer,
    stdin: IO[str],
) -> int:
    rules = match.rules
    seats = rules.players
    names = _names(seats, me)
    players = ["human" if s == me else f"{opponent} bot" for s in range(seats)]
    narrate = _Narrator(pr, me)
    _print(pr, f"{title(rules)}. You are seat {me}; the {opponent} bot plays the other seats.")
    if whole:
        ends = [
            f"of {count(match.deals, 'deal')}" if match.deals is not None else "",
            f"of {count(match.rounds, 'round')}" if match.rounds is not None else "",
            f"to {count(match.target, 'point')}" if match.target is not None else "",
        ]
        scored = {
            "pool": "a tableau's counters go to a pool for the next winner (T13)",
            "next": "a tableau's stake goes to the next deal's winner (T13)",
            "double": "a tableau doubles the stake of the next decided deal (T27)",
            "points": "the winner scores the cards left in the loser's hand (T23)",
        }[match.scoring]
        tie = f"; {scored}" if game_of(rules).turn_limit_rule is None else ""  # T12, T13
        end = " or ".join(e for e in ends if e) or "with no end but quit"
        _print(pr, f"A match {end}{tie}.")
    goal = game_of(rules).goal(rules)
    if goal:
        _print(pr, goal)
    pr("Type help for the notation and the words of the game.")
    keyboard = LineReader(stdin, pr)
    quitted = ended = False
    while True:
        state = match.state
        if whole:
            pr()
            pr(f"== Deal {match.number}, dealt by {names[match.dealer]} ==")
        if state.history:
            pr(f"(resumed after {len(state.history)} moves)")
        else:
            narrate(state, state)
        shown = False
        while not match.state.is_over:
            state = match.state
            seat = state.current_player
            assert seat is not None
            if seat != me:
                try:
                    answer = bots[seat](state.view(seat))
                except KeyboardInterrupt:  # Ctrl-C while a bot thinks: quit, and save
                    pr()
                    quitted = True
                    break
                match = match.apply(answer)
                narrate(state, match.state)
                shown = False
                continue
            view = state.view(me)
            legal = view.legal_actions
            if len(legal) == 1 and not args.no_auto:
                match = match.apply(legal[0])
                narrate(state, match.state, note="your only move, made for you")
                shown = False
                continue
            if not shown:
                _show(pr, view, me)
                print_moves(pr, legal)
                shown = True
            keyboard.words = [str(a).lower() for a in legal] + list(_COMMANDS)
            try:
                line = keyboard.read()
            except KeyboardInterrupt:  # Ctrl-C leaves as quit does, and saves
                pr()
                line = "quit"
            if line is None or line.lower() in ("quit", "exit", "q"):
                quitted, ended = True, line is None
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
            elif command in ("sheet", "score"):
                for text in sheet_lines(match.sheet, names):
                    pr(text)
            else:
                chosen = _choose(line, view, state, pr)
                if isinstance(chosen, str):
                    _print(pr, chosen)
                    pr("Try again (a number, help, hint, legal, quit).")
                    continue
                match = match.apply(chosen)
                narrate(state, match.state)
                shown = False
        if quitted:
            break
        _deal_over(pr, match, me, bots)
        if whole:
            pr()
            pr("Score sheet:")
            for text in sheet_lines(match.sheet, names):
                pr(text)
        if match.is_over:
            break
        match = match.next_deal()
    if quitted:
        pr("You left the game.")
        if ended and args.save is None:  # the input ran out: save only where asked
            return 0
        path = args.save or _quit_path(rules)
        if not _save_game(path, match, whole, players, pr, err):
            return 2
        again = "" if me == 0 else f" --seat {me}"
        where = "" if args.save else " is in the current directory and"
        _print(pr, f"The file{where} holds the whole deal: every card, the other hands too.")
        pr(f"Resume it with: conquian play --load {path}{again}")
        return 0
    if whole:
        winner = match.winner
        sheet = match.sheet.to_dict()
        for bot in bots.values():  # a process bot hears of the match's end (as play_match does)
            told = getattr(bot, "match_over", None)
            if callable(told):
                told(sheet, winner)
        pr(
            "The match is tied."
            if winner is None
            else f"{'You win' if winner == me else f'Seat {winner} wins'} the match."
        )
    if args.save is not None and not _save_game(args.save, match, whole, players, pr, err):
        return 2
    return 0


def _deal_over(pr: Printer, match: Match, me: int, bots: dict[int, Agent]) -> None:
    """The deal's result, every hand shown (C6), and the bots told."""
    state = match.state
    pr(result_line(state, me))
    pr()
    pr("Every hand is shown (C6):")
    names = _names(state.rules.players, me)
    lines = diagram(state, symbols=pr.symbols, names=names).splitlines()
    _print(pr, "\n".join(lines[1:-1]))
    for seat, bot in bots.items():
        told = getattr(bot, "deal_over", None)
        if callable(told):
            told(state.view(seat))
