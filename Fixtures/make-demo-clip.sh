#!/usr/bin/env bash
# Makes Fixtures/clips/demo.mov, the committed stand-in for a phone recording that the demo
# compresses with the `messaging` preset: 1920x1080, 30 fps, 6.0 s, H.264 High + AAC stereo 48 kHz,
# under 4 MB. Three 2 s parts with hard cuts at t=2.0 and t=4.0 (testsrc2, a mandelbrot zoom,
# Game of Life, seeded). Deterministic; prints nothing on success.
#
#   Fixtures/make-demo-clip.sh [OUTPUT]     (default: Fixtures/clips/demo.mov next to this script)
set -euo pipefail
export LC_ALL=C

out=${1:-"$(cd "$(dirname "$0")" && pwd)/clips/demo.mov"}
mkdir -p "$(dirname "$out")"
tmp="$(dirname "$out")/.tmp.$$.$(basename "$out")"
trap 'rm -f "$tmp"' EXIT

g="testsrc2=s=1920x1080:r=30:d=2,setsar=1[a];"
g+="mandelbrot=s=1920x1080:r=30:start_scale=1.5,trim=end_frame=60,setsar=1[b];"
g+="life=s=240x135:r=30:seed=7:ratio=0.3:mold=8:life_color=#ffd060:death_color=#202050:mold_color=#205080,"
g+="trim=end_frame=60,scale=1920:1080:flags=neighbor,setsar=1[c];"
g+="[a][b][c]concat=n=3:v=1:a=0,format=yuv420p[v];"
g+="sine=f=440:beep_factor=4:r=48000:d=6[l];sine=f=550:beep_factor=4:r=48000:d=6[r];"
g+="[l][r]join=inputs=2:channel_layout=stereo[tone];"
g+="anoisesrc=seed=42:color=pink:amplitude=0.05:r=48000:d=6,aformat=channel_layouts=stereo[noise];"
g+="[tone][noise]amix=inputs=2:normalize=0[aud]"

# No -maxrate: x264's VBV with 2 threads gives different bytes run to run; crf 28 lands at ~3.5 MB.
# (The gradients source is not deterministic in 5.1 either, hence Life.)
ffmpeg -hide_banner -loglevel error -nostdin -y -filter_complex "$g" -map "[v]" -map "[aud]" \
  -c:v libx264 -preset medium -profile:v high -crf 28 -g 30 \
  -threads 2 -c:a aac -b:a 128k -movflags +faststart \
  -fflags +bitexact -flags:v +bitexact -flags:a +bitexact "$tmp"
mv -f "$tmp" "$out"
