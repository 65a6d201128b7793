"""Fixture: plays legally, but first leaves a grandchild that escaped every
trace the basic sandbox follows: its own session (double fork + setsid) and
an empty environment (no REFEREE_BOT_TAG). Only a cgroup (strict) reaches
it; under basic it outlives the game (see docs/security.md)."""
import os
import sys
import time

if len(sys.argv) > 1 and sys.argv[1] == "--linger":
    time.sleep(10**6)
    sys.exit(0)

from common import requests, answer

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), "--linger"], {})
    os._exit(0)
os.wait()

for request in requests():
    answer("0 1 2 3 4")
