"""Fixture: grows its memory by 8 MiB at a time while writing a line to
stderr after each step and answering quickly, so that no wait of the
referee ever times out (verdict: memory, within a poll of the limit)."""
import sys

from common import requests, answer

hoard = []
for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
        continue
    for _ in range(4):
        hoard.append(bytearray(b"x" * (8 << 20)))
        sys.stderr.write(f"holding {len(hoard) * 8} MiB\n")
        sys.stderr.flush()
    answer("5 6 7 8 9")
