"""A Conquian bot in another process: JSON lines in, JSON lines out (protocol version 1).

It melds when it can, takes when it can, and otherwise plays the first legal
action. Run it with ``conquian simulate --agents cmd:"python first_bot.py" heuristic``
or ``conquian.agents.ProcessAgent(["python", "first_bot.py"])``.
"""

import json
import sys


def choose(legal: list[str]) -> str:
    """A meld if there is one, else a take, else the first legal action."""
    for word in ("meld", "take"):
        for action in legal:
            if action.startswith(word + " "):
                return action
    return legal[0]


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"type": "hello", "protocol": 1, "name": "first_bot.py"}
        elif kind == "decide":
            answer = {"type": "action", "action": choose(message["legal"])}
        elif kind == "bye":
            return
        else:  # deal_over, match_over: notices, no answer
            continue
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
