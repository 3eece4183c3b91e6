#!/usr/bin/env python3
"""Target quality (`reel compress --target-quality ssim:T`) against the fixed-CRF encode a user
would pick to reach the same quality, on lavfi and real clips.

For each clip: reel's per-shot encode (video only, full size), then the same settings at a
single fixed CRF for several CRFs. Per-frame SSIM of every output against the source comes from
ffmpeg's ssim filter (stats_file); the fixed CRF that reaches reel's mean SSIM, and the one that
reaches reel's 5th-percentile SSIM, are interpolated (log size, linear SSIM) between the two
measured CRFs around them. Writes RES/targetquality.json.

    bench.py REEL RES OUTDIR          (TARGETQUALITY_ONLY=clip,... limits the clips)
"""
import json, math, os, subprocess, sys, time

REEL, RES, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, "Benchmarks", ".work")
TARGET = float(os.environ.get("TARGETQUALITY_SSIM", "0.98"))
FIXED_CRFS = [16, 20, 24, 28, 32, 36]
# The fixed-CRF encodes depend only on the clip and the CRF: TARGETQUALITY_FIXED_CACHE=FILE
# keeps their measurements between runs (a change to reel's target-quality mode reruns reel only).
CACHE = os.environ.get("TARGETQUALITY_FIXED_CACHE")
CLIPS = [
    ("src720p30_60s", os.path.join(WORK, "inputs", "src720p30_60s.mp4"), 30, "lavfi"),
    ("bbb_60s", os.path.join(WORK, "footage", "bbb.mp4"), 60, "real"),
    ("vtest_40s", os.path.join(WORK, "footage", "vtest.avi"), 40, "real"),
]
COMMON = ["--speed", "medium", "--no-audio", "--max-dimension", "original", "--fps", "1000", "--no-content-aware",
          "--overwrite", "--quiet", "--json"]


def log(*a):
    print("  targetquality:", *a, file=sys.stderr, flush=True)


def video_bytes(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size",
                          "-of", "csv=p=0", path], capture_output=True, text=True).stdout
    return sum(int(x) for x in out.split() if x.strip().isdigit())


def ssim_frames(path, source, seconds):
    stats = path + ".ssim"
    subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-t", str(seconds), "-i", source, "-lavfi",
                    f"[1:v]setpts=PTS-STARTPTS[r];[0:v]setpts=PTS-STARTPTS[d];[d][r]ssim=stats_file={stats}",
                    "-f", "null", "-"], check=True)
    values = []
    for line in open(stats):
        for part in line.split():
            if part.startswith("All:"):
                values.append(float(part[4:]))
    os.remove(stats)
    return values


def summary(values):
    s = sorted(values)
    return {"mean": sum(s) / len(s), "p5": s[max(int(len(s) * 0.05) - 1, 0)] if s else None, "frames": len(s)}


def reel(args, out):
    t = time.time()
    p = subprocess.run([REEL, "compress"] + args + ["-o", out] + COMMON, capture_output=True, text=True)
    wall = time.time() - t
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip()[-400:])
    return json.loads(p.stdout), wall


def at_equal(points, key, goal):
    """Video bytes of a fixed CRF reaching `goal` in `key`, interpolated between measured CRFs."""
    pts = sorted(points, key=lambda p: p["crf"])
    for a, b in zip(pts, pts[1:]):
        if a[key] >= goal >= b[key]:
            f = 0 if a[key] == b[key] else (a[key] - goal) / (a[key] - b[key])
            crf = a["crf"] + f * (b["crf"] - a["crf"])
            size = math.exp(math.log(a["bytes"]) + f * (math.log(b["bytes"]) - math.log(a["bytes"])))
            return {"crf": round(crf, 2), "bytes": int(size)}
    return None


def main():
    os.makedirs(OUT, exist_ok=True)
    cache = {}
    if CACHE and os.path.exists(CACHE):
        with open(CACHE) as fh:
            cache = json.load(fh)
    results = {"target": TARGET, "fixed_crfs": FIXED_CRFS, "clips": []}
    only = [c for c in os.environ.get("TARGETQUALITY_ONLY", "").split(",") if c]
    for name, source, seconds, kind in CLIPS:
        if only and name not in only:
            continue
        if not os.path.exists(source):
            results["clips"].append({"name": name, "skipped": f"missing {source}"})
            continue
        entry = {"name": name, "kind": kind, "source": os.path.relpath(source, ROOT), "seconds": seconds}
        try:
            out = os.path.join(OUT, f"{name}-reel.mp4")
            data, wall = reel([source, "--end", str(seconds), "--target-quality", f"ssim:{TARGET}"], out)
            tq = data["result"]["targetQuality"]
            entry["reel"] = {"bytes": video_bytes(out), "wall": round(wall, 2), "sampling": round(tq["samplingTime"], 2),
                             "segments": len(tq["segments"]), "crfs": [s["constantRateFactor"] for s in tq["segments"]],
                             **summary(ssim_frames(out, source, seconds))}
            log(name, "reel", entry["reel"]["bytes"], round(entry["reel"]["mean"], 4), round(wall, 1), "s")
            points = []
            for crf in FIXED_CRFS:
                key = f"{name}-crf{crf}"
                if key in cache:
                    points.append(cache[key])
                    continue
                out = os.path.join(OUT, f"{key}.mp4")
                q = (40 - crf) / 24
                _, wall = reel([source, "--end", str(seconds), "--rate-control", "quality", "--quality", f"{q:.6f}"], out)
                points.append({"crf": crf, "bytes": video_bytes(out), "wall": round(wall, 2),
                               **summary(ssim_frames(out, source, seconds))})
                log(name, "crf", crf, points[-1]["bytes"], round(points[-1]["mean"], 4))
                cache[key] = points[-1]
                if CACHE:
                    with open(CACHE, "w") as fh:
                        json.dump(cache, fh)
            entry["fixed"] = points
            entry["equal_mean"] = at_equal(points, "mean", entry["reel"]["mean"])
            entry["equal_p5"] = at_equal(points, "p5", entry["reel"]["p5"])
            need = [e for e in (entry["equal_mean"], entry["equal_p5"]) if e]
            if len(need) == 2:
                # The fixed CRF a user needs to match both: the lower one (more bytes).
                both = max(need, key=lambda e: e["bytes"])
                entry["saving"] = round(1 - entry["reel"]["bytes"] / both["bytes"], 4)
            entry["fixed_wall"] = round(sum(p["wall"] for p in points) / len(points), 2)
        except Exception as error:  # one clip failing is recorded, not fatal
            entry["error"] = str(error)
            log(name, "failed:", error)
        results["clips"].append(entry)
    with open(os.path.join(RES, "targetquality.json"), "w") as fh:
        json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
