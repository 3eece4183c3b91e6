import Foundation
import ReelMedia
import ReelSupport

/// The lossless path of a compression: ranges snapped to keyframes, packets copied unchanged.
struct StreamCopyJob {
    let plan: CompressionPlan
    let location: OutputLocation
    let progress: CompressionProgress
    let flag: CancellationFlag

    private var planner: CompressionPlanner { plan.planner }
    /// The ranges asked for, before snapping.
    private var requested: [ClosedSourceRange] { plan.ranges }

    func run(started: Date) throws(ReelError) -> CompressionResult {
        let info = planner.source, config = planner.config, source = info.url
        guard let video = info.primaryVideo else { throw .missingVideoTrack(source) }
        // Its pictures have no times to copy (with B frames not even their order): re-encoding
        // counts them at the frame rate, as a player does.
        if info.isRawStream {
            throw .streamCopyFailed(source, reason: "a raw \(video.codecName) stream has no timestamps to copy into a container; "
                                    + "compress it without --copy (its frames are timed at \(Self.rate(video)) fps)")
        }
        let origin = MediaTime(seconds: info.startTime, timescale: 1_000_000)
        let keyframes = try translatingFailures(source: source, output: location.temporaryURL) { () throws(MediaFailure) in
            try StreamCopier.keyframeTimes(of: info, streamIndex: video.index, shouldCancel: { flag.isRaised })
        }
        let end = MediaTime(seconds: info.startTime + info.duration, timescale: 1_000_000)
        let snapped = Self.snap(requested.map { TimeRange(start: $0.start, end: $0.end) }, to: keyframes, sourceEnd: end)
        let audio = try planner.keptAudioStreams().map(\.index)
        let subtitles = planner.keptSubtitleStreams.map(\.index)
        let companions = planner.keptCopyCompanions
        let plan = StreamCopyPlan(
            source: info, outputPath: location.temporaryURL.path, formatName: config.fileType.muxerName,
            videoStreamIndex: video.index, audioStreamIndices: audio, subtitleStreamIndices: subtitles,
            auxiliaryVideoStreamIndices: companions.auxiliaryVideo.map(\.index),
            timedMetadataStreamIndices: companions.timedMetadata.map(\.index),
            ranges: snapped, keepsMetadata: config.keepsMetadata)
        let copyProgress = progress.phase(from: 0.02, to: 0.97)
        let (packets, dataEnd) = try translatingFailures(source: source, output: location.temporaryURL) { () throws(MediaFailure) in
            try StreamCopier(plan: plan, shouldCancel: { flag.isRaised }, progress: copyProgress).run()
        }
        if flag.isRaised { throw .cancelled }
        try checkDecodes(packets: packets, video: video)
        let output = try MediaInfo.probe(location.temporaryURL)
        try location.commit()
        var statistics = TranscodeStatistics()
        statistics.framesDecoded = packets
        statistics.framesEncoded = packets
        statistics.sourceDataEnd = dataEnd
        func relative(_ range: TimeRange) -> TimeRange { TimeRange(start: range.start - origin, end: range.end - origin) }
        let analytics = CompressionAnalyticsBuilder(
            source: info, output: output, video: video, droppedTracks: planner.droppedTracks(keeping: Set(audio + subtitles + companions.auxiliaryVideo.map(\.index) + companions.timedMetadata.map(\.index))),
            summary: nil, keptRanges: snapped.map(relative), requestedRanges: requested.map { relative(TimeRange(start: $0.start, end: $0.end)) },
            statistics: statistics, content: nil, processingTime: Date().timeIntervalSince(started)
        ).build()
        progress.finish()
        return CompressionResult(url: location.finalURL, analytics: analytics)
    }

    /// Frames of the output decoded to check it: enough to see that the copy decodes at the
    /// source's size, few enough that checking costs little next to the copy.
    static let checkedFrames = 30

    /// Decodes the start of the written copy: a copy that gives no frame, or frames of another
    /// size than the source's, fails (and the caller discards it) instead of being reported
    /// as done. Copying never decodes, and a muxer takes packets that no decoder can use.
    private func checkDecodes(packets: Int, video: StreamInfo) throws(ReelError) {
        let source = planner.source.url, output = location.temporaryURL
        let check = try translatingFailures(source: source, output: output) { () throws(MediaFailure) in
            try DecodeCheck.run(url: output, frameLimit: Self.checkedFrames, shouldCancel: { flag.isRaised })
        }
        if flag.isRaised { throw .cancelled }
        guard check.frames > 0 else {
            throw .streamCopyFailed(source, reason: "no frame of the copied video decodes (\(packets) video packets "
                                    + "copied, \(check.corruptPackets) rejected by the decoder)")
        }
        guard let size = video.video, size.width > 0, size.height > 0 else { return }
        guard check.width == size.width, check.height == size.height else {
            throw .streamCopyFailed(source, reason: "the copied video decodes at \(check.width)x\(check.height), "
                                    + "the source at \(size.width)x\(size.height)")
        }
    }

    /// Widens each range to whole groups of pictures: start on the keyframe at or before it,
    /// end on the keyframe at or after it (or the source's end). Overlaps that snapping creates
    /// between consecutive ranges in time order are merged.
    static func snap(_ ranges: [TimeRange], to keyframes: [Double], sourceEnd: MediaTime) -> [TimeRange] {
        let scale: Int32 = 1_000_000
        var result: [TimeRange] = []
        for range in ranges {
            let startSeconds = keyframes.last { $0 <= range.start.seconds + 1e-6 } ?? keyframes.first ?? range.start.seconds
            let endSeconds = keyframes.first { $0 >= range.end.seconds - 1e-6 }
            let snapped = TimeRange(
                start: MediaTime(seconds: startSeconds, timescale: scale),
                end: endSeconds.map { MediaTime(seconds: $0, timescale: scale) } ?? sourceEnd)
            if let last = result.last, snapped.start >= last.start, snapped.start <= last.end {
                result[result.count - 1].end = max(last.end, snapped.end)
            } else {
                result.append(snapped)
            }
        }
        return result
    }

    private static func rate(_ video: StreamInfo) -> String {
        String(format: "%g", ((video.video?.frameRate ?? 25) * 1000).rounded() / 1000)
    }
}
