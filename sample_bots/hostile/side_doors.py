"""Fixture: plays legal Arrow 5 attacks after trying the side doors the
sandbox must keep shut: io_uring (a socket without socket(2)), memory the
resident measure cannot see (memfd, System V shared memory, POSIX message
queues), System V message queues and semaphores (a channel between bots
that outlives them), the kernel keyring, sockets (a Unix socket file to
connect to; a pair's buffers sized up, or a socket passed through another:
memory the resident measure cannot see) and
changes to a file's mode, times or extended attributes (which Landlock does
not cover: its own script's, to what they are, so that nothing changes). If
any of them opens, it answers its first request with what opened (a
protocol verdict), so a test sees it."""
import ctypes
import os
import socket
import sys

from common import requests, play_unless

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
opened = []


def syscall(name, number, *args):
    r = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    if r >= 0:
        opened.append(name)


params = ctypes.create_string_buffer(120)
syscall("io_uring_setup", 425, 8, ctypes.addressof(params))
try:
    fd = os.memfd_create("hoard")
    opened.append("memfd_create")
    os.ftruncate(fd, 64 << 20)
except OSError:
    pass
syscall("shmget", 29, 0, 16 << 20, 0o1600)  # IPC_PRIVATE, IPC_CREAT|0600
# System V message queues and semaphores: a channel to another bot, and a
# message left on the machine for a later game (they outlive the bot).
syscall("msgget", 68, 0x5EE0, 0o1600)  # a known key, IPC_CREAT|0600
syscall("semget", 64, 0x5EE1, 1, 0o1600)
name = ctypes.create_string_buffer(b"/referee-side-door")
syscall("mq_open", 240, ctypes.addressof(name), 0o102, 0o600, 0)  # O_RDWR|O_CREAT
key_type = ctypes.create_string_buffer(b"user")
desc = ctypes.create_string_buffer(b"referee-side-door")
data = ctypes.create_string_buffer(b"x" * 64)
# add_key(type, description, payload, plen, KEY_SPEC_USER_KEYRING = -4)
syscall("add_key", 248, ctypes.addressof(key_type), ctypes.addressof(desc),
        ctypes.addressof(data), 64, -4)
syscall("setsid", 112)

try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    opened.append("socket(AF_UNIX)")
except OSError:
    pass
# A connected Unix pair is allowed (counted with the bot's memory), but not
# larger buffers, nor a socket passed through another (in flight, it would
# outlive its descriptors, uncounted).
try:
    first, second = socket.socketpair()
except OSError:
    first = second = None
if first is not None:
    for name, call in (
        ("setsockopt(SO_SNDBUF)",
         lambda: first.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)),
        ("sendmsg(SCM_RIGHTS)", lambda: socket.send_fds(first, [b"x"], [second.fileno()])),
    ):
        try:
            call()
            opened.append(name)
        except OSError:
            pass
    first.close()
    second.close()
script = os.path.abspath(__file__)
info = os.stat(script)
for name, call in (
    ("chmod", lambda: os.chmod(script, info.st_mode & 0o7777)),
    ("utime", lambda: os.utime(script, ns=(info.st_atime_ns, info.st_mtime_ns))),
):
    try:
        call()
        opened.append(name)
    except OSError:
        pass
try:
    os.setxattr(script, "user.referee-side-door", b"x")
    opened.append("setxattr")
    os.removexattr(script, "user.referee-side-door")
except OSError:
    pass

for request in requests():
    play_unless(opened, request)
