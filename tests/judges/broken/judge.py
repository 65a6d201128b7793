"""Fixture judge that fails on purpose, the way its option `fault` says:
crash-at-start, version, garbage, not-object, hang, ask-twice, bad-player,
huge-frame, error, exit, both, neither, line-break, two-lines, memory."""
import json
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


start = read()
fault = start["options"].get("fault", "")
print("broken judge: fault " + fault, file=sys.stderr, flush=True)
if fault == "crash-at-start":
    raise SystemExit("the judge cannot go on")
if fault == "version":
    send({"type": "ready", "protocol": 7, "ask": [{"player": 0, "line": "go"}]})
    time.sleep(5)
if fault == "hang-at-start":
    time.sleep(60)
ready = {"type": "ready", "protocol": 1, "ask": [{"player": 0, "line": "go"}]}
if fault == "ask-twice":
    ready["ask"] = [{"player": 0, "line": "go"}, {"player": 0, "line": "go"}]
if fault == "bad-player":
    ready["ask"] = [{"player": 5, "line": "go"}]
if fault == "line-break":
    ready["ask"] = [{"player": 0, "line": "go\nextra"}]
send(ready)
read()
if fault == "garbage":
    sys.stdout.write("this is not json\n")
    sys.stdout.flush()
elif fault == "not-object":
    send([1, 2, 3])
elif fault == "memory":
    hog = b"x" * (300 << 20)
    time.sleep(60)
elif fault == "hang":
    time.sleep(60)
elif fault == "huge-frame":
    send({"type": "turn", "ask": [{"player": 1, "line": "go"}],
          "frame": {"text": "x" * 70000}})
elif fault == "two-lines":
    send({"type": "turn", "ask": [{"player": 1, "line": "go"}]})
    send({"type": "turn", "ask": [{"player": 0, "line": "go"}]})
elif fault == "error":
    send({"type": "error", "detail": "the board is on fire"})
elif fault == "exit":
    sys.exit(3)
elif fault == "both":
    send({"type": "turn", "ask": [{"player": 1, "line": "go"}], "end": {"winner": 0}})
elif fault == "neither":
    send({"type": "turn", "log": "nothing"})
else:
    send({"type": "turn", "end": {"winner": 0, "reason": "fine"}})
time.sleep(60)
