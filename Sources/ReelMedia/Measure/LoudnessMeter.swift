internal import CFFmpeg
import Foundation
import ReelSupport

/// A sound's loudness as EBU R128 (ITU-R BS.1770) measures it.
package struct LoudnessMeasurement: Sendable, Equatable {
    /// Integrated loudness in LUFS (-70, the absolute gate, for silence).
    package var integrated: Double
    /// True peak in dBTP: the highest level, between samples too (four times oversampled).
    package var truePeak: Double

    /// Creates the value from every field.
    package init(integrated: Double, truePeak: Double) {
        self.integrated = integrated
        self.truePeak = truePeak
    }
}

/// Measures loudness with libavfilter's `ebur128`: of a plan's sound as its encode joins it
/// (an audio-only pass that decodes only the kept ranges), or of a file's first audio track.
package enum LoudnessMeter {
    /// The loudness of each of `plan`'s audio tracks, in the plan's order. With `adjustments`
    /// (one per track), the sound is finished as the encode finishes it (the gain and limiter,
    /// the fades at the output's edges) and goes through the track's encoder and back, so the
    /// measurement is of what a player will decode; without, it is the ranges' sound as joined.
    package static func measure(
        plan: TranscodePlan, adjustments: [LoudnessAdjustment?]? = nil, shouldCancel: () -> Bool,
        progress: (Double) -> Void
    ) throws(MediaFailure) -> [LoudnessMeasurement] {
        guard !plan.audioTracks.isEmpty else { return [] }
        let input = try InputFile.reopen(plan.source, keeping: Set(plan.audioTracks.map(\.streamIndex)))
        let probes = try plan.audioTracks.map { track throws(MediaFailure) in
            try LoudnessProbe(settings: track.settings, throughEncoder: adjustments != nil)
        }
        let videoEnd = plan.videoEnd
        let stages = try plan.audioTracks.enumerated().map { position, track throws(MediaFailure) in
            var finishing = AudioFinishing()
            if let adjustments {
                finishing = plan.audioFinishing(for: track, videoEnd: videoEnd)
                finishing.loudness = position < adjustments.count ? adjustments[position] : nil
            }
            return (track.streamIndex, try AudioStage(input: input, streamIndex: track.streamIndex, settings: track.settings,
                                                      finishing: finishing, output: probes[position]))
        }
        try AudioPass(plan: plan, input: input, stages: stages).run(shouldCancel: shouldCancel, progress: progress)
        return probes.map(\.measurement)
    }

    /// The loudness of `url`'s first audio track as a player decodes it; `nil` when it has none.
    package static func measure(file url: URL, shouldCancel: () -> Bool) throws(MediaFailure) -> LoudnessMeasurement? {
        let input = try InputFile(url: url)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO) else { return nil }
        input.discardStreams(except: [index])
        let decoder = try Decoder(input: input, streamIndex: index, threads: 1)
        let probe = try LoudnessProbe(settings: nil, throughEncoder: false)
        try decoder.forEachFrame(in: input, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            try probe.take(frame)
            return true
        }
        try probe.take(nil)
        return probe.measurement
    }
}

/// Where a measuring pass's finished sound goes: `ebur128`, after the track's encoder and a
/// decoder when asked, reading the loudness the filter writes into the frames' metadata.
final class LoudnessProbe: AudioStageOutput {
    private let encoder: Encoder?
    private let decoder: Decoder?
    private var graph: FilterGraph?
    private let packet: Packet
    private let decoded: Frame
    private let measured: Frame
    private var integrated = -70.0
    private var peak = 0.0
    /// Decoded samples still to drop: the encoder's priming, which players skip (the true peak
    /// is found between samples, so where the sound starts moves it).
    private var priming: Int32 = 0

    /// A probe for sound encoded with `settings`; `throughEncoder` measures it encoded and decoded again.
    init(settings: AudioEncoderSettings?, throughEncoder: Bool) throws(MediaFailure) {
        if throughEncoder, let settings {
            let encoder = try Encoder(audioEncoder: settings.encoderName, sampleRate: Int32(settings.sampleRate),
                                      channels: Int32(settings.channels), bitRate: settings.bitRate, globalHeader: true)
            self.encoder = encoder
            decoder = try Decoder(decoding: encoder)
            priming = encoder.pointer.pointee.initial_padding
        } else {
            encoder = nil
            decoder = nil
        }
        packet = try Packet()
        decoded = try Frame()
        measured = try Frame()
    }

    /// What was measured.
    var measurement: LoudnessMeasurement {
        LoudnessMeasurement(integrated: integrated, truePeak: peak > 0 ? 20 * log10(peak) : -120)
    }

    var sampleFormat: AVSampleFormat { encoder?.sampleFormat ?? AV_SAMPLE_FMT_FLTP }
    var frameSize: Int32 { encoder?.frameSize ?? 0 }
    var isReady: Bool { true }

    func take(_ frame: Frame?) throws(MediaFailure) {
        if let encoder, let decoder {
            try encoder.encode(frame, into: packet) { packet throws(MediaFailure) in
                try decoder.decode(packet, into: decoded) { sound throws(MediaFailure) in
                    try measure(sound)
                    return true
                }
            }
            if frame == nil {
                try decoder.decode(nil, into: decoded) { sound throws(MediaFailure) in
                    try measure(sound)
                    return true
                }
            }
        } else if let frame {
            try measure(frame)
        }
        if frame == nil, let graph {
            try graph.push(nil)
            try read(graph)
        }
    }

    private func measure(_ decoded: Frame) throws(MediaFailure) {
        var frame = decoded
        if priming > 0 {
            let dropped = min(priming, frame.sampleCount)
            priming -= dropped
            guard dropped < frame.sampleCount else { return }
            frame = try frame.withoutLeadingSamples(dropped, stage: .decode)
        }
        guard frame.sampleCount > 0, frame.sampleRate > 0 else { return }
        let graph = try self.graph.orMake { () throws(MediaFailure) in
            try FilterGraph(isVideo: false, sourceArguments: FilterGraph.audioSourceArguments(for: frame, timeBase: av_make_q(1, frame.sampleRate)),
                            description: "ebur128=metadata=1:peak=true", threads: 1)
        }
        try graph.push(frame)
        try read(graph)
    }

    /// Reads the running measurement off the filtered frames (set on those that complete a
    /// 100 ms block); the last one read covers the whole sound.
    private func read(_ graph: FilterGraph) throws(MediaFailure) {
        while try graph.pull(into: measured) == .produced {
            defer { measured.unreference() }
            if let value = metadata("lavfi.r128.I") { integrated = value }
            // Linear in FFmpeg 5.1, unlike the summary it logs.
            if let value = metadata("lavfi.r128.true_peak") { peak = value }
        }
    }

    private func metadata(_ key: String) -> Double? {
        guard let entry = av_dict_get(measured.pointer.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        return Double(String(cString: value))
    }
}
