#!/usr/bin/env python3
"""Scores where a reel's pieces start and end: on a shot boundary, in a pause of the sound, or
neither (mid-sound, where a word may be cut).

  edges.py REEL FOOTAGE_DIR clip [clip ...] [--max-duration SECONDS]

Pieces come from `REEL highlights CLIP --dry-run --json`, shot boundaries from `REEL analyze
CLIP --json`. Pauses are measured here from ffmpeg's decode of the sound (16 kHz mono): runs
of at least 0.1 s of 20 ms steps whose RMS is under the clip's typical level minus 18 dB
(typical = the median of the sounding 0.1 s windows), never above -38 dBFS. An edge is in a pause when it lies inside one
(10 ms tolerance); on a boundary when within 0.05 s of one. The level 30 ms either side of the
edge, in dB against the typical level, is printed too, and a "gap" is an edge whose level is
at least 10 dB under the loudest 20 ms within 0.5 s (between words or sounds).

A clip without sound (or whose sound track is silent throughout) has no pauses: its edges are scored on the picture instead, "still" when
the mean absolute change between consecutive frames (64x36 gray, 0-255) stays at or under 1.0
for two frames either side of the edge (a fixed camera with nobody moving), else "MOVING" (a
person mid-stride). These count in their own totals.
"""
import json, math, subprocess, sys, tempfile, os, array

def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout

def levels(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", "16000", "-f", "f32le", "-"],
                         check=True, capture_output=True).stdout
    samples = array.array("f"); samples.frombytes(raw)
    step = 320
    out = []
    for i in range(0, len(samples) - step + 1, step):
        chunk = samples[i:i + step]
        e = sum(x * x for x in chunk) / step
        out.append(10 * math.log10(e) if e > 1e-10 else -100)
    return out

def picture_changes(path):
    """Frames per second and the mean absolute change of each frame from the one before."""
    rate = run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate",
                "-of", "csv=p=0", path]).strip().split("/")
    fps = float(rate[0]) / float(rate[1]) if len(rate) == 2 and float(rate[1]) else float(rate[0])
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-an", "-vf", "scale=64:36,format=gray", "-f", "rawvideo", "-"],
                         check=True, capture_output=True).stdout
    size = 64 * 36
    frames = [raw[i:i + size] for i in range(0, len(raw) - size + 1, size)]
    return fps, [0.0] + [sum(abs(a - b) for a, b in zip(frames[i], frames[i - 1])) / size for i in range(1, len(frames))]

def main():
    argv = sys.argv[1:]
    budget = None
    if "--max-duration" in argv:
        i = argv.index("--max-duration"); budget = argv[i + 1]; del argv[i:i + 2]
    reel, footage, clips = argv[0], argv[1], argv[2:]
    totals = {"edges": 0, "boundary": 0, "pause": 0, "neither": 0}
    for clip in clips:
        path = os.path.join(footage, clip)
        extra = ["--max-duration", budget] if budget else []
        plan = json.loads(run([reel, "highlights", path, "--dry-run", "--json", "-o", "/tmp/edges-x.mp4"] + extra))
        ranges = [(r["start"], r["end"]) for r in plan["plannedRanges"]]
        analysis = json.loads(run([reel, "analyze", path, "--json"]))
        cuts = [b["time"] for b in analysis["boundaries"]]
        has_audio = "audio" in run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
        lv = levels(path) if has_audio else []
        windows = [10 * math.log10(sum(10 ** (x / 10) for x in lv[i:i + 5]) / 5) for i in range(0, len(lv) - 4, 5)]
        sounding = sorted(x for x in windows if x > -60)
        typical = sounding[len(sounding) // 2] if len(sounding) >= max(len(windows) // 10, 1) else -60
        threshold = min(typical - 18, -38)
        # A sound track that is silent throughout (car-detection's) is scored as no sound.
        has_audio = has_audio and bool(sounding)
        pauses = []
        run_start = None
        for i, value in enumerate(lv + [0]):
            if value < threshold and run_start is None: run_start = i
            if value >= threshold and run_start is not None:
                if (i - run_start) * 0.02 >= 0.1: pauses.append((run_start * 0.02, i * 0.02))
                run_start = None
        duration = float(run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]))
        fps, changes = picture_changes(path) if not has_audio else (0, [])
        print(f"== {clip}: typical {typical:.1f} dBFS, pause under {threshold:.1f}; {len(ranges)} pieces")
        for (s, e) in ranges:
            row = []
            for t in (s, e):
                if t <= 0.01 or t >= duration - 0.05:
                    row.append(f"{t:8.2f} video edge")
                    if has_audio:
                        totals["edges"] += 1; totals["boundary"] += 1
                    else:
                        totals["silent edges"] = totals.get("silent edges", 0) + 1
                        totals["silent clean"] = totals.get("silent clean", 0) + 1
                    continue
                on_cut = any(abs(c - t) <= 0.05 for c in cuts)
                in_pause = any(a - 0.01 <= t <= b + 0.01 for a, b in pauses)
                i = int(t / 0.02)
                around = max(lv[max(i - 2, 0):i + 3]) - typical if lv else float("nan")
                local = max(lv[max(i - 25, 0):i + 26]) if lv else -100
                dip = local - max(lv[max(i - 2, 0):i + 3]) if lv else 0
                gap = dip >= 10
                kind = "boundary+pause" if on_cut and in_pause else "pause" if in_pause else "boundary" if on_cut else "gap" if gap else "NEITHER"
                if kind == "boundary" and has_audio: kind = "boundary+gap" if gap else "boundary, sound"
                if not has_audio:
                    frame = int(round(t * fps))
                    motion = max(changes[max(frame - 2, 0):frame + 3] or [0])
                    still = motion <= 1.0
                    kind = ("boundary" if on_cut else "still" if still else "MOVING") + f" ({motion:.1f})"
                    totals["silent edges"] = totals.get("silent edges", 0) + 1
                    if on_cut or still: totals["silent clean"] = totals.get("silent clean", 0) + 1
                    row.append(f"{t:8.2f} {kind:15s}")
                    continue
                totals["edges"] += 1
                if on_cut: totals["boundary"] += 1
                elif in_pause: totals["pause"] += 1
                elif gap: totals["gap"] = totals.get("gap", 0) + 1
                else: totals["neither"] += 1
                row.append(f"{t:8.2f} {kind:15s} {around:+6.1f} dB")
            print("   ", " | ".join(row))
    print("edges", totals["edges"], "on a boundary (or the video's edge)", totals["boundary"], "in a pause", totals["pause"],
          "in a gap between sounds (10 dB dip)", totals.get("gap", 0), "none of these", totals["neither"])
    if totals.get("silent edges"):
        print("edges of clips without sound", totals["silent edges"], "on a boundary or where the picture holds still",
              totals.get("silent clean", 0))

main()
