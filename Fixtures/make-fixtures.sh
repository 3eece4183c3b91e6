#!/usr/bin/env bash
# Makes Reel's test clips from FFmpeg's lavfi sources. See Fixtures/README.md for what each clip is.
#
#   Fixtures/make-fixtures.sh OUTDIR [NAME...]
#
# With NAME arguments only those clips are made (plus any clip they are derived from).
# A clip that already exists in OUTDIR is skipped. Each clip is written to a temporary name in
# OUTDIR and renamed into place only when it is complete, so concurrent callers are safe (they
# produce identical bytes, and the rename never replaces a copy another caller finished, so a
# clip a test is reading keeps its modification time). Prints nothing on success.
set -euo pipefail
export LC_ALL=C

usage() { echo "usage: $0 OUTDIR [NAME...]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
OUTDIR=$1; shift
mkdir -p "$OUTDIR"

# The ordered list of every clip, and the function that makes it.
ALL=(
  cfr_audio.mp4 preset_source.mp4 vfr_audio.mp4 no_audio.mp4
  rotated90.mov rotated90.mp4 odd_dims.mkv hdr_hlg.mp4 hdr_pq.mp4 hdr_patches_pq.mp4 hdr_patches_hlg.mp4
  multitrack.mov cover_art.mp4 scenes.mp4 fast60.mp4
  empty.mp4 not_video.mp4 truncated.mp4 audio_only.m4a corrupted.mp4
  story.mp4 keyframe.mp4 sync.mp4 bframes16.mp4 story.ts story.h264 story_mpeg4.mp4 story_hevc.mp4 story.hevc
  damaged_packet.mp4 onekey.ts primed.webm recovery_points.mp4 tagged.mp4 offset.mp4 discontinuous.ts hls_segments.ts
  damaged_keyframe.mp4 false_entry.mp4 cinematic.mov
  packed_bframes.avi mpeg4_bframes.avi ac3_chunks.avi truncated_media.mp4 tracks.mp4 subtitles.mkv
  sparse_rgb.avi chunked.mp4 anamorphic.mpg talk.mp4 caret.mp4 overlapping_join.mp4 rate_change.ts interlaced.mp4
)
maker() { local n=${1%.*}; echo "mk_${n}_${1##*.}"; }

FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact)
# Fixed thread count: x264's output depends on it, and we want identical bytes everywhere.
# veryfast keeps B-frames (pts != dts, High profile) like real camera files.
X264=(-c:v libx264 -preset veryfast -pix_fmt yuv420p -threads 2)
AAC=(-c:a aac -b:a 128k)
# Two tones (440 Hz left, 660 Hz right) with a 4x beep each second: a real stereo signal.
stereo_tone() { echo "sine=f=440:beep_factor=4:r=48000:d=$1[l];sine=f=660:beep_factor=4:r=48000:d=$1[r];[l][r]join=inputs=2:channel_layout=stereo[out0]"; }
mono_tone() { echo "sine=f=440:beep_factor=4:r=${2:-48000}:d=$1"; }

# --- clips -----------------------------------------------------------------------------------

# The analyzer's story clip, 320x180 at 30 fps, 24 s (times in seconds):
#   [0,2) black, silent | [2,6) still bars, faint noise, near-silent | [6,10) ACTION: fast
#   scrolling picture, loud bursts | [10,14) still pattern, near-silent, fading to black over
#   [13,14) | [14,15) black | [15,21) ACTION, fading in over [15,16) | [21,24) still, near-silent.
# Hard cuts at 2, 6, 10 and 21 s (frames 60, 180, 300, 630); a fade out and in around [14,15).
# Key-frame clip, 320x180 at 30 fps, 6 s: [0,1) black | [1,3) testsrc2 blurred (gblur) | [3,5)
# the same testsrc2, sharp | [5,6) the same, nearly black (underexposed). The best frame is in [3,5).
mk_keyframe_mp4() {
  local src="testsrc2=s=320x180:r=30:d=2"
  "${FF[@]}" \
    -f lavfi -i "color=c=black:s=320x180:r=30:d=1,format=yuv420p" \
    -f lavfi -i "$src,gblur=sigma=6,format=yuv420p" \
    -f lavfi -i "$src,format=yuv420p" \
    -f lavfi -i "testsrc2=s=320x180:r=30:d=1,eq=brightness=-0.42:contrast=0.4,format=yuv420p" \
    -filter_complex "[0:v][1:v][2:v][3:v]concat=n=4:v=1:a=0[v]" -map "[v]" \
    "${X264[@]}" -g 60 "${BITEXACT[@]}" "$1"
}

# A/V sync clip, 320x180 at 30 fps, 24 s: black and silent except, every second at k + 0.5 s,
# one white frame and a 50 ms 1 kHz beep starting on the same instant.
mk_sync_mp4() {
  "${FF[@]}" \
    -f lavfi -i "color=c=black:s=320x180:r=30:d=24,format=yuv420p,lutyuv=y=235:u=128:v=128:enable='between(mod(t\,1)\,0.49\,0.51)'" \
    -f lavfi -i "aevalsrc='if(between(mod(t\,1)\,0.5\,0.55)\,0.8*sin(2*PI*1000*t)\,0)':s=48000:d=24" \
    "${X264[@]}" -g 30 -c:a aac -b:a 96k -ac 1 "${BITEXACT[@]}" "$1"
}

