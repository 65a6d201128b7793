#!/usr/bin/env python3
"""Safe Cracker starter bot: a place to begin your own.

It keeps every code still consistent with the feedback it got and guesses
the first of them. It plays the two-player game and the solo game.

The protocol (protocol.md, Safe Cracker), one line each way:
  safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   greeting; ROLE is first, second or solo
  code            answer with your secret code, e.g. "1 2 3"
  guess           answer with a guess, e.g. "1 2 3"
  feedback K      your last guess had K exact matches
  opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
  end RESULT WHY  the game is over (win, loss or draw); then stdin closes
Always flush after writing a line (print(..., flush=True)).
"""

import itertools
import random
import sys


def exact(a, b):
    return sum(1 for x, y in zip(a, b) if x == y)


def main():
    length, digits = 3, 3
    rng = random.Random(1)
    possible = None
    last_guess = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "safecracker":
            length, digits = int(words[1]), int(words[2])
            rng = random.Random(int(words[5]))
            possible = None
        elif kind == "code":
            code = [rng.randint(1, digits) for _ in range(length)]
            print(" ".join(map(str, code)), flush=True)
        elif kind == "guess":
            if possible is None:
                possible = list(itertools.product(range(1, digits + 1), repeat=length))
            last_guess = possible[0] if possible else tuple([1] * length)
            print(" ".join(map(str, last_guess)), flush=True)
        elif kind == "feedback":
            k = int(words[1])
            if possible is not None and last_guess is not None:
                possible = [c for c in possible if exact(c, last_guess) == k]
        elif kind == "end":
            return
        # "opponent G K" lines are information only: nothing to answer.


if __name__ == "__main__":
    main()
