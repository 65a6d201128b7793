"""Fixture: plays legal Mastermind slowly, so that a game can be watched
while it is played: its code is the one given (`5-3-4-2` for the wire's
`5 3 4 2`), and each attack, made after sleeping MS milliseconds, is one
that cannot crack a code without a 0 (all zeros).

    python3 slow_mastermind.py 200 5-3-4-2
"""
import sys
import time

from common import requests, answer

ms, code = int(sys.argv[1]), sys.argv[2].replace("-", " ")
for request in requests():
    if request == "code":
        answer(code)
        continue
    time.sleep(ms / 1000)
    answer(" ".join("0" * len(code.split())))
