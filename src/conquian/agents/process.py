"""`ProcessAgent`: a bot in another process, in any language, speaking JSON lines.

The bot reads one JSON object per line on its standard input and writes one
per line on its standard output (the protocol, version `PROTOCOL`, is on the
docs page *The bot protocol*):

- ``{"type": "hello", "protocol": 1, "seat": 0, "rules": {...}, "seed": 7}``
  when it is first asked to play a seat under some rules; it answers
  ``{"type": "hello", "protocol": 1}`` (with a ``"name"`` if it likes);
- ``{"type": "decide", "decision": "say", "view": {...}, "legal": [...],
  "events": [...]}`` whenever its seat must act: its view (a
  ``conquian-view``), its legal actions in notation, what it is asked, and
  what happened since it last decided; it answers
  ``{"type": "action", "action": "take 5H"}``;
- notices, which need no answer: ``deal_over`` (the final view and the
  result), ``match_over`` (the score sheet and the winner) and ``bye``
  (the bot should exit).

Lines ``{"type": "log", "text": ...}`` from the bot are kept in
`ProcessAgent.log` (the last 100) and otherwise ignored. A bot that answers
late (past the `timeout`), exits, does not read what it is sent, writes
something that is not the answer asked for, or answers an action that is not
legal raises `BotError`, which names the seat and the command: the game it was
asked about is a value, left as it was, and the bot's process is stopped.

Whatever the bot writes, nothing waits longer than the timeout for it and
what is kept of it is bounded: at most `QUEUED_LINES` lines of at most
`MAX_LINE` characters wait to be read (a bot that writes more waits on its
full pipe), and of its standard error the last 20 lines, 500 characters
each, with any control character quoted (`conquian.render.text.printable`).
On POSIX the bot runs in a session of its own and is stopped with all its
process group; a child that leaves the group (``setsid``) is out of reach.
On Windows only the bot's own process is stopped, not the processes it
started.

What a bot is told (its seat, the rules, a seed, its views) tells it nothing
of the cards it may not see (C6); a bot that reads its host's memory or
command line is out of the reach of any protocol: run a bot you do not trust
in a sandbox.

``"cmd:python mybot.py"`` names such a bot wherever an agent name is taken
(`agent_from_name`).
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import queue
import shlex
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..actions import Action, parse_action
from ..errors import ConquianError, NotationError
from ..events import decision_of, events
from ..render.text import printable
from ..state.base import PlayerView

if TYPE_CHECKING:
    import subprocess

__all__ = [
    "MAX_LINE",
    "PROTOCOL",
    "QUEUED_LINES",
    "BotError",
    "Command",
    "ProcessAgent",
    "agent_from_name",
]

PROTOCOL = 1
"""The version of the bot protocol this library speaks."""
MAX_LINE = 1_000_000
"""The longest line a bot may write, in characters."""
QUEUED_LINES = 16
"""The most lines of a bot read ahead, waiting for the library: a bot that writes more waits."""
_EOF = object()
_STDERR_LINES = 20  # the last lines of the bot's standard error kept, to quote
_STDERR_WIDTH = 500  # the characters kept of each
_CHUNK = 4096  # the characters read of standard error at once


class BotError(ConquianError):
    """A bot in another process failed: no answer in time, its process ended, an answer
    out of protocol, or an illegal action. `seat` and `command` say whose fault it is,
    `reason` what it did."""

    def __init__(self, message: str, *, seat: int | None = None, command: str = "") -> None:
        who = f"seat {seat} " if seat is not None else ""
        super().__init__(f"{who}(bot {command!r}): {message}")
        self.reason = message
        self.seat = seat
        self.command = command

    def __reduce__(self) -> tuple[Any, tuple[str, int | None, str]]:
        # the same error again when it comes back from another process (simulate's jobs)
        return (_bot_error, (self.reason, self.seat, self.command))


def _bot_error(reason: str, seat: int | None, command: str) -> BotError:
    return BotError(reason, seat=seat, command=command)


class _Pipes:
    """A bot's running process and the threads at its pipes: one reads its output into a
    queue of at most `QUEUED_LINES` lines, one keeps the end of its standard error, and a
    thread for each message writes it, so that a bot that does not read makes nothing wait
    past a deadline."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.lines: queue.Queue[object] = queue.Queue(maxsize=QUEUED_LINES)
        self.stderr: collections.deque[str] = collections.deque(maxlen=_STDERR_LINES)
        self.stopped = threading.Event()
        self._lock = threading.Lock()  # the input's state and the kept standard error
        self._writing = False
        self._closing = False
        self.drained = threading.Thread(target=self._drain, daemon=True)
        for thread in (threading.Thread(target=self._read, daemon=True), self.drained):
            thread.start()

    def _put(self, item: object) -> bool:
        """Queue `item`, waiting while the queue is full, until the bot is stopped."""
        while not self.stopped.is_set():
            try:
                self.lines.put(item, timeout=0.05)
                return True
            except queue.Full:
                pass
        return False

    def _read(self) -> None:
        raw = self.process.stdout
        assert raw is not None
        stream = io.TextIOWrapper(
            io.BufferedReader(cast(io.FileIO, raw)), encoding="utf-8", errors="replace"
        )
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line or not self._put(line) or _overlong(line):
                    break  # past an overlong line nothing more is read: the bot is refused
        except (OSError, ValueError):
            pass
        finally:
            self._put(_EOF)
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _drain(self) -> None:
        raw = self.process.stderr
        assert raw is not None
        stream = io.TextIOWrapper(
            io.BufferedReader(cast(io.FileIO, raw)), encoding="utf-8", errors="replace"
        )
        line = ""
        try:
            while True:
                chunk = stream.readline(_CHUNK)
                if not chunk:
                    break
                end = chunk.endswith("\n")
                line += chunk[: _STDERR_WIDTH - len(line)].rstrip("\n")
                if end:
                    self._said(line)
                    line = ""
        except (OSError, ValueError):
            pass
        finally:
            if line:
                self._said(line)
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _said(self, line: str) -> None:
        with self._lock:
            self.stderr.append(printable(line))

    def said(self) -> str:
        """The last lines of the bot's standard error, joined."""
        with self._lock:
            return " | ".join(self.stderr)

    def write(self, data: bytes, deadline: float) -> bool | None:
        """Write `data` to the bot's input by `deadline`: True when written, False when the
        input is closed (the bot ended), None when the bot did not read it in time."""
        with self._lock:
            if self._closing:
                return False
            self._writing = True
        done = threading.Event()
        written: list[bool] = []

        def run() -> None:
            stdin = self.process.stdin
            assert stdin is not None
            try:
                view = memoryview(data)
                while view:
                    view = view[stdin.write(view) or 0 :]
                written.append(True)
            except (OSError, ValueError):
                pass
            finally:
                with self._lock:
                    self._writing = False
                    close = self._closing
                if close:  # close_input() left the input to this thread, then writing to it
                    with contextlib.suppress(OSError, ValueError):
                        stdin.close()
                done.set()

        threading.Thread(target=run, daemon=True).start()
        if not done.wait(max(deadline - time.monotonic(), 0.0)):
            return None
        return bool(written)

    def close_input(self) -> None:
        """Close the bot's input now, or when the message being written is done."""
        with self._lock:
            self._closing = True
            busy = self._writing
        if not busy:
            stdin = self.process.stdin
            if stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    stdin.close()

    def stop(self) -> None:
        """Kill the bot's process group, reap the bot, and let the threads go: none waits
        for a pipe that a child out of the group may hold open."""
        import signal
        import subprocess  # where used: `import conquian` stays light

        process = self.process
        if os.name == "posix" and process.returncode is None:
            with contextlib.suppress(OSError):  # the bot's whole group: a shell's children too
                os.killpg(process.pid, signal.SIGKILL)
        if process.poll() is None:
            with contextlib.suppress(OSError):
                process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=2.0)
        if os.name == "posix":  # the children of a bot that had already exited
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
        self.stopped.set()
        self.close_input()
        with contextlib.suppress(queue.Empty):
            while True:  # what was read and not asked for
                self.lines.get_nowait()


