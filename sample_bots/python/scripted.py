#!/usr/bin/env python3
"""A bot that answers each request (code, attack, ...) with the next of the
comma-separated replies given as its argument: for reproducing exact games.

    referee match arrow5 "python3 scripted.py '5 0 1 E 2,0 5 7 9 2'" ...
"""
import sys

replies = iter(sys.argv[1].split(",") if len(sys.argv) > 1 else [])
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "end":
        break
    if words[0] in ("code", "attack", "guess", "move"):
        print(next(replies, "out of replies"), flush=True)