# Chunked-encode clip, 320x180 at 30 fps, 60 s: eight 7.5 s shots of different lavfi sources
# (hard cuts at 7.5, 15, ... 52.5 s), and every second at k + 0.5 s one white frame and a
# 50 ms 1 kHz beep starting on the same instant, over faint noise.
mk_chunked_mp4() {
  local inputs=() labels="" index=0
  for source in "testsrc2" "mandelbrot" "smptebars" "testsrc" "rgbtestsrc" "life=mold=10:ratio=0.5:death_color=#202020:life_color=#c0a020" "pal75bars" "cellauto=rule=110"; do
    local moving="scroll=h=0.01:v=0.005"
    inputs+=(-f lavfi -i "${source},scale=320:180,setsar=1,fps=30,trim=duration=7.5,setpts=PTS-STARTPTS,${moving},format=yuv420p")
    labels+="[${index}:v]"
    index=$((index + 1))
  done
  "${FF[@]}" "${inputs[@]}" \
    -f lavfi -i "aevalsrc='if(between(mod(t\,1)\,0.5\,0.55)\,0.8*sin(2*PI*1000*t)\,0.004*sin(2*PI*97*t))':s=48000:d=60" \
    -filter_complex "${labels}concat=n=8:v=1:a=0,lutyuv=y=235:u=128:v=128:enable='between(mod(t\,1)\,0.49\,0.51)'[v]" \
    -map "[v]" -map 8:a "${X264[@]}" -g 60 -c:a aac -b:a 96k -ac 1 "${BITEXACT[@]}" "$1"
}

mk_story_mp4() {
  local still="noise=alls=3:allf=t,format=yuv420p"
  local quiet="anoisesrc=a=0.002:c=white:r=48000:seed=1"
  local loud="volume='if(lt(mod(t\,0.5)\,0.12)\,1.0\,0.15)':eval=frame"
  "${FF[@]}" \
    -f lavfi -i "color=c=black:s=320x180:r=30:d=2,format=yuv420p" -f lavfi -i "anullsrc=r=48000:cl=mono:d=2" \
    -f lavfi -i "smptebars=s=320x180:r=30:d=4,$still" -f lavfi -i "$quiet:d=4" \
    -f lavfi -i "testsrc=s=320x180:r=30:d=4,scroll=h=0.045:v=0.02,format=yuv420p" \
    -f lavfi -i "anoisesrc=a=0.6:c=pink:r=48000:seed=2:d=4,$loud" \
    -f lavfi -i "rgbtestsrc=s=320x180:r=30:d=4,$still,fade=t=out:st=3:d=1" -f lavfi -i "$quiet:d=4" \
    -f lavfi -i "color=c=black:s=320x180:r=30:d=1,format=yuv420p" -f lavfi -i "anullsrc=r=48000:cl=mono:d=1" \
    -f lavfi -i "mandelbrot=s=320x180:r=30,trim=duration=6,scroll=h=-0.04:v=0.03,fade=t=in:st=0:d=1,format=yuv420p" \
    -f lavfi -i "anoisesrc=a=0.6:c=brown:r=48000:seed=3:d=6,$loud" \
    -f lavfi -i "pal100bars=s=320x180:r=30:d=3,$still" -f lavfi -i "$quiet:d=3" \
    -filter_complex "[0:v][1:a][2:v][3:a][4:v][5:a][6:v][7:a][8:v][9:a][10:v][11:a][12:v][13:a]concat=n=7:v=1:a=1[v][a]" \
    -map "[v]" -map "[a]" "${X264[@]}" -g 60 -c:a aac -b:a 96k -ac 1 "${BITEXACT[@]}" "$1"
}

# Long B-frame runs, 320x180 at 30 fps, 8 s: testsrc2 then mandelbrot, a hard cut at 4 s
# (frame 120). Sixteen B frames between references and no scene-cut keyframe, so frame 120 is a
# B frame and a decode without B frames sees only 2 pictures a second.
mk_bframes16_mp4() {
  "${FF[@]}" \
    -f lavfi -i "testsrc2=s=320x180:r=30:d=4,format=yuv420p" \
    -f lavfi -i "mandelbrot=s=320x180:r=30,trim=duration=4,setpts=PTS-STARTPTS,format=yuv420p" \
    -filter_complex "[0:v][1:v]concat=n=2:v=1:a=0[v]" -map "[v]" \
    "${X264[@]}" -x264-params bframes=16:b-adapt=0:scenecut=0:keyint=240 "${BITEXACT[@]}" "$1"
}

mk_cfr_audio_mp4() {
  "${FF[@]}" -f lavfi -i testsrc2=s=640x360:r=30:d=3 -f lavfi -i "$(stereo_tone 3)" \
    "${X264[@]}" -g 30 "${AAC[@]}" "${BITEXACT[@]}" "$1"
}

mk_preset_source_mp4() {
  "${FF[@]}" -f lavfi -i testsrc2=s=2048x1152:r=60:d=1.5 -f lavfi -i "$(stereo_tone 1.5)" \
    "${X264[@]}" -preset ultrafast -crf 20 -g 60 -c:a aac -b:a 192k "${BITEXACT[@]}" "$1"
}

# 60 fps source keeping frames n%6 in {0,1,3}: gaps of 1/60, 2/60 and 3/60 s, 90 frames in 3 s.
mk_vfr_audio_mp4() {
  "${FF[@]}" -f lavfi -i testsrc2=s=640x360:r=60:d=3 -f lavfi -i "$(stereo_tone 3)" \
    -vf "select='lt(mod(n\,6)\,2)+eq(mod(n\,6)\,3)'" -fps_mode vfr \
    "${X264[@]}" "${AAC[@]}" "${BITEXACT[@]}" "$1"
}

