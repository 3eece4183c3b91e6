import Foundation
import ReelFrameReduction
import ReelMedia
import ReelSupport

/// Decides every encoding parameter from the source's facts and the config; no I/O.
struct CompressionPlanner {
    let source: MediaInfo
    /// The settings decided from; a plan replaces a planned trim with the ranges it chose
    /// before any decision is made.
    var config: CompressionConfig
    let reducer: any VideoFrameReducer
    /// Whether a requested bit rate above what the source spends is lowered (off for a target
    /// size, whose budget decides the rate).
    var clampsToSource = true
    /// Joins that cut although `config.crossfadeDuration` is set, numbered by the range before
    /// them: a reel dissolves only the joins that would be jump cuts (`PlannedTrim.cutJoins`).
    var cutJoins: Set<Int> = []

    /// The joins between ranges of these `lengths` (seconds) that dissolve over
    /// `config.crossfadeDuration`, numbered by the range before each (`TranscodePlan.dissolves`).
    func dissolvingJoins(lengths: [Double]) -> [Int] {
        lengths.indices.filter { position in
            TranscodePlan.dissolves(afterRange: position, of: lengths.count, duration: lengths[position],
                                    crossfade: config.crossfadeDuration, cutJoins: cutJoins)
        }
    }
    /// Whether the picture fades in at the output's start and out at its end when
    /// `config.edgeFadeDuration` is set: a chunk of a chunked encode fades only at the ends
    /// it shares with the whole output.
    var pictureFadeEnds: (start: Bool, end: Bool) = (true, true)
    /// Each audio track's loudness change, by source stream index, once `LoudnessNormalization`
    /// has measured the kept sound (empty: none).
    var loudness: [Int: LoudnessAdjustment] = [:]
    /// The content measure's bursts a decode of the planning (the framing pass's) measured
    /// already; the encode measures only the rest.
    var contentBursts: ContentBursts?
    /// The virtual camera's path, when the config reframes: the plan works it out and keeps it
    /// in the config, so every planner made from that config (a target size's tuned one, a
    /// chunk's) frames alike.
    var cameraPath: CameraPath? { config.reframing?.path }

    /// This planner deciding from `config` instead (a target's tuned settings): what the plan
    /// decided beyond the config (loudness changes, joins that cut, which edges fade) carries over.
    func with(config: CompressionConfig) -> CompressionPlanner {
        var planner = self
        planner.config = config
        return planner
    }

    /// The chosen plan plus the facts the analytics report.
    struct Decision: Sendable {
        var plan: TranscodePlan
        var codec: VideoCodec
        var video: StreamInfo
        var droppedTracks: [DroppedTrack]
        var summary: EncodingSummary
        /// The kept source ranges, on the file's timeline (container start = 0).
        var keptRanges: [TimeRange]
    }

    /// Deinterlacing (libavfilter's `bwdif`): one whole picture for each interlaced one, at the
    /// source's picture rate; progressive pictures pass untouched. Many progressive videos are
    /// coded as interlaced (film on a broadcast, a camera's interlaced mode): `idet` checks the
    /// flag on the first thirty pictures it can judge (still ones, whose fields do not differ,
    /// it cannot) and clears it where the pictures are whole, so those are not softened.
    static let deinterlaceFilter = "idet=analyze_interlaced_flag=30,bwdif=mode=send_frame:parity=auto:deint=interlaced"

