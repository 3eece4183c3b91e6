#!/usr/bin/env python3
"""Compares a dead-air cut by reel and by auto-editor with the source's silence edges.

    compare.py NAME REEL.json AE-TIMELINE.json SILENCES MARGIN

REEL.json is `reel compress ... --cut-silence --dry-run --json`; AE-TIMELINE.json is
`auto-editor ... --export timeline:api=1`; SILENCES has one 'start end' line per silence
(from the clip's construction, or ffmpeg's silencedetect at 4% of the peak). Each cut edge
inside the file is matched with the silence it lies in: a cut should start MARGIN after the
silence starts and end MARGIN before it ends. Prints one JSON line.
"""
import json
import sys

name, reel_path, ae_path, silences_path, margin = sys.argv[1:6]
margin = float(margin)
reel = json.load(open(reel_path))
dead = reel["deadAir"]
duration = dead["searchedDuration"]
reel_cuts = [(c["start"], c["end"]) for c in dead["cuts"]]
timeline = json.load(open(ae_path))
# The timeline's unit is one frame of the source's frame rate; 99999 marks a cut chunk.
rate = float(sys.argv[6]) if len(sys.argv) > 6 else 0
ae_cuts = [(a / rate, b / rate) for a, b, speed in timeline["chunks"] if speed != 1.0]
ae_kept = sum((b - a) / rate for a, b, speed in timeline["chunks"] if speed == 1.0)
silences = [tuple(map(float, line.split())) for line in open(silences_path) if line.strip()]


def deviations(cuts):
    """|edge - expected| for every cut edge inside the file, and the cuts inside no silence."""
    found, strays = [], []
    for start, end in cuts:
        home = [s for s in silences if s[0] - 0.15 <= start and end <= s[1] + 0.15]
        if not home:
            strays.append([round(start, 3), round(end, 3)])
            continue
        silence = home[0]
        if start > 0.05:
            found.append(abs(start - (silence[0] + margin)))
        if end < duration - 0.05:
            found.append(abs(end - (silence[1] - margin)))
    return found, strays


reel_dev, reel_strays = deviations(reel_cuts)
ae_dev, ae_strays = deviations(ae_cuts)
reel_kept = dead["keptDuration"]
print(json.dumps({
    "clip": name, "duration": round(duration, 3),
    "reelKept": round(reel_kept, 3), "autoEditorKept": round(ae_kept, 3),
    "keptDifference": f"{(reel_kept - ae_kept) / ae_kept * 100:+.1f}%",
    "reelCuts": len(reel_cuts), "autoEditorCuts": len(ae_cuts),
    "reelWorstEdge": round(max(reel_dev, default=0), 3),
    "reelEdgesWithin0.1s": f"{sum(d <= 0.1 for d in reel_dev)}/{len(reel_dev)}",
    "autoEditorWorstEdge": round(max(ae_dev, default=0), 3),
    "autoEditorEdgesWithin0.1s": f"{sum(d <= 0.1 for d in ae_dev)}/{len(ae_dev)}",
    "reelCutsInsideSpeech": reel_strays, "autoEditorCutsInsideSpeech": ae_strays,
}))
