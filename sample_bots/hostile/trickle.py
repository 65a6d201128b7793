"""Fixture: writes a reply one byte at a time and never ends the line (verdict: timeout)."""
import sys
import time
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        for ch in "5 6 7 8":
            sys.stdout.write(ch)
            sys.stdout.flush()
            time.sleep(0.05)
        time.sleep(10**6)
