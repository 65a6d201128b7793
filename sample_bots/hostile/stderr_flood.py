"""Fixture: floods stderr while playing legally; stderr is never part of the
protocol, so this bot must still finish its game (verdict: ok)."""
import sys
from common import requests, answer

noise = "noise " * 1000
for i, request in enumerate(requests()):
    for _ in range(200):
        sys.stderr.write(noise + "\n")
    if request == "code":
        answer("0 1 2 3 4")
    else:
        # Walks through codes that share no symbol pattern: legal attacks.
        answer(["5 6 7 8 9", "9 8 7 6 5", "E 5 6 7 8"][i % 3])
