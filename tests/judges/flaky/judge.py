"""Fixture judge: the "higher" game of ../higher, one round, that gives up
(`error`) in every game where a player picks 4 while the file
`switch/fail` exists beside it (a subfolder: not part of the game's
identity). Tests void games and their replay on --resume."""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


start = json.loads(sys.stdin.readline())
send({"type": "ready", "protocol": 1,
      "ask": [{"player": 0, "line": "pick"}, {"player": 1, "line": "pick"}]})
picks = []
for player in (0, 1):
    reply = json.loads(sys.stdin.readline())
    if os.path.exists(os.path.join(here, "switch", "fail")) and reply["line"] == "4":
        send({"type": "error", "detail": "the switch says fail"})
        sys.exit(0)
    picks.append(int(reply["line"]))
    if player == 0:
        send({"type": "turn"})
winner = None if picks[0] == picks[1] else (0 if picks[0] > picks[1] else 1)
send({"type": "turn", "end": {"winner": winner, "reason": "higher"},
      "log": "A %d, B %d" % tuple(picks)})
sys.stdin.readline()
