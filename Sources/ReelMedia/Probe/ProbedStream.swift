internal import CFFmpeg
import Foundation
import ReelSupport

/// How one stream is laid out in its file, as probing found it: enough to open the file again
/// without probing and to know its timing without asking the demuxer again.
package struct ProbedStream: Sendable, Equatable {
    /// The stream's file.
    package let url: URL
    /// Its index in the file.
    package let index: Int
    /// FFmpeg's codec id.
    let codec: UInt32
    /// FFmpeg's media type.
    let type: Int32
    /// Its time base (seconds per timestamp tick), `num/den`.
    let timeBaseNumerator: Int32
    let timeBaseDenominator: Int32
    /// The average (or, failing that, the real base) frame rate, `0/0` when unknown.
    let frameRateNumerator: Int32
    let frameRateDenominator: Int32
    /// The first timestamp, in the stream's time base, when known.
    package let startTimestamp: Int64?
    /// The stream's length in its time base, when the container states it.
    package let durationTimestamps: Int64?
    /// Whether the file's timestamps jump (an MPEG-TS of joined HLS segments): its times are
    /// only known read from the start, on the joined clock, so it is never sought by time.
    package var timestampsJump = false

    /// Whether the codec is H.264 (where skipping B frames can be exact).
    package var isH264: Bool { codec == AV_CODEC_ID_H264.rawValue }

    var timeBase: AVRational { AVRational(num: timeBaseNumerator, den: timeBaseDenominator) }
    var frameRate: AVRational { AVRational(num: frameRateNumerator, den: frameRateDenominator) }

    /// The stream's first timestamp in seconds (0 when unknown).
    package var startSeconds: Double {
        startTimestamp.map { Double($0) * av_q2d(timeBase) } ?? 0
    }

    /// The average frame rate in frames per second, 0 when unknown.
    package var framesPerSecond: Double {
        frameRateNumerator > 0 && frameRateDenominator > 0 ? av_q2d(frameRate) : 0
    }

    /// Describes stream `index` of an input that was probed.
    init?(_ input: InputFile, index: Int) {
        guard let stream = input.stream(index)?.pointee, let parameters = stream.codecpar?.pointee else { return nil }
        let rate = stream.avg_frame_rate.num > 0 ? stream.avg_frame_rate : stream.r_frame_rate
        url = input.url
        self.index = index
        codec = parameters.codec_id.rawValue
        type = parameters.codec_type.rawValue
        timeBaseNumerator = stream.time_base.num
        timeBaseDenominator = stream.time_base.den
        frameRateNumerator = rate.num
        frameRateDenominator = rate.den
        startTimestamp = stream.start_time == reel_nopts_value() ? nil : stream.start_time
        durationTimestamps = stream.duration > 0 && stream.duration != reel_nopts_value() ? stream.duration : nil
    }

    /// Whether `stream`, opened without probing, is this stream as probing described it: the
    /// same codec and time base (enough for a decoder, which reads the rest from the
    /// bitstream), and with `complete`, also its picture size or sample rate and channels
    /// (a stream copy passes the header's parameters on as they are).
    func matches(_ stream: UnsafeMutablePointer<AVStream>, complete: Bool = false) -> Bool {
        guard let parameters = stream.pointee.codecpar?.pointee else { return false }
        let same = parameters.codec_id.rawValue == codec && parameters.codec_type.rawValue == type
            && stream.pointee.time_base.num == timeBaseNumerator && stream.pointee.time_base.den == timeBaseDenominator
        guard same, complete else { return same }
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: return parameters.width > 0 && parameters.height > 0
        case AVMEDIA_TYPE_AUDIO: return parameters.sample_rate > 0 && parameters.ch_layout.nb_channels > 0
        default: return true
        }
    }
}

/// Every stream of a probed file, by index: the facts later readers of the file reuse.
package struct ProbedLayout: Sendable, Equatable {
    /// The streams, in file order.
    package var streams: [ProbedStream]
    /// The container's start, in seconds.
    package var containerStart: Double
    /// The container's duration in seconds, 0 when unknown.
    package var containerDuration: Double
    /// Whether the timestamps jump somewhere in the file (see `ProbedStream.timestampsJump`).
    package var timestampsJump = false {
        didSet { for position in streams.indices { streams[position].timestampsJump = timestampsJump } }
    }

    /// Stream `index`, if the file has it.
    package func stream(_ index: Int) -> ProbedStream? {
        streams.first { $0.index == index }
    }

    /// Stream `index`'s length in seconds when the container states it, else the container's.
    package func durationSeconds(ofStream index: Int) -> Double {
        guard !timestampsJump, let stream = stream(index), let length = stream.durationTimestamps else { return containerDuration }
        return Double(length) * av_q2d(stream.timeBase)
    }

    /// Where stream `index` ends, in its time base: its start plus its length, or the
    /// container's duration; `nil` when neither is known.
    package func endTimestamp(ofStream index: Int) -> Int64? {
        guard let stream = stream(index) else { return nil }
        let start = stream.startTimestamp ?? 0
        if !timestampsJump, let length = stream.durationTimestamps { return start + length }
        guard containerDuration > 0 else { return nil }
        return start + av_rescale_q(Int64(containerDuration * Double(AV_TIME_BASE)), reel_time_base_q(), stream.timeBase)
    }
}

extension InputFile {
    /// The layout of this (probed) input.
    var layout: ProbedLayout {
        ProbedLayout(
            streams: (0..<streamCount).compactMap { ProbedStream(self, index: $0) },
            containerStart: startSeconds, containerDuration: durationSeconds)
    }

    /// Opens `url` again for reading the streams in `kept` (the demuxer skips the others).
    /// Without probing when the container's header alone describes each kept stream as
    /// `layout` does (MP4, MOV, Matroska do); with a probe otherwise (MPEG-TS and raw
    /// streams, whose headers lack what the decoders need).
    static func reopen(
        _ url: URL, layout: ProbedLayout?, keeping kept: Set<Int>, complete: Bool = false
    ) throws(MediaFailure) -> InputFile {
        var input: InputFile?
        if let layout {
            let quick = try InputFile(url: url, probing: false)
            let matches = kept.allSatisfy { index in
                guard let probed = layout.stream(index), let stream = quick.stream(index) else { return false }
                return probed.matches(stream, complete: complete)
            }
            if matches { input = quick }
        }
        let opened: InputFile
        if let input {
            opened = input
        } else {
            opened = try InputFile(url: url)
        }
        opened.discardStreams(except: kept)
        opened.readsForwardOnly = layout?.timestampsJump ?? false
        return opened
    }

    /// Opens the file of `probed` again for another reader of that stream alone.
    static func reopen(_ probed: ProbedStream) throws(MediaFailure) -> InputFile {
        let quick = try InputFile(url: probed.url, probing: false)
        let input = quick.stream(probed.index).map { probed.matches($0) } == true ? quick : try InputFile(url: probed.url)
        input.discardStreams(except: [probed.index])
        input.readsForwardOnly = probed.timestampsJump
        return input
    }
}
