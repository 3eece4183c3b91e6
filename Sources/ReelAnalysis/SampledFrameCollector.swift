import Foundation
import ReelFaces
import ReelMedia
import Synchronization

/// Measures the sampled pictures of one chunk of the analysis decode as they arrive, keeping
/// only their features and signatures (plus the chunk's first and last picture for joining).
/// One worker fills it; the lock only hands the result over to the thread that joins.
final class SampledFrameCollector: AnalysisPictureSink {
    private struct Samples {
        var features: [FrameFeatures] = []
        var signatures: [[UInt8]] = []
        var firstPicture: SmallPicture?
        var lastPicture: SmallPicture?
    }

    /// Face detections scoring below this are ignored.
    private let minimumFaceScore: Double
    /// The analysis's face finders, shared by its chunks.
    private let finders: FaceFinderPool

    /// A collector; face pictures among the samples are searched for faces scoring at least
    /// `minimumFaceScore`, with a finder borrowed from `finders`.
    init(minimumFaceScore: Double = 0.25, finders: FaceFinderPool = FaceFinderPool()) {
        self.minimumFaceScore = minimumFaceScore
        self.finders = finders
    }

    private let samples = Mutex(Samples())

    func consume(_ picture: SmallPicture) {
        let signature = Self.signature(picture)
        samples.withLock { samples in
            var features = PictureMeasurer.measure(picture, previous: samples.lastPicture)
            if let gray = picture.faceLuma {
                let found = finders.withFinder { finder in
                    finder.faces(inGray: gray.luma, width: gray.width, height: gray.height, minimumScore: minimumFaceScore)
                } ?? []
                var presence = FacePresence(boxes: found.map(\.box))
                // How the largest face looks (smiling, turned to the camera), where the 68-point
                // model is available: loaded once a face is found.
                if let largest = presence.boxes.first, let landmarker = FaceLandmarker.shared() {
                    let pixels = CGRect(x: largest.minX * Double(gray.width), y: largest.minY * Double(gray.height),
                                        width: largest.width * Double(gray.width), height: largest.height * Double(gray.height))
                    if let expression = landmarker.expression(inGray: gray.luma, width: gray.width, height: gray.height, box: pixels) {
                        presence.smile = expression.smile
                        presence.facesCamera = expression.facesCamera
                    }
                }
                features.faces = presence
                // The larger picture shows lines of text the shrunk one blurs away (credits).
                features.textLikeness = max(features.textLikeness, PictureContent.textLines(gray))
                features.textChecked = true
            }
            samples.features.append(features)
            samples.signatures.append(signature)
            if samples.firstPicture == nil { samples.firstPicture = picture }
            samples.lastPicture = picture
        }
    }

    func reset() {
        samples.withLock { $0 = Samples() }
    }

    /// The chunks' samples as one series. A chunk's first sample is measured against the
    /// previous chunk's last one, or dropped when both fall in the same `clock` slot (the
    /// earlier frame is the slot's sample).
    static func joined(_ chunks: [SampledFrameCollector], clock: SampleClock) -> (features: [FrameFeatures], signatures: [[UInt8]]) {
        var features: [FrameFeatures] = []
        var signatures: [[UInt8]] = []
        var previous: SmallPicture?
        for chunk in chunks {
            let samples = chunk.samples.withLock { $0 }
            guard let first = samples.firstPicture else { continue }
            var chunkFeatures = samples.features[...], chunkSignatures = samples.signatures[...]
            if let previous {
                if clock.slot(of: first.time) == clock.slot(of: previous.time) {
                    chunkFeatures = chunkFeatures.dropFirst()
                    chunkSignatures = chunkSignatures.dropFirst()
                } else {
                    var remeasured = PictureMeasurer.measure(first, previous: previous)
                    remeasured.faces = chunkFeatures[chunkFeatures.startIndex].faces
                    chunkFeatures[chunkFeatures.startIndex] = remeasured
                }
            }
            features += chunkFeatures
            signatures += chunkSignatures
            previous = samples.lastPicture
        }
        return (features, signatures)
    }

    /// Luma blocks at the start of a `signature` (16x9; the U and V blocks follow).
    static let lumaBlocks = 16 * 9

    /// A coarse appearance signature: block means of Y (16x9) and of U, V (8x5), quantized.
    static func signature(_ picture: SmallPicture) -> [UInt8] {
        func blocks(_ plane: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> [UInt8] {
            var sums = [Int](repeating: 0, count: columns * rows)
            var counts = [Int](repeating: 0, count: columns * rows)
            // Each pixel's column of blocks, worked out once rather than divided for every row.
            let blockColumn = (0..<width).map { x in min(x * columns / width, columns - 1) }
            for y in 0..<height {
                let rowStart = min(y * rows / height, rows - 1) * columns, line = y * width
                for x in 0..<width {
                    let cell = rowStart + blockColumn[x]
                    sums[cell] += Int(plane[line + x])
                    counts[cell] += 1
                }
            }
            return zip(sums, counts).map { UInt8(clamping: $1 > 0 ? $0 / $1 : 0) }
        }
        let chromaWidth = (picture.width + 1) / 2, chromaHeight = (picture.height + 1) / 2
        return blocks(picture.luma, width: picture.width, height: picture.height, columns: 16, rows: 9)
            + blocks(picture.chromaU, width: chromaWidth, height: chromaHeight, columns: 8, rows: 5)
            + blocks(picture.chromaV, width: chromaWidth, height: chromaHeight, columns: 8, rows: 5)
    }

}

/// The face finders of one analysis, lent to its chunks one picture at a time: as many as
/// pictures are searched at once (one per decode worker), not one per chunk, since each holds
/// megabytes of image pyramids (one per chunk cost 30 MB on a 10-minute video).
final class FaceFinderPool: Sendable {
    /// A finder is used by one thread at a time: the pool hands each out to one borrower.
    private struct Lent: @unchecked Sendable {
        let finder: FacePresenceFinder
    }

    private let idle = Mutex<[Lent]>([])

    /// Runs `body` with a finder of the pool (made when none is idle); `nil` when dlib cannot
    /// make one.
    func withFinder<Value>(_ body: (FacePresenceFinder) -> Value) -> Value? {
        let lent = idle.withLock { $0.popLast() } ?? FacePresenceFinder().map(Lent.init)
        guard let lent else { return nil }
        defer { idle.withLock { $0.append(lent) } }
        return body(lent.finder)
    }
}
