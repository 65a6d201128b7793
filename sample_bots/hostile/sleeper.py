"""Fixture: answers its code, then sleeps forever instead of attacking (verdict: timeout)."""
import time
from common import requests, answer

for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        time.sleep(10**6)
