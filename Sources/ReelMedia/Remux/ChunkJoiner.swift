internal import CFFmpeg
import Foundation
import ReelSupport

/// What one encoded chunk holds, read back packet by packet: what joining needs to trust it.
package struct ChunkFileFacts: Sendable, Equatable {
    /// Video packets (one per picture).
    package var videoFrames: Int
    /// Whether the first picture in decode order is a keyframe (an IDR for H.264 and HEVC).
    package var startsWithKeyframe: Bool
    /// The earliest presentation time, in seconds (0 for a chunk as `encode-chunk` writes it).
    package var firstPresentation: Double
    /// The end of the last picture, in seconds.
    package var end: Double
    /// The video codec's name (`h264`, `hevc`).
    package var codecName: String
    package var width: Int
    package var height: Int
    /// SHA-256 of the codec headers (SPS/PPS...): chunks joined into one stream must share them.
    package var headerHash: String

    /// Reads the facts of the chunk file at `url`.
    package static func read(_ url: URL) throws(MediaFailure) -> ChunkFileFacts {
        let input = try InputFile(url: url)
        guard let index = input.bestVideoStream, let stream = input.stream(index),
              let parameters = stream.pointee.codecpar else {
            throw .failed(.demux, "video stream", "the chunk has no video stream")
        }
        input.discardStreams(except: [index])
        let timeBase = av_q2d(stream.pointee.time_base)
        let header = parameters.pointee.extradata.map {
            Data(bytes: $0, count: Int(parameters.pointee.extradata_size))
        } ?? Data()
        var facts = ChunkFileFacts(
            videoFrames: 0, startsWithKeyframe: false, firstPresentation: .infinity, end: 0,
            codecName: avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown",
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height),
            headerHash: FileFingerprint.sha256(header))
        let packet = try Packet()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            guard packet.streamIndex == index, let pts = packet.presentationTimestamp else { continue }
            if facts.videoFrames == 0 { facts.startsWithKeyframe = packet.isKeyframe }
            facts.videoFrames += 1
            facts.firstPresentation = min(facts.firstPresentation, Double(pts) * timeBase)
            facts.end = max(facts.end, Double(pts + max(packet.duration, 0)) * timeBase)
        }
        if facts.videoFrames == 0 { facts.firstPresentation = 0 }
        return facts
    }
}

