import Foundation
import ReelMedia
import ReelSupport

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

/// Finds the faces of one source: decodes it (the photo, or the video's keyframes, upright and
/// scaled), detects, and describes. Blocking; runs on a `BlockingWork` thread.
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
            var found: [StoredFace] = []
            // A detection failure inside a frame stops the decode; it is the one reported.
            var failure: ReelError?
            do throws(ReelError) {
                try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                    try PictureReader.keyframes(
                        of: info, every: options.videoSampleInterval, maximumSide: options.detectionSize,
                        shouldCancel: shouldCancel
                    ) { picture throws(MediaFailure) in
                        do throws(ReelError) {
                            found += try describe(picture, assetID: id, firstOrdinal: found.count, source: url)
                        } catch {
                            failure = error
                            throw .cancelled
                        }
                    }
                }
            } catch {
                throw failure ?? error
            }
            return found
        }
    }

    private func describe(_ picture: RGBPicture, assetID: MediaIntelligenceAssetID, firstOrdinal: Int,
                          source: URL) throws(ReelError) -> [StoredFace] {
        let detected = try engine.withEngine { engine throws(ReelError) in
            try translatingFailures(source: source, output: source) { () throws(MediaFailure) in
                try engine.detect(picture, upsample: options.upsample, minimumScore: options.minimumScore)
            }
        }
        let width = Double(picture.width), height = Double(picture.height)
        return detected.enumerated().map { offset, face in
            let left = max(face.left, 0) / width, top = max(face.top, 0) / height
            let right = min(face.right, width) / width, bottom = min(face.bottom, height) / height
            let bounds = CGRect(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
            return StoredFace(
                face: Face(id: Face.ID(UUID().uuidString.lowercased()), assetID: assetID, bounds: bounds, entityID: nil,
                           score: face.score, time: picture.time),
                descriptor: face.descriptor, ordinal: firstOrdinal + offset)
        }
    }
}
