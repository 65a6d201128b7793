"""Fixture bot for tests/judges/big_tells/judge.py: at `move`, says "whole" if every
line told before it was 40,000 bytes of `x`, else "cut"."""
import sys

told = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if line == "move":
        whole = all(len(t) == 40000 and set(t) == {"x"} for t in told)
        print("whole" if whole else "cut", flush=True)
        told = []
    elif line.startswith("end"):
        break
    else:
        told.append(line)
