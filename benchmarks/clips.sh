#!/usr/bin/env bash
# The Clips table of BENCHMARKS.md: `shadersort bench video` on a 1080p H.264 clip made from the
# astronaut photograph, along rows, at 30°, along rings and along rays, for each binary given (a
# baseline beside the build under test, taken in turn, layout by layout, so both see the same
# machine), then one line a run: decode + sort against ffmpeg decoding to RGBA, and the whole run
# against ffmpeg encoding the sorted frames alone. ffmpeg is $SHADERSORT_FFMPEG, else the PATH's.
#   benchmarks/clips.sh RUNS "ALGORITHM[:LAYOUT] ..." BINARY...
# e.g. benchmarks/clips.sh 3 "radix:rows radix:30 radix:rings radix:rays" before after
# LAYOUT is rows (the default), 30 (degrees), rings or rays. Logs stay in $CLIPS_DIR (default: a
# temporary folder, printed); the photograph is $CLIPS_PHOTO (default: ../shared/images/astronaut.png).
set -euo pipefail
runs=$1
cases=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
ffmpeg=${SHADERSORT_FFMPEG:-ffmpeg}
dir=${CLIPS_DIR:-$(mktemp -d)}
mkdir -p "$dir"
echo "logs in $dir; ffmpeg: $("$ffmpeg" -version | head -1)"
if [ ! -f "$dir/clip.mp4" ]; then
    "$ffmpeg" -v error -y -i "${CLIPS_PHOTO:-$here/../shared/images/astronaut.png}" -vf scale=1920:1080:flags=lanczos "$dir/photo.png"
    "$ffmpeg" -v error -y -loop 1 -i "$dir/photo.png" \
        -vf "zoompan=z='1+0.002*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1920x1080:fps=30,format=yuv420p" \
        -frames:v 300 -c:v libx264 -crf 20 -preset fast "$dir/clip.mp4"
fi
rows=()
for case in $cases; do
    algorithm=${case%%:*}
    layout=rows
    [ "$case" = "$algorithm" ] || layout=${case#*:}
    case $layout in
    rows) along=() ;;
    rings | rays) along=(--path "$layout") ;;
    *) along=(--angle "$layout") ;;
    esac
    for bin in "$@"; do
        log="$dir/$(basename "$bin")-$algorithm-$layout.log"
        "$bin" bench video "$dir/clip.mp4" --runs "$runs" \
            --sort "--algorithm $algorithm ${along[*]} --threshold 0.25..0.75" >"$log" 2>&1 ||
            { echo "failed: $bin $case (see $log)"; tail -3 "$log"; continue; }
        sort_line=$(grep '^| decode + sort' "$log")
        whole_line=$(grep '^| whole run' "$log")
        rows+=("$(printf '| %s | %s | %s | %s | %s | %s | %s |' "$(basename "$bin")" "$algorithm" "$layout" \
            "$(echo "$sort_line" | cut -d'|' -f3 | tr -d ' ')" \
            "$(echo "$sort_line" | grep -o '[0-9.]*x decode to RGBA' | cut -dx -f1)" \
            "$(echo "$whole_line" | cut -d'|' -f3 | tr -d ' ')" \
            "$(echo "$whole_line" | grep -o '[0-9.]*x encoding alone' | cut -dx -f1)")")
        echo "${rows[-1]}"
    done
done
echo
echo "medians of $runs; ratios against ffmpeg alone in the same call"
echo "| build | algorithm | along | decode + sort s | vs decode to RGBA | whole run s | vs encode alone |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
