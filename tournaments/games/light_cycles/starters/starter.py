#!/usr/bin/env python3
"""A Light Cycles starter bot: moves to the free neighbour from which it
reaches the most free cells before every other cycle (its territory), then
with the most room behind it (the free cells it can still reach), keeping
away from cells another cycle could enter on the same turn when it can.

Lines it reads (README.md beside the judge): `cycles PLAYERS WIDTH HEIGHT
YOU`, `walls K X1 Y1 ...`, then each turn `turn T X0 Y0 X1 Y1 ...` (every
cycle's position, -1 -1 for a cycle that is out), answered with N, E, S
or W; finally `end ...`. Always flush after a reply."""

import sys

STEPS = (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0))


def distances(blocked, width, height, starts):
    """The steps from the nearest of `starts` to every free cell reachable
    from them (a breadth-first search)."""
    seen = {start: 0 for start in starts}
    todo = list(starts)
    for x, y in todo:  # the list grows as it is read: breadth first
        for _, dx, dy in STEPS:
            cell = (x + dx, y + dy)
            if cell not in seen and cell not in blocked and 0 <= cell[0] < width and 0 <= cell[1] < height:
                seen[cell] = seen[(x, y)] + 1
                todo.append(cell)
    return seen


def choose(blocked, width, height, me, heads):
    x, y = heads[me]
    contested = set()  # cells another cycle may enter this turn
    for p, (hx, hy) in enumerate(heads):
        if p != me and hx >= 0:
            contested.update((hx + dx, hy + dy) for _, dx, dy in STEPS)
    others = distances(blocked, width, height, [h for p, h in enumerate(heads) if p != me and h[0] >= 0])
    best, best_key = "N", None
    for word, dx, dy in STEPS:
        cell = (x + dx, y + dy)
        if cell in blocked or not (0 <= cell[0] < width and 0 <= cell[1] < height):
            continue
        mine = distances(blocked, width, height, [cell])
        territory = sum(1 for c, d in mine.items() if d < others.get(c, d + 1))
        key = (cell not in contested, territory, len(mine))
        if best_key is None or key > best_key:
            best, best_key = word, key
    return best  # N when every way is blocked: the cycle crashes anyway


def main():
    blocked = set()
    width = height = me = 0
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
            blocked.update(h for h in heads if h[0] >= 0)  # every head leaves a trail
            print(choose(blocked, width, height, me, heads), flush=True)
        elif words[0] == "end":
            break


if __name__ == "__main__":
    main()