def _overlong(line: str) -> bool:
    return len(line) > MAX_LINE and not line.endswith("\n")


class ProcessAgent:
    """An agent that asks a program in another process, over JSON lines (see the module).

    `command` is the program and its arguments (a list, or a string split as a
    shell would); `timeout` the seconds it has to answer each message that
    needs an answer (and to read each message sent). The process starts at
    the first decision, and stops with `close` (also on ``with`` and when the
    agent is collected).

    A bot in a few lines of Python, given to the interpreter with ``-c``:

    >>> import sys
    >>> first = (
    ...     "import json, sys\\n"
    ...     "for line in sys.stdin:\\n"
    ...     "    m = json.loads(line)\\n"
    ...     "    if m['type'] == 'hello': answer = {'type': 'hello', 'protocol': 1}\\n"
    ...     "    elif m['type'] == 'decide':\\n"
    ...     "        answer = {'type': 'action', 'action': m['legal'][0]}\\n"
    ...     "    else: continue\\n"
    ...     "    print(json.dumps(answer), flush=True)\\n"
    ... )
    >>> bot = ProcessAgent([sys.executable, "-c", first], timeout=10)
    >>> with bot:
    ...     view = new_game(ConquianRules(), seed=7).view(1)
    ...     bot(view) in view.legal_actions
    True
    """

    def __init__(
        self,
        command: Sequence[str] | str,
        timeout: float = 5.0,
        *,
        seed: int | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv or not all(isinstance(a, str) for a in argv):
            raise TypeError(f"command must be a program and its arguments (got {command!r})")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds (got {timeout!r})")
        self.command = tuple(argv)
        self.timeout = float(timeout)
        self.seed = seed
        self.name: str | None = None
        self.log: collections.deque[str] = collections.deque(maxlen=100)
        self._cwd = cwd
        self._env = None if env is None else dict(env)
        self._pipes: _Pipes | None = None
        self._hello: tuple[int, str] | None = None
        self._seen: tuple[str, ...] | None = None
        self._seat: int | None = None
        self._failed: str | None = None

    def __repr__(self) -> str:
        return f"ProcessAgent({list(self.command)!r}, timeout={self.timeout!r})"

    @property
    def text(self) -> str:
        """The command as one line of shell words."""
        return shlex.join(self.command)

    # -- the agent -------------------------------------------------------------------------

    def __call__(self, view: PlayerView) -> Action:
        """The bot's action in `view`: one of its `legal_actions`, or `BotError`."""
        legal = view.legal_actions
        self._seat = view.player
        if not legal:
            raise self._error(f"asked to play in a view with no legal action (seat {view.player})")
        data = json.loads(view.to_json())
        self._greet(view.player, data["rules"])
        history = tuple(str(a) for a in view.history)
        seen = self._seen  # None: nothing told of this deal yet (the dealing with the rest)
        known = None if seen is None else len(seen)
        since = known if known is not None and history[:known] == seen else None
        message = {
            "type": "decide",
            "decision": decision_of(view),
            "view": data,
            "legal": [str(a) for a in legal],
            "events": [e.data() for e in events(view, since)],
        }
        deadline = time.monotonic() + self.timeout
        self._send(message, deadline)
        self._seen = history
        answer = self._receive("action", deadline)
        text = answer.get("action")
        if not isinstance(text, str) or len(text) > 200:
            raise self._fail(f"answered {_short(answer)}, which has no action text")
        try:
            action = parse_action(text)
        except (NotationError, ValueError):
            raise self._fail(f"answered {_short(text)}, which is not an action") from None
        for a in legal:
            if a == action:
                return a
        raise self._fail(
            f"answered {text!r}, which is not legal now (legal: {', '.join(map(str, legal))})"
        )

    def deal_over(self, view: PlayerView) -> None:
        """Tell the bot a deal is over: its final view (every hand shown, C6) and the result."""
        if self._pipes is None or self._failed:
            return
        data = json.loads(view.to_json())
        message = {"type": "deal_over", "view": data, "result": data["result"]}
        self._send(message, time.monotonic() + self.timeout)
        self._seen = None

    def match_over(self, sheet: Mapping[str, Any], winner: int | None) -> None:
        """Tell the bot the match is over: the score sheet's JSON data and the winner."""
        if self._pipes is None or self._failed:
            return
        message = {"type": "match_over", "sheet": dict(sheet), "winner": winner}
        self._send(message, time.monotonic() + self.timeout)

    # -- the process -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the bot's process (the first decision does it if not done)."""
        import subprocess  # where used: `import conquian` stays light

        if self._pipes is not None:
            return
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=self._cwd,
                env=self._env,
                start_new_session=os.name == "posix",  # its own group, stopped as one
            )
        except (OSError, ValueError) as e:
            raise self._fail(f"could not be started: {e}") from None
        self._pipes = _Pipes(process)

    def close(self, wait: float = 1.0) -> None:
        """Say ``bye``, give the bot `wait` seconds to exit, then stop it (and its process
        group, on POSIX). Never waits much longer than `wait`, whatever the bot does."""
        import subprocess  # where used: `import conquian` stays light

        pipes, self._pipes = self._pipes, None
        if pipes is None:
            return
        deadline = time.monotonic() + wait
        try:
            if not self._failed and pipes.write(b'{"type":"bye"}\n', deadline):
                pipes.close_input()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    pipes.process.wait(timeout=max(deadline - time.monotonic(), 0.0))
        finally:  # stopped even when no thread can start (the interpreter is ending)
            pipes.stop()

    def __enter__(self) -> ProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # never raise while being collected
            self.close(wait=0.2)

    # -- the protocol ----------------------------------------------------------------------

    def _greet(self, seat: int, rules: dict[str, Any]) -> None:
        key = (seat, json.dumps(rules, sort_keys=True))
        if self._hello == key:
            return
        self.start()
        hello = {"type": "hello", "protocol": PROTOCOL, "seat": seat, "rules": rules}
        hello["seed"] = self.seed
        deadline = time.monotonic() + self.timeout
        self._send(hello, deadline)
        answer = self._receive("hello", deadline)
        spoken = answer.get("protocol")
        if type(spoken) is not int or spoken != PROTOCOL:  # not True, not 1.0
            raise self._fail(f"speaks protocol {_short(spoken)}; this library speaks {PROTOCOL}")
        name = answer.get("name")
        self.name = name if isinstance(name, str) else None
        self._hello = key
        self._seen = None

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        if self._failed:
            raise self._error(f"stopped after an earlier fault: {self._failed}")
        pipes = self._pipes
        assert pipes is not None
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        written = pipes.write(data, deadline)
        if written is None:
            raise self._fail(f"did not read its input within {self.timeout:g} s")
        if not written:
            raise self._fail(self._ended(deadline))

    def _receive(self, kind: str, deadline: float) -> dict[str, Any]:
        pipes = self._pipes
        assert pipes is not None
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:  # however many lines are waiting
                    raise queue.Empty
                line = pipes.lines.get(timeout=left)
            except queue.Empty:
                raise self._fail(f"gave no {kind} within {self.timeout:g} s") from None
            if line is _EOF:
                raise self._fail(self._ended(deadline))
            assert isinstance(line, str)
            if _overlong(line):
                raise self._fail(f"wrote a line of more than {MAX_LINE} characters")
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):  # RecursionError: "[[[[...", nested too deep
                raise self._fail(f"wrote {_short(line.strip())}, which is not JSON") from None
            if isinstance(message, dict) and message.get("type") == "log":
                text = message.get("text", "")
                self.log.append((text if isinstance(text, str) else _short(text))[:1000])
                continue
            if not isinstance(message, dict) or message.get("type") != kind:
                raise self._fail(f"wrote {_short(message)} where a {kind!r} answer was due")
            return message

    def _ended(self, deadline: float) -> str:
        """Why the bot's pipes closed: its exit code and its last lines of standard error,
        waited for until `deadline` (a tenth of a second at least, a second at most)."""
        import subprocess  # where used: `import conquian` stays light

        pipes = self._pipes
        code = None
        wait = min(1.0, max(deadline - time.monotonic(), 0.1))
        if pipes is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = pipes.process.wait(timeout=wait)
            pipes.drained.join(timeout=wait)  # what it wrote on stderr before it ended
        tail = pipes.said() if pipes is not None else ""
        return f"its process ended (exit code {code})" + (f"; it said: {tail}" if tail else "")

    def _error(self, message: str) -> BotError:
        return BotError(message, seat=self._seat, command=self.text)

    def _fail(self, message: str) -> BotError:
        """The error for a fault of the bot; the process is stopped, the agent unusable."""
        self._failed = message
        pipes, self._pipes = self._pipes, None
        if pipes is not None:
            pipes.stop()
        return self._error(message)


