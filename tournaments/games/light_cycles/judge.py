#!/usr/bin/env python3
"""Light Cycles for the referee, 3 to 6 players (rules: README.md beside
this file).

Every turn each cycle still riding moves one cell at once (a simultaneous
ask of every live player). A cycle that leaves the grid, runs into a wall
or any trail (its own too), or into the cell another cycle enters on the
same turn, crashes and is out; its trail stays. The last cycle riding
wins; cycles out on the same turn share their place. At the turn limit the
cycles still riding are placed by the territory they hold (the free cells
they reach before any other cycle).
"""

import math

from referee_judge import Judge

LETTERS = "ABCDEF"
COLOURS = ("#e33", "#37e", "#eb2", "#3b4", "#a4d", "#f83")
WALL_COLOUR = "#555"
STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
WALL = -1  # board value of a wall; a player's index is its trail


def main():
    judge = Judge("light_cycles", min_players=3, max_players=6)
    judge.check_options(["width", "height", "turns", "walls"])
    width = judge.option("width", 20, low=8, high=40)
    height = judge.option("height", 20, low=8, high=40)
    turns = judge.option("turns", 400, low=1, high=2000)
    walls = judge.option("walls", 0, low=0, high=width * height // 4)
    players = judge.players
    names = judge.names or [LETTERS[p] for p in range(players)]

    board = {}  # (x, y) -> WALL or the player whose trail it is
    heads = start_cells(players, width, height)
    for p, cell in enumerate(heads):
        board[cell] = p
    wall_cells = draw_walls(judge.random, walls, width, height, heads)
    for cell in wall_cells:
        board[cell] = WALL
    alive = list(range(players))
    out_turn = [None] * players  # the turn each player went out, None while riding
    how_out = [""] * players  # why: crashed, or the player's verdict
    moves = [0] * players

    def frame(text):
        cells = [[""] * width for _ in range(height)]
        colours = [[""] * width for _ in range(height)]
        # Text too, for the text replay: a wall #, a trail its player's
        # small letter, a cycle its capital.
        for (x, y), owner in board.items():
            colours[y][x] = WALL_COLOUR if owner == WALL else COLOURS[owner]
            cells[y][x] = "#" if owner == WALL else LETTERS[owner].lower()
        for p in alive:
            x, y = heads[p]
            cells[y][x] = LETTERS[p]
        hud = {}
        for p in range(players):
            state = "riding" if out_turn[p] is None else "out on turn %d (%s)" % (out_turn[p], how_out[p])
            hud[LETTERS[p]] = "%s: %s, %d moves" % (names[p], state, moves[p])
        hud["turn"] = "%d of %d" % (turn, turns)
        judge.frame({"grid": {"rows": height, "cols": width, "cells": cells, "colours": colours}, "hud": hud, "text": text})

    def positions():
        words = []
        for p in range(players):
            x, y = heads[p] if out_turn[p] is None else (-1, -1)
            words += [str(x), str(y)]
        return " ".join(words)

    def parse(reply):
        word = reply.line.strip().upper()
        if word not in STEPS:
            return ("protocol", "expected a direction N, E, S or W, got '%s'" % shorten(reply.line))
        return None

    for p in range(players):
        judge.tell(p, "cycles %d %d %d %d" % (players, width, height, p))
        judge.tell(p, "walls %d%s" % (len(wall_cells), "".join(" %d %d" % c for c in wall_cells)))
    turn = 1
    frame("%d cycles on a %dx%d grid" % (players, width, height))
    while True:
        for p in alive:
            judge.ask(p, "turn %d %s" % (turn, positions()))
        replies, out = judge.send_together(check=parse)
        # Players disqualified this turn (a verdict) stop where they are.
        for p in sorted(out):
            if p in alive:
                alive.remove(p)
                out_turn[p], how_out[p] = turn, out[p]
        targets = {}
        for p in alive:
            dx, dy = STEPS[replies[p].line.strip().upper()]
            targets[p] = (heads[p][0] + dx, heads[p][1] + dy)
            moves[p] += 1
        entering = {}
        for p, cell in targets.items():
            entering.setdefault(cell, []).append(p)
        crashed = []
        for p, cell in sorted(targets.items()):
            x, y = cell
            if not (0 <= x < width and 0 <= y < height) or cell in board or len(entering[cell]) > 1:
                crashed.append(p)
        for p, cell in sorted(targets.items()):
            if p not in crashed:
                heads[p] = cell
                board[cell] = p
        for p in crashed:
            alive.remove(p)
            out_turn[p], how_out[p] = turn, "crashed"
        gone = sorted(set(crashed) | set(out))
        news = ", ".join("%s %s out (%s)" % (LETTERS[p], names[p], how_out[p]) for p in gone)
        text = "turn %d: %s" % (turn, news or "all ride on")
        if news:  # the account tells only who went out
            judge.log(text)
        judge.moves(moves)
        if len(alive) <= 1 or turn == turns:
            finish(judge, alive, out_turn, how_out, board, heads, width, height, turn, names)
            frame(text + ": " + ("the turn limit" if turn == turns and len(alive) > 1 else "the game is over"))
            judge.send()  # the referee answers stop: the judge exits
            return
        frame(text)
        turn += 1


def finish(judge, alive, out_turn, how_out, board, heads, width, height, turn, names):
    """Ends the game: the players with a verdict share the last place
    (as the referee's records have it); the others are placed by the turn
    their cycle went out (later is better), then, among those riding at
    the turn limit, by territory."""
    players = len(out_turn)
    survival = [turn + 1 if t is None else t for t in out_turn]
    land = territory(board, [heads[p] for p in alive], width, height)
    held = {p: land[i] for i, p in enumerate(alive)}
    fair = [how_out[p] in ("", "crashed") for p in range(players)]
    key = [(fair[p], survival[p] if fair[p] else 0, held.get(p, 0)) for p in range(players)]
    ranks = [sum(1 for q in range(players) if key[q] > key[p]) for p in range(players)]
    firsts = [p for p in range(players) if ranks[p] == 0]
    if len(alive) == 1:
        reason = "last-cycle"
    elif not alive:
        reason = "all-crashed"
    else:
        reason = "turn-limit"
    winner = firsts[0] if len(firsts) == 1 else None

    def fate(p):
        if p not in held:
            return "out on turn %d (%s)" % (out_turn[p], how_out[p])
        return "riding, %d cells of territory" % held[p] if reason == "turn-limit" else "riding"

    judge.end(winner=winner, reason=reason, scores=[survival[p] - 1 for p in range(players)], ranks=ranks)
    judge.summary(
        ["%s: place %d, %s" % (names[p], ranks[p] + 1, fate(p)) for p in range(players)]
    )


def territory(board, heads, width, height):
    """For each head, the free cells it reaches strictly before every other
    head (a breadth-first search from all heads at once)."""
    owner = {}  # cell -> index of the head that reaches it first, or None for a tie
    frontier = []
    for i, cell in enumerate(heads):
        owner[cell] = i
        frontier.append(cell)
    counts = [0] * len(heads)
    while frontier:
        reached = {}
        for cell in frontier:
            if owner[cell] is None:
                continue
            for dx, dy in STEPS.values():
                nxt = (cell[0] + dx, cell[1] + dy)
                if not (0 <= nxt[0] < width and 0 <= nxt[1] < height) or nxt in board or nxt in owner:
                    continue
                if nxt in reached and reached[nxt] != owner[cell]:
                    reached[nxt] = None
                else:
                    reached[nxt] = reached.get(nxt, owner[cell])
        frontier = sorted(reached)
        for cell in frontier:
            owner[cell] = reached[cell]
            if reached[cell] is not None:
                counts[reached[cell]] += 1
    return counts


def start_cells(players, width, height):
    """The cycles' starts: evenly spaced on an ellipse around the centre,
    the first at the top, clockwise."""
    cells = []
    for p in range(players):
        angle = 2 * math.pi * p / players
        x = int(round((width - 1) / 2 + (width - 1) * 0.35 * math.sin(angle)))
        y = int(round((height - 1) / 2 - (height - 1) * 0.35 * math.cos(angle)))
        cells.append((x, y))
    return cells


def draw_walls(random, count, width, height, heads):
    """`count` wall cells drawn from the game's seed, none within two
    steps of a start; listed in the order drawn."""
    free = [
        (x, y)
        for y in range(height)
        for x in range(width)
        if all(abs(x - hx) + abs(y - hy) > 2 for hx, hy in heads)
    ]
    return random.sample(free, min(count, len(free)))


def shorten(line, most=60):
    return line if len(line) <= most else line[:most] + "…"


if __name__ == "__main__":
    main()
