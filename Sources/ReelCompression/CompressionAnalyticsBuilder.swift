import Foundation
import ReelMedia
import ReelSupport

/// Builds `CompressionAnalytics` from the probed source and output files.
struct CompressionAnalyticsBuilder {
    let source: MediaInfo
    let output: MediaInfo
    /// The source video stream that was compressed or copied.
    let video: StreamInfo
    let droppedTracks: [DroppedTrack]
    let summary: EncodingSummary?
    let keptRanges: [TimeRange]
    let requestedRanges: [TimeRange]
    let statistics: TranscodeStatistics
    let content: ContentAdjustment?
    let processingTime: TimeInterval

    func build() -> CompressionAnalytics {
        let sourcePicture = video.video
        let outputVideo = output.primaryVideo
        let outputPicture = outputVideo?.video
        let compressedFrames = Int(outputVideo?.frameCount ?? Int64(statistics.framesEncoded))
        let outputDuration = output.duration
        let videoDuration = outputVideo?.duration ?? outputDuration
        var analytics = CompressionAnalytics(
            originalFileSize: source.fileSize,
            compressedFileSize: output.fileSize,
            compressionRatio: output.fileSize > 0 ? Double(source.fileSize) / Double(output.fileSize) : 0,
            processingTime: processingTime,
            originalDimensions: VideoDimensions(width: sourcePicture?.visualWidth ?? 0, height: sourcePicture?.visualHeight ?? 0),
            compressedDimensions: VideoDimensions(width: outputPicture?.width ?? statistics.encodedWidth,
                                                  height: outputPicture?.height ?? statistics.encodedHeight),
            compressedVisualDimensions: VideoDimensions(width: outputPicture?.visualWidth ?? 0, height: outputPicture?.visualHeight ?? 0),
            originalVideoBitrate: Double(video.bitRate ?? 0),
            compressedVideoBitrate: Double(outputVideo?.bitRate ?? 0),
            originalAudioBitrate: source.primaryAudio.map { Double($0.bitRate ?? 0) },
            compressedAudioBitrate: output.primaryAudio.map { Double($0.bitRate ?? 0) },
            originalDuration: source.duration,
            compressedDuration: outputDuration,
            keptRanges: keptRanges,
            requestedRanges: requestedRanges,
            originalFrameCount: statistics.framesDecoded,
            compressedFrameCount: compressedFrames,
            corruptPacketsSkipped: statistics.corruptPackets,
            damagedFrames: statistics.damagedFrames,
            originalFrameRate: sourcePicture?.frameRate ?? 0,
            compressedFrameRate: videoDuration > 0 ? Double(compressedFrames) / videoDuration : 0,
            videoCodec: outputVideo?.codecName ?? video.codecName,
            streamCopied: summary == nil,
            droppedTracks: droppedTracks,
            contentAdjustment: content,
            encoding: summary)
        analytics.mistimedFramesDropped = statistics.framesOutOfOrder
        analytics.sourceCutShortAt = statistics.sourceDataEnd.map { max($0 - source.startTime, 0) }
        return analytics
    }
}

extension CompressionAnalyticsBuilder {
    /// For a re-encode planned by `decision`.
    init(source: MediaInfo, output: MediaInfo, decision: CompressionPlanner.Decision, statistics: TranscodeStatistics,
         content: ContentAdjustment?, processingTime: TimeInterval) {
        self.init(source: source, output: output, video: decision.video, droppedTracks: decision.droppedTracks,
                  summary: decision.summary, keptRanges: decision.keptRanges, requestedRanges: decision.keptRanges,
                  statistics: statistics, content: content, processingTime: processingTime)
    }
}
