internal import CFFmpeg
import ReelSupport

/// The source side of a stream copy: the packets of the copied streams as an MP4 or QuickTime
/// file takes them.
///
/// Most packets pass unchanged. MPEG-4 Part 2 goes through `mpeg4_unpack_bframes`, which splits
/// DivX/Xvid packed B frames (a B frame stored in one packet with the frame before it, and an
/// empty placeholder packet after) into one frame per packet, as MP4 and its players expect;
/// read from AVI, it also gets presentation times (`DecodeOrderRetimer`). AAC with ADTS headers
/// (MPEG-TS, raw AAC) goes through `aac_adtstoasc`. After every seek each stream's filters start
/// again, so that nothing held from before the seek comes out after it.
final class CopyPacketReader {
    private let input: InputFile
    private let pipes: [Int: PacketPipe]
    private let order: [Int]
    private var ready: [Packet] = []
    private var atEnd = false
    private var soundRate = CopiedSoundRate()
    /// Per stream, where its sound first declares another sample rate than at its start
    /// (presentation time in the stream's time base) and the two rates; only AAC with ADTS
    /// headers declares it per packet.
    private(set) var rateChanges: [Int: (ticks: Int64, from: Int, to: Int)] = [:]

    /// Reads `streams` of `input`; other streams' packets are skipped.
    init(input: InputFile, streams: [Int]) throws(MediaFailure) {
        self.input = input
        let decodeOrderOnly = input.context.pointee.iformat.map { String(cString: $0.pointee.name) } == "avi"
        var pipes: [Int: PacketPipe] = [:]
        for index in streams {
            guard let stream = input.stream(index), let parameters = stream.pointee.codecpar else { continue }
            pipes[index] = try PacketPipe(streamIndex: index, parameters: parameters, timeBase: stream.pointee.time_base,
                                        decodeOrderOnly: decodeOrderOnly)
        }
        self.pipes = pipes
        order = pipes.keys.sorted()
    }

    /// The codec parameters of stream `index`'s packets as they come out (extradata updated by
    /// the filters), `nil` for a stream not read.
    func parameters(ofStream index: Int) -> UnsafePointer<AVCodecParameters>? {
        pipes[index]?.parameters
    }

    /// Seeks so the next packets start on the keyframe of `videoStream` at or before `seconds`,
    /// and restarts the filters. Demuxers without an index (MPEG-TS) may land after it, between
    /// keyframes or on a later one: then reading starts again from the start of the file (the
    /// caller skips what comes before its range).
    func seek(toSeconds seconds: Double, videoStream: Int) throws(MediaFailure) {
        try input.seek(toSeconds: seconds)
        try restart()
        let timeBase = input.stream(videoStream).map { av_q2d($0.pointee.time_base) } ?? 0
        var held: [Packet] = []
        while let packet = try read() {
            held.append(packet)
            guard packet.streamIndex == videoStream else { continue }
            let onTime = packet.presentationTimestamp.map { Double($0) * timeBase <= seconds + 1e-6 } ?? false
            if packet.isKeyframe && onTime {
                ready = held + ready
                return
            }
            try input.rewind()
            try restart()
            return
        }
        ready = held
    }

    private func restart() throws(MediaFailure) {
        ready = []
        atEnd = false
        for index in order { try pipes[index]?.restart() }
    }

    /// The next packet of a read stream (in its stream's time base), `nil` at the end of the file.
    func read() throws(MediaFailure) -> Packet? {
        while ready.isEmpty {
            if atEnd { return nil }
            let packet = try Packet()
            if try input.read(into: packet) {
                guard let pipe = pipes[packet.streamIndex] else { continue }
                // Read before `aac_adtstoasc` takes the ADTS headers off.
                if rateChanges[packet.streamIndex] == nil, let ticks = packet.presentationTimestamp,
                   let change = soundRate.change(in: packet.bytes, stream: packet.streamIndex) {
                    rateChanges[packet.streamIndex] = (ticks, change.from, change.to)
                }
                ready += try pipe.push(packet)
            } else {
                atEnd = true
                for index in order { ready += try pipes[index]?.push(nil) ?? [] }
            }
        }
        return ready.removeFirst()
    }

    /// Where the source's data ends, when the last read reached the file's end well before the
    /// end its header gives (see `DataEnd.cutShort`).
    func cutShort(readsEveryStream: Bool) -> Double? { input.cutShort(readsEveryStream: readsEveryStream) }
}
