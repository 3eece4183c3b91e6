#!/usr/bin/env bash
# Reel benchmark suite: reel vs the ffmpeg CLI and PySceneDetect on the same lavfi-made inputs,
# run alternately, medians of wall / CPU / peak RSS. Writes BENCHMARKS.md at the repository root.
#
#   Benchmarks/run.sh                               # everything (make bench)
#   BENCH_RUNS=5 Benchmarks/run.sh                  # runs per side (default 3)
#   BENCH_ONLY=compression,analysis Benchmarks/run.sh
#       sections: compression quality analysis reels memory faces realeval targetsize targetquality chunked
#   BENCH_FULL_RUNS=3                               # runs of the 10-minute full transcode (default 1)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
WORK="$BENCH_DIR/.work"
RES="$WORK/results"
OUT="$WORK/out"
IN="$WORK/inputs"
VENV="$BENCH_DIR/.venv"
REEL="${REEL:-$ROOT/.build/release/reel}"
RUNS="${BENCH_RUNS:-3}"
FULL_RUNS="${BENCH_FULL_RUNS:-1}"
ONLY="${BENCH_ONLY:-compression,quality,analysis,reels,memory,faces,realeval,targetsize,targetquality,chunked}"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
export LC_ALL=C

log() { printf '\n== %s\n' "$*" >&2; }
want() { [[ ",$ONLY," == *",$1,"* ]]; }

# ---------------------------------------------------------------- set-up
install_deps() {
    local missing=""
    command -v ffmpeg >/dev/null || missing="$missing ffmpeg"
    command -v hyperfine >/dev/null || missing="$missing hyperfine"
    [ -x /usr/bin/time ] || missing="$missing time"
    # realeval: captions on its contact sheets (the sheets are made without them otherwise)
    want realeval && [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] && missing="$missing fonts-dejavu-core"
    if [ -n "$missing" ]; then
        log "installing Debian packages:$missing"
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
    fi
    if [ ! -x "$VENV/bin/scenedetect" ] || ! "$VENV/bin/python" -c 'import cv2' 2>/dev/null; then
        log "installing scenedetect and opencv-python-headless into Benchmarks/.venv"
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install -q --upgrade pip
        "$VENV/bin/pip" install -q scenedetect opencv-python-headless
    fi
    if want faces && ! "$VENV/bin/python" -c 'import face_recognition' 2>/dev/null; then
        # The peer of the faces section builds dlib's Python module from source (cmake, minutes).
        command -v cmake >/dev/null || { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq cmake; }
        log "installing face_recognition (building dlib) into Benchmarks/.venv"
        "$VENV/bin/pip" install -q dlib==19.24.6 face_recognition==1.3.0
    fi
    [ -x "$REEL" ] || { echo "missing $REEL: run 'make release' first" >&2; exit 1; }
}

machine_info() {
    local f="$RES/machine.txt"
    {
        echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "cores (nproc): $(nproc)"
        echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
        echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
        echo "kernel: $(uname -r)"
        echo "reel: $("$REEL" --version 2>&1 | head -1)"
        echo "ffmpeg: $(ffmpeg -version | head -1)"
        echo "x264: $(dpkg-query -W -f='${Package} ${Version}' 'libx264-1*' 2>/dev/null | head -1 || echo unknown)"
        echo "x265: $(dpkg-query -W -f='${Package} ${Version}' 'libx265-1*' 2>/dev/null | head -1 || echo unknown)"
        echo "scenedetect: $("$VENV/bin/python" -c 'import scenedetect; print("PySceneDetect", scenedetect.__version__)' 2>/dev/null || echo unknown)"
        echo "opencv: $("$VENV/bin/python" -c 'import cv2; print(cv2.__version__)' 2>/dev/null || echo unknown)"
        echo "swift: $( (swift --version 2>/dev/null || /opt/swift/usr/bin/swift --version 2>/dev/null) | head -1)"
    } > "$f"
    cat "$f" >&2
}

