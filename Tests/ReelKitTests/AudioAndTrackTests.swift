import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelCompression
@testable import ReelKit
@testable import ReelMedia
@testable import ReelSupport

/// Audio choices and extra tracks read back from real files.
@Suite(.timeLimit(.minutes(5))) struct AudioAndTrackTests {
    @Test func audioLessSourceCompresses() async throws {
        let (result, output, _) = try await Harness.compress("no_audio.mp4")
        #expect(output.primaryAudio == nil)
        #expect(result.analytics.originalAudioBitrate == nil)
        #expect(result.analytics.compressedAudioBitrate == nil)
        #expect(abs((output.primaryVideo?.duration ?? 0) - 2.0) < 1e-3)
    }

    @Test func zeroAudioBitrateDropsTheAudio() async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") { $0.audioBitrate = 0 }
        #expect(output.primaryAudio == nil)
        #expect(output.streams.count == 1)
        #expect(result.analytics.droppedTracks.map(\.role) == [.primaryAudio])
    }

    @Test func monoAtLowerRateAndBitrate() async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.audioChannels = 1
            $0.audioSampleRate = 22_050
            $0.audioBitrate = 48_000
        }
        let audio = try #require(output.primaryAudio?.audio)
        #expect(audio.channels == 1)
        #expect(audio.sampleRate == 22_050)
        #expect(output.primaryAudio?.codecName == "aac")
        let measured = try #require(result.analytics.compressedAudioBitrate)
        #expect(measured > 24_000 && measured < 60_000)
        #expect(abs((output.primaryAudio?.duration ?? 0) - 3.0) < 0.05)
    }

    @Test func highEfficiencyAACIsCheckedAtRunTime() async throws {
        #expect(AudioCodecType.aac.isSupported())
        let supported = AudioCodecType.aac_he_v1.isSupported()
        let error = await Harness.reelError {
            _ = try await Harness.compress("cfr_audio.mp4") { $0.audioCodec = .aac_he_v1 }
        }
        if supported {
            #expect(error == nil)
        } else {
            #expect(error == .codecNotSupported("aac_he_v1", file: try Fixtures.clip("cfr_audio.mp4")))
            #expect(error?.description.hasSuffix("cfr_audio.mp4: codec not supported by this FFmpeg build: aac_he_v1") == true)
            // Refused before any work: a highlight reel's analysis never starts.
            let analyzer = VideoAnalyzer()
            let reelError = await Harness.reelError {
                _ = try await Harness.compress("cfr_audio.mp4") {
                    $0.audioCodec = .aac_he_v1
                    $0.trim = .highlights(HighlightReelOptions(maximumDuration: 2), analyzer: analyzer)
                }
            }
            #expect(reelError?.cause == "codec not supported by this FFmpeg build: aac_he_v1")
            #expect(analyzer.decodePassCount == 0)
        }
    }

    @Test func settingsThatDoNotFitTheSourceNameIt() async throws {
        let error = await Harness.reelError {
            _ = try await Harness.compress("cfr_audio.mp4") { $0.trim = .ranges([
                TimeRange(start: MediaTime(value: 50, timescale: 1), end: MediaTime(value: 60, timescale: 1)),
            ]) }
        }
        let trimError = await Harness.reelError {
            _ = try await Harness.compress("cfr_audio.mp4") {
                $0.trimStartTime = MediaTime(value: 50, timescale: 1)
            }
        }
        let configError = await Harness.reelError {
            _ = try await Harness.compress("cfr_audio.mp4") { $0.crossfadeDuration = 9 }
        }
        #expect(error != nil)
        for found in [trimError, configError] {
            #expect(found?.fileURL?.lastPathComponent == "cfr_audio.mp4", "\(String(describing: found))")
        }
    }

    @Test func extraTracksAreDroppedAndListed() async throws {
        let source = try MediaInfo.probe(try Fixtures.clip("multitrack.mov"))
        let roles = Set(source.streams.map(\.role))
        #expect(roles.isSuperset(of: [.primaryVideo, .auxiliaryVideo, .primaryAudio, .data]))
        let (result, output, _) = try await Harness.compress("multitrack.mov")
        #expect(output.streams.map(\.kind) == [.video, .audio])
        #expect(output.primaryVideo?.video?.width == 640)
        let dropped = result.analytics.droppedTracks
        #expect(dropped.contains { $0.role == .auxiliaryVideo })
        #expect(dropped.contains { $0.role == .data })
        #expect(dropped.count == source.streams.count - 2)
    }

    @Test func coverArtIsDroppedAndListed() async throws {
        let clip = try (try? Fixtures.clip("cover_art.mp4")) ?? Fixtures.clip("multitrack.mov")
        let source = try MediaInfo.probe(clip)
        try #require(source.streams.contains { $0.role == .coverArt })
        let result = try await VideoCompressor().compressVideo(
            clip, config: Harness.fastConfig(in: try Fixtures.scratchDirectory()))
        #expect(result.analytics.droppedTracks.contains { $0.role == .coverArt })
        #expect(try MediaInfo.probe(result.url).streams.allSatisfy { $0.role != .coverArt })
    }

    @Test func movContainerAndHEVCTag() async throws {
        let (result, output, _) = try await Harness.compress("cfr_audio.mp4") {
            $0.fileType = .mov
            $0.videoCodec = .hevc
        }
        #expect(result.url.pathExtension == "mov")
        let probe = try Fixtures.ffprobe(result.url, ["-show_format", "-show_streams"])
        let format = probe["format"] as? [String: Any]
        #expect((format?["format_name"] as? String)?.contains("mov") == true)
        let tags = format?["tags"] as? [String: Any]
        #expect((tags?["major_brand"] as? String)?.hasPrefix("qt") == true)
        #expect(output.primaryVideo?.codecName == "hevc")
    }
}
