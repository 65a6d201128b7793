"""Fixture: raises an exception at its first attack (verdict: crash)."""
import sys
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        print("about to fail", file=sys.stderr, flush=True)
        raise RuntimeError("this bot crashes on purpose")