    /// Every encoding choice for `ranges` (from `keptRanges()`), with the content measured on them.
    func decide(outputPath: String, ranges: [ClosedSourceRange], content: ContentAdjustment?) throws(ReelError) -> Decision {
        guard let video = source.primaryVideo, let picture = video.video else {
            throw .missingVideoTrack(source.url)
        }
        let codec = try chooseCodec()
        let animated = config.fileType.isAnimatedImage
        var audio: [AudioTrackPlan] = []
        for stream in try keptAudioStreams() {
            if let settings = try audioSettings(for: stream) {
                audio.append(AudioTrackPlan(streamIndex: stream.index, settings: settings, loudness: loudness[stream.index]))
            }
        }
        let subtitles = keptSubtitleStreams.map(\.index)

        let rotation = picture.rotation
        let framing = cameraPath == nil ? nil : config.reframing.flatMap { FramingGeometry(picture, aspect: $0.aspect) }
        let (visualWidth, visualHeight) = framing?.outputSize(limit: config.maxLongerDimension) ?? targetVisualSize(picture)
        // An animated image has no rotation tag: its pixels are turned upright.
        let rotatesPixels = (config.forceVisualEncodingDimensions || config.fileType.isAnimatedImage) && rotation != 0
        let swapped = rotation % 180 != 0 && !rotatesPixels
        let encodeWidth = swapped ? visualHeight : visualWidth
        let encodeHeight = swapped ? visualWidth : visualHeight
        let input = framing?.storedCrop ?? (picture.width, picture.height)

        let sourceRate = sourceFrameRate
        let target = Double(config.fps)
        let reduces = max(sourceRate, picture.baseFrameRate) > target * 1.001
        let outputRate = reduces ? min(target, sourceRate) : sourceRate

        let toneMaps = HDRToneMap.toneMaps(picture, handling: config.hdr, codec: codec)
        // 10 bits when asked (`tenBit`), or from a deeper source: HEVC, AV1 and VP9 keep them,
        // H.264 only when asked to keep the HDR (High 10 plays in fewer places).
        let tenBit = !animated && !toneMaps && (config.tenBit
            || picture.bitDepth > 8 && (codec.keepsTenBitByDefault || (config.hdr == .keep && picture.color.isHDR)))
        // Interlaced pictures are made whole before anything scales or turns them (which would
        // blend their two fields into combs); only the pictures flagged interlaced are touched.
        let deinterlace = picture.isInterlaced ? [Self.deinterlaceFilter] : []
        var filters = deinterlace
        let rotationFilter = rotatesPixels ? [FilterGraph.rotationFilter(clockwise: rotation)] : []
        filters += rotationFilter
        let rotatedWidth = rotatesPixels && rotation % 180 != 0 ? input.1 : input.0
        let rotatedHeight = rotatesPixels && rotation % 180 != 0 ? input.0 : input.1
        if encodeWidth != rotatedWidth || encodeHeight != rotatedHeight || framing != nil && picture.pixelAspectRatio != nil {
            // Square pixels: scale would otherwise set an aspect that makes up for even rounding.
            filters.append("scale=\(encodeWidth):\(encodeHeight):flags=\(animated ? "lanczos" : "bicubic"),setsar=1")
        }
        var finishing: [String] = []
        if let denoise = config.preprocessing.noiseReduction.filter { finishing.append(denoise) }
        if let levels = config.preprocessing.autoLevelsFilter { finishing.append(levels) }
        if toneMaps { finishing.append(HDRToneMap.filter(for: picture)) }
        let frames = ranges.map { ($0.end - $0.start).seconds }.reduce(0, +) * outputRate
        finishing.append(animatedImagePictureFilter(frames: frames, pixels: encodeWidth * encodeHeight)
            ?? "format=\(tenBit ? "yuv420p10le" : "yuv420p")")
        filters += finishing
        let framingPlan = framing.flatMap { geometry in
            cameraPath.map { path in
                let shown = rotatesPixels || rotation % 180 == 0
                    ? (geometry.shownWidth, geometry.shownHeight) : (geometry.shownHeight, geometry.shownWidth)
                let fit = FramingGeometry.fitFilter(displayed: shown, output: (encodeWidth, encodeHeight),
                                                    fill: config.reframing?.fill ?? .black)
                return geometry.framingPlan(for: path, origin: source.startTime,
                                            fitFilter: (deinterlace + rotationFilter + [fit] + finishing).joined(separator: ","))
            }
        }

        let rate = rateControl(codec: codec, video: video, picture: picture,
                               outputPixels: encodeWidth * encodeHeight, outputRate: outputRate, content: content)
        let keyInterval = config.maxKeyFrameInterval * (content?.keyFrameIntervalFactor ?? 1)
        // x265's rate control counts time in frames at the nominal rate, not by timestamps: a
        // sparse source (an AVI with 68 real pictures where the header says 444) would get a
        // frame's share of the cap per picture that really lasts 6.5 frames. Its cap is scaled
        // by how much longer the real pictures last (x264 times by timestamps already).
        let sparseness = codec == .hevc ? Self.sparseness(of: video, nominalRate: outputRate) : 1
        let encoderMax = rate.max.map { Int(Double($0) * sparseness) }
        let settings = animatedImageEncoderSettings(frameRate: outputRate) ?? VideoEncoderSettings(
            encoderName: codec.encoderName, speedPreset: codec.speedSetting(config.encoderSpeed),
            constantRateFactor: rate.crf, averageBitRate: rate.average, maxBitRate: encoderMax,
            bufferSize: encoderMax.map { $0 * 2 }, keyFrameInterval: keyInterval,
            frameRate: outputRate, tenBit: tenBit)
        let filter = filters.joined(separator: ",")
        var plan = TranscodePlan(
            source: source, outputPath: outputPath, formatName: config.fileType.muxerName,
            videoStreamIndex: video.index,
            ranges: ranges, videoFilter: filter, video: settings,
            outputRotation: rotatesPixels ? 0 : rotation,
            hdr: codec.keepsTenBitByDefault && !toneMaps ? picture.hdr : nil,
            carryFrameHDR: codec.keepsTenBitByDefault && !toneMaps && picture.color.isHDR,
            audioTracks: audio, subtitleStreamIndices: subtitles, fastStart: !animated, crossfade: config.crossfadeDuration, reducer: reducer,
            targetFrameRate: reduces ? target : nil, keepsMetadata: config.keepsMetadata)
        plan.framing = framingPlan
        plan.edgeFade = config.edgeFadeDuration ?? 0
        plan.cutJoins = cutJoins
        plan.pictureFadeEnds = pictureFadeEnds
        let summary = EncodingSummary(
            constantRateFactor: animated ? nil : rate.crf, targetBitrate: rate.average, maxBitrate: rate.max,
            keyFrameInterval: keyInterval, frameRate: outputRate, videoFilter: filter,
            hdr: HDRToneMap.conversion(for: picture, toneMapped: toneMaps))
        let origin = MediaTime(seconds: source.startTime, timescale: 1_000_000)
        return Decision(plan: plan, codec: codec, video: video,
                        droppedTracks: droppedTracks(keeping: Set(audio.map(\.streamIndex) + subtitles)), summary: summary,
                        keptRanges: ranges.map { TimeRange(start: $0.start - origin, end: $0.end - origin) })
    }

