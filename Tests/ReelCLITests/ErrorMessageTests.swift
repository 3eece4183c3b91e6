import Foundation
import Testing

/// What a person reads when an input or output cannot be used: the cause in their terms, the
/// paths they typed, no FFmpeg function names, no hidden temporary names.
@Suite(.timeLimit(.minutes(5))) struct ErrorMessageTests {
    static let ffmpegNames = ["avformat_", "avcodec_", "avio_", "av_", "sws_", "swr_"]

    static func ffmpeg(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
    }

    @Test func aStillImageIsNotAVideo() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for name in ["photo.png", "photo.jpg"] {
            try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1", name], in: scratch.url)
            for command in [["compress", name, "-q"], ["analyze", name, "-q"], ["thumbnail", name, "-o", "t.jpg"]] {
                let run = try await Reel.run(command, in: scratch.url)
                #expect(run.status == 1, "\(command): \(run.stderr)")
                #expect(run.stderr.contains("\(name): cannot read as media: not a video: a still image"), "\(command): \(run.stderr)")
                #expect(!run.stderr.contains("trim range") && !run.stderr.contains("Operation not permitted"), "\(run.stderr)")
            }
        }
    }

    /// FFmpeg 5.1 reads an animated WebP as one still image it cannot decode: it was called
    /// "a still image", which it is not. It is named for what it is, and what can be read.
    @Test func anAnimatedWebPIsNamedAsOne() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x64:r=10:d=1", "-c:v", "libwebp_anim", "-loop", "0", "moving.webp"],
                        in: scratch.url)
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x64", "-frames:v", "1", "still.webp"], in: scratch.url)
        for command in [["compress", "moving.webp", "-q"], ["analyze", "moving.webp", "-q"], ["highlights", "moving.webp", "-q"]] {
            let run = try await Reel.run(command, in: scratch.url)
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("moving.webp: cannot read as media: an animated WebP (10 pictures), which FFmpeg 5.1 "
                + "cannot decode"), "\(command): \(run.stderr)")
        }
        let still = try await Reel.run(["compress", "still.webp", "-q"], in: scratch.url)
        #expect(still.stderr.contains("still.webp: cannot read as media: not a video: a still image"), "\(still.stderr)")
    }

    @Test func aFileCutShortSaysSoWithoutFFmpegNames() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let data = try Data(contentsOf: scratch.path("clip.mp4"))
        try data.prefix(2000).write(to: scratch.path("cut.mp4"))
        for command in [["compress", "cut.mp4", "-q"], ["thumbnail", "cut.mp4"], ["analyze", "cut.mp4", "-q"], ["probe", "cut.mp4"]] {
            let run = try await Reel.run(command, in: scratch.url)
            #expect(run.status != 0)
            #expect(run.stderr.contains("cut.mp4: cannot read as media:"), "\(command): \(run.stderr)")
            #expect(!Self.ffmpegNames.contains { run.stderr.contains($0) }, "\(command): \(run.stderr)")
        }
    }

    @Test func anUnwritableOutputIsNamedAsTyped() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try await Reel.run(["compress", "clip.mp4", "-o", "/proc/clip-out.mp4", "--speed", "ultrafast", "-q"], in: scratch.url)
        #expect(run.status == 1)
        #expect(run.stderr.contains("/proc/clip-out.mp4: "), "\(run.stderr)")
        #expect(!run.stderr.contains("reel-tmp") && !Self.ffmpegNames.contains { run.stderr.contains($0) }, "\(run.stderr)")
    }
}
