"""Bots in other processes: the JSON-lines protocol, its faults, and the sample bots."""

from __future__ import annotations

import pickle
import shutil
import sys
import time
from pathlib import Path

import pytest

from conquian import ConquianRules, CooncanRules, HeuristicAgent, new_game, play, simulate
from conquian.agents import ProcessAgent
from conquian.agents.process import PROTOCOL, BotError, Command, agent_from_name

BOTS = Path(__file__).resolve().parent.parent / "docs" / "examples" / "bots"
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
