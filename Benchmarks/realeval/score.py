#!/usr/bin/env python3
"""Scores `reel analyze` and `reel highlights` on real footage and on edits with known passages.

Usage: score.py FOOTAGE_DIR EDITS_DIR LABELS_DIR OUT_DIR RESULTS_DIR

  FOOTAGE_DIR  the videos of Fixtures/fetch-real-footage.sh
  EDITS_DIR    the edits of make_edits.py (<edit>.mp4 and <edit>.truth.json)
  LABELS_DIR   Benchmarks/realeval/labels (<video>.json: poster candidates, key moments, ...)
  OUT_DIR      reel's JSON output, PySceneDetect's CSV, and the contact sheets in sheets/
  RESULTS_DIR  writes realeval.json (every number) and realeval.tsv (timings, in run.sh's format)

Environment: REEL (default .build/release/reel), SCENEDETECT (default Benchmarks/.venv/bin/scenedetect;
empty: no speed comparison), REALEVAL_SPEED_RUNS (default 1), REALEVAL_FONT (a .ttf for the
captions of the contact sheets; default DejaVu Sans Bold when installed).

Python 3 with numpy (Benchmarks/.venv has it) and the ffmpeg/ffprobe CLI.
"""
import bisect
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
REEL = os.environ.get("REEL", os.path.join(ROOT, ".build", "release", "reel"))
SCENEDETECT = os.environ.get("SCENEDETECT", os.path.join(ROOT, "Benchmarks", ".venv", "bin", "scenedetect"))
SPEED_RUNS = int(os.environ.get("REALEVAL_SPEED_RUNS", "1"))
FONT = os.environ.get("REALEVAL_FONT", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")

EDITS = ["passages", "loud", "live", "repeated"]
CLIPS = [("bbb", "bbb.mp4"), ("trailer_bbb", "trailer_bbb.mp4"), ("bikes", "bikes.mp4"),
         ("carphone_pristine", "carphone_pristine.mp4"), ("bigbuckbunny", "bigbuckbunny.mp4"),
         ("vtest", "vtest.avi"), ("Megamind", "Megamind.avi"), ("tree", "tree.avi")]
REEL_BUDGET_MIN_DURATION = 60.0   # a 30 s reel is asked of videos at least this long
REPEAT_TOL = 2.0                  # two reel ranges show the same moment: starts within 2 s (mod period)
REPEAT_OVERLAP = 1.0              # ... or their offsets (mod period) overlap by at least 1 s
GUARD = 0.5                       # AUC samples within 0.5 s of a passage edge are not scored
STEP = 0.25                       # AUC sample spacing
HIT_SECONDS = 1.0                 # a passage is hit when at least 1 s of it is highlighted
BLACK_LUMA = 0.08                 # key frame mean luma below this: black
BLUR_RATIO = 0.2                  # key frame sharpness below this share of the video's median: blurred
SAMPLES = 24                      # frames sampled for the video's median sharpness


# ------------------------------------------------------------------ ranges
def merge(ranges):
    out = []
    for s, e in sorted((float(s), float(e)) for s, e in ranges if e > s):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(ranges):
    return sum(e - s for s, e in merge(ranges))


def overlap(a, b):
    a, b = merge(a), merge(b)
    i = j = 0
    total = 0.0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def inside(t, ranges):
    return any(s <= t <= e for s, e in ranges)


def pairs(objs):
    return [[float(o["start"]), float(o["end"])] for o in objs or []]


def rnd(x, n=3):
    return None if x is None else round(x, n)


# ------------------------------------------------------------------ running
TIMES = []   # "label wall user sys rss_kb" lines for realeval.tsv


def run(cmd, label=None, check=False):
    """Runs cmd; with a label, timed by /usr/bin/time like run.sh's measure(). Returns (rc, stdout, stderr)."""
    tf = None
    if label and os.path.exists("/usr/bin/time"):
        fd, tf = tempfile.mkstemp(prefix="realeval-time.")
        os.close(fd)
        cmd = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", tf] + cmd
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if label:
        if p.returncode != 0:
            TIMES.append(f"{label} FAILED")
        elif tf:
            TIMES.append(f"{label} {open(tf).read().strip().splitlines()[-1]}")
        else:
            TIMES.append(f"{label} {wall:.2f} 0 0 0")
        if tf:
            os.unlink(tf)
    if check and p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {p.stderr.strip()[-500:]}")
    return p.returncode, p.stdout, p.stderr


def probe_duration(path):
    _, out, _ = run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    try:
        return float(out.strip())
    except ValueError:
        return None


def find_key(obj, key):
    if isinstance(obj, dict):
        if key in obj:
            return obj[key]
        for v in obj.values():
            r = find_key(v, key)
            if r is not None:
                return r
    elif isinstance(obj, list):
        for v in obj:
            r = find_key(v, key)
            if r is not None:
                return r
    return None


def analyze(name, path, out_dir, label=None):
    rc, out, err = run([REEL, "analyze", path, "--json", "--quiet"], label=label)
    if rc != 0:
        return None, err.strip()[-300:]
    with open(os.path.join(out_dir, f"{name}.analyze.json"), "w") as f:
        f.write(out)
    return json.loads(out), None


def reel_ranges(name, path, budget, out_dir):
    """The ranges a budgeted reel takes: plannedRanges of a dry run when reel prints them, else
    requestedRanges of a small real encode. Returns (ranges, how, kept, error)."""
    base = [REEL, "highlights", path, "--max-duration", str(budget)]
    rc, out, err = run(base + ["--dry-run", "--json", "--quiet"])
    if rc == 0:
        try:
            planned = find_key(json.loads(out), "plannedRanges")
        except ValueError:
            planned = None
        if planned is not None:
            with open(os.path.join(out_dir, f"{name}.reel{budget}.json"), "w") as f:
                f.write(out)
            return pairs(planned), "plannedRanges", None, None
    tmp = os.path.join(out_dir, f".{name}-reel{budget}.mp4")
    for size_flag in ("--max-dimension", "--max-size"):
        rc, out, err = run(base + ["--preset", "low", size_flag, "320", "-o", tmp, "--overwrite", "--json", "--quiet"])
        if rc == 0 or "unknown option" not in err:
            break
    if os.path.exists(tmp):
        os.unlink(tmp)
    if rc != 0:
        return None, None, None, err.strip()[-300:]
    with open(os.path.join(out_dir, f"{name}.reel{budget}.json"), "w") as f:
        f.write(out)
    d = json.loads(out)
    return (pairs(find_key(d, "requestedRanges")), "requestedRanges of an encode",
            pairs(find_key(d, "keptRanges")), None)


# ------------------------------------------------------------------ frames
CORRUPT = re.compile(r"conceal|corrupt|error while decoding|invalid nal|missing picture|no frame!", re.I)


def grab(path, t, w=640, h=360, accurate=True, messages=None):
    """The frame at t as a gray float array, or None past the end. Not accurate: the keyframe
    the seek lands on (cheap; enough for sampling a video's typical sharpness). The decoder's
    messages are appended to the list `messages` when one is given."""
    seek = ["-ss", f"{max(0.0, t):.4f}"] if accurate else ["-noaccurate_seek", "-ss", f"{max(0.0, t):.4f}"]
    cmd = ["ffmpeg", "-nostdin", "-v", "error"] + seek + ["-i", path, "-frames:v", "1",
           "-vf", f"scale={w}:{h},format=gray", "-f", "rawvideo", "-"]
    p = subprocess.run(cmd, capture_output=True)
    if messages is not None:
        messages.extend(l for l in p.stderr.decode(errors="replace").splitlines() if l.strip())
    if len(p.stdout) != w * h:
        return None
    return np.frombuffer(p.stdout, np.uint8).reshape(h, w).astype(np.float32)


def lapvar(g):
    lap = -4 * g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    return float(lap.var())


def half(g):
    h, w = g.shape
    g = g[:h // 2 * 2, :w // 2 * 2]
    return (g[0::2, 0::2] + g[1::2, 0::2] + g[0::2, 1::2] + g[1::2, 1::2]) / 4


def box(g, r):
    k = 2 * r + 1
    c = np.pad(np.pad(g, r, mode="edge").cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    return (c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]) / (k * k)


def features(g):
    """luma 0-1; sharpness = variance of the Laplacian at 320x180; a crude text/credits test:
    thin strokes far from a smooth local background (titles, credits on a plain background), or
    more detail at 640 px than at 320 px (dense small type)."""
    g320 = half(g)
    s640, s320 = lapvar(g), lapvar(g320)
    res = g - box(g, 4)
    strokes = float(np.mean(np.abs(res) > 40))
    smooth = float(np.mean(np.abs(res) < 3))
    fine = s640 / s320 if s320 > 1e-6 else 0.0
    text = (strokes >= 0.012 and smooth >= 0.85) or strokes >= 0.1 or fine > 1.2
    return {"luma": float(g.mean() / 255), "sharpness": s320, "strokes": strokes, "smooth": smooth,
            "fine_detail": fine, "text_like": bool(text)}


def keyframe_check(path, duration, t, labels):
    out = {"time": rnd(t)}
    if t is None:
        out.update(ok=False, problems=["no key frame"])
        return out
    messages = []
    g = grab(path, t, messages=messages)
    if g is None:
        out.update(ok=False, problems=["no frame at that time"])
        return out
    f = features(g)
    sharp = []
    for i in range(SAMPLES):
        s = grab(path, duration * (i + 0.5) / SAMPLES, accurate=False)
        if s is not None:
            sharp.append(lapvar(half(s)))
    median = statistics.median(sharp) if sharp else None
    ratio = f["sharpness"] / median if median else None
    problems = []
    if f["luma"] < BLACK_LUMA:
        problems.append(f"black (luma {f['luma']:.3f})")
    if ratio is not None and ratio < BLUR_RATIO:
        problems.append(f"blurred (sharpness {ratio:.2f} of the median)")
    if f["text_like"]:
        problems.append("text-like (credits/title test)")
    if any(CORRUPT.search(m) for m in messages):
        problems.append("decoder errors (corrupt)")
    out["decoder_messages"] = messages[:5]
    for kind in ("black", "credits", "title"):
        if labels and inside(t, labels.get(kind, [])):
            problems.append(f"inside the labelled {kind}")
    out.update({k: rnd(v, 4) if isinstance(v, float) else v for k, v in f.items()})
    out["sharpness_ratio"] = rnd(ratio)
    out["problems"] = problems
    out["ok"] = not problems
    if labels is not None:
        poster = [r["range"] for r in labels.get("poster", [])]
        out["in_poster"] = inside(t, poster)
        near = min((0.0 if s <= t <= e else min(abs(t - s), abs(t - e)) for s, e in poster), default=None)
        out["poster_distance"] = rnd(near)
    return out


def sheet(path, items, out_png, work):
    """A contact sheet (PNG): one 320x180 tile per (time, caption), 5 to a row."""
    d = tempfile.mkdtemp(dir=work)
    try:
        n = 0
        for t, caption in items:
            cap = os.path.join(d, f"{n:03d}.txt")
            with open(cap, "w") as f:
                f.write(caption)
            vf = "scale=320:180:force_original_aspect_ratio=decrease,pad=320:180:(ow-iw)/2:(oh-ih)/2,setsar=1"
            if os.path.exists(FONT):
                vf += (f",drawtext=fontfile={FONT}:textfile={cap}:x=3:y=3:fontsize=13:fontcolor=yellow:"
                       "box=1:boxcolor=black@0.65:boxborderw=2")
            rc, _, _ = run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-ss", f"{max(0.0, t):.4f}", "-i", path,
                            "-frames:v", "1", "-vf", vf, os.path.join(d, f"{n:03d}.png")])
            if rc == 0 and os.path.exists(os.path.join(d, f"{n:03d}.png")):
                n += 1
        if n == 0:
            return None
        cols = min(5, n)
        rows = math.ceil(n / cols)
        run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-framerate", "1", "-i", os.path.join(d, "%03d.png"),
             "-vf", f"tile={cols}x{rows}:color=0x202020", "-frames:v", "1", out_png], check=True)
        return out_png
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ------------------------------------------------------------------ metrics
def level_at(segments, t):
    starts = [s["start"] for s in segments]
    i = bisect.bisect_right(starts, t) - 1
    if i >= 0 and segments[i]["start"] <= t < segments[i]["end"]:
        return float(segments[i].get("level", 0.0))
    return None


