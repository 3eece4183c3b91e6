import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// How the analyzer looks for faces: dlib's HOG detector (no model files) on an upright gray
/// picture of some samples. It finds faces of about 80 pixels and up, so at the default size a
/// face must fill about a third of the picture's height (close-ups and medium shots).
public struct FacePresenceOptions: Sendable, Equatable {
    /// Seconds between the samples searched (every 2 s keeps the pass to about a tenth of the
    /// analysis of a 1080p video).
    public var interval: Double = 2
    /// The longer side, in pixels, of the picture searched.
    public var size = 480
    /// Detections scoring below this are ignored.
    public var minimumScore = 0.25
    /// Pictures searched at least, however short the video: a short clip is searched more
    /// often than every `interval` (a 4 s clip every third of a second, not twice).
    public var minimumSearches = 12

    /// Seconds between searched samples for a video of `duration` seconds.
    public func interval(forDuration duration: Double) -> Double {
        guard duration > 0 else { return interval }
        return min(interval, duration / Double(max(minimumSearches, 1)))
    }

    /// The defaults.
    public init() {}
}

/// Finds a video's key frame, shots and most engaging segments, modeled on MediaIntelligence's
/// `VideoAnalyzer`: CPU only, offline, one FFmpeg decode however many requests are passed.
///
/// Concurrent calls wait in line and run one at a time, in the order they arrived. Cancelling
/// the calling task stops the work promptly with `ReelError.cancelled`.
public final class VideoAnalyzer: Sendable {
    /// How the analyzer samples and scores.
    public struct Options: Sendable {
        /// Frames measured per second in the main pass.
        public var sampleRate: Double = 6
        /// Width and height of the shrunk pictures measured.
        public var analysisWidth = 128
        /// See `analysisWidth`.
        public var analysisHeight = 72
        /// Decoders run side by side, each on its own keyframe-to-keyframe chunk of the video;
        /// `nil` uses one per core. Set it lower to leave cores to other work.
        public var decodeWorkers: Int?
        /// Shots longer than this are split into equal segments, in seconds.
        public var maximumSegmentDuration: Double = 4
        /// Weights of the engagement signals.
        public var weights = EngagementWeights()
        /// How raw engagement becomes levels 0...9 (relative to the video's own spread).
        public var calibration = LevelCalibration()
        /// The engagement signals; add your own `EngagementSignal` and give it a weight.
        public var signals: [any EngagementSignal] = EngagementWeights.standardSignals
        /// Where faces are looked for in the same decode (`FrameFeatures.faces`,
        /// `SegmentFeatures.faceArea`, `VideoAnalysis.faces`); `nil` skips it.
        public var faces: FacePresenceOptions? = FacePresenceOptions()

        /// The defaults.
        public init() {}
    }

    /// The shared analyzer with default options.
    public static let shared = VideoAnalyzer()

    /// The options this analyzer uses.
    public let options: Options
    private let gate = SerialGate()
    private let passes = Atomic<Int>(0)

    /// Creates an analyzer with its own queue.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Full decode passes this analyzer has made (one per `analyze` call that got to decode).
    public var decodePassCount: Int { passes.load(ordering: .relaxed) }

    /// Calls waiting for their turn behind the running one.
    public var waitingCallCount: Int { gate.waitingCount }

    /// Runs every request on one decode of the video; each request succeeds or fails on its own
    /// (an asset that is not a file fails them all). Throws only when the task is cancelled.
    public func analyze<each Request: AnalysisRequest>(
        _ asset: MediaIntelligenceVideoAsset, for requests: repeat each Request,
        progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> (repeat Result<(each Request).Output, ReelError>) {
        let analysis: Result<VideoAnalysis, ReelError>
        do {
            analysis = .success(try await self.analysis(of: asset, progressHandler: progressHandler))
        } catch .cancelled {
            throw .cancelled
        } catch {
            analysis = .failure(error)
        }
        return (repeat Self.answer(each requests, from: analysis))
    }

    /// The whole analysis (shots, segments with features and levels, key frame) in one decode.
    public func analysis(
        of asset: MediaIntelligenceVideoAsset, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> VideoAnalysis {
        try await analysis(of: asset, probed: nil, progressHandler: progressHandler)
    }

    /// The analysis of `asset`, reusing `probed` (the caller's probe of the same file) when
    /// given, so a job that already probed the source does not probe it again.
    package func analysis(
        of asset: MediaIntelligenceVideoAsset, probed: MediaInfo?, progressHandler: (@Sendable (Double) -> Void)? = nil
    ) async throws(ReelError) -> VideoAnalysis {
        let url = asset.kind.url
        // MediaIntelligence's `.url(_:)` takes only a file URL: any other fails before waiting in line.
        guard url.isFileURL else { throw .invalidSourceURL(url) }
        guard await gate.enter() else { throw .cancelled }
        defer { gate.leave() }
        if Task.isCancelled { throw .cancelled }
        try SourceCheck.requireReadableFile(url)
        let options = self.options
        let reporter = ProgressReporter(progressHandler)
        let flag = CancellationFlag()
        passes.add(1, ordering: .relaxed)
        let result = try await BlockingWork.run(flag: flag) { () throws(ReelError) -> VideoAnalysis in
            // Bit rates are not needed here: no pass over the file to measure them.
            let source: MediaInfo
            if let probed {
                source = probed
            } else {
                source = try MediaInfo.probe(url, measuringBitRates: false)
            }
            try source.requireVideo()
            return try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                try AnalysisRun(source: source, options: options, shouldCancel: { flag.isRaised },
                                progress: { reporter.report($0) }).run()
            }
        }
        reporter.finish()
        return result
    }

    private static func answer<Request: AnalysisRequest>(
        _ request: Request, from analysis: Result<VideoAnalysis, ReelError>
    ) -> Result<Request.Output, ReelError> {
        switch analysis {
        case .success(let value):
            do {
                return .success(try request.result(from: value))
            } catch {
                return .failure(error)
            }
        case .failure(let error):
            return .failure(error)
        }
    }
}
