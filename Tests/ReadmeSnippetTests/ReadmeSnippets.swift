// The Swift snippets of README.md, as written there (ReadmeSnippetTests checks that each one
// appears here line for line). A test target holds no top-level statements, so each snippet is
// the body of a function that receives the names it uses (`compressor`, `source`, `urls`...),
// and a line after it uses what it leaves unused. It imports only what every snippet shows
// above it in the README (checked there too), so each snippet's own imports are enough.

import Foundation
import ReelKit

// "The library", first snippet.
func librarySnippet() async throws {
let compressor = VideoCompressor()
let result = try await compressor.compressVideo(
    URL(fileURLWithPath: "holiday.mov"),
    quality: .messaging,
    outputDirectory: URL(fileURLWithPath: "out"),
    progressHandler: { fraction in
        // Called from a worker thread: monotonic, at most ~100 times, last exactly 1.0.
        print("\(Int(fraction * 100))%")
    })
print(result.url.path, result.analytics.compressionRatio, result.analytics.compressedVideoBitrate)
}

// "With explicit settings".
func explicitSettingsSnippet(compressor: VideoCompressor, source: URL) async throws -> CompressionConfig {
var config = VideoQuality.mediumQuality.defaultConfig
config.videoCodec = .hevc                    // libx265, tagged hvc1 for Apple players
config.maxLongerDimension = 1280             // aspect kept, even, never upscaled
config.fps = 24                              // frames dropped by the reducer below
config.trimStartTime = MediaTime(value: 5, timescale: 1)
config.trimEndTime = MediaTime(value: 15, timescale: 1)
config.audioChannels = 1
config.preprocessing.noiseReduction = .medium   // libavfilter hqdn3d
config.outputURL = URL(fileURLWithPath: "out/clip.mp4")
let result = try await compressor.compressVideo(source, config: config, frameReducer: SceneAwareReducer())
_ = result
return config
}

// Planning first.
func planFirstSnippet(compressor: VideoCompressor, config: CompressionConfig) async throws {
let plan = try await compressor.plan(URL(fileURLWithPath: "holiday.mov"), config: config)
print(plan.keptRanges, plan.keptDuration, plan.outputURL.path)
let result = try await compressor.compress(plan)
print(result.analytics.processingTime, result.analytics.planningTime ?? 0)
}

// "The analyzer".
func analyzerSnippet() async throws {
let videoURL = URL(fileURLWithPath: "match.mp4")
let asset = MediaIntelligenceVideoAsset(id: MediaIntelligenceVideoAsset.ID("match"), kind: .url(videoURL))
let (highlights, keyFrame) = try await VideoAnalyzer.shared.analyze(
    asset, for: HighlightAnalysisRequest(), KeyFrameAnalysisRequest())
switch highlights {
case .success(let result):
    for range in result.highlights { print(range) }            // chronological, non-overlapping
    for (range, level) in result.levels { print(range, level) } // whole timeline, 0...9
case .failure(let error):
    print(error)
}
if case .success(let frame) = keyFrame { print(frame.timestamp.seconds) }
}

// "Reels, ranges and thumbnails".
func reelsSnippet(source: URL) async throws {
var config = VideoQuality.socialMedia.defaultConfig
config.trim = .highlights(HighlightReelOptions(maximumDuration: 30, minimumLevel: 5))  // analyzer: .shared
config.crossfadeDuration = 0.5
let reel = try await VideoCompressor().compressVideo(source, config: config)
print(reel.analytics.keptRanges)   // the source ranges in the reel
print(reel.analytics.loudness?.output?.integrated ?? 0)   // about -14 LUFS: reels are normalised

config.trim = .ranges([TimeRange(start: MediaTime(value: 3, timescale: 2), end: MediaTime(value: 4, timescale: 1))])
config.crossfadeDuration = 0       // a stream copy cannot crossfade
config.streamCopy = true           // lossless: ranges widen to whole keyframe groups
let cut = try await VideoCompressor().compressVideo(source, config: config)
print(cut.analytics.requestedRanges, cut.analytics.keptRanges)

let thumbnail = try await Thumbnailer().thumbnail(of: source, to: URL(fileURLWithPath: "thumb.jpg"))
let sheet = try await Thumbnailer().contactSheet(of: source, frames: 12, selection: .highlights,
                                                 to: URL(fileURLWithPath: "sheet.jpg"))
let poster = try await Thumbnailer().image(of: source)   // the key frame, in memory
print(poster.width, poster.height, poster.time.seconds, try poster.jpegData().count)
_ = (thumbnail, sheet)
}

// "Dead air: the pauses cut out".
func deadAirSnippet(source: URL) async throws {
var options = DeadAirOptions()           // auto-editor's defaults: 4% of the peak, 0.2 s margins
options.marginAfter = 0.3                // a little more of each word's tail
options.minimumPause = 0.5               // shorter gaps stay (the default)
var config = CompressionConfig()
config.trim = .cuttingDeadAir(options)   // .requiresStillPicture: only pauses over a still picture
let result = try await VideoCompressor().compressVideo(source, config: config)
if let cut = result.deadAir {
    print(cut.cutDuration, cut.cuts)     // seconds cut, and the pauses that went
}
print(result.analytics.keptRanges)       // the parts kept, joined in one encode
}

// "Vertical and square: a camera that follows the subject".
func verticalSnippet(source: URL) async throws {
var config = VideoQuality.socialMedia.defaultConfig
config.reframing = Reframing(aspect: .vertical)           // 9:16; .portrait 4:5, .square, .landscape
config.trim = .highlights(HighlightReelOptions(maximumDuration: 30))
let vertical = try await VideoCompressor().compressVideo(source, config: config)
print(vertical.analytics.cameraPath?.shots.count ?? 0)    // where the window was, shot by shot
}

// "Faces".
func facesSnippet(urls: [URL], newPhoto: MediaIntelligenceImageAsset, directory: URL) async throws {
let analyzer = try FaceGroupAnalyzer(workingDirectory: URL.applicationSupportDirectory.appending(path: "Faces"))
let photos = urls.map { MediaIntelligenceImageAsset(id: .init($0.path), kind: .url($0)) }
for try await (id, faces) in try await analyzer.insertOrUpdateAssets(photos) {
    print(id, faces.map(\.bounds))          // as each photo finishes
}
if await analyzer.state == .stale { try await analyzer.update() }
for (person, faces) in try await analyzer.allFacesByEntityID { print(person, faces.count) }
let matches = try await analyzer.identifyFaces(in: [newPhoto])   // nothing stored
try FaceGroupAnalyzer.purge(workingDirectory: directory)        // everything it wrote, nothing else
_ = matches
}