mk_no_audio_mp4() {
  "${FF[@]}" -f lavfi -i testsrc2=s=640x360:r=30:d=2 "${X264[@]}" -g 30 "${BITEXACT[@]}" "$1"
}

# FFmpeg 5.1 has no way to write a rotation from the command line (the "rotate" tag was dropped in
# 5.0 and -display_rotation arrived in 6.x), so the tkhd matrix of track 1 (the video) is patched
# in place to the matrix FFmpeg 4 wrote for rotate=90: display = coded turned 90 deg clockwise,
# which the demuxer reports as a Display Matrix with rotation -90.
patch_rotation90() {
  local f=$1 height=$2 hit off ver pos hex
  hit=$(grep -m1 -obUaF tkhd "$f") || { echo "no tkhd in $f" >&2; return 1; }
  off=${hit%%:*}                      # offset of the "tkhd" type; the box starts 4 bytes earlier
  ver=$(od -An -tu1 -j $((off + 4)) -N1 "$f" | tr -d ' ')
  pos=$((off - 4 + (ver == 1 ? 60 : 48)))
  hex=$(printf '00000000''00010000''00000000''ffff0000''00000000''00000000''%08x''00000000''40000000' \
    $((height << 16)))
  printf "$(sed 's/../\\x&/g' <<<"$hex")" | dd of="$f" bs=1 seek="$pos" conv=notrunc status=none
  local rot
  rot=$(ffprobe -v error -select_streams v:0 -show_entries stream_side_data=rotation -of csv=p=0 "$f")
  [[ $rot == -90 ]] || { echo "rotation patch failed on $f (got '$rot')" >&2; return 1; }
}

mk_rotated90() {
  "${FF[@]}" -f lavfi -i testsrc2=s=640x360:r=30:d=2 -f lavfi -i "$(stereo_tone 2)" \
    "${X264[@]}" -g 30 "${AAC[@]}" -movflags +faststart "${BITEXACT[@]}" "$1"
  patch_rotation90 "$1" 360
}
mk_rotated90_mov() { mk_rotated90 "$1"; }
mk_rotated90_mp4() { mk_rotated90 "$1"; }

# testsrc2 rounds odd sizes down in yuv420p, so render in rgb24 and let FFV1 keep 321x241 4:2:0.
mk_odd_dims_mkv() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=321x241:r=25:d=2,format=rgb24" -f lavfi -i "$(mono_tone 2 44100)" \
    -c:v ffv1 -pix_fmt yuv420p -c:a flac "${BITEXACT[@]}" "$1"
}

# A DVD-like MPEG-2 program stream, 720x480 shown at 16:9 (pixels 32:27, wider than tall), 2 s.
mk_anamorphic_mpg() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=720x480:r=30000/1001:d=2" -f lavfi -i "$(mono_tone 2)" \
    -c:v mpeg2video -q:v 4 -aspect 16:9 -c:a mp2 -b:a 192k -f mpeg "${BITEXACT[@]}" "$1"
}

mk_hdr() { # $1 out, $2 transfer
  local x265="log-level=error:info=0:pools=2:frame-threads=1"
  x265+=":colorprim=bt2020:transfer=$2:colormatrix=bt2020nc:range=limited"
  x265+=":master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)"
  x265+=":max-cll=1000,400:hdr10=1"
  "${FF[@]}" -f lavfi -i "testsrc2=s=640x360:r=25:d=1,format=yuv420p10le" \
    -c:v libx265 -preset ultrafast -profile:v main10 -pix_fmt yuv420p10le -tag:v hvc1 \
    -x265-params "$x265" -color_primaries bt2020 -color_trc "$2" -colorspace bt2020nc \
    -color_range tv "${BITEXACT[@]}" "$1"
}
mk_hdr_hlg_mp4() { mk_hdr "$1" arib-std-b67; }
mk_hdr_pq_mp4() { mk_hdr "$1" smpte2084; }

# Three flat patches of known 10-bit limited-range luma, left to right 300, 509 and 723 (in PQ
# about 5, 100 and 1000 cd/m²), neutral chroma, tagged and described like hdr_*.mp4.
mk_hdr_patches() { # $1 out, $2 transfer
  local x265="log-level=error:info=0:pools=2:frame-threads=1"
  x265+=":colorprim=bt2020:transfer=$2:colormatrix=bt2020nc:range=limited"
  x265+=":master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)"
  x265+=":max-cll=1000,400:hdr10=1"
  "${FF[@]}" -f lavfi \
    -i "nullsrc=s=320x180:r=25:d=1,format=yuv420p10le,geq=lum='if(lt(X\,W/3)\,300\,if(lt(X\,2*W/3)\,509\,723))':cb=512:cr=512" \
    -c:v libx265 -preset ultrafast -profile:v main10 -pix_fmt yuv420p10le -tag:v hvc1 \
    -x265-params "$x265" -color_primaries bt2020 -color_trc "$2" -colorspace bt2020nc \
    -color_range tv "${BITEXACT[@]}" "$1"
}
mk_hdr_patches_pq_mp4() { mk_hdr_patches "$1" smpte2084; }
mk_hdr_patches_hlg_mp4() { mk_hdr_patches "$1" arib-std-b67; }

