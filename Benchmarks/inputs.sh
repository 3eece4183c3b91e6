#!/usr/bin/env bash
# Makes the benchmark inputs with ffmpeg's lavfi sources (cached in Benchmarks/.work/inputs).
# Sourced by run.sh; `make_inputs` is idempotent: an existing input is not remade.
# Every clip is 4 visually different parts of equal length joined with hard cuts at
# D/4, D/2 and 3D/4 (exact frame boundaries), with a stereo 48 kHz beeping sine as audio.

# parts_graph W H FPS DURATION -> a filter_complex graph ending in [v] and [a]
parts_graph() {
    local w=$1 h=$2 r=$3 d=$4
    local p; p=$(python3 -c "print($d/4)")
    printf '%s' "testsrc2=s=${w}x${h}:r=${r}:d=${p},format=yuv420p[v0];"\
"mandelbrot=s=${w}x${h}:r=${r},trim=duration=${p},setpts=PTS-STARTPTS,format=yuv420p[v1];"\
"smptehdbars=s=${w}x${h}:r=${r}:d=${p},noise=alls=12:allf=t+u,format=yuv420p[v2];"\
"cellauto=s=${w}x${h}:r=${r}:rule=110,trim=duration=${p},setpts=PTS-STARTPTS,format=yuv420p[v3];"\
"[v0][v1][v2][v3]concat=n=4:v=1:a=0,setsar=1[v];"\
"sine=frequency=440:beep_factor=4:sample_rate=48000:duration=${d},aformat=channel_layouts=stereo[a]"
}

# make_clip OUT W H FPS DURATION
make_clip() {
    local out=$1 w=$2 h=$3 r=$4 d=$5
    [ -s "$out" ] && return 0
    local cmd=(ffmpeg -nostdin -y -v error -filter_complex "$(parts_graph "$w" "$h" "$r" "$d")"
        -map "[v]" -map "[a]" -c:v libx264 -preset veryfast -b:v 8M -maxrate 10M -bufsize 16M
        -g "$((r * 2))" -pix_fmt yuv420p -c:a aac -b:a 192k -movflags +faststart "$out.tmp.mp4")
    echo "  making $(basename "$out")" >&2
    printf '%q ' "${cmd[@]}" | sed "s#$WORK/##g" >> "$WORK/inputs/commands.txt"; echo >> "$WORK/inputs/commands.txt"
    "${cmd[@]}" && mv "$out.tmp.mp4" "$out"
}

# make_cuts_clip OUT X264PARAMS: the 20-shot cut-accuracy clip (Benchmarks/cuts_clip.py), 1280x720
# at 30 fps, 59 s; the planted cuts and the dissolve go to OUT without .mp4 plus .cuts.
make_cuts_clip() {
    local out=$1 params=$2
    [ -s "$out" ] && [ -s "${out%.mp4}.cuts" ] && return 0
    local graph; graph=$(python3 "$BENCH_DIR/cuts_clip.py" 1280 720 30 "${out%.mp4}.cuts")
    local cmd=(ffmpeg -nostdin -y -v error -filter_complex "$graph" -map "[v]" -map "[a]"
        -c:v libx264 -preset veryfast -b:v 6M -maxrate 8M -bufsize 12M -x264-params "$params"
        -pix_fmt yuv420p -c:a aac -b:a 128k -movflags +faststart "$out.tmp.mp4")
    echo "  making $(basename "$out")" >&2
    printf '%q ' "${cmd[@]}" | sed "s#$WORK/##g" >> "$WORK/inputs/commands.txt"; echo >> "$WORK/inputs/commands.txt"
    "${cmd[@]}" && mv "$out.tmp.mp4" "$out"
}

make_inputs() {
    local dir="$WORK/inputs"
    mkdir -p "$dir"
    [ -s "$dir/commands.txt" ] || : > "$dir/commands.txt"
    make_clip "$dir/src1080p30_60s.mp4" 1920 1080 30 60
    make_clip "$dir/src1080p30_20s.mp4" 1920 1080 30 20
    make_clip "$dir/src1080p60_20s.mp4" 1920 1080 60 20
    make_clip "$dir/src720p30_60s.mp4" 1280 720 30 60
    # x264's defaults put a keyframe on most cuts; without scene-cut detection (as many hardware
    # encoders) cuts fall on P and B frames inside long GOPs.
    make_cuts_clip "$dir/cuts720p30_sc.mp4" "keyint=60"
    make_cuts_clip "$dir/cuts720p30_nosc.mp4" "scenecut=0:keyint=250"
    if [ ! -s "$dir/src720p30_10min.mp4" ]; then
        local cmd=(ffmpeg -nostdin -y -v error -stream_loop 9 -i "$dir/src720p30_60s.mp4" -c copy
            -movflags +faststart "$dir/src720p30_10min.tmp.mp4")
        echo "  making src720p30_10min.mp4" >&2
        printf '%q ' "${cmd[@]}" | sed "s#$WORK/##g" >> "$dir/commands.txt"; echo >> "$dir/commands.txt"
        "${cmd[@]}" && mv "$dir/src720p30_10min.tmp.mp4" "$dir/src720p30_10min.mp4"
    fi
    if [ ! -s "$dir/src720p30_10s.mp4" ]; then
        # the first 10 s of the 60 s 720p clip (a keyframe every 60 frames, so -c copy cuts exactly at 10 s)
        local cmd=(ffmpeg -nostdin -y -v error -i "$dir/src720p30_60s.mp4" -t 10 -c copy
            -movflags +faststart "$dir/src720p30_10s.tmp.mp4")
        echo "  making src720p30_10s.mp4" >&2
        printf '%q ' "${cmd[@]}" | sed "s#$WORK/##g" >> "$dir/commands.txt"; echo >> "$dir/commands.txt"
        "${cmd[@]}" && mv "$dir/src720p30_10s.tmp.mp4" "$dir/src720p30_10s.mp4"
    fi
}
