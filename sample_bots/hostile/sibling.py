"""Fixture: a bot that tries to reach the working folder of the other bot
of its own command (the same program and script in the other seat). The
referee plans a command's Landlock rules once for all its bots; each must
still get its own folder, and never the other's.

At its start it leaves a file (`mine`) in its own working folder (its
HOME). At its second request (the other bot may be started only once it
has answered its first) it waits (up to 3 s) for `targets.txt` beside it, which the test writes once both bots' folders exist, one path a line.
In each folder that is not its own it tries to list it, read the other's
`mine` and write a file. If anything works it says what on stderr
(`LEAK: ...`) and exits with status 7 (verdict: crash); with no
`targets.txt` in time, or its own folder not among them, it exits with
status 8 (the run proves nothing). Otherwise it plays legally (verdict:
ok)."""
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
home = os.path.realpath(os.environ["HOME"])
with open(os.path.join(home, "mine"), "w") as f:
    f.write("mine\n")


def told():
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            with open(os.path.join(here, "targets.txt")) as f:
                paths = [os.path.realpath(line.strip()) for line in f if line.strip()]
            if len(paths) >= 2:
                return paths
        except OSError:
            pass
        time.sleep(0.02)
    return []


def try_to_reach(paths):
    if home not in paths:
        print("NOT TOLD: %s not in %s" % (home, paths), file=sys.stderr, flush=True)
        sys.exit(8)
    leaks = []
    for path in paths:
        if path == home:
            continue
        try:
            os.listdir(path)
            leaks.append("listed " + path)
        except OSError:
            pass
        try:
            with open(os.path.join(path, "mine")) as f:
                f.read()
            leaks.append("read " + path)
        except OSError:
            pass
        try:
            with open(os.path.join(path, "stolen"), "w") as f:
                f.write("x")
            leaks.append("wrote " + path)
        except OSError:
            pass
    if leaks:
        print("LEAK: " + ", ".join(leaks), file=sys.stderr, flush=True)
        sys.exit(7)


# The other bot may be started only once this one has answered its first
# request: it tries at its second.
requests = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "end":
        break
    if words[0] in ("code", "attack"):
        requests += 1
        if requests == 2:
            try_to_reach(told())
        sys.stdout.write("0 1 2 3 4\n")
        sys.stdout.flush()
