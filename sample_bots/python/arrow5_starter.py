#!/usr/bin/env python3
"""Arrow 5 starter bot: copy this file and make it smarter.

The protocol (see protocol.md): the referee sends one line at a time.
  arrow5 VARIANT ROLE MAX_ROUNDS SEED   first line: the game; use SEED for randomness
  code                                  answer with your secret code, e.g. "0 1 2 3 4"
  attack                                answer with your attack
  signal < . >                          the signal for your last attack ("-" = no marks)
  end win|loss|draw REASON              the game is over; stdin closes after it
Symbols are 0-9 and E (the eye). Always print one line per request and flush.

Strategy here: keep every code consistent with the signals so far and attack
with the first of them. Good enough to win against random play, easy to beat.
Both variants: in `hidden-eye` the eye never earns a mark, and `signal` below
leaves it out the same way.

Run it:  referee match arrow5 sample_bots/python/arrow5_starter.py target/release/arrow5_random
         referee match arrow5 sample_bots/python/arrow5_starter.py target/release/arrow5_random --variant hidden-eye
         referee bench arrow5 sample_bots/python/arrow5_starter.py --samples 200
"""
import itertools
import random
import sys

SYMBOLS = "0123456789E"


def signal(secret, attack, hidden_eye):
    """The marks `secret` gives `attack`, as a tuple of '<', '.', '>'."""
    marks = []
    for i, s in enumerate(attack):
        j = secret.find(s)
        if j < 0 or (hidden_eye and s == "E"):
            continue
        marks.append("<" if j < i else "." if j == i else ">")
    return tuple(marks)


def main():
    hidden_eye = False
    rng = random.Random(0)
    possible = ["".join(p) for p in itertools.permutations(SYMBOLS, 5)]
    last = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "arrow5":
            hidden_eye = words[1] == "hidden-eye"
            rng = random.Random(int(words[4]))
        elif kind == "code":
            print(" ".join(rng.sample(SYMBOLS, 5)), flush=True)
        elif kind == "attack":
            last = possible[0]
            print(" ".join(last), flush=True)
        elif kind == "signal":
            marks = tuple(w.replace("·", ".") for w in words[1:] if w != "-")
            kept = [c for c in possible if c != last and signal(c, last, hidden_eye) == marks]
            possible = kept or possible  # never empty, whatever the referee said
        elif kind == "end":
            break


if __name__ == "__main__":
    main()
