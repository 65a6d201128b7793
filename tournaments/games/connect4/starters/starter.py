#!/usr/bin/env python3
"""A Connect Four starter bot: wins if it can, blocks a win of the
opponent's, else plays the legal column nearest the centre.

Lines it reads (README.md beside the judge): the greeting
`connect4 COLS ROWS first|second`, then `opponent C` (the column the
opponent just played) and `move` (answer with a column, 1 to COLS), and
finally `end win|loss|draw REASON`. Always flush after a reply."""

import sys

MINE, THEIRS = 1, 2


def wins(board, rows, cols, col, who):
    """Would `who` have four in a row by dropping in `col`?"""
    row = next(r for r in range(rows) if board[r][col] == 0)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < rows and 0 <= c < cols and board[r][c] == who:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= 4:
            return True
    return False


def choose(board, rows, cols):
    legal = [c for c in range(cols) if board[rows - 1][c] == 0]
    for who in (MINE, THEIRS):  # win first, then block
        for c in legal:
            if wins(board, rows, cols, c, who):
                return c
    centre = (cols - 1) / 2
    return min(legal, key=lambda c: (abs(c - centre), c))


def drop(board, rows, col, who):
    row = next(r for r in range(rows) if board[r][col] == 0)
    board[row][col] = who


def main():
    words = sys.stdin.readline().split()  # connect4 COLS ROWS ROLE
    cols, rows = int(words[1]), int(words[2])
    board = [[0] * cols for _ in range(rows)]  # row 0 at the bottom
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "opponent":
            drop(board, rows, int(words[1]) - 1, THEIRS)
        elif words[0] == "move":
            col = choose(board, rows, cols)
            drop(board, rows, col, MINE)
            print(col + 1, flush=True)
        elif words[0] == "end":
            break


if __name__ == "__main__":
    main()
