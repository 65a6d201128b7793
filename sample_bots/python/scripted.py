#!/usr/bin/env python3
"""A fixture bot for any game: answers each request (a line that is not a
greeting, a notice or `end`) with the next of the replies given on its
command line, in order. Used to replay known games, such as the rules'
example games, through the referee.

    python3 scripted.py 331 111 131 221 213
"""

import sys

NOTICES = ("feedback", "opponent", "signal")


def main():
    replies = sys.argv[1:]
    first = True
    for line in sys.stdin:
        words = line.split()
        if first:
            first = False  # the greeting
            continue
        if not words or words[0] in NOTICES:
            continue
        if words[0] == "end":
            return
        if not replies:
            return
        print(replies.pop(0), flush=True)


if __name__ == "__main__":
    main()