# The mov muxer of 5.1 drops attached pictures, so cover art lives in cover_art.mp4 instead.
mk_multitrack_mov() {
  "${FF[@]}" -f lavfi -i testsrc2=s=640x360:r=30:d=2 \
    -f lavfi -i "testsrc2=s=320x180:r=30:d=2,format=gray,format=yuv420p" \
    -f lavfi -i "$(stereo_tone 2)" \
    -map 0:v -map 1:v -map 2:a "${X264[@]}" -g 30 "${AAC[@]}" \
    -metadata:s:v:1 handler_name=Disparity -disposition:v:1 0 \
    -metadata:s:v:0 timecode=00:00:00:00 "${BITEXACT[@]}" "$1"
}

mk_cover_art_mp4() {
  "${FF[@]}" -f lavfi -i testsrc2=s=640x360:r=30:d=2 -f lavfi -i "$(stereo_tone 2)" \
    -f lavfi -i "mandelbrot=s=320x320:r=1,trim=end_frame=1" \
    -map 0:v -map 1:a -map 2:v "${X264[@]}" -g 30 -c:v:1 png \
    -disposition:v:1 attached_pic "${AAC[@]}" "${BITEXACT[@]}" "$1"
}

# Three 1.0 s parts, hard cuts at frame 30 (t=1.0) and frame 60 (t=2.0); one keyframe only.
mk_scenes_mp4() {
  local g="testsrc2=s=320x180:r=30:d=1,setsar=1[a];"
  g+="smptebars=s=320x180:r=30:d=1,setsar=1[b];"
  g+="mandelbrot=s=320x180:r=30,trim=end_frame=30,setsar=1[c];"
  g+="[a][b][c]concat=n=3:v=1:a=0,format=yuv420p[v]"
  "${FF[@]}" -filter_complex "$g" -map "[v]" "${X264[@]}" -g 300 -sc_threshold 0 \
    "${BITEXACT[@]}" "$1"
}

mk_fast60_mp4() {
  "${FF[@]}" -f lavfi -i testsrc2=s=320x180:r=60:d=4 -f lavfi -i "$(mono_tone 4)" \
    "${X264[@]}" -g 60 "${AAC[@]}" "${BITEXACT[@]}" "$1"
}

# --- bad inputs ------------------------------------------------------------------------------

mk_empty_mp4() { : >"$1"; }

mk_not_video_mp4() {
  printf 'This is a plain text file named like a video.\nReel must reject it with a clear error.\n' >"$1"
}

# cfr_audio.mp4 is written without faststart (moov at the end), so its first 20 KiB hold
# ftyp + the start of mdat and no moov: opening fails with "moov atom not found".
mk_truncated_mp4() {
  build cfr_audio.mp4
  head -c 20480 "$OUTDIR/cfr_audio.mp4" >"$1"
}

# story.mp4 in other containers, packets copied: MPEG-TS (no index, so seeks are approximate;
# timestamps start at 1.4667 s) and a raw H.264 elementary stream (no timestamps at all).
mk_story_ts() {
  build story.mp4
  "${FF[@]}" -i "$OUTDIR/story.mp4" -c copy "${BITEXACT[@]}" "$1"
}

mk_story_h264() {
  build story.mp4
  "${FF[@]}" -i "$OUTDIR/story.mp4" -an -c copy "${BITEXACT[@]}" "$1"
}

# story.mp4's picture as MPEG-4 Part 2 with two B frames: no keyframe at the cuts, so every
# cut lies three frames after the previous decoded reference, and the cut into the scrolling
# part changes the picture less than three frames of that motion do.
mk_story_mpeg4_mp4() {
  build story.mp4
  "${FF[@]}" -i "$OUTDIR/story.mp4" -c:v mpeg4 -q:v 4 -bf 2 -g 300 -sc_threshold 1000000000 -threads 1 \
    -c:a copy "${BITEXACT[@]}" "$1"
}

# story.mp4's picture as HEVC from x265 (4 B frames, GOP 60). x265's P frames refer to B
# frames, so decoding without B frames is not exact (FFmpeg conceals the missing references).
mk_story_hevc_mp4() {
  build story.mp4
  "${FF[@]}" -i "$OUTDIR/story.mp4" -c:v libx265 -preset veryfast -tag:v hvc1 \
    -x265-params log-level=error:pools=none:frame-threads=1:keyint=60 -c:a copy "${BITEXACT[@]}" "$1"
}

# story_hevc.mp4's picture as a raw HEVC elementary stream (Annex B, no timestamps).
mk_story_hevc() {
  build story_hevc.mp4
  "${FF[@]}" -i "$OUTDIR/story_hevc.mp4" -an -c copy "${BITEXACT[@]}" "$1"
}

mk_audio_only_m4a() {
  "${FF[@]}" -f lavfi -i "anoisesrc=seed=42:color=pink:amplitude=0.3:r=48000:d=2" \
    -f lavfi -i "$(mono_tone 2)" -filter_complex "[0][1]amix=inputs=2" \
    -c:a aac -b:a 96k -ac 2 "${BITEXACT[@]}" "$1"
}

# A copy of cfr_audio.mp4 with 16 KiB of seeded noise written over the middle of the mdat
# payload; ftyp, moov and the sample tables are intact, so it opens but decodes with errors.
# Writes BYTES bytes of seeded noise over the middle of SOURCE's mdat payload, into OUT (same
# size, header and moov intact).
noise_over_media() {
  local src=$1 out=$2 bytes=$3 seed=$4 hit off size pos
  cp "$src" "$out"
  hit=$(grep -m1 -obUaF mdat "$src") || { echo "no mdat in $src" >&2; return 1; }
  off=${hit%%:*}
  size=$(od -An -tu1 -j $((off - 4)) -N4 "$src" | awk '{print ($1*16777216)+($2*65536)+($3*256)+$4}')
  pos=$((off + 4 + size / 2))
  "${FF[@]}" -f lavfi -i "anoisesrc=seed=$seed:r=$bytes:d=1" -c:a pcm_u8 -f u8 - \
    | dd of="$out" bs=1 seek="$pos" conv=notrunc status=none
}

