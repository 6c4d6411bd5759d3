"""The how-to "A game over the network": its server and clients play a match on 127.0.0.1,
save it after each deal, and a new server resumes it from the file (bounded in time)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType

import pytest

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


def test_38_7_no_event_is_told_twice() -> None:
    """Each player is told the dealing of each deal once (the rule of `events`: None at a
    deal's start, then the length of the history told), and every event once."""
    lines: list[str] = []
    table = server.Table(Match(ConquianRules(), seed=3, deals=1), Path("/dev/null"))
    asyncio.run(_run(table, lines))
    for p in (0, 1):
        told = [line[4:] for line in lines if line.startswith(f"[{p}] ")]
        story = [str(e) for e in table.match.view(p).view.events()]
        assert [line for line in told if line in story] == story  # each event once, in order
        assert sum("deal;" in line or "deals;" in line for line in told) == 1


# -- a server people may copy: every case answered, bounded, on 127.0.0.1 -----------------


async def _line(reader: asyncio.StreamReader) -> dict[str, object]:
    """The next message from the server, within 10 seconds."""
    line = await asyncio.wait_for(reader.readline(), 10)
    assert line, "the server closed the connection"
    message = json.loads(line)
    assert isinstance(message, dict)
    return message


async def _until(reader: asyncio.StreamReader, kind: str) -> dict[str, object]:
    """Messages up to the first of type `kind` (updates on the way are skipped)."""
    for _ in range(50):
        message = await _line(reader)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


async def _send(writer: asyncio.StreamWriter, data: bytes | dict[str, object]) -> None:
    writer.write(data if isinstance(data, bytes) else json.dumps(data).encode() + b"\n")
    await writer.drain()


class _Server:
    """A server on 127.0.0.1 for one test, ended (and checked to end) when the test ends."""

    def __init__(self, **options: object) -> None:
        match = Match(ConquianRules(), seed=9, deals=1)
        self.table = server.Table(match, Path("/dev/null"), **options)
        self.clients: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> _Server:
        self.task = asyncio.create_task(server.serve(self.table))
        await asyncio.wait_for(self.table.listening.wait(), 10)
        return self

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.table.port)
        self.clients.append(writer)
        return reader, writer

    async def seated(self) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter, str]]:
        out = []
        for person in (0, 1):
            reader, writer = await self.connect()
            await _send(writer, {"type": "join", "person": person})
            welcome = await _line(reader)
            assert welcome["type"] == "welcome" and welcome["person"] == person
            out.append((reader, writer, str(welcome["token"])))
        for reader, _, _ in out:
            assert (await _line(reader))["type"] == "update"
        return out

    async def __aexit__(self, *exc: object) -> None:
        self.table.done.set()
        await asyncio.wait_for(self.task, 10)
        for writer in self.clients:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


def _run_test(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 60))


def test_39_9_bad_lines_are_answered_and_play_goes_on() -> None:
    """A typo, a move without its action, `[]`, text that is not JSON, a 200 KB line: each
    gets an error on the line, the handler lives on, and the next good move is played."""

    async def body() -> None:
        async with _Server() as s:
            (r0, w0, _), (r1, w1, _) = await s.seated()
            mover = s.table.match.current_person
            r, w = (r0, w0) if mover == 0 else (r1, w1)
            bad: list[bytes | dict[str, object]] = [
                {"type": "move", "action": "tak 5H"},
                {"type": "move"},
                b"[]\n",
                b"this is not json\n",
                b"x" * 200_000 + b"\n",
                b"\xff\xfe\n",
                b"[" * 10_000 + b"\n",
                {"type": "move", "action": "meld 2H 3H 4H"},
            ]
            for data in bad:
                await _send(w, data)
                reply = await _line(r)
                assert reply["type"] == "error", data[:40] if isinstance(data, bytes) else data
            legal = str(s.table.match.state.legal_actions()[0])
            await _send(w, {"type": "move", "action": legal})
            assert (await _line(r0))["type"] == "update"
            assert (await _line(r1))["type"] == "update"
            assert len(s.table.match.state.history) == 1

    _run_test(body)


def test_39_9_a_bad_join_is_answered_and_a_good_one_then_seats() -> None:
    """`{"person": 5}`, a person that is no int, a line before joining: errors on the line;
    the same connection then joins."""

    async def body() -> None:
        async with _Server() as s:
            reader, writer = await s.connect()
            for data in (
                {"type": "join", "person": 5},
                {"type": "join", "person": "0"},
                {"person": 0},
                {"type": "move", "action": "pass"},
            ):
                await _send(writer, data)
                assert (await _line(reader))["type"] == "error"
            await _send(writer, {"type": "join", "person": 0})
            assert (await _line(reader))["type"] == "welcome"

    _run_test(body)


def test_39_9_a_seat_is_claimed_with_its_token() -> None:
    """A second connection cannot take a seat mid-match (and so never gets that person's
    hand) without the token; with it, it takes the seat back and gets the update."""

    async def body() -> None:
        async with _Server() as s:
            (_, w0, token0), (r1, _, _) = await s.seated()
            thief_r, thief_w = await s.connect()
            for claim in ({"person": 0}, {"person": 0, "token": "0" * 32}):
                await _send(thief_w, {"type": "join", **claim})
                reply = await _line(thief_r)
                assert reply["type"] == "error" and "taken" in str(reply["message"])
            w0.close()  # person 0 loses his connection: person 1 is told
            left = await _until(r1, "left")
            assert left["person"] == 0
            await _send(thief_w, {"type": "join", "person": 0, "token": token0})
            assert (await _line(thief_r))["type"] == "welcome"
            update = await _until(thief_r, "update")
            assert update["match"]["person"] == 0  # type: ignore[index]
            assert (await _until(r1, "back"))["person"] == 0

    _run_test(body)


def test_39_9_the_connection_cap_and_the_join_timeout() -> None:
    """Past the cap a connection is told the server is full and closed; a connection that
    does not join within the timeout is told so and closed."""

    async def body() -> None:
        async with _Server(max_connections=3, join_timeout=0.5) as s:
            idle = [await s.connect() for _ in range(3)]
            reader, _ = await s.connect()
            reply = await _line(reader)
            assert reply["type"] == "error" and "full" in str(reply["message"])
            assert await asyncio.wait_for(reader.readline(), 10) == b""
            for reader, _ in idle:
                reply = await _line(reader)
                assert reply["type"] == "error" and "no join" in str(reply["message"])
                assert await asyncio.wait_for(reader.readline(), 10) == b""
            await asyncio.sleep(0.05)
            assert s.table.connections == 0

    _run_test(body)


def test_39_9_the_end_prints_no_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    """A match played to its end and the server stopped: no CancelledError or other
    traceback on stderr, and no connection handler left running."""
    lines: list[str] = []
    table = server.Table(Match(ConquianRules(), seed=5, deals=1), Path("/dev/null"))
    asyncio.run(_run(table, lines))
    err = capsys.readouterr().err
    assert "Traceback" not in err and "CancelledError" not in err
    assert not table.handlers and table.connections == 0
