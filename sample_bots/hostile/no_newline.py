"""Fixture: writes its first attack without the newline that ends a reply
(and flushes it), then waits for the next line (verdict: timeout)."""
import sys

from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        sys.stdout.write("5 6 7 8 9")
        sys.stdout.flush()
