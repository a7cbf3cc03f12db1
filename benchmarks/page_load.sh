#!/usr/bin/env bash
# The page as served: its files' sizes (raw and gzipped) and how long headless Chromium takes from
# the start of loading to the picture shown ("shadersort: ready" in the console), each load with a
# fresh profile (nothing cached), over the loopback.
#   benchmarks/page_load.sh [RUNS]       (5 by default; needs chromium, python3)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
web/build.sh >&2
for file in web/dist/*; do
    printf '%-32s %10d bytes, %9d gzipped\n' "$(basename "$file")" "$(stat -c %s "$file")" "$(gzip -9 -c "$file" | wc -c)"
done
port=${PORT:-8123}
python3 -m http.server --bind 127.0.0.1 --directory web/dist "$port" >/dev/null 2>&1 &
server=$!
work=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
sleep 1
times=()
for run in $(seq "$runs"); do
    log="$work/chromium-$run.log"
    chromium --headless=new --no-sandbox --enable-unsafe-webgpu --enable-features=Vulkan \
        --use-vulkan=swiftshader --use-angle=vulkan --window-size=1280,800 --no-first-run \
        --user-data-dir="$work/profile-$run" --enable-logging=stderr --v=0 \
        --remote-debugging-port=0 "http://127.0.0.1:$port/" 2>"$log" >/dev/null &
    browser=$!
    for _ in $(seq 600); do
        grep -q "shadersort: ready" "$log" && break
        sleep 0.1
    done
    kill "$browser" 2>/dev/null; wait "$browser" 2>/dev/null || true
    ms=$(grep -o "shadersort: ready [0-9]*" "$log" | grep -o "[0-9]*$" || true)
    [ -n "$ms" ] || { echo "page_load: run $run never got ready; the browser's log: $log" >&2; exit 1; }
    echo "load $run: ready after $ms ms"
    times+=("$ms")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "page: median $median ms from loading to the picture shown over $runs loads"
