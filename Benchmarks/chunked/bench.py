#!/usr/bin/env python3
"""Chunked encoding (reel plan / encode-chunk / assemble) against one single encode.

    python3 Benchmarks/chunked/bench.py REEL OUTDIR RESULTS_DIR CLIP[:START-END][@CHUNK]...

For each clip: one single encode (`reel compress`), then the plan, every job run by 1 worker
(one after another) and by 2 workers (GNU parallel -j2), and the assembly; wall times from
time.monotonic around each command and the jobs' own encode times from their receipts. The
modelled wall time for N machines is plan + the longest machine's share of the jobs (largest
first onto the least loaded machine) + assemble, without copying files. Size and SSIM (the
ffmpeg CLI's ssim filter against the source) of both outputs, and whether the chunked output's
picture times equal the single encode's. Writes RESULTS_DIR/chunked.json with every command.
"""
import json
import os
import shutil
import subprocess
import sys
import time

PRESET = ["--preset", "medium"]
CHUNK = "60s"


def run(cmd, **kw):
    started = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return time.monotonic() - started


def frame_times(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                          "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout
    return sorted(round(float(x), 4) for x in out.split() if x not in ("", "N/A"))


def ssim(path, source, start, end):
    trim = []
    if start is not None:
        trim = ["-ss", str(start), "-t", str(end - start)]
    err = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", path] + trim + ["-i", source, "-lavfi",
                          "[0:v]settb=AVTB,setpts=PTS-STARTPTS[a];[1:v]settb=AVTB,setpts=PTS-STARTPTS[b];[a][b]scale2ref[a2][b2];[a2][b2]ssim",
                          "-f", "null", "-"], capture_output=True, text=True).stderr
    line = [l for l in err.splitlines() if "SSIM" in l and "All:" in l]
    return float(line[-1].split("All:")[1].split()[0]) if line else None


def schedule(times, machines):
    loads = [0.0] * machines
    for t in sorted(times, reverse=True):
        loads[loads.index(min(loads))] += t
    return max(loads)


def bench(reel, out, spec):
    spec, _, chunk = spec.partition("@")
    chunk = chunk or CHUNK
    path, _, span = spec.partition(":")
    start = end = None
    trim = []
    if span:
        start, end = (float(x) for x in span.split("-"))
        trim = ["--start", str(start), "--end", str(end)]
    name = os.path.splitext(os.path.basename(path))[0] + (f"-{int(start)}-{int(end)}" if span else "")
    work = os.path.join(out, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    single = os.path.join(work, "single.mp4")
    plan = os.path.join(work, "plan.json")
    result = {"clip": name, "source": path, "trim": [start, end] if span else None, "preset": PRESET[1], "chunk": chunk}
    cmd = [reel, "compress", path, *PRESET, *trim, "-o", single, "--quiet"]
    result["single_cmd"] = " ".join(cmd)
    result["single_wall"] = run(cmd)
    cmd = [reel, "plan", path, *PRESET, *trim, "--chunk", chunk, "-o", plan, "--quiet", "--json"]
    result["plan_cmd"] = " ".join(cmd)
    result["plan_wall"] = run(cmd)
    with open(plan) as fh:
        p = json.load(fh)
    jobs = len(p["chunks"]) + (1 if p.get("audioIndex") is not None else 0)
    result["jobs"] = jobs
    result["chunks"] = [{"start": c["start"]["value"] / c["start"]["timescale"], "frames": c["frames"],
                         "atShot": c["startsAtShot"]} for c in p["chunks"]]
    walls = {}
    for workers in (1, 2):
        chunks = os.path.join(work, f"chunks-{workers}")
        cmd = ["parallel", "-j", str(workers), reel, "encode-chunk", plan, "--index", "{}", "-o", chunks, "--quiet", ":::"] + \
            [str(i) for i in range(jobs)]
        walls[workers] = run(cmd)
        result[f"jobs_cmd_{workers}"] = " ".join(cmd[:10]) + f" ::: 0..{jobs - 1}"
    result["jobs_wall"] = walls
    receipts = [json.load(open(os.path.join(work, "chunks-1", f)))
                for f in sorted(os.listdir(os.path.join(work, "chunks-1"))) if f.endswith(".json")]
    result["job_seconds"] = {r["job"]: r["encodeSeconds"] for r in receipts}
    joined = os.path.join(work, "joined.mp4")
    cmd = [reel, "assemble", plan, "--chunks", os.path.join(work, "chunks-1"), "-o", joined, "--quiet"]
    result["assemble_cmd"] = " ".join(cmd)
    result["assemble_wall"] = run(cmd)
    times = list(result["job_seconds"].values())
    result["modelled_wall"] = {n: result["plan_wall"] + schedule(times, n) + result["assemble_wall"] for n in (1, 2, 4, 8, 16)}
    result["single_bytes"] = os.path.getsize(single)
    result["joined_bytes"] = os.path.getsize(joined)
    result["single_ssim"] = ssim(single, path, start, end)
    result["joined_ssim"] = ssim(joined, path, start, end)
    a, b = frame_times(single), frame_times(joined)
    result["frames"] = [len(a), len(b)]
    result["same_times"] = a == b
    return result


def main():
    reel, out, res = sys.argv[1:4]
    results = []
    path = os.path.join(res, "chunked.json")
    if os.environ.get("CHUNKED_KEEP") and os.path.exists(path):
        with open(path) as fh:
            results = json.load(fh)["clips"]
    for spec in sys.argv[4:]:
        print(f"chunked: {spec}", file=sys.stderr)
        result = bench(reel, out, spec)
        results = [r for r in results if r["clip"] != result["clip"]] + [result]
        with open(os.path.join(res, "chunked.json"), "w") as fh:
            json.dump({"reel": reel, "clips": results}, fh, indent=1)


if __name__ == "__main__":
    main()