    /// How many nominal frame intervals a real picture of `video` lasts on average (1 unless
    /// its stored pictures are clearly fewer than its duration at `nominalRate` holds).
    static func sparseness(of video: StreamInfo, nominalRate: Double) -> Double {
        guard let frames = video.frameCount, frames > 1, let duration = video.duration, duration > 0, nominalRate > 0 else { return 1 }
        let ratio = duration * nominalRate / Double(frames)
        return ratio > 1.5 ? min(ratio, 30) : 1
    }

    /// The video codec the encode uses; throws when this FFmpeg has no encoder for the video
    /// codec (nor its fallback) or, when the audio is kept, for the audio codec.
    @discardableResult
    func checkEncoders() throws(ReelError) -> VideoCodec {
        let codec = try chooseCodec()
        let audio = try keptAudioStreams()
        if config.streamCopy { try checkCopiedCodecsFit(audio: audio) }
        if !audio.isEmpty, config.audioCodec.availableEncoder == nil {
            throw .codecNotSupported(config.audioCodec.rawValue)
        }
        return codec
    }

    /// The configured codec, or its fallback when this FFmpeg lacks it.
    func chooseCodec() throws(ReelError) -> VideoCodec {
        if let animated = try animatedImageCodec() { return animated }
        if config.videoCodec.isSupported() { return config.videoCodec }
        if let fallback = config.fallbackVideoCodec, fallback.isSupported() { return fallback }
        throw .codecNotSupported(config.videoCodec.rawValue)
    }

    /// The source ranges to encode, in output order; times count from the container's start.
    func keptRanges() throws(ReelError) -> [ClosedSourceRange] {
        switch config.trim {
        case .whole:
            return [try trimmedRange()]
        case .ranges(let ranges):
            return try listedRanges(ranges)
        case .planned:
            throw .invalidConfiguration("planned trimming must be resolved to ranges before planning")
        }
    }

    /// The whole source, or the one range of `trimStartTime`/`trimEndTime`.
    private func trimmedRange() throws(ReelError) -> ClosedSourceRange {
        let origin = MediaTime(seconds: source.startTime, timescale: 1_000_000)
        let duration = MediaTime(seconds: source.duration, timescale: 1_000_000)
        let start = config.trimStartTime ?? .zero
        let end = config.trimEndTime ?? duration
        let invalid = ReelError.invalidTrimTimes(
            start: config.trimStartTime?.seconds, end: config.trimEndTime?.seconds, duration: source.duration)
        guard start >= .zero, end > start else { throw invalid }
        // Allow a millisecond of slack for end times written from rounded durations.
        if source.duration > 0, start >= duration || end > duration + MediaTime(value: 1, timescale: 1000) {
            throw invalid
        }
        let clampedEnd = source.duration > 0 && end > duration ? duration : end
        return ClosedSourceRange(
            start: origin + start, end: origin + clampedEnd,
            needsSeek: start > .zero, endsEarly: config.trimEndTime != nil && clampedEnd < duration)
    }

