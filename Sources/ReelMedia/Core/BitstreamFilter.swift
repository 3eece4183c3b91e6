internal import CFFmpeg
import ReelSupport

/// An owned bitstream filter (`AVBSFContext`) for one stream's packets: packets in, packets out,
/// the payload rewritten without decoding.
final class BitstreamFilter {
    private let context: UnsafeMutablePointer<AVBSFContext>

    /// Opens the filter `name` for packets described by `parameters` in `timeBase`.
    init(name: String, parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(MediaFailure) {
        guard let filter = av_bsf_get_by_name(name) else {
            throw .failed(.mux, "av_bsf_get_by_name", "no bitstream filter \(name) in this FFmpeg build")
        }
        var created: UnsafeMutablePointer<AVBSFContext>?
        try check(av_bsf_alloc(filter, &created), .mux, "av_bsf_alloc")
        context = try allocated(created, "av_bsf_alloc")
        try check(avcodec_parameters_copy(context.pointee.par_in, parameters), .mux, "avcodec_parameters_copy")
        context.pointee.time_base_in = timeBase
        try check(av_bsf_init(context), .mux, "av_bsf_init (\(name))")
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVBSFContext>? = context
        av_bsf_free(&freeing)
    }

    /// The codec parameters of the filtered packets (extradata included).
    var outputParameters: UnsafePointer<AVCodecParameters> { UnsafePointer(context.pointee.par_out) }

    /// The time base of the filtered packets.
    var outputTimeBase: AVRational { context.pointee.time_base_out }

    /// Sends a packet (its payload is taken, the packet left empty); `nil` ends the stream.
    func send(_ packet: Packet?) throws(MediaFailure) {
        try check(av_bsf_send_packet(context, packet?.pointer), .mux, "av_bsf_send_packet")
    }

    /// Drops whatever the filter holds (after a seek).
    func flush() { av_bsf_flush(context) }

    /// Takes the next filtered packet into `packet`; `false` when the filter needs more input
    /// or has nothing left.
    func receive(into packet: Packet) throws(MediaFailure) -> Bool {
        try codecStep(av_bsf_receive_packet(context, packet.pointer), .mux, "av_bsf_receive_packet") == .produced
    }
}
