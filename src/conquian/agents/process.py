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
`ProcessAgent.log` and otherwise ignored. A bot that answers late (past the
`timeout`), exits, writes something that is not the answer asked for, or
answers an action that is not legal raises `BotError`, which names the seat
and the command: the game it was asked about is a value, left as it was, and
the bot's process is stopped. Nothing ever waits longer than the timeout.

``"cmd:python mybot.py"`` names such a bot wherever an agent name is taken
(`agent_from_name`).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any

from ..actions import Action, parse_action
from ..errors import ConquianError, NotationError
from ..events import decision_of, events
from ..state.base import PlayerView

__all__ = ["PROTOCOL", "BotError", "Command", "ProcessAgent", "agent_from_name"]

PROTOCOL = 1
"""The version of the bot protocol this library speaks."""
MAX_LINE = 1_000_000
"""The longest line a bot may write, in characters."""
_EOF = object()


class BotError(ConquianError):
    """A bot in another process failed: no answer in time, its process ended, an answer
    out of protocol, or an illegal action. `seat` and `command` say whose fault it is."""

    def __init__(self, message: str, *, seat: int | None = None, command: str = "") -> None:
        who = f"seat {seat} " if seat is not None else ""
        super().__init__(f"{who}(bot {command!r}): {message}")
        self.seat = seat
        self.command = command


class ProcessAgent:
    """An agent that asks a program in another process, over JSON lines (see the module).

    `command` is the program and its arguments (a list, or a string split as a
    shell would); `timeout` the seconds it has to answer each message that
    needs an answer. The process starts at the first decision, and stops with
    `close` (also on ``with`` and when the agent is collected).

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
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._hello: tuple[int, str] | None = None
        self._seen: tuple[str, ...] | None = None
        self._seat: int | None = None
        self._failed: str | None = None
        self._threads: list[threading.Thread] = []

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
        self._send(
            {
                "type": "decide",
                "decision": decision_of(view),
                "view": data,
                "legal": [str(a) for a in legal],
                "events": [e.data() for e in events(view, since)],
            }
        )
        self._seen = history
        answer = self._receive("action")
        text = answer.get("action")
        if not isinstance(text, str) or len(text) > 200:
            raise self._fail(f"answered {_short(answer)}, which has no action text")
        try:
            action = parse_action(text)
        except (NotationError, ValueError) as e:
            raise self._fail(f"answered {text!r}, which is not an action: {e}") from None
        for a in legal:
            if a == action:
                return a
        raise self._fail(
            f"answered {text!r}, which is not legal now (legal: {', '.join(map(str, legal))})"
        )

    def deal_over(self, view: PlayerView) -> None:
        """Tell the bot a deal is over: its final view (every hand shown, C6) and the result."""
        if self._process is None or self._failed:
            return
        data = json.loads(view.to_json())
        self._send({"type": "deal_over", "view": data, "result": data["result"]})
        self._seen = None

    def match_over(self, sheet: Mapping[str, Any], winner: int | None) -> None:
        """Tell the bot the match is over: the score sheet's JSON data and the winner."""
        if self._process is None or self._failed:
            return
        self._send({"type": "match_over", "sheet": dict(sheet), "winner": winner})

    # -- the process -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the bot's process (the first decision does it if not done)."""
        if self._process is not None:
            return
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=self._cwd,
                env=self._env,
                start_new_session=os.name == "posix",  # its own group, stopped as one
            )
        except OSError as e:
            raise self._fail(f"could not be started: {e}") from None
        self._process = process
        assert process.stdout is not None and process.stderr is not None
        self._threads = []
        for target, stream in ((self._read, process.stdout), (self._drain, process.stderr)):
            thread = threading.Thread(target=target, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _read(self, stream: IO[str]) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def _drain(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._stderr.append(line.rstrip("\n")[:500])
        except (OSError, ValueError):
            pass

    def close(self, wait: float = 1.0) -> None:
        """Say ``bye``, give the bot `wait` seconds to exit, then stop it."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.write('{"type":"bye"}\n')
            process.stdin.close()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=wait)
        _stop(process)

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
        self._send(
            {"type": "hello", "protocol": PROTOCOL, "seat": seat, "rules": rules, "seed": self.seed}
        )
        answer = self._receive("hello")
        if answer.get("protocol") != PROTOCOL:
            raise self._fail(
                f"speaks protocol {_short(answer.get('protocol'))}; this library speaks {PROTOCOL}"
            )
        name = answer.get("name")
        self.name = name if isinstance(name, str) else None
        self._hello = key
        self._seen = None

    def _send(self, message: dict[str, Any]) -> None:
        if self._failed:
            raise self._error(f"stopped after an earlier fault: {self._failed}")
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise self._fail(self._ended()) from None

    def _receive(self, kind: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise self._fail(f"gave no {kind} within {self.timeout:g} s") from None
            if line is _EOF:
                raise self._fail(self._ended())
            assert isinstance(line, str)
            if len(line) > MAX_LINE:
                raise self._fail(f"wrote a line of more than {MAX_LINE} characters")
            try:
                message = json.loads(line)
            except ValueError:
                raise self._fail(f"wrote {_short(line.strip())}, which is not JSON") from None
            if isinstance(message, dict) and message.get("type") == "log":
                self.log.append(str(message.get("text", ""))[:1000])
                continue
            if not isinstance(message, dict) or message.get("type") != kind:
                raise self._fail(f"wrote {_short(message)} where a {kind!r} answer was due")
            return message

    def _ended(self) -> str:
        process = self._process
        code = None
        if process is not None:
            try:
                code = process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        for thread in self._threads[1:]:  # what it wrote on stderr before it ended
            thread.join(timeout=1.0)
        tail = " | ".join(self._stderr)
        return f"its process ended (exit code {code})" + (f"; it said: {tail}" if tail else "")

    def _error(self, message: str) -> BotError:
        return BotError(message, seat=self._seat, command=self.text)

    def _fail(self, message: str) -> BotError:
        """The error for a fault of the bot; the process is stopped, the agent unusable."""
        self._failed = message
        process, self._process = self._process, None
        if process is not None:
            _stop(process)
        return self._error(message)


def _stop(process: subprocess.Popen[str]) -> None:
    """Kill the process if it still runs, reap it, and close its pipes."""
    if os.name == "posix":  # the bot's whole process group: a shell's children too
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=2.0)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.close()


def _short(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
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
