"""A bot for the "unique" fixture judge: picks its numbers from its
arguments in turn; `sleep` as a pick hangs (a timeout), `crash` exits."""
import sys
import time

picks = sys.argv[1:] or ["5"]
turn = 0
for line in sys.stdin:
    line = line.strip()
    if line.startswith("end"):
        break
    if line == "pick":
        pick = picks[turn % len(picks)]
        turn += 1
        if pick == "sleep":
            time.sleep(60)
        if pick == "crash":
            sys.exit(3)
        print(pick, flush=True)
