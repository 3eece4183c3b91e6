#!/usr/bin/env bash
# Measures reel's virtual camera on real footage against a centre crop of the same size, for
# 9:16 and 1:1: Benchmarks/framing/run.sh FOOTAGE_DIR [REEL]. Needs opencv-python-headless 4.10
# (the evaluator's own detectors; see eval.py). Prints one JSON line per clip and shape.
set -euo pipefail
footage=${1:?footage directory (Fixtures/fetch-real-footage.sh DIR)}
reel=${2:-.build/release/reel}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for clip in Megamind.avi vtest.avi bikes.mp4 carphone_pristine.mp4 bigbuckbunny.mp4 trailer_bbb.mp4; do
  for aspect in 9:16 1:1; do
    plan="$work/plan.json"
    "$reel" compress "$footage/$clip" --aspect "$aspect" -o "$work/out.mp4" --dry-run --json > "$plan"
    python3 "$here/eval.py" "$footage/$clip" "$plan"
  done
done
