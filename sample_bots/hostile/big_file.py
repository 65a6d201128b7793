"""Fixture: when asked to attack, writes a 100 MiB file in its working
directory (verdict: crash, killed by SIGXFSZ at the 64 MiB file limit)."""
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        with open("huge.bin", "wb") as f:
            for _ in range(100):
                f.write(b"x" * (1 << 20))
        answer("0 1 2 3 4")
