import Foundation
import ReelSupport
import Synchronization

/// The loudest sample of each short window of a source's sound: what pauses are found from.
package struct SoundPeaks: Sendable, Equatable {
    /// Where the first window starts, in seconds on the API's timeline (zero is the file's start).
    package var start: Double
    /// Each window's length in seconds.
    package var window: Double
    /// The largest absolute sample (0...1) of the mono mix in each window, in time order.
    package var peaks: [Float]

    /// Creates the value from every field.
    package init(start: Double, window: Double, peaks: [Float]) {
        self.start = start
        self.window = window
        self.peaks = peaks
    }

    /// Where window `index` starts, in seconds.
    package func time(ofWindow index: Int) -> Double { start + Double(index) * window }
}

/// How much the picture changes from one sample to the next, on a small copy of it.
package struct PictureChanges: Sendable, Equatable {
    /// Each sample's time, in seconds on the API's timeline, in order.
    package var times: [Double]
    /// The share of the small picture's pixels whose brightness changed visibly since the
    /// sample before (1 for the first sample).
    package var changes: [Double]

    /// Creates the value from every field.
    package init(times: [Double], changes: [Double]) {
        self.times = times
        self.changes = changes
    }
}

/// Turns mono samples into `SoundPeaks` windows as they are decoded.
package struct PeakCollector: Sendable {
    /// Samples per window.
    private let size: Int
    private var current: Float = 0
    private var filled = 0
    /// The peaks of the windows completed so far.
    package private(set) var peaks: [Float] = []

    /// A collector of windows of `window` seconds of `sampleRate` samples a second.
    package init(sampleRate: Int, window: Double) {
        size = max(Int((Double(sampleRate) * window).rounded()), 1)
    }

    /// Adds the next samples.
    package mutating func append(_ samples: [Float]) {
        for sample in samples {
            current = max(current, abs(sample))
            filled += 1
            if filled == size {
                peaks.append(current)
                current = 0
                filled = 0
            }
        }
    }

    /// The peaks, the last partial window included.
    package func finished() -> [Float] {
        filled > 0 ? peaks + [current] : peaks
    }
}

/// The cheap decode behind cutting dead air: the sound alone, as peaks of short windows, or the
/// sound and small sampled pictures in the analyzer's one chunked pass (`AnalysisReader`), when
/// a pause is cut only where the picture also stands still.
package enum PauseReader {
    /// Peaks of the primary audio stream, decoded on its own demuxer (no picture is decoded);
    /// `nil` when the source has no sound. `progress` hears the share decoded.
    package static func soundPeaks(
        of source: MediaInfo, window: Double, shouldCancel: () -> Bool, progress: (Double) -> Void
    ) throws(MediaFailure) -> SoundPeaks? {
        guard let audioIndex = source.primaryAudioStreamIndex else { return nil }
        let layout: ProbedLayout
        if let probed = source.layout {
            layout = probed
        } else {
            layout = try InputFile.reopen(source, keeping: [audioIndex], complete: false).layout
        }
        guard let stream = layout.stream(audioIndex) else { return nil }
        let rate = Int(AnalysisReader.audioSampleRate)
        var collector = PeakCollector(sampleRate: rate, window: window)
        let expected = max(source.duration * Double(rate), 1)
        var decoded = 0
        let first = try MonoAudioDecoder.decodeAll(stream, shouldStop: shouldCancel) { samples in
            collector.append(samples)
            decoded += samples.count
            progress(min(Double(decoded) / expected, 1))
        }
        return SoundPeaks(
            start: (first?.seconds ?? stream.startSeconds) - source.startTime, window: window, peaks: collector.finished())
    }

    /// Peaks of the primary audio stream (`nil` without sound) and the changes of the picture
    /// sampled `pictureRate` times a second at `width` x `height`, in one decode.
    package static func soundAndPicture(
        of source: MediaInfo, window: Double, pictureRate: Double, width: Int, height: Int,
        shouldCancel: @escaping @Sendable () -> Bool, progress: @escaping @Sendable (Double) -> Void
    ) throws(MediaFailure) -> (sound: SoundPeaks?, picture: PictureChanges) {
        let collector = Mutex(PeakCollector(sampleRate: Int(AnalysisReader.audioSampleRate), window: window))
        let first = Mutex<MediaTime?>(nil)
        let readout = try AnalysisReader.read(
            source: source, sampleRate: pictureRate, width: width, height: height, faces: nil,
            shouldCancel: shouldCancel, progress: progress, makeSink: { StillnessSink() },
            onAudio: { samples in collector.withLock { $0.append(samples) } },
            onAudioStart: { time in first.withLock { $0 = time } })
        let origin = source.startTime
        let picture = StillnessSink.joined(readout.sinks, origin: origin)
        guard readout.info.hasAudio else { return (nil, picture) }
        let start = (first.withLock { $0 }?.seconds ?? 0) - origin
        return (SoundPeaks(start: start, window: window, peaks: collector.withLock { $0.finished() }), picture)
    }
}

