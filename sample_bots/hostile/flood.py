"""Fixture: answers an attack with an endless line (verdict: output)."""
import sys
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
