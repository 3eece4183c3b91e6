import Foundation
import Testing
@testable import ReelCompression
@testable import ReelSupport

@Suite(.timeLimit(.minutes(5))) struct PresetTests {
    @Test func everyQualityHasItsPresetWithJMVideoCompressorNumbers() throws {
        #expect(Preset.builtIn.map(\.name) == ["archive", "high", "low", "medium", "messaging", "social", "web"])
        let expectations: [(VideoQuality, Int, Float, Int, Int, Int?, NoiseReduction)] = [
            (.lowQuality, 640, 20, 500_000, 64_000, 1, .low),
            (.mediumQuality, 1280, 30, 2_000_000, 128_000, nil, .none),
            (.highQuality, 1920, 30, 5_000_000, 192_000, nil, .none),
            (.socialMedia, 1280, 30, 3_500_000, 128_000, nil, .none),
            (.messaging, 854, 24, 1_000_000, 64_000, 1, .medium),
        ]
        for (quality, size, fps, bitrate, audioBitrate, channels, denoise) in expectations {
            let preset = try #require(quality.preset)
            let config = preset.config
            #expect(config.maxLongerDimension == size)
            #expect(config.fps == fps)
            #expect(config.videoBitrate == bitrate)
            #expect(config.useExplicitBitrate)
            #expect(config.bitrateMode == .cappedQuality)
            #expect(config.audioBitrate == audioBitrate)
            #expect(config.audioChannels == channels)
            #expect(config.preprocessing.noiseReduction == denoise)
            #expect((25...60).contains(config.maxKeyFrameInterval))
            #expect(preset.rateControlReason?.isEmpty == false)
        }
        #expect(VideoQuality.highQuality.defaultConfig.videoCodec == .hevc)
        #expect(VideoQuality.highQuality.defaultConfig.fallbackVideoCodec == .h264)
    }

    @Test func builtInPresetsMatchThePresetFiles() throws {
        for preset in Preset.builtIn {
            let file = Fixtures.repositoryRoot.appendingPathComponent("Presets/\(preset.name).json")
            #expect(try Preset.load(from: file) == preset)
        }
    }

    @Test func loadsAUserPresetWithDefaultsForMissingKeys() throws {
        let directory = try Fixtures.scratchDirectory()
        let file = directory.appendingPathComponent("tiny.json")
        try Data(#"{"name": "tiny", "video": {"maxLongerDimension": 320, "fps": 12, "bitrate": 300000}, "audio": {"bitrate": 0}}"#.utf8)
            .write(to: file)
        let preset = try Preset.load(from: file)
        #expect(preset.name == "tiny")
        #expect(preset.config.maxLongerDimension == 320)
        #expect(preset.config.fps == 12)
        #expect(preset.config.audioBitrate == 0)
        #expect(preset.config.videoCodec == .h264)
    }

    @Test func rejectsBadPresetFilesWithTheFileName() throws {
        let directory = try Fixtures.scratchDirectory()
        let cases = [
            ("broken.json", "{not json"),
            ("nameless.json", #"{"video": {}}"#),
            ("badquality.json", #"{"name": "x", "video": {"quality": 3}}"#),
            ("badcodec.json", #"{"name": "x", "video": {"codec": "vp8"}}"#),
        ]
        for (name, text) in cases {
            let file = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            do {
                _ = try Preset.load(from: file)
                Issue.record("\(name) should not load")
            } catch {
                guard case .invalidPreset(let message) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(message.contains(name))
            }
        }
    }

    @Test func unknownKeysAndBadValuesAreNamed() {
        func failure(_ json: String) -> String {
            do {
                _ = try Preset(json: Data(json.utf8), source: "mine.json")
                return "loaded"
            } catch {
                return error.description
            }
        }
        let typo = failure(#"{"name": "mine", "video": {"codec": "h264", "bitrat": 1000000}}"#)
        #expect(typo.contains("mine.json") && typo.contains("unknown key 'video.bitrat'") && typo.contains("bitrate"), "\(typo)")
        let top = failure(#"{"name": "mine", "colour": "red"}"#)
        #expect(top.contains("unknown key 'colour'"), "\(top)")
        let codec = failure(#"{"name": "mine", "video": {"codec": "vp8"}}"#)
        #expect(codec.contains("bad value at 'video.codec'") && codec.contains("allowed: h264, hevc, av1, vp9"), "\(codec)")
        #expect(!codec.contains("not valid JSON"))
        #expect(failure("{not json").contains("not valid JSON"))
    }

    @Test func aPresetMayNormaliseTheSound() throws {
        let preset = try Preset(json: Data(#"{"name": "loud", "audio": {"loudness": {"integrated": -16}}}"#.utf8), source: "loud.json")
        #expect(preset.config.loudness == LoudnessTarget(integrated: -16, truePeak: -1))
        #expect(throws: ReelError.self) {
            try Preset(json: Data(#"{"name": "x", "audio": {"loudness": {"integrated": 4}}}"#.utf8), source: "x.json")
        }
    }
}