def auc(segments, passages, calm, duration):
    segs = sorted(segments or [], key=lambda s: s["start"])
    edges = [x for s, e in passages for x in (s, e)]
    pos, neg = [], []
    t = STEP / 2
    while t < duration:
        if not any(abs(t - x) < GUARD for x in edges):
            lv = level_at(segs, t)
            if lv is not None:
                if inside(t, passages):
                    pos.append(lv)
                elif inside(t, calm):
                    neg.append(lv)
        t += STEP
    if not pos or not neg:
        return None, len(pos), len(neg)
    neg_sorted = sorted(neg)
    total = 0.0
    for p in pos:
        lo = bisect.bisect_left(neg_sorted, p)
        hi = bisect.bisect_right(neg_sorted, p)
        total += lo + 0.5 * (hi - lo)
    return total / (len(pos) * len(neg)), len(pos), len(neg)


def prf(chosen, truth):
    h, t = length(chosen), length(truth)
    inter = overlap(chosen, truth)
    p = inter / h if h > 0 else None
    r = inter / t if t > 0 else None
    f1 = 2 * p * r / (p + r) if p and r else 0.0
    return p, r, f1


def repeats(ranges, period):
    """(how many ranges show a moment an earlier range already showed, the pairs of ranges that
    show the same moment) for content repeated with this period."""
    found = []
    rs = sorted(ranges)
    for i in range(len(rs)):
        for j in range(i + 1, len(rs)):
            a, b = rs[i], rs[j]
            d = (b[0] - a[0]) % period
            start_close = min(d, period - d) <= REPEAT_TOL
            # overlap of the offsets: shift b by whole periods onto a
            shift = round((b[0] - a[0]) / period) * period
            best = 0.0
            for k in (-1, 0, 1):
                s = shift + k * period
                best = max(best, min(a[1], b[1] - s) - max(a[0], b[0] - s))
            if start_close or best >= REPEAT_OVERLAP:
                found.append([a, b])
    again = {tuple(b) for _, b in found}
    return len(again), found


