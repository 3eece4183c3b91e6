#!/usr/bin/env python3
"""Bit rate each x264 preset needs for the SSIM `medium` reaches at CRF 23, 26 and 29, as a
multiple of medium's (log-linear between the measured CRFs). Input: preset-sweep.sh's lines."""
import collections, math, sys

rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
curves = collections.defaultdict(list)
for clip, preset, crf, rate, ssim in rows:
    curves[(clip, preset)].append((float(ssim), float(rate), int(crf)))

def rate_at(points, target):
    points = sorted(points)
    for (s0, b0, _), (s1, b1, _) in zip(points, points[1:]):
        if s0 <= target <= s1:
            t = (target - s0) / (s1 - s0) if s1 > s0 else 0
            return math.exp(math.log(b0) + t * (math.log(b1) - math.log(b0)))
    return None

for clip in sorted({c for c, _ in curves}):
    for ssim, rate, crf in sorted(curves[(clip, "medium")], key=lambda p: p[2]):
        if crf not in (23, 26, 29):
            continue
        cells = []
        for preset in ["ultrafast", "superfast", "veryfast", "faster", "fast"]:
            other = rate_at(curves[(clip, preset)], ssim)
            cells.append(f"{preset} {other / rate:.2f}" if other else f"{preset} -")
        print(f"{clip} medium CRF {crf} (SSIM {ssim:.4f}): " + ", ".join(cells))
