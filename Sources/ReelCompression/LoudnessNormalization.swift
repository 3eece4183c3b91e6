import Foundation
import ReelMedia
import ReelSupport

/// Two-pass linear loudness normalisation (`CompressionConfig.loudness`), worked out before the
/// encode from audio-only passes over the kept ranges (Media's `LoudnessMeter`, libavfilter's
/// `ebur128`).
///
/// The first pass measures the kept sound as the encode joins it; the gain is the target less
/// its integrated loudness. A gain that leaves the true peak at least `headroom` under the
/// ceiling is exact and needs nothing more. Otherwise a true-peak limiter holds the peaks a dB
/// under the ceiling, and the finished sound is heard as a player will hear it (through the
/// track's encoder and back, which adds peaks of its own): a peak still over the ceiling lowers
/// the limiter by as much, a loudness off target (the limiter takes some away) moves the gain,
/// and it is heard again, at most `checks` times; what comes closest with its peaks under the
/// ceiling is kept.
enum LoudnessNormalization {
    /// What the passes decided.
    struct Outcome: Sendable {
        /// The change for each kept audio track, by source stream index.
        var adjustments: [Int: LoudnessAdjustment]
        /// The main track's report (its output not measured yet).
        var report: LoudnessReport
    }

    /// dB a plain gain must leave under the ceiling to need no limiter and no hearing (AAC
    /// adds up to about that much to the peaks of dense sound).
    static let headroom = 1.5
    /// The most the sound is raised, in dB (a near-silent track is not turned into noise).
    static let maximumGain = 30.0
    /// How close to the target a heard loudness must be, in LU.
    static let tolerance = 0.5
    /// How many times the finished sound is heard at most.
    static let checks = 5
    /// dB under the ceiling the peaks are aimed at: the peaks AAC adds to limited sound vary by
    /// about a dB between nearly equal inputs (1.2-1.8 dB on the 10-minute film's reel).
    static let margin = 0.5

