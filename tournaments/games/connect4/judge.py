#!/usr/bin/env python3
"""Connect Four for the referee (rules: README.md beside this file).

Player 0 (X) moves first. Each turn the judge tells the player to move the
column its opponent just played (`opponent C`), then asks it for a `move`;
the reply is a column number. Four in a row wins, a full board is a draw.
"""

from referee_judge import Judge

CONNECT = 4
PIECES = ("X", "O")
COLOURS = ("#e33b3b", "#f2c81f")
WINNING = ("#5cc96b", "#5cc96b")  # the four that won: green, either player
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def main():
    judge = Judge("connect4", min_players=2, max_players=2)
    judge.check_options(["rows", "cols"])
    rows = judge.option("rows", 6, low=4, high=16)
    cols = judge.option("cols", 7, low=4, high=16)
    names = judge.names or ["A", "B"]
    # board[r][c], row 0 at the bottom; None is empty.
    board = [[None] * cols for _ in range(rows)]
    heights = [0] * cols

    def frame(text, won=()):
        cells, colours = [], []
        for r in reversed(range(rows)):  # the top row first
            cells.append(["" if p is None else PIECES[p] for p in board[r]])
            colours.append(
                [
                    "" if p is None else (WINNING if (r, c) in won else COLOURS)[p]
                    for c, p in enumerate(board[r])
                ]
            )
        judge.frame(
            {
                "grid": {"rows": rows, "cols": cols, "cells": cells, "colours": colours},
                "hud": {
                    "X": "%s (red)" % names[0],
                    "O": "%s (yellow)" % names[1],
                    "moves": str(sum(heights)),
                },
                "text": text,
            }
        )

    for player, role in ((0, "first"), (1, "second")):
        judge.tell(player, "connect4 %d %d %s" % (cols, rows, role))
    judge.first(0)
    frame("%s (X) moves first" % names[0])
    judge.ask(0, "move")
    player = 0
    while True:
        reply = judge.send()
        text = reply.line.strip()
        if not (text.isascii() and text.isdigit()):
            judge.protocol("expected a column number from 1 to %d, got '%s'" % (cols, shorten(reply.line)))
            return
        column = int(text)
        if not 1 <= column <= cols:
            judge.illegal("column %d does not exist (the columns are 1 to %d)" % (column, cols))
            return
        c = column - 1
        if heights[c] == rows:
            judge.illegal("column %d is full" % column)
            return
        r = heights[c]
        board[r][c] = player
        heights[c] += 1
        move = "%s (%s) drops in column %d" % (names[player], PIECES[player], column)
        judge.log(move)
        line = four_through(board, r, c)
        over = bool(line) or sum(heights) == rows * cols
        if line:
            frame(move + ": four in a row", won=line)
            judge.end(winner=player, reason="four-in-a-row", scores=[1, 0] if player == 0 else [0, 1])
        elif over:
            frame(move + ": the board is full")
            judge.end(winner=None, reason="board-full", scores=[0.5, 0.5])
        else:
            frame(move)
            other = 1 - player
            judge.tell(other, "opponent %d" % column)
            judge.ask(other, "move")
            player = other
        if over:
            judge.summary(board_text(board))
            judge.send()  # the referee answers stop: the judge exits


def four_through(board, r, c):
    """The cells of a line of CONNECT or more through (r, c) of its
    player's pieces, or None."""
    rows, cols, player = len(board), len(board[0]), board[r][c]
    for dr, dc in DIRECTIONS:
        cells = [(r, c)]
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < rows and 0 <= cc < cols and board[rr][cc] == player:
                cells.append((rr, cc))
                rr, cc = rr + sign * dr, cc + sign * dc
        if len(cells) >= CONNECT:
            return set(cells)
    return None


def board_text(board):
    return [" ".join("." if p is None else PIECES[p] for p in row) for row in reversed(board)]


def shorten(line, most=60):
    return line if len(line) <= most else line[:most] + "…"


if __name__ == "__main__":
    main()
