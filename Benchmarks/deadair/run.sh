#!/usr/bin/env bash
# Cutting dead air: reel against auto-editor 23.32.1 on real speech with pauses.
#
#   Benchmarks/deadair/run.sh FOOTAGE_DIR [REEL] [AUTO_EDITOR] [RUNS]
#
# FOOTAGE_DIR holds Megamind.avi and bbb.mp4 (Fixtures/fetch-real-footage.sh DIR); the
# talk-like clip is made from them and alsa-utils' recorded voice (make_talk.py). REEL defaults
# to .build/release/reel, AUTO_EDITOR to auto-editor on the PATH (see README.md for the
# install), RUNS (hyperfine runs per command) to 3. Needs ffmpeg, ffprobe, hyperfine, python3.
# Writes its files to $WORK (default: a new temporary directory, kept) and prints, per clip, the
# cut lists compared with the silence edges (compare.py) and hyperfine's timings.
set -euo pipefail
footage=${1:?footage directory (Fixtures/fetch-real-footage.sh DIR)}
reel=$(realpath "${2:-.build/release/reel}")
ae=${3:-auto-editor}
runs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$(mktemp -d /tmp/deadair-bench.XXXXXX)}
mkdir -p "$work"
echo "files in $work"

[[ -e $work/talk.mp4 ]] || python3 "$here/make_talk.py" "$footage" "$work/talk.mp4"
cp -n "$footage/Megamind.avi" "$work/Megamind.avi"

# auto-editor's default edit is audio:threshold=0.04 with --margin 0.2sec; reel's
# --cut-silence defaults to 4% of the peak with 0.2 s margins. auto-editor cuts any gap left
# after the margins (down to one frame); reel keeps gaps under --min-pause (0.5 s by default),
# so the "equivalent" run sets it to 0.05 s.
aeflags=(--my-ffmpeg --no-open --progress none --edit audio:threshold=0.04 --margin 0.2sec)
for clip in Megamind.avi talk.mp4; do
  name=${clip%.*}
  in=$work/$clip
  rate=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$in")
  rate=$(python3 -c "from fractions import Fraction; print(float(Fraction('$rate')))")
  "$here/silences.sh" "$in" > "$work/$name.silences"
  "$reel" compress "$in" --cut-silence --silence-level 4% --silence-margin 0.2s --dry-run --json \
    -o "$work/$name-reel.mp4" > "$work/$name-reel.json"
  "$reel" compress "$in" --cut-silence --silence-level 4% --silence-margin 0.2s --min-pause 0.05s --dry-run --json \
    -o "$work/$name-reel.mp4" > "$work/$name-reel-equivalent.json"
  "$ae" "$in" "${aeflags[@]}" --export timeline:api=1 > "$work/$name-ae.json"
  echo "== $clip: reel's defaults (--min-pause 0.5s)"
  python3 "$here/compare.py" "$name" "$work/$name-reel.json" "$work/$name-ae.json" "$work/$name.silences" 0.2 "$rate"
  echo "== $clip: reel with --min-pause 0.05s (auto-editor cuts gaps down to a frame)"
  python3 "$here/compare.py" "$name" "$work/$name-reel-equivalent.json" "$work/$name-ae.json" "$work/$name.silences" 0.2 "$rate"

  # Finding the pauses alone: reel's plan (probe, sound decoded alone, cut list) against
  # auto-editor's timeline export (sound extracted to WAV, levels per frame, cut list).
  hyperfine --warmup 1 --runs 10 --export-json "$work/$name-hyperfine-detect.json" \
    -n "reel --cut-silence --dry-run" "$reel compress $in --cut-silence --dry-run --json -o $work/$name-reel.mp4" \
    -n "auto-editor --export timeline" "$ae $in ${aeflags[*]} --export timeline:api=1"

  # End to end: probe, find the pauses, encode the kept parts, write the file. auto-editor
  # re-encodes in the source's codec (MPEG-4 Part 2 for Megamind.avi, H.264 at 10 Mb/s for
  # talk.mp4); reel always writes H.264 (x264 medium, its default preset). For Megamind the
  # like-for-like runs are auto-editor with -c:v h264 and reel with --speed ultrafast against
  # auto-editor's MPEG-4.
  commands=(
    -n "reel --cut-silence" "$reel compress $in --cut-silence -o $work/$name-reel.mp4 --overwrite --quiet"
    -n "auto-editor" "$ae $in ${aeflags[*]} -o $work/$name-ae.mp4"
  )
  if [[ $clip == talk.mp4 ]]; then
    commands+=(-n "reel --cut-silence --speed veryfast" "$reel compress $in --cut-silence --speed veryfast -o $work/$name-reel-fast.mp4 --overwrite --quiet")
  fi
  if [[ $clip == Megamind.avi ]]; then
    commands+=(
      -n "auto-editor -c:v h264" "$ae $in ${aeflags[*]} -c:v h264 -o $work/$name-ae-h264.mp4"
      -n "reel --cut-silence --speed ultrafast" "$reel compress $in --cut-silence --speed ultrafast -o $work/$name-reel-fast.mp4 --overwrite --quiet"
    )
  fi
  hyperfine --warmup 1 --runs "$runs" --export-json "$work/$name-hyperfine.json" "${commands[@]}"
  for out in "$work/$name"-reel*.mp4 "$work/$name"-ae*.mp4; do
    printf '%s: ' "$(basename "$out")"
    ffprobe -v error -show_entries format=duration,size:stream=codec_name -of compact=p=0:nk=1 "$out" | tr '\n' ' '
    echo
  done
done