# 16 KB of noise: damage the decoders reject over many packets.
mk_corrupted_mp4() {
  build cfr_audio.mp4
  noise_over_media "$OUTDIR/cfr_audio.mp4" "$1" 16384 1234
}

# 256 bytes of noise: one damaged video packet, which the decoder conceals.
mk_damaged_packet_mp4() {
  build cfr_audio.mp4
  noise_over_media "$OUTDIR/cfr_audio.mp4" "$1" 256 99
}

# MPEG-TS with a single keyframe (its first frame), clock starting at 1.4 s: a seek lands
# between keyframes, where nothing decodes until the end. 320x180, 25 fps, 3 s, AAC.
mk_onekey_ts() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=3" -f lavfi -i "$(mono_tone 3)" \
    "${X264[@]}" -g 1000 -x264-params scenecut=0 "${AAC[@]}" "${BITEXACT[@]}" -f mpegts "$1"
}

# H.264 with periodic intra refresh: after the first IDR, its "keyframes" are recovery points
# (P frames), which nothing decodes from until a refresh completes about 2 s later, as in some
# phone files. 320x180, 25 fps, 12 s, keyframes about every 2 s, no audio.
mk_recovery_points_mp4() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=12" "${X264[@]}" -x264-params intra-refresh=1:keyint=50 \
    "${BITEXACT[@]}" "$1"
}

# A phone-style recording's tags: title, creation time, location (©xyz), a French audio track,
# camera handler names. 320x180, 30 fps, 2 s, AAC.
mk_tagged_mp4() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=30:d=2" -f lavfi -i "$(mono_tone 2)" "${X264[@]}" "${AAC[@]}" \
    -metadata title=Holiday -metadata creation_time=2024-05-01T10:00:00Z -metadata location=+48.8584+002.2945/ \
    -metadata:s:a:0 language=fra -metadata:s:v:0 handler_name=CameraVideo -metadata:s:a:0 handler_name=CameraSound "$1"
}

# An MP4 whose clock starts at 10^6 s (an edit list), whose container duration counts from 0:
# 1,000,006 s by the header, 6 s of media. 320x180, 25 fps, AAC.
mk_offset_mp4() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=6" -f lavfi -i "$(mono_tone 6)" "${X264[@]}" "${AAC[@]}" \
    -output_ts_offset 1000000 "$1"
}

# Two 3 s MPEG-TS recordings joined byte for byte, the second's clock 500 s later: a timestamp
# jump (an HLS-style discontinuity). 320x180, 25 fps, AAC.
mk_discontinuous_ts() {
  local first="$OUTDIR/.tmp.$$.first.ts" second="$OUTDIR/.tmp.$$.second.ts"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=3" -f lavfi -i "$(mono_tone 3)" "${X264[@]}" "${AAC[@]}" \
    "${BITEXACT[@]}" -f mpegts "$first"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=3" -f lavfi -i "$(mono_tone 3)" "${X264[@]}" "${AAC[@]}" \
    "${BITEXACT[@]}" -output_ts_offset 500 -f mpegts "$second"
  cat "$first" "$second" > "$1"
  rm -f "$first" "$second"
}

# Two 2 s recordings, 30 fps then 12 fps, joined by ffmpeg 5.1's concat demuxer without
# re-encoding (a common way users join files): the second's first pictures are timed before
# the first's last ones (1.92 s after 1.99 s) and a few of them out of order. 320x180, AAC.
mk_overlapping_join_mp4() {
  local first="$OUTDIR/.tmp.$$.first.mp4" second="$OUTDIR/.tmp.$$.second.mp4" list="$OUTDIR/.tmp.$$.list.txt"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=30:d=2" -f lavfi -i "$(mono_tone 2)" "${X264[@]}" "${AAC[@]}" \
    "${BITEXACT[@]}" "$first"
  "${FF[@]}" -f lavfi -i "smptebars=s=320x180:r=12:d=2" -f lavfi -i "$(mono_tone 2)" "${X264[@]}" "${AAC[@]}" \
    "${BITEXACT[@]}" "$second"
  printf "file '%s'\nfile '%s'\n" "$first" "$second" > "$list"
  "${FF[@]}" -f concat -safe 0 -i "$list" -c copy "${BITEXACT[@]}" "$1"
  rm -f "$first" "$second" "$list"
}

# Two 2 s MPEG-TS recordings joined byte for byte, the first's sound at 44.1 kHz, the
# second's at 48 kHz (a broadcast or HLS stream whose sound changes rate mid-way); each starts
# at MPEG-TS's usual 1.4 s, so the clock also jumps back 2 s. 320x180, 30 fps, AAC mono tone.
mk_rate_change_ts() {
  local first="$OUTDIR/.tmp.$$.first.ts" second="$OUTDIR/.tmp.$$.second.ts"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=30:d=2" -f lavfi -i "$(mono_tone 2 44100)" "${X264[@]}" "${AAC[@]}" \
    "${BITEXACT[@]}" -f mpegts "$first"
  "${FF[@]}" -f lavfi -i "smptebars=s=320x180:r=30:d=2" -f lavfi -i "$(mono_tone 2 48000)" "${X264[@]}" "${AAC[@]}" \
    "${BITEXACT[@]}" -f mpegts "$second"
  cat "$first" "$second" > "$1"
  rm -f "$first" "$second"
}

