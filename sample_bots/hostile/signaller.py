"""Fixture: at its first attack, tries to signal every other process it can
see (the other bot, the referee, anything of its user). It sends signal 0,
which only checks permission and delivers nothing, so it is safe to run.
If any check succeeds it answers `LEAK ...` (a protocol fault the tests
look for); if it cannot even signal itself it answers `BROKEN`; otherwise
it plays legally (verdict: ok)."""
import os
import signal
from common import requests, answer, process_ids

def probe():
    me = os.getpid()
    try:
        os.kill(me, 0)
        os.kill(0, 0)
    except OSError:
        return "BROKEN cannot signal itself"
    reached = []
    for pid in process_ids():
        if pid == me:
            continue
        try:
            os.kill(pid, 0)
            reached.append(pid)
        except OSError:
            pass
    if hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal"):
        try:
            fd = os.pidfd_open(os.getppid())
            signal.pidfd_send_signal(fd, 0)
            reached.append("pidfd")
        except OSError:
            pass
    if reached:
        return "LEAK " + " ".join(map(str, reached[:10]))
    return None

moves = iter(["5 6 7 8 9", "9 8 7 6 5", "E 5 6 7 8"] * 40)
for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
    else:
        leak = probe()
        answer(leak if leak else next(moves))
