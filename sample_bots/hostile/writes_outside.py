"""Fixture: tries to write outside its working directory (next to its own
script, a folder of the machine's), to move
itself out of its cgroup (the cgroup v2 root), and writes a file in
/dev/shm that it leaves behind. If a write outside gets through, it says so
on stderr and exits with status 5 (verdict: crash); otherwise it plays
legally (verdict: ok). Under strict every file system but its working
directory is read-only, and /tmp and /dev/shm are private: nothing is left
on the machine."""
import os
import sys
from common import requests, answer

escaped = []
here = os.path.basename(os.path.dirname(os.path.abspath(__file__)))
script_dir = os.path.dirname(os.path.abspath(__file__))
outside = os.path.join(script_dir, f"referee-hostile-{os.getpid()}")
try:
    with open(outside, "w") as f:
        f.write("x")
    os.remove(outside)
    escaped.append(f"wrote in {script_dir}")
except OSError:
    pass
for mount in ("/sys/fs/cgroup/unified", "/sys/fs/cgroup"):
    try:
        with open(f"{mount}/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))
        escaped.append(f"moved to {mount}")
        break
    except OSError:
        pass
try:
    with open(f"/dev/shm/referee-hostile-{here}", "w") as f:
        f.write("left behind")
except OSError:
    pass
if escaped:
    print("escaped: " + "; ".join(escaped), file=sys.stderr, flush=True)
    sys.exit(5)

for request in requests():
    answer("0 1 2 3 4")