# ---------------------------------------------------------------- measuring
# measure SECTION LABEL STDOUT_FILE CMD... : one timed run; appends
# "label wall user sys rss_kb" to $RES/SECTION.tsv. STDOUT_FILE may be /dev/null.
measure() {
    local section=$1 label=$2 stdout=$3; shift 3
    local tf="$WORK/time.$$"
    local stderr="$RES/$section.$label.stderr"
    if ! /usr/bin/time -f '%e %U %S %M' -o "$tf" "$@" > "$stdout" 2> "$stderr"; then
        echo "FAILED ($label): $*" >&2; tail -5 "$stderr" >&2
        echo "$label FAILED" >> "$RES/$section.tsv"
        return 0
    fi
    local t; t=$(tail -1 "$tf")
    printf '%s %s\n' "$label" "$t" >> "$RES/$section.tsv"
    printf '   %-28s wall %6ss  user %6ss  sys %5ss  rss %7s KB\n' "$label" $t >&2
    rm -f "$tf"
}

# record SECTION KEY VALUE: a fact for the summarizer ($RES/SECTION.facts, "key<TAB>value")
record() { printf '%s\t%s\n' "$2" "$3" >> "$RES/$1.facts"; }

probe() { # probe FILE -> "width height frames duration video_bitrate video_bytes codec"
    local w h n d b c
    IFS=, read -r c w h b n < <(ffprobe -v error -select_streams v:0 -count_packets \
        -show_entries stream=codec_name,width,height,nb_read_packets,bit_rate -of csv=p=0 "$1")
    d=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$1")
    echo "$w $h $n $d $b $(python3 -c "print(round($b*$d/8))") $c"
}

start_section() { rm -f "$RES/$1.tsv" "$RES/$1.facts" "$RES/$1".*.stderr; : > "$RES/$1.tsv"; : > "$RES/$1.facts"; }

# ---------------------------------------------------------------- 1. compression
# q maps to CRF 40 - 24q (x264) and 43 - 24q (x265): q = 17/24 -> CRF 23, q = 15/24 -> CRF 28.
REEL_SAME=(--speed medium --rate-control quality --keyint 250 --max-dimension 1280 --no-content-aware
    --audio-bitrate 128k --audio-rate 48000 --overwrite --quiet --json)

compression_pair() { # compression_pair NAME INPUT REEL_EXTRA FFMPEG_VF FFMPEG_CODEC_ARGS...
    local name=$1 in=$2 rextra=$3 vf=$4; shift 4
    local ro="$OUT/compression-$name-reel.mp4" fo="$OUT/compression-$name-ffmpeg.mp4"
    # shellcheck disable=SC2086
    local rcmd=("$REEL" compress "$in" $rextra "${REEL_SAME[@]}" -o "$ro")
    local fcmd=(ffmpeg -nostdin -y -v error -i "$in" -vf "$vf" "$@"
        -c:a aac -b:a 128k -ar 48000 -movflags +faststart "$fo")
    record compression "$name.reel.cmd" "${rcmd[*]}"
    record compression "$name.ffmpeg.cmd" "${fcmd[*]}"
    log "compression $name ($RUNS runs each, alternately)"
    for ((i = 1; i <= RUNS; i++)); do
        measure compression "$name.reel" "$OUT/compression-$name-reel.json" "${rcmd[@]}"
        measure compression "$name.ffmpeg" /dev/null "${fcmd[@]}"
    done
    record compression "$name.reel.crf" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['result']['encoding']['constantRateFactor'])" "$OUT/compression-$name-reel.json")"
    record compression "$name.reel.probe" "$(probe "$ro")"
    record compression "$name.ffmpeg.probe" "$(probe "$fo")"
    record compression "$name.input" "$(basename "$in")"
}

bench_compression() {
    start_section compression
    compression_pair x264 "$IN/src1080p30_60s.mp4" "--codec h264 --quality 0.708333 --fps 120" \
        "scale=1280:720:flags=bicubic,format=yuv420p" -c:v libx264 -preset medium -crf 23 -g 250
    compression_pair x265 "$IN/src1080p30_60s.mp4" "--codec hevc --quality 0.625 --fps 120" \
        "scale=1280:720:flags=bicubic,format=yuv420p" -c:v libx265 -preset medium -crf 28 \
        -x265-params log-level=error:keyint=250 -tag:v hvc1
    compression_pair fps60to30 "$IN/src1080p60_20s.mp4" "--codec h264 --quality 0.708333 --fps 30" \
        "fps=30,scale=1280:720:flags=bicubic,format=yuv420p" -c:v libx264 -preset medium -crf 23 -g 250
}

