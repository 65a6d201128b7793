#!/usr/bin/env python3
"""Safe Cracker starter bot: a place to begin your own.

It plays the two-player game and the solo game (`referee bench`).

The protocol (protocol.md, Safe Cracker), one line each way:
  safecracker LENGTH DIGITS ROLE ATTEMPTS SEED   greeting; ROLE is first, second or solo
  code            answer with your secret code, e.g. "1 2 3"
  guess           answer with a guess, e.g. "1 2 3"
  feedback K      your last guess had K exact matches
  opponent G K    the opponent guessed G (e.g. 1-2-3) and got K exact matches
  end RESULT WHY  the game is over (win, loss or draw); then stdin closes
Always flush after writing a line (print(..., flush=True)).

Strategy: guess a code that agrees with every feedback so far. When there are
at most LIMIT codes (3 digits from 1-3 make 27) it keeps them all and guesses
the first one left in lexicographic order. The referee accepts up to 10
digits from 1-9 (9^10 codes), far too many to list: then it looks for a
consistent code by random restarts and local search for at most BUDGET
seconds, and plays the least inconsistent code found if time runs out.

Run it:  referee match safecracker sample_bots/python/safecracker_starter.py target/release/safecracker_random
         referee bench safecracker sample_bots/python/safecracker_starter.py --all
"""

import itertools
import random
import sys
import time

LIMIT = 50_000  # list every code when there are at most this many
BUDGET = 0.5  # seconds for a search when there are more (the limit is 2 s a reply)


def exact(a, b):
    return sum(1 for x, y in zip(a, b) if x == y)


def search(history, length, digits, rng):
    """A code consistent with every (guess, matches) in history, or if none
    is found within BUDGET seconds the one that disagrees least."""

    def error(code):
        return sum(abs(exact(code, guess) - k) for guess, k in history)

    deadline = time.monotonic() + BUDGET
    best = [rng.randint(1, digits) for _ in range(length)]
    best_error = error(best)
    while best_error > 0 and time.monotonic() < deadline:
        code = [rng.randint(1, digits) for _ in range(length)]
        err = error(code)
        for _ in range(20 * length):  # change one digit while it does not get worse
            if err == 0 or time.monotonic() > deadline:
                break
            tweak = list(code)
            tweak[rng.randrange(length)] = rng.randint(1, digits)
            tweak_error = error(tweak)
            if tweak_error <= err:
                code, err = tweak, tweak_error
        if err < best_error:
            best, best_error = code, err
    return best


def main():
    length, digits = 3, 3
    rng = random.Random(1)
    possible = None  # every code that agrees with every feedback, when listed
    history = []  # (our guess, its exact matches)
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
            history = []
        elif kind == "code":
            code = [rng.randint(1, digits) for _ in range(length)]
            print(" ".join(map(str, code)), flush=True)
        elif kind == "guess":
            if possible is None and not history and digits**length <= LIMIT:
                possible = list(itertools.product(range(1, digits + 1), repeat=length))
            if possible:
                last_guess = possible[0]
            else:
                last_guess = search(history, length, digits, rng)
            print(" ".join(map(str, last_guess)), flush=True)
        elif kind == "feedback":
            k = int(words[1])
            history.append((last_guess, k))
            if possible is not None:
                possible = [c for c in possible if exact(c, last_guess) == k]
        elif kind == "end":
            return
        # "opponent G K" lines are information only: nothing to answer.


if __name__ == "__main__":
    main()
