#!/usr/bin/env python3
"""A simple Light Cycles bot, for a field of more than the starters: every
turn it takes the first free one of the steps in its order (N, E, S, W
unless the first argument gives another, e.g. `WSEN`), so it winds
round in a spiral (a weaker opponent than the starters)."""

import sys

STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def main():
    blocked = set()
    width = height = me = 0
    order = sys.argv[1] if len(sys.argv) > 1 else "NESW"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "cycles":
            width, height, me = int(words[2]), int(words[3]), int(words[4])
        elif words[0] == "walls":
            numbers = [int(w) for w in words[2:]]
            blocked.update(zip(numbers[0::2], numbers[1::2]))
        elif words[0] == "turn":
            numbers = [int(w) for w in words[2:]]
            heads = list(zip(numbers[0::2], numbers[1::2]))
            blocked.update(h for h in heads if h[0] >= 0)
            x, y = heads[me]

            def free(word):
                dx, dy = STEPS[word]
                cell = (x + dx, y + dy)
                return cell not in blocked and 0 <= cell[0] < width and 0 <= cell[1] < height

            print(next((w for w in order if free(w)), order[0]), flush=True)
        elif words[0] == "end":
            break


if __name__ == "__main__":
    main()
