"""Fixture: two copies play each other and try to talk behind the
referee's back through file locks, which every process that opens the same
file sees, whatever its sandbox: on a file both may read (this script).
Each copy looks for the other's record lock (`F_OFD_GETLK`), leaves one of
its own at a known offset, and takes `flock`; the second to come finds the
first's. If it finds one, it answers its next request with what opened (a
protocol verdict), so a test sees it. It also asks for a lease on the file
and a watch (dnotify) on its folder. Each copy says on stderr what each
call answered."""
import fcntl
import os
import struct
import sys

from common import requests, play_unless

OFFSET = 4242
opened = []


def flock_struct(kind, start, length):
    # struct flock on x86-64: l_type, l_whence, l_start, l_len, l_pid.
    return struct.pack("@hhqqi4x", kind, os.SEEK_SET, start, length, 0)


def tell(what, call):
    try:
        result = call()
        print(f"locker: {what}: done", file=sys.stderr, flush=True)
        return result
    except OSError as e:
        print(f"locker: {what}: {e.strerror}", file=sys.stderr, flush=True)
        return None


here = os.path.abspath(__file__)
looker = os.open(here, os.O_RDONLY)
seen = tell(
    "getlk",
    lambda: fcntl.fcntl(looker, fcntl.F_OFD_GETLK, flock_struct(fcntl.F_WRLCK, 0, 0)),
)
if seen is not None and struct.unpack("@hhqqi4x", seen)[0] != fcntl.F_UNLCK:
    opened.append("record-lock-seen")
holder = os.open(here, os.O_RDONLY)
tell(
    "setlk",
    lambda: fcntl.fcntl(holder, fcntl.F_OFD_SETLK, flock_struct(fcntl.F_RDLCK, OFFSET, 1)),
)
flocker = os.open(here, os.O_RDONLY)
try:
    fcntl.flock(flocker, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("locker: flock: done", file=sys.stderr, flush=True)
except BlockingIOError:
    opened.append("flock-seen")
except OSError as e:
    print(f"locker: flock: {e.strerror}", file=sys.stderr, flush=True)
leased = os.open(here, os.O_RDONLY)
tell("lease", lambda: fcntl.fcntl(leased, fcntl.F_SETLEASE, fcntl.F_RDLCK))
folder = os.open(os.path.dirname(here), os.O_RDONLY)
tell("notify", lambda: fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS))

for request in requests():
    play_unless(opened, request)
