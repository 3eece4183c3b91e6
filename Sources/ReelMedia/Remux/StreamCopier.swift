internal import CFFmpeg
import Foundation
import ReelSupport

/// A stream-copy cut: packets of the kept ranges copied unchanged into a new container.
package struct StreamCopyPlan: Sendable {
    var source: MediaInfo
    var outputPath: String
    var formatName: String
    var videoStreamIndex: Int
    /// The audio streams to copy, in output order.
    var audioStreamIndices: [Int]
    /// The text subtitle streams to carry as `mov_text` (re-encoded: text loses nothing).
    var subtitleStreamIndices: [Int]
    /// Source ranges, already snapped to keyframes, in output order.
    var ranges: [TimeRange]
    /// Whether the source's container and stream tags go into the output.
    var keepsMetadata: Bool

    /// Creates the value from every field.
    package init(
        source: MediaInfo,
        outputPath: String,
        formatName: String,
        videoStreamIndex: Int,
        audioStreamIndices: [Int],
        subtitleStreamIndices: [Int] = [],
        ranges: [TimeRange],
        keepsMetadata: Bool = true
    ) {
        self.keepsMetadata = keepsMetadata
        self.source = source
        self.outputPath = outputPath
        self.formatName = formatName
        self.videoStreamIndex = videoStreamIndex
        self.audioStreamIndices = audioStreamIndices
        self.subtitleStreamIndices = subtitleStreamIndices
        self.ranges = ranges
    }
}

/// Copies the packets of keyframe-aligned ranges without decoding, joined on one timeline.
package struct StreamCopier {
    let plan: StreamCopyPlan
    let shouldCancel: () -> Bool
    let progress: (Double) -> Void

    /// Creates the value from every field.
    package init(
        plan: StreamCopyPlan,
        shouldCancel: @escaping () -> Bool,
        progress: @escaping (Double) -> Void
    ) {
        self.plan = plan
        self.shouldCancel = shouldCancel
        self.progress = progress
    }

    /// Presentation times (seconds) of the video stream's keyframes, from one pass over the
    /// packets as the copy writes them (no decoding). The container index is not used: it holds
    /// decode times, which differ from presentation times when frames are reordered.
    package static func keyframeTimes(of source: MediaInfo, streamIndex: Int, shouldCancel: () -> Bool) throws(MediaFailure) -> [Double] {
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        guard let stream = input.stream(streamIndex) else { return [] }
        let timeBase = av_q2d(stream.pointee.time_base)
        let reader = try CopyPacketReader(input: input, streams: [streamIndex])
        var times: [Double] = []
        while let packet = try reader.read() {
            if shouldCancel() { throw .cancelled }
            if packet.isKeyframe, let pts = packet.presentationTimestamp {
                times.append(Double(pts) * timeBase)
            }
        }
        return times.sorted()
    }

    /// Copies the ranges; returns the number of video packets written.
    package func run() throws(MediaFailure) -> Int {
        // A copy passes the codec parameters on as they are, and some only probing fills in
        // (VP9's profile and bit depth for MP4's vpcC box, say): this reader probes.
        let input = try InputFile(url: plan.source.url)
        input.readsForwardOnly = plan.source.layout?.timestampsJump ?? false
        let sources = [plan.videoStreamIndex] + plan.audioStreamIndices
        let subtitles = try plan.subtitleStreamIndices.map { index throws(MediaFailure) in
            try SubtitleTrack(source: plan.source, streamIndex: index, formatName: plan.formatName)
        }
        input.discardStreams(except: Set(sources))
        let reader = try CopyPacketReader(input: input, streams: sources)
        let output = try OutputFile(path: plan.outputPath, formatName: plan.formatName)
        var outputIndex: [Int: Int] = [:]
        for index in sources {
            guard let stream = input.stream(index) else { continue }
            outputIndex[index] = try output.addStream(copying: stream, parameters: reader.parameters(ofStream: index))
            if plan.keepsMetadata, let added = outputIndex[index] { output.copyStreamMetadata(from: stream, to: added) }
        }
        for track in subtitles { try track.addStream(to: output, keepingTags: plan.keepsMetadata) }
        if plan.keepsMetadata { output.copyMetadata(from: input) }
        try output.writeHeader(fastStart: true)
        let total = max(plan.ranges.map(\.duration.seconds).reduce(0, +), 0.001)
        var offset = 0.0
        var lastDts: [Int: Int64] = [:]
        var videoPackets = 0
        for range in plan.ranges {
            try reader.seek(toSeconds: range.start.seconds, videoStream: plan.videoStreamIndex)
            let start = range.start.seconds, end = range.end.seconds
            for track in subtitles {
                track.schedule(ClosedSourceRange(start: range.start, end: range.end, needsSeek: true, endsEarly: true),
                               outputOffset: offset, outputEnd: nil)
                try track.writeScheduled(to: output)
            }
            var finished: Set<Int> = []
            while finished.count < sources.count, let packet = try reader.read() {
                if shouldCancel() { throw .cancelled }
                let index = packet.streamIndex
                guard let target = outputIndex[index], !finished.contains(index),
                      let stream = input.stream(index) else { continue }
                let timeBase = stream.pointee.time_base
                // Without a presentation time (AVI keeps decode times only), the decode time.
                guard let ticks = packet.presentationTimestamp else { continue }
                let pts = Double(ticks) * av_q2d(timeBase)
                let isVideo = index == plan.videoStreamIndex
                // A range ends where the next kept GOP begins (video) or at its end time (audio).
                if pts >= end - 1e-6 && (!isVideo || packet.isKeyframe) {
                    finished.insert(index)
                    continue
                }
                if pts < start - 1e-6 { continue }
                let shift = av_rescale_q(Int64(((offset - start) * 1_000_000).rounded()), av_make_q(1, 1_000_000), timeBase)
                packet.pts = ticks + shift
                if let decodeTime = packet.dts {
                    var dts = decodeTime + shift
                    if let last = lastDts[index], dts <= last {
                        dts = last + 1
                        packet.pts = max(ticks + shift, last + 1)
                    }
                    packet.dts = dts
                    lastDts[index] = dts
                }
                packet.position = -1
                if isVideo {
                    videoPackets += 1
                    progress(min((offset + pts - start) / total, 1))
                }
                try output.write(packet, streamIndex: target, from: timeBase)
            }
            offset += end - start
        }
        try output.finish()
        return videoPackets
    }
}
