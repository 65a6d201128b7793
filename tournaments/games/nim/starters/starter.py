#!/usr/bin/env python3
"""A Nim starter bot: plays the winning move when there is one (the heaps'
exclusive-or made zero), else takes one object from the largest heap.

Lines it reads (README.md beside the judge): the greeting
`nim first|second normal|misere`, then `heaps H1 H2 ...` (answer with
`HEAP COUNT`, heaps numbered from 1), and finally `end win|loss|draw REASON`.
Always flush after a reply."""

import sys
from functools import reduce


def choose(heaps, misere):
    big = [h for h in heaps if h > 1]
    if misere and len(big) <= 1:
        # Misère endgame: leave an odd number of heaps of one.
        ones = sum(1 for h in heaps if h == 1)
        if big:
            i = heaps.index(big[0])
            # Take all of the big heap or all but one, whichever leaves the ones odd.
            return i, big[0] if ones % 2 == 1 else big[0] - 1
        return heaps.index(1), 1
    total = reduce(lambda a, b: a ^ b, heaps, 0)
    if total:
        for i, h in enumerate(heaps):
            if h ^ total < h:
                return i, h - (h ^ total)
    i = heaps.index(max(heaps))
    return i, 1


def main():
    greeting = sys.stdin.readline().split()  # nim ROLE FORM
    misere = greeting[2] == "misere"
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "heaps":
            heap, count = choose([int(w) for w in words[1:]], misere)
            print(heap + 1, count, flush=True)
        elif words and words[0] == "end":
            break


if __name__ == "__main__":
    main()
