"""Fixture: closes its stdout but keeps running (verdict: crash)."""
import os
import time
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        os.close(1)
        time.sleep(10**6)
