"""Fixture: starts threads that sleep (with small stacks, so that the
address-space limit is not what stops it), then plays legal Arrow 5 (code
0 1 2 3 4, attack 5 6 7 8 9). Thousands of threads would take the pids its
opponent and the machine need. It tells on stderr how many it has started
("threads N").

    python3 thread_bomb.py        # up to 2000 at its first attack
    python3 thread_bomb.py 40     # 40 at every attack, replying at once

The second is a bot that always replies within the referee's memory poll,
so it is never measured while it thinks: its threads would pile up move
after move, unseen, but for the measure the referee takes at a reply."""
import sys
import threading
import time

from common import answer, requests

PER_ATTACK = int(sys.argv[1]) if len(sys.argv) > 1 else None
threading.stack_size(64 * 1024)
started = 0
for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
        continue
    if PER_ATTACK is not None or started == 0:
        goal = started + PER_ATTACK if PER_ATTACK is not None else 2000
        try:
            while started < goal:
                threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        print(f"threads {started}", file=sys.stderr, flush=True)
    answer("5 6 7 8 9")
