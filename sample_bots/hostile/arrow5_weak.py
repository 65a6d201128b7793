#!/usr/bin/env python3
"""Arrow 5, deliberately weak: every attack is a random code, ignoring the
signals. It keeps the protocol (no verdicts), but rarely cracks a code, so a
check that asks for a win rate or a bench average fails on it."""
import random
import sys

SYMBOLS = "0123456789E"


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "arrow5":
            rng = random.Random(int(words[4]))
        elif kind in ("code", "attack"):
            print(" ".join(rng.sample(SYMBOLS, 5)), flush=True)
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
