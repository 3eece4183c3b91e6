internal import CFFmpeg
import Foundation
import ReelSupport

/// Decodes an audio stream to mono float samples at `AnalysisReader.audioSampleRate`.
final class MonoAudioDecoder {
    private let decoder: Decoder
    private var graph: FilterGraph?
    /// The decoded sound's shape `graph` was made for (a change mid-stream makes a new one).
    private var graphShape: SoundShape?
    private let decoded: Frame
    private let filtered: Frame
    /// The presentation time of the first decoded frame (the first sample handed on), once known.
    private(set) var firstTime: MediaTime?

    init(input: InputFile, streamIndex: Int) throws(MediaFailure) {
        decoder = try Decoder(input: input, streamIndex: streamIndex)
        decoded = try Frame()
        filtered = try Frame()
    }

    /// Decodes a packet (`nil` flushes) and hands the resampled mono samples to `sink`.
    func decode(_ packet: Packet?, into sink: ([Float]) -> Void) throws(MediaFailure) {
        try decoder.decode(packet, into: decoded) { frame throws(MediaFailure) in
            if firstTime == nil { firstTime = decoder.time(of: frame) }
            let shape = SoundShape(frame)
            if let graph, shape != graphShape {
                try graph.push(nil)
                try pull(graph, sink)
                self.graph = nil
            }
            graphShape = shape
            let graph = try self.graph.orMake { () throws(MediaFailure) in try makeGraph(for: frame) }
            try graph.push(frame)
            try pull(graph, sink)
            return true
        }
        if packet == nil, let graph {
            try graph.push(nil)
            try pull(graph, sink)
        }
    }

    private func pull(_ graph: FilterGraph, _ sink: ([Float]) -> Void) throws(MediaFailure) {
        while try graph.pull(into: filtered) == .produced {
            defer { filtered.unreference() }
            let count = Int(filtered.sampleCount)
            guard count > 0, let data = filtered.plane(0)?.data else { continue }
            let samples = UnsafeRawPointer(data).assumingMemoryBound(to: Float.self)
            sink(Array(UnsafeBufferPointer(start: samples, count: count)))
        }
    }

    private func makeGraph(for frame: Frame) throws(MediaFailure) -> FilterGraph {
        let source = FilterGraph.audioSourceArguments(for: frame, timeBase: decoder.timeBase)
        return try FilterGraph(
            isVideo: false, sourceArguments: source,
            description: "aresample=\(AnalysisReader.audioSampleRate),aformat=sample_fmts=flt:channel_layouts=mono",
            threads: 1)
    }
}

extension MonoAudioDecoder {
    /// Decodes the whole audio stream `stream` on its own demuxer (the other streams are not
    /// even read) and hands the mono samples to `sink` in order. Returns the time of the first
    /// sample (its frame's presentation time on the file's clock), when the stream gave one.
    @discardableResult
    static func decodeAll(_ stream: ProbedStream, shouldStop: () -> Bool, into sink: ([Float]) -> Void) throws(MediaFailure) -> MediaTime? {
        let streamIndex = stream.index
        let input = try InputFile.reopen(stream)
        let decoder = try MonoAudioDecoder(input: input, streamIndex: streamIndex)
        let packet = try Packet()
        while try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldStop() { throw .cancelled }
            guard packet.streamIndex == streamIndex else { continue }
            try decoder.decode(packet, into: sink)
        }
        try decoder.decode(nil, into: sink)
        return decoder.firstTime
    }
}
