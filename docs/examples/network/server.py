"""A match of two-hand Conquian over the network: the server (asyncio, JSON lines on TCP).

Each player connects and claims a seat (``{"type": "join", "person": 0}``); the
server answers with a token (``{"type": "welcome", "person": 0, "token": "…"}``)
that only he knows, and he gives it to claim the seat again after losing the
connection. He then gets, after every move, his own view of the match (the view
of the deal, never the other hand, and the score sheet) with the events since his
last update; he sends his moves as text (``{"type": "move", "action": "take 5H"}``).

Whatever a connection sends, the server answers on the line: a line that is not
JSON, too long, a join for no seat or a seat taken, a move out of turn or against
the rules gets ``{"type": "error", "message": …}``, and play goes on. It holds at
most `MAX_CONNECTIONS` connections, closes one that has not joined within
`JOIN_TIMEOUT` seconds, and tells the others when a player leaves or comes back
(``{"type": "left", "person": 1}``, ``{"type": "back", …}``): the match waits for him.
After each deal the server saves the match file, so a server started again on
that file resumes the match where it stopped.

    python server.py --deals 3 --save match.json        # a new match
    python server.py --load match.json --save match.json  # resume it
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
from pathlib import Path
from typing import Any

from conquian import ConquianError, ConquianRules, Match
from conquian.events import events

MAX_LINE = 16_384
"""The longest line a client may send, in bytes (a move is a few dozen)."""
MAX_CONNECTIONS = 16
"""The most connections at once, seated or not."""
JOIN_TIMEOUT = 30.0
"""Seconds a connection may stay without a seat before it is closed."""


class Table:
    """The match and the players at it; every change goes out to each of them."""

    def __init__(
        self,
        match: Match,
        save: Path,
        stop_after: int | None = None,
        join_timeout: float = JOIN_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self.match = match
        self.save = save
        self.stop_after = stop_after  # stop after this many deals (to show resuming)
        self.join_timeout = join_timeout
        self.max_connections = max_connections
        self.writers: dict[int, asyncio.StreamWriter] = {}  # the seated people's connections
        self.tokens: dict[int, str] = {}  # person -> the token that claims his seat
        # person -> (deal number, actions told); None: nothing told of that deal yet
        self.told: dict[int, tuple[int, int | None]] = {}
        self.connections = 0
        self.handlers: set[asyncio.Task[None]] = set()
        self.port = 0  # the port it listens on, once `listening` is set
        self.listening = asyncio.Event()
        self.seated = asyncio.Event()
        self.done = asyncio.Event()

    async def send(self, person: int, message: dict[str, Any]) -> None:
        writer = self.writers.get(person)
        if writer is not None:
            await _write(writer, message)

    async def update(self, person: int) -> None:
        """Send `person` his view of the match and what happened since his last update.

        The rule of `events`: None at the start of a deal (the dealing is told), then the
        length of the history told, so nothing is told twice."""
        seen = self.match.view(person)
        number, told = self.told.get(person, (0, None))
        since = told if number == seen.number else None
        news = [] if seen.view is None else [e.data() for e in events(seen.view, since)]
        self.told[person] = (seen.number, None if seen.view is None else len(seen.view.history))
        await self.send(
            person, {"type": "update", "match": json.loads(seen.to_json()), "events": news}
        )

    async def after_move(self) -> None:
        match = self.match
        if match.state.is_over:
            self.save.write_text(match.to_json(), encoding="utf-8")
            for person in list(self.writers):
                await self.update(person)  # the end of the deal, hands shown
            if match.is_over:
                over = {"type": "over", "winner": match.winner, "totals": list(match.sheet.totals)}
                for person in list(self.writers):
                    await self.send(person, over)
                self.done.set()
                return
            if self.stop_after is not None and len(match.sheet.rows) >= self.stop_after:
                self.done.set()  # the match file holds everything needed to resume
                return
            self.match = match.next_deal()
        for person in list(self.writers):
            await self.update(person)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, from its first line to its end: never an exception out of it."""
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        self.connections += 1
        person: int | None = None
        try:
            if self.connections > self.max_connections:
                await _write(writer, _error("the server is full: try again later"))
                return
            person = await self.join(reader, writer)
            if person is None:
                return
            while not self.done.is_set():
                message = await _read(reader, writer)
                if message is None:
                    break
                await self.on_message(person, message)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.connections -= 1
            self.handlers.discard(task)
            if person is not None and self.writers.get(person) is writer:
                del self.writers[person]
                if not self.done.is_set():
                    for other in list(self.writers):
                        await _quietly(self.send(other, {"type": "left", "person": person}))
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> int | None:
        """Read join lines until one claims a seat (answering each bad one), or the time
        for joining runs out; the person seated, or None."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.join_timeout
        while True:
            try:
                message = await asyncio.wait_for(_read(reader, writer), deadline - loop.time())
            except asyncio.TimeoutError:
                await _write(writer, _error(f"no join within {self.join_timeout:g} seconds"))
                return None
            if message is None:
                return None
            person = message.get("person")
            if message.get("type") != "join" or type(person) is not int:
                await _write(writer, _error('join first: {"type": "join", "person": 0}'))
                continue
            if not 0 <= person < self.match.people:
                await _write(writer, _error(f"no person {person}: 0 to {self.match.people - 1}"))
                continue
            token = self.tokens.get(person)
            if token is not None and message.get("token") != token:
                await _write(writer, _error(f"person {person} is taken (give his token)"))
                continue
            back = token is not None
            old = self.writers.get(person)
            if old is not None:  # the same person on a new connection: the old one is closed
                old.close()
            token = self.tokens.setdefault(person, secrets.token_hex(16))
            self.writers[person] = writer
            await _write(writer, {"type": "welcome", "person": person, "token": token})
            for other in list(self.writers):
                if other != person and back:
                    await self.send(other, {"type": "back", "person": person})
            if len(self.writers) == self.match.people:
                self.seated.set()
            if self.seated.is_set():
                if back:
                    await self.update(person)
                else:  # the last to sit down: everyone gets his first view now
                    for other in list(self.writers):
                        await self.update(other)
            return person

    async def on_message(self, person: int, message: dict[str, Any]) -> None:
        """A seated person's line: a move, checked; anything else gets an error."""
        if message.get("type") != "move" or not isinstance(message.get("action"), str):
            await self.send(person, _error('expected {"type": "move", "action": "take 5H"}'))
            return
        if not self.seated.is_set() or self.match.current_person != person:
            await self.send(person, _error("not your turn"))
            return
        try:
            self.match = self.match.apply(message["action"])
        except ConquianError as e:  # bad notation (NotationError) or against the rules (E1)
            await self.send(person, _error(str(e)))
            return
        await self.after_move()


