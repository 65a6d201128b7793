#!/usr/bin/env python3
"""Mastermind starter bot: copy it and make it smarter.

It plays both forms of the game (protocol.md, Mastermind):
  - two-player: it is asked `code` once (its secret), then `attack` each round;
  - solo (`referee bench`): only `attack`, the referee holds the secret.

Its strategy is the simplest sound one: attack with the first code (in the
rules' order) that agrees with every feedback so far. Codes are integers
0..M-1 as in the rules text (base C, first peg most significant), and the
feedback of a code against a guess is the rules' reference function.

Run it:  referee bench mastermind sample_bots/python/mastermind_starter.py --all
Ideas:   Knuth's minimax, "most parts", or the expected size of what is left
         (sample_bots/src/mastermind.rs does the first two in Rust).
"""

import random
import sys


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


def decode(index, pegs, colours):
    """The index-th code: its colours, first peg first."""
    out = []
    for _ in range(pegs):
        out.append(index % colours)
        index //= colours
    return out[::-1]


def show(code):
    """The wire form: `0 0 1 1` (colours 10-35 are a-z)."""
    return " ".join("0123456789abcdefghijklmnopqrstuvwxyz"[c] for c in code)


def main():
    pegs, colours, seed = 4, 6, 1
    rng = random.Random(seed)
    possible = None  # indices of the codes that agree with every feedback
    last = None  # our last attack, as a list of colours

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "mastermind":
            # mastermind PEGS COLOURS ROLE MAX_ATTACKS SEED
            pegs, colours = int(words[1]), int(words[2])
            seed = int(words[5])
            rng = random.Random(seed)
            possible = list(range(colours**pegs))
        elif kind == "code":
            print(show(decode(rng.randrange(colours**pegs), pegs, colours)), flush=True)
        elif kind == "attack":
            if possible is None:
                possible = list(range(colours**pegs))
            last = decode(possible[0] if possible else 0, pegs, colours)
            print(show(last), flush=True)
        elif kind == "feedback":
            seen = (int(words[1]), int(words[2]))
            possible = [
                i
                for i in possible
                if feedback(decode(i, pegs, colours), last, colours) == seen
            ]
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
