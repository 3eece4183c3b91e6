import Foundation
import ReelFaces
import ReelMedia
import ReelSupport
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
        /// Made on the first face picture; HOG detection alone.
        var faceFinder: FacePresenceFinder?
    }

    /// Face detections scoring below this are ignored.
    private let minimumFaceScore: Double

    /// A collector; face pictures among the samples are searched for faces scoring at least
    /// `minimumFaceScore`.
    init(minimumFaceScore: Double = 0.25) {
        self.minimumFaceScore = minimumFaceScore
    }

    private let samples = Mutex(Samples())

    func consume(_ picture: SmallPicture) {
        let signature = Self.signature(picture)
        samples.withLock { samples in
            var features = PictureMeasurer.measure(picture, previous: samples.lastPicture)
            if let gray = picture.faceLuma {
                if samples.faceFinder == nil { samples.faceFinder = FacePresenceFinder() }
                let found = samples.faceFinder?.faces(inGray: gray.luma, width: gray.width, height: gray.height,
                                                       minimumScore: minimumFaceScore) ?? []
                features.faces = FacePresence(boxes: found.map(\.box))
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

    /// A coarse appearance signature: block means of Y (16x9) and of U, V (8x5), quantized.
    static func signature(_ picture: SmallPicture) -> [UInt8] {
        func blocks(_ plane: [UInt8], width: Int, height: Int, columns: Int, rows: Int) -> [UInt8] {
            var sums = [Int](repeating: 0, count: columns * rows)
            var counts = [Int](repeating: 0, count: columns * rows)
            for y in 0..<height {
                let row = min(y * rows / height, rows - 1)
                for x in 0..<width {
                    let cell = row * columns + min(x * columns / width, columns - 1)
                    sums[cell] += Int(plane[y * width + x])
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
