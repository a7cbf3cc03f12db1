#!/usr/bin/env bash
# How long laying out a path's lines takes on the CPU (what a change of path costs a frame in the
# window, and what --path adds before a headless sort): the "lines and intervals found in N ms"
# that the command line logs at debug level, for rows and each path, the median of RUNS runs of
# each binary given (a baseline beside the build under test), on one picture.
#   benchmarks/path_layout.sh PICTURE RUNS BINARY...
set -euo pipefail
picture=$1
runs=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-10s' "path"
for bin in "$@"; do printf '%14s' "$(basename "$bin")"; done
printf '  (ms, median of %s)\n' "$runs"
for path in rows rings rays spiral hilbert; do
    printf '%-10s' "$path"
    for bin in "$@"; do
        flags=(--algorithm radix --passes 0 --out "$out/x.png")
        [ "$path" = rows ] || flags+=(--path "$path")
        times=()
        for _ in $(seq "$runs"); do
            line=$(RUST_LOG=shadersort=debug "$bin" "$picture" "${flags[@]}" 2>&1 | grep -o 'lines and intervals found in [0-9.]* ms' || true)
            times+=("$(echo "$line" | grep -o '[0-9.]*' | head -1)")
        done
        median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
        printf '%14s' "$median"
    done
    printf '\n'
done
