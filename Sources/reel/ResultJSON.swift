import ReelKit

/// The `--json` output of `reel compress`.
///
/// A single input prints one file object; a batch prints `{files, totals, processingTime}`.
/// Every key is always present (`null` when not applicable); seconds and bytes are numbers.
enum ResultJSON {
    /// One input: `{input, output, status, error, result}`.
    static func file(_ outcome: FileOutcome) -> JSONValue {
        let isFailure = outcome.status == .failed
        var fields: [(String, JSONValue)] = [
            ("input", .string(outcome.file.input.url.path)),
            ("output", .string(outcome.file.output.path)),
            ("status", .string(outcome.status.rawValue)),
            ("error", .init(isFailure ? outcome.message : nil)),
            ("note", .init(outcome.status == .planned ? outcome.message : nil)),
            ("result", outcome.analytics.map(analytics) ?? .null),
        ]
        if let ranges = outcome.plannedRanges {
            fields.append(("plannedRanges", .array(ranges.map {
                .object([("start", JSONValue($0.start.seconds)), ("end", JSONValue($0.end.seconds))])
            })))
            let dissolves = outcome.plannedDissolves
            fields.append(("dissolvingJoins", .array((dissolves?.joins ?? []).map { JSONValue($0) })))
            fields.append(("crossfade", JSONValue(dissolves?.joins.isEmpty == false ? dissolves?.seconds ?? 0 : 0)))
        }
        if outcome.status == .planned {
            fields.append(("cameraPath", outcome.plannedCameraPath.map(cameraPath) ?? .null))
        }
        fields.append(("deadAir", outcome.deadAir.map(deadAir) ?? .null))
        return .object(fields)
    }

    /// What a dead-air cut found: its settings, the seconds looked in, kept and cut, and the
    /// parts kept and cut out.
    static func deadAir(_ report: DeadAirReport) -> JSONValue {
        .object([
            ("stillPictureOnly", .bool(report.options.requiresStillPicture)),
            ("silenceLevel", .string(PauseCutOptions.text(report.options.silenceLevel))),
            ("silenceLevelDecibels", .init(report.silenceLevelDecibels.map { ($0 * 10).rounded() / 10 })),
            ("marginBefore", .init(report.options.marginBefore)),
            ("marginAfter", .init(report.options.marginAfter)),
            ("minimumPause", .init(report.options.minimumPause)),
            ("searchedDuration", .init(report.searchedDuration)),
            ("keptDuration", .init(report.keptDuration)),
            ("cutDuration", .init(report.cutDuration)),
            ("kept", ranges(report.kept)),
            ("cuts", ranges(report.cuts)),
        ])
    }

    /// The virtual camera's path: its shape, window, and every shot's points.
    static func cameraPath(_ path: CameraPath) -> JSONValue {
        .object([
            ("aspect", .string(path.aspect.description)),
            ("windowWidth", .init(path.windowWidth)),
            ("windowHeight", .init(path.windowHeight)),
            ("movesHorizontally", .bool(path.movesHorizontally)),
            ("shots", .array(path.shots.map { shot in
                .object([
                    ("start", .init(shot.start)), ("end", .init(shot.end)),
                    ("showsWholePicture", .bool(shot.showsWholePicture)),
                    ("times", .array(shot.times.map { JSONValue($0) })),
                    ("positions", .array(shot.positions.map { JSONValue($0) })),
                ])
            })),
        ])
    }

    /// A batch: every file, the counts per status, and the wall-clock seconds.
    static func batch(_ outcomes: [FileOutcome], processingTime: Double) -> JSONValue {
        func count(_ status: FileStatus) -> JSONValue {
            .init(outcomes.filter { $0.status == status }.count)
        }
        return .object([
            ("files", .array(outcomes.map(file))),
            ("totals", .object([
                ("inputs", .init(outcomes.count)),
                ("compressed", count(.compressed)),
                ("skipped", count(.skipped)),
                ("failed", count(.failed)),
                ("cancelled", count(.cancelled)),
                ("planned", count(.planned)),
            ])),
            ("processingTime", .init(processingTime)),
        ])
    }

    /// The measurements of one compression.
    static func analytics(_ result: CompressionAnalytics) -> JSONValue {
        guard case .object(let fields) = measurements(result) else { return .null }
        let loudness: JSONValue = result.loudness.map(loudness) ?? .null
        return .object(fields + [("cameraPath", result.cameraPath.map(cameraPath) ?? .null), ("loudness", loudness)])
    }

