"""Fixture: tries to read the referee's files named in its arguments (a
tournament file, which may hold the seed of random codes, and the results
folder, with the transcripts of finished games). If it reads anything it
says what on stderr and exits with status 7 (verdict: crash); otherwise it
plays legally (verdict: ok)."""
import os
import sys
from common import requests, answer

leaks = []
for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path, onerror=None):
                for name in files:
                    try:
                        with open(os.path.join(root, name), "rb") as f:
                            f.read(1)
                        leaks.append(os.path.join(root, name))
                    except OSError:
                        pass
        else:
            with open(path, "rb") as f:
                if f.read(1):
                    leaks.append(path)
    except OSError:
        pass
if leaks:
    print("LEAK: read " + ", ".join(leaks[:3]), file=sys.stderr, flush=True)
    sys.exit(7)

for request in requests():
    answer("0 1 2 3 4")