# ---------------------------------------------------------------- 2. quality per byte
# quality_metrics DIST SRC FPS W H -> "ssim psnr alignment": the source converted to the same fps
# and size. When the frame rate is lowered, which source frames an output frame was made from
# depends on the reducer's rounding, so every output is scored against the fps filter's
# round=near, up and down, and the best-aligned one (highest SSIM) counts, for both sides alike.
quality_metrics() {
    local log="$WORK/q.$$" best="" src_fps rounds=(near)
    src_fps=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$2")
    python3 -c "import sys; from fractions import Fraction as F; sys.exit(F('$3') >= F('$src_fps'))" &&
        rounds=(near up down)
    for rnd in "${rounds[@]}"; do
        ffmpeg -nostdin -v info -nostats -i "$1" -i "$2" -lavfi \
            "[1:v]fps=$3:round=$rnd,scale=$4:$5:flags=bicubic,format=yuv420p,split[r1][r2];[0:v]format=yuv420p,split[d1][d2];[d1][r1]ssim;[d2][r2]psnr" \
            -an -f null - 2> "$log"
        local ssim psnr
        ssim=$(grep -o 'All:[0-9.]*' "$log" | tail -1 | cut -d: -f2)
        psnr=$(grep -o 'average:[0-9.inf]*' "$log" | tail -1 | cut -d: -f2)
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $ssim > ${best%% *})"; then
            best="$ssim $psnr $rnd"
        fi
    done
    rm -f "$log"
    echo "$best"
}

bench_quality() {
    start_section quality
    local in="$IN/src1080p30_20s.mp4"
    record quality input "$(basename "$in")"
    for p in low medium high social messaging; do
        log "quality: preset $p"
        local ro="$OUT/quality-$p-reel.mp4" js="$OUT/quality-$p-reel.json"
        measure quality "$p.reel" "$js" "$REEL" compress "$in" --preset "$p" -o "$ro" --overwrite --quiet --json
        local rate w h fps codec keyint
        read -r rate w h fps codec keyint < <(python3 - "$js" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["result"]
c, e = r["compressed"], r["encoding"]
fps = e["frameRate"]
fps = int(fps) if float(fps).is_integer() else fps
print(int(round(c["videoBitrate"])), c["width"], c["height"], fps, r["videoCodec"], e["keyFrameInterval"])
PY
)
        record quality "$p.settings" "$codec ${w}x$h ${fps}fps keyint $keyint $rate"
        record quality "$p.reel.probe" "$(probe "$ro")"
        record quality "$p.reel.metrics" "$(quality_metrics "$ro" "$in" "$fps" "$w" "$h")"
        # the baseline: an average bit rate at reel's measured video bit rate, one pass (abr) and
        # two passes (abr2, which lands on the bit rate: the like-for-like size comparison)
        local vf="fps=$fps,scale=$w:$h:flags=bicubic,format=yuv420p" plog="$OUT/quality-$p-2pass"
        local abr=(-c:v libx264 -preset medium -b:v "$rate" -g "$keyint")
        local p1=("${abr[@]}" -pass 1 -passlogfile "$plog") p2=("${abr[@]}" -pass 2 -passlogfile "$plog")
        if [ "$codec" = hevc ]; then
            local x=(-c:v libx265 -preset medium -b:v "$rate" -tag:v hvc1)
            abr=("${x[@]}" -x265-params "log-level=error:keyint=$keyint")
            p1=("${x[@]}" -x265-params "log-level=error:keyint=$keyint:pass=1:stats=$plog.x265")
            p2=("${x[@]}" -x265-params "log-level=error:keyint=$keyint:pass=2:stats=$plog.x265")
        fi
        local base=(ffmpeg -nostdin -y -v error -i "$in" -vf "$vf" -an)
        local fo="$OUT/quality-$p-abr.mp4" f2="$OUT/quality-$p-abr2.mp4"
        measure quality "$p.abr" /dev/null "${base[@]}" "${abr[@]}" -movflags +faststart "$fo"
        # (the two-pass encode is not timed: this section is about quality per byte)
        (cd "$OUT" && "${base[@]}" "${p1[@]}" -f null - && "${base[@]}" "${p2[@]}" -movflags +faststart "$f2")
        record quality "$p.abr.cmd" "${base[*]} ${abr[*]} -movflags +faststart $fo"
        record quality "$p.abr2.cmd" "${base[*]} ${p1[*]} -f null - && ${base[*]} ${p2[*]} -movflags +faststart $f2"
        record quality "$p.abr.probe" "$(probe "$fo")"
        record quality "$p.abr2.probe" "$(probe "$f2")"
        record quality "$p.abr.metrics" "$(quality_metrics "$fo" "$in" "$fps" "$w" "$h")"
        record quality "$p.abr2.metrics" "$(quality_metrics "$f2" "$in" "$fps" "$w" "$h")"
        tail -6 "$RES/quality.facts" | sed 's/^/   /' >&2
    done
}

