import CReelFaces
import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// A face found by the engine, in pixels of the picture it was found in.
struct DetectedFace: Sendable {
    var left: Double
    var top: Double
    var right: Double
    var bottom: Double
    var score: Double
    var descriptor: [Float]
}

/// dlib's face detector, landmark model and recognition network, loaded once. Not thread-safe:
/// `SharedFaceEngine` hands it to one thread at a time.
final class FaceEngine {
    private let engine: OpaquePointer

    init(models: FaceModels) throws(ReelError) {
        DetectorCache.install()
        var message = [CChar](repeating: 0, count: 512)
        let created = message.withUnsafeMutableBufferPointer { buffer in
            reel_face_engine_create(models.landmarks.path, models.recognition.path, buffer.baseAddress, buffer.count)
        }
        guard let created else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .faceModelsMissing("cannot load \(models.landmarks.path) and \(models.recognition.path): \(text)")
        }
        engine = created
    }

    deinit { reel_face_engine_free(engine) }

    /// The faces in `picture` scoring at least `minimumScore`, best first (at most 64).
    func detect(_ picture: RGBPicture, upsample: Int, minimumScore: Double) throws(MediaFailure) -> [DetectedFace] {
        try describe(try find(picture, upsample: upsample, minimumScore: minimumScore), in: picture)
    }

    /// Where the faces of `picture` scoring at least `minimumScore` are, best first (at most
    /// 64), without describing them: the detector alone.
    func find(_ picture: RGBPicture, upsample: Int, minimumScore: Double) throws(MediaFailure) -> [FaceBox] {
        try FaceBox.collect(from: picture) { pixels, output, capacity, error, errorSize in
            reel_face_engine_find(engine, pixels, Int32(picture.width), Int32(picture.height), Int32(picture.width * 3),
                                  Int32(upsample), minimumScore, output, capacity, error, errorSize)
        }
    }

    /// The faces at `boxes` of `picture`, described (landmarks and descriptor).
    func describe(_ boxes: [FaceBox], in picture: RGBPicture) throws(MediaFailure) -> [DetectedFace] {
        guard !boxes.isEmpty else { return [] }
        let flat = boxes.flatMap { [$0.left, $0.top, $0.right, $0.bottom, $0.score] }
        var faces = [reel_face](repeating: reel_face(), count: boxes.count)
        var message = [CChar](repeating: 0, count: 512)
        let described = picture.pixels.withUnsafeBufferPointer { pixels in
            flat.withUnsafeBufferPointer { input in
                faces.withUnsafeMutableBufferPointer { output in
                    message.withUnsafeMutableBufferPointer { error in
                        reel_face_engine_describe(
                            engine, pixels.baseAddress, Int32(picture.width), Int32(picture.height), Int32(picture.width * 3),
                            input.baseAddress, Int32(boxes.count), output.baseAddress, error.baseAddress, error.count)
                    }
                }
            }
        }
        guard described >= 0 else { throw Self.failure("face description", message) }
        return faces.map { face in
            var copy = face
            let descriptor = withUnsafeBytes(of: &copy.descriptor) { Array($0.bindMemory(to: Float.self)) }
            return DetectedFace(left: Double(face.left), top: Double(face.top), right: Double(face.right),
                                bottom: Double(face.bottom), score: Double(face.score), descriptor: descriptor)
        }
    }

    private static func failure(_ operation: String, _ message: [CChar]) -> MediaFailure {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return .failed(.decode, operation: operation, message: text, code: nil)
    }
}

/// A face's box as the detector found it, in pixels of the picture, with its score.
struct FaceBox: Sendable, Equatable {
    var left: Float
    var top: Float
    var right: Float
    var bottom: Float
    var score: Float

    /// The boxes a C finder writes for `picture`'s packed RGB pixels: `find` gets the pixels,
    /// room for `capacity` boxes (left, top, right, bottom, score), and room for a message;
    /// it returns how many it found, or a negative number with the message written.
    static func collect(
        from picture: RGBPicture, capacity: Int = 64,
        _ find: (UnsafePointer<UInt8>?, UnsafeMutablePointer<Float>?, Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    ) throws(MediaFailure) -> [FaceBox] {
        var boxes = [Float](repeating: 0, count: capacity * 5)
        var message = [CChar](repeating: 0, count: 512)
        let found = picture.pixels.withUnsafeBufferPointer { pixels in
            boxes.withUnsafeMutableBufferPointer { output in
                message.withUnsafeMutableBufferPointer { error in
                    find(pixels.baseAddress, output.baseAddress, Int32(capacity), error.baseAddress, error.count)
                }
            }
        }
        guard found >= 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .failed(.decode, operation: "face detection", message: text, code: nil)
        }
        return (0..<min(Int(found), capacity)).map { index in
            FaceBox(left: boxes[index * 5], top: boxes[index * 5 + 1], right: boxes[index * 5 + 2],
                    bottom: boxes[index * 5 + 3], score: boxes[index * 5 + 4])
        }
    }
}

/// One engine shared by the work of an analyzer, loaded on first use and used by one thread at
/// a time.
final class SharedFaceEngine: Sendable {
    private let engine = Mutex<FaceEngine?>(nil)
    private let models: URL?

    /// An engine whose models are looked for from `models` first (see `FaceModels.locate`).
    init(models: URL?) {
        self.models = models
    }

    /// Runs `work` with the engine, loading it first if needed.
    func withEngine<Value: Sendable>(_ work: (FaceEngine) throws(ReelError) -> Value) throws(ReelError) -> Value {
        try engine.withLock { (loaded: inout FaceEngine?) throws(ReelError) -> Value in
            if let loaded { return try work(loaded) }
            let created = try FaceEngine(models: FaceModels.locate(explicit: models))
            loaded = created
            return try work(created)
        }
    }
}
