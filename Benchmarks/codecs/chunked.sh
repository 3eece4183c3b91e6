#!/usr/bin/env bash
# A chunked encode against one encode of the same settings: sizes (video stream and whole file),
# SSIM of each against the source, and the chunks' cuts.
#   Benchmarks/codecs/chunked.sh SOURCE CHUNK_SECONDS [compress options...]
#   e.g. Benchmarks/codecs/chunked.sh trailer_bbb.mp4 15 --codec av1 --speed faster
# REEL (default .build/release/reel) is the binary; the work happens in a temporary directory.
set -euo pipefail
source=$(realpath "${1:?source video}"); chunk=${2:?chunk seconds}; shift 2
reel=$(realpath "${REEL:-.build/release/reel}")
ext=mp4
for arg in "$@"; do case $arg in webm|mkv) ext=$arg ;; esac; done
[[ " $* " == *" --codec vp9 "* && " $* " != *" --format "* ]] && ext=webm && set -- "$@" --format webm
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
"$reel" plan "$source" -o plan.json --chunk "${chunk}s" "$@" -q > plan.txt
jobs=$(python3 -c 'import json; p=json.load(open("plan.json")); print(len(p["chunks"]) + (p.get("audioIndex") is not None))')
for ((n = 0; n < jobs; n++)); do "$reel" encode-chunk plan.json --index "$n" -o chunks -q > /dev/null; done
"$reel" assemble plan.json --chunks chunks -o "joined.$ext" -q
"$reel" compress "$source" "$@" -o "single.$ext" -q
video() { ffprobe -v error -select_streams v:0 -show_entries packet=size -of csv=p=0 "$1" | awk '{s += $1} END {print s}'; }
# The source from the output's first picture for as long as the output lasts (--start/--end).
start=$(python3 -c 'import json; print(json.load(open("plan.json"))["range"]["start"]["value"] / json.load(open("plan.json"))["range"]["start"]["timescale"])')
ssim() {
  local length; length=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$1")
  ffmpeg -i "$1" -ss "$start" -t "$length" -i "$source" -lavfi '[0:v][1:v]ssim' -f null - 2>&1 | grep -o 'All:[0-9.]*' | cut -d: -f2
}
for file in "single.$ext" "joined.$ext"; do
  echo "$file: file $(stat -c %s "$file") B, video $(video "$file") B, SSIM $(ssim "$file")"
done
python3 -c 'import json; p=json.load(open("plan.json")); print("chunks (pictures):", [c["frames"] for c in p["chunks"]], "at shots:", [c["startsAtShot"] for c in p["chunks"]][1:])'
echo "ratio (file): $(python3 -c "import os; print(round(os.path.getsize('joined.$ext') / os.path.getsize('single.$ext'), 4))")"
