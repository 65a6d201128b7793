"""Fixture: answers with a line that looks well formed but holds a
character that shows as nothing (argument: `bom`, a byte order mark in
front, as some editors and runtimes write; `zwsp`, a zero-width space
inside). Verdict: protocol, the character shown escaped."""
import sys

from common import requests, answer

HIDDEN = {"bom": "\ufeff0 1 2 3 4", "zwsp": "0 1\u200b 2 3 4"}[sys.argv[1]]

for request in requests():
    answer(HIDDEN)
