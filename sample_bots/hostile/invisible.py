"""Fixture: answers with a line that looks well formed but holds a
character that shows as nothing (argument: `bom`, a byte order mark in
front, as some editors and runtimes write; `zwsp`, a zero-width space
inside) or as a space that is not the space (`nbsp`, a no-break space;
`wide`, an ideographic space). Verdict: protocol, the character shown
escaped."""
import sys

from common import requests, answer

HIDDEN = {
    "bom": "\ufeff0 1 2 3 4",
    "zwsp": "0 1\u200b 2 3 4",
    "nbsp": "0\u00a01 2 3 4",
    "wide": "0 1 2\u30003 4",
}[sys.argv[1]]

for request in requests():
    answer(HIDDEN)
