#!/bin/bash
# GIF and animated WebP against FFmpeg's two-pass palette recipe, on 8 s pieces of real footage.
#
#   Benchmarks/gif/bench.sh FOOTAGE_DIR [REEL]
#
# FOOTAGE_DIR holds bbb.mp4 and Megamind.avi (Fixtures/fetch-real-footage.sh FOOTAGE_DIR).
# Each piece is cut at 15 fps, full size (x264 crf 10), so that reel's frame reducer and
# ffmpeg's fps filter keep the same pictures and only the picture coding differs. SSIM is
# ffmpeg's ssim filter against the piece at 15 fps, 480 px wide (lanczos), in RGB; the WebP is
# decoded by Pillow (pip install pillow: FFmpeg 5.1 cannot decode animated WebP).
#
# For each piece: reel's GIF (the defaults: 15 fps, 480 px); the recipe's GIF; the recipe at
# reel's size (its palette cut to the most colours that fit, the knob the recipe has); and the
# smallest reel WebP (--quality from 0.85, libwebp's 100, down by 0.05) whose SSIM reaches the GIF's.
set -euo pipefail
footage=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
reel=$(cd "$(dirname "${2:-$here/../../.build/debug/reel}")" && pwd)/$(basename "${2:-reel}")
work=$here/../.work/gif
mkdir -p "$work"
cd "$work"

ssim() { # SRC OUT [rawvideo size for a WebP]
  if [[ $2 == *.webp ]]; then
    local size
    size=$(python3 -c "from PIL import Image; print('%dx%d' % Image.open('$2').size)")
    python3 "$here/webp_frames.py" "$2" 15 2>/dev/null | ffmpeg -nostats -i "$1" -f rawvideo -pix_fmt rgb24 -s "$size" -r 15 -i - \
      -lavfi "[0:v]fps=15,scale=480:-2:flags=lanczos,format=rgb24[r];[1:v]format=rgb24[d];[d][r]ssim" -f null - 2>&1 \
      | grep -o "All:[0-9.]*" | cut -d: -f2
  else
    ffmpeg -nostats -i "$1" -i "$2" \
      -lavfi "[0:v]fps=15,scale=480:-2:flags=lanczos,format=rgb24[r];[1:v]fps=15,format=rgb24[d];[d][r]ssim" -f null - 2>&1 \
      | grep -o "All:[0-9.]*" | cut -d: -f2
  fi
}
bytes() { stat -c %s "$1"; }

printf "| piece | reel GIF | recipe GIF | recipe at reel's size | reel WebP at the GIF's SSIM | WebP / GIF |\n"
printf "|---|---|---|---|---|---|\n"
for spec in "bbb-60 bbb.mp4 60" "bbb-300 bbb.mp4 300" "megamind-2 Megamind.avi 2"; do
  read -r name source start <<< "$spec"
  piece=$name.mp4
  [ -f "$piece" ] || ffmpeg -v error -y -ss "$start" -t 8 -i "$footage/$source" -an -vf fps=15 -c:v libx264 -crf 10 -preset fast "$piece"
  "$reel" compress "$piece" -o "$name-reel.gif" --overwrite -q
  ours=$(bytes "$name-reel.gif"); ours_ssim=$(ssim "$piece" "$name-reel.gif")
  ffmpeg -v error -y -i "$piece" -vf "fps=15,scale=480:-1:flags=lanczos,palettegen" "$name-pal.png"
  ffmpeg -v error -y -i "$piece" -i "$name-pal.png" -lavfi "fps=15,scale=480:-1:flags=lanczos[x];[x][1:v]paletteuse" "$name-recipe.gif"
  recipe=$(bytes "$name-recipe.gif"); recipe_ssim=$(ssim "$piece" "$name-recipe.gif")
  fitted="none fits"
  for colours in 256 224 192 160 128 96 64 48 32 24 16 12 8 6 4; do
    ffmpeg -v error -y -i "$piece" -vf "fps=15,scale=480:-1:flags=lanczos,palettegen=max_colors=$colours" "$name-pal.png"
    ffmpeg -v error -y -i "$piece" -i "$name-pal.png" -lavfi "fps=15,scale=480:-1:flags=lanczos[x];[x][1:v]paletteuse" "$name-fit.gif"
    if [ "$(bytes "$name-fit.gif")" -le "$ours" ]; then
      fitted="$(bytes "$name-fit.gif") B, SSIM $(ssim "$piece" "$name-fit.gif") ($colours colours)"
      break
    fi
  done
  webp="none reaches it"; ratio="-"
  for quality in 0.85 0.8 0.75 0.7 0.65 0.6 0.55 0.5 0.45 0.4 0.35 0.3 0.25 0.2; do
    "$reel" compress "$piece" -o "$name-$quality.webp" --quality "$quality" --overwrite -q
    value=$(ssim "$piece" "$name-$quality.webp")
    if python3 -c "import sys; sys.exit(0 if $value >= $ours_ssim else 1)"; then
      size=$(bytes "$name-$quality.webp")
      webp="$size B, SSIM $value (--quality $quality)"
      ratio=$(python3 -c "print('%.0f%%' % (100 * $size / $ours))")
    else
      break
    fi
  done
  printf "| %s | %s B, SSIM %s | %s B, SSIM %s | %s | %s | %s |\n" "$name" "$ours" "$ours_ssim" "$recipe" "$recipe_ssim" "$fitted" "$webp" "$ratio"
done
