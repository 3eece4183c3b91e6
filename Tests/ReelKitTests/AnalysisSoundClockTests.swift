import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelKit

/// The analysis decodes the sound apart from the pictures and counts its windows from its
/// first sample. Before, they were laid on the file's clock as if that sample were at zero: an
/// MPEG-TS, whose clock starts 1.4 s in (or hours in, from a broadcast), had its sound 1.4 s
/// ahead of its pictures in every segment's loudness and in the envelope edits are cut on.
@Suite struct AnalysisSoundClockTests {
    /// 8 s of pictures, silent but for a tone from 2.6 to 3.6 s, as MPEG-TS starting `offset` s in
    /// (the muxer's own 1.4 s when 0).
    static func toneClip(offset: Double, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("tone-\(Int(offset)).ts")
        try Fixtures.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8",
            "-f", "lavfi", "-i", "aevalsrc='if(between(t,2.6,3.6),0.5*sin(2*PI*440*t),0)':s=48000:d=8",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-output_ts_offset", String(offset), url.path])
        return url
    }

    @Test(arguments: [0.0, 600.0])
    func theSoundLinesUpWithThePictures(offset: Double) async throws {
        let directory = try Fixtures.scratchDirectory()
        let clip = try Self.toneClip(offset: offset, in: directory)
        let analysis = try await VideoAnalyzer().analysis(of: MediaIntelligenceVideoAsset(url: clip))
        let sound = try #require(analysis.sound)
        #expect(abs(sound.start) < 0.05, "the sound starts with the pictures, not at \(sound.start) s")
        for time in [2.8, 3.1, 3.4] { #expect(sound.level(around: time) > -30, "\(time) s: \(sound.level(around: time)) dBFS") }
        for time in [1.5, 2.3, 3.9, 6.0] { #expect(sound.level(around: time) < -60, "\(time) s: \(sound.level(around: time)) dBFS") }
        let toned = try #require(analysis.segments.first { $0.timeRange.start.seconds <= 3.1 && 3.1 < $0.timeRange.end.seconds })
        let quiet = try #require(analysis.segments.first { $0.timeRange.start.seconds >= 4 }, "\(analysis.segments.map(\.timeRange))")
        #expect(toned.features.loudness > quiet.features.loudness + 20,
                "tone segment \(toned.features.loudness) dB, silent one \(quiet.features.loudness) dB")
    }
}
