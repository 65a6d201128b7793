"""Fixture: allocates and touches memory until stopped (verdict: memory)."""
from common import requests, answer

hoard = []
for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        while True:
            hoard.append(b"x" * (8 << 20))
