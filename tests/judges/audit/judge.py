"""Fixture judge for the audit of what a judge may say: one move by player
0, then the end its option `fault` says. `scores-len` (three scores for two
players), `two-results` (winner 0, ranks [1, 0]), `ranks-two` (ranks [1, 0]
alone), `key-twice` (two "end" keys), `seats` (min_players above
max_players), `seats-text` (max_players "4"), `silent` (never answers a
reply), `debug` (prints its board on stdout), `echo` (the reply's line, as
received, in its `illegal` detail, and a crash when that line starts with
"boom"), `ready-log` (a `log` with its `ready` and with its turn)."""
import json
import sys
import time


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


start = read()
fault = start["options"].get("fault", "")
print("audit judge: fault " + fault, file=sys.stderr, flush=True)
ready = {"type": "ready", "protocol": 1, "ask": [{"player": 0, "line": "go"}]}
if fault == "seats":
    ready.update(min_players=5, max_players=3)
if fault == "seats-text":
    ready.update(max_players="4")
if fault == "ready-log":
    ready.update(log="the board is set: 3 cells")
send(json.dumps(ready))
reply = read()
if fault == "silent":
    time.sleep(60)
if fault == "scores-len":
    send(json.dumps({"type": "turn", "end": {"winner": 0, "reason": "x", "scores": [1, 0, 0]}}))
elif fault == "two-results":
    send(json.dumps({"type": "turn", "end": {"winner": 0, "ranks": [1, 0], "reason": "x"}}))
elif fault == "ranks-two":
    send(json.dumps({"type": "turn", "end": {"ranks": [1, 0], "reason": "ranked"}}))
elif fault == "key-twice":
    send('{"type":"turn","end":{"winner":0,"reason":"a"},"end":{"winner":1,"reason":"b"}}')
elif fault == "ready-log":
    send(json.dumps({"type": "turn", "log": "player 0 took a cell", "end": {"winner": 0, "reason": "fine"}}))
elif fault == "debug":
    print("board: X . O")
elif fault == "echo":
    if reply["line"].startswith("boom"):
        raise IndexError("the board has no cell " + reply["line"])
    send(json.dumps({"type": "illegal", "detail": "got " + json.dumps(reply["line"])}))
else:
    send(json.dumps({"type": "turn", "end": {"winner": 0, "reason": "fine"}}))
time.sleep(60)
