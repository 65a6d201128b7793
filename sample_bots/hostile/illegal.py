"""Fixture: attacks with a repeated symbol (verdict: illegal)."""
from common import requests, answer

for request in requests():
    answer("0 1 2 3 4" if request == "code" else "1 1 2 3 4")