/// The sampled pictures of one chunk of the analysis decode, kept as change scores: the share
/// of pixels whose brightness moved by more than `visibleStep` levels since the most alike of
/// the samples of the last `recall` seconds. Against the sample before alone, a text caret
/// blinking in a still editor (3 pixels of the small picture every 0.6 s in Chromium) counted
/// as the picture changing, and a real screen recording had no still pause to cut; a picture
/// that was already on screen a moment ago is no change.
final class StillnessSink: AnalysisPictureSink {
    /// A brightness change a viewer sees (of 255 levels): a typed character of a 1080p screen
    /// changes its pixel of the small picture by about 60; a keyframe re-coding a still screen
    /// by at most about 12.
    static let visibleStep = 20
    /// Seconds back a sample looks for a picture like itself: longer than a caret's blink (1.06
    /// to 1.2 s for the whole cycle in common editors) and a spinner's turn.
    static let recall = 2.0

    /// A sampled picture, its time in seconds.
    struct Sample {
        var time: Double
        var luma: [UInt8]
    }

    private struct State {
        var times: [MediaTime] = []
        var changes: [Double] = []
        /// The chunk's samples within `recall` of its first, to measure again against the
        /// chunk before once that is known.
        var leading: [Sample] = []
        /// The chunk's samples within `recall` of its last.
        var recent: [Sample] = []
    }

    private let state = Mutex(State())

    func consume(_ picture: SmallPicture) {
        state.withLock { state in
            let sample = Sample(time: picture.time.seconds, luma: picture.luma)
            state.times.append(picture.time)
            state.changes.append(Self.change(to: sample, recalling: state.recent))
            if sample.time - (state.leading.first?.time ?? sample.time) <= Self.recall { state.leading.append(sample) }
            state.recent.append(sample)
            state.recent.removeAll { sample.time - $0.time > Self.recall }
        }
    }

    func reset() {
        state.withLock { $0 = State() }
    }

    /// The share of `sample`'s pixels that changed visibly since the most alike of the
    /// `earlier` samples within `recall` before it (1 when there is none).
    static func change(to sample: Sample, recalling earlier: [Sample]) -> Double {
        var fewest: Int?
        // Newest first: a still picture matches the sample before it and ends the search there.
        for candidate in earlier.reversed() where sample.time - candidate.time <= recall {
            guard let changed = changedPixels(from: candidate.luma, to: sample.luma, above: fewest) else { continue }
            fewest = changed
            if changed == 0 { break }
        }
        return fewest.map { Double($0) / Double(max(sample.luma.count, 1)) } ?? 1
    }

    /// How many pixels changed visibly between two pictures of the same size; `nil` when the
    /// sizes differ or the count reaches `limit` (a better match is already known).
    private static func changedPixels(from previous: [UInt8], to next: [UInt8], above limit: Int?) -> Int? {
        guard previous.count == next.count, !next.isEmpty else { return nil }
        var changed = 0
        for index in next.indices where abs(Int(next[index]) - Int(previous[index])) > visibleStep {
            changed += 1
            if let limit, changed >= limit { return nil }
        }
        return changed
    }

    /// The chunks' scores in time order, each chunk's first samples measured again with the
    /// last ones of the chunk before recalled; times moved to the API's timeline (`origin` is
    /// the file's start).
    static func joined(_ sinks: [StillnessSink], origin: Double) -> PictureChanges {
        var result = PictureChanges(times: [], changes: [])
        var previous: [Sample] = []
        for sink in sinks {
            let chunk = sink.state.withLock { $0 }
            guard !chunk.times.isEmpty else { continue }
            var changes = chunk.changes
            if !previous.isEmpty {
                for index in chunk.leading.indices {
                    changes[index] = change(to: chunk.leading[index], recalling: previous + chunk.leading[..<index])
                }
            }
            result.times += chunk.times.map { $0.seconds - origin }
            result.changes += changes
            // A chunk shorter than `recall` leaves the one before it within reach.
            previous = (previous + chunk.recent).filter { (chunk.recent.last?.time ?? 0) - $0.time <= recall }
        }
        return result
    }
}
