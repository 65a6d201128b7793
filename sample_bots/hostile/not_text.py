"""Fixture: answers its first attack with a line that is not UTF-8 (a
stray byte 0xff among the symbols; verdict: protocol)."""
import sys

from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        sys.stdout.buffer.write(b"5 6 \xff 8 9\n")
        sys.stdout.buffer.flush()
