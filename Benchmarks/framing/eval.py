#!/usr/bin/env python3
"""How well reel's virtual camera keeps the subject in frame, against a centre crop.

For every third source frame, the subject is found by detectors independent of reel's own
(OpenCV: Haar frontal and profile faces; where there is none, HOG pedestrians; else the largest
moving blob of a MOG2 background model), and counted as kept when its box lies wholly inside
the window. The window is reel's planned path (`reel compress IN --aspect A --dry-run --json`)
or a centre crop of the same size. Usage: eval.py CLIP PLAN.json
"""
import json
import sys

import cv2  # opencv-python-headless 4.10 (pip install "opencv-python-headless==4.10.0.84")

clip, plan_file = sys.argv[1], sys.argv[2]
plan = json.load(open(plan_file))
path = plan["cameraPath"]
capture = cv2.VideoCapture(clip)
cascades = [cv2.CascadeClassifier(cv2.data.haarcascades + name)
            for name in ("haarcascade_frontalface_default.xml", "haarcascade_profileface.xml")]
people = cv2.HOGDescriptor()
people.setSVMDetector(cv2.HOGDescriptor_getDefaultPeopleDetector())
background = cv2.createBackgroundSubtractorMOG2(history=60, detectShadows=False)


def interpolate(times, values, t):
    if t <= times[0]:
        return values[0]
    if t >= times[-1]:
        return values[-1]
    low, high = 0, len(times) - 1
    while high - low > 1:
        middle = (low + high) // 2
        if times[middle] <= t:
            low = middle
        else:
            high = middle
    span = times[high] - times[low]
    return values[low] + (values[high] - values[low]) * ((t - times[low]) / span if span > 0 else 0)


def window(t):
    for shot in path["shots"]:
        if shot["start"] - 1e-6 <= t < shot["end"]:
            if shot["showsWholePicture"]:
                return None
            return interpolate(shot["times"], shot["positions"], t)
    return "outside"


def subject(frame, gray):
    subject.faces = []
    height, width = gray.shape
    boxes = []
    for cascade in cascades:
        found = cascade.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=8, minSize=(max(24, height // 12),) * 2)
        boxes += [tuple(b) for b in found]
    if boxes:
        subject.faces = boxes
        return "face", max(boxes, key=lambda b: b[2] * b[3])
    mask = background.apply(frame)
    found, weights = people.detectMultiScale(gray, winStride=(8, 8))
    strong = [tuple(b) for b, w in zip(found, weights) if float(w) > 0.6]
    if strong:
        return "person", max(strong, key=lambda b: b[2] * b[3])
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = [cv2.boundingRect(c) for c in contours if cv2.contourArea(c) > width * height * 0.003]
    if blobs:
        box = max(blobs, key=lambda b: b[2] * b[3])
        if box[2] * box[3] < width * height * 0.3:
            return "motion", box
    return None, None


index = 0
counts = {}
any_face = [0, 0, 0]
while True:
    ok, frame = capture.read()
    if not ok:
        break
    fps = capture.get(cv2.CAP_PROP_FPS) or 30
    # The frame's middle: OpenCV's times are rounded, and a cut's first frame must not read as the shot before.
    t = capture.get(cv2.CAP_PROP_POS_MSEC) / 1000 + 0.25 / fps
    index += 1
    if index > 1 and t < 0.5 / fps:
        break
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if index % 3:
        background.apply(frame)
        continue
    position = window(t)
    if position == "outside":
        continue
    kind, box = subject(frame, gray)
    if kind is None:
        continue
    height, width = gray.shape
    horizontal = path["movesHorizontally"]
    extent = width if horizontal else height
    size = (path["windowWidth"] if horizontal else path["windowHeight"]) * extent
    low, high = (box[0], box[0] + box[2]) if horizontal else (box[1], box[1] + box[3])
    centre = (extent - size) / 2
    # A subject wider than the window cannot be kept whole by any window: counted apart.
    entry = counts.setdefault(kind if high - low <= size or position is None else kind + " (wider than the window)", [0, 0, 0])
    entry[0] += 1
    if position is None or (position * extent <= low + 1 and high - 1 <= position * extent + size):
        entry[1] += 1
    if centre <= low + 1 and high - 1 <= centre + size:
        entry[2] += 1
    if subject.faces:
        # The first measure: some face on screen stays whole in the window.
        def whole(start, b):
            a, z = (b[0], b[0] + b[2]) if horizontal else (b[1], b[1] + b[3])
            return start <= a + 1 and z - 1 <= start + size
        any_face[0] += 1
        any_face[1] += position is None or any(whole(position * extent, b) for b in subject.faces)
        any_face[2] += any(whole(centre, b) for b in subject.faces)

total = [sum(v[i] for k, v in counts.items() if "wider" not in k) for i in range(3)]
largest = 0.0
for shot in path["shots"]:
    if shot["showsWholePicture"]:
        continue
    fps = capture.get(cv2.CAP_PROP_FPS) or 30
    t = shot["start"]
    previous = interpolate(shot["times"], shot["positions"], t)
    while t + 1 / fps < shot["end"]:
        t += 1 / fps
        now = interpolate(shot["times"], shot["positions"], t)
        largest = max(largest, abs(now - previous) / (path["windowWidth"] if path["movesHorizontally"] else path["windowHeight"]))
        previous = now
report = {"clip": clip, "aspect": path["aspect"], "framesWhereSubjectFits": total[0],
          "reel": round(total[1] / max(total[0], 1), 3), "centre": round(total[2] / max(total[0], 1), 3),
          "byKind": {k: {"frames": v[0], "reel": round(v[1] / max(v[0], 1), 3), "centre": round(v[2] / max(v[0], 1), 3)}
                     for k, v in counts.items()},
          "framesWithFaces": any_face[0], "someFaceWholeReel": round(any_face[1] / max(any_face[0], 1), 3),
          "someFaceWholeCentre": round(any_face[2] / max(any_face[0], 1), 3),
          "largestStepShareOfWindow": round(largest, 4),
          "shots": len(path["shots"]), "shownWhole": sum(s["showsWholePicture"] for s in path["shots"])}
print(json.dumps(report))