/// Joins separately encoded chunks of one video, by stream copy, into one file: each chunk's
/// pictures move to its place on the output timeline, and the sound encoded once for the whole
/// timeline is interleaved beside them.
package struct ChunkJoiner {
    /// The chunk files, in output order.
    package var chunks: [URL]
    /// Where each chunk starts on the output timeline.
    package var offsets: [MediaTime]
    /// How far the first chunk's pictures, as read back, sit from where they were planned: an
    /// MP4 whose video starts after 0 shows it through an edit list counted in the movie's
    /// milliseconds (0.041708 s becomes 0.041 s), so a single encode's pictures all move by
    /// that rounding. Later chunks start at 0 and move by the same amount to match.
    package var firstChunkDrift: MediaTime = .zero
    /// The audio job's file, when the output has sound or text subtitles.
    package var audio: URL?
    package var outputPath: String
    /// Muxer name: `mp4` or `mov`.
    package var formatName: String
    let shouldCancel: () -> Bool
    let progress: (Double) -> Void

    /// Creates the value from every field.
    package init(
        chunks: [URL], offsets: [MediaTime], audio: URL?, outputPath: String, formatName: String,
        shouldCancel: @escaping () -> Bool, progress: @escaping (Double) -> Void
    ) {
        self.chunks = chunks
        self.offsets = offsets
        self.audio = audio
        self.outputPath = outputPath
        self.formatName = formatName
        self.shouldCancel = shouldCancel
        self.progress = progress
    }

    /// Writes the joined file; returns the video packets written.
    package func run() throws(MediaFailure) -> Int {
        guard let firstURL = chunks.first, offsets.count == chunks.count else {
            throw .failed(.mux, "join", "no chunks to join")
        }
        let first = try InputFile(url: firstURL)
        guard let videoIndex = first.bestVideoStream, let videoStream = first.stream(videoIndex) else {
            throw .failed(.demux, "video stream", "the first chunk has no video stream")
        }
        let output = try OutputFile(path: outputPath, formatName: formatName)
        let videoOut = try output.addStream(copying: videoStream)
        output.copyStreamMetadata(from: videoStream, to: videoOut)
        output.copyMetadata(from: first)
        let sound = try audio.map { url throws(MediaFailure) in try AudioPacketSource(url: url, output: output) }
        try output.writeHeader(fastStart: true)

        var lastDts: Int64?
        var written = 0
        for (position, url) in chunks.enumerated() {
            let input = position == 0 ? first : try InputFile(url: url)
            guard let index = input.bestVideoStream, let stream = input.stream(index) else {
                throw .failed(.demux, "video stream", "chunk \(position) has no video stream")
            }
            input.discardStreams(except: [index])
            let timeBase = stream.pointee.time_base
            let offset = position == 0 ? offsets[position] : offsets[position] + firstChunkDrift
            let shift = av_rescale_q(offset.value, av_make_q(1, offset.timescale), timeBase)
            let packet = try Packet()
            while try input.read(into: packet) {
                if shouldCancel() { throw .cancelled }
                guard packet.streamIndex == index else {
                    packet.unreference()
                    continue
                }
                if let pts = packet.pts { packet.pts = pts + shift }
                if let decodeTime = packet.dts {
                    var dts = decodeTime + shift
                    let outputBase = output.timeBase(ofStream: videoOut)
                    if let previous = lastDts, av_rescale_q(dts, timeBase, outputBase) <= previous {
                        dts = av_rescale_q(previous + 1, outputBase, timeBase)
                    }
                    packet.dts = dts
                    if let pts = packet.pts, pts < dts { packet.pts = dts }
                    lastDts = av_rescale_q(dts, timeBase, outputBase)
                    try sound?.write(upTo: Double(dts) * av_q2d(timeBase))
                }
                packet.position = -1
                try output.write(packet, streamIndex: videoOut, from: timeBase)
                written += 1
            }
            progress(Double(position + 1) / Double(chunks.count))
        }
        try sound?.write(upTo: .infinity)
        try output.finish()
        return written
    }
}

/// The audio job's packets (every audio and subtitle track of its file), handed to the output as the video's
/// decode time passes theirs so the muxer's interleaving queue stays short.
private final class AudioPacketSource {
    private let input: InputFile
    /// Output stream and time base of each of the file's audio and subtitle streams.
    private var streams: [Int: (output: Int, timeBase: AVRational, text: Bool)] = [:]
    private let output: OutputFile
    private let packet: Packet
    private var waiting = false
    private var finished = false

    init(url: URL, output: OutputFile) throws(MediaFailure) {
        input = try InputFile(url: url)
        for index in 0..<input.streamCount {
            guard let stream = input.stream(index), let type = stream.pointee.codecpar?.pointee.codec_type,
                  type == AVMEDIA_TYPE_AUDIO || type == AVMEDIA_TYPE_SUBTITLE else { continue }
            let added = try output.addStream(copying: stream)
            output.copyStreamMetadata(from: stream, to: added)
            streams[index] = (added, stream.pointee.time_base, type == AVMEDIA_TYPE_SUBTITLE)
        }
        guard !streams.isEmpty else { throw .failed(.demux, "audio stream", "the audio file has no audio or subtitle stream") }
        input.discardStreams(except: Set(streams.keys))
        self.output = output
        packet = try Packet()
    }

    /// Writes every audio and subtitle packet whose decode time is at or before `seconds`.
    func write(upTo seconds: Double) throws(MediaFailure) {
        while !finished {
            if !waiting {
                guard try input.read(into: packet) else {
                    finished = true
                    return
                }
                guard streams[packet.streamIndex] != nil else {
                    packet.unreference()
                    continue
                }
                waiting = true
            }
            guard let stream = streams[packet.streamIndex] else { return }
            let time = (packet.dts ?? packet.pts).map { Double($0) * av_q2d(stream.timeBase) } ?? 0
            if time > seconds { return }
            waiting = false
            // The empty samples the MP4 muxer put between subtitles (a bare 2-byte length):
            // the output's muxer puts its own, and copies would double them.
            if stream.text && packet.size <= 2 {
                packet.unreference()
                continue
            }
            packet.position = -1
            try output.write(packet, streamIndex: stream.output, from: stream.timeBase)
        }
    }
}
