#!/usr/bin/env python3
"""Makes the real-footage edits whose ground truth is known by construction.

Usage: make_edits.py FOOTAGE_DIR OUT_DIR

Each edit is cut from the real footage of Fixtures/fetch-real-footage.sh with one ffmpeg command
(input seeking per piece, the concat filter, libx264 + AAC, 640x360) and written as
OUT_DIR/<name>.mp4 with OUT_DIR/<name>.truth.json next to it:

    {"passages": [[start, end], ...],   the known passages (seconds in the edit)
     "calm": [[start, end], ...],       the calm stretches they are scored against
     "period": seconds or null,         for content repeated with that period
     "pieces": [...], "command": [...], "spec": hash of the recipe}

An edit whose .mp4 and .truth.json exist with the same recipe hash is not remade. The source
ranges were chosen by looking at the frames (see Benchmarks/realeval/README.md).
Standard library only.
"""
import hashlib
import json
import os
import subprocess
import sys

BBB = "bbb.mp4"          # Big Buck Bunny, the whole film: 1280x720, 24 fps, AAC stereo 44.1 kHz
TREE = "tree.avi"        # a tree, static camera, 320x240 15 fps, no audio (a hand enters at 23.1 s)
BIKES = "bikes.mp4"      # street scenes with cyclists, 640x272 25 fps, no audio

# (kind, source, start, end, what is in it). Times are in the source; BBB ranges are whole frames
# (multiples of 1/24 s) and lie inside one shot or start on a cut, never a frame or two before one.
CALM_1 = ("calm", BBB, 30.5, 47.5, "dolly into the dark burrow, the bunny asleep (after the title fades)")
CALM_2 = ("calm", BBB, 127.5, 146.25, "bunny standing under a tree, a squirrel peeks out")
CALM_3A = ("calm", BBB, 2.0, 11.75, "opening: slow pan over a meadow at dawn (after the fade-in)")
CALM_3B = ("calm", BBB, 381.25, 390.75, "split screen: a squirrel on a trunk, a bird on a branch")
CALM_4A = ("calm", BBB, 232.5, 242.0, "bunny looks up, then the tree trunk")
CALM_4B = ("calm", BBB, 80.0, 89.5, "bunny standing in the meadow with a butterfly")
ACTION_1 = ("action", BBB, 347.0, 356.0, "trap: a rock and a log roll at the chinchilla")
ACTION_2 = ("action", BBB, 429.375, 437.375, "flying-squirrel chase: fast cuts, glides, forest fly-over")
ACTION_3 = ("action", BBB, 206.0, 213.75, "the rodents swat the butterfly: fast cuts, throws")

EDITS = {
    # Three real action passages between calm passages of about 20 s, with the film's own sound.
    "passages": {
        "fps": 24, "audio": "own",
        "pieces": [CALM_1, ACTION_1, CALM_2, ACTION_2, CALM_3A, CALM_3B, ACTION_3, CALM_4A, CALM_4B],
    },
    # One minute of the film (a squirrel close-up, the flying-squirrel chase, the catch) six times.
    "repeated": {
        "fps": 24, "audio": "own", "period": 60.0,
        "pieces": [("repeat", BBB, 394.5, 454.5, f"copy {i + 1} of 6: squirrel, flying chase, the catch")
                   for i in range(6)],
    },
    # Calm picture throughout; its own sound 15 dB down, except 12 s of the film's loudest
    # stretch of score (250.75-266 s: the bunny arms himself, about -23 dB RMS) over the calm
    # burrow shot, away from any cut of the picture.
    "loud": {
        "fps": 24, "audio": "loud", "bed_gain_db": -15.0,
        "loud": {"source": BBB, "start": 252.0, "end": 264.0, "at": 12.0},
        "pieces": [("calm", BBB, 2.0, 11.75, CALM_3A[4]), ("calm", BBB, 30.5, 47.5, CALM_1[4]),
                   ("calm", BBB, 127.5, 146.25, CALM_2[4]), ("calm", BBB, 232.5, 242.0, CALM_4A[4]),
                   ("calm", BBB, 80.0, 89.5, CALM_4B[4])],
    },
    # Live footage, silent: a near-still tree, 10 s of street scenes with cyclists, the tree again.
    "live": {
        "fps": 25, "audio": None,
        "pieces": [("calm", TREE, 0.0, 11.6, "a tree, static camera, leaves barely moving"),
                   ("action", BIKES, 0.0, 10.0, "street: a cyclist in a suit, a taxi, a cyclist with a helmet, walkers"),
                   ("calm", TREE, 11.6, 23.0, "the same tree, before the hand enters at 23.1 s")],
    },
}

W, H = 640, 360
ENCODE = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-threads", "2",
          "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1",
          "-movflags", "+faststart"]
AUDIO = ["-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2"]


def fill(src_w, src_h):
    """scale and crop to fill 640x360 (the sources are 16:9, 4:3 or 2.35:1)"""
    if src_w * H == src_h * W:
        return f"scale={W}:{H}"
    if src_w * H > src_h * W:   # wider: fit the height, crop the sides
        return f"scale=-2:{H},crop={W}:{H}"
    return f"scale={W}:-2,crop={W}:{H}"


