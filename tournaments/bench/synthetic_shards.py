#!/usr/bin/env python3
"""Writes the results folders of a sharded tournament without playing it,
to measure `referee merge` at the scale of a league: BOTS bots in a round
robin, GAMES_PER_PAIRING games a pairing, SHARDS shard folders OUT/shard-I
as `referee tournament --shard I/SHARDS` writes them (tournament.toml and
.json, referee.key, games.csv; with --transcripts a transcript a game).
The transcripts of a shard are hard links to one file of about 4 KB, the
size of an Arrow 5 game's between the sample bots: merge links (or copies)
each transcript whatever its content, and a million links are made in
seconds where a million files take an hour.

    python3 tournaments/bench/synthetic_shards.py 1000 2 100 /tmp/league --transcripts
    time target/release/referee merge /tmp/league/shard-* --out /tmp/league/merged

Games = BOTS * (BOTS - 1) / 2 * GAMES_PER_PAIRING. The results are drawn
from a fixed seed, with a strength per bot so that ratings spread as in a
real league; every folder gets the same made-up key.
"""
import json
import os
import random
import sys

HEADER = (
    "game,seed,bot_a,bot_b,first,result,winner,reason,attacks_a,attacks_b,"
    "verdict_a,verdict_b,replies_a,replies_b,time_total_ms_a,time_max_ms_a,"
    "time_total_ms_b,time_max_ms_b,cpu_ms_a,cpu_ms_b,cpu_max_ms_a,cpu_max_ms_b,"
    "peak_memory_kb_a,peak_memory_kb_b,detail\n"
)
KEY = "5a" * 32


def transcript(seed, a, b):
    """About 4 KB of JSON lines, as an Arrow 5 game writes them."""
    lines = [json.dumps({"type": "header", "version": 1, "game": "arrow5",
                         "variant": "classic", "seed": seed, "bots": [a, b]})]
    for t in range(48):
        lines.append(json.dumps({"type": "message", "t_us": 1000 * t,
                                 "bot": "ab"[t % 2], "dir": "from",
                                 "line": "8 6 4 7 2"}))
    return "\n".join(lines) + "\n"


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with_transcripts = "--transcripts" in sys.argv
    bots, per_pairing, shards, out = int(args[0]), int(args[1]), int(args[2]), args[3]
    names = [f"bot-{i}" for i in range(bots)]
    rng = random.Random(1)
    strength = [rng.gauss(0, 1) for _ in names]
    toml = 'name = "league"\ngame = "arrow5"\nseed = 1\n'
    toml += f"games_per_pairing = {per_pairing}\n"
    toml += "".join(f'[[bots]]\nname = "{n}"\nbot = "./bot"\n' for n in names)
    total = bots * (bots - 1) // 2 * per_pairing
    files = []
    for shard in range(1, shards + 1):
        folder = os.path.join(out, f"shard-{shard}")
        os.makedirs(os.path.join(folder, "transcripts"), exist_ok=True)
        with open(os.path.join(folder, "tournament.toml"), "w") as f:
            f.write(toml)
        meta = {"version": 1, "name": "league", "game": "arrow5", "bots": names,
                "scoring": [2, 1, 0], "total_games": total, "shard": [shard, shards]}
        with open(os.path.join(folder, "tournament.json"), "w") as f:
            json.dump(meta, f, indent=2)
        with open(os.path.join(folder, "referee.key"), "w") as f:
            f.write(KEY + "\n")
        if with_transcripts:
            with open(os.path.join(folder, "transcript.jsonl"), "w") as f:
                f.write(transcript(shard, "bot-0", "bot-1"))
        games = open(os.path.join(folder, "games.csv"), "w")
        games.write(HEADER)
        files.append((folder, games))
    number = 0
    for i in range(bots):
        for j in range(i + 1, bots):
            for k in range(per_pairing):
                number += 1
                a, b = (i, j) if k % 2 == 0 else (j, i)
                folder, games = files[number % shards - 1]
                seed = rng.getrandbits(53)
                edge = strength[a] - strength[b]
                roll = rng.random()
                if roll < 0.2:
                    result, winner = "draw", ""
                elif roll < 0.6 + 0.2 * max(-1, min(1, edge)):
                    result, winner = "a", names[a]
                else:
                    result, winner = "b", names[b]
                games.write(
                    f"{number},{seed},{names[a]},{names[b]},{names[a]},{result},{winner},"
                    f"cracked,4,5,ok,ok,5,6,2.591,1.919,5.483,4.713,5.134,5.16,1.877,"
                    f"1.908,5356,5260,\n"
                )
                if with_transcripts:
                    os.link(os.path.join(folder, "transcript.jsonl"),
                            os.path.join(folder, "transcripts", f"game-{number:06}.jsonl"))
    for folder, games in files:
        games.close()
        if with_transcripts:
            os.remove(os.path.join(folder, "transcript.jsonl"))
    print(f"{total} games in {shards} shard folders under {out}")


main()
