#!/usr/bin/env python3
"""Mastermind starter bot: copy it and make it smarter.

It plays both forms of the game (protocol.md, Mastermind):
  - two-player: it is asked `code` once (its secret), then `attack` each round;
  - solo (`referee bench`): only `attack`, the referee holds the secret.

The protocol, one line each way:
  mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED   greeting; ROLE is first, second or solo
  code              answer with your secret code, e.g. "0 1 2 3"
  attack            answer with a guess, e.g. "0 0 1 1"
  feedback B W      your last guess: B pegs right in place, W right in colour only
  end RESULT WHY    the game is over (win, loss or draw); then stdin closes
Colours 0-9 are digits, 10-35 the letters a-z. Flush after every line.

Its strategy is the simplest sound one: attack with a code that agrees with
every feedback so far. When there are at most LIMIT codes (4 pegs and 6
colours make 1,296) it keeps them all and attacks with the first one left in
the rules' order (base C, first peg most significant). The referee accepts up
to 12 pegs and 36 colours (36^12 codes), far too many to list: then it looks
for a consistent code by random restarts and local search for at most BUDGET
seconds, and plays the least inconsistent code found if time runs out.

Run it:  referee match mastermind sample_bots/python/mastermind_starter.py target/release/mastermind_random
         referee bench mastermind sample_bots/python/mastermind_starter.py --all
Ideas:   Knuth's minimax, "most parts", or the expected size of what is left
         (sample_bots/src/mastermind.rs does the first two in Rust).
"""

import itertools
import random
import sys
import time

LIMIT = 50_000  # list every code when there are at most this many
BUDGET = 0.5  # seconds for a search when there are more (the limit is 2 s a reply)
SYMBOLS = "0123456789abcdefghijklmnopqrstuvwxyz"


def feedback(code, guess, colours):
    """(black, white) exactly as the rules' reference function."""
    v_code = [0] * colours
    v_guess = [0] * colours
    black = 0
    for c, g in zip(code, guess):
        if c == g:
            black += 1
        else:
            v_code[c] += 1
            v_guess[g] += 1
    white = sum(min(a, b) for a, b in zip(v_code, v_guess))
    return black, white


def show(code):
    """The wire form: `0 0 1 1` (colours 10-35 are a-z)."""
    return " ".join(SYMBOLS[c] for c in code)


def search(history, pegs, colours, rng):
    """A code consistent with every (guess, feedback) in history, or if none
    is found within BUDGET seconds the one that disagrees least."""

    def error(code):
        total = 0
        for guess, (b, w) in history:
            black, white = feedback(code, guess, colours)
            total += abs(black - b) + abs(white - w)
        return total

    deadline = time.monotonic() + BUDGET
    best = [rng.randrange(colours) for _ in range(pegs)]
    best_error = error(best)
    while best_error > 0 and time.monotonic() < deadline:
        code = [rng.randrange(colours) for _ in range(pegs)]
        err = error(code)
        for _ in range(20 * pegs):  # change one peg while it does not get worse
            if err == 0 or time.monotonic() > deadline:
                break
            tweak = list(code)
            tweak[rng.randrange(pegs)] = rng.randrange(colours)
            tweak_error = error(tweak)
            if tweak_error <= err:
                code, err = tweak, tweak_error
        if err < best_error:
            best, best_error = code, err
    return best


def main():
    pegs, colours = 4, 6
    rng = random.Random(1)
    possible = None  # every code that agrees with every feedback, when listed
    history = []  # (our attack, its feedback)
    last = None  # our last attack, as a list of colours

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "mastermind":
            # mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED
            pegs, colours = int(words[1]), int(words[2])
            rng = random.Random(int(words[5]))
            possible = None
            history = []
        elif kind == "code":
            print(show([rng.randrange(colours) for _ in range(pegs)]), flush=True)
        elif kind == "attack":
            if possible is None and not history and colours**pegs <= LIMIT:
                # product() yields the codes in the rules' order
                possible = list(itertools.product(range(colours), repeat=pegs))
            if possible:
                last = list(possible[0])
            else:
                last = search(history, pegs, colours, rng)
            print(show(last), flush=True)
        elif kind == "feedback":
            seen = (int(words[1]), int(words[2]))
            history.append((last, seen))
            if possible is not None:
                possible = [c for c in possible if feedback(c, last, colours) == seen]
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
