import Foundation
import Testing
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia

/// Joins of ranges, heard: on a tone whose phase breaks at every cut, no join clicks (no step
/// between samples larger than the tone's own) and none dips; the sound keeps the picture's
/// length over many joins.
@Suite(.timeLimit(.minutes(5))) struct AudioJoinTests {
    /// The tone's frequency: 16.25 periods a frame at 30 fps, so a cut that skips an odd number
    /// of frames breaks its phase by a quarter period.
    static let tone = 487.5

    /// A 12 s, 30 fps clip with keyframes every second and the tone at half scale (PCM, so the
    /// only coding is the output's).
    static func toneClip() async throws -> URL {
        try await offPool {
            let url = try Fixtures.scratchDirectory("tone-clip").appendingPathComponent("tone.mov")
            try Fixtures.run("/usr/bin/ffmpeg", [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=12",
                "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*\(tone)*t):s=48000:d=12",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-threads", "2", "-c:a", "pcm_s16le", url.path,
            ])
            return url
        }
    }

    /// `frames` at 30 fps.
    static func at(_ frames: Int64) -> MediaTime { MediaTime(value: frames, timescale: 30) }

    /// Compresses `ranges` of the tone clip with clean sound settings.
    static func join(_ ranges: [TimeRange], configure: (inout CompressionConfig) -> Void = { _ in })
        async throws -> (url: URL, sound: SoundProbe) {
        let source = try await toneClip()
        var config = Harness.fastConfig(in: try Fixtures.scratchDirectory("joins"))
        config.trim = .ranges(ranges)
        config.audioSampleRate = 48_000
        config.audioBitrate = 192_000
        configure(&config)
        let result = try await VideoCompressor().compressVideo(source, config: config)
        let sound = try await offPool { try SoundProbe(result.url) }
        return (result.url, sound)
    }

    /// Output times of the joins between `ranges`.
    static func joinTimes(_ ranges: [TimeRange]) -> [Double] {
        var time = 0.0
        return ranges.dropLast().map { range in
            time += range.duration.seconds
            return time
        }
    }

    @Test func cutsThatBreakTheTonesPhaseNeitherClickNorDip() async throws {
        // Every cut skips an odd number of frames (a quarter-period phase break); one range
        // ends at the file's end (nothing to borrow after it) and the next starts at its start
        // (nothing before): that join alone falls back to short fades.
        let ranges = [
            TimeRange(start: Self.at(30), end: Self.at(60)), TimeRange(start: Self.at(91), end: Self.at(120)),
            TimeRange(start: Self.at(153), end: Self.at(180)), TimeRange(start: Self.at(301), end: Self.at(360)),
            TimeRange(start: Self.at(0), end: Self.at(29)),
        ]
        let (_, sound) = try await Self.join(ranges)
        let joins = Self.joinTimes(ranges)
        for (index, join) in joins.enumerated() {
            // The tone's own largest step, in the 50 ms either side of the join's overlap.
            let tone = max(sound.largestJump(join - 0.09, join - 0.04), sound.largestJump(join + 0.04, join + 0.09))
            let atJoin = sound.largestJump(join - 0.04, join + 0.04)
            #expect(atJoin <= tone * 1.1, "join \(index) at \(join) s: a step of \(atJoin), the tone's are \(tone)")
            guard index != 3 else { continue }
            let level = min(sound.rms(join - 0.09, join - 0.04), sound.rms(join + 0.04, join + 0.09))
            let lowest = sound.lowestRMS(join - 0.04, join + 0.04, window: 0.005)
            #expect(lowest >= level * 0.9, "join \(index) at \(join) s dips to \(lowest) from \(level)")
        }
        // The fallback join's fades are short: the sound is back within 15 ms either side.
        #expect(sound.lowestRMS(joins[3] - 0.08, joins[3] - 0.015, window: 0.005) >= sound.rms(0.2, 0.4) * 0.9)
        #expect(sound.lowestRMS(joins[3] + 0.015, joins[3] + 0.08, window: 0.005) >= sound.rms(0.2, 0.4) * 0.9)
    }

    @Test func aPlainCutWithoutTheOverlapClicksAndOldFadesDip() async throws {
        // The measure used above can fail: the source's own phase break, heard as it is, is a
        // step far larger than the tone's, and 20 ms fades out and in make a dip.
        let clip = try await Self.toneClip()
        let cut = try await offPool { () throws -> (SoundProbe, SoundProbe) in
            let directory = try Fixtures.scratchDirectory("plain-cut")
            let hard = directory.appendingPathComponent("hard.wav"), faded = directory.appendingPathComponent("faded.wav")
            let pieces = "[0:a]atrim=start=1:end=2[a];[0:a]atrim=start=3.0333333:end=4,asetpts=PTS-STARTPTS[b];"
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", clip.path, "-filter_complex",
                                                 pieces + "[a][b]concat=n=2:v=0:a=1", hard.path])
            try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", clip.path, "-filter_complex",
                                                 "[0:a]atrim=start=1:end=2,asetpts=PTS-STARTPTS,afade=t=out:st=0.98:d=0.02[a];"
                                                 + "[0:a]atrim=start=3.0333333:end=4,asetpts=PTS-STARTPTS,afade=t=in:d=0.02[b];"
                                                 + "[a][b]concat=n=2:v=0:a=1", faded.path])
            return (try SoundProbe(hard), try SoundProbe(faded))
        }
        #expect(cut.0.largestJump(0.96, 1.04) > 3 * cut.0.largestJump(0.5, 0.9))
        #expect(cut.1.lowestRMS(0.96, 1.04, window: 0.005) < 0.5 * cut.1.rms(0.5, 0.9))
    }

    @Test func neighbouringRangesJoinWithoutAChange() async throws {
        // Ranges that follow each other in the source: the sound runs on as it was.
        let ranges = [TimeRange(start: Self.at(30), end: Self.at(45)), TimeRange(start: Self.at(45), end: Self.at(90))]
        let (_, sound) = try await Self.join(ranges)
        let join = 0.5
        let tone = sound.largestJump(join - 0.09, join - 0.04)
        #expect(sound.largestJump(join - 0.04, join + 0.04) <= tone * 1.1)
        #expect(sound.lowestRMS(join - 0.04, join + 0.04, window: 0.005) >= sound.rms(0.2, 0.4) * 0.95)
        #expect(sound.lowestRMS(join - 0.04, join + 0.04, window: 0.005) <= sound.rms(0.2, 0.4) * 1.05)
    }

    @Test func soundKeepsThePicturesLengthOverTwentyJoins() async throws {
        // 21 ranges of 0.3 s, 0.2 s apart: 20 joins, each with its overlap.
        let ranges = (Int64(0)..<21).map { (index: Int64) -> TimeRange in
            TimeRange(start: Self.at(15 * index + 3), end: Self.at(15 * index + 12))
        }
        let (url, sound) = try await Self.join(ranges)
        let output = try MediaInfo.probe(url)
        let video: Double = try #require(output.primaryVideo?.duration)
        #expect(abs(video - 6.3) < 0.5 / 30)
        // The decoded sound lasts as long as the picture (to within one AAC frame of padding).
        #expect(abs(sound.duration - video) < 1024.0 / 48_000, "sound \(sound.duration) s, picture \(video) s")
    }
}
