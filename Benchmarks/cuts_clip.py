#!/usr/bin/env python3
"""Filter graph and ground truth of the cut-accuracy clip (used by inputs.sh).

    cuts_clip.py W H FPS CUTS_FILE  ->  prints a filter_complex graph ending in [v] and [a];
                                        writes the planted cuts (one time per line) and the
                                        dissolve spans ("gradual START END") to CUTS_FILE

Twenty shots of 3 s (one pair joined by a 1 s dissolve instead of a cut), chosen for the cases
a cut detector gets wrong: cuts into and out of fast motion, between two framings of the same
picture, between two dark shots, between two busy textures, and right after a still.
"""
import sys

w, h, fps, cuts_file = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
size = f"s={w}x{h}:r={fps}"
SHOT = 3.0


def timed(source, seconds=SHOT):
    return f"{source},trim=duration={seconds},setpts=PTS-STARTPTS,format=yuv420p"


shots = [
    timed(f"testsrc2={size}"),
    timed(f"mandelbrot={size}"),                                   # zooming fractal
    timed(f"smptebars={size}"),                                    # still
    timed(f"testsrc={size},scroll=h=0.03:v=0.01"),                 # still -> fast scroll
    timed(f"rgbtestsrc={size},scroll=h=-0.04"),                    # fast -> fast
    timed(f"testsrc2={size},eq=brightness=-0.25:contrast=0.5"),     # dark
    timed(f"mandelbrot={size},eq=brightness=-0.25:contrast=0.5"),   # dark -> dark
    timed(f"cellauto={size}:rule=110"),                            # busy texture
    timed(f"life={size}:mold=10:ratio=0.3:seed=7:life_color=#00ff00:death_color=#202020"),  # busy -> busy
    timed(f"testsrc2={size}"),
    timed(f"testsrc2={size},hflip"),                               # same picture, mirrored
    timed(f"pal100bars={size},noise=alls=6:allf=t"),
    timed(f"yuvtestsrc={size}"),
    timed(f"smptehdbars={size},scroll=v=0.05"),                    # fast vertical scroll
    timed(f"color=c=0x3060a0:{size},noise=alls=20:allf=t"),        # flat noisy blue
    timed(f"color=c=0xa06030:{size},noise=alls=20:allf=t"),        # flat noisy orange
    timed(f"mandelbrot={size}:start_scale=1.5"),
    timed(f"testsrc={size}"),
]
dissolve_a = timed(f"smptebars={size}")
dissolve_b = timed(f"rgbtestsrc={size}")

graph, labels = [], []
for i, shot in enumerate(shots):
    graph.append(f"{shot}[s{i}]")
    labels.append(f"[s{i}]")
graph.append(f"{dissolve_a}[da]")
graph.append(f"{dissolve_b}[db]")
graph.append(f"[da][db]xfade=transition=fade:duration=1:offset={SHOT - 1}[dx]")
labels.append("[dx]")
graph.append("".join(labels) + f"concat=n={len(labels)}:v=1:a=0,setsar=1[v]")
duration = SHOT * len(shots) + 2 * SHOT - 1
graph.append(f"sine=frequency=440:beep_factor=4:sample_rate=48000:duration={duration},"
             "aformat=channel_layouts=stereo[a]")

# Cuts at the start of every shot after the first; the dissolve clip starts with a cut too.
cuts = [SHOT * i for i in range(1, len(shots) + 1)]
dissolve_start = SHOT * len(shots) + SHOT - 1
with open(cuts_file, "w") as out:
    for t in cuts:
        out.write(f"{t:.3f}\n")
    out.write(f"gradual {dissolve_start:.3f} {dissolve_start + 1:.3f}\n")
print(";".join(graph))
