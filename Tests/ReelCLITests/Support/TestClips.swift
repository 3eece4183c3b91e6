import Foundation
import Synchronization
import Testing

/// Tiny test clips made once per test run with the ffmpeg command-line tool.
enum TestClips {
    /// A clip and how to make it.
    enum Clip: String, CaseIterable {
        /// 320x180, 30 fps, 1 s, stereo AAC at 48 kHz.
        case video = "video.mp4"
        /// 320x180, 30 fps, 1 s, no audio.
        case silent = "silent.mp4"
        /// 640x360, 30 fps, 8 s, stereo AAC: long enough to interrupt.
        case long = "long.mp4"
        /// 640x360, 30 fps, 40 s, stereo AAC: an analysis long enough to interrupt.
        case minute = "minute.mp4"
        /// 320x180, 25 fps, 0.4 s, HEVC Main 10 tagged BT.2020 PQ, no audio.
        case hdr = "hdr.mp4"

        /// The ffmpeg arguments that write the clip to `path`.
        func ffmpegArguments(path: String) -> [String] {
            let video = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                         "-g", "30", "-threads", "2"]
            let audio = ["-c:a", "aac", "-b:a", "96k", "-ac", "2"]
            let head = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"]
            switch self {
            case .video:
                return head + ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=1",
                               "-f", "lavfi", "-i", "sine=f=440:r=48000:d=1"]
                    + video + audio + [path]
            case .silent:
                return head + ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=1"]
                    + video + [path]
            case .long:
                return head + ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=8",
                               "-f", "lavfi", "-i", "sine=f=440:r=48000:d=8"]
                    + video + audio + [path]
            case .minute:
                return head + ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=30:d=40",
                               "-f", "lavfi", "-i", "sine=f=440:r=48000:d=40"]
                    + video + audio + [path]
            case .hdr:
                return head + ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=0.4,format=yuv420p10le",
                               "-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
                               "-x265-params", "log-level=error:pools=2:frame-threads=1",
                               "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", path]
            }
        }
    }

    private static let made = Mutex<URL?>(nil)

    /// The shared directory the clips are made in; kept between runs so they are made once.
    private static func directory() throws -> URL {
        try made.withLock { directory in
            if let directory { return directory }
            let created = FileManager.default.temporaryDirectory
                .appendingPathComponent("reel-cli-clips-v1")
            try FileManager.default.createDirectory(at: created, withIntermediateDirectories: true)
            directory = created
            return created
        }
    }

    private static let lock = Mutex<Void>(())

    /// The path of `clip`, made on first use.
    static func url(_ clip: Clip) throws -> URL {
        let target = try directory().appendingPathComponent(clip.rawValue)
        try lock.withLock { _ in
            if FileManager.default.fileExists(atPath: target.path) { return }
            let partial = target.deletingLastPathComponent()
                .appendingPathComponent("partial-\(getpid())-" + clip.rawValue)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["ffmpeg"] + clip.ffmpegArguments(path: partial.path)
            try process.run()
            let exited = process.waitForExit(timeout: 120)
            try #require(exited && process.terminationStatus == 0, "ffmpeg could not make \(clip.rawValue)")
            // Another test process may have made the same clip meanwhile; either copy will do.
            if rename(partial.path, target.path) != 0 {
                try? FileManager.default.removeItem(at: partial)
            }
        }
        return target
    }

    /// Copies `clip` into `directory` as `name`, returning the copy.
    @discardableResult
    static func copy(_ clip: Clip, to directory: URL, as name: String) throws -> URL {
        let destination = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try url(clip), to: destination)
        return destination
    }
}

/// A fresh temporary directory for one test, removed by `remove()`.
struct Scratch {
    /// The directory.
    let url: URL

    /// Creates an empty directory.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("reel-cli-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `name` inside the directory.
    func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` to `name` (e.g. a file that is not a video).
    @discardableResult
    func write(_ text: String, to name: String) throws -> URL {
        let file = path(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// The visible names directly inside `subdirectory` (or the directory itself), sorted.
    func names(in subdirectory: String = "") throws -> [String] {
        let directory = subdirectory.isEmpty ? url : path(subdirectory)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !$0.hasPrefix(".stdout-") && !$0.hasPrefix(".stderr-") }
            .sorted()
    }

    /// Deletes the directory.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
