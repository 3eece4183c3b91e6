import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// A photo or video whose faces are to be found.
enum FaceSource: Sendable {
    case image(MediaIntelligenceAssetID, URL)
    case video(MediaIntelligenceAssetID, URL)

    var id: MediaIntelligenceAssetID {
        switch self {
        case .image(let id, _), .video(let id, _): return id
        }
    }

    var url: URL {
        switch self {
        case .image(_, let url), .video(_, let url): return url
        }
    }

    var kind: String {
        switch self {
        case .image: return "image"
        case .video: return "video"
        }
    }
}

/// Finds the faces of one source: decodes it (the photo, or the video's pictures sampled
/// through its shots by `ShotSampler`, upright and scaled), detects, and describes. Blocking; runs on a `BlockingWork` thread.
struct FaceFinder: Sendable {
    let engine: SharedFaceEngine
    let options: FaceGroupAnalyzer.Options

    /// The faces found, best first within each picture, with descriptors; times for videos.
    func faces(in source: FaceSource, shouldCancel: @escaping @Sendable () -> Bool) throws(ReelError) -> [StoredFace] {
        let url = source.url
        try SourceCheck.requireReadableFile(url)
        switch source {
        case .image(let id, _):
            let picture = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                try PictureReader.image(at: url, maximumSide: options.detectionSize)
            }
            return try describe(picture, assetID: id, firstOrdinal: 0, source: url)
        case .video(let id, _):
            let info = try MediaInfo.probe(url, measuringBitRates: false)
            var sampler = ShotSampler(interval: options.videoSampleInterval, maximumSide: options.detectionSize)
            // A small video is searched as a 1024 px one: the same faces (a thirteenth of the
            // width and up) are found whatever the source's size.
            sampler.enlargement = 4
            var tracks = FaceTracks(redescribeAfter: options.videoRedescribeInterval)
            var found: [StoredFace] = []
            // Pictures are searched a batch at a time, one detector per core; described in order.
            let finders = (0..<max(min(ProcessInfo.processInfo.activeProcessorCount, 4), 1)).compactMap { _ in FacePresenceFinder() }
            guard !finders.isEmpty else { throw .faceModelsMissing("dlib could not create its face detector") }
            var batch: [(picture: RGBPicture, newShot: Bool)] = []
            func flush() throws(ReelError) {
                let boxes = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                    try findBoxes(in: batch.map(\.picture), finders: finders)
                }
                for (sample, faces) in zip(batch, boxes) {
                    if sample.newShot { tracks.removeAll() }
                    found += try describe(sample.picture, boxes: faces, assetID: id, firstOrdinal: found.count, source: url, tracks: &tracks)
                }
                batch.removeAll()
            }
            // A detection failure inside a frame stops the decode; it is the one reported.
            var failure: ReelError?
            do throws(ReelError) {
                try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                    try sampler.samples(of: info, shouldCancel: shouldCancel) { picture, newShot throws(MediaFailure) in
                        batch.append((picture, newShot))
                        guard batch.count >= finders.count * 2 else { return }
                        do throws(ReelError) {
                            try flush()
                        } catch {
                            failure = error
                            throw .cancelled
                        }
                    }
                }
                try flush()
            } catch {
                throw failure ?? error
            }
            return found
        }
    }

    /// The face boxes of each picture, searched side by side, one finder per thread.
    private func findBoxes(in pictures: [RGBPicture], finders: [FacePresenceFinder]) throws(MediaFailure) -> [[FaceBox]] {
        let lent = LentFinders(finders: finders)
        let results = Mutex<[Int: Result<[FaceBox], MediaFailure>]>([:])
        let upsample = options.videoUpsample, minimumScore = options.minimumScore
        DispatchQueue.concurrentPerform(iterations: min(lent.finders.count, pictures.count)) { worker in
            for index in stride(from: worker, to: pictures.count, by: lent.finders.count) {
                let result = Result { () throws(MediaFailure) in
                    try lent.finders[worker].faces(in: pictures[index], upsample: upsample, minimumScore: minimumScore)
                }
                results.withLock { $0[index] = result }
            }
        }
        let collected = results.withLock { $0 }
        return try pictures.indices.map { index throws(MediaFailure) in try collected[index]?.get() ?? [] }
    }

    /// The faces at `boxes` of `picture`, described; with `tracks` (a video's faces earlier in
    /// the same shot), a face that continues a recently described track keeps that track's
    /// descriptor instead of being described again.
    private func describe(_ picture: RGBPicture, boxes: [FaceBox], assetID: MediaIntelligenceAssetID, firstOrdinal: Int,
                          source: URL, tracks: inout FaceTracks) throws(ReelError) -> [StoredFace] {
        let width = Double(picture.width), height = Double(picture.height)
        let normalized = boxes.map { Self.bounds($0.left, $0.top, $0.right, $0.bottom, width: width, height: height) }
        let time = picture.time?.seconds ?? 0
        let known = normalized.map { tracks.descriptor(continuing: $0, at: time) }
        let unknown = boxes.indices.filter { known[$0] == nil }.map { boxes[$0] }
        let fresh = unknown.isEmpty ? [] : try engine.withEngine { engine throws(ReelError) in
            try translatingFailures(source: source, output: source) { () throws(MediaFailure) in
                try engine.describe(unknown, in: picture)
            }
        }
        var described = fresh.makeIterator()
        var detected: [DetectedFace] = []
        for index in boxes.indices {
            let box = boxes[index]
            if let descriptor = known[index] {
                tracks.extend(normalized[index], at: time)
                detected.append(DetectedFace(left: Double(box.left), top: Double(box.top), right: Double(box.right),
                                             bottom: Double(box.bottom), score: Double(box.score), descriptor: descriptor))
            } else if let face = described.next() {
                tracks.start(normalized[index], descriptor: face.descriptor, at: time)
                detected.append(face)
            }
        }
        return stored(detected, of: picture, assetID: assetID, firstOrdinal: firstOrdinal)
    }

    private func describe(_ picture: RGBPicture, assetID: MediaIntelligenceAssetID, firstOrdinal: Int,
                          source: URL) throws(ReelError) -> [StoredFace] {
        let detected = try engine.withEngine { engine throws(ReelError) in
            try translatingFailures(source: source, output: source) { () throws(MediaFailure) in
                try engine.detect(picture, upsample: options.upsample(options.upsample, forSide: max(picture.width, picture.height)),
                                  minimumScore: options.minimumScore)
            }
        }
        return stored(detected, of: picture, assetID: assetID, firstOrdinal: firstOrdinal)
    }

    private func stored(_ detected: [DetectedFace], of picture: RGBPicture, assetID: MediaIntelligenceAssetID,
                        firstOrdinal: Int) -> [StoredFace] {
        let width = Double(picture.width), height = Double(picture.height)
        return detected.enumerated().map { offset, face in
            let bounds = Self.bounds(Float(face.left), Float(face.top), Float(face.right), Float(face.bottom), width: width, height: height)
            return StoredFace(
                face: Face(id: Face.ID(UUID().uuidString.lowercased()), assetID: assetID, bounds: bounds, entityID: nil,
                           score: face.score, time: picture.time),
                descriptor: face.descriptor, ordinal: firstOrdinal + offset)
        }
    }

    /// A box in pixels, clipped to the picture and normalized to 0...1.
    private static func bounds(_ left: Float, _ top: Float, _ right: Float, _ bottom: Float, width: Double, height: Double) -> CGRect {
        let minX = max(Double(left), 0) / width, minY = max(Double(top), 0) / height
        let maxX = min(Double(right), width) / width, maxY = min(Double(bottom), height) / height
        return CGRect(x: minX, y: minY, width: max(maxX - minX, 0), height: max(maxY - minY, 0))
    }
}