# ---------------------------------------------------------------- 3. analysis
bench_analysis() {
    start_section analysis
    for clip in src1080p30_60s src720p30_60s cuts720p30_sc cuts720p30_nosc; do
        local in="$IN/$clip.mp4"
        log "analysis $clip ($RUNS runs each, alternately)"
        for ((i = 1; i <= RUNS; i++)); do
            measure analysis "$clip.reel" "$OUT/analysis-$clip-reel.json" "$REEL" analyze "$in" --json --quiet
            # What the face pass costs (it is on by default).
            [[ $clip == src1080p30_60s ]] && measure analysis "$clip.reel_nofaces" /dev/null "$REEL" analyze "$in" \
                --json --quiet --no-faces
            rm -f "$OUT/analysis-$clip-scenedetect.csv"
            measure analysis "$clip.scenedetect" /dev/null "$VENV/bin/scenedetect" -i "$in" -q -o "$OUT" \
                detect-adaptive list-scenes -f "analysis-$clip-scenedetect.csv"
            measure analysis "$clip.scdet" /dev/null ffmpeg -nostdin -nostats -v info -i "$in" \
                -vf "scdet=threshold=10" -an -f null -
            cp "$RES/analysis.$clip.scdet.stderr" "$OUT/analysis-$clip-scdet.log"
            # The least decoding any analysis of every GOP can do: I and P frames, no loop filter,
            # one thread (CPU time is what counts; reel spreads it over the cores).
            [[ $clip == src* ]] && measure analysis "$clip.floor" /dev/null ffmpeg -nostdin -v error -threads 1 \
                -skip_loop_filter all -skip_frame bidir -i "$in" -an -f null -
        done
        record analysis "$clip.duration" "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$in")"
    done
    record analysis cores "$(nproc)"
    record analysis cmds "reel analyze IN --json --quiet | scenedetect -i IN -q -o DIR detect-adaptive list-scenes -f NAME.csv | ffmpeg -nostdin -nostats -v info -i IN -vf scdet=threshold=10 -an -f null -"
}

# ---------------------------------------------------------------- 4. reels
bench_reels() {
    start_section reels
    local in="$IN/src720p30_10min.mp4"
    log "reels: highlights vs range copy vs range re-encode ($RUNS runs each, alternately)"
    for ((i = 1; i <= RUNS; i++)); do
        measure reels highlights "$OUT/reels-highlights.json" "$REEL" highlights "$in" --max-duration 30 \
            --preset medium --speed veryfast -o "$OUT/reels-highlights.mp4" --overwrite --quiet --json
        measure reels range_copy "$OUT/reels-copy.json" "$REEL" compress "$in" --ranges 120-150 --copy \
            -o "$OUT/reels-copy.mp4" --overwrite --quiet --json
        measure reels range_reencode "$OUT/reels-reencode.json" "$REEL" compress "$in" --ranges 120-150 \
            --preset medium -o "$OUT/reels-reencode.mp4" --overwrite --quiet --json
    done
    log "reels: full 10-minute transcode ($FULL_RUNS run(s))"
    for ((i = 1; i <= FULL_RUNS; i++)); do
        measure reels full_transcode "$OUT/reels-full.json" "$REEL" compress "$in" --preset medium \
            --speed veryfast -o "$OUT/reels-full.mp4" --overwrite --quiet --json
    done
    for k in highlights copy reencode full; do
        [ -s "$OUT/reels-$k.mp4" ] && record reels "$k.probe" "$(probe "$OUT/reels-$k.mp4")"
    done
    record reels full_runs "$FULL_RUNS"
}

