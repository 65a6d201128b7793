"""Fixture: tries to make new namespaces (unshare, and a clone asking for
one) and to join another process's (setns). Each must be refused; if one
gets through it says so on stderr and exits with status 6 (verdict: crash),
else it plays legally (verdict: ok)."""
import ctypes
import os
import sys
from common import requests, answer

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWUSER = 0x10000000
CLONE_NEWNS = 0x00020000
CLONE_NEWNET = 0x40000000
escaped = []
for name, flags in (("user", CLONE_NEWUSER), ("user+mount", CLONE_NEWUSER | CLONE_NEWNS),
                    ("network", CLONE_NEWNET)):
    if libc.unshare(flags) == 0:
        escaped.append(f"unshare({name})")
# setns into the namespaces of process 1 (the machine's, or its own
# namespace's first process).
try:
    fd = os.open("/proc/1/ns/net", os.O_RDONLY)
    if libc.setns(fd, 0) == 0:
        escaped.append("setns(/proc/1/ns/net)")
    os.close(fd)
except OSError:
    pass
# A child process in a new user namespace, by the raw clone system call
# (SYS_clone = 56 on x86-64; flags, stack, ...). It would exit at once.
SIGCHLD = 17
pid = libc.syscall(56, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0)
if pid == 0:
    os._exit(0)
if pid > 0:
    os.waitpid(pid, 0)
    escaped.append("clone(CLONE_NEWUSER)")
if escaped:
    print("escaped: " + "; ".join(escaped), file=sys.stderr, flush=True)
    sys.exit(6)

for request in requests():
    answer("0 1 2 3 4")
