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
            try SubtitleTrack(source: plan.source, streamIndex: index)
        }
        guard !indices.isEmpty || !subtitles.isEmpty else {
            throw .failed(.encode, "audio", "the plan keeps no audio or subtitle track")
        }
        let primary = indices.first
        let input = try InputFile.reopen(plan.source, keeping: Set(indices))
        let sink = try MuxingSink(plan: plan, metadataSource: plan.keepsMetadata ? input : nil, subtitles: subtitles)
        let encoded = try plan.audioTracks.indices.map { track throws(MediaFailure) in try EncodedAudio(sink: sink, track: track) }
        let videoEnd = plan.videoEnd
        let stages = try zip(plan.audioTracks, encoded).map { track, output throws(MediaFailure) in
            try AudioStage(input: input, streamIndex: track.streamIndex, settings: track.settings,
                           finishing: plan.audioFinishing(for: track, videoEnd: videoEnd), output: output)
        }
        let joins = plan.audioJoins
        let stageOf = Dictionary(uniqueKeysWithValues: zip(indices, stages))
        try sink.startWithoutVideo()
        let total = max(plan.ranges.map { ($0.end - $0.start).seconds }.reduce(0, +), 0.001)
        let reading = try Packet()
        var offset = 0.0
        for (position, range) in plan.ranges.enumerated() {
            for track in subtitles { track.schedule(range, outputOffset: offset, outputEnd: nil) }
            try sink.writeSubtitles()
            if !stages.isEmpty && (position > 0 || range.needsSeek) {
                try input.seek(toSeconds: range.start.seconds - plan.audioSeekLead(position: position, joins: joins))
            }
            let edges = joins.edges(position: position, outputOffset: offset, duration: (range.end - range.start).seconds,
                                    pictureBlendsIn: false, pictureTailStart: nil)
            for stage in stages { stage.beginRange(range, outputOffset: offset, edges: edges) }
            var atEndOfFile = false
            while !stages.allSatisfy(\.isDone) {
                if shouldCancel() { throw .cancelled }
                guard try input.read(into: reading) else {
                    atEndOfFile = true
                    break
                }
                defer { reading.unreference() }
                guard let stage = stageOf[reading.streamIndex] else { continue }
                try stage.handle(reading)
                if let primary, reading.streamIndex == primary, let stamp = reading.presentationTimestamp,
                   let stream = input.stream(primary) {
                    let seconds = Double(stamp) * av_q2d(stream.pointee.time_base)
                    progress(min(max(offset + seconds - range.start.seconds, 0) / total, 1))
                }
            }
            for stage in stages { try stage.endRange(atEndOfFile: atEndOfFile) }
            offset += (range.end - range.start).seconds
        }
        for stage in stages { try stage.finish() }
        let corrupt = stages.map(\.corruptPackets).reduce(0, +)
        if corrupt > 2 {
            throw .failed(.decode, "avcodec_send_packet", "\(corrupt) audio packets are corrupt and could not be decoded")
        }
        try sink.output.finish()
        return encoded.first?.framesEncoded ?? 0
    }
}