/// Finders lent to the threads of one batch, each used by one thread only.
private struct LentFinders: @unchecked Sendable {
    let finders: [FacePresenceFinder]
}

/// The faces of a video shot seen so far, so that a face seen again where it was (its box
/// overlapping the last one by `minimumOverlap` of their union, no cut between) is known to be
/// the same face and is not described again. A track is described anew once
/// `redescribeAfter` seconds passed since its descriptor was made, so a long shot's faces
/// still get fresh descriptors from other poses. Cleared at each cut.
struct FaceTracks {
    struct Track {
        var box: CGRect
        var descriptor: [Float]
        var described: Double
    }

    let redescribeAfter: Double
    var minimumOverlap = 0.5
    private(set) var tracks: [Track] = []

    init(redescribeAfter: Double) {
        self.redescribeAfter = redescribeAfter
    }

    /// The descriptor of the track `box` continues, if one does and is fresh enough.
    func descriptor(continuing box: CGRect, at time: Double) -> [Float]? {
        guard let track = match(box) else { return nil }
        return time - tracks[track].described < redescribeAfter ? tracks[track].descriptor : nil
    }

    /// Moves the track `box` continues to it.
    mutating func extend(_ box: CGRect, at time: Double) {
        if let track = match(box) { tracks[track].box = box }
    }

    /// A newly described face: it replaces the track it continues, or starts one.
    mutating func start(_ box: CGRect, descriptor: [Float], at time: Double) {
        let track = Track(box: box, descriptor: descriptor, described: time)
        if let index = match(box) { tracks[index] = track } else { tracks.append(track) }
    }

    mutating func removeAll() { tracks.removeAll() }

    private func match(_ box: CGRect) -> Int? {
        let overlaps = tracks.indices.map { (index: $0, overlap: Self.overlap(tracks[$0].box, box)) }
        guard let best = overlaps.max(by: { $0.overlap < $1.overlap }), best.overlap >= minimumOverlap else { return nil }
        return best.index
    }

    /// Intersection over union.
    static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let common = a.intersection(b)
        guard !common.isNull, common.width > 0, common.height > 0 else { return 0 }
        let shared = common.width * common.height
        return shared / (a.width * a.height + b.width * b.height - shared)
    }
}
