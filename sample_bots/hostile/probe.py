"""Fixture: checks what it inherited. It exits with status 3 (verdict:
crash) if it finds an open descriptor beyond 0, 1 and 2 or an environment
variable outside the documented set, else plays legally (verdict: ok).
Run it with the system's python3 directly: a wrapper (pyenv's shims) adds
variables and descriptors of its own."""
import os
import sys
from common import requests, answer

ALLOWED = {"PATH", "HOME", "TMPDIR", "LANG", "PYTHONUNBUFFERED",
           "PYTHONDONTWRITEBYTECODE", "REFEREE_BOT_TAG"}
problems = []
fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
# listdir's own descriptor is closed by now, but may be listed.
extra = [fd for fd in fds if fd > 2 and os.path.exists(f"/proc/self/fd/{fd}")]
if extra:
    problems.append(f"inherited descriptors {extra}")
unknown = sorted(set(os.environ) - ALLOWED)
if unknown:
    problems.append(f"unexpected environment {unknown}")
if problems:
    print("LEAK: " + "; ".join(problems), file=sys.stderr, flush=True)
    sys.exit(3)
print("probe: clean", file=sys.stderr, flush=True)

for request in requests():
    answer("0 1 2 3 4")