    private static func measurements(_ result: CompressionAnalytics) -> JSONValue {
        .object([
            ("compressionRatio", .init(result.compressionRatio)),
            ("processingTime", .init(result.processingTime)),
            ("planningTime", .init(result.planningTime)),
            ("encodingTime", .init(result.planningTime.map { max(result.processingTime - $0, 0) })),
            ("videoCodec", .string(result.videoCodec)),
            ("streamCopied", .bool(result.streamCopied)),
            ("corruptPacketsSkipped", .init(result.corruptPacketsSkipped)),
            ("damagedFrames", .init(result.damagedFrames)),
            ("mistimedFramesDropped", .init(result.mistimedFramesDropped)),
            ("sourceCutShortAt", .init(result.sourceCutShortAt)),
            ("keptRanges", ranges(result.keptRanges)),
            ("requestedRanges", ranges(result.requestedRanges)),
            ("original", .object([
                ("fileSize", .init(result.originalFileSize)),
                ("duration", .init(result.originalDuration)),
                ("width", .init(result.originalDimensions.width)),
                ("height", .init(result.originalDimensions.height)),
                ("videoBitrate", .init(result.originalVideoBitrate)),
                ("audioBitrate", .init(result.originalAudioBitrate)),
                ("frameCount", .init(result.originalFrameCount)),
                ("frameRate", .init(result.originalFrameRate)),
            ])),
            ("compressed", .object([
                ("fileSize", .init(result.compressedFileSize)),
                ("duration", .init(result.compressedDuration)),
                ("width", .init(result.compressedDimensions.width)),
                ("height", .init(result.compressedDimensions.height)),
                ("visualWidth", .init(result.compressedVisualDimensions.width)),
                ("visualHeight", .init(result.compressedVisualDimensions.height)),
                ("videoBitrate", .init(result.compressedVideoBitrate)),
                ("audioBitrate", .init(result.compressedAudioBitrate)),
                ("frameCount", .init(result.compressedFrameCount)),
                ("frameRate", .init(result.compressedFrameRate)),
            ])),
            ("encoding", result.encoding.map(encoding) ?? .null),
            ("contentAdjustment", result.contentAdjustment.map(content) ?? .null),
            ("droppedTracks", .array(result.droppedTracks.map(dropped))),
            ("targetSize", result.targetSize.map(targetSize) ?? .null),
            ("targetQuality", result.targetQuality.map(targetQuality) ?? .null),
        ])
    }

    /// The loudness before and after normalisation, and what was done.
    private static func loudness(_ report: LoudnessReport) -> JSONValue {
        func levels(_ sound: MeasuredLoudness) -> JSONValue {
            .object([("integrated", .init(sound.integrated)), ("truePeak", .init(sound.truePeak))])
        }
        return .object([
            ("target", .object([("integrated", .init(report.target.integrated)), ("truePeak", .init(report.target.truePeak))])),
            ("source", levels(report.source)),
            ("output", report.output.map(levels) ?? .null),
            ("gain", .init(report.gain)),
            ("limited", .bool(report.limited)),
            ("measuringTime", .init(report.measuringTime)),
        ])
    }

    /// How the target quality was met: what was reached, the rate factor of each segment and its samples.
    private static func targetQuality(_ report: TargetQualityReport) -> JSONValue {
        .object([
            ("metric", .string(report.metric.rawValue)),
            ("target", .init(report.target)),
            ("achieved", .init(report.achieved)),
            ("finalEncodes", .init(report.finalEncodes)),
            ("schedule", .array(report.schedule.map { .array($0.map { JSONValue($0) }) })),
            ("perSegment", .bool(report.perSegment)),
            ("sampleEncodes", .init(report.sampleEncodes)),
            ("samplingTime", .init(report.samplingTime)),
            ("segments", .array(report.segments.map { segment in
                .object([
                    ("start", .init(segment.start)), ("end", .init(segment.end)),
                    ("constantRateFactor", .init(segment.constantRateFactor)),
                    ("achieved", .init(segment.achieved)),
                    ("samples", .array(segment.samples.map { .array($0.map { JSONValue($0) }) })),
                ])
            })),
        ])
    }

    /// How the target size was met.
    private static func targetSize(_ report: TargetSizeReport) -> JSONValue {
        .object([
            ("targetBytes", .init(report.targetBytes)),
            ("achievedBytes", .init(report.achievedBytes)),
            ("videoBitrate", .init(report.videoBitrate)),
            ("encodes", .init(report.encodes)),
            ("loweredWidth", .init(report.loweredDimensions?.width)),
            ("loweredHeight", .init(report.loweredDimensions?.height)),
            ("loweredFrameRate", .init(report.loweredFrameRate)),
            ("keptPresetResult", .bool(report.keptPresetResult)),
            ("attempts", .array(report.attempts.map { .array($0.map { JSONValue($0) }) })),
        ])
    }

    /// The encoder settings used.
    private static func encoding(_ summary: EncodingSummary) -> JSONValue {
        .object([
            ("constantRateFactor", .init(summary.constantRateFactor)),
            ("targetBitrate", .init(summary.targetBitrate)),
            ("maxBitrate", .init(summary.maxBitrate)),
            ("keyFrameInterval", .init(summary.keyFrameInterval)),
            ("frameRate", .init(summary.frameRate)),
            ("videoFilter", .string(summary.videoFilter)),
            ("hdr", summary.hdr.map { hdr in
                .object([
                    ("sourceTransfer", .string(hdr.sourceTransfer)), ("toneMapped", .bool(hdr.toneMapped)),
                    ("peakNits", .init(hdr.peakNits)), ("summary", .string(hdr.summary)),
                ])
            } ?? .null),
        ])
    }

    /// What content-aware optimization measured and changed.
    private static func content(_ adjustment: ContentAdjustment) -> JSONValue {
        .object([
            ("category", .string(adjustment.category)),
            ("motion", .init(adjustment.profile.motion)),
            ("detail", .init(adjustment.profile.detail)),
            ("keyFrameIntervalFactor", .init(adjustment.keyFrameIntervalFactor)),
            ("bitrateFactor", .init(adjustment.bitrateFactor)),
            ("constantRateFactorOffset", .init(adjustment.constantRateFactorOffset)),
        ])
    }

    /// A source track left out of the output.
    private static func dropped(_ track: DroppedTrack) -> JSONValue {
        .object([
            ("index", .init(track.index)),
            ("role", .string(track.role.rawValue)),
            ("codec", .string(track.codecName)),
            ("handlerName", .init(track.handlerName)),
            ("reason", .string(track.reason)),
        ])
    }

    /// Source ranges as `{start, end}` objects in seconds.
    private static func ranges(_ ranges: [TimeRange]) -> JSONValue {
        .array(ranges.map { .object([("start", .init($0.start.seconds)), ("end", .init($0.end.seconds))]) })
    }
}
