import CReelFaces
import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// How a face looks, from dlib's 68 landmarks: eyes open or shut, a smile, turned to the camera.
package struct FaceExpression: Sendable, Equatable {
    /// The left eye's aspect ratio (the eyelids' gaps over the eye's width), as seen.
    package var leftEyeOpenness: Double
    /// The right eye's aspect ratio, as seen.
    package var rightEyeOpenness: Double
    /// The mouth's width over the distance between the eyes.
    package var mouthWidth: Double
    /// How far the mouth's corners sit above the middle of the lips, over the eye distance.
    package var cornerLift: Double
    /// The gap between the inner lips over the eye distance: near 0 with the mouth shut.
    package var mouthOpenness: Double = 0
    /// 1 for a face turned to the camera, towards 0 as it turns away.
    package var frontalness: Double

    /// An eye whose aspect ratio is below this is shut, whatever the face. Open eyes measure
    /// 0.2-0.36 on real portraits and 0.3-0.55 on animated faces' large eyes; blinks under 0.16.
    /// A blink of large eyes can stay above it (Megamind.avi's at 7.25 s measures 0.21 against
    /// 0.37-0.40 around it): compare with the same face nearby to tell (see `PosterEyes`).
    package static let shutEye = 0.15

    /// How open the eyes are: the wider-open eye's aspect ratio, so a face turned aside (whose
    /// far eye is foreshortened) or a wink is not taken for a blink.
    package var openness: Double { max(leftEyeOpenness, rightEyeOpenness) }

    /// Whether the eyes are open by the absolute measure (`shutEye`).
    package var eyesOpen: Bool { openness >= Self.shutEye }

    /// How much the face smiles, 0...1: a mouth wider than at rest (0.85 of the eye distance,
    /// full at 1.15) and corners raised above the lips' middle (full at a tenth of the eye
    /// distance) count half each.
    package var smile: Double {
        let wide = min(max((mouthWidth - 0.85) / 0.3, 0), 1)
        let raised = min(max(cornerLift / 0.1, 0), 1)
        return 0.5 * wide + 0.5 * raised
    }

    /// Whether the face looks towards the camera (nose within the middle third of the jaw's width
    /// and turned less than about 30 degrees).
    package var facesCamera: Bool { frontalness >= 0.6 }
}

/// dlib's 68-point landmark model, loaded once per process when `FaceModels` finds it
/// (`shape_predictor_68_face_landmarks.dat`; optional: without it, what depends on it is
/// skipped). Safe to use from several threads.
package final class FaceLandmarker: Sendable {
    private nonisolated(unsafe) let landmarker: OpaquePointer

    private static let loaded = Mutex<[String: FaceLandmarker]>([:])

    /// The landmarker of the 68-point model found by `FaceModels.locateLandmarks68`, loaded on
    /// first use; nil when the model is missing or unreadable.
    package static func shared(explicit: URL? = nil) -> FaceLandmarker? {
        guard let url = FaceModels.locateLandmarks68(explicit: explicit) else { return nil }
        return loaded.withLock { cache in
            if let known = cache[url.path] { return known }
            guard let created = FaceLandmarker(model: url) else { return nil }
            cache[url.path] = created
            return created
        }
    }

    /// Loads `model`; nil when it cannot be read. `readsWithDlib` skips the fast reader of
    /// dlib's format and uses dlib's own (more than twice as slow; for comparing the two).
    package init?(model: URL, readsWithDlib: Bool = false) {
        var message = [CChar](repeating: 0, count: 512)
        guard let created = message.withUnsafeMutableBufferPointer({
            reel_face_landmarker_create(model.path, readsWithDlib ? 1 : 0, $0.baseAddress, $0.count)
        }) else { return nil }
        landmarker = created
    }

    deinit { reel_face_landmarker_free(landmarker) }

    /// The expression of the face in `box` (pixels) of an 8-bit gray picture; nil when the
    /// landmarks cannot be placed.
    package func expression(inGray luma: [UInt8], width: Int, height: Int, box: CGRect) -> FaceExpression? {
        guard width > 0, height > 0, luma.count >= width * height else { return nil }
        let corners = [Float(box.minX), Float(box.minY), Float(box.maxX), Float(box.maxY)]
        var measured = reel_face_expression()
        let status = luma.withUnsafeBufferPointer { pixels in
            corners.withUnsafeBufferPointer { rect in
                reel_face_landmarker_measure(landmarker, pixels.baseAddress, Int32(width), Int32(height), Int32(width),
                                             rect.baseAddress, &measured, nil, 0)
            }
        }
        guard status == 0 else { return nil }
        return FaceExpression(
            leftEyeOpenness: Double(measured.left_eye_openness), rightEyeOpenness: Double(measured.right_eye_openness),
            mouthWidth: Double(measured.mouth_width), cornerLift: Double(measured.corner_lift),
            mouthOpenness: Double(measured.mouth_openness),
            frontalness: Double(measured.frontalness))
    }

    /// The picture's luma (BT.601 weights).
    package static func gray(_ picture: RGBPicture) -> [UInt8] {
        let count = picture.width * picture.height
        guard picture.pixels.count >= count * 3 else { return [] }
        return picture.pixels.withUnsafeBufferPointer { pixels in
            (0..<count).map { index in
                let red = UInt32(pixels[index * 3]), green = UInt32(pixels[index * 3 + 1]), blue = UInt32(pixels[index * 3 + 2])
                return UInt8((77 * red + 150 * green + 29 * blue) >> 8)
            }
        }
    }
}
