"""Fixture: checks what it inherited and can reach. It exits with status 3
(verdict: crash) if it finds an open descriptor beyond 0, 1 and 2, an
environment variable outside the documented set, a capability, can read
the referee's or any other process's memory or environment, or the
referee's seed in its command line, or may call
ptrace; else it plays legally (verdict: ok).
Run it with the system's python3 directly: a wrapper (pyenv's shims) adds
variables and descriptors of its own."""
import os
import sys
from common import requests, answer, process_ids

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
# The referee's memory (where the codes are) and environment, and its
# launcher's: the bot's parent and grandparent (under strict, neither is
# even visible: the bot is the first process of its PID namespace).
def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0
launcher = os.getppid()
for pid in (launcher, parent_of(launcher)):
    if pid <= 1:
        continue
    # The command lines: the referee's could hold its seed.
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            if b"--seed" in f.read():
                problems.append(f"read the seed in the command line of {pid}")
    except OSError:
        pass
    for what in ("mem", "environ"):
        try:
            with open(f"/proc/{pid}/{what}", "rb") as f:
                f.read(1)
            problems.append(f"read the {what} of process {pid}, an ancestor")
        except OSError:
            pass
# Capabilities: none in effect or permitted; for uid 0 none in the bounding
# set either (an exec by uid 0 would be granted those). An ordinary user's
# bounding set is full and harmless (no_new_privs: nothing can raise it).
kinds = ("CapEff", "CapPrm", "CapBnd") if os.geteuid() == 0 else ("CapEff", "CapPrm")
try:
    with open("/proc/self/status") as f:
        caps = [l.split()[1] for l in f if l.startswith(kinds)]
    if any(int(c, 16) for c in caps):
        problems.append(f"capabilities {caps}")
except OSError:
    pass
# Any other process's memory (the other bot's holds its secret code).
me = os.getpid()
for entry in process_ids():
    if entry == me:
        continue
    try:
        with open(f"/proc/{entry}/mem", "rb"):
            pass
        problems.append(f"opened the memory of process {entry}")
        break
    except OSError:
        pass
# Tracing: ptrace(PTRACE_TRACEME) must be refused (seccomp).
try:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(0, 0, None, None) == 0:
        problems.append("ptrace allowed")
except OSError:
    pass
if problems:
    print("LEAK: " + "; ".join(problems), file=sys.stderr, flush=True)
    sys.exit(3)
print("probe: clean", file=sys.stderr, flush=True)

for request in requests():
    answer("0 1 2 3 4")
