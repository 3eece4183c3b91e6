import Foundation
import ReelFaces
import ReelMedia
import ReelSupport

/// Keeps shut eyes off the poster: when the chosen key frame shows a face whose eyes are shut
/// (a blink, caught by a sample), the nearest poster candidate of the same shot within `reach`
/// seconds whose face has its eyes open is shown instead.
///
/// The pictures are decoded again, larger than the analysis sees them, the faces found by the
/// HOG detector and the main face's eyes measured with dlib's 68-point landmarks
/// (`FaceLandmarker`, `FaceExpression.openness`). Eyes differ from face to face (animated
/// faces' large eyes read 0.4 open, real ones 0.25), so shut is judged against the same face
/// nearby: eyes under `FaceExpression.shutEye`, or under `shutShare` of the widest nearby, are
/// shut; a replacement's are at least `openShare` of it. Only a poster whose eyes could be shut
/// (under `possiblyShut`) costs the nearby looks. The landmark model is optional: without it the
/// poster is left as chosen; so is a picture without a face, and a poster with no open-eyed
/// candidate nearby.
enum PosterEyes {
    /// How far (seconds) from the chosen poster a replacement may be.
    static let reach = 0.8
    /// Pictures looked at, at most, besides the poster.
    static let maximumLooks = 8
    /// The longer side of the pictures looked at: eyes need more pixels than presence.
    static let pictureSize = 960
    /// Eyes opener than this are open whatever the neighbours show.
    static let possiblyShut = 0.3
    /// Eyes under this share of the widest nearby are shut (a blink reads half of open or less;
    /// a glance down about three quarters).
    static let shutShare = 0.6
    /// A replacement's eyes are at least this share of the widest nearby.
    static let openShare = 0.85

    /// `chosen`, or the nearest of `candidates` (times of poster candidates) in the same shot
    /// and within `reach` whose eyes are open, when the eyes at `chosen` are shut; `openness`
    /// measures the main face's eyes at a time (nil: no face).
    static func opened(_ chosen: MediaTime, candidates: [MediaTime], boundaries: [MediaTime],
                       openness: (MediaTime) -> Double?) -> MediaTime {
        guard let here = openness(chosen), here < possiblyShut else { return chosen }
        let nearby = candidates.filter { candidate in
            candidate != chosen && abs(candidate.seconds - chosen.seconds) <= reach
                && !boundaries.contains { boundary in
                    (boundary > chosen && boundary <= candidate) || (boundary > candidate && boundary <= chosen)
                }
        }.sorted { abs($0.seconds - chosen.seconds) < abs($1.seconds - chosen.seconds) }
        let measured = nearby.prefix(maximumLooks).compactMap { time in openness(time).map { (time: time, openness: $0) } }
        let widest = max(measured.map(\.openness).max() ?? 0, here)
        guard here < FaceExpression.shutEye || here < shutShare * widest else { return chosen }
        return measured.first { $0.openness >= openShare * widest && $0.openness >= FaceExpression.shutEye }?.time ?? chosen
    }

    /// How open the eyes of the main face (the largest) of `source`'s picture at `time` (on the
    /// file's clock) are; nil when the picture cannot be read, has no face, or no landmark model
    /// is found.
    static func openness(at time: MediaTime, in source: MediaInfo, finders: FaceFinderPool, minimumScore: Double) -> Double? {
        openness(of: try? PictureReader.frame(of: source, at: time.seconds - source.startTime, maximumSide: pictureSize),
                 finders: finders, minimumScore: minimumScore)
    }

    /// `openness(at:in:...)` of a picture read at `pictureSize` (nil: none could be read).
    static func openness(of picture: RGBPicture?, finders: FaceFinderPool, minimumScore: Double) -> Double? {
        guard let picture else { return nil }
        let gray = FaceLandmarker.gray(picture)
        let faces = finders.withFinder { finder in
            finder.faces(inGray: gray, width: picture.width, height: picture.height, minimumScore: minimumScore)
        } ?? []
        // The model (100 MB) is loaded only once a poster shows a face.
        guard let main = faces.max(by: { $0.box.width * $0.box.height < $1.box.width * $1.box.height }),
              let landmarker = FaceLandmarker.shared() else { return nil }
        let pixels = CGRect(x: main.box.minX * Double(picture.width), y: main.box.minY * Double(picture.height),
                            width: main.box.width * Double(picture.width), height: main.box.height * Double(picture.height))
        return landmarker.expression(inGray: gray, width: picture.width, height: picture.height, box: pixels)?.openness
    }
}
