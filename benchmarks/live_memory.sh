#!/usr/bin/env bash
# Memory over many sorted frames: a 320x240 test source of SECONDS x 1000 frames (a nominal
# 1000 fps; 108 s is an hour's frames at 30 fps) sorted (1) as a clip into --out by bitonic and
# radix, and odd-even over SHORT x 1000 frames, every frame sorted, and (2) as a live source sent
# at its own rate through a named pipe, bitonic; the process's RSS sampled every 2 s, printed at
# the first sample, the quarters and the last.
#   benchmarks/live_memory.sh BINARY [SECONDS] [SHORT]
# ffmpeg is $SHADERSORT_FFMPEG, else ffmpeg on PATH (needs libx264).
set -u
bin=$1
secs=${2:-108}
short=${3:-20}
ff=${SHADERSORT_FFMPEG:-ffmpeg}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
for n in "$secs" "$short"; do
    "$ff" -v error -nostdin -f lavfi -i "testsrc2=size=320x240:rate=1000:duration=$n" \
        -c:v libx264 -preset ultrafast -g 250 -f matroska -y "$w/src$n.mkv"
done
watch_rss() { # NAME PID
    : > "$w/$1.rss"
    local start
    start=$(date +%s.%N)
    while kill -0 "$2" 2>/dev/null; do
        echo "$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN{printf "%.0f", a-b}') $(ps -o rss= -p "$2" | tr -d ' ')" >> "$w/$1.rss"
        sleep 2
    done
    awk 'NF==2 && $2>0 {a[++n]=$0} END {print "RSS (s kB): first", a[1], "| 25%", a[int(n/4)+1], "| 50%", a[int(n/2)+1], "| 75%", a[int(3*n/4)+1], "| last", a[n], "|", n, "samples"}' "$w/$1.rss"
}
for run in "bitonic:$secs" "radix:$secs" "odd-even:$short"; do
    alg=${run%%:*}
    n=${run##*:}
    echo "== clip, $alg, $((n * 1000)) frames"
    "$bin" "$w/src$n.mkv" --out "$w/o.mkv" --codec mpeg4 --algorithm "$alg" > "$w/clip.log" 2>&1 &
    watch_rss "clip-$alg" $!
    grep -v '^sorting' "$w/clip.log" | tail -n 1
done
echo "== live, bitonic, $((secs * 1000)) frames at their rate"
mkfifo "$w/pipe"
("$ff" -v error -nostdin -re -i "$w/src$secs.mkv" -c copy -f matroska -y "$w/pipe") &
sender=$!
"$bin" --live "$w/pipe" --duration "$secs" --out "$w/l.mkv" --codec mpeg4 > "$w/live.log" 2>&1 &
watch_rss live $!
kill "$sender" 2>/dev/null
wait "$sender" 2>/dev/null
grep -v '^recording' "$w/live.log" | tail -n 1
