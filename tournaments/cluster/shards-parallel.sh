#!/bin/bash
# Plays a tournament as shards with GNU parallel, then merges them.
# From the repository root:
#
#   head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > shard.key && chmod 600 shard.key
#   tournaments/cluster/shards-parallel.sh
#
# HOSTS is a GNU parallel --sshloginfile: one ssh login a line (`:` is this
# machine). Every host needs the repository, its build and the key file at
# this folder's path. A host plays one shard at a time, with all its cores
# (the referee's default --jobs); after each shard, parallel copies the
# shard's folder back here (rsync, --return). Make more shards than hosts:
# a host that finishes early takes the next one. Once every shard is in,
# the script merges them into $RESULTS/merged.
#
# Settings, from the environment (relative paths are from this folder):
#   REFEREE     the referee binary            [target/release/referee]
#   TOURNAMENT  the tournament file           [tournaments/arrow5.toml]
#   KEY_FILE    the key every shard shares    [shard.key]
#   RESULTS     where the shard folders go    [results]
#   SHARDS      the number of shards          [8]
#   HOSTS       the ssh login file            [hosts.txt]
set -euo pipefail
referee=${REFEREE:-target/release/referee}
results=${RESULTS:-results}
shards=${SHARDS:-8}
mkdir -p "$results"
# --halt soon,fail=1: after a failed shard, start no other one (the ones
# running finish) and exit non-zero, so nothing is merged; a run again
# finishes every shard where it stopped (--resume).
parallel --sshloginfile "${HOSTS:-hosts.txt}" --workdir "$PWD" -j 1 --halt soon,fail=1 --quote \
    --return "$results/shard-{}" \
    "$referee" tournament "${TOURNAMENT:-tournaments/arrow5.toml}" \
    --key-file "${KEY_FILE:-shard.key}" --shard "{}/$shards" \
    --out "$results/shard-{}" --resume \
    ::: $(seq 1 "$shards")
folders=()
for i in $(seq 1 "$shards"); do folders+=("$results/shard-$i"); done
"$referee" merge "${folders[@]}" --out "$results/merged"