    /// The adjustments that bring the sound `planner` keeps of `ranges` to `target`; `nil` when
    /// no audio is kept. `progress` runs from 0 to 1 over the passes.
    static func decide(
        planner: CompressionPlanner, ranges: [ClosedSourceRange], target: LoudnessTarget, shouldCancel: () -> Bool,
        progress: @escaping (Double) -> Void
    ) throws(ReelError) -> Outcome? {
        let started = Date()
        let url = planner.source.url
        let plan = try planner.decide(outputPath: url.path, ranges: ranges, content: nil).plan
        guard !plan.audioTracks.isEmpty else { return nil }
        let measured = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
            try LoudnessMeter.measure(plan: plan, shouldCancel: shouldCancel, progress: { progress($0 * 0.5) })
        }
        var adjustments = measured.map { initialAdjustment(for: $0, target: target) }
        var unsure = adjustments.map { $0?.peakCeiling != nil }
        // The closest to the target each track came with its peaks under the ceiling, as heard.
        var best: [(adjustment: LoudnessAdjustment, miss: Double)?] = Array(repeating: nil, count: adjustments.count)
        var check = 0
        while unsure.contains(true), check < checks {
            let from = 0.5 + 0.5 * Double(check) / Double(checks), to = 0.5 + 0.5 * Double(check + 1) / Double(checks)
            let current = adjustments
            let heard = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                try LoudnessMeter.measure(plan: plan, adjustments: current, shouldCancel: shouldCancel,
                                          progress: { progress(from + (to - from) * $0) })
            }
            for (track, sound) in heard.enumerated() where unsure[track] {
                guard let adjustment = adjustments[track] else { continue }
                let miss = abs(sound.integrated - target.integrated)
                if sound.truePeak <= target.truePeak {
                    if miss <= tolerance {
                        unsure[track] = false
                        continue
                    }
                    if miss < best[track]?.miss ?? .infinity { best[track] = (adjustment, miss) }
                }
                adjustments[track] = nextAdjustment(after: adjustment, heard: sound, source: measured[track], target: target)
            }
            check += 1
        }
        // A track still unsure keeps the closest it came with its peaks under the ceiling.
        for track in adjustments.indices where unsure[track] {
            if let closest = best[track] { adjustments[track] = closest.adjustment }
        }
        progress(1)
        let main = measured[0]
        let report = LoudnessReport(
            target: target, source: MeasuredLoudness(integrated: main.integrated, truePeak: main.truePeak), output: nil,
            gain: adjustments[0]?.gain ?? 0, limited: adjustments[0]?.peakCeiling != nil,
            measuringTime: Date().timeIntervalSince(started))
        var byStream: [Int: LoudnessAdjustment] = [:]
        for (track, adjustment) in zip(plan.audioTracks, adjustments) { byStream[track.streamIndex] = adjustment }
        return Outcome(adjustments: byStream, report: report)
    }

    /// The gain that brings `measured` to `target`, with a limiter a dB under the ceiling when
    /// the peaks would come within `headroom` of it; `nil` for silence.
    static func initialAdjustment(for measured: LoudnessMeasurement, target: LoudnessTarget) -> LoudnessAdjustment? {
        guard measured.integrated > -69 else { return nil }
        let gain = min(target.integrated - measured.integrated, maximumGain)
        guard measured.truePeak + gain > target.truePeak - headroom else { return LoudnessAdjustment(gain: gain) }
        return LoudnessAdjustment(gain: gain, peakCeiling: target.truePeak - 1)
    }

    /// The adjustment to hear next after `adjustment` was heard as `heard`: the limiter moved so
    /// that the peaks the encoder added land `margin` under the ceiling, and the gain moved by the
    /// loudness missed, scaled up by how much of the gain the limiter has been taking away (the
    /// loudness `source` rose by less than the gain).
    static func nextAdjustment(
        after adjustment: LoudnessAdjustment, heard: LoudnessMeasurement, source: LoudnessMeasurement, target: LoudnessTarget
    ) -> LoudnessAdjustment {
        var next = adjustment
        let ceiling = adjustment.peakCeiling ?? target.truePeak - 1
        let overshoot = max(heard.truePeak - ceiling, 0)
        next.peakCeiling = min(target.truePeak - overshoot - margin, ceiling + 1)
        let rise = heard.integrated - source.integrated
        let effect = adjustment.gain > 1 ? min(max(rise / adjustment.gain, 0.3), 1) : 1
        next.gain = min(adjustment.gain + (target.integrated - heard.integrated) / effect, maximumGain)
        return next
    }

    /// Whether `heard` is what `target` asks for: peaks at most the ceiling (to the 0.01 dB
    /// `ebur128` reports), loudness within 1 LU.
    static func meets(_ heard: MeasuredLoudness, _ target: LoudnessTarget) -> Bool {
        heard.truePeak <= target.truePeak + 0.01 && abs(heard.integrated - target.integrated) <= 1
    }

    /// Puts the sound `planner` makes of `ranges` (its loudness adjustments applied) in place of
    /// `output`'s, encoded exactly as the checks heard it: an audio-only pass into a file beside
    /// it, then the output's pictures and that sound joined by stream copy and renamed over it.
    ///
    /// The encode's own sound is the checked sound only in distribution: decoded after another
    /// seek, a source whose AAC fills bands with noise (FFmpeg's encoder does) decodes to other
    /// noise, the encoder's bit reservoir drifts from there, and its added peaks land elsewhere.
    static func replaceSound(
        of output: URL, planner: CompressionPlanner, ranges: [ClosedSourceRange], shouldCancel: @escaping () -> Bool
    ) throws(ReelError) {
        let source = planner.source.url
        let sound = try OutputLocation.resolve(for: source, finalURL: output)
        let joined = try OutputLocation.resolve(for: source, finalURL: output)
        defer { sound.discard() }
        do throws(ReelError) {
            let audioPlan = try planner.decide(outputPath: sound.temporaryURL.path, ranges: ranges, content: nil).plan
            try translatingFailures(source: source, output: output) { () throws(MediaFailure) in
                _ = try AudioTranscoder(plan: audioPlan, shouldCancel: shouldCancel, progress: { _ in }).run()
                _ = try ChunkJoiner(chunks: [output], offsets: [.zero], audio: sound.temporaryURL,
                                    outputPath: joined.temporaryURL.path, formatName: planner.config.fileType.muxerName,
                                    shouldCancel: shouldCancel, progress: { _ in }).run()
            }
            try joined.commit()
        } catch {
            joined.discard()
            throw error
        }
    }

    /// The loudness of the finished file's main audio track, as a player decodes it.
    static func measureOutput(_ url: URL, flag: CancellationFlag) -> MeasuredLoudness? {
        guard let sound = try? LoudnessMeter.measure(file: url, shouldCancel: { flag.isRaised }) else { return nil }
        return MeasuredLoudness(integrated: sound.integrated, truePeak: sound.truePeak)
    }
}
