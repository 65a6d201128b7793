"""Fixture: plays legal Arrow 5 attacks after looking for the terminal the
referee runs on: a controlling terminal (`/dev/tty` opens, or one is named
in /proc/self/stat), typing into it (TIOCSTI), or the referee's process
group (where a terminal's Ctrl-C lands). If it finds any, it answers its
first request with what it found (a protocol verdict), so a test sees it."""
import fcntl
import os
import termios

from common import requests, play_unless

opened = []
for flags in (os.O_RDWR, os.O_RDONLY):
    try:
        tty = os.open("/dev/tty", flags | os.O_NOCTTY)
    except OSError:
        continue
    opened.append("/dev/tty")
    try:
        fcntl.ioctl(tty, termios.TIOCSTI, b" ")
        opened.append("TIOCSTI")
    except OSError:
        pass
    os.close(tty)
    break
with open("/proc/self/stat") as stat:
    # After the command's name: state, ppid, pgrp, session, tty_nr.
    fields = stat.read().rsplit(")", 1)[1].split()
if int(fields[4]) != 0:
    opened.append("controlling-terminal")
# 0: the group's leader is outside its PID namespace (strict), not the
# referee's group either.
if os.getpgrp() not in (os.getpid(), 0):
    opened.append("shared-process-group")

for request in requests():
    play_unless(opened, request)
