#!/usr/bin/env python3
"""Makes the talk-like benchmark clip from real speech and silence, and lists where its speech is.

    make_talk.py FOOTAGE_DIR OUT.mp4

Speech: Megamind.avi's two lines of dialogue (0-8.02 s and 9.50-11.20 s, raised 5.8 dB to the
same -6 dBFS peak) and eight phrases of alsa-utils' recorded voice (/usr/share/sounds/alsa),
each trimmed to where it reaches 4% of its peak, 24 pieces in all, between silences of 0.3 to
4 s (pink room tone at about -45 dBFS peak throughout). Picture: 86 s of bbb.mp4 from 2:00,
1280x720 at 24 fps. Writes OUT.mp4 and OUT.spans (one 'start end' line per piece of speech).
"""
import subprocess
import sys

footage, out = sys.argv[1], sys.argv[2]
alsa = "/usr/share/sounds/alsa"
# (file, start, end, gain): the sounding extent at 4% of the peak, measured on 5 ms windows.
pieces = {
    "MM_A": (f"{footage}/Megamind.avi", 0.00, 8.02, 1.953),
    "MM_B": (f"{footage}/Megamind.avi", 9.50, 11.20, 1.953),
    "FC": (f"{alsa}/Front_Center.wav", 0.040, 1.325, 1.0),
    "FL": (f"{alsa}/Front_Left.wav", 0.020, 1.250, 1.0),
    "RR": (f"{alsa}/Rear_Right.wav", 0.055, 1.400, 1.0),
    "SL": (f"{alsa}/Side_Left.wav", 0.045, 1.290, 1.0),
    "RL": (f"{alsa}/Rear_Left.wav", 0.035, 1.275, 1.0),
    "SR": (f"{alsa}/Side_Right.wav", 0.035, 1.235, 1.0),
    "FR": (f"{alsa}/Front_Right.wav", 0.125, 1.335, 1.0),
    "RC": (f"{alsa}/Rear_Center.wav", 0.045, 1.180, 1.0),
}
order = ["MM_A", "FC", "FL", "RR", "MM_B", "SL", "RL", "SR", "FR", "RC"]
gaps = [1.5, 0.4, 2.5, 0.8, 3.0, 1.2, 0.3, 4.0, 0.6, 2.0, 1.0]

inputs, graph, labels, spans = [], [], [], []
files = sorted({p[0] for p in pieces.values()})
for path in files:
    inputs += ["-i", path]
time, count = 1.0, 24
graph.append("anullsrc=r=48000:cl=mono,atrim=duration=1.0[g0]")
labels.append("[g0]")
for index in range(count):
    name = order[index % len(order)]
    path, start, end, gain = pieces[name]
    source = files.index(path)
    graph.append(f"[{source}:a]atrim=start={start}:end={end},asetpts=PTS-STARTPTS,aresample=48000,"
                 f"aformat=channel_layouts=mono,volume={gain}[s{index}]")
    spans.append((time, time + end - start))
    time += end - start
    gap = gaps[index % len(gaps)]
    graph.append(f"anullsrc=r=48000:cl=mono,atrim=duration={gap}[g{index + 1}]")
    labels += [f"[s{index}]", f"[g{index + 1}]"]
    time += gap
# One decoder per piece: a file read by several pieces is split first.
uses = {}
for index in range(count):
    uses.setdefault(files.index(pieces[order[index % len(order)]][0]), []).append(index)
for source, indices in uses.items():
    outs = "".join(f"[in{source}_{k}]" for k in range(len(indices)))
    graph.insert(0, f"[{source}:a]asplit={len(indices)}{outs}")
    for k, index in enumerate(indices):
        graph = [g.replace(f"[{source}:a]atrim", f"[in{source}_{k}]atrim", 1) if g.endswith(f"[s{index}]") else g for g in graph]
duration = round(time, 3)
graph.append("".join(labels) + f"concat=n={len(labels)}:v=0:a=1[speech]")
graph.append(f"anoisesrc=color=pink:amplitude=0.002:seed=7:r=48000:d={duration},aformat=channel_layouts=mono[room]")
graph.append("[speech][room]amix=inputs=2:normalize=0,aformat=channel_layouts=stereo[a]")
video = ["-ss", "120", "-t", str(duration), "-i", f"{footage}/bbb.mp4"]
v_index = len(files)
graph.append(f"[{v_index}:v]setpts=PTS-STARTPTS,format=yuv420p[v]")
subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + inputs + video
               + ["-filter_complex", ";".join(graph), "-map", "[v]", "-map", "[a]",
                  "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-g", "48", "-threads", "2",
                  "-c:a", "aac", "-b:a", "128k", "-t", str(duration), out], check=True)
with open(out.rsplit(".", 1)[0] + ".spans", "w") as handle:
    for start, end in spans:
        handle.write(f"{start:.3f} {end:.3f}\n")
print(f"{out}: {duration:.3f} s, {len(spans)} pieces of speech, {sum(e - s for s, e in spans):.3f} s of it")
