"""Fixture: plays a legal game but ignores SIGTERM and never exits after the
end (the referee must SIGKILL it; verdict: ok, nothing left behind)."""
import signal
import sys
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
moves = iter(["5 6 7 8 9", "9 8 7 6 5", "E 5 6 7 8"] * 40)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "end":
        break
    if words[0] == "code":
        print("0 1 2 3 4", flush=True)
    elif words[0] == "attack":
        print(next(moves), flush=True)
while True:
    time.sleep(1)
