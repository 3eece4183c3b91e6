#!/usr/bin/env bash
# Fetches real photos of real people that PyPI packages ship, for the face tests, into DIR
# (download only, each file checked against its sha256; never committed):
#   face_recognition 1.3.0 (MIT; its test images are official US government portraits):
#     obama.jpg obama2.jpg obama3.jpg obama_partial_face.jpg biden.jpg
#   scikit-image 0.22.0 (its data images are public domain): astronaut.png (Eileen Collins),
#     chelsea.png (a cat: no human face)
#
#   Fixtures/fetch-face-photos.sh DIR
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
DIR=$1
declare -A PHOTOS=(
  [obama.jpg]=0930e3aa8cae5920329c0c8cbc6a2ab70f47b0e67b432875beaa95cbf7e741f6
  [obama2.jpg]=a7efcc907375274796f39646510704aa86672d59f6d5469d69af3c85590976a6
  [obama3.jpg]=76ac6bf97c36dc2da0ad16a537d6a5ac1b10f48d49aac29a0cca9a17cdbc3ca3
  [obama_partial_face.jpg]=c2d1f09e7ef3042352b41e41286e6eb0522f64f88308be13886991b95db52117
  [biden.jpg]=3c17508bb91554c637a2eabddfae790e5bb1caba93130814fc2ac50be9760c4c
  [astronaut.png]=88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5
)
intact() { [[ -f $DIR/$1 ]] && [[ $(sha256sum "$DIR/$1" | cut -d' ' -f1) == "${PHOTOS[$1]}" ]]; }
missing=0
for name in "${!PHOTOS[@]}"; do intact "$name" || missing=1; done
[[ -f $DIR/chelsea.png && $missing == 0 ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$DIR"
python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$work" face_recognition==1.3.0
echo "5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec  $work/face_recognition-1.3.0.tar.gz" | sha256sum --check --quiet
tar -xzf "$work/face_recognition-1.3.0.tar.gz" -C "$work" face_recognition-1.3.0/tests/test_images
python3 -m pip download --quiet --no-deps --only-binary :all: --python-version 3.11 --implementation cp \
  --abi cp311 --platform manylinux2014_x86_64 --dest "$work" scikit-image==0.22.0
wheel=$work/scikit_image-0.22.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
echo "c5c378db54e61b491b9edeefff87e49fcf7fdf729bb93c777d7a5f15d36f743e  $wheel" | sha256sum --check --quiet
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2], ["skimage/data/astronaut.png", "skimage/data/chelsea.png"])' "$wheel" "$work"
for name in "${!PHOTOS[@]}"; do
  for candidate in "$work/face_recognition-1.3.0/tests/test_images/$name" "$work/skimage/data/$name"; do
    [[ -f $candidate ]] || continue
    echo "${PHOTOS[$name]}  $candidate" | sha256sum --check --quiet
    mv -f "$candidate" "$DIR/$name"
  done
done
mv -f "$work/skimage/data/chelsea.png" "$DIR/chelsea.png"
