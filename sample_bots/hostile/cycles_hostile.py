"""Fixture: a Light Cycles bot that misbehaves at its first turn, as its
argument says: `markup` answers with a line built to break CSV, HTML and
spreadsheets (verdict: protocol), `flood` writes an endless line (verdict:
output), `slow` rides one step towards the centre, then never answers
(verdict: timeout, at its second reply: the first has the start's time)."""
import sys
import time

MARKUP = "</script><script>alert(1)</script>,\"=cmd|' /C calc'!A0"

mode = sys.argv[1]
width = height = me = 0
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
    if mode == "markup":
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
