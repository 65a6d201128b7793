"""Fixture (run with --allow-fork): leaves a child that tries to move to a
session of its own, ignores SIGTERM and sleeps forever, then answers its
code and sleeps through its first attack. Its argument (a tag) is on the
command line of both processes, so a test can look for them once the
referee is gone: none may be left."""
import os
import signal
import sys
import time

from common import requests, answer

if os.fork() == 0:
    try:
        os.setsid()
    except OSError:
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(1)

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        time.sleep(60)
        answer("5 6 7 8 9")
