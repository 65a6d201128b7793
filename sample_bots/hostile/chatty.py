"""Fixture: plays legal Arrow 5 (random attacks) but writes lines nobody
asked for (verdict: protocol):

    python3 chatty.py double   # each reply and a second line, in one write
    python3 chatty.py twice    # each reply, then a second line, flushed apart
    python3 chatty.py flood    # each reply followed by 200 valid lines
    python3 chatty.py early    # a line while the greeting is all it has
"""
import random
import sys

from common import every_line, random_code

mode = sys.argv[1]
rng = random.Random(0)


def attack():
    return random_code(rng)


out = sys.stdout
for kind, words in every_line():
    if kind == "arrow5":
        rng = random.Random(int(words[4]))
        if mode == "early":
            out.write(attack() + "\n")
            out.flush()
    elif kind in ("code", "attack"):
        if mode == "double":
            out.write(attack() + "\n" + attack() + "\n")
        elif mode == "twice":
            out.write(attack() + "\n")
            out.flush()
            out.write(attack() + "\n")
        elif mode == "flood":
            out.write("".join(attack() + "\n" for _ in range(201)))
        else:
            out.write(attack() + "\n")
        out.flush()
