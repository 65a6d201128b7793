#!/usr/bin/env python3
"""A fixture bot for any game: answers each request (a line that is not the
greeting, a notice or `end`) with the next of the replies given on its
command line, in order. Used to replay known games, such as the rules'
example games, through the referee.

    python3 scripted.py 331 111 131 221 213            # one reply per argument
    python3 scripted.py '5 0 1 E 2,0 5 7 9 2'          # or one argument, comma-separated
"""
import sys

NOTICES = ("feedback", "opponent", "signal")


def main():
    args = sys.argv[1:]
    replies = args[0].split(",") if len(args) == 1 and "," in args[0] else args
    replies = iter(replies)
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
        print(next(replies, "out of replies"), flush=True)


if __name__ == "__main__":
    main()
