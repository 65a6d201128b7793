"""Fixture: a Light Cycles bot that misbehaves at its first turn, as its
argument says: `markup` answers with a line built to break CSV, HTML and
spreadsheets (verdict: protocol), `flood` writes an endless line (verdict:
output), `slow` rides one step towards the centre, then never answers
(verdict: timeout, at its second reply: the first has the start's time).

Two more ride legally, each to the first free cell of N, E, S, W:
`ponder` with six threads hashing all the time, waiting or not, that
tells its CPU clock on stderr at each turn (`cpu-ms N`), and `think`,
which spins 100 ms of CPU on each move before it answers: a free-for-all
must stop the first while the others think, as a game of two does."""
import hashlib
import sys
import threading
import time

MARKUP = "</script><script>alert(1)</script>,\"=cmd|' /C calc'!A0"



def spin():
    block = b"x" * (1 << 20)
    while True:
        hashlib.sha256(block).digest()


def first_free(words):
    """The first step of N, E, S, W to a cell no cycle has stood on."""
    numbers = [int(w) for w in words[2:]]
    heads = list(zip(numbers[0::2], numbers[1::2]))
    blocked.update(h for h in heads if h[0] >= 0)
    x, y = heads[me]
    for step, dx, dy in (("N", 0, -1), ("E", 1, 0), ("S", 0, 1), ("W", -1, 0)):
        cell = (x + dx, y + dy)
        if cell not in blocked and 0 <= cell[0] < width and 0 <= cell[1] < height:
            return step
    return "N"


mode = sys.argv[1]
if mode == "ponder":
    for _ in range(6):
        threading.Thread(target=spin, daemon=True).start()
width = height = me = 0
blocked = set()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "end":
        break
    if words[0] == "cycles":
        width, height, me = int(words[2]), int(words[3]), int(words[4])
    if words[0] != "turn":
        continue
    if mode == "ponder":
        print("cpu-ms %.1f" % (time.process_time() * 1000), file=sys.stderr, flush=True)
        print(first_free(words), flush=True)
    elif mode == "think":
        start = time.process_time()
        while time.process_time() - start < 0.1:
            pass
        print(first_free(words), flush=True)
    elif mode == "markup":
        print(MARKUP, flush=True)
    elif mode == "flood":
        while True:
            sys.stdout.write("x" * 65536)
    elif words[1] == "1":
        x, y = int(words[2 + 2 * me]), int(words[3 + 2 * me])
        dx, dy = width // 2 - x, height // 2 - y
        if abs(dx) > abs(dy):
            print("E" if dx > 0 else "W", flush=True)
        else:
            print("S" if dy > 0 else "N", flush=True)
    else:
        time.sleep(600)
