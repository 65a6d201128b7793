"""Fixture: answers `code`, then on its first attack writes 3,000 debug
lines to stderr and fails with a traceback (verdict: crash). The record
must keep the first debug lines and the whole traceback."""
import sys

from common import requests, answer


def choose(possible):
    return possible[0] / len(possible[1:])


for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        for i in range(3000):
            print(f"debug line {i}: weighing the attacks still possible", file=sys.stderr)
        answer(str(choose([1])))
