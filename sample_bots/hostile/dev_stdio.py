"""Fixture: a well-behaved bot that reaches its streams by path, as some
programs do: it reads its requests from /dev/stdin and answers through
/dev/stdout (code 0 1 2 3 4, attacks 5 6 7 8 9). If a path cannot be
opened it says so on stderr and exits: a crash, which a test sees."""
import sys

from common import requests

try:
    stdin = open("/dev/stdin")
    answers = open("/dev/stdout", "w")
    open("/proc/self/fd/2", "w").close()
except OSError as e:
    sys.stderr.write(f"cannot open a stream by path: {e}\n")
    sys.exit(3)

for request in requests(stdin):
    answers.write("0 1 2 3 4\n" if request == "code" else "5 6 7 8 9\n")
    answers.flush()
