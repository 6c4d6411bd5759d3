"""The how-to "A game over the network": its server and clients play a match on 127.0.0.1,
save it after each deal, and a new server resumes it from the file (bounded in time)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from conquian import ConquianRules, Match

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples" / "network"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"network_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


server, client = _module("server"), _module("client")


async def _run(table: object, lines: list[str]) -> None:
    """The server and both players, all within 120 seconds."""
    serving = asyncio.create_task(server.serve(table))
    await asyncio.wait_for(table.listening.wait(), 10)  # type: ignore[attr-defined]
    port = table.port  # type: ignore[attr-defined]
    players = [client.play(p, port, lines.append) for p in (0, 1)]
    await asyncio.wait_for(asyncio.gather(serving, *players), 120)


def test_a_match_over_the_network_saved_and_resumed(tmp_path: Path) -> None:
    """Two players play the first of three deals; the server stops, saving the match; a
    server started on the file plays the rest; the file then holds all three deals."""
    save = tmp_path / "match.json"
    lines: list[str] = []
    first = server.Table(Match(ConquianRules(), seed=21, deals=3), save, stop_after=1)
    asyncio.run(_run(first, lines))
    saved = Match.from_json(save.read_text(encoding="utf-8"))
    assert len(saved.sheet.rows) == 1 and saved == first.match
    assert any(line.startswith("[0] You ") for line in lines)
    assert any(line.startswith("[1] Seat 0 ") for line in lines)
    more: list[str] = []
    second = server.Table(saved.next_deal(), save, stop_after=None)
    asyncio.run(_run(second, more))
    final = Match.from_json(save.read_text(encoding="utf-8"))
    assert final.is_over and len(final.sheet.rows) == 3
    assert final.records()[0] == saved.records()[0]
    assert sum(line.endswith(f"totals {list(final.sheet.totals)}") for line in more) == 2
