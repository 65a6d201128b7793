"""Fixture judge that breaks the determinism rule: its account line draws
from Python's own randomness, not from the seed. `referee judge-check`
must catch it."""
import json
import random
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


json.loads(sys.stdin.readline())
send({"type": "ready", "protocol": 1, "ask": [{"player": 0, "line": "pick"}]})
reply = json.loads(sys.stdin.readline())
send({"type": "turn", "ask": [{"player": 1, "line": "pick"}],
      "log": "A picked %s; luck %f" % (reply["line"], random.random())})
json.loads(sys.stdin.readline())
send({"type": "turn", "end": {"winner": None, "reason": "done"}})
sys.stdin.readline()