def _error(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}


async def _write(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    writer.write(json.dumps(message).encode() + b"\n")
    await writer.drain()


async def _quietly(sending: Any) -> None:
    """Send, and let a connection closed meanwhile go (the reader sees its end)."""
    with contextlib.suppress(ConnectionError):
        await sending


async def _read(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Any:
    """The next line as a JSON object, answering each bad line with an error; None at the
    end of the connection."""
    while True:
        line = await _line(reader)
        if line is None:
            await _write(writer, _error(f"line too long (at most {MAX_LINE} bytes)"))
            continue
        if not line:
            return None
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep
            await _write(writer, _error("expected one JSON object per line"))
            continue
        if isinstance(message, dict):
            return message
        await _write(writer, _error("expected one JSON object per line"))


async def _line(reader: asyncio.StreamReader) -> bytes | None:
    """The next line (b"" at the end of the connection), or None for a line longer than the
    reader's limit, which is read to its end and dropped: memory stays bounded."""
    try:
        return await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as e:  # the end of the connection
        return e.partial
    except asyncio.LimitOverrunError as e:
        await reader.readexactly(e.consumed)
    while True:
        try:
            await reader.readuntil(b"\n")
            return None
        except asyncio.IncompleteReadError:
            return b""
        except asyncio.LimitOverrunError as e:
            await reader.readexactly(e.consumed)


async def serve(table: Table, port: int = 0) -> int:
    """Serve `table` on 127.0.0.1 until its match ends (or stops); return the port used."""
    server = await asyncio.start_server(table.handle, "127.0.0.1", port, limit=MAX_LINE)
    table.port = server.sockets[0].getsockname()[1]
    table.listening.set()
    async with server:
        await table.done.wait()
        server.close()  # no new connections; the open ones are ended below
        for writer in list(table.writers.values()):
            writer.close()
        for task in list(table.handlers):
            task.cancel()
        await asyncio.gather(*table.handlers, return_exceptions=True)
    return table.port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--load", type=Path, help="a match file to resume")
    parser.add_argument("--save", type=Path, default=Path("match.json"))
    args = parser.parse_args()
    if args.load:
        match = Match.from_json(args.load.read_text(encoding="utf-8"))
        if match.state.is_over and not match.is_over:
            match = match.next_deal()
    else:
        match = Match(ConquianRules(), seed=args.seed, deals=args.deals)
    asyncio.run(serve(Table(match, args.save), args.port))


if __name__ == "__main__":
    main()
