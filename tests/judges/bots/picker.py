"""A bot for the "higher" fixture judge: picks its numbers from its
arguments in turn (default 5 4), or writes `bad` when told `bad`."""
import sys

picks = sys.argv[1:] or ["5", "4"]
turn = 0
for line in sys.stdin:
    line = line.strip()
    if line.startswith("end"):
        break
    if line in ("pick", "go"):
        print(picks[turn % len(picks)], flush=True)
        turn += 1
