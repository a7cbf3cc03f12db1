#!/usr/bin/env bash
# A live stream's latency and dropped frames: a 1080p 60 fps H.264 MPEG-TS stream (a moving test
# picture and a tone) that ffmpeg sends over UDP on the loopback at its own rate, recorded sorted
# by `shadersort --live ... --duration SECONDS --out live.mkv` once for each set of sort flags.
# Prints each run's closing line: frames received, sorted and dropped, and the latency from a
# frame's arrival to its sorted frame read back (median, 95th, slowest).
#   benchmarks/live.sh BINARY SECONDS "SORT FLAGS" ["SORT FLAGS" ...]
# ffmpeg is $SHADERSORT_FFMPEG, else ffmpeg on PATH (needs libx264 and aac). LIVE_FIFO=1 sends the
# stream through a named pipe instead (still at its own rate): a static ffmpeg whose network
# inputs crash can still send and receive it; LIVE_FORMAT=matroska streams Matroska rather than
# MPEG-TS (imageio-ffmpeg's static ffmpeg 7.0.2 crashes reading MPEG-TS on the lent machine).
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
    -g 60 -b:v 12M -c:a aac -f "${LIVE_FORMAT:-mpegts}" "$dir/stream.ts"
for flags in "$@"; do
    if [ "${LIVE_FIFO:-0}" = 1 ]; then
        rm -f "$dir/live.ts"
        mkfifo "$dir/live.ts"
        to="$dir/live.ts"
        from="$dir/live.ts"
    else
        port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
        to="udp://127.0.0.1:$port?pkt_size=1316"
        from="udp://127.0.0.1:$port?fifo_size=100000&overrun_nonfatal=1"
    fi
    (sleep 2; "$ff" -v error -nostdin -re -i "$dir/stream.ts" -c copy -f "${LIVE_FORMAT:-mpegts}" -y "$to") &
    sender=$!
    echo "== ${flags:-(defaults)}"
    # shellcheck disable=SC2086 # the flags are words
    "$bin" --live "$from" --duration "$seconds" \
        --out "$dir/live.mkv" $flags 2>&1 | grep -v '^recording: \|XDG_RUNTIME_DIR' || true
    kill "$sender" 2>/dev/null || true
    wait "$sender" 2>/dev/null || true
done
