"""Cryptron starter bot in Python, written to the rules' "Bot Format": read
the player number, then loop: read the opponent's move (except on player 1's
first turn), choose a move, print it.

The bot keeps its own board in its own frame (its base is row 0): mine[r] and
theirs[r] count droids in row r. The opponent's move arrives in the
opponent's frame, so its row r is our row 7 - r.

Strategy: every legal turn is tried; the one leaving the best points
difference wins, ties broken by rows gained (greedy, one turn deep).

Run it:  referee match cryptron sample_bots/python/cryptron_starter.py sample_bots/c/cryptron_starter.c
"""
import sys

POINTS = [0, 0, 0, 0, 1, 2, 3, 5]
mine = [6, 1, 1, 1, 1, 1, 1, 0]
theirs = [0, 1, 1, 1, 1, 1, 1, 6]


def total(r):
    return mine[r] + theirs[r]


def room(r):
    return r in (0, 7) or total(r) < 6


def value():
    own = sum(POINTS[r] * mine[r] for r in range(8))
    other = sum(POINTS[7 - r] * theirs[r] for r in range(8))
    progress = sum(r * mine[r] for r in range(8))
    return (own - other) * 100 + progress


def turns():
    """Every legal turn as (i1, f1, i2, f2); i2 == f2 means no second attack."""
    out = []
    for i1 in range(7):
        if not mine[i1] or not room(i1 + 1):
            continue
        f1 = i1 + 1
        length = 1 if f1 == 7 else total(f1)
        mine[i1] -= 1
        mine[f1] += 1
        seconds = [(i2, i2 + length) for i2 in range(8 - length)
                   if length > 0 and mine[i2] and room(i2 + length)]
        mine[i1] += 1
        mine[f1] -= 1
        if not seconds:
            out.append((i1, f1, f1, f1))
        out.extend((i1, f1, i2, f2) for i2, f2 in seconds)
    return out


def play(side, move, mirror):
    i1, f1, i2, f2 = (7 - x for x in move) if mirror else move
    if move == (0, 0, 0, 0):
        return  # a pass
    side[i1] -= 1
    side[f1] += 1
    if i2 != f2:
        side[i2] -= 1
        side[f2] += 1


def choose():
    best, best_move = None, (0, 0, 0, 0)  # no turn at all: pass
    for move in turns():
        play(mine, move, False)
        v = value()
        i1, f1, i2, f2 = move
        mine[i1] += 1  # undo
        mine[f1] -= 1
        if i2 != f2:
            mine[i2] += 1
            mine[f2] -= 1
        if best is None or v > best:
            best, best_move = v, move
    return best_move


def main():
    player = int(sys.stdin.readline())
    turn = 1
    while True:
        if not (player == 1 and turn == 1):
            line = sys.stdin.readline()
            if not line or line.startswith("end"):
                return  # the game is over
            move = tuple(int(x) for x in line.strip().split(","))
            play(theirs, move, True)
        move = choose()
        play(mine, move, False)
        print(",".join(str(x) for x in move), flush=True)
        turn += 1


if __name__ == "__main__":
    main()
