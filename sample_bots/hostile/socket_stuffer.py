"""Fixture: holds memory in Unix socket buffers, which no resident measure
sees. On its first request it makes socket pairs (`socketpair`, the one
socket call the sandbox allows a bot) until refused or 250 of them, asks
for the largest buffers (`SO_SNDBUF`, `SO_RCVBUF`), and fills both ends of
each pair until the kernel takes no more, saying on stderr after each pair
how much the buffers hold (`stuffed: N KiB in P pairs`). Then it plays
legally, holding them, until the game ends or it is stopped. With the
argument `fork` (and `--allow-fork`) a child of its own makes and holds
them, and the bot plays on. With `undumpable` it first makes itself not
dumpable (`prctl(PR_SET_DUMPABLE, 0)`), which hides its descriptors from
a referee run by an ordinary user."""
import os
import socket
import sys
import time
from common import requests, answer

CHUNK = b"x" * 65536


def fill(sock):
    """Bytes `sock` took before its buffers were full."""
    sock.setblocking(False)
    taken = 0
    while True:
        try:
            taken += sock.send(CHUNK)
        except (BlockingIOError, OSError):
            return taken


def stuff():
    pairs, taken, refused = [], 0, None
    for _ in range(250):
        try:
            a, b = socket.socketpair()
        except OSError as e:
            refused = e
            break
        for s in (a, b):
            for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
                try:
                    s.setsockopt(socket.SOL_SOCKET, option, 64 << 20)
                except OSError as e:
                    refused = refused or e
        taken += fill(a) + fill(b)
        pairs.append((a, b))
        print(f"stuffed: {taken // 1024} KiB in {len(pairs)} pairs", file=sys.stderr, flush=True)
    print(f"refused: {refused}", file=sys.stderr, flush=True)
    return pairs


if "undumpable" in sys.argv[1:]:
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE
held = None
for request in requests():
    if held is None:
        if sys.argv[1:] == ["fork"]:
            if os.fork() == 0:
                held = stuff()
                time.sleep(60)
                os._exit(0)
            held = []
        else:
            held = stuff()
    answer("0 1 2 3 4" if request == "code" else "5 6 7 8 9")
