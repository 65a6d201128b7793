"""Fixture: answers an attack with words (verdict: protocol)."""
from common import requests, answer

for request in requests():
    answer("0 1 2 3 4" if request == "code" else "hello referee, how are you?")
