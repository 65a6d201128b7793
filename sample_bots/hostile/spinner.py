"""Fixture: burns CPU forever instead of attacking (verdict: timeout)."""
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        while True:
            pass
