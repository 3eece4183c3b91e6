"""The peer side of the faces benchmark: the Python face_recognition package on the same dlib
models and images, as its README uses it (HOG, one upsampling, the small 5-point model), and
dlib's chinese whispers at 0.5 for groups, as face_recognition's clustering example does.

    faces_peer.py DIR > peer.json   # {"files": {name: [[x0, y0, x1, y1], ...]}, "groups": {name: [label, ...]}}
    FACES_SCORES=1 faces_peer.py DIR   # adds "scores": {name: [score, ...]} (a second, untimed pass)
"""
import json
import os
import sys

import dlib
import face_recognition

directory = sys.argv[1]
names = sorted(n for n in os.listdir(directory) if n.lower().endswith((".jpg", ".jpeg", ".png")))
boxes, encodings, owners = {}, [], []
for name in names:
    image = face_recognition.load_image_file(os.path.join(directory, name))
    height, width = image.shape[:2]
    found = face_recognition.face_locations(image, number_of_times_to_upsample=1, model="hog")
    boxes[name] = [[left / width, top / height, right / width, bottom / height] for (top, right, bottom, left) in found]
    for index, encoding in enumerate(face_recognition.face_encodings(image, found)):
        encodings.append(dlib.vector(encoding.tolist()))
        owners.append(name)
labels = dlib.chinese_whispers_clustering(encodings, 0.5) if encodings else []
scores = {}
if os.environ.get("FACES_SCORES"):
    # Untimed second pass: the detector's score for each box (face_locations does not give them).
    detector = dlib.get_frontal_face_detector()
    for name in names:
        image = face_recognition.load_image_file(os.path.join(directory, name))
        rects, found_scores, _ = detector.run(image, 1, 0.0)
        scores[name] = [float(s) for s in found_scores]
groups = {name: [] for name in names}
for owner, label in zip(owners, labels):
    groups[owner].append(int(label))
json.dump({"files": boxes, "groups": groups, "scores": scores}, sys.stdout)