# ---------------------------------------------------------------- 5. memory
bench_memory() {
    start_section memory
    log "memory: 10 s vs 10 min ($RUNS runs each, alternately)"
    for ((i = 1; i <= RUNS; i++)); do
        for clip in src720p30_10s src720p30_10min; do
            measure memory "analyze.$clip" /dev/null "$REEL" analyze "$IN/$clip.mp4" --json --quiet
        done
        measure memory "compress.src720p30_10s" /dev/null "$REEL" compress "$IN/src720p30_10s.mp4" \
            --preset medium --speed veryfast -o "$OUT/memory-10s.mp4" --overwrite --quiet --json
    done
    # the 10-minute compress with the same settings is the full transcode of the reels section
}

# ---------------------------------------------------------------- 6. faces
bench_faces() {
    start_section faces
    local dir="$IN/faces" photos="$WORK/photos"
    "$ROOT/Fixtures/fetch-face-photos.sh" "$photos"
    "$ROOT/Fixtures/fetch-face-models.sh"
    if [ ! -f "$dir/pair.jpg" ]; then
        mkdir -p "$dir"
        cp "$photos"/obama.jpg "$photos"/obama2.jpg "$photos"/obama3.jpg "$photos"/biden.jpg \
            "$photos"/astronaut.png "$photos"/chelsea.png "$dir"/
        ffmpeg -nostdin -v error -y -i "$photos/obama.jpg" -vf hflip -q:v 2 "$dir/obama-flipped.jpg"
        ffmpeg -nostdin -v error -y -i "$photos/biden.jpg" -vf "scale=iw/3:-2" -q:v 2 "$dir/biden-small.jpg"
        ffmpeg -nostdin -v error -y -i "$photos/obama2.jpg" -vf "crop=iw:ih/2:0:0" -q:v 2 "$dir/obama2-top.jpg"
        ffmpeg -nostdin -v error -y -i "$photos/obama3.jpg" -i "$photos/biden.jpg" -filter_complex \
            "[0]scale=-2:600,format=yuvj420p[a];[1]scale=-2:600,format=yuvj420p[b];[a][b]hstack=2" -q:v 2 "$dir/pair.jpg"
    fi
    record faces images "$(find "$dir" -type f | wc -l)"
    local rcmd=("$REEL" faces add "$dir" --index "$OUT/faces-index" --update --json --quiet)
    local pcmd=("$VENV/bin/python" "$BENCH_DIR/faces_peer.py" "$dir")
    record faces reel.cmd "${rcmd[*]}"
    record faces peer.cmd "${pcmd[*]}"
    log "faces ($RUNS runs each, alternately)"
    for ((i = 1; i <= RUNS; i++)); do
        rm -rf "$OUT/faces-index"
        measure faces reel "$OUT/faces-reel.json" "${rcmd[@]}"
        measure faces peer "$OUT/faces-peer.json" "${pcmd[@]}"
    done
    FACES_SCORES=1 "${pcmd[@]}" > "$OUT/faces-peer-scores.json"
    python3 "$BENCH_DIR/faces_compare.py" "$OUT/faces-reel.json" "$OUT/faces-peer-scores.json" > "$RES/faces.json"
}

# ---------------------------------------------------------------- 7. real footage
# Real footage that packages ship (Fixtures/fetch-real-footage.sh), edits cut from it whose
# passages are known by construction (realeval/make_edits.py), and clips labelled by hand
# (realeval/labels); realeval/score.py runs reel on all of them and writes realeval.json and
# realeval.tsv (the timed runs on the film: reel analyze and PySceneDetect), and contact sheets
# of the key frames, highlights and reels into .work/realeval/sheets.
bench_realeval() {
    start_section realeval
    local footage="$WORK/footage" dir="$WORK/realeval"
    log "realeval: real footage (cached in Benchmarks/.work/footage)"
    "$ROOT/Fixtures/fetch-real-footage.sh" "$footage"
    log "realeval: edits with known passages (cached in Benchmarks/.work/realeval/edits)"
    python3 "$BENCH_DIR/realeval/make_edits.py" "$footage" "$dir/edits"
    log "realeval: scoring reel on the edits and the labelled clips"
    REEL="$REEL" SCENEDETECT="$VENV/bin/scenedetect" REALEVAL_SPEED_RUNS="${REALEVAL_SPEED_RUNS:-1}" \
        "$VENV/bin/python" "$BENCH_DIR/realeval/score.py" "$footage" "$dir/edits" "$BENCH_DIR/realeval/labels" \
        "$dir" "$RES"
}

