"""Fixture: two copies play each other and try to talk behind the
referee's back through an abstract Unix socket (one with no file, named in
the network namespace the bots may share). The first to start binds the
name and listens; the other connects, by stream and by datagram. If a
connection or a datagram gets through, the bot that saw it answers its next
request with what opened (a protocol verdict), so a test sees it. Each copy
says on stderr which side it took."""
import os
import socket
import sys

from common import requests, play_unless

# Which IPC namespace it is in, for the test to compare.
print("whisper: in " + os.readlink("/proc/self/ns/ipc"), file=sys.stderr, flush=True)

NAME = b"\0referee-whisper"
opened = []
listener = None
try:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(NAME)
    listener.listen(1)
    listener.setblocking(False)
    print("whisper: listening", file=sys.stderr, flush=True)
except OSError as e:
    listener = None
    print(f"whisper: talking (bind: {e.strerror})", file=sys.stderr, flush=True)
    try:
        talker = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        talker.connect(NAME)
        opened.append("stream-connect")
    except OSError as e:
        print(f"whisper: connect: {e.strerror}", file=sys.stderr, flush=True)
    try:
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"hi", NAME)
        opened.append("datagram")
    except OSError as e:
        print(f"whisper: sendto: {e.strerror}", file=sys.stderr, flush=True)

for request in requests():
    if listener is not None:
        try:
            listener.accept()
            opened.append("stream-accept")
        except OSError:
            pass
    play_unless(opened, request)
