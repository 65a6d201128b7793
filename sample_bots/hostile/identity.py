"""Fixture: says on stderr, as one JSON line starting `identity:`, who it
runs as and what it can see: its user and group ids, its process, parent,
process group and session ids, the processes /proc
shows it (null: cannot list), and how many entries it finds in the referee's home (/root),
in /tmp and in the machine's cgroups, /sys/fs/cgroup (null: cannot list). Then plays legally (verdict: ok). The sandbox tests compare what
two seats report."""
import json
import os
import sys
from common import requests, answer


def entries(path):
    """How many entries `path` lists, or None if it cannot be listed."""
    try:
        return len(os.listdir(path))
    except OSError:
        return None


def processes():
    """How many processes /proc lists, or None if it cannot be listed."""
    try:
        return sum(1 for p in os.listdir("/proc") if p.isdigit())
    except OSError:
        return None


report = {
    "uid": os.getuid(),
    "gid": os.getgid(),
    "pid": os.getpid(),
    "parent": os.getppid(),
    "group": os.getpgid(0),
    "session": os.getsid(0),
    "processes": processes(),
    "root": entries("/root"),
    "tmp": entries("/tmp"),
    "cgroups": entries("/sys/fs/cgroup"),
}
print("identity: " + json.dumps(report), file=sys.stderr, flush=True)

for request in requests():
    answer("0 1 2 3 4")
