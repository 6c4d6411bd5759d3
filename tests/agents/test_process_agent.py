"""Bots in other processes: the JSON-lines protocol, its faults, and the sample bots."""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from conquian import ConquianRules, CooncanRules, HeuristicAgent, new_game, play, simulate
from conquian.agents import ProcessAgent
from conquian.agents.process import (
    MAX_LINE,
    PROTOCOL,
    QUEUED_LINES,
    BotError,
    Command,
    agent_from_name,
)

BOTS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "bots"
PY = [sys.executable, str(BOTS / "first_bot.py")]


def _bot(tmp_path: Path, body: str) -> list[str]:
    """A bot whose decide answer is written by `body` (Python, `m` the message)."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1}), flush=True)\n"
        "    elif m['type'] == 'decide':\n"
        + "".join(f"        {row}\n" for row in body.splitlines())
    )
    return [sys.executable, str(script)]


def test_the_python_sample_bot_plays_a_deal_of_each_family() -> None:
    """The sample bot of the docs plays whole deals through `play`, and leaves when told."""
    for rules in (ConquianRules(), CooncanRules.three_hand(turn_limit=60)):
        bots = [ProcessAgent(PY, timeout=20) for _ in range(rules.players - 1)]
        try:
            final = play([HeuristicAgent(1), *bots], rules, seed=3)
        finally:
            for bot in bots:
                bot.close()
        assert final.is_over and bots[0].name == "first_bot.py"


@pytest.mark.parametrize(("runtime", "script"), [("node", "first_bot.js"), ("jq", "first_bot.sh")])
def test_the_bots_in_other_languages_play_a_deal(runtime: str, script: str) -> None:
    """The JavaScript and jq sample bots play a two-hand deal (skipped without the runtime)."""
    program = shutil.which(runtime)
    if program is None:
        pytest.skip(f"{runtime} is not installed")
    command = [program, str(BOTS / script)] if runtime == "node" else ["sh", str(BOTS / script)]
    with ProcessAgent(command, timeout=20) as bot:
        final = play([bot, HeuristicAgent(2)], ConquianRules(), seed=9)
    assert final.is_over and bot.name == script


def test_a_slow_bot_is_stopped_at_its_timeout(tmp_path: Path) -> None:
    """A bot that does not answer in time raises BotError naming its seat; no longer wait."""
    bot = ProcessAgent(_bot(tmp_path, "time.sleep(30)"), timeout=0.5)
    view = new_game(ConquianRules(), seed=7).view(1)
    started = time.monotonic()
    with pytest.raises(BotError, match=r"seat 1 .*no action within 0\.5 s"):
        bot(view)
    assert time.monotonic() - started < 5
    with pytest.raises(BotError, match="earlier fault"):
        bot(view)


def test_a_crashing_bot_is_reported_with_what_it_said(tmp_path: Path) -> None:
    """A bot whose process ends raises BotError with its exit code and its last words."""
    bot = ProcessAgent(_bot(tmp_path, "sys.stderr.write('out of ideas\\n'); sys.exit(3)"))
    with pytest.raises(BotError, match=r"exit code 3.*out of ideas"):
        bot(new_game(ConquianRules(), seed=7).view(1))


@pytest.mark.parametrize(
    ("body", "fault"),
    [
        ("print(json.dumps({'type': 'action', 'action': 'take 9Z'}), flush=True)", "not an action"),
        ("print(json.dumps({'type': 'action', 'action': 'discard 5H'}), flush=True)", "not legal"),
        ("print('hello there', flush=True)", "not JSON"),
        ("print(json.dumps({'type': 'move'}), flush=True)", "'action' answer was due"),
    ],
)
def test_a_bad_answer_is_the_bots_fault_and_the_game_is_untouched(
    tmp_path: Path, body: str, fault: str
) -> None:
    """An answer out of protocol or an illegal action raises BotError naming the seat; the
    deal is a value and stays as it was."""
    state = new_game(ConquianRules(), seed=7)
    saved = state.to_json()
    bot = ProcessAgent(_bot(tmp_path, body), timeout=10)
    with pytest.raises(BotError, match=fault) as err:
        play([HeuristicAgent(0), bot], ConquianRules(), seed=7)
    assert err.value.seat == 1 and "bot.py" in err.value.command
    assert state.to_json() == saved


def test_a_bot_of_another_protocol_is_refused(tmp_path: Path) -> None:
    """The hello carries the protocol version; a bot speaking another one is refused."""
    script = tmp_path / "old.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps({'type': 'hello', 'protocol': 99}), flush=True)\n"
    )
    with pytest.raises(BotError, match=f"protocol '?99'?; this library speaks {PROTOCOL}"):
        ProcessAgent([sys.executable, str(script)], timeout=10)(
            new_game(ConquianRules(), seed=7).view(1)
        )


def test_decisions_carry_the_events_since_the_last_one(tmp_path: Path) -> None:
    """Each decide message holds what happened since the bot last decided; logs are kept."""
    body = (
        "print(json.dumps({'type': 'log', 'text': str(len(m['events']))}), flush=True)\n"
        "print(json.dumps({'type': 'action', 'action': m['legal'][0]}), flush=True)"
    )
    with ProcessAgent(_bot(tmp_path, body), timeout=10) as bot:
        final = play([HeuristicAgent(0), bot], ConquianRules(), seed=7)
    counts = [int(x) for x in bot.log]
    assert final.is_over and counts and counts[0] >= 1 and all(c >= 1 for c in counts)


def test_cmd_names_and_simulate() -> None:
    """``cmd:...`` names a picklable factory of ProcessAgent, which `simulate` accepts."""
    factory = agent_from_name("cmd:" + " ".join(PY))
    assert isinstance(factory, Command) and agent_from_name("random") is None
    assert pickle.loads(pickle.dumps(factory)).command == factory.command
    with pytest.raises(ValueError, match="command"):
        agent_from_name("cmd:  ")
    summary = simulate([factory, "heuristic"], ConquianRules(), games=2, seed=1)
    assert summary.games == 2 and summary.agents[0].startswith("cmd:")


def test_a_shell_bot_and_its_children_are_stopped_together() -> None:
    """A bot started through a shell that leaves children holding its output is stopped as a
    group at its timeout: nothing waits on the children."""
    if shutil.which("sh") is None:
        pytest.skip("no sh")
    bot = ProcessAgent(["sh", "-c", "sleep 30 & sleep 30"], timeout=0.5)
    started = time.monotonic()
    with pytest.raises(BotError, match="no hello within"):
        bot(new_game(ConquianRules(), seed=7).view(1))
    bot.close()
    assert time.monotonic() - started < 5


# -- hostile bots: the deadline, bounded memory, a close that never blocks (issue 39.2) ------

_HARNESS = """
import json, resource, sys, time