# An interlaced recording, as from a TV broadcast or a camcorder: testsrc2 at 50 pictures a
# second woven into 25 interlaced ones, top field first, coded as fields by x264 (field_order
# tt), 640x360, 2 s; AAC mono tone. Its moving parts comb when shown as whole pictures.
mk_interlaced_mp4() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=640x360:r=50:d=2" -f lavfi -i "$(mono_tone 2)" \
    -vf "tinterlace=mode=interleave_top,setfield=tff" "${X264[@]}" -flags:v +ilme+ildct -x264-params tff=1 \
    "${AAC[@]}" "${BITEXACT[@]}" "$1"
}

# Three 4 s HLS-style segments of story.mp4 (2-6 s still bars, 6-10 s the loud scrolling
# action, 21-24 s plus a second of its end: still), each muxed on its own so each starts at
# MPEG-TS's usual 1.4 s, joined byte for byte: the clock jumps back 4 s twice, less than
# ffmpeg's 10 s threshold. 320x180, 30 fps, AAC.
mk_hls_segments_ts() {
  build story.mp4
  local part starts=(2 6 20)
  for part in 0 1 2; do
    "${FF[@]}" -ss "${starts[$part]}" -i "$OUTDIR/story.mp4" -t 4 "${X264[@]}" "${AAC[@]}" "${BITEXACT[@]}" \
      -f mpegts "$OUTDIR/.tmp.$$.segment$part.ts"
  done
  cat "$OUTDIR/.tmp.$$.segment"{0,1,2}.ts > "$1"
  rm -f "$OUTDIR/.tmp.$$.segment"{0,1,2}.ts
}

# A phone-style false entry point: one IDR, a white flash at frame 100, a non-IDR I picture at
# frame 102 whose following P pictures refer to pictures before it (16 references), flagged as
# a sync sample and given a recovery-point SEI ("clean from here") by false_entry_point.py.
# Decoding from it gives grey garbage. 320x180, 25 fps, 12 s, no audio.
mk_false_entry_mp4() {
  local plain="$OUTDIR/.tmp.$$.plain.mp4"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=12" -vf "geq=lum='if(eq(N,100),255,lum(X,Y))':cb='cb(X,Y)':cr='cr(X,Y)'" \
    -c:v libx264 -preset veryfast -pix_fmt yuv420p -threads 2 \
    -x264-params keyint=1000:min-keyint=500:ref=16:bframes=0:scenecut=40 "${BITEXACT[@]}" "$plain"
  python3 "$(dirname "${BASH_SOURCE[0]}")/false_entry_point.py" "$plain" "$1" 103
  rm -f "$plain"
}

# The track layout of an iPhone Cinematic video: #0 the picture (HEVC, 640x360, 30 fps, 4 s,
# keyframe each second), #1 AAC, #2 a disparity map as a second HEVC track (320x180, grey: a
# bright disc 40 px across moving right 40 px/s from x=80 over a dark ground, not enabled), #3 a
# timed-metadata track ('mebx': per-frame focus disparity and rectangle, following the disc) that
# timed_metadata_track.py adds, since the ffmpeg CLI cannot write one.
mk_cinematic_mov() {
  local plain="$OUTDIR/.tmp.$$.plain.mov"
  "${FF[@]}" -f lavfi -i "testsrc2=s=640x360:r=30:d=4" \
    -f lavfi -i "color=c=black:s=320x180:r=30:d=4,geq=lum='if(lt(hypot(X-80-40*T\,Y-90)\,40)\,220\,40)':cb=128:cr=128,format=yuv420p" \
    -f lavfi -i "$(mono_tone 4)" -map 0 -map 2 -map 1 -c:v libx265 -preset ultrafast \
    -x265-params keyint=30:min-keyint=30:scenecut=0:frame-threads=1:pools=1:log-level=error -tag:v hvc1 \
    "${AAC[@]}" -disposition:v:1 0 "${BITEXACT[@]}" "$plain"
  python3 "$(dirname "${BASH_SOURCE[0]}")/timed_metadata_track.py" "$plain" "$1" 30 4
  rm -f "$plain"
}

# One keyframe (the first frame), 200 bytes of noise in its middle: the only picture a decode
# from the file's start can begin with is damaged. 320x180, 25 fps, 2 s, no audio.
mk_damaged_keyframe_mp4() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=2" "${X264[@]}" -g 1000 -x264-params scenecut=0 "${BITEXACT[@]}" "$1"
  local fields pos size
  fields=$(ffprobe -v error -select_streams v:0 -show_entries packet=pos,size -read_intervals "%+#1" -of csv=p=0 "$1" | head -1)
  size=${fields%%,*}
  pos=${fields##*,}
  "${FF[@]}" -f lavfi -i "anoisesrc=seed=7:r=200:d=1" -c:a pcm_u8 -f u8 - \
    | dd of="$1" bs=1 seek=$((pos + size / 2)) conv=notrunc status=none
}

# WebM (VP9 + Opus) whose audio starts before its video (Opus pre-skip): container start
# -0.007 s, video 0.007 s, no stream durations. 320x180, 25 fps, 3 s.
mk_primed_webm() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=3" -f lavfi -i "$(mono_tone 3)" \
    -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 300k -threads 1 -c:a libopus "$1"
}

# --- AVI ------------------------------------------------------------------------------------
# AVI keeps decode times only: B frames come without presentation times.

