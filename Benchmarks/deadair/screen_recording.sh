#!/usr/bin/env bash
# Records a real screen recording to try `--cut-still` on: Chromium on a virtual X display
# (Xvfb) showing a text editor page, grabbed by ffmpeg's x11grab at 30 fps and encoded by x264
# as a screen recorder would, while xdotool types code at a person's pace, pauses to think, moves
# the mouse and scrolls. The narration is alsa-utils' recorded voice, mixed in at the times the
# script says it (a screen recorder takes the microphone as its own track).
#   Benchmarks/deadair/screen_recording.sh OUT.mp4
# Writes OUT.mp4 and OUT.events.csv (what happened when: start,end,kind; kind is typing,
# speaking, mouse or thinking: a still picture and silence, the only kind --cut-still should cut).
# Needs xvfb, xdotool and chromium (apt-get install xvfb xdotool chromium).
set -euo pipefail
out=$(realpath -m "${1:?output .mp4}")
events="${out%.mp4}.events.csv"
work=$(mktemp -d)
display=:$((90 + RANDOM % 9))
cleanup() { kill "${grab:-}" "${browser:-}" "${xvfb:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

cat > "$work/editor.html" <<'HTML'
<!doctype html><html><body style="margin:0;background:#1e1e1e">
<textarea id="code" spellcheck="false" style="width:100vw;height:100vh;box-sizing:border-box;border:0;padding:24px;
  background:#1e1e1e;color:#d4d4d4;font:20px/1.5 'DejaVu Sans Mono',monospace;caret-color:#fff;outline:none"></textarea>
<script>
const code = document.getElementById('code');
code.value = Array.from({length: 60}, (_, i) => `// line ${i + 1}: the function we are about to change`).join('\n');
code.focus(); code.setSelectionRange(0, 0);
</script></body></html>
HTML

Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp > /dev/null 2>&1 & xvfb=$!
sleep 1
DISPLAY=$display chromium --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
  --window-position=0,0 --window-size=1280,720 --kiosk "file://$work/editor.html" > /dev/null 2>&1 & browser=$!
sleep 5
DISPLAY=$display xdotool mousemove 900 500 click 1 key ctrl+Home
ffmpeg -v error -y -f x11grab -framerate 30 -video_size 1280x720 -draw_mouse 1 -i "$display" \
  -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p "$work/screen.mp4" & grab=$!
start=$(date +%s.%N)
now() { python3 -c "import time; print(round(time.time() - $start, 3))"; }
echo "start,end,kind" > "$events"
span() { echo "$1,$(now),$2" >> "$events"; }

type_line() { local from; from=$(now); DISPLAY=$display xdotool type --delay 110 "$1"; span "$from" typing; }
think() { local from; from=$(now); sleep "$1"; span "$from" thinking; }
say() { # the voice is mixed in afterwards at this time; the picture stands still meanwhile
  local from; from=$(now); echo "$from $1" >> "$work/voice.txt"
  sleep "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "/usr/share/sounds/alsa/$1.wav")"
  span "$from" speaking
}
mouse() {
  local from; from=$(now)
  for step in $(seq 1 20); do DISPLAY=$display xdotool mousemove $((300 + step * 30)) $((200 + step * 12)); sleep 0.05; done
  DISPLAY=$display xdotool click 5 click 5 click 5; sleep 0.5; DISPLAY=$display xdotool click 4 click 4 click 4
  span "$from" mouse
}

think 1.5
say Front_Center
type_line "function total(items) {"
DISPLAY=$display xdotool key Return
think 6
say Front_Left
type_line "  return items.reduce((sum, item) => sum + item.price, 0);"
think 2
say Rear_Center
mouse
think 7.5
type_line "}"
say Front_Right
think 3
kill -INT "$grab"; wait "$grab" || true; grab=

# The narration on its own track, each line at the time it was said.
inputs=(); filters=""; index=1
while read -r at name; do
  inputs+=(-i "/usr/share/sounds/alsa/$name.wav")
  filters+="[$index:a]aresample=48000,pan=mono|c0=c0,adelay=$(python3 -c "print(int($at * 1000))")[v$index];"
  index=$((index + 1))
done < "$work/voice.txt"
mix=$(seq 1 $((index - 1)) | sed 's/.*/[v&]/' | tr -d '\n')
ffmpeg -v error -y -i "$work/screen.mp4" "${inputs[@]}" \
  -filter_complex "${filters}${mix}amix=inputs=$((index - 1)):normalize=0,apad[a]" -map 0:v -map "[a]" -shortest \
  -c:v copy -c:a aac -b:a 128k "$out"
echo "wrote $out and $events"
