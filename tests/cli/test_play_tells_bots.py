"""`conquian play` tells a process bot of each deal's end and, in a match, of the match's
end (``deal_over``, ``match_over``), as `conquian.play_match` does."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

from conquian.cli import main

BOT = """
import json, sys
log = open(sys.argv[1], "a", encoding="utf-8")
for line in sys.stdin:
    message = json.loads(line)
    log.write(message["type"] + "\\n")
    log.flush()
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "logger"}), flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"type": "action", "action": message["legal"][0]}), flush=True)
    elif message["type"] == "bye":
        break
"""


def test_a_match_played_in_the_terminal_tells_the_process_bot_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot, log = tmp_path / "bot.py", tmp_path / "heard.txt"
    bot.write_text(BOT, encoding="utf-8")
    command = f"cmd:{shlex.join([sys.executable, str(bot), str(log)])}"
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))  # the first legal move
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    status = main(["play", "--deals", "2", "--seed", "3", "--opponent", command])
    assert status == 0, out.getvalue()[-500:]
    heard = log.read_text(encoding="utf-8").split()
    assert heard.count("deal_over") == 2
    assert heard.count("match_over") == 1
    assert heard.index("match_over") > max(i for i, k in enumerate(heard) if k == "deal_over")