# DivX/Xvid "packed" B frames, as Xvid writes them for AVI: each B frame shares a packet with
# the P frame before it, an empty 6-byte placeholder (N-VOP) follows, and the user data ends in
# "DivX503b1393p". 320x240, 25 fps, 4 s (100 frames; FFmpeg decodes 98: the encoder's two-frame
# delay leaves two empty chunks after the first frame), keyframes every 25 frames; AC-3 stereo.
mk_packed_bframes_avi() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x240:r=25:d=4" -f lavfi -i "$(stereo_tone 4)" \
    -c:v libxvid -bf 2 -g 25 -q:v 4 -threads 1 -c:a ac3 -b:a 128k "${BITEXACT[@]}" "$1"
}

# FFmpeg's own MPEG-4 Part 2 with two B frames, not packed: one frame per packet in decode
# order. 320x240, 25 fps, 4 s, 100 frames, keyframes every 25 frames; AC-3 stereo.
mk_mpeg4_bframes_avi() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x240:r=25:d=4" -f lavfi -i "$(stereo_tone 4)" \
    -c:v mpeg4 -q:v 4 -bf 2 -g 25 -threads 1 -c:a ac3 -b:a 128k "${BITEXACT[@]}" "$1"
}

# AC-3 in AVI chunks that do not start on AC-3 frames, as VirtualDub writes it: 192 kb/s
# (768-byte frames of 32 ms) in 960-byte chunks of 40 ms, one per video frame. FFmpeg's AVI
# muxer writes one frame per chunk, so the stream is muxed as 8-bit PCM at 24000 bytes/s
# (which reads it in 960-byte packets) and the WAVEFORMATEX is patched to AC-3, 48 kHz
# stereo. A seek to the keyframe at 3 s lands on a chunk that begins with the last 192 bytes
# of a frame: FFmpeg's parser then times the next frame from that piece, 24 ms late, and the
# chunk after it goes back in time. 320x240 MPEG-4 Part 2 (no B frames), 25 fps, 6 s,
# keyframes every second.
mk_ac3_chunks_avi() {
  local ac3="$1.ac3" hit off codec
  "${FF[@]}" -f lavfi -i "$(stereo_tone 6)" -c:a ac3 -b:a 192k "${BITEXACT[@]}" -f ac3 "$ac3"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x240:r=25:d=6" -f u8 -ar 24000 -ac 1 -i "$ac3" -map 0:v -map 1:a \
    -c:v mpeg4 -q:v 5 -g 25 -threads 1 -c:a copy "${BITEXACT[@]}" "$1"
  rm -f "$ac3"
  hit=$(grep -obUaF strf "$1" | sed -n 2p)   # the audio stream's format chunk
  [[ -n $hit ]] || { echo "no audio strf in $1" >&2; return 1; }
  off=${hit%%:*}
  # wFormatTag 0x2000 (AC-3), 2 channels, 48000 Hz, 24000 bytes/s, block align 1, 0 bits.
  printf '\x00\x20\x02\x00\x80\xbb\x00\x00\xc0\x5d\x00\x00\x01\x00\x00\x00' \
    | dd of="$1" bs=1 seek=$((off + 8)) conv=notrunc status=none
  codec=$(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name -of csv=p=0 "$1")
  [[ $codec == ac3 ]] || { echo "AC-3 patch failed on $1 (got '$codec')" >&2; return 1; }
}

# cfr_audio.mp4 with its index first (faststart) and its media data cut 3000 bytes in: it opens
# and lists 90 video frames, but the first video packet is cut short and nothing decodes.
mk_truncated_media_mp4() {
  build cfr_audio.mp4
  local full="$1.full.mp4" hit off
  "${FF[@]}" -i "$OUTDIR/cfr_audio.mp4" -c copy -movflags +faststart "${BITEXACT[@]}" "$full"
  hit=$(grep -m1 -obUaF mdat "$full") || { echo "no mdat in $full" >&2; return 1; }
  off=${hit%%:*}
  head -c $((off + 4 + 3000)) "$full" >"$1"
  rm -f "$full"
}

# Three cues, as an SRT file at $1: 0.5-1.5 s, 2-3.5 s and 4-5.5 s.
write_cues() {
  printf '%s\n' 1 '00:00:00,500 --> 00:00:01,500' 'First cue' '' \
    2 '00:00:02,000 --> 00:00:03,500' 'Second cue' '' \
    3 '00:00:04,000 --> 00:00:05,500' 'Third cue' 'on two lines' '' >"$1"
}

# A recording with two audio tracks and text subtitles: English 440 Hz mono ("Main"), French
# 880 Hz stereo ("Commentary"), and the three cues as mov_text in English. 320x180, 30 fps, 6 s.
mk_tracks_mp4() {
  local cues="$OUTDIR/.tmp.$$.cues.srt"
  write_cues "$cues"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=30:d=6" -f lavfi -i "$(mono_tone 6)" \
    -f lavfi -i "sine=f=880:r=48000:d=6,aformat=channel_layouts=stereo" -i "$cues" \
    -map 0:v -map 1:a -map 2:a -map 3:s "${X264[@]}" "${AAC[@]}" -c:s mov_text \
    -metadata:s:a:0 language=eng -metadata:s:a:0 handler_name=Main \
    -metadata:s:a:1 language=fra -metadata:s:a:1 handler_name=Commentary \
    -metadata:s:s:0 language=eng "${BITEXACT[@]}" "$1"
  rm -f "$cues"
}

