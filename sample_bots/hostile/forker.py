"""Fixture: forks a child that keeps stdout open and sleeps, then the parent
exits (verdict: crash, on time, and the child must not survive the game)."""
import os
import time
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        if os.fork() == 0:
            time.sleep(10**6)
        os._exit(0)