def _short(value: object) -> str:
    """A value a bot wrote, cut to 80 characters and quoted (no control character shows)."""
    try:
        text = value if isinstance(value, str) else json.dumps(value)
    except (ValueError, RecursionError):
        text = "a value nested too deeply"
    return repr(text if len(text) <= 80 else text[:80] + "…")


class Command:
    """A factory of `ProcessAgent` for one command: called with a seed, as agent factories are
    (`conquian.agents.AgentFactory`), it makes a new agent told that seed in its hello.
    Picklable, so `simulate` may use it on several processes.

    >>> Command("python bot.py", timeout=2)(7)
    ProcessAgent(['python', 'bot.py'], timeout=2.0)
    """

    def __init__(self, command: Sequence[str] | str, timeout: float = 5.0) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.__name__ = "cmd:" + shlex.join(self.command)

    def __call__(self, seed: int) -> ProcessAgent:
        """A new agent for this command, told `seed`."""
        return ProcessAgent(self.command, self.timeout, seed=seed)

    def __repr__(self) -> str:
        return f"Command({self.command!r}, timeout={self.timeout!r})"


def agent_from_name(name: str, timeout: float = 5.0) -> Command | None:
    """The agent factory a name stands for when it starts with ``cmd:`` (the rest is the
    command, split as a shell would), else None: the registry's names are looked up there.

    >>> agent_from_name("cmd:node bot.js")
    Command(['node', 'bot.js'], timeout=5.0)
    >>> agent_from_name("heuristic") is None
    True
    """
    if not isinstance(name, str) or not name.startswith("cmd:"):
        return None
    command = name[4:].strip()
    if not command:
        raise ValueError("cmd: needs a command after it, as cmd:python mybot.py")
    return Command(command, timeout)
