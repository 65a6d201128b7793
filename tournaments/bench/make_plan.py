#!/usr/bin/env python3
"""Writes a tournament file for benchmarks: N copies of the fast Rust sample
bots (strong and random, alternating) in a round robin, G games per pairing.

    python3 tournaments/bench/make_plan.py BOTS GAMES_PER_PAIRING > /tmp/bench.toml
    target/release/referee tournament /tmp/bench.toml --jobs 2 --out /tmp/bench-out

Games = BOTS * (BOTS - 1) / 2 * GAMES_PER_PAIRING.
"""
import os
import sys

bots, games = int(sys.argv[1]), int(sys.argv[2])
root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
print('name = "bench"\ngame = "arrow5"\nseed = 1')
print(f"games_per_pairing = {games}")
print('[options]\ncodes = "random"')
for i in range(bots):
    kind = "arrow5_strong" if i % 2 == 0 else "arrow5_random"
    # The copy's number as an argument (the bot ignores it): a tournament
    # keeps games by the bots' content, and copies of one file would share
    # their games.
    print(f'[[bots]]\nname = "{kind}-{i}"\nbot = "{root}/target/release/{kind} {i}"')
