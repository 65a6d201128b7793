"""Fixture: plays legally, but first leaves a grandchild behind that has
escaped the bot's process group and session (double fork + setsid) and
keeps stdout open (verdict: ok, and the grandchild must not survive the
game: the referee's final sweep finds it by its tag)."""
import os
import time
from common import requests, answer

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(10**6)
    os._exit(0)
os.wait()

for request in requests():
    answer("0 1 2 3 4")
