"""Fixture: plays legal Arrow 5 attacks, but takes its time over some of
them, either sleeping (wall time, almost no CPU) or spinning (CPU time).

    python3 paced.py sleep 500 2      # sleeps 500 ms before its 2nd attack
    python3 paced.py spin 50 all      # burns 50 ms of CPU before every attack

Spinning runs until the process's own CPU clock has advanced by the given
time, so each such move costs at least that much CPU however busy the
machine is. Extra arguments (a tag for the leftover-process checks) are
ignored.
"""
import sys
import time

from common import requests, answer

mode, ms, which = sys.argv[1], int(sys.argv[2]), sys.argv[3]
slow = None if which == "all" else {int(n) for n in which.split(",")}
attacks = ["5 6 7 8 9", "9 8 7 6 5", "E 5 6 7 8"]
attack = 0
for request in requests():
    if request == "code":
        answer("0 1 2 3 4")
        continue
    attack += 1
    if slow is None or attack in slow:
        if mode == "sleep":
            time.sleep(ms / 1000)
        else:
            until = time.process_time() + ms / 1000
            while time.process_time() < until:
                pass
    answer(attacks[attack % 3])
