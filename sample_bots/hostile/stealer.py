"""Fixture: plays legal Arrow 5 (code 0 1 2 3 4, attack 5 6 7 8 9), and takes
its opponent's CPU while it should be stopped:

    python3 stealer.py THREADS       # e.g. 3

Right after each reply, each of THREADS threads makes one long system call:
madvise(MADV_POPULATE_READ) over 1 GiB of read-only anonymous memory, which
maps the shared zero page (no resident memory) and keeps a CPU for about a
tenth of a second. A stop (SIGSTOP) takes effect only when a thread leaves
the kernel, so the calls run on while the opponent thinks; with the game
pinned to one CPU, that time comes out of the opponent's move. Before its
next reply it unmaps the pages again, on its own time.

It tells on stderr what its first call took ("populate-ms N"), or that the
kernel cannot do it ("populate unsupported"). Extra arguments (a tag) are
ignored.
"""
import ctypes
import sys
import threading
import time

from common import answer, requests

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
SIZE = 1 << 30
PROT_READ = 0x1
MAP_PRIVATE, MAP_ANONYMOUS, MAP_NORESERVE = 0x02, 0x20, 0x4000
MADV_DONTNEED, MADV_NOHUGEPAGE, MADV_POPULATE_READ = 4, 15, 22

libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def region():
    address = libc.mmap(None, SIZE, PROT_READ,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        return None
    libc.madvise(address, SIZE, MADV_NOHUGEPAGE)
    return address


regions = [r for r in (region() for _ in range(THREADS)) if r is not None]
go = [threading.Semaphore(0) for _ in regions]


def helper(n):
    while True:
        go[n].acquire()
        # ctypes lets go of the interpreter lock: the threads run at once.
        libc.madvise(regions[n], SIZE, MADV_POPULATE_READ)


if regions:
    started = time.monotonic()
    if libc.madvise(regions[0], SIZE, MADV_POPULATE_READ) != 0:
        print("populate unsupported", file=sys.stderr, flush=True)
    else:
        took = (time.monotonic() - started) * 1000
        print(f"populate-ms {took:.0f} regions {len(regions)}",
              file=sys.stderr, flush=True)
for n in range(len(regions)):
    threading.Thread(target=helper, args=(n,), daemon=True).start()

for request in requests():
    for address in regions:
        libc.madvise(address, SIZE, MADV_DONTNEED)
    answer("0 1 2 3 4" if request == "code" else "5 6 7 8 9")
    for sem in go:
        sem.release()
