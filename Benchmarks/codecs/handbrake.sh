#!/bin/sh
# Reel's AV1 against HandBrakeCLI's AV1 preset at the same bit rate on the same clips (issue 28):
# HandBrake 1.6.1's "AV1 MKV 2160p60 4K" (SVT-AV1 10-bit, preset 8, tune VQ, two passes when a
# bit rate is given) with -b RATE, against `reel compress --codec av1 --rate-control average
# --bitrate RATE --keyint 240` (SVT-AV1 preset 8 for --speed medium, one pass, HandBrake's
# 10 s keyframe interval instead of Reel's default 30 frames), both without sound, the
# picture at the source's size. Runs alternate. SSIM ("All") and PSNR (average) against the clip,
# 8-bit 4:2:0 both sides. Prints CSV: tool,clip,run,wall,cpu,bytes,ssim,psnr.
# Usage: REEL=.build/release/reel RATE=1000 Benchmarks/codecs/handbrake.sh [footage-dir] [work-dir]
set -eu
footage=${1:-/tmp/footage}
work=${2:-/tmp/reel-handbrake}
reel=${REEL:-.build/release/reel}
rate=${RATE:-1000}
runs=${RUNS:-2}
mkdir -p "$work"
# 20 s of Big Buck Bunny 720p (an x264-made source, re-encoded near-losslessly so both read the
# same pictures) and Megamind.avi (MPEG-4 Part 2, 720x528), decoded to FFV1 first.
[ -f "$work/bbb20.mkv" ] || ffmpeg -v error -y -ss 60 -t 20 -i "$footage/bbb.mp4" -an -c:v ffv1 "$work/bbb20.mkv"
[ -f "$work/megamind.mkv" ] || ffmpeg -v error -y -i "$footage/Megamind.avi" -an -c:v ffv1 "$work/megamind.mkv"
measure() { # output reference -> "ssim,psnr"
    ssim=$(ffmpeg -hide_banner -i "$1" -i "$2" -lavfi "[0:v]format=yuv420p[a];[1:v]format=yuv420p[b];[a][b]ssim" -f null - 2>&1 \
        | sed -n 's/.*All:\([0-9.]*\).*/\1/p')
    psnr=$(ffmpeg -hide_banner -i "$1" -i "$2" -lavfi "[0:v]format=yuv420p[a];[1:v]format=yuv420p[b];[a][b]psnr" -f null - 2>&1 \
        | sed -n 's/.*average:\([0-9.]*\).*/\1/p')
    echo "$ssim,$psnr"
}
timed() { # label clip run output command...
    label=$1 clip=$2 run=$3 out=$4; shift 4
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { tail -5 "$work/stderr" >&2; exit 1; }
    set -- $(cat "$work/time")
    echo "$label,$clip,$run,$1,$(echo "$2 + $3" | bc),$(stat -c %s "$out"),$(measure "$out" "$work/$clip.mkv")"
}
echo "tool,clip,run,wall,cpu,bytes,ssim,psnr"
for clip in ${CLIPS:-bbb20 megamind}; do
    for run in $(seq "$runs"); do
        timed handbrake "$clip" "$run" "$work/hb-$clip.mkv" HandBrakeCLI -i "$work/$clip.mkv" -o "$work/hb-$clip.mkv" \
            --preset "AV1 MKV 2160p60 4K" -b "$rate" -a none
        timed reel "$clip" "$run" "$work/reel-$clip.mkv" "$reel" compress "$work/$clip.mkv" -o "$work/reel-$clip.mkv" \
            --codec av1 --speed medium --rate-control average --bitrate "${rate}k" --keyint 240 --no-audio --no-content-aware \
            --overwrite -q
    done
done
