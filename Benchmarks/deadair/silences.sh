#!/usr/bin/env bash
# Prints the silences of a file's sound, one 'start end' line each (seconds): ffmpeg's
# silencedetect at 4% of the sound's own peak (auto-editor's default threshold), at least 0.2 s
# long (auto-editor's 6 frames of mincut at 30 fps; shorter dips are part of the speech).
#   silences.sh FILE
set -euo pipefail
file=$1
peak=$(ffmpeg -hide_banner -nostats -i "$file" -map 0:a:0 -af volumedetect -f null - 2>&1 | sed -n 's/.*max_volume: \(-*[0-9.]*\) dB.*/\1/p')
level=$(python3 -c "import math; print(round($peak + 20 * math.log10(0.04), 2))")
duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$file")
ffmpeg -hide_banner -nostats -i "$file" -map 0:a:0 -af "silencedetect=n=${level}dB:d=0.2" -f null - 2>&1 \
  | grep -o 'silence_\(start\|end\): -*[0-9.]*' | awk -v end="$duration" '
      /start/ { start = $2 < 0 ? 0 : $2; open = 1 }
      /end/ { printf "%s %s\n", start, $2; open = 0 }
      END { if (open) printf "%s %s\n", start, end }'
