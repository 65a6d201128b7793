"""Fixture: answers its code, then on its first attack fills its working
folder with files of 4 MiB each (each below any per-file cap) until it is
stopped (verdict: output, the disk quota)."""
import os

from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
        continue
    block = b"x" * (4 << 20)
    n = 0
    while True:
        with open(f"fill-{n}", "wb") as f:
            f.write(block)
        n += 1
