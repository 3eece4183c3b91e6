import Foundation
import ReelFrameReduction
import ReelSupport

/// Everything the transcoder needs, decided up front by the compressor: plain Sendable values.
package struct TranscodePlan: Sendable {
    /// The source, as the job probed it.
    var source: MediaInfo
    /// Where the muxer writes (a temporary name; the caller renames on success).
    var outputPath: String
    /// Muxer name: `mp4` or `mov`.
    var formatName: String
    /// The source video stream to encode.
    var videoStreamIndex: Int
    /// The source times to encode, in order, joined end to end in the output (one range when
    /// the whole source or a single trim is kept).
    var ranges: [ClosedSourceRange]
    /// libavfilter chain between decoder and video encoder (denoise, rotate, scale, format).
    var videoFilter: String
    /// Video encoder choices.
    var video: VideoEncoderSettings
    /// Clockwise rotation to write as a display matrix (0 when the pixels were rotated).
    var outputRotation: Int
    /// HDR metadata to carry (from the stream, or the first frame when `nil` and present there).
    var hdr: HDRMetadata?
    /// Whether to carry HDR metadata found on frames when the stream declares none.
    var carryFrameHDR: Bool
    /// The source audio tracks to encode, in output order (empty: no audio).
    package var audioTracks: [AudioTrackPlan]
    /// The source text subtitle streams to carry as `mov_text`, in output order.
    var subtitleStreamIndices: [Int]
    /// Move the index to the front of the file.
    var fastStart: Bool
    /// Seconds of crossfade at each join between ranges (0: cut, the sound overlapping
    /// briefly: `AudioJoins`).
    var crossfade: Double = 0
    /// Joins that cut even with a crossfade, each numbered by the range before it (a reel
    /// dissolves only its joins that would be jump cuts). Empty: every join may dissolve.
    package var cutJoins: Set<Int> = []
    /// Whether the picture's `edgeFade` applies at the output's start and at its end (a chunk
    /// of a chunked encode fades only where the whole output does).
    package var pictureFadeEnds: (start: Bool, end: Bool) = (true, true)
    /// Seconds of fade from black and silence at the output's start and back to them at its
    /// end (0: none).
    package var edgeFade: Double = 0
    /// The virtual camera: each source frame is cropped to its window before `videoFilter`
    /// (or, in fitted shots, goes whole through `framing.fitFilter`); `nil` keeps the frame.
    package var framing: FramingPlan?
    /// Which decoded frames to keep.
    var reducer: any VideoFrameReducer
    /// Target frame rate for frame reduction; `nil` keeps every frame.
    var targetFrameRate: Double?
    /// Constant rate factors by output time, each from its start on and beginning a closed
    /// group of pictures there (per-shot quality); empty keeps `video`'s one rate throughout.
    package var rateSchedule: [RateChange] = []
    /// Whether the source's container and stream tags (creation time, title, location,
    /// languages, handler names) go into the output.
    var keepsMetadata: Bool

    /// Creates the value from every field.
    package init(
        source: MediaInfo,
        outputPath: String,
        formatName: String,
        videoStreamIndex: Int,
        ranges: [ClosedSourceRange],
        videoFilter: String,
        video: VideoEncoderSettings,
        outputRotation: Int,
        hdr: HDRMetadata?,
        carryFrameHDR: Bool,
        audioTracks: [AudioTrackPlan],
        subtitleStreamIndices: [Int] = [],
        fastStart: Bool,
        crossfade: Double = 0,
        reducer: any VideoFrameReducer,
        targetFrameRate: Double?,
        keepsMetadata: Bool = true
    ) {
        self.keepsMetadata = keepsMetadata
        self.source = source
        self.outputPath = outputPath
        self.formatName = formatName
        self.videoStreamIndex = videoStreamIndex
        self.ranges = ranges
        self.videoFilter = videoFilter
        self.video = video
        self.outputRotation = outputRotation
        self.hdr = hdr
        self.carryFrameHDR = carryFrameHDR
        self.audioTracks = audioTracks
        self.subtitleStreamIndices = subtitleStreamIndices
        self.fastStart = fastStart
        self.crossfade = crossfade
        self.reducer = reducer
        self.targetFrameRate = targetFrameRate
    }
}

extension TranscodePlan {
    /// The first pass of a two-pass encode: the video alone, to FFmpeg's null muxer, the
    /// encoder writing its statistics to `statsPath`.
    package func firstPass(statsPath: String) -> TranscodePlan {
        var plan = self
        plan.audioTracks = []
        plan.subtitleStreamIndices = []
        plan.keepsMetadata = false
        plan.formatName = "null"
        plan.outputPath = "-"
        plan.fastStart = false
        plan.video.twoPass = (1, statsPath)
        return plan
    }

    /// The second pass: this plan at `averageBitRate`, the encoder reading `statsPath`.
    package func secondPass(statsPath: String, averageBitRate: Int) -> TranscodePlan {
        var plan = self
        plan.video.twoPass = (2, statsPath)
        plan.video.averageBitRate = averageBitRate
        return plan
    }

    /// This plan at `averageBitRate` in one pass (encoders without a statistics file).
    package func onePass(averageBitRate: Int) -> TranscodePlan {
        var plan = self
        plan.video.averageBitRate = averageBitRate
        return plan
    }

    /// Whether the video encoder does two passes with a statistics file (x264, x265, libvpx).
    package var encodesInTwoPasses: Bool { video.encodesInTwoPasses }

