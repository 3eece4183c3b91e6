#!/bin/sh
# Wall and CPU time of reel against the ffmpeg CLI at identical SVT-AV1 and libvpx-vp9 settings
# on 10 s of 720p Big Buck Bunny, run alternately. Prints CSV: tool,codec,run,wall,cpu,bytes.
# The CRF the ffmpeg CLI gets is the one reel reports (--json encoding.constantRateFactor), rounded
# half up as reel rounds it for the encoder. CODECS="av1" runs one codec.
# Usage: REEL=.build/release/reel Benchmarks/codecs/wall.sh [footage-dir] [work-dir]
set -eu
footage=${1:-/tmp/footage}
work=${2:-/tmp/reel-codec-wall}
reel=${REEL:-.build/release/reel}
runs=${RUNS:-3}
mkdir -p "$work"
clip="$work/bbb10.mp4"
[ -f "$clip" ] || ffmpeg -v error -y -ss 60 -t 10 -i "$footage/bbb.mp4" -an -c:v libx264 -preset ultrafast -crf 16 "$clip"
timed() { # label codec run command...
    label=$1 codec=$2 run=$3 out=$4; shift 4
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    set -- $(cat "$work/time")
    echo "$label,$codec,$run,$1,$(echo "$2 + $3" | bc),$(stat -c %s "$out")"
}
echo "tool,codec,run,wall,cpu,bytes"
for codec in ${CODECS:-av1 vp9}; do
    "$reel" compress "$clip" -o "$work/reel-$codec.mkv" --codec "$codec" --speed medium --rate-control quality \
        --quality 0.6 --no-content-aware --no-audio --keyint 240 --overwrite --json -q > "$work/reel.json"
    crf=$(python3 -c "import json,sys; import math; print(math.floor(json.load(open('$work/reel.json'))['result']['encoding']['constantRateFactor'] + 0.5))")
    for run in $(seq "$runs"); do
        timed reel "$codec" "$run" "$work/reel-$codec.mkv" "$reel" compress "$clip" -o "$work/reel-$codec.mkv" --codec "$codec" \
            --speed medium --rate-control quality --quality 0.6 --no-content-aware --no-audio --keyint 240 --overwrite -q
        if [ "$codec" = av1 ]; then
            timed ffmpeg av1 "$run" "$work/ff-av1.mkv" ffmpeg -v error -y -i "$clip" -an -c:v libsvtav1 -preset 8 -crf "$crf" \
                -g 240 "$work/ff-av1.mkv"
        else
            timed ffmpeg vp9 "$run" "$work/ff-vp9.mkv" ffmpeg -v error -y -i "$clip" -an -c:v libvpx-vp9 -deadline good \
                -cpu-used "${VP9_CPU:-4}" -row-mt 1 -tile-columns 2 -crf "$crf" -b:v 0 -g 240 "$work/ff-vp9.mkv"
        fi
    done
done