# ---------------------------------------------------------------- 8. target size
# reel compress --target-size against the two usual ffmpeg recipes at the same size, frame rate
# and audio bit rate (a computed bit rate in two passes; one pass with a VBV cap), on two lavfi
# clips and two real ones, targets of 2, 5, 10, 25 MB: achieved bytes, error, wall, SSIM.
# targetsize/bench.py writes targetsize.json (every number and the exact commands).
bench_targetsize() {
    start_section targetsize
    rm -f "$RES/targetsize.json"
    log "targetsize: real footage (cached in Benchmarks/.work/footage)"
    "$ROOT/Fixtures/fetch-real-footage.sh" "$WORK/footage"
    log "targetsize: reel --target-size vs ffmpeg two-pass and one-pass VBV (one run each)"
    REEL="$REEL" python3 "$BENCH_DIR/targetsize/bench.py" "$OUT/targetsize" "$RES" "$IN" "$WORK/footage"
}

# ---------------------------------------------------------------- 9. target quality
# reel --target-quality ssim:0.98 against one fixed CRF at equal mean and 5th-percentile SSIM
# (targetquality/bench.py: three clips, six fixed CRFs each; writes targetquality.json).
bench_targetquality() {
    rm -f "$RES/targetquality.json"
    log "targetquality: real footage (cached in Benchmarks/.work/footage)"
    "$ROOT/Fixtures/fetch-real-footage.sh" "$WORK/footage"
    log "targetquality: reel --target-quality vs fixed CRFs (one run each)"
    python3 "$BENCH_DIR/targetquality/bench.py" "$REEL" "$RES" "$OUT/targetquality"
}

# ---------------------------------------------------------------- 10. chunked encoding
# reel plan / encode-chunk / assemble against one reel compress, on the first 3 minutes of Big
# Buck Bunny (60 s chunks) and on vtest.avi (20 s chunks): wall with 1 and 2 local workers, modelled N machines, size, SSIM
# and picture times (chunked/bench.py writes chunked.json).
bench_chunked() {
    rm -f "$RES/chunked.json"
    command -v parallel >/dev/null || { $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq parallel; }
    "$ROOT/Fixtures/fetch-real-footage.sh" "$WORK/footage"
    log "chunked: plan, jobs by 1 and 2 workers, assemble, against one encode (one run each)"
    python3 "$BENCH_DIR/chunked/bench.py" "$REEL" "$OUT/chunked" "$RES" "$WORK/footage/bbb.mp4:0-180" "$WORK/footage/vtest.avi@20s"
}

# ---------------------------------------------------------------- main
main() {
    local t0=$SECONDS
    mkdir -p "$RES" "$OUT"
    install_deps
    log "machine and versions"
    machine_info
    # shellcheck source=Benchmarks/inputs.sh
    source "$BENCH_DIR/inputs.sh"
    if want compression || want quality || want analysis || want reels || want memory || want targetsize || want targetquality; then
        log "inputs (cached in Benchmarks/.work/inputs)"
        make_inputs
    fi
    want compression && bench_compression
    want quality && bench_quality
    want analysis && bench_analysis
    want reels && bench_reels
    want memory && bench_memory
    want faces && bench_faces
    want realeval && bench_realeval
    want targetsize && bench_targetsize
    want targetquality && bench_targetquality
    want chunked && bench_chunked
    echo "$((SECONDS - t0))" > "$RES/runtime.txt"
    # one line per invocation: date, sections, seconds (BENCHMARKS.md lists the runs its figures come from)
    echo "$(date -u '+%Y-%m-%d %H:%M UTC') $ONLY $((SECONDS - t0))" >> "$RES/runtime.log"
    echo "$RUNS" > "$RES/runs.txt"
    python3 "$BENCH_DIR/summarize.py" "$WORK" "$ROOT/BENCHMARKS.md"
    log "wrote BENCHMARKS.md in $((SECONDS - t0)) s"
}

main "$@"
