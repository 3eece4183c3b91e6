#!/bin/sh
# Rate-quality curves of x264, x265, SVT-AV1 and libvpx-vp9 on real footage, with the ffmpeg CLI
# (the same libraries Reel links). Each clip is first cut to a lossless FFV1 reference, so every
# encoder reads the same pictures and is measured against them (SSIM and PSNR, luma+chroma as
# libavfilter reports "All"). Prints CSV: clip,encoder,setting,rate,bytes,seconds,ssim,psnr.
# Usage: Benchmarks/codecs/curve.sh [footage-dir] [work-dir] > results.csv
set -eu
footage=${1:-/tmp/footage}
work=${2:-/tmp/reel-codec-curve}
mkdir -p "$work"
ref() { # name source start duration
    [ -f "$work/$1.mkv" ] || ffmpeg -v error -y -ss "$3" -t "$4" -i "$2" -an -sn -c:v ffv1 -pix_fmt yuv420p "$work/$1.mkv"
}
ref vtest "$footage/vtest.avi" 0 20
ref megamind "$footage/Megamind.avi" 0 11
ref bbb "$footage/bbb.mp4" 60 10
measure() { # clip encoder setting rate args...
    clip=$1 enc=$2 setting=$3 rate=$4; shift 4
    out="$work/$clip-$enc-$setting-$rate.mkv"
    start=$(date +%s.%N)
    ffmpeg -v error -y -i "$work/$clip.mkv" "$@" -an "$out"
    end=$(date +%s.%N)
    bytes=$(stat -c %s "$out")
    # Pictures are paired by their index, not their times: AVI sources with packed B frames
    # (Megamind) carry times that the comparison's frame sync would pair one frame off.
    pair="[0:v]settb=1/1000,setpts=N[a];[1:v]settb=1/1000,setpts=N[b];[a][b]"
    ssim=$(ffmpeg -i "$out" -i "$work/$clip.mkv" -lavfi "${pair}ssim" -f null - 2>&1 | sed -n 's/.*All:\([0-9.]*\).*/\1/p' | tail -1)
    psnr=$(ffmpeg -i "$out" -i "$work/$clip.mkv" -lavfi "${pair}psnr" -f null - 2>&1 | sed -n 's/.*average:\([0-9.inf]*\).*/\1/p' | tail -1)
    echo "$clip,$enc,$setting,$rate,$bytes,$(echo "$end - $start" | bc),$ssim,$psnr"
    rm -f "$out"
}
echo "clip,encoder,setting,rate,bytes,seconds,ssim,psnr"
for clip in ${CLIPS:-vtest megamind bbb}; do
    for crf in 20 23 26 29; do measure $clip libx264 medium $crf -c:v libx264 -preset medium -crf $crf; done
    for crf in 23 26 29 32; do measure $clip libx265 medium $crf -c:v libx265 -preset medium -crf $crf -x265-params log-level=error; done
    for crf in 28 32 36 40; do measure $clip libsvtav1 preset8 $crf -c:v libsvtav1 -preset 8 -crf $crf; done
    for crf in 28 33 38 43; do measure $clip libvpx-vp9 cpu3 $crf -c:v libvpx-vp9 -deadline good -cpu-used 3 -row-mt 1 -tile-columns 2 -crf $crf -b:v 0; done
    # Speed against size at one rate: the presets --speed maps onto.
    for preset in 6 10 12; do measure $clip libsvtav1 preset$preset 32 -c:v libsvtav1 -preset $preset -crf 32; done
    for cpu in 1 5; do measure $clip libvpx-vp9 cpu$cpu 33 -c:v libvpx-vp9 -deadline good -cpu-used $cpu -row-mt 1 -tile-columns 2 -crf 33 -b:v 0; done
done