    /// The source's frame rate (30 when it states none).
    var sourceFrameRate: Double {
        source.primaryVideo?.video.map { $0.frameRate > 0 ? $0.frameRate : 30 } ?? 30
    }

    /// The output's frame rate as the plan will choose it (the source's, or the `fps` limit).
    var outputFrameRate: Double {
        guard let picture = source.primaryVideo?.video else { return 30 }
        let sourceRate = sourceFrameRate
        let target = Double(config.fps)
        return max(sourceRate, picture.baseFrameRate) > target * 1.001 ? min(target, sourceRate) : sourceRate
    }

    /// One output frame.
    private var frameDuration: MediaTime { MediaTime(seconds: 1 / outputFrameRate, timescale: 1_000_000) }

    /// `time` (on the API's timeline) moved to the nearest boundary of the output's frames,
    /// counted from the video's first frame.
    func onFrameGrid(_ time: MediaTime) -> MediaTime {
        let videoStart = source.primaryVideoStreamIndex.flatMap { source.layout?.stream($0)?.startSeconds }
            .map { max($0 - source.startTime, 0) } ?? 0
        let rate = outputFrameRate
        let frames = ((time.seconds - videoStart) * rate).rounded()
        return MediaTime(seconds: max(videoStart + frames / rate, 0), timescale: 1_000_000)
    }

    /// Validated ranges of a list: inside the source, non-empty, not overlapping.
    private func listedRanges(_ ranges: [TimeRange]) throws(ReelError) -> [ClosedSourceRange] {
        guard !ranges.isEmpty else { throw .invalidRanges("the list of ranges is empty") }
        let origin = MediaTime(seconds: source.startTime, timescale: 1_000_000)
        let duration = MediaTime(seconds: source.duration, timescale: 1_000_000)
        // A range may end up to two source frames past the container's duration and then runs
        // to the source's end: times rounded to frames, and analyses saved before AVI pictures
        // were timed by their slots (the decoder alone put them a frame or more late), end there.
        let slack = MediaTime(seconds: max(0.001, 2 / sourceFrameRate), timescale: 1_000_000)
        func text(_ range: TimeRange) -> String {
            String(format: "%.3f-%.3f s", range.start.seconds, range.end.seconds)
        }
        var result: [ClosedSourceRange] = []
        for (index, range) in ranges.enumerated() {
            let name = "range \(index + 1) (\(text(range)))"
            if range.start < .zero { throw .invalidRanges("\(name) starts before the video") }
            if range.isEmpty { throw .invalidRanges("\(name) is empty") }
            if source.duration > 0, range.start >= duration || range.end > duration + slack {
                throw .invalidRanges("\(name) goes beyond the end of the \(String(format: "%.3f s", source.duration)) video")
            }
            for (otherIndex, other) in ranges.enumerated().prefix(index)
            where range.start < other.end && other.start < range.end {
                throw .invalidRanges("\(name) overlaps range \(otherIndex + 1) (\(text(other)))")
            }
            let end = source.duration > 0 && range.end > duration ? duration : range.end
            // Edges on the frame grid: each range lasts whole frames, so the joined output
            // keeps a constant rate with no holes or short frames at the joins.
            var start = onFrameGrid(range.start)
            // Two ranges less than a frame apart must not overlap once on the grid.
            for other in result where other.start - origin <= start && start < other.end - origin { start = other.end - origin }
            var gridEnd = end < duration ? onFrameGrid(end) : end
            if gridEnd <= start { gridEnd = min(start + frameDuration, duration > .zero ? duration : start + frameDuration) }
            result.append(ClosedSourceRange(
                start: origin + start, end: origin + gridEnd,
                needsSeek: range.start > .zero || index > 0, endsEarly: end < duration))
        }
        return result
    }

    /// How the audio track `stream` is encoded.
    func audioSettings(for stream: StreamInfo) throws(ReelError) -> AudioEncoderSettings? {
        guard config.audioBitrate > 0, let sound = stream.audio else { return nil }
        guard let encoder = config.audioCodec.availableEncoder else {
            throw .codecNotSupported(config.audioCodec.rawValue)
        }
        // Opus codes at 48 kHz whatever it is given: anything else is resampled to it.
        let sampleRate = config.audioCodec == .opus ? AudioCodecType.opusSampleRate
            : sound.sampleRate > 0 ? min(config.audioSampleRate, sound.sampleRate) : config.audioSampleRate
        let channels = config.audioChannels ?? min(max(sound.channels, 1), 2)
        var bitRate = config.audioBitrate
        if let sourceRate = stream.bitRate, sourceRate > 0 { bitRate = min(bitRate, max(Int(sourceRate), 32_000)) }
        return AudioEncoderSettings(encoderName: encoder, sampleRate: sampleRate, channels: channels, bitRate: bitRate)
    }

