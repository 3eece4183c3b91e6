import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// The one speaking is framed on real footage: Megamind.avi's man talking (4.2-6.4 s) beside a
/// still of his own close-up with the lips shut, larger than him. Without the mouths the
/// camera would take the larger face.
@Suite(.timeLimit(.minutes(6))) struct SpeakerFramingTests {
    private static func duo() async throws -> URL {
        try await offPool {
            let output = try Fixtures.scratchDirectory("speaker-clips").appendingPathComponent("duo.mp4")
            if FileManager.default.fileExists(atPath: output.path) { return output }
            let film = try FaceFixtures.footage("Megamind.avi").path
            try Fixtures.run("/usr/bin/ffmpeg", [
                "-v", "error", "-y", "-ss", "4.2", "-t", "2.2", "-i", film, "-ss", "9.9", "-i", film, "-filter_complex",
                "[1]trim=end_frame=1,loop=loop=-1:size=1,setpts=N/FRAME_RATE/TB[still];[0][still]hstack=shortest=1",
                "-an", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-threads", "2", output.path,
            ])
            return output
        }
    }

    @Test func theManTalkingIsFramedNotTheLargerStillFace() async throws {
        let source = try await Self.duo()
        for fill in [nil, FramingFill.blur] {
            var config = Harness.fastConfig(in: try Fixtures.scratchDirectory("speaker-out"))
            config.outputURL = config.outputDirectory?.appendingPathComponent(UUID().uuidString + ".mp4")
            config.reframing = Reframing(aspect: .vertical, fill: fill)
            let result = try await VideoCompressor().compressVideo(source, config: config)
            let path = try #require(result.analytics.cameraPath)
            #expect(path.shots.allSatisfy { !$0.showsWholePicture })
            // The talking man's face spans about 0.28-0.37 of the 1440 px width; the still one 0.66-0.84.
            for time in stride(from: 0.1, to: 2.1, by: 0.25) {
                let window = try #require(path.window(at: time))
                #expect(window.minX <= 0.28 && window.maxX >= 0.37, "the speaker inside the window at \(time) s: \(window)")
            }
            let picture = try #require(try MediaInfo.probe(result.url).primaryVideo?.video)
            #expect(picture.width == 296 && picture.height == 528)
        }
    }
}
