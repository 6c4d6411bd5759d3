"""What the command line needs of a terminal: cards with suit symbols, the human's line
reader (with `readline` where it exists), the help of the pack in play, numbered moves and
the progress of a simulation. Used by `conquian.cli`."""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import IO

from ..actions import Action
from ..cards import JOKER, Face, NamedJoker, Suit, parse_face
from ..errors import NotationError
from ..rules import Rules
from ..state.game import game_of
from .text import card_text, cards_text

__all__ = [
    "LineReader",
    "Printer",
    "duration",
    "help_text",
    "isatty",
    "legend",
    "not_in_pack",
    "print_moves",
    "progress_bar",
    "terminal_width",
    "wrap",
]

# -- printing cards with suit symbols ----------------------------------------------------------

_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")


class Printer:
    """Writes cards and actions with suit symbols (♣♦♥♠) when the stream can encode them."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        encoding = getattr(out, "encoding", None) or "utf-8"
        try:
            "♣♦♥♠".encode(encoding)
            self.symbols = True
        except (LookupError, UnicodeEncodeError):
            self.symbols = False

    def face(self, f: Face) -> str:
        """One card, as the board writes it."""
        return card_text(f, symbols=self.symbols)

    def cards(self, cs: Sequence[Face]) -> str:
        """Cards separated by spaces, ``-`` for none."""
        return cards_text(cs, symbols=self.symbols)

    def action(self, a: Action | str) -> str:
        """An action in notation, its cards as the board writes them."""
        return self.message(str(a))

    def message(self, text: str) -> str:
        """A message with its cards written as the board writes them (suit symbols or letters)."""
        if not self.symbols:
            return text
        return _CARD_TOKEN.sub(lambda m: m.group(1) + Suit("CDHS".index(m.group(2))).symbol, text)

    def __call__(self, *parts: object) -> None:
        """Print a line."""
        print(*parts, file=self.out)


_COMMANDS = """\
Commands: help (this), hint (what the heuristic bot would do), legal (the moves again),
show (the board again), sheet (the score sheet of a match), quit (save and leave)."""


def terminal_width() -> int:
    """The terminal's width in columns (``COLUMNS`` first, 80 when unknown), at least 40."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def wrap(line: str, width: int | None = None, indent: int | None = None) -> list[str]:
    """`line` cut into lines of at most `width` columns (the terminal's by default) at spaces
    only, so that a card is never split; the lines after the first are indented by `indent`
    columns (by default as far as the first line's text after its label, two spaces or more).

    >>> wrap("stock     3C 7C 2D JD KD AH 6H 9S", width=20)
    ['stock     3C 7C 2D', '          JD KD AH', '          6H 9S']
    """
    width = terminal_width() if width is None else width
    if len(line) <= width:
        return [line]
    if indent is None:
        label = re.match(r"\s*\S+(?: \S+)*?\s{2,}(?=\S)", line)
        indent = len(label.group(0)) if label else len(line) - len(line.lstrip())
    indent = min(indent, width // 2)
    return textwrap.wrap(
        line,
        width=width,
        subsequent_indent=" " * indent,
        break_long_words=False,
        break_on_hyphens=False,
        drop_whitespace=True,
    ) or [line]


def legend(rules: Rules) -> list[str]:
    """The words of the game in play, one line each, as ``help`` shows them."""
    game = game_of(rules)
    words = dict(game.words)
    if not rules.jokers:
        words = {w: t for w, t in words.items() if w != "shift"}
    width = max(len(w) for w in words) + 2
    return [f"  {word:<{width}}{text}" for word, text in words.items()]


def help_text(rules: Rules) -> str:
    """How to type actions, with examples whose cards are all in the pack in play."""
    game = game_of(rules)
    ranks, missing = _ranks(rules)
    notes = [f"the {rules.pack_name.capitalize()} pack: no {missing}"] if missing else []
    if "10" in ranks:
        notes.append("T for 10")
    ranks_text = " ".join(ranks) + (f" ({'; '.join(notes)})" if notes else "")
    top = f"{ranks[-1]}D"  # the highest diamond of the pack
    examples = [line.format(top=top) for line in game.examples.split("\n")]
    if rules.jokers:
        examples.append("jokers: meld 5D 6D JK=4D | meld 8C 8D JK=8 | force 9H @0 shift")
    lines = [
        "Type the number of a move, or the move in notation:",
        *(f"  {e}" for e in examples),
        f"  Ranks: {ranks_text}; suits C D H S or ♣ ♦ ♥ ♠.",
        "  @N is a meld's number on the table.",
        "The words:",
        *legend(rules),
        _COMMANDS,
    ]
    width = terminal_width()
    return "\n".join(w for line in lines for w in wrap(line, width))


def _ranks(rules: Rules) -> tuple[list[str], str]:
    """The ranks of the pack in play, ace first, and those of A–K it lacks, in words (C4)."""
    held = {c.rank for c in rules.pack_cards() if not c.is_joker}
    names = [_RANK_NAMES[r - 1] for r in range(1, 14)]
    absent = [n for r, n in enumerate(names, start=1) if r not in held]
    missing = ", ".join(absent[:-1]) + " or " + absent[-1] if len(absent) > 1 else "".join(absent)
    return [n for r, n in enumerate(names, start=1) if r in held], missing


_RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def not_in_pack(action: Action, rules: Rules) -> str | None:
    """Why `action` names a card the pack in play does not have (C4, C5), or None."""
    pack = set(rules.pack_cards())
    for token in str(action).split():
        try:
            face = parse_face(token)
        except NotationError:
            continue
        if isinstance(face, NamedJoker):
            if JOKER not in pack:
                return f"{token}: there is no joker in this game (C5)"
            continue
        if face not in pack:
            if face.is_joker:
                return "JK: there is no joker in this game (C5)"
            _, missing = _ranks(rules)
            if missing:
                pack_name = rules.pack_name.capitalize()
                return f"{face} is not in this pack: the {pack_name} pack has no {missing} (C4)"
            return f"{face} is not in this pack (C4)"
    return None


def print_moves(pr: Printer, actions: Sequence[Action]) -> None:
    """The legal actions, numbered from 1, in columns."""
    items = [f"{i:>2}. {pr.action(a)}" for i, a in enumerate(actions, start=1)]
    width = max(len(t) for t in items) + 3
    per_line = max(1, (terminal_width() - 2) // width)
    pr("Your moves:")
    for start in range(0, len(items), per_line):
        pr("  " + "".join(t.ljust(width) for t in items[start : start + per_line]).rstrip())


class LineReader:
    """Reads the human's lines: with line editing, history and completion where the terminal
    and Python's `readline` allow, else line by line, echoing piped input."""

    def __init__(self, stdin: IO[str], pr: Printer) -> None:
        self.stdin = stdin
        self.pr = pr
        self.words: list[str] = []
        self.editing = stdin is sys.stdin and isatty(stdin) and pr.out is sys.stdout
        if self.editing:
            try:
                import readline
            except ImportError:  # Windows without pyreadline, or a Python built without it
                return
            readline.set_completer(self._complete)
            readline.set_completer_delims("")
            readline.parse_and_bind("tab: complete")

    def _complete(self, text: str, index: int) -> str | None:
        found = [w for w in self.words if w.startswith(text.lower())]
        return found[index] if index < len(found) else None

    def read(self, prompt: str = "> ") -> str | None:
        """One line, stripped; None at the end of input."""
        if self.editing:
            try:
                return input(prompt).strip()
            except EOFError:
                self.pr()
                return None
        self.pr.out.write(prompt)
        self.pr.out.flush()
        line = self.stdin.readline()
        if not line:
            self.pr()
            return None
        if not isatty(self.stdin):
            self.pr(line.rstrip("\n"))  # echo piped input: the transcript reads as a dialogue
        return line.strip()


def isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def progress_bar(
    err: IO[str], clock: Callable[[], float] = time.monotonic
) -> Callable[[int, int], None]:
    """The progress of a run on stderr, with the rate and the time left: a bar redrawn in
    place on a terminal (at most ten times a second), plain lines every 10% otherwise."""
    tty = isatty(err)
    start = clock()
    last = [-1.0]

    def draw(done: int, total: int) -> None:
        now = clock()
        percent = 100 * done // total if total else 100
        finished = done >= total
        if tty:
            if not finished and now - last[0] < 0.1:
                return
        elif not finished and percent // 10 == last[0]:
            return
        last[0] = now if tty else percent // 10
        elapsed = now - start
        rate = done / elapsed if elapsed > 0 else 0.0
        if finished:
            left = f"done in {duration(elapsed)}"
        elif rate > 0:
            left = f"about {duration((total - done) / rate)} left"
        else:
            left = "time left unknown"
        speed = f"{rate:.1f} games/s" if rate else "- games/s"
        text = f"{done}/{total} games {percent:3d}%, {speed}, {left}"
        if tty:
            width = 30
            filled = width * done // total if total else width
            bar = "#" * filled + "." * (width - filled)
            err.write(f"\r[{bar}] {text}\x1b[K")  # erase what a longer line left
            if finished:
                err.write("\n")
        else:
            err.write(text + "\n")
        err.flush()

    return draw


def duration(seconds: float) -> str:
    """A duration for people: ``42 s``, ``3 min 5 s``, ``2 h 10 min``."""
    s = round(seconds)
    if s < 60:
        return f"{s} s" if seconds >= 1 or seconds == 0 else f"{seconds:.1f} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"
