"""Fixture judge: "unique", for 2 to 6 players. Each round every player
still in picks a number 1-9 at once (a simultaneous ask); the highest pick
that nobody else picked scores a point. After `rounds` rounds (option,
default 3) the players are ranked by points, ties sharing a place. A
player the referee puts out (`out`) picks no more; the round goes on.
Option `min` (default 2): the fewest players it takes."""
import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    message = json.loads(line)
    if message["type"] == "stop":
        sys.exit(0)
    return message


start = read()
assert start["type"] == "start"
players = start["players"]
rounds = int(start["options"].get("rounds", 3))
points = [0] * players
active = list(range(players))
letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def asks():
    return [{"player": p, "line": "pick"} for p in active]


send({"type": "ready", "protocol": 1, "game": "unique",
      "min_players": int(start["options"].get("min", 2)),
      "max_players": 6,
      "tell": [{"player": p, "line": "unique %d %d %d" % (players, p, rounds)}
               for p in range(players)],
      "ask": asks(),
      "frame": {"hud": {letters[p]: "0" for p in range(players)}, "text": "round 1"}})
for number in range(1, rounds + 1):
    waiting = list(active)
    picks = {}
    while waiting:
        message = read()
        player = message["player"]
        if message["type"] == "out":
            # Also right after our own `protocol` answer for that player.
            active.remove(player)
            waiting.remove(player)
        else:
            line = message["line"].strip()
            if not line.isdigit() or not 1 <= int(line) <= 9:
                # The player is out: the referee's next message says so.
                send({"type": "protocol", "detail": "expected a number 1-9, got '%s'" % line[:20]})
                continue
            waiting.remove(player)
            picks[player] = int(line)
        if waiting:
            send({"type": "turn"})
    counts = {}
    for pick in picks.values():
        counts[pick] = counts.get(pick, 0) + 1
    unique = [pick for pick, n in counts.items() if n == 1]
    scorer = None
    if unique:
        best = max(unique)
        scorer = [p for p, pick in picks.items() if pick == best][0]
        points[scorer] += 1
    shown = " ".join("%s=%s" % (letters[p], picks.get(p, "-")) for p in range(players))
    turn = {"type": "turn",
            "tell": [{"player": p, "line": "round %d %s" % (number, shown)} for p in active],
            "log": "round %d: %s, %s scores" % (number, shown,
                                                 letters[scorer] if scorer is not None else "nobody"),
            "frame": {"hud": {letters[p]: str(points[p]) for p in range(players)},
                      "text": "round %d: %s" % (number, shown)}}
    if number == rounds:
        # Ranks: how many players have strictly more points.
        ranks = [sum(1 for q in points if q > points[p]) for p in range(players)]
        turn["end"] = {"ranks": ranks, "reason": "most-points", "scores": points}
    else:
        turn["ask"] = asks()
    send(turn)
read()
