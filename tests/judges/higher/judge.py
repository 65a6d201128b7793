"""Fixture judge: "higher". Each round both players pick a number 1-9 at
once (a simultaneous ask); the higher pick wins the round, a tie goes to
the player the seed's coin favours. Picking the number you picked last
round is illegal. Most rounds won wins; option `rounds` (default 3)."""
import json
import random
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


start = read()
assert start["type"] == "start"
rng = random.Random(int(start["seed"], 16))
rounds = int(start["options"].get("rounds", 3))
names = start["names"]
won = [0, 0]
last = [None, None]
print("higher judge started", file=sys.stderr, flush=True)
ask = [{"player": 0, "line": "pick"}, {"player": 1, "line": "pick"}]
send({"type": "ready", "protocol": 1, "game": "higher", "min_players": 2,
      "max_players": 2,
      "tell": [{"player": p, "line": "higher %d %s" % (rounds, names[1 - p])}
               for p in (0, 1)],
      "ask": ask,
      "frame": {"grid": {"rows": 1, "cols": 2, "cells": [["", ""]]},
                "hud": {"A": "0", "B": "0"}, "text": "round 1"}})
for number in range(1, rounds + 1):
    picks = [None, None]
    for player in (0, 1):
        message = read()
        if message["type"] == "stop":
            sys.exit(0)
        line = message["line"].strip()
        if not line.isdigit() or not 1 <= int(line) <= 9:
            send({"type": "protocol", "detail": "expected a number 1-9, got '%s'" % line[:20]})
            sys.exit(0)
        pick = int(line)
        if pick == last[player]:
            send({"type": "illegal", "detail": "picked %d twice in a row" % pick})
            sys.exit(0)
        last[player] = pick
        picks[player] = pick
        if player == 0:
            send({"type": "turn"})
    coin = rng.randrange(2)
    winner = 0 if picks[0] > picks[1] else 1 if picks[1] > picks[0] else coin
    won[winner] += 1
    turn = {"type": "turn",
            "tell": [{"player": p, "line": "round %d %d %d" % (number, picks[p], picks[1 - p])}
                     for p in (0, 1)],
            "log": "round %d: A %d, B %d, %s wins" % (number, picks[0], picks[1], "AB"[winner]),
            "moves": [number, number],
            "frame": {"grid": {"rows": 1, "cols": 2, "cells": [[str(picks[0]), str(picks[1])]],
                               "colours": [["#e33" if winner == 0 else "", "#e33" if winner == 1 else ""]]},
                      "hud": {"A": str(won[0]), "B": str(won[1])},
                      "text": "round %d: %s wins" % (number, "AB"[winner])}}
    if number == rounds:
        best = None if won[0] == won[1] else (0 if won[0] > won[1] else 1)
        turn["end"] = {"winner": best, "reason": "most-rounds", "scores": won}
        turn["summary"] = ["rounds won: A %d, B %d" % (won[0], won[1])]
    else:
        turn["ask"] = ask
    send(turn)
message = read()
assert message["type"] == "stop", message
