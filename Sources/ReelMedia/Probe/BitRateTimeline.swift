internal import CFFmpeg
import Foundation
import ReelSupport

/// A file's video bit rate over time, from its packets alone (no decoding).
public enum BitRateTimeline {
    /// The primary video stream's bit rate in each `bucket` seconds from the stream's first
    /// packet, in bits per second.
    public static func measure(_ url: URL, bucket: Double = 1) throws(ReelError) -> [Double] {
        try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
            let input = try InputFile(url: url)
            guard let index = input.bestVideoStream, let stream = input.stream(index) else { throw .noVideoStream }
            input.discardStreams(except: [index])
            let timeBase = av_q2d(stream.pointee.time_base)
            let packet = try Packet()
            var bits: [Double] = []
            var origin: Double?
            while try input.read(into: packet) {
                defer { packet.unreference() }
                guard packet.streamIndex == index, let stamp = packet.presentationTimestamp else { continue }
                let time = Double(stamp) * timeBase
                let start = origin ?? time
                origin = start
                let slot = max(Int((time - start) / bucket), 0)
                if slot >= bits.count { bits += [Double](repeating: 0, count: slot - bits.count + 1) }
                bits[slot] += Double(packet.size * 8)
            }
            return bits.map { $0 / bucket }
        }
    }
}
