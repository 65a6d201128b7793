"""Fixture: tries the network (a TCP connection to itself over loopback).
If it gets through, it says so on stderr and exits with status 4 (verdict:
crash); if it is refused (the seccomp filter of both layers allows only Unix
sockets; strict has no network either), it plays legally (verdict: ok)."""
import socket
import sys
from common import requests, answer

try:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    client = socket.create_connection(server.getsockname(), timeout=1)
    print("network: reachable", file=sys.stderr, flush=True)
    sys.exit(4)
except OSError as e:
    print(f"network: none ({e})", file=sys.stderr, flush=True)

for request in requests():
    answer("0 1 2 3 4")
