"""Cryptron test fixture: the Python starter, taking 3 s for each of its
first three moves: over a C bot's 2 s but within Python's 6 s. Expected
verdict: ok (it plays the game to the end). It lives beside the starter it
imports: a bot reads only its own folder."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cryptron_starter  # noqa: E402

SLOW_MOVES = 3
moves = 0
choose = cryptron_starter.choose


def slow_choose():
    global moves
    moves += 1
    if moves <= SLOW_MOVES:
        time.sleep(3)
    return choose()


cryptron_starter.choose = slow_choose
cryptron_starter.main()
