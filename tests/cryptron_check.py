"""Independent check of a Cryptron transcript: re-simulates every move the
bots wrote, judging each by the rules text on its own (no code shared with
the referee), and prints the final points and winner as one JSON object.

Usage: python3 tests/cryptron_check.py TRANSCRIPT.jsonl

Board: absolute rows 0..7 from seat a's side. Seat a moves up, seat b moves
down; a move is written in its author's frame, so seat b's row r is absolute
row 7 - r. Player 1 (who moves first) is either seat: a coin toss or
`--first` decides it. The check reads it from the greeting (the seat sent
`1`) and checks that the record's `first` says the same.
"""
import json
import sys

POINTS = {7: 5, 6: 3, 5: 2, 4: 1}


def first_line_to(entries, seat):
    """The first line the referee sent to `seat` (its greeting)."""
    for e in entries:
        if e["type"] == "message" and e["dir"] == "to" and e["bot"] == seat:
            return e["line"]
    return None


def main(path):
    entries = [json.loads(line) for line in open(path) if line.strip()]
    header = entries[0]
    assert header["type"] == "header" and header["game"] == "cryptron", header
    moves = [(e["bot"], e["line"]) for e in entries
             if e["type"] == "message" and e["dir"] == "from"]
    greetings = {s: first_line_to(entries, s) for s in "ab"}
    player1 = [s for s in "ab" if greetings[s] == "1"]
    assert len(player1) == 1, f"exactly one seat is told 1: {greetings}"
    player1 = player1[0]
    assert greetings["b" if player1 == "a" else "a"] == "2", greetings
    result = entries[-1]
    if result.get("type") == "result" and "first" in result["record"]:
        assert result["record"]["first"] == player1, (result["record"]["first"], player1)
    # pos[seat] = list of absolute rows, one per droid
    pos = {"a": [0] * 6 + list(range(1, 7)), "b": [7] * 6 + list(range(1, 7))}
    up = {"a": 1, "b": -1}

    def absolute(seat, r):
        return r if seat == "a" else 7 - r

    def own(seat, r):
        return absolute(seat, r)  # the mirror is its own inverse

    def count(row):
        return pos["a"].count(row) + pos["b"].count(row)

    def fits(row):
        return row in (0, 7) or count(row) < 6

    def first_attacks(seat):
        return [r for r in range(7) if absolute(seat, r) in pos[seat]
                and fits(absolute(seat, r + 1))]

    def move_droid(seat, frm, to):
        pos[seat].remove(absolute(seat, frm))
        pos[seat].append(absolute(seat, to))

    def second_attacks(seat, length):
        return [r for r in range(8 - length) if length > 0
                and absolute(seat, r) in pos[seat] and fits(absolute(seat, r + length))]

    def over():
        a_low = min(pos["a"])
        b_high = max(pos["b"])
        if a_low > b_high:
            return "all-passed"
        if not first_attacks("a") and not first_attacks("b"):
            return "no-moves"
        return None

    seat = player1
    turns = 0
    for bot, line in moves:
        if over():
            break
        assert bot == seat, f"turn {turns + 1}: {bot} moved, {seat} was to move"
        i1, f1, i2, f2 = (int(x) for x in line.replace(" ", "").split(","))
        firsts = first_attacks(seat)
        if (i1, f1, i2, f2) == (0, 0, 0, 0):
            assert not firsts, f"turn {turns + 1}: pass while {firsts} possible"
        else:
            assert i1 in firsts and f1 == i1 + 1, f"turn {turns + 1}: bad first attack {line}"
            length = 1 if f1 == 7 else count(absolute(seat, f1))
            move_droid(seat, i1, f1)
            seconds = second_attacks(seat, length)
            if i2 == f2:
                assert not seconds, f"turn {turns + 1}: skipped second attack, {seconds} possible"
            else:
                assert i2 in seconds and f2 - i2 == length, f"turn {turns + 1}: bad second {line}"
                move_droid(seat, i2, f2)
        for r in range(1, 7):
            assert count(r) <= 6, f"row {r} over capacity"
        seat = "b" if seat == "a" else "a"
        turns += 1
    points = {s: sum(POINTS.get(own(s, r), 0) for r in pos[s]) for s in "ab"}
    winner = "a" if points["a"] > points["b"] else "b" if points["b"] > points["a"] else "draw"
    print(json.dumps({"points": points, "winner": winner, "turns": turns, "end": over()}))


if __name__ == "__main__":
    main(sys.argv[1])