# Each piece is cut by its timestamps in the source, not by where a seek lands: the input is
# opened a little before the piece with the source's own timestamps (-copyts), trim/atrim keep
# exactly [start, end), and the piece is then padded or cut to exactly round(D * fps) frames and
# round(D * 48000) samples, so the pieces of an edit start where the truth says, to the frame.
def seek(path, s, e):
    s0 = max(0.0, s - 3.0)
    return ["-ss", f"{s0}", "-t", f"{e - s0 + 2.0}", "-copyts", "-i", path]


def vpiece(s, e, fps):
    n = round((e - s) * fps)
    return (f"trim=start={s}:end={e},setpts=PTS-STARTPTS,fps={fps},tpad=stop_mode=clone:stop={fps},"
            f"trim=end_frame={n}")


def apiece(s, e):
    n = round((e - s) * 48000)
    return (f"atrim=start={s}:end={e},asetpts=PTS-STARTPTS,aresample=48000,"
            f"aformat=sample_fmts=fltp:channel_layouts=stereo,apad,atrim=end_sample={n}")


def probe_size(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "stream=width,height", "-of", "csv=p=0", path], capture_output=True, text=True,
                         check=True).stdout.strip()
    w, h = out.split(",")[:2]
    return int(w), int(h)


def merge(ranges):
    out = []
    for s, e in sorted(ranges):
        if out and s <= out[-1][1] + 1e-6:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [[round(s, 6), round(e, 6)] for s, e in out]


def build(name, spec, footage, out_dir):
    fps = spec["fps"]
    cmd = ["ffmpeg", "-nostdin", "-y", "-v", "error"]
    graph, labels, pieces, t = [], [], [], 0.0
    sizes = {}
    for i, (kind, src, s, e, what) in enumerate(spec["pieces"]):
        path = os.path.join(footage, src)
        if src not in sizes:
            sizes[src] = probe_size(path)
        cmd += seek(path, s, e)
        graph.append(f"[{i}:v]{vpiece(s, e, fps)},{fill(*sizes[src])},setsar=1,format=yuv420p[v{i}]")
        if spec["audio"]:
            gain = f",volume={spec['bed_gain_db']}dB" if spec["audio"] == "loud" else ""
            graph.append(f"[{i}:a]{apiece(s, e)}{gain}[a{i}]")
            labels.append(f"[v{i}][a{i}]")
        else:
            labels.append(f"[v{i}]")
        pieces.append({"kind": kind, "source": src, "source_range": [s, e], "range": [round(t, 6), round(t + e - s, 6)],
                       "what": what})
        t += e - s
    n = len(spec["pieces"])
    a = 1 if spec["audio"] else 0
    out_v, out_a = "[v]", "[a]"
    graph.append("".join(labels) + f"concat=n={n}:v=1:a={a}" + ("[v][a]" if a else "[v]"))
    truth = {"passages": [], "calm": [], "period": spec.get("period")}
    if spec["audio"] == "loud":
        ld = spec["loud"]
        k = n
        cmd += seek(os.path.join(footage, ld["source"]), ld["start"], ld["end"])
        at, dur = ld["at"], ld["end"] - ld["start"]
        graph[-1] = graph[-1].replace("[v][a]", "[v][bed]")
        graph.append(f"[bed]asplit=2[b1][b2];[b1]atrim=0:{at},asetpts=PTS-STARTPTS,afade=t=out:st={at - 0.05}:d=0.05[q1];"
                     f"[b2]atrim={at + dur}:{t},asetpts=PTS-STARTPTS,afade=t=in:d=0.05[q2];"
                     f"[{k}:a]{apiece(ld['start'], ld['end'])},"
                     f"afade=t=in:d=0.05,afade=t=out:st={dur - 0.05}:d=0.05[loud];"
                     f"[q1][loud][q2]concat=n=3:v=0:a=1[a]")
        truth["passages"] = [[at, at + dur]]
        truth["calm"] = merge([[0.0, at], [at + dur, round(t, 6)]])
        truth["loud_source_range"] = [ld["start"], ld["end"]]
    else:
        truth["passages"] = merge([p["range"] for p in pieces if p["kind"] == "action"])
        truth["calm"] = merge([p["range"] for p in pieces if p["kind"] == "calm"])
    cmd += ["-filter_complex", ";".join(graph), "-map", out_v]
    if a:
        cmd += ["-map", out_a] + AUDIO
    out = os.path.join(out_dir, name + ".mp4")
    tmp = os.path.join(out_dir, f".tmp.{os.getpid()}.{name}.mp4")
    cmd += ENCODE + [tmp]
    truth.update({"duration": round(t, 6), "fps": fps, "size": [W, H], "audio": spec["audio"], "pieces": pieces})
    return cmd, out, tmp, truth


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    footage, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    for name, spec in EDITS.items():
        cmd, out, tmp, truth = build(name, spec, footage, out_dir)
        shown = [c.replace(footage.rstrip("/") + "/", "FOOTAGE/").replace(tmp, f"OUT/{name}.tmp.mp4") for c in cmd]
        recipe = hashlib.sha256(json.dumps([shown, truth], sort_keys=True).encode()).hexdigest()[:16]
        jpath = os.path.join(out_dir, name + ".truth.json")
        if os.path.exists(out) and os.path.exists(jpath):
            try:
                if json.load(open(jpath)).get("spec") == recipe:
                    continue
            except ValueError:
                pass
        print(f"  making {name}.mp4 ({truth['duration']:.2f} s)", file=sys.stderr)
        subprocess.run(cmd, check=True)
        os.replace(tmp, out)
        truth["command"] = shown
        truth["spec"] = recipe
        with open(jpath, "w") as f:
            json.dump(truth, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
