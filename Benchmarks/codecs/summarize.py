#!/usr/bin/env python3
"""Summarises curve.sh's CSV: per clip and encoder, BD-rate against x264 medium (piecewise
linear in log bytes over the overlapping quality span, in SSIM dB = -10 log10(1 - SSIM) and in
PSNR), and the rate factor of each encoder that gives the SSIM of each x264 CRF (the map from
videoQuality's H.264 scale). Usage: summarize.py results.csv"""
import csv, math, sys
from collections import defaultdict

def ssim_db(s):
    return -10 * math.log10(max(1 - s, 1e-9))

def interp(points, x):
    """y at x on the piecewise-linear curve through sorted (x, y) points, extrapolating at the ends."""
    points = sorted(points)
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1 or (x1, y1) == points[-1]:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 != x0 else y0
    return points[-1][1]

def bd_rate(ref, test):
    """Mean log-rate difference over the shared quality span (points: (quality, bytes))."""
    lo = max(min(q for q, _ in ref), min(q for q, _ in test))
    hi = min(max(q for q, _ in ref), max(q for q, _ in test))
    if hi <= lo:
        return None
    steps = 50
    diffs = []
    for i in range(steps + 1):
        q = lo + (hi - lo) * i / steps
        diffs.append(interp([(a, math.log(b)) for a, b in test], q) - interp([(a, math.log(b)) for a, b in ref], q))
    return (math.exp(sum(diffs) / len(diffs)) - 1) * 100

rows = list(csv.DictReader(open(sys.argv[1])))
curves = defaultdict(list)
for row in rows:
    curves[(row["clip"], row["encoder"], row["setting"])].append(row)
clips = sorted({row["clip"] for row in rows}, key=[r["clip"] for r in rows].index)
for clip in clips:
    ref = curves.get((clip, "libx264", "medium"))
    if not ref:
        continue
    print(f"\n{clip}")
    ref_ssim = [(ssim_db(float(r["ssim"])), int(r["bytes"])) for r in ref]
    ref_psnr = [(float(r["psnr"]), int(r["bytes"])) for r in ref]
    ref_time = sum(float(r["seconds"]) for r in ref) / len(ref)
    for (c, encoder, setting), points in curves.items():
        if c != clip or len(points) < 3:
            continue
        ssim = [(ssim_db(float(r["ssim"])), int(r["bytes"])) for r in points]
        psnr = [(float(r["psnr"]), int(r["bytes"])) for r in points]
        time = sum(float(r["seconds"]) for r in points) / len(points)
        bd_s, bd_p = bd_rate(ref_ssim, ssim), bd_rate(ref_psnr, psnr)
        fmt = lambda v: "n/a" if v is None else f"{v:+.1f}%"
        line = f"  {encoder} {setting}: BD-rate vs x264 medium SSIM {fmt(bd_s)}, PSNR {fmt(bd_p)}; mean time {time:.1f} s (x264 {ref_time:.1f} s)"
        if encoder != "libx264":
            crf_curve = [(ssim_db(float(r["ssim"])), float(r["rate"])) for r in points]
            mapped = [f"{r['rate']}->{interp(crf_curve, ssim_db(float(r['ssim']))):.1f}" for r in ref]
            line += "; CRF at x264's SSIM: " + ", ".join(mapped)
        print(line)
