"""Fixture: plays legal Arrow 5 (random attacks), and tries to take its
opponent's time:

    python3 ponderer.py spin      # threads burn CPU all the time, waiting or not
    python3 ponderer.py renice    # tries to slow every other process down
    python3 ponderer.py idle      # spins as `spin`, and tells on stderr its
                                  # CPU time at each reply ("cpu-ms N")

`spin` starts six threads that hash without pause (hashlib lets go of the
interpreter lock, so they really run in parallel). `renice` tries, on every
process it can see, to lower its priority, move it to this bot's CPU and
make it idle-class; if any of that works on a process other than itself,
it answers its next request with what it did (a protocol verdict), so a
test sees the side door open."""
import hashlib
import os
import random
import sys
import threading
import time

from common import every_line, process_ids, random_code

mode = sys.argv[1] if len(sys.argv) > 1 else "spin"


def spin():
    block = b"x" * (1 << 20)
    while True:
        hashlib.sha256(block).digest()


def renice_others():
    me = os.getpid()
    done = []
    for pid in process_ids():
        if pid == me:
            continue
        for what, call in (
            ("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, pid, 19)),
            ("sched_setaffinity", lambda: os.sched_setaffinity(pid, {0})),
            ("sched_setscheduler",
             lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))),
        ):
            try:
                call()
                done.append(f"{what}({pid})")
            except OSError:
                pass
    return done


if mode in ("spin", "idle"):
    for _ in range(6):
        threading.Thread(target=spin, daemon=True).start()

touched = renice_others() if mode == "renice" else []
rng = random.Random(0)
for kind, words in every_line():
    if kind == "arrow5":
        rng = random.Random(int(words[4]))
    elif kind in ("code", "attack"):
        if mode == "idle":
            used = time.process_time() * 1000
            print(f"cpu-ms {used:.1f}", file=sys.stderr, flush=True)
        if touched:
            print("touched " + " ".join(touched[:5]), flush=True)
        else:
            print(random_code(rng), flush=True)
