#!/usr/bin/env bash
# A live stream's latency and dropped frames: a 1080p 60 fps H.264 MPEG-TS stream (a moving test
# picture and a tone) that ffmpeg sends over UDP on the loopback at its own rate, recorded sorted
# by `shadersort --live ... --duration SECONDS --out live.mkv` once for each set of sort flags.
# Prints each run's closing line: frames received, sorted and dropped, and the latency from a
# frame's arrival to its sorted frame read back (median, 95th, slowest).
#   benchmarks/live.sh BINARY SECONDS "SORT FLAGS" ["SORT FLAGS" ...]
# ffmpeg is $SHADERSORT_FFMPEG, else ffmpeg on PATH (needs libx264 and aac).
set -euo pipefail
bin=$1
seconds=$2
shift 2
ff=${SHADERSORT_FFMPEG:-ffmpeg}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
length=$((seconds + 6))
"$ff" -v error -nostdin -f lavfi -i "testsrc2=size=1920x1080:rate=60:duration=$length" \
    -f lavfi -i "sine=frequency=440:duration=$length" -c:v libx264 -preset veryfast -tune zerolatency \
    -g 60 -b:v 12M -c:a aac -f mpegts "$dir/stream.ts"
for flags in "$@"; do
    port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    (sleep 2; "$ff" -v error -nostdin -re -i "$dir/stream.ts" -c copy -f mpegts "udp://127.0.0.1:$port?pkt_size=1316") &
    sender=$!
    echo "== ${flags:-(defaults)}"
    # shellcheck disable=SC2086 # the flags are words
    "$bin" --live "udp://127.0.0.1:$port?fifo_size=100000&overrun_nonfatal=1" --duration "$seconds" \
        --out "$dir/live.mkv" $flags 2>&1 | grep -v '^recording: \|XDG_RUNTIME_DIR' || true
    kill "$sender" 2>/dev/null || true
    wait "$sender" 2>/dev/null || true
done
