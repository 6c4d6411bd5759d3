"""A match of two-hand Conquian over the network: a player (asyncio, JSON lines on TCP).

It prints what happens, as the server tells it, and plays with the library's
heuristic bot on the view it receives (a person at a keyboard would type the
move instead).

    python client.py 0      # person 0, in one terminal
    python client.py 1      # person 1, in another
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable

from conquian import HeuristicAgent, PlayerView


async def play(person: int, port: int = 8765, say: Callable[[str], None] = print) -> None:
    """Join the match as `person` and play it to its end (or until the server stops)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(json.dumps({"type": "join", "person": person}).encode() + b"\n")
    bot = HeuristicAgent(seed=person)
    while line := await reader.readline():
        message = json.loads(line)
        if message["type"] == "update":
            for event in message["events"]:
                say(f"[{person}] {event['text']}")
            data = message["match"]["view"]
            if data is not None and data["legal_actions"]:
                view = PlayerView.from_json(json.dumps(data))  # checked: what a seat may know
                move = {"type": "move", "action": str(bot(view))}
                writer.write(json.dumps(move).encode() + b"\n")
                await writer.drain()
        elif message["type"] == "welcome":
            token = message["token"]  # to claim the seat again on a new connection
            say(f"[{person}] seated; token {token[:6]}…")
        elif message["type"] in ("left", "back"):
            gone = "has left: the match waits" if message["type"] == "left" else "is back"
            say(f"[{person}] person {message['person']} {gone}")
        elif message["type"] == "error":
            say(f"[{person}] refused: {message['message']}")
        elif message["type"] == "over":
            say(f"[{person}] the match is over: totals {message['totals']}")
            break
    writer.close()
    await writer.wait_closed()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("person", type=int)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    asyncio.run(play(args.person, args.port))


if __name__ == "__main__":
    main()