# Matroska with SRT (subrip) subtitles in German, as downloaded films carry them: the three
# cues. 320x180, 25 fps, 6 s, mono AAC.
mk_subtitles_mkv() {
  local cues="$OUTDIR/.tmp.$$.cues.srt"
  write_cues "$cues"
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x180:r=25:d=6" -f lavfi -i "$(mono_tone 6)" -i "$cues" \
    -map 0:v -map 1:a -map 2:s "${X264[@]}" "${AAC[@]}" -c:s srt -metadata:s:s:0 language=ger "${BITEXACT[@]}" "$1"
  rm -f "$cues"
}

# A sparse AVI like OpenCV's tree.avi: cinepak (decodes to rgb24), the header says 15 fps and
# 115 frames, but only every 6th frame exists (20 pictures, 0.4 s apart; the index holds empty
# chunks between them); testsrc2 moves, so the content is not static.
mk_sparse_rgb_avi() {
  "${FF[@]}" -f lavfi -i "testsrc2=s=320x240:r=15:d=8,select='not(mod(n\,6))'" -fps_mode passthrough \
    -c:v cinepak "${BITEXACT[@]}" "$1"
}

# A talk with pauses, 320x180 at 30 fps, 15.000 s: five phrases of real speech (a woman's voice:
# the channel names of alsa-utils' /usr/share/sounds/alsa, each trimmed to where its sound
# reaches 4% of the clip's peak) between silences of 1.5, 2.0, 0.3, 1.2, 2.5 and 1.155 s. Speech
# at [1.5, 2.785] [4.785, 6.015] [6.315, 7.66] [8.86, 10.105] [12.605, 13.845]. The picture
# (testsrc2) moves throughout except frames 304-378 ([10.1, 12.633)), which repeat frame 303:
# the 2.5 s pause is the only one over a still picture. AAC mono 48 kHz.
mk_talk_mp4() {
  local sounds=/usr/share/sounds/alsa
  [[ -r $sounds/Front_Center.wav ]] || { echo "talk.mp4 needs $sounds (Debian package alsa-utils)" >&2; return 1; }
  local pieces=("Front_Center 0.040 1.325" "Front_Left 0.020 1.250" "Rear_Right 0.055 1.400" "Side_Left 0.045 1.290" "Rear_Left 0.035 1.275")
  local gaps=(1.5 2.0 0.3 1.2 2.5 1.155) inputs=() graph="" labels="" index=0
  for piece in "${pieces[@]}"; do
    read -r name start end <<<"$piece"
    inputs+=(-i "$sounds/$name.wav")
    graph+="aevalsrc=0:s=48000:d=${gaps[$index]}[g$index];[$index:a]atrim=start=$start:end=$end,asetpts=PTS-STARTPTS[s$index];"
    labels+="[g$index][s$index]"
    index=$((index + 1))
  done
  graph+="aevalsrc=0:s=48000:d=${gaps[$index]}[g$index];${labels}[g$index]concat=n=$((2 * index + 1)):v=0:a=1[a];"
  graph+="testsrc2=s=320x180:r=30:d=15,split[t1][t2];[t1][t2]freezeframes=first=304:last=378:replace=303,format=yuv420p[v]"
  "${FF[@]}" "${inputs[@]}" -filter_complex "$graph" -map "[v]" -map "[a]" \
    "${X264[@]}" -g 60 "${AAC[@]}" -ac 1 -t 15 "${BITEXACT[@]}" "$1"
}

# A screen recording's pause, 640x360 at 30 fps, 12 s, silent: an editor (grey lines on dark
# grey) whose text caret (1 x 14 px, white) blinks on 0.6 s and off 0.6 s throughout, as
# Chromium's does; a 160x90 testsrc2 plays in the corner over [0, 3) and [9, 12). Over [3, 9)
# only the caret changes: the picture stands still for a viewer. AAC mono 48 kHz (silence).
mk_caret_mp4() {
  local lines="" row
  for row in 40 64 88 112 136 160 184; do lines+="drawbox=x=40:y=$row:w=$((200 + row)):h=10:color=0x8a8a8a:t=fill,"; done
  "${FF[@]}" -f lavfi -i "color=c=0x1e1e1e:s=640x360:r=30:d=12" -f lavfi -i "testsrc2=s=160x90:r=30:d=12" \
    -f lavfi -i "anullsrc=r=48000:cl=mono" -filter_complex \
    "[0:v]${lines}drawbox=x=300:y=136:w=1:h=14:color=white:t=fill:enable='lt(mod(t,1.2),0.6)'[editor];[editor][1:v]overlay=x=440:y=240:enable='not(between(t,3,9))',format=yuv420p[v]" \
    -map "[v]" -map 2:a "${X264[@]}" -g 60 "${AAC[@]}" -t 12 "${BITEXACT[@]}" "$1"
}

# --- driver ----------------------------------------------------------------------------------

trap 'rm -f "$OUTDIR"/.tmp.$$.*' EXIT

build() {
  local name=$1 dest="$OUTDIR/$1" tmp
  [[ -e $dest ]] && return 0
  tmp="$OUTDIR/.tmp.$$.$name"            # keeps the extension, which picks the muxer
  "$(maker "$name")" "$tmp"
  # Never replace a copy another run finished meanwhile (the bytes are the same, but a test
  # may be checking that its source's modification time does not change): no-clobber rename.
  mv -n "$tmp" "$dest"
  rm -f "$tmp"
}

if [[ $# -eq 0 ]]; then set -- "${ALL[@]}"; fi
for name in "$@"; do
  declare -F "$(maker "$name")" >/dev/null || { echo "unknown clip: $name" >&2; usage; }
done
for name in "$@"; do build "$name"; done
