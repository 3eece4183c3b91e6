import Foundation
import ReelMedia
import ReelSupport
import Synchronization

/// One analysis from file to `VideoAnalysis`: a single decode pass, then pure computation.
struct AnalysisRun {
    /// The source, as probed.
    let source: MediaInfo
    let options: VideoAnalyzer.Options
    let shouldCancel: @Sendable () -> Bool
    let progress: @Sendable (Double) -> Void

    func run() throws(MediaFailure) -> VideoAnalysis {
        let audio = AudioFeatureCollector(sampleRate: Double(AnalysisReader.audioSampleRate))
        let audioStart = Mutex<MediaTime?>(nil)
        let finders = FaceFinderPool()
        let readout = try AnalysisReader.read(
            source: source, sampleRate: options.sampleRate, width: options.analysisWidth, height: options.analysisHeight,
            faces: options.faces.map { faces in
                FacePictureSampling(size: faces.size, everySlots: max(Int((faces.interval(forDuration: source.duration) * options.sampleRate).rounded()), 1),
                                    rotation: source.primaryVideo?.video?.rotation ?? 0)
            },
            workers: options.decodeWorkers, shouldCancel: shouldCancel, progress: { [progress] in progress($0 * 0.9) },
            makeSink: { [options] in SampledFrameCollector(minimumFaceScore: options.faces?.minimumScore ?? 0.25, finders: finders) },
            onAudio: { [audio] in audio.append($0) }, onAudioStart: { time in audioStart.withLock { $0 = time } })
        let info = readout.info
        // The sound's windows count from its first sample; on the file's clock, as the pictures
        // are, they start where that sample does (an MPEG-TS starts both 1.4 s or hours in).
        let soundOrigin = audioStart.withLock { $0 }?.seconds
            ?? source.primaryAudioStreamIndex.flatMap { source.layout?.stream($0)?.startSeconds } ?? 0
        let sound = audio.windows.map { window in
            var placed = window
            placed.start += soundOrigin
            return placed
        }
        let sampled = SampledFrameCollector.joined(
            readout.sinks, clock: SampleClock(start: info.videoStart, rate: max(options.sampleRate, 0.1)))
        let frames = sampled.features, signatures = sampled.signatures
        let changeTimes = readout.frameTimes, changes = readout.frameChanges
        guard !frames.isEmpty else {
            throw .failed(.decode, operation: "decode", message: "no video frame could be decoded", code: nil)
        }
        let start = MediaTime(seconds: info.videoStart, timescale: 1_000_000)
        // The container's end, unless frames run past it (or it is unknown): then one nominal
        // frame after the last decoded one.
        let lastFrame = changeTimes.last ?? frames[frames.count - 1].time
        let containerEnd = MediaTime(seconds: info.videoStart + info.duration, timescale: 1_000_000)
        let afterLastFrame = lastFrame + MediaTime(seconds: 1 / info.frameRate, timescale: lastFrame.timescale)
        var end = info.duration > 0 && containerEnd > lastFrame ? containerEnd : afterLastFrame
        // A file cut short (an interrupted download or copy) keeps a header that promises all of
        // it: where the picture's and the sound's data both stop well before that, so does the
        // analysis (else highlights are picked where nothing can be decoded).
        let soundEnd = sound.last.map { $0.start + AudioMeasurer.defaultWindowSeconds } ?? 0
        let dataEnd = max(readout.videoDataEnd, soundEnd)
        let cutShort = info.duration > 0 && readout.videoDataEnd > 0
            && DataEnd.fallsShort(dataEnd, of: info.videoStart + info.duration, lasting: info.duration)
        if cutShort {
            end = max(MediaTime(seconds: dataEnd, timescale: 1_000_000), afterLastFrame)
        }

        let detector = ShotDetector()
        let gaps = changeTimes.indices.map { index in
            index == 0 ? 1 : (changeTimes[index] - changeTimes[index - 1]).seconds * info.frameRate
        }
        let candidates = detector.candidates(changes, gaps: gaps)
        if shouldCancel() { throw .cancelled }
        var boundaries = candidates.filter(\.confirmed).map { ShotBoundary(time: changeTimes[$0.index], kind: .cut, transition: nil) }
        let unsettled = candidates.filter { !$0.confirmed }
        let refiner = CutRefiner(
            stream: readout.videoStream, detector: detector, skippingBetween: readout.skipsBFramesExactly ? .bidirectional : .nonReference,
            shouldCancel: shouldCancel)
        let settled = try refiner.settle(unsettled.map { CutRefiner.window(around: $0.index, in: changeTimes) }) { [progress] done in
            progress(0.9 + 0.1 * Double(done) / Double(unsettled.count))
        }
        boundaries += settled.compactMap { $0.map { ShotBoundary(time: $0, kind: .cut, transition: nil) } }
        boundaries.sort { $0.time < $1.time }
        let refined = unsettled.count
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
        let typicalLoudness = SegmentAggregator.typicalLoudness(sound)
        let ranges = segmenter.split(shots)
        let features = ranges.map { range in
            SegmentAggregator.features(
                of: range, frames: frames, audio: sound, hasAudio: info.hasAudio, cutTimes: cutTimes,
                typicalLoudness: typicalLoudness)
        }
        // Smoothing lends a segment its neighbours' engagement, but a black or blank picture
        // engages no one whatever surrounds it (Megamind's two black frames were "level 7").
        let raw = zip(options.calibration.smoothed(features.map(scorer.raw), ranges: ranges), features).map { smoothed, measured in
            measured.blankFraction >= 0.99 ? 0 : smoothed
        }
        let levels = options.calibration.levels(raw, durations: ranges.map(\.duration.seconds))
        let scoredSegments = ranges.indices.map { index in
            var segment = EngagementSegment(timeRange: ranges[index], level: Float(levels[index]), features: features[index])
            segment.rawEngagement = raw[index]
            segment.signature = SegmentSignature.mean(of: ranges[index], frames: frames, signatures: signatures)
            return segment
        }
        // Scored once: the best sample is the key frame, each segment's best its poster picture
        // (for contact sheets of highlights).
        let posterScores = KeyFrameSelector.scores(frames: frames, signatures: signatures, boundaries: boundaries, segments: scoredSegments)
        // Captions are too small to see in the analysis pictures: the best candidates are
        // decoded again, larger, and looked at. One session serves the looks, so the eyes'
        // look at the poster the caption look chose decodes nothing more.
        var session: PictureSession?
        func look(at time: MediaTime, maximumSide: Int) -> RGBPicture? {
            guard !shouldCancel() else { return nil }
            if session == nil { session = try? PictureSession(source: source) }
            return try? session?.picture(at: time.seconds - source.startTime, maximumSide: maximumSide)
        }
        let chosen = KeyFrameSelector.best(of: posterScores, in: frames) { time in
            look(at: time, maximumSide: 640).map(CaptionFinder.hasCaption) ?? false
        }
        // A blink caught on the poster moves it to the nearest candidate with open eyes.
        let keyFrame = chosen.map { chosen in
            guard let faces = options.faces else { return chosen }
            return PosterEyes.opened(chosen, candidates: posterScores.map { frames[$0.index].time }, boundaries: boundaries.map(\.time)) { time in
                PosterEyes.openness(of: look(at: time, maximumSide: PosterEyes.pictureSize), finders: finders, minimumScore: faces.minimumScore)
            }
        }
        var segments = scoredSegments
        var segmentIndex = 0
        for (index, score) in posterScores {
            let time = frames[index].time
            while segmentIndex < segments.count - 1 && segments[segmentIndex].timeRange.end <= time { segmentIndex += 1 }
            if score > segments[segmentIndex].posterScore {
                segments[segmentIndex].posterScore = score
                segments[segmentIndex].posterTime = time
            }
        }
        let analysis = VideoAnalysis(
            duration: info.duration > 0 && !cutShort ? info.duration : (end - start).seconds, boundaries: boundaries, shots: shots, segments: segments,
            keyFrame: keyFrame, decodePasses: 1, refinedCuts: refined, sampledFrames: frames.count,
            faces: frames.compactMap { frame in frame.faces.map { FaceSample(time: frame.time, presence: $0) } },
            samples: zip(frames, signatures).map { SampleSignature(time: $0.time, signature: $1) },
            sound: info.hasAudio ? SoundEnvelope(windows: sound, typical: typicalLoudness) : nil)
        // Decoding works on the file's clock; results are on the API's timeline, whose zero is the
        // file's start (its first presented frame), as compression ranges and thumbnails are.
        var described = analysis
        described.sourceFileSize = source.fileSize
        return described.shifted(by: MediaTime(value: 0, timescale: 1) - MediaTime(seconds: source.startTime, timescale: 1_000_000))
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
