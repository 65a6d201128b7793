"""Shared by the misbehaving fixture bots: play legally until told to misbehave."""
import sys


def requests():
    """Yields each request line (code, attack, ...) the referee sends."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "end":
            return
        if words[0] in ("code", "attack"):
            yield words[0]


def answer(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
