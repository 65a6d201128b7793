"""Fixture: at its first attack, starts up to 2000 threads that sleep (with
small stacks, so that the address-space limit is not what stops it), then
plays legal Arrow 5 (code 0 1 2 3 4, attack 5 6 7 8 9). Thousands of
threads would take the pids its opponent and the machine need. It tells
on stderr how many it started ("threads N")."""
import sys
import threading
import time

from common import answer, requests

threading.stack_size(64 * 1024)
started = 0
for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
        continue
    if started == 0:
        try:
            while started < 2000:
                threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        print(f"threads {started}", file=sys.stderr, flush=True)
    answer("5 6 7 8 9")