    /// The visible size after `maxLongerDimension`: aspect kept, both sides even, never larger
    /// than the source. A picture made smaller gets square pixels (`decide` follows its scale
    /// with `setsar=1`), sized on the source's displayed aspect: 1280x720 at 758 is 758x426,
    /// not 758x426 with pixels of 1136:1137; an anamorphic source keeps its stored size and
    /// pixel shape unless it is made smaller.
    func targetVisualSize(_ picture: VideoStreamInfo) -> (Int, Int) {
        let stored = (width: Double(picture.visualWidth), height: Double(picture.visualHeight))
        let shown = picture.squarePixelVisualSize
        let limit = config.maxLongerDimension.map(Double.init)
        let base = if let limit, picture.pixelAspectRatio != nil, limit < max(shown.width, shown.height) { shown } else { stored }
        let longer = max(base.width, base.height)
        let side = min(limit ?? longer, longer)
        let scale = side / max(longer, 1)
        func even(_ value: Double) -> Int { max(2, Int(value) / 2 * 2) }
        if base.width >= base.height {
            return (even(side), even((base.height * scale).rounded()))
        }
        return (even((base.width * scale).rounded()), even(side))
    }

    /// How a bit rate scales from the source's pixel rate to a smaller output's: the ratio of
    /// pixel rates to the power 0.75 (1 when the output is not smaller).
    static func pixelRateScale(source: Double, output: Double) -> Double {
        guard source > 0, output > 0, output < source else { return 1 }
        return pow(output / source, 0.75)
    }

    private struct RateChoice {
        var crf: Double?
        var average: Int?
        var max: Int?
    }

    private func rateControl(codec: VideoCodec, video: StreamInfo, picture: VideoStreamInfo,
                             outputPixels: Int, outputRate: Double, content: ContentAdjustment?) -> RateChoice {
        let crf = Self.constantRateFactor(quality: config.videoQuality, codec: codec)
            + (content?.constantRateFactorOffset ?? 0) * codec.rateFactorScale
        guard config.useExplicitBitrate else { return RateChoice(crf: crf) }
        var bitrate = Double(config.videoBitrate) * (content?.bitrateFactor ?? 1)
        let sourceBitrate = Double(video.bitRate ?? 0)
        if config.useAdaptiveBitrate, sourceBitrate > 0 {
            let sourcePixelRate = Double(picture.width * picture.height) * max(picture.frameRate, 1)
            let outputPixelRate = Double(outputPixels) * max(outputRate, 1)
            bitrate = min(bitrate, max(sourceBitrate * outputPixelRate / sourcePixelRate, 100_000))
        }
        // Never bigger than needed: a request above 1.2x what the source spends on the output's
        // picture becomes 0.8x that, but not below a floor (0.005 bits per output pixel, at least
        // 100 kbps): a VBV cap starved to the few kb/s of a nearly black source makes the encoder
        // emit gray frames. What the source spends is its bit rate scaled by the pixel rate to the
        // power 0.75 (smaller pictures need more bits per pixel), when the output is smaller, and
        // by what the output's codec and speed need beside the source's (`SourceRateAllowance`),
        // but never above the source's own rate: a compression does not grow the file.
        let allowance = SourceRateAllowance.factor(sourceCodec: video.codecName, output: codec, speed: config.encoderSpeed)
        let equivalent = min(sourceBitrate * allowance * Self.pixelRateScale(
            source: Double(picture.width * picture.height) * max(picture.frameRate, 1),
            output: Double(outputPixels) * max(outputRate, 1)), sourceBitrate)
        if clampsToSource, equivalent > 0, bitrate > equivalent * 1.2 {
            let floor = max(100_000, 0.005 * Double(outputPixels) * max(outputRate, 1))
            bitrate = max(equivalent * 0.8, min(floor, bitrate))
        }
        let rate = Int(bitrate.rounded())
        switch config.bitrateMode {
        case .cappedQuality: return RateChoice(crf: crf, max: rate)
        case .average: return RateChoice(average: rate)
        }
    }

    /// CRF for `quality` 0...1: H.264 40 - 24 q; HEVC three points higher (x265's scale); AV1
    /// and VP9 on their own 0...63 scales (`VideoCodec.rateFactor(x264:)`).
    static func constantRateFactor(quality: Float, codec: VideoCodec) -> Double {
        let base = 40 - 24 * Double(min(max(quality, 0), 1))
        return codec.rateFactor(x264: base).rounded(toPlaces: 2)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}
