"""Fixture: when asked to attack, forks until it cannot (each child leaves
the process group with setsid and sleeps) and never answers (verdict:
timeout; no process may survive the game). Bounded at 300 processes so that
a run without a pids limit does not harm a shared machine."""
import os
import time
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        for _ in range(300):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                os.setsid()
                time.sleep(10**6)
                os._exit(0)
        time.sleep(10**6)
