"""Fixture: when asked to attack, allocates and touches 512 MiB in one block
(verdict: memory)."""
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        block = b"x" * (512 << 20)
        answer("0 1 2 3 4")
