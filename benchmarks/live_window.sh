#!/usr/bin/env bash
# The window on a live 320x240 30 fps stream (MPEG-2 over UDP on the loopback) for SECONDS: its
# frame statistics, and the live line: frames shown, received and dropped, and the time from a
# frame's arrival until the window knew it drawn sorted (median, 95th, slowest).
#   benchmarks/live_window.sh BINARY [SECONDS]
# Needs Xvfb and ffmpeg; WGPU_BACKEND chooses the backend as for any run.
set -u
bin=$1
secs=${2:-20}
port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
display=$((90 + RANDOM % 100))
Xvfb ":$display" -noreset -screen 0 1280x800x24 > /dev/null 2>&1 &
xvfb=$!
sleep 1
(sleep 2; exec ffmpeg -v error -nostdin -re -f lavfi -i "testsrc2=size=320x240:rate=30:duration=$((secs + 20))" \
    -c:v mpeg2video -g 30 -q:v 4 -f mpegts "udp://127.0.0.1:$port?pkt_size=1316") &
sender=$!
runtime=$(mktemp -d)
DISPLAY=":$display" XDG_RUNTIME_DIR=$runtime "$bin" --live "udp://127.0.0.1:$port" --quit-after "$secs" 2>&1 \
    | grep -E '^window:|^live:'
kill "$sender" "$xvfb" 2>/dev/null
rm -rf "$runtime"
