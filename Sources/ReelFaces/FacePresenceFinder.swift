import CReelFaces
import Foundation
import ReelMedia
import ReelSupport

/// Where the faces of one picture are, cheaply: dlib's HOG detector alone (no models, no
/// descriptors), for the video analyzer's face presence. Not thread-safe: one per worker.
package final class FacePresenceFinder {
    private let finder: OpaquePointer

    /// A finder; `nil` if dlib could not create its detector. Pictures are searched by the
    /// detector built for AVX2 where the CPU has it, unless `vectorExtensions` is false.
    package init?(vectorExtensions: Bool = true) {
        DetectorCache.install()
        var message = [CChar](repeating: 0, count: 256)
        guard let created = message.withUnsafeMutableBufferPointer({
            reel_face_finder_create_using(vectorExtensions ? 1 : 0, $0.baseAddress, $0.count)
        }) else {
            return nil
        }
        finder = created
    }

    deinit { reel_face_finder_free(finder) }

    /// Whether pictures go to the detector built for AVX2.
    package var usesVectorExtensions: Bool { reel_face_finder_is_vectorized(finder) != 0 }

    /// The faces in an 8-bit gray picture, best first, as boxes normalized to 0...1 with their
    /// detection scores; empty when detection fails.
    package func faces(inGray luma: [UInt8], width: Int, height: Int, minimumScore: Double) -> [(box: CGRect, score: Double)] {
        guard width > 0, height > 0, luma.count >= width * height else { return [] }
        let capacity = 16
        var boxes = [Float](repeating: 0, count: capacity * 5)
        let found = luma.withUnsafeBufferPointer { pixels in
            boxes.withUnsafeMutableBufferPointer { output in
                reel_face_finder_find(finder, pixels.baseAddress, Int32(width), Int32(height), Int32(width), minimumScore,
                                      output.baseAddress, Int32(capacity), nil, 0)
            }
        }
        guard found > 0 else { return [] }
        return (0..<min(Int(found), capacity)).map { index in
            let box = Array(boxes[(index * 5)..<(index * 5 + 5)])
            let left = max(Double(box[0]), 0) / Double(width), top = max(Double(box[1]), 0) / Double(height)
            let right = min(Double(box[2]), Double(width)) / Double(width), bottom = min(Double(box[3]), Double(height)) / Double(height)
            return (CGRect(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0)), Double(box[4]))
        }
    }

    /// The faces of a packed RGB picture, as `FaceEngine.find` finds them (enlarged `upsample`
    /// times), best first, in pixels.
    func faces(in picture: RGBPicture, upsample: Int, minimumScore: Double) throws(MediaFailure) -> [FaceBox] {
        try FaceBox.collect(from: picture) { pixels, output, capacity, error, errorSize in
            reel_face_finder_find_rgb(finder, pixels, Int32(picture.width), Int32(picture.height), Int32(picture.width * 3),
                                      Int32(upsample), minimumScore, output, capacity, error, errorSize)
        }
    }
}

/// Where dlib's HOG detector is cached in its plain serialized form:
/// `$XDG_CACHE_HOME/reel/hog-frontal-face.dat`, else `~/.cache/reel/hog-frontal-face.dat`.
enum DetectorCache {
    private static let installed: Bool = {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? home.appendingPathComponent(".cache", isDirectory: true)
        let directory = cache.appendingPathComponent("reel", isDirectory: true)
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return false }
        reel_face_set_detector_cache(directory.appendingPathComponent("hog-frontal-face.dat").path)
        return true
    }()

    /// Points the C shim at the cache file, once per process.
    static func install() { _ = installed }
}
