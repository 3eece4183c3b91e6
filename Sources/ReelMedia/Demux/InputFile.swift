internal import CFFmpeg
import Foundation
import Synchronization
import ReelSupport

/// An open demuxer (`AVFormatContext`) for one source file.
final class InputFile {
    let url: URL
    let context: UnsafeMutablePointer<AVFormatContext>

    /// Opens `url`. With `probing` off, the streams are what the container header declares
    /// (no frames are decoded to complete them): enough for a second reader of a file that was
    /// already probed, and much cheaper.
    init(url: URL, probing: Bool = true) throws(MediaFailure) {
        FFmpegLogging.silence()
        self.url = url
        var opened: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&opened, url.path, nil, nil), .demux, "avformat_open_input")
        guard let opened else { throw .ffmpeg(.demux, "avformat_open_input", code: reel_averror_invaliddata()) }
        context = opened
        guard probing else { return }
        Self.probes.withLock { $0[url.path, default: 0] += 1 }
        let found = avformat_find_stream_info(context, nil)
        // Every stored property is set, so throwing runs deinit, which closes the context;
        // closing it here too freed it twice (found by `make fuzz`).
        if found < 0 { throw .ffmpeg(.demux, "avformat_find_stream_info", code: found) }
    }

    /// How many times each file was probed (`avformat_find_stream_info`), so tests can check
    /// that a job probes its source once.
    static let probes = Mutex<[String: Int]>([:])

    /// How many packets were read from each file, summed as each reader closes, so tests can
    /// check that a file is read once where once is enough.
    static let packetsRead = Mutex<[String: Int]>([:])
    private var packetCount = 0

    deinit {
        if packetCount > 0 { Self.packetsRead.withLock { [url, packetCount] in $0[url.path, default: 0] += packetCount } }
        var closing: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&closing)
    }

    var streamCount: Int { Int(context.pointee.nb_streams) }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < streamCount, let streams = context.pointee.streams else { return nil }
        return streams[index]
    }

    /// FFmpeg's choice of best stream of a type, optionally related to another stream.
    func bestStream(_ type: AVMediaType, relatedTo related: Int? = nil) -> Int? {
        let index = av_find_best_stream(context, type, -1, Int32(related ?? -1), nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// FFmpeg's choice of video stream, if the file has one.
    var bestVideoStream: Int? { bestStream(AVMEDIA_TYPE_VIDEO) }

    /// Reads the next packet into `packet`; `false` at the end of the file. Formats whose
    /// timestamps may jump (MPEG-TS) are read on one continuous clock.
    func read(into packet: Packet) throws(MediaFailure) -> Bool {
        let result = av_read_frame(context, packet.pointer)
        if result == reel_averror_eof() {
            dataRead.reachedEndOfFile = true
            return false
        }
        if result < 0, packetCount > 0, let io = context.pointee.pb, avio_feof(io) != 0 {
            // The data stops inside a packet the index promises (an MP4 whose download or copy
            // was interrupted): its end, as the ffmpeg CLI takes it.
            endedInsidePacket = true
            dataRead.reachedEndOfFile = true
            return false
        }
        try check(result, .demux, "av_read_frame")
        packetCount += 1
        if allowsDiscontinuities, let stream = stream(packet.streamIndex) {
            discontinuity.correct(packet.pointer, timeBase: stream.pointee.time_base)
        }
        dataRead.note(packet, in: self)
        return true
    }

    /// Whether reading stopped because the file's data ended inside a packet its index promises.
    private(set) var endedInsidePacket = false

    /// The latest end of a packet read (of the streams kept), and whether reading since the
    /// last seek met the file's end: the one record every reader of this file asks
    /// (`DataEnd.cutShort`).
    private(set) var dataRead = DataEnd()

    /// Where the data ends, when reading since the last seek met the file's end well before
    /// the end the header gives (see `DataEnd.cutShort`).
    func cutShort(readsEveryStream: Bool) -> Double? { dataRead.cutShort(self, readsEveryStream: readsEveryStream) }

    /// Whether reading since the last seek closed a timestamp jump.
    var hasJoinedTimestampJumps: Bool { discontinuity.hasJoinedJumps }

    /// Whether the format allows timestamp jumps (`AVFMT_TS_DISCONT`).
    var allowsDiscontinuities: Bool {
        (context.pointee.iformat?.pointee.flags ?? 0) & AVFMT_TS_DISCONT != 0
    }

    private var discontinuity = TimestampDiscontinuity()

    /// Set when probing found the timestamps jumping (joined HLS segments): a time then means
    /// different places in the file, and only reading from the start puts them on one clock.
    var readsForwardOnly = false

    /// Whether a time can be sought: raw elementary streams (.h264, .hevc) carry no timestamps,
    /// and files whose timestamps jump (`readsForwardOnly`) repeat them, so both are read
    /// forward from their start instead.
    var seeksByTime: Bool {
        guard !readsForwardOnly, let format = context.pointee.iformat?.pointee else { return !readsForwardOnly }
        let rawWithoutSeeking = format.raw_codec_id != 0 && format.read_seek == nil && format.read_seek2 == nil
        return format.flags & AVFMT_NOTIMESTAMPS == 0 && !rawWithoutSeeking
    }

    /// Seeks so the next packets start at or before `seconds` (a keyframe at or before it); a
    /// stream that cannot seek by time (`seeksByTime`) goes back to its start, which is before.
    func seek(toSeconds seconds: Double) throws(MediaFailure) {
        guard seeksByTime else { return try rewind() }
        discontinuity.reset()
        dataRead.reachedEndOfFile = false
        let target = Int64(seconds * Double(AV_TIME_BASE))
        try check(avformat_seek_file(context, -1, Int64.min, target, target, 0), .demux, "avformat_seek_file")
    }

    /// Goes back to the first packet. MPEG-TS and -PS, and raw streams, go back by byte
    /// position: a time seek there lands near the start, not at it (and an MPEG-TS whose only
    /// keyframe comes after its container start cannot be reached by time). Everything else
    /// seeks by time: Matroska, AVI and ASF accept a byte seek yet read on from where they were.
    /// The time seek goes forward to the first keyframe at or after the start: a Matroska file
    /// whose sound starts before its picture, its cues not read yet, has no keyframe at or before
    /// the start, and a backward seek there "succeeds" at the file's end.
    func rewind() throws(MediaFailure) {
        discontinuity.reset()
        dataRead.reachedEndOfFile = false
        if allowsDiscontinuities || !seeksByTime {
            let byBytes = avformat_seek_file(context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE)
            if byBytes >= 0 { return }
            guard seeksByTime else {
                try check(byBytes, .demux, "avformat_seek_file (to the start)")
                return
            }
        }
        let start = context.pointee.start_time == reel_nopts_value() ? 0 : context.pointee.start_time
        if avformat_seek_file(context, -1, start, start, Int64.max, 0) >= 0 { return }
        // Formats that cannot seek by time (FLV without an index) read on from the first byte.
        try check(avformat_seek_file(context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE), .demux, "avformat_seek_file (to the start)")
    }

    /// Seeks stream `index` to the last keyframe at or before `timestamp` (in the stream's time base).
    func seek(stream index: Int, toTimestamp timestamp: Int64) throws(MediaFailure) {
        discontinuity.reset()
        dataRead.reachedEndOfFile = false
        try check(avformat_seek_file(context, Int32(index), Int64.min, timestamp, timestamp, 0), .demux, "avformat_seek_file")
    }

    /// The time (seconds on the file's clock, by decode timestamp) of the last keyframe at or
    /// before `seconds` in stream `index`, as the container's index has it; `nil` when the file
    /// has no index there (raw streams), so only a seek can tell. MPEG program and transport
    /// streams have no index of their own: the entries FFmpeg notes while seeking them are not
    /// all keyframes, so they count as none.
    func indexedKeyframe(stream index: Int, atOrBefore seconds: Double) -> Double? {
        guard seeksByTime, !allowsDiscontinuities, let stream = stream(index), avformat_index_get_entries_count(stream) > 0 else { return nil }
        let base = stream.pointee.time_base
        let wanted = Int64((seconds / av_q2d(base)).rounded(.down))
        guard let entry = avformat_index_get_entry_from_timestamp(stream, wanted, AVSEEK_FLAG_BACKWARD),
              entry.pointee.timestamp != reel_nopts_value() else { return nil }
        return Double(entry.pointee.timestamp) * av_q2d(base)
    }

    /// How far a decode goes on rather than seeking, in a file without an index: a seek there
    /// lands only near its time (MPEG-TS), and may have to try again earlier.
    static let reachWithoutIndex = 2.0

    /// Whether a decode of stream `index` that has handed over the picture at `reached` gets to
    /// `seconds` more cheaply by going on than by seeking: the index puts the keyframe a seek
    /// would land on at or before `reached`; without an index, `seconds` is near; a stream that
    /// cannot seek at all would be read again from its start. `reachWithoutIndex` widens
    /// "near" (a previous seek had to start that far back).
    func decodeGoesOn(stream index: Int, from reached: Double, to seconds: Double, reachWithoutIndex: Double = 0) -> Bool {
        guard reached <= seconds + 1e-6 else { return false }
        guard seeksByTime else { return true }
        if let keyframe = indexedKeyframe(stream: index, atOrBefore: seconds) { return keyframe <= reached }
        return seconds - reached <= max(Self.reachWithoutIndex, reachWithoutIndex)
    }

    /// Makes the demuxer skip every stream but `kept`, so their packets are never read.
    func discardStreams(except kept: Set<Int>) {
        for index in 0..<streamCount where !kept.contains(index) {
            stream(index)?.pointee.discard = AVDISCARD_ALL
        }
    }

    /// The file's size in bytes, 0 when unknown.
    var fileSize: Int64 { context.pointee.pb.map { max(avio_size($0), 0) } ?? 0 }

    /// Container duration in seconds, 0 when unknown.
    var durationSeconds: Double {
        let duration = context.pointee.duration
        return duration > 0 ? Double(duration) / Double(AV_TIME_BASE) : 0
    }

    /// Container start time in seconds, 0 when unknown.
    var startSeconds: Double {
        let start = context.pointee.start_time
        return start == reel_nopts_value() ? 0 : Double(start) / Double(AV_TIME_BASE)
    }

    /// The stream's duration in seconds when known, else the container's.
    func durationSeconds(ofStream index: Int) -> Double {
        guard let stream = stream(index) else { return durationSeconds }
        let duration = stream.pointee.duration
        if duration > 0, duration != reel_nopts_value() {
            return Double(duration) * av_q2d(stream.pointee.time_base)
        }
        return durationSeconds
    }

    /// The clockwise display rotation (0, 90, 180, 270) of a video stream's display matrix.
    func rotation(ofStream index: Int) -> Int {
        guard let stream = stream(index),
              let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil)
        else { return 0 }
        let matrix = UnsafeRawPointer(data).assumingMemoryBound(to: Int32.self)
        let counterClockwise = av_display_rotation_get(matrix)
        guard counterClockwise.isFinite else { return 0 }
        let clockwise = Int((-counterClockwise).rounded()) % 360
        let normalized = (clockwise + 360) % 360
        return (normalized + 45) / 90 * 90 % 360
    }

    /// The HDR static metadata a stream declares in its side data, if any.
    func hdrMetadata(ofStream index: Int) -> HDRMetadata? {
        guard let stream = stream(index) else { return nil }
        let mastering = av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, nil)
        let light = av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, nil)
        return HDRSideData.metadata(
            mastering: mastering.map { UnsafeRawPointer($0).assumingMemoryBound(to: AVMasteringDisplayMetadata.self) },
            contentLight: light.map { UnsafeRawPointer($0).assumingMemoryBound(to: AVContentLightMetadata.self) })
    }
}
