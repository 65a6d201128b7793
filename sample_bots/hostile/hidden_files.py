"""Fixture: at its first request writes 24 MiB (files of 4 MiB) where a
walk of its working folder by path cannot see them, then plays legally:
with `closed`, in a folder it made closed to its own user's reading (mode
0300: it may still make files there), which a referee without
`CAP_DAC_OVERRIDE` cannot list; with `deep`, at the bottom of 20 folders
of 250-byte names, a path longer than `PATH_MAX`. Says on stderr how much
it wrote (`hidden: N MiB`)."""
import os
import sys

from common import requests, play_unless

CHUNK = b"x" * (1 << 20)


def place():
    """A descriptor of the folder the files go to."""
    if sys.argv[1:] == ["deep"]:
        name = "d" * 250
        fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
        for _ in range(20):
            os.mkdir(name, 0o700, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        return fd
    os.mkdir("closed", 0o300)
    return os.open("closed", os.O_PATH | os.O_DIRECTORY)


def write_hidden():
    fd = place()
    written = 0
    for n in range(6):
        out = os.open(f"f{n}", os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=fd)
        for _ in range(4):
            written += os.write(out, CHUNK)
        os.close(out)
    print(f"hidden: {written >> 20} MiB", file=sys.stderr, flush=True)


started = False
for request in requests():
    if not started:
        started = True
        write_hidden()
    play_unless([], request)
