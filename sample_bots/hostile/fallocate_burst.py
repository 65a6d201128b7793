"""Fixture: answers its code, then on its first attack allocates files of
60 MiB each in its working folder with `posix_fallocate` (each below the
64 MiB per-file cap, each one system call), then, refused, files of half
the size, down to 1 MiB, until it is stopped or refused at 1 MiB. After
each file it says on stderr what its folder holds (`held: N KiB in F
files`, blocks allocated); then it plays on legally."""
import os
import sys

from common import requests, answer

CHUNK = 60 << 20


def held():
    return sum(os.stat(name).st_blocks * 512 for name in os.listdir(".")) // 1024


def burst():
    n, chunk = 0, CHUNK
    while n < 256 and chunk >= 1 << 20:
        fd = os.open(f"burst-{n}", os.O_CREAT | os.O_WRONLY, 0o600)
        try:
            os.posix_fallocate(fd, 0, chunk)
            n += 1
            print(f"held: {held()} KiB in {n} files", file=sys.stderr, flush=True)
        except OSError as e:
            print(f"refused {chunk >> 20} MiB: {e}", file=sys.stderr, flush=True)
            chunk //= 2
        finally:
            os.close(fd)


burst_done = False
for request in requests():
    if request == "attack" and not burst_done:
        burst_done = True
        burst()
    answer("0 1 2 3 4" if request == "code" else "5 6 7 8 9")
