internal import CFFmpeg
import ReelSupport

/// One stream's packets as a copy or a decoder takes them: its bitstream filter and retimer, if
/// it needs them (`CopyPacketReader` for every copied stream; `Decoder` for MPEG-4 Part 2 read
/// from AVI, whose pictures would otherwise come out one slot late: see `DecodeOrderRetimer`).
final class PacketPipe {
    private let streamIndex: Int
    private let source: UnsafePointer<AVCodecParameters>
    private let timeBase: AVRational
    private let filterName: String?
    private var filter: BitstreamFilter?
    private let retimer: DecodeOrderRetimer?

    init(streamIndex: Int, parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational,
         decodeOrderOnly: Bool) throws(MediaFailure) {
        self.streamIndex = streamIndex
        source = parameters
        self.timeBase = timeBase
        switch parameters.pointee.codec_id {
        case AV_CODEC_ID_MPEG4:
            filterName = "mpeg4_unpack_bframes"
            retimer = decodeOrderOnly ? DecodeOrderRetimer() : nil
        case AV_CODEC_ID_AAC where parameters.pointee.extradata_size == 0:
            filterName = "aac_adtstoasc"
            retimer = nil
        default:
            filterName = nil
            retimer = nil
        }
        try restart()
    }

    /// The codec parameters of the packets this pipe hands out.
    var parameters: UnsafePointer<AVCodecParameters> { filter?.outputParameters ?? source }

    /// Drops whatever is held and opens the filter afresh.
    func restart() throws(MediaFailure) {
        retimer?.reset()
        filter = try filterName.map { name throws(MediaFailure) in
            try BitstreamFilter(name: name, parameters: source, timeBase: timeBase)
        }
    }

    /// Drops whatever is held, keeping the filter open (a decoder's flush after a seek).
    func reset() {
        retimer?.reset()
        filter?.flush()
    }

    /// Takes the stream's next packet (`nil` at the end of the file); returns those ready.
    func push(_ packet: Packet?) throws(MediaFailure) -> [Packet] {
        var filtered: [Packet] = []
        if let filter {
            try filter.send(packet)
            while true {
                let out = try Packet()
                guard try filter.receive(into: out) else { break }
                out.streamIndex = streamIndex
                filtered.append(out)
            }
        } else if let packet {
            filtered = [packet]
        }
        guard let retimer else { return filtered }
        return filtered.flatMap { retimer.push($0) } + (packet == nil ? retimer.flush() : [])
    }
}