    /// The video's average bit rate, when the plan has one.
    package var averageVideoBitRate: Int? { video.averageBitRate }
    /// The video's constant rate factor, when it has one.
    package var constantRateFactor: Double? { video.constantRateFactor }
    /// The output's frame rate.
    package var frameRate: Double { video.frameRate }
    /// The picture as the plan's filter makes it, without denoising: what an encode of this
    /// plan is compared with.
    package var referenceFilter: String {
        let kept = videoFilter.split(separator: ",").filter { !$0.hasPrefix("hqdn3d") }.joined(separator: ",")
        guard let fades = pictureFadeFilter(videoEnd: videoEnd) else { return kept }
        return kept.isEmpty ? fades : fades + "," + kept
    }
    /// This plan with per-shot rate factors.
    package func scheduling(_ changes: [RateChange]) -> TranscodePlan {
        var plan = self
        plan.rateSchedule = changes
        if let first = changes.first { plan.video.constantRateFactor = first.constantRateFactor }
        return plan
    }
    /// This plan for a sample: `ranges` only, at `crf`, into `path`, video alone.
    package func sample(_ ranges: [ClosedSourceRange], crf: Double, path: String) -> TranscodePlan {
        var plan = self
        plan.ranges = ranges
        plan.video.constantRateFactor = crf
        plan.video.maxBitRate = nil
        plan.video.bufferSize = nil
        plan.video.averageBitRate = nil
        plan.audioTracks = []
        plan.subtitleStreamIndices = []
        plan.keepsMetadata = false
        plan.outputPath = path
        plan.fastStart = false
        plan.crossfade = 0
        plan.edgeFade = 0
        return plan
    }

    /// The video's bit rate cap, when the plan has one.
    package var maximumVideoBitRate: Int? { video.maxBitRate }
}

/// A source time span, `[start, end)`; `end` is the source's end when not trimmed.
package struct ClosedSourceRange: Sendable, Equatable {
    package var start: MediaTime
    package var end: MediaTime
    /// Whether `start` is past the first frame (a seek is needed).
    package var needsSeek: Bool
    /// Whether `end` is before the source end (stop early).
    package var endsEarly: Bool

    /// Creates the value from every field.
    package init(
        start: MediaTime,
        end: MediaTime,
        needsSeek: Bool,
        endsEarly: Bool
    ) {
        self.start = start
        self.end = end
        self.needsSeek = needsSeek
        self.endsEarly = endsEarly
    }
}

/// A constant rate factor from an output time on.
package struct RateChange: Sendable, Equatable {
    /// Seconds on the output's timeline.
    package var start: Double
    package var constantRateFactor: Double
    /// Whether the picture at `start` opens a closed group of pictures (a shot of its own).
    package var forcesKeyframe: Bool

    /// Creates the value from every field.
    package init(start: Double, constantRateFactor: Double, forcesKeyframe: Bool = true) {
        self.start = start
        self.constantRateFactor = constantRateFactor
        self.forcesKeyframe = forcesKeyframe
    }
}

/// One source audio track and how it is encoded.
package struct AudioTrackPlan: Sendable, Equatable {
    /// The source stream.
    package var streamIndex: Int
    package var settings: AudioEncoderSettings
    /// The loudness change of its normalisation, when it is normalised.
    package var loudness: LoudnessAdjustment?

    /// Creates the value from every field.
    package init(streamIndex: Int, settings: AudioEncoderSettings, loudness: LoudnessAdjustment? = nil) {
        self.streamIndex = streamIndex
        self.settings = settings
        self.loudness = loudness
    }
}

/// Audio encoder choices.
package struct AudioEncoderSettings: Sendable, Equatable {
    var encoderName: String
    var sampleRate: Int
    var channels: Int
    package var bitRate: Int

    /// Creates the value from every field.
    package init(
        encoderName: String,
        sampleRate: Int,
        channels: Int,
        bitRate: Int
    ) {
        self.encoderName = encoderName
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate
    }
}

/// Counts gathered while transcoding.
package struct TranscodeStatistics: Sendable, Equatable {
    /// Source frames on screen inside the kept ranges (before any frame-rate reduction).
    package var framesDecoded = 0
    package var framesEncoded = 0
    package var audioFramesEncoded = 0
    /// Source packets (video and audio) the decoders rejected as corrupt and skipped.
    package var corruptPackets = 0
    /// Decoded source pictures the decoder flagged as damaged (it concealed the errors).
    package var damagedFrames = 0
    /// Decoded pictures timed at or before the picture before them (dropped).
    package var framesOutOfOrder = 0
    /// Where the source's data ends (seconds on the file's clock), when reading reached it well
    /// before the end its header gives: a file cut short. `nil` when whole.
    package var sourceDataEnd: Double?
    package var encodedWidth = 0
    package var encodedHeight = 0

    /// No counts yet.
    package init() {}
}

extension TranscodePlan {
    /// Whether the join after range `position`, which lasts `duration` seconds, dissolves: a
    /// crossfade is set, the join is not one of `cutJoins`, and the range lasts more than twice
    /// the crossfade (a shorter one would be all fade). The one rule of the picture's tails, the
    /// sound's placements and the output's length.
    package static func dissolves(afterRange position: Int, of count: Int, duration: Double, crossfade: Double,
                                  cutJoins: Set<Int>) -> Bool {
        position < count - 1 && crossfade > 0 && !cutJoins.contains(position) && duration > 2 * crossfade
    }

    /// `dissolves(afterRange:of:duration:crossfade:cutJoins:)` with this plan's ranges and joins.
    func dissolves(afterRange position: Int, duration: Double) -> Bool {
        Self.dissolves(afterRange: position, of: ranges.count, duration: duration, crossfade: crossfade, cutJoins: cutJoins)
    }
}
