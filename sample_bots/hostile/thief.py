"""Fixture: a team's bot that tries to take what is not its own. One file,
importing nothing of its folder (it may be alone in a folder of its own).

- Other teams' files: the paths in its arguments and, one a line, in
  `targets.txt` beside it (if it can read that). Each folder is listed
  (but one in its own folder, whose names it may list) and walked, each
  file opened and read, and run (with forking allowed). If
  anything works it says what on stderr (`LEAK: ...`) and exits with
  status 7 (verdict: crash).
- The referee's secret key: every 64-hex-digit word in any process's
  command line or environment it can read (`/proc/*/cmdline`, `environ`)
  is printed on stderr (`HEX: ...`, one line), and it exits with status 7;
  how many processes it could read is printed first (`PROCS: n of m`).

Otherwise it plays legally (verdict: ok)."""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
targets = list(sys.argv[1:])
try:
    with open(os.path.join(here, "targets.txt")) as f:
        targets += [line.strip() for line in f if line.strip()]
except OSError:
    pass

leaks = []


def take_file(path):
    try:
        with open(path, "rb") as f:
            f.read(1)
        leaks.append("read " + path)
    except OSError:
        pass
    try:
        pid = os.fork()
    except OSError:
        return
    if pid == 0:
        try:
            devnull = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.execv(path, [path])
        finally:
            os._exit(127)
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) != 127:
        leaks.append("ran " + path)


for path in targets:
    if os.path.isdir(path):
        # Names in its own folder and below may be listed (an interpreter
        # lists its script's folder to import from it), not elsewhere.
        try:
            os.listdir(path)
            if not os.path.abspath(path).startswith(here + os.sep):
                leaks.append("listed " + path)
        except OSError:
            pass
        for root, _dirs, files in os.walk(path):
            for name in files:
                if os.path.join(root, name) != os.path.abspath(__file__):
                    take_file(os.path.join(root, name))
    else:
        take_file(path)

if leaks:
    print("LEAK: " + ", ".join(leaks[:4]), file=sys.stderr, flush=True)
    sys.exit(7)

found = set()
readable = 0
try:
    pids = {p for p in os.listdir("/proc") if p.isdigit()}
except OSError:
    pids = set()
# Listing /proc may be refused: its parents (the referee, a `timeout` or a
# shell that started it) have pids below its own, so it guesses them.
me = os.getpid()
pids.update(str(p) for p in range(max(1, me - 5000), me + 50))
for pid in pids:
    seen = False
    for part in ("cmdline", "environ"):
        try:
            with open("/proc/%s/%s" % (pid, part), "rb") as f:
                text = f.read().decode("latin-1")
            seen = True
        except OSError:
            continue
        found.update(re.findall(r"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])", text))
    readable += seen
print("PROCS: %d of %d" % (readable, len(pids)), file=sys.stderr, flush=True)
if found:
    print("HEX: " + " ".join(sorted(found)), file=sys.stderr, flush=True)
    sys.exit(7)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "end":
        break
    if words[0] in ("code", "attack"):
        sys.stdout.write("0 1 2 3 4\n")
        sys.stdout.flush()