resource.setrlimit(resource.RLIMIT_AS, (300 << 20, 300 << 20))  # fails fast, not gigabytes
from conquian import ConquianRules, new_game
from conquian.agents import ProcessAgent

bot = ProcessAgent([sys.executable, sys.argv[1]], timeout=1)
out = {"error": None}
started = time.monotonic()
try:
    bot(new_game(ConquianRules(), seed=7).view(1))
except Exception as e:
    out["error"] = str(e)
out["seconds"] = time.monotonic() - started
time.sleep(float(sys.argv[2]))  # what the bot writes between decisions
bot.close()
try:  # the peak of this process's own memory (ru_maxrss keeps its parent's across exec)
    with open("/proc/self/status") as status:
        peak = [int(r.split()[1]) for r in status if r.startswith("VmHWM:")][0]
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak //= 1024 if sys.platform == "darwin" else 1
out["peak_mb"] = peak / 1024
print(json.dumps(out))
"""


def _hostile(tmp_path: Path, body: str, pause: float = 0.0) -> dict[str, Any]:
    """One decision asked of a bot whose decide answer is `body`, in a process of its own
    under a 300 MB guard on its address space: what it raised, how long the decision
    took, and the peak of the process's memory."""
    pytest.importorskip("resource")
    harness = tmp_path / "harness.py"
    harness.write_text(_HARNESS)
    command = _bot(tmp_path, body)
    done = subprocess.run(
        [sys.executable, str(harness), command[1], str(pause)],
        capture_output=True,
        text=True,
        timeout=30,  # the old library waited here for ever
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_endless_log_lines_do_not_hold_off_the_timeout(tmp_path: Path) -> None:
    """A bot that writes small log lines for ever gets BotError at its timeout."""
    out = _hostile(tmp_path, 'while True: print(\'{"type": "log", "text": "x"}\', flush=True)')
    assert out["error"].endswith("gave no action within 1 s")
    assert out["seconds"] < 10 and out["peak_mb"] < 120


def test_endless_stderr_without_a_newline_is_kept_in_bounded_memory(tmp_path: Path) -> None:
    """Standard error written for ever with no newline: its end is kept, 500 characters."""
    out = _hostile(tmp_path, "while True: sys.stderr.write('x' * 65536); sys.stderr.flush()")
    assert out["error"].endswith("gave no action within 1 s") and out["peak_mb"] < 120


def test_long_log_lines_between_decisions_wait_in_a_bounded_queue(tmp_path: Path) -> None:
    """A bot that answers, then writes a gigabyte of 1 MB log lines: at most QUEUED_LINES
    lines are read ahead; the bot waits on its pipe."""
    body = (
        "print(json.dumps({'type': 'action', 'action': m['legal'][0]}), flush=True)\n"
        "big = json.dumps({'type': 'log', 'text': 'y' * 999_000})\n"
        "for _ in range(1000): print(big, flush=True)"
    )
    out = _hostile(tmp_path, body, pause=2.0)
    assert out["error"] is None and out["peak_mb"] < 120
    assert QUEUED_LINES * MAX_LINE < 20_000_000


def test_a_line_of_nested_brackets_is_a_bot_error(tmp_path: Path) -> None:
    """100,000 ``[`` on a line is refused as not JSON, not a bare RecursionError."""
    bot = ProcessAgent(_bot(tmp_path, "print('[' * 100_000, flush=True)"), timeout=10)
    with pytest.raises(BotError, match="not JSON"):
        bot(new_game(ConquianRules(), seed=7).view(1))


@pytest.mark.parametrize("spoken", ["true", "1.0", '"1"'])
def test_a_hello_with_protocol_true_or_a_float_is_refused(tmp_path: Path, spoken: str) -> None:
    """Only the integer 1 is protocol 1: ``true`` equals 1 in Python and is still refused."""
    script = tmp_path / "odd.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        f'    print(\'{{"type": "hello", "protocol": {spoken}}}\', flush=True)\n'
    )
    bot = ProcessAgent([sys.executable, str(script)], timeout=10)
    with pytest.raises(BotError, match="speaks protocol"):
        bot(new_game(ConquianRules(), seed=7).view(1))


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting to be reaped does not)."""
    stat = Path(f"/proc/{pid}/stat")
    if stat.parent.parent.is_dir() and Path("/proc/self").exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_close_does_not_wait_for_a_child_that_left_the_group(tmp_path: Path) -> None:
    """A child started with setsid keeps the bot's output open: close() returns at once all
    the same; the child is out of the group's reach (the docs say so) and its own children
    in the group are ended."""
    body = (
        "a = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
        " start_new_session=True)\n"
        "b = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        "print(json.dumps({'type': 'log', 'text': f'{a.pid} {b.pid}'}), flush=True)\n"
        "print(json.dumps({'type': 'action', 'action': m['legal'][0]}), flush=True)"
    )
    script = _bot(tmp_path, body)
    Path(script[1]).write_text("import subprocess\n" + Path(script[1]).read_text())
    bot = ProcessAgent(script, timeout=10)
    bot(new_game(ConquianRules(), seed=7).view(1))
    outside, inside = (int(p) for p in bot.log[0].split())
    try:
        started = time.monotonic()
        bot.close()
        assert time.monotonic() - started < 5  # the old close waited for the sleeper
        for _ in range(100):
            if not _alive(inside):
                break
            time.sleep(0.05)
        assert not _alive(inside) and _alive(outside)
    finally:
        for pid in (outside, inside):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_a_bot_that_stops_reading_is_stopped_at_the_timeout(tmp_path: Path) -> None:
    """A message the bot does not read (its pipe full) waits no longer than the timeout."""
    body = (
        "print(json.dumps({'type': 'action', 'action': m['legal'][0]}), flush=True)\ntime.sleep(60)"
    )
    bot = ProcessAgent(_bot(tmp_path, body), timeout=0.5)
    bot(new_game(ConquianRules(), seed=7).view(1))
    failed: list[BaseException] = []

    def tell() -> None:
        try:
            bot.match_over({"rows": ["x" * 1000] * 1000}, None)  # 1 MB: more than a pipe holds
        except BotError as e:
            failed.append(e)

    thread = threading.Thread(target=tell, daemon=True)
    thread.start()
    thread.join(20)  # the old library waited here for ever
    assert not thread.is_alive() and "did not read its input" in str(failed[0])
    bot.close()


def test_stderr_reaches_the_error_without_control_characters(tmp_path: Path) -> None:
    """What the bot wrote on standard error is quoted in the error, escape codes made
    visible (`conquian.render.text.printable`), never sent raw to a terminal."""
    body = "sys.stderr.write('\\x1b]0;pwned\\x07\\x1b[2Kbye\\n'); sys.exit(3)"
    bot = ProcessAgent(_bot(tmp_path, body), timeout=10)
    with pytest.raises(BotError) as err:
        bot(new_game(ConquianRules(), seed=7).view(1))
    text = str(err.value)
    assert "\x1b" not in text and "\x07" not in text and "\\x1b]0;pwned" in text


def test_a_bot_error_survives_pickling() -> None:
    """BotError comes back whole from another process (simulate's jobs)."""
    error = BotError("gave no action within 1 s", seat=1, command="python bot.py")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and (again.seat, again.command) == (1, "python bot.py")
