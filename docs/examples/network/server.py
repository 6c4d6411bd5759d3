"""A match of two-hand Conquian over the network: the server (asyncio, JSON lines on TCP).

Each player connects, says which person he is (``{"type": "join", "person": 0}``)
and then gets, after every move, his own view of the match (the view of the
deal, never the other hand, and the score sheet) with the events since the last
update; he sends his moves as text (``{"type": "move", "action": "take 5H"}``).
After each deal the server saves the match file, so a server started again on
that file resumes the match where it stopped.

    python server.py --deals 3 --save match.json        # a new match
    python server.py --load match.json --save match.json  # resume it
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from conquian import ConquianRules, IllegalActionError, Match
from conquian.events import events


class Table:
    """The match and the players at it; every change goes out to each of them."""

    def __init__(self, match: Match, save: Path, stop_after: int | None = None) -> None:
        self.match = match
        self.save = save
        self.stop_after = stop_after  # stop after this many deals (to show resuming)
        self.writers: dict[int, asyncio.StreamWriter] = {}
        self.told: dict[int, tuple[int, int]] = {}  # person -> (deal number, actions told)
        self.port = 0  # the port it listens on, once `listening` is set
        self.listening = asyncio.Event()
        self.seated = asyncio.Event()
        self.done = asyncio.Event()

    async def send(self, person: int, message: dict[str, Any]) -> None:
        writer = self.writers[person]
        writer.write(json.dumps(message).encode() + b"\n")
        await writer.drain()

    async def update(self, person: int) -> None:
        """Send `person` his view of the match and what happened since his last update."""
        seen = self.match.view(person)
        number, told = self.told.get(person, (0, 0))
        since = told if number == seen.number else 0
        news = [] if seen.view is None else [e.data() for e in events(seen.view, since)]
        self.told[person] = (seen.number, 0 if seen.view is None else len(seen.view.history))
        await self.send(
            person, {"type": "update", "match": json.loads(seen.to_json()), "events": news}
        )

    async def after_move(self) -> None:
        match = self.match
        if match.state.is_over:
            self.save.write_text(match.to_json(), encoding="utf-8")
            for person in self.writers:
                await self.update(person)  # the end of the deal, hands shown
            if match.is_over:
                for person in self.writers:
                    await self.send(
                        person,
                        {
                            "type": "over",
                            "winner": match.winner,
                            "totals": list(match.sheet.totals),
                        },
                    )
                self.done.set()
                return
            if self.stop_after is not None and len(match.sheet.rows) >= self.stop_after:
                self.done.set()  # the match file holds everything needed to resume
                return
            self.match = match.next_deal()
        for person in self.writers:
            await self.update(person)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        join = json.loads(await reader.readline())
        person = join["person"]
        self.writers[person] = writer
        if len(self.writers) == self.match.people:
            self.seated.set()
        await self.seated.wait()
        await self.update(person)
        while not self.done.is_set():
            line = await reader.readline()
            if not line:
                break
            message = json.loads(line)
            if message.get("type") != "move" or self.match.current_person != person:
                await self.send(person, {"type": "error", "message": "not your turn"})
                continue
            try:
                self.match = self.match.apply(message["action"])
            except IllegalActionError as e:
                await self.send(person, {"type": "error", "message": str(e)})
                continue
            await self.after_move()


async def serve(table: Table, port: int = 0) -> int:
    """Serve `table` on 127.0.0.1 until its match ends (or stops); return the port used."""
    server = await asyncio.start_server(table.handle, "127.0.0.1", port)
    table.port = server.sockets[0].getsockname()[1]
    table.listening.set()
    async with server:
        await table.done.wait()
        for writer in table.writers.values():
            writer.close()
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