def pieces_stats(ranges):
    rs = merge(ranges)
    if not rs:
        return {"pieces": 0}
    gaps = [b[0] - a[1] for a, b in zip(rs, rs[1:])]
    return {"pieces": len(rs), "seconds": rnd(length(rs)), "shortest_piece": rnd(min(e - s for s, e in rs)),
            "smallest_gap": rnd(min(gaps)) if gaps else None}


# ------------------------------------------------------------------ main
def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    footage, edits_dir, labels_dir, out_dir, res_dir = sys.argv[1:]
    sheets = os.path.join(out_dir, "sheets")
    shutil.rmtree(sheets, ignore_errors=True)   # no stale sheets from an earlier run
    os.makedirs(sheets, exist_ok=True)
    os.makedirs(res_dir, exist_ok=True)
    t_start = time.monotonic()
    _, version, _ = run([REEL, "--version"])
    results = {"reel": REEL, "reel_version": version.strip(), "videos": {}, "order": [],
               "settings": {"repeat_tolerance": REPEAT_TOL, "repeat_overlap": REPEAT_OVERLAP, "auc_guard": GUARD,
                            "auc_step": STEP, "hit_seconds": HIT_SECONDS, "black_luma": BLACK_LUMA,
                            "blur_ratio": BLUR_RATIO}}

    videos = [(n, os.path.join(edits_dir, n + ".mp4"), "edit") for n in EDITS]
    videos += [(n, os.path.join(footage, f), "clip") for n, f in CLIPS]
    for name, path, kind in videos:
        print(f"  realeval: {name} ({time.monotonic() - t_start:.0f} s)", file=sys.stderr)
        v = {"kind": kind, "file": os.path.basename(path)}
        results["videos"][name] = v
        results["order"].append(name)
        truth = labels = None
        if kind == "edit":
            truth = json.load(open(os.path.join(edits_dir, name + ".truth.json")))
            v["truth"] = {k: truth.get(k) for k in ("passages", "calm", "period", "duration", "pieces",
                                                     "loud_source_range")}
        lpath = os.path.join(labels_dir, name + ".json")
        if os.path.exists(lpath):
            raw = json.load(open(lpath))
            labels = dict(raw)
            v["labelled"] = True
        duration = probe_duration(path)
        v["duration"] = rnd(duration)
        t0 = time.monotonic()
        a, err = analyze(name, path, out_dir, label=f"{name}.reel" if name == "bbb" else None)
        v["analyze_wall"] = rnd(time.monotonic() - t0, 2)
        if a is None:
            v["error"] = f"reel analyze failed: {err}"
            continue
        v["analysis_time"] = rnd(a.get("analysisTime"), 2)
        hl = pairs(a.get("highlights"))
        v["highlights"] = [[rnd(s), rnd(e)] for s, e in hl]
        v["highlight_seconds"] = rnd(length(hl))
        v["segments"] = len(a.get("segments") or [])
        v["shots"] = len(a.get("shots") or [])
        kf = (a.get("keyframe") or {}).get("time")
        v["keyframe"] = keyframe_check(path, duration or a.get("duration") or 0.0, kf, labels)

        # budgeted reels
        budgets = [30] if (duration or 0) >= REEL_BUDGET_MIN_DURATION else []
        if name == "bbb":
            budgets.append(60)
        for b in budgets:
            rr, how, kept, rerr = reel_ranges(name, path, b, out_dir)
            r = {"how": how}
            if rr is None:
                r["error"] = rerr
            else:
                r["ranges"] = [[rnd(s), rnd(e)] for s, e in rr]
                if kept is not None:
                    r["kept"] = [[rnd(s), rnd(e)] for s, e in kept]
                r.update(pieces_stats(rr))
            v[f"reel{b}"] = r

        # truth by construction
        if truth:
            passages, calm, period = truth.get("passages") or [], truth.get("calm") or [], truth.get("period")
            if passages:
                p, rc, f1 = prf(hl, passages)
                v.update(precision=rnd(p), recall=rnd(rc), f1=rnd(f1))
                hit = [overlap(hl, [ps]) >= min(HIT_SECONDS, ps[1] - ps[0]) for ps in passages]
                v["passages_hit"], v["passages_total"] = sum(hit), len(hit)
                au, npos, nneg = auc(a.get("segments"), passages, calm, duration or 0.0)
                v["auc"], v["auc_samples"] = rnd(au), [npos, nneg]
                if "ranges" in v.get("reel30", {}):
                    p30, r30, f30 = prf(v["reel30"]["ranges"], passages)
                    v["reel30"].update(precision=rnd(p30), recall=rnd(r30), f1=rnd(f30))
            if period:
                v["highlight_repeats"], _ = repeats(hl, period)
                if "ranges" in v.get("reel30", {}):
                    n, rep30 = repeats(v["reel30"]["ranges"], period)
                    v["reel30"]["repeats"] = n
                    v["reel30"]["repeat_pairs"] = rep30
        if labels:
            bad = merge(labels.get("black", []) + labels.get("credits", []) + labels.get("title", []))
            km = [k["range"] for k in labels.get("key_moments", [])]
            for b in budgets + ["highlights"]:
                rr = hl if b == "highlights" else v.get(f"reel{b}", {}).get("ranges")
                if rr is None:
                    continue
                m = {"bad_seconds": rnd(overlap(rr, bad))}
                if km:
                    m["key_moment_precision"] = rnd(overlap(rr, km) / length(rr)) if length(rr) else None
                    m["key_moments_touched"] = sum(overlap(rr, [k]) >= HIT_SECONDS for k in km)
                    m["key_moments"] = len(km)
                tr = (labels.get("trailer") or {}).get("ranges")
                if tr:
                    m["trailer_precision"] = rnd(overlap(rr, tr) / length(rr)) if length(rr) else None
                    m["trailer_recall"] = rnd(overlap(rr, tr) / length(tr))
                    m["trailer_seconds"] = rnd(length(tr))
                v[f"labels_{b}"] = m

        # contact sheets: the key frame and one frame per highlight / reel range (its middle)
        def tag(t):
            if truth and truth.get("period"):
                return f" @{t % truth['period']:.1f}"
            if truth and truth.get("passages"):
                return " P" if inside(t, truth["passages"]) else (" C" if inside(t, truth.get("calm") or []) else "")
            return ""
        items = []
        if kf is not None:
            items.append((kf, f"KEY {kf:.2f}s{tag(kf)}"))
        for i, (s, e) in enumerate(hl[:29]):
            items.append(((s + e) / 2, f"H{i + 1} {s:.1f}-{e:.1f}{tag((s + e) / 2)}"))
        v["sheets"] = []
        png = sheet(path, items, os.path.join(sheets, f"{name}-keyframe-highlights.png"), out_dir)
        if png:
            v["sheets"].append(os.path.relpath(png, out_dir))
        for b in budgets:
            rr = v.get(f"reel{b}", {}).get("ranges")
            if rr:
                items = [((s + e) / 2, f"R{i + 1} {s:.1f}-{e:.1f}{tag((s + e) / 2)}") for i, (s, e) in enumerate(rr[:30])]
                png = sheet(path, items, os.path.join(sheets, f"{name}-reel{b}.png"), out_dir)
                if png:
                    v["sheets"].append(os.path.relpath(png, out_dir))

    # speed on the real film: reel analyze vs PySceneDetect detect-adaptive
    bbb = os.path.join(footage, "bbb.mp4")
    speed = {"input": "bbb.mp4", "runs": SPEED_RUNS}
    if SCENEDETECT and os.path.exists(SCENEDETECT):
        print("  realeval: speed (reel analyze vs PySceneDetect on bbb.mp4)", file=sys.stderr)
        for i in range(SPEED_RUNS):
            if i > 0:
                run([REEL, "analyze", bbb, "--json", "--quiet"], label="bbb.reel")
            csv = os.path.join(out_dir, "bbb-scenedetect.csv")
            if os.path.exists(csv):
                os.unlink(csv)
            run([SCENEDETECT, "-i", bbb, "-q", "-o", out_dir, "detect-adaptive", "list-scenes", "-f",
                 "bbb-scenedetect.csv"], label="bbb.scenedetect")
        speed["cmds"] = ["reel analyze bbb.mp4 --json --quiet",
                         "scenedetect -i bbb.mp4 -q -o DIR detect-adaptive list-scenes -f bbb-scenedetect.csv"]
        try:
            rows = open(os.path.join(out_dir, "bbb-scenedetect.csv")).read().splitlines()
            speed["scenedetect_scenes"] = max(0, len(rows) - 2)
        except OSError:
            pass
    else:
        speed["skipped"] = f"no PySceneDetect at {SCENEDETECT!r}"
    results["speed"] = speed
    results["runtime"] = rnd(time.monotonic() - t_start, 1)

    with open(os.path.join(res_dir, "realeval.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    with open(os.path.join(res_dir, "realeval.tsv"), "w") as f:
        f.write("\n".join(TIMES) + ("\n" if TIMES else ""))
    print(f"  realeval: scored {len(results['order'])} videos in {results['runtime']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
