#!/usr/bin/env python3
"""Fixture judge: tells player 1, while player 0 thinks, two lines of
40,000 bytes (under the 64 KiB a line may have, over a pipe's 64 KiB in
all), then asks it to move. Player 1 wins if it says it read both whole
("whole"), player 0 otherwise: a line cut short loses the game for the
bot it was meant for."""
import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


read()
send({"type": "ready", "protocol": 1, "ask": [{"player": 0, "line": "move"}]})
read()
big = "x" * 40000
send({"type": "turn",
      "tell": [{"player": 1, "line": big}, {"player": 1, "line": big}],
      "ask": [{"player": 1, "line": "move"}]})
reply = read()
whole = reply.get("line") == "whole"
send({"type": "turn",
      "end": {"winner": 1 if whole else 0, "reason": "read-whole" if whole else "cut"}})
read()
