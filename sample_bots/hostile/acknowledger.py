"""Fixture: plays legal Arrow 5 (random attacks) but answers every `signal`
notice, which takes no reply, with a line `ok` (verdict: protocol):

    python3 acknowledger.py buffered   # `ok` kept back: it goes out with
                                       # the next reply, in one write (as
                                       # from a buffer flushed only then)
    python3 acknowledger.py flushed    # `ok` written as soon as the signal
                                       # is read
"""
import random
import sys

from common import every_line, random_code

mode = sys.argv[1]
rng = random.Random(0)
out = sys.stdout
held = ""
for kind, words in every_line():
    if kind == "arrow5":
        rng = random.Random(int(words[4]))
    elif kind == "signal":
        if mode == "flushed":
            out.write("ok\n")
            out.flush()
        else:
            held += "ok\n"
    elif kind in ("code", "attack"):
        out.write(held + random_code(rng) + "\n")
        out.flush()
        held = ""
