"""Shared by the misbehaving fixture bots: play legally until told to misbehave."""
import sys


def requests(stream=None):
    """Yields each request line (code, attack, ...) the referee sends, read
    from `stream` (standard input by default)."""
    for line in stream or sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "end":
            return
        if words[0] in ("code", "attack"):
            yield words[0]


def answer(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def play_unless(opened, request):
    """Answers `request` legally (code 0 1 2 3 4, attacks 5 6 7 8 9), or,
    if `opened` names a way out of the sandbox that opened, says so instead
    (a protocol verdict the test sees)."""
    if opened:
        answer("opened " + " ".join(opened))
    elif request == "code":
        answer("0 1 2 3 4")
    else:
        answer("5 6 7 8 9")


SYMBOLS = "0123456789E"


def every_line():
    """Yields (kind, words) for each line up to `end`: the greeting (kind
    `arrow5`, its seed in words[4]) and every request."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "end":
            return
        yield words[0], words


def random_code(rng):
    """A legal Arrow 5 code or attack: five different symbols."""
    return " ".join(rng.sample(SYMBOLS, 5))


def process_ids():
    """The ids of the processes a bot may aim at: those /proc lists, or,
    where listing it is refused, every pid around its own (its parents and
    its opponent started shortly before it)."""
    import os
    try:
        return [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        me = os.getpid()
        return list(range(max(1, me - 5000), me + 50))
