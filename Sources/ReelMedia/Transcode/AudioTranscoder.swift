internal import CFFmpeg
import Foundation
import ReelSupport

/// Encodes only the sound and the text subtitles of a `TranscodePlan`'s ranges, on the
/// timeline the full transcode would give them: the audio job of a chunked encode, whose
/// pictures are encoded elsewhere.
package struct AudioTranscoder {
    let plan: TranscodePlan
    let shouldCancel: () -> Bool
    let progress: (Double) -> Void

    /// Creates the value from every field.
    package init(plan: TranscodePlan, shouldCancel: @escaping () -> Bool, progress: @escaping (Double) -> Void) {
        self.plan = plan
        self.shouldCancel = shouldCancel
        self.progress = progress
    }

    /// Runs the encode; returns the number of audio frames written.
    package func run() throws(MediaFailure) -> Int {
        let indices = plan.audioTracks.map(\.streamIndex)
        let subtitles = try plan.subtitleStreamIndices.map { index throws(MediaFailure) in
            try SubtitleTrack(source: plan.source, streamIndex: index, formatName: plan.formatName)
        }
        guard !indices.isEmpty || !subtitles.isEmpty else {
            throw .failed(.encode, "audio", "the plan keeps no audio or subtitle track")
        }
        let input = try InputFile.reopen(plan.source, keeping: Set(indices))
        let sink = try MuxingSink(plan: plan, metadataSource: plan.keepsMetadata ? input : nil, subtitles: subtitles)
        let encoded = try plan.audioTracks.indices.map { track throws(MediaFailure) in try EncodedAudio(sink: sink, track: track) }
        let videoEnd = plan.videoEnd
        let stages = try zip(plan.audioTracks, encoded).map { track, output throws(MediaFailure) in
            (track.streamIndex, try AudioStage(input: input, streamIndex: track.streamIndex, settings: track.settings,
                                               finishing: plan.audioFinishing(for: track, videoEnd: videoEnd), output: output))
        }
        try sink.startWithoutVideo()
        try AudioPass(plan: plan, input: input, stages: stages).run(shouldCancel: shouldCancel, progress: progress) {
            range, offset throws(MediaFailure) in
            for track in subtitles { track.schedule(range, outputOffset: offset, outputEnd: nil) }
            try sink.writeSubtitles()
        }
        try sink.output.finish()
        return encoded.first?.framesEncoded ?? 0
    }
}
