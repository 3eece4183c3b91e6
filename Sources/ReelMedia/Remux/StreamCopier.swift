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
    /// Other video streams copied beside the main one (a Cinematic video's disparity track),
    /// each cut at its own keyframes within the same ranges.
    var auxiliaryVideoStreamIndices: [Int]
    /// QuickTime timed-metadata streams (`mebx`) written again with their sample descriptions
    /// and track references (MOV outputs only: FFmpeg's muxer cannot write them).
    var timedMetadataStreamIndices: [Int]
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
        auxiliaryVideoStreamIndices: [Int] = [],
        timedMetadataStreamIndices: [Int] = [],
        ranges: [TimeRange],
        keepsMetadata: Bool = true
    ) {
        self.auxiliaryVideoStreamIndices = auxiliaryVideoStreamIndices
        self.timedMetadataStreamIndices = timedMetadataStreamIndices
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

    /// Copies the ranges; returns the number of video packets written and, for a source cut
    /// short (an interrupted download or copy), where its data ends (seconds, file clock).
    package func run() throws(MediaFailure) -> (videoPackets: Int, sourceDataEnd: Double?) {
        // A copy passes the codec parameters on as they are, and some only probing fills in
        // (VP9's profile and bit depth for MP4's vpcC box, say): this reader probes.
        let input = try InputFile(url: plan.source.url)
        input.readsForwardOnly = plan.source.layout?.timestampsJump ?? false
        let videos = Set([plan.videoStreamIndex] + plan.auxiliaryVideoStreamIndices)
        let muxed = [plan.videoStreamIndex] + plan.audioStreamIndices + plan.auxiliaryVideoStreamIndices
        let sources = muxed + plan.timedMetadataStreamIndices
        var metadata = try timedMetadataCopies(of: input)
        let subtitles = try plan.subtitleStreamIndices.map { index throws(MediaFailure) in
            try SubtitleTrack(source: plan.source, streamIndex: index, formatName: plan.formatName)
        }
        input.discardStreams(except: Set(sources))
        let reader = try CopyPacketReader(input: input, streams: sources)
        let output = try OutputFile(path: plan.outputPath, formatName: plan.formatName)
        var outputIndex: [Int: Int] = [:]
        for index in muxed {
            guard let stream = input.stream(index) else { continue }
            outputIndex[index] = try output.addStream(copying: stream, parameters: reader.parameters(ofStream: index))
            if plan.keepsMetadata, let added = outputIndex[index] { output.copyStreamMetadata(from: stream, to: added) }
        }
        for track in subtitles { try track.addStream(to: output, keepingTags: plan.keepsMetadata) }
        if plan.keepsMetadata { output.copyMetadata(from: input) }
        // With metadata tracks to add the file is rewritten as a fast-start one afterwards.
        try output.writeHeader(fastStart: metadata.isEmpty)
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
            var finished: Set<Int> = [], opened: Set<Int> = []
            while finished.count < sources.count, let packet = try reader.read() {
                if shouldCancel() { throw .cancelled }
                let index = packet.streamIndex
                guard outputIndex[index] != nil || metadata[index] != nil, !finished.contains(index),
                      let stream = input.stream(index) else { continue }
                let timeBase = stream.pointee.time_base
                // Without a presentation time (AVI keeps decode times only), the decode time.
                guard let ticks = packet.presentationTimestamp else { continue }
                let pts = Double(ticks) * av_q2d(timeBase)
                let isVideo = videos.contains(index)
                // A range ends where the next kept GOP begins (video) or at its end time (audio).
                if pts >= end - 1e-6 && (!isVideo || packet.isKeyframe) {
                    finished.insert(index)
                    continue
                }
                if pts < start - 1e-6 { continue }
                // Another video stream whose keyframes differ from the main one's starts the
                // range at its own first keyframe in it.
                if isVideo, index != plan.videoStreamIndex, !opened.contains(index) {
                    guard packet.isKeyframe else { continue }
                    opened.insert(index)
                }
                let shift = av_rescale_q(Int64(((offset - start) * 1_000_000).rounded()), av_make_q(1, 1_000_000), timeBase)
                if metadata[index] != nil {
                    metadata[index]?.append(packet, time: ticks + shift, timeBase: timeBase)
                    continue
                }
                guard let target = outputIndex[index] else { continue }
                if let change = reader.rateChanges[index], ticks >= change.ticks {
                    let seconds = Double(change.ticks) * av_q2d(timeBase) - input.startSeconds
                    throw .failed(.mux, "copy", String(format: "the sound of stream %d changes from %d Hz to %d Hz at %.2f s, and a copy "
                        + "keeps one rate per track: compress without a copy to resample it", index, change.from, change.to, seconds))
                }
                packet.pts = ticks + shift
                if let decodeTime = packet.dts { packet.dts = decodeTime + shift }
                // On the output's clock, where a time that advanced by less than one of its
                // ticks (recordings joined with their sound overlapping) would not advance.
                let outputBase = output.timeBase(ofStream: target)
                av_packet_rescale_ts(packet.pointer, timeBase, outputBase)
                if let dts = packet.dts {
                    if let last = lastDts[index], dts <= last {
                        packet.dts = last + 1
                        packet.pts = max(packet.pts ?? last + 1, last + 1)
                    }
                    lastDts[index] = packet.dts
                }
                packet.position = -1
                if index == plan.videoStreamIndex {
                    videoPackets += 1
                    progress(min((offset + pts - start) / total, 1))
                }
                try output.write(packet, streamIndex: target, from: outputBase)
            }
            offset += end - start
        }
        try output.finish()
        if !metadata.isEmpty {
            // FFmpeg's MOV muxer numbers its tracks from 1 in stream order.
            var trackIDs: [UInt32: UInt32] = [:]
            for (index, target) in outputIndex {
                if let id = input.stream(index)?.pointee.id { trackIDs[UInt32(id)] = UInt32(target + 1) }
            }
            try QuickTimeTrackAppender(path: plan.outputPath, tracks: plan.timedMetadataStreamIndices.compactMap { metadata[$0]?.copy },
                                       outputTrackID: { trackIDs[$0] }).run()
        }
        return (videoPackets, reader.cutShort(readsEveryStream: plan.audioStreamIndices.count >= plan.source.audioStreams.count))
    }

    /// The timed-metadata streams to copy, each with its track as the source file describes it.
    private func timedMetadataCopies(of input: InputFile) throws(MediaFailure) -> [Int: TimedMetadataCollector] {
        let indices = plan.timedMetadataStreamIndices
        guard !indices.isEmpty else { return [:] }
        let ids = indices.map { UInt32(input.stream($0)?.pointee.id ?? 0) }
        let tracks = try TimedMetadataTrackSource.read(from: plan.source.url, trackIDs: ids)
        return Dictionary(uniqueKeysWithValues: zip(indices, tracks.map { TimedMetadataCollector(copy: TimedMetadataTrackCopy(source: $0)) }))
    }
}

/// Gathers one timed-metadata stream's packets as samples of its track's media clock.
struct TimedMetadataCollector {
    var copy: TimedMetadataTrackCopy

    mutating func append(_ packet: Packet, time: Int64, timeBase: AVRational) {
        let media = av_make_q(1, Int32(clamping: copy.source.timescale))
        copy.samples.append((av_rescale_q(time, timeBase, media), av_rescale_q(packet.duration, timeBase, media), Array(packet.bytes)))
    }
}
