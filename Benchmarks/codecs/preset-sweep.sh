#!/usr/bin/env bash
# x264's presets against `medium` at equal SSIM: what SourceRateAllowance.speedFactor is read
# from. Each clip is cut to a lossless FFV1 reference, encoded at six CRFs per preset, and
# measured with libavfilter's ssim; summarize with preset-ratio.py.
#   Benchmarks/codecs/preset-sweep.sh FOOTAGE_DIR UHD_CLIP > presets.txt
#   Benchmarks/codecs/preset-ratio.py presets.txt
# FOOTAGE_DIR from Fixtures/fetch-real-footage.sh; UHD_CLIP any 4K clip (the note's: 10 s of
# bbb.mp4 from 60 s, scaled to 3840x2160 and coded by x265 at its defaults, Main 10).
set -euo pipefail
footage=$1 uhd=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
ff() { ffmpeg -nostdin -loglevel error -y "$@"; }
ff -i "$uhd" -vf scale=1280:720:flags=bicubic,format=yuv420p -an -c:v ffv1 "$work/bbb4k.mkv"
ff -i "$footage/Megamind.avi" -an -c:v ffv1 "$work/mm.mkv"
ff -ss 20 -t 10 -i "$footage/vtest.avi" -an -c:v ffv1 "$work/vt.mkv"
for clip in bbb4k mm vt; do
  for preset in ultrafast superfast veryfast faster fast medium; do
    for crf in 17 20 23 26 29 32; do
      ff -i "$work/$clip.mkv" -c:v libx264 -preset $preset -crf $crf -an "$work/out.mp4"
      rate=$(ffprobe -v error -show_entries format=bit_rate -of csv=p=0 "$work/out.mp4")
      ssim=$(ffmpeg -nostdin -i "$work/out.mp4" -i "$work/$clip.mkv" -lavfi ssim -f null - 2>&1 | grep -o "All:[0-9.]*" | cut -d: -f2)
      echo "$clip $preset $crf $rate $ssim"
    done
  done
done
