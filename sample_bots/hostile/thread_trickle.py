"""Fixture: at each attack, starts 40 threads that sleep (small stacks), a
few milliseconds' work, then replies at once; plays legal Arrow 5 (code
0 1 2 3 4, attack 5 6 7 8 9). A bot that always replies within the
referee's memory poll is never measured while it thinks: its threads would
pile up move after move, unseen, until the machine's pids are gone. It
tells on stderr how many it has started ("threads N")."""
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
    try:
        for _ in range(40):
            threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
            started += 1
    except RuntimeError:
        pass
    print(f"threads {started}", file=sys.stderr, flush=True)
    answer("5 6 7 8 9")
