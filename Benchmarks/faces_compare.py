"""Compares reel's faces with face_recognition's on the same images.

    faces_compare.py REEL_ADD.json PEER.json > faces.json

Faces are matched per image by box overlap (intersection over union >= 0.3); grouping agreement
is the share of pairs of matched faces that both tools put together, or both apart.
"""
import itertools
import json
import os
import sys

MINIMUM_SCORE = 0.25  # reel's FaceGroupAnalyzer.Options.minimumScore
reel = json.load(open(sys.argv[1]))
peer = json.load(open(sys.argv[2]))


def iou(a, b):
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0, x1 - x0) * max(0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0


files, matched = {}, []
for entry in reel["added"]:
    name = os.path.basename(entry["file"])
    ours = [(f["bounds"]["x"], f["bounds"]["y"], f["bounds"]["x"] + f["bounds"]["width"],
             f["bounds"]["y"] + f["bounds"]["height"], f["entity"]) for f in entry["faces"]]
    theirs = list(zip(peer["files"].get(name, []), peer["groups"].get(name, [])))
    scores = sorted(peer.get("scores", {}).get(name, []), reverse=True)
    files[name] = {"reel": len(ours), "peer": len(theirs),
                   "peer_below_minimum": sum(1 for s in scores if s < MINIMUM_SCORE)}
    used = set()
    for face in ours:
        best = max(((iou(face[:4], box), index) for index, (box, _) in enumerate(theirs) if index not in used), default=(0, None))
        if best[0] >= 0.3:
            used.add(best[1])
            matched.append((face[4], theirs[best[1]][1]))
pairs = list(itertools.combinations(matched, 2))
below = sum(v["peer_below_minimum"] for v in files.values())
agree = sum(1 for a, b in pairs if (a[0] == b[0]) == (a[1] == b[1]))
json.dump({
    "files": files,
    "matched": len(matched),
    "reel_faces": sum(v["reel"] for v in files.values()),
    "peer_faces": sum(v["peer"] for v in files.values()),
    "reel_people": len({e for e, _ in matched}),
    "peer_people": len({p for _, p in matched}),
    "pair_agreement": agree / len(pairs) if pairs else 1.0,
    "peer_below_minimum": below,
}, sys.stdout, indent=1)
