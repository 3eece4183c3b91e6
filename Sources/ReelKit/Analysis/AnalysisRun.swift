import Foundation

/// One analysis from file to `VideoAnalysis`: a single decode pass, then pure computation.
struct AnalysisRun {
    let url: URL
    let options: VideoAnalyzer.Options
    let shouldCancel: @Sendable () -> Bool
    let progress: @Sendable (Double) -> Void

    func run() throws -> VideoAnalysis {
        let audio = AudioFeatureCollector(sampleRate: Double(AnalysisReader.audioSampleRate))
        let readout = try AnalysisReader.read(
            url: url, sampleRate: options.sampleRate, width: options.analysisWidth, height: options.analysisHeight,
            workers: options.decodeWorkers, shouldCancel: shouldCancel, progress: { [progress] in progress($0 * 0.9) },
            makeSink: { SampledFrameCollector() },
            onAudio: { [audio] in audio.append($0) })
        let info = readout.info
        let sampled = SampledFrameCollector.joined(
            readout.sinks, clock: SampleClock(start: info.videoStart, rate: max(options.sampleRate, 0.1)))
        let frames = sampled.features, signatures = sampled.signatures
        let changeTimes = readout.frameTimes, changes = readout.frameChanges
        guard !frames.isEmpty else {
            throw FFmpegFailure("decode", message: "no video frame could be decoded")
        }
        let start = MediaTime(seconds: info.videoStart, timescale: 1_000_000)
        // The container's end, unless frames run past it (or it is unknown): then one nominal
        // frame after the last decoded one.
        let lastFrame = changeTimes.last ?? frames[frames.count - 1].time
        let containerEnd = MediaTime(seconds: info.videoStart + info.duration, timescale: 1_000_000)
        let end = info.duration > 0 && containerEnd > lastFrame
            ? containerEnd : lastFrame + MediaTime(seconds: 1 / info.frameRate, timescale: lastFrame.timescale)

        let detector = ShotDetector()
        let gaps = changeTimes.indices.map { index in
            index == 0 ? 1 : (changeTimes[index] - changeTimes[index - 1]).seconds * info.frameRate
        }
        let cutIndices = detector.cuts(changes, gaps: gaps)
        let frameDuration = MediaTime(seconds: 1.5 / info.frameRate, timescale: 1_000_000)
        var boundaries: [ShotBoundary] = []
        var refined = 0
        for (position, index) in cutIndices.enumerated() {
            if shouldCancel() { throw TranscodeCancelled() }
            var time = changeTimes[index]
            // Frames were skipped between these two decoded frames: decode them to find the first
            // frame of the new shot.
            if changeTimes[index] - changeTimes[index - 1] > frameDuration {
                time = try refineCut(between: changeTimes[index - 1], and: changeTimes[index])
                refined += 1
            }
            boundaries.append(ShotBoundary(time: time, kind: .cut, transition: nil))
            progress(0.9 + 0.1 * Double(position + 1) / Double(cutIndices.count))
        }
        let cutSamples = Set(boundaries.compactMap { boundary in
            frames.firstIndex { $0.time >= boundary.time }
        })
        let span = max(1, Int((options.sampleRate * 0.4).rounded()))
        boundaries += detector.gradualBoundaries(frames, signatures: signatures, cuts: cutSamples, span: span)
        boundaries = Self.cleaned(boundaries, start: start, end: end, minimumGap: MediaTime(value: 1, timescale: 5))

        let shots = Self.ranges(between: boundaries.map(\.time), start: start, end: end)
        let segmenter = Segmenter(maximumDuration: options.maximumSegmentDuration)
        let scorer = EngagementScorer(signals: options.signals, weights: options.weights, hasAudio: info.hasAudio)
        let cutTimes = boundaries.map(\.time.seconds)
        let segments = segmenter.split(shots).map { range in
            let features = SegmentAggregator.features(
                of: range, frames: frames, audio: audio.windows, hasAudio: info.hasAudio, cutTimes: cutTimes)
            return EngagementSegment(timeRange: range, level: Float(scorer.level(features)), features: features)
        }
        let keyFrame = KeyFrameSelector.select(frames: frames, signatures: signatures, boundaries: boundaries)
        return VideoAnalysis(
            duration: info.duration > 0 ? info.duration : (end - start).seconds, boundaries: boundaries, shots: shots, segments: segments,
            keyFrame: keyFrame, decodePasses: 1, refinedCuts: refined, sampledFrames: frames.count)
    }

    /// Decodes the frames between two decoded frames at full rate and returns the time of the
    /// frame that differs most from the one before it: the first frame of the new shot.
    private func refineCut(between earlier: MediaTime, and later: MediaTime) throws -> MediaTime {
        let changes = try AnalysisReader.frameChanges(url: url, from: earlier.seconds - 1e-6, to: later.seconds + 1e-6)
        return changes.dropFirst().max { $0.change < $1.change }?.time ?? later
    }

    /// Sorted boundaries inside the video, at least `minimumGap` apart (cuts win over gradual).
    static func cleaned(_ boundaries: [ShotBoundary], start: MediaTime, end: MediaTime, minimumGap: MediaTime) -> [ShotBoundary] {
        let sorted = boundaries.filter { $0.time > start && $0.time < end }.sorted { $0.time < $1.time }
        var result: [ShotBoundary] = []
        for boundary in sorted {
            if let last = result.last, boundary.time - last.time < minimumGap {
                if last.kind == .gradual && boundary.kind == .cut { result[result.count - 1] = boundary }
                continue
            }
            result.append(boundary)
        }
        return result
    }

    /// Contiguous ranges from `start` to `end` split at `times`.
    static func ranges(between times: [MediaTime], start: MediaTime, end: MediaTime) -> [TimeRange] {
        var ranges: [TimeRange] = []
        var current = start
        for time in times where time > current && time < end {
            ranges.append(TimeRange(start: current, end: time))
            current = time
        }
        ranges.append(TimeRange(start: current, end: end))
        return ranges
    }
}
