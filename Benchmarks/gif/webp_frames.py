#!/usr/bin/env python3
"""webp2raw.py FILE FPS: an animated WebP's pictures as raw RGB24 at FPS (the picture on screen at each k/FPS) on stdout; size on stderr."""
import sys
from PIL import Image
im = Image.open(sys.argv[1]); fps = float(sys.argv[2])
frames, t = [], 0.0
for i in range(getattr(im, "n_frames", 1)):
    im.seek(i); rgb = im.convert("RGB").tobytes(); d = im.info.get("duration", 100) / 1000.0
    frames.append((t, t + d, rgb)); t += d
sys.stderr.write(f"{im.size[0]}x{im.size[1]} frames={len(frames)} duration={t:.3f} loop={im.info.get('loop')}\n")
k, j = 0, 0
while k / fps < t - 1e-9:
    now = k / fps
    while j + 1 < len(frames) and frames[j][1] <= now + 1e-9: j += 1
    sys.stdout.buffer.write(frames[j][2]); k += 1
