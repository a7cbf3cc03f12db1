#!/usr/bin/env bash
# The window's frame times on the software GPU: a 1024x1024 photo, the lens open, playing at
# 2000 passes/s for 12 s, one lane or side by side (C, then Space). Prints `--quit-after`'s line.
# Usage: benchmarks/window_frames.sh BINARY one|side PICTURE   (DISPLAY: an Xvfb with -noreset)
set -euo pipefail
bin=$(realpath "$1"); mode=$2; picture=$(realpath "$3")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg XDG_CONFIG_HOME=$work/config WGPU_BACKEND=${WGPU_BACKEND:-vulkan}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
cd "$work"
"$bin" "$picture" --play --speed 2000 --lens 200 --quit-after 12 >out.txt 2>err.txt &
app=$!
if [ "$mode" = side ]; then
    window=
    for _ in $(seq 100); do
        window=$(xdotool search --onlyvisible --name '^shadersort' 2>/dev/null | head -1) && [ -n "$window" ] && break
        sleep 0.1
    done
    sleep 1
    xdotool windowfocus --sync "$window" key c
    sleep 0.5
    xdotool key space
fi
wait $app
tail -1 out.txt
