internal import CFFmpeg
import Foundation
import ReelSupport

/// One kept range of the source and where it starts on an output's timeline.
package struct PlacedRange: Sendable {
    package var source: ClosedSourceRange
    /// Seconds from the output's first picture.
    package var outputStart: Double

    package init(source: ClosedSourceRange, outputStart: Double) {
        self.source = source
        self.outputStart = outputStart
    }
}

/// Measures an encode against the source ranges it was made from, in-process with libavfilter's
/// `ssim` or `psnr` filter, streaming: the encode and the source are decoded side by side, each
/// encoded picture is paired with the source picture on screen at its time, brought to the
/// encode's picture by `referenceFilter` (scale, rotation, format), so memory stays flat however
/// long the video is. It measures a target-quality job's samples and its finished outputs.
package enum QualityMeter {
    /// How far an output picture's time may fall short of its source picture's: Matroska and
    /// WebM keep milliseconds, so a 24 fps picture at 83.33 ms is stamped 83 ms and would
    /// otherwise be paired with the picture before it.
    static let timestampSlack = 0.001

    /// The value of `metric` for every picture of `encoded`'s video, with its time in seconds
    /// from the first picture. `placed` lists the source ranges in output order (no crossfades).
    /// `referenceFilter` brings a source picture to the encode's size and format (e.g.
    /// `scale=1280:720:flags=bicubic,format=yuv420p`).
    package static func measure(
        encoded: URL, source: MediaInfo, streamIndex: Int, placed: [PlacedRange],
        referenceFilter: String, metric: QualityMetric, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> [(time: Double, value: Double)] {
        let microseconds = av_make_q(1, 1_000_000)
        let reference = try SourcePictures(source: source, streamIndex: streamIndex)
        let output = try InputFile(url: encoded)
        guard let outputIndex = output.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .noVideoStream }
        let outputDecoder = try Decoder(input: output, streamIndex: outputIndex)
        var comparison: Comparison?
        var values: [(time: Double, value: Double)] = []
        var origin: Int64?
        var rangeIndex = -1
        try outputDecoder.forEachFrame(in: output, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            guard let stamp = frame.presentationTimestamp else { return true }
            let time = av_rescale_q(stamp, outputDecoder.timeBase, microseconds)
            if origin == nil, let first = placed.first {
                // The output's first picture is the source's first of the range, as late after
                // the range's start as the source has it (a file whose sound starts 25 ms before
                // its picture keeps that 25 ms): pairing it with the range's start put every
                // picture beside the one before it.
                try reference.begin(first.source, continuing: false)
                rangeIndex = 0
                let lead = try reference.picture(at: first.source.start.seconds).flatMap { reference.time(of: $0) }
                    .map { max($0 - first.source.start.seconds, 0) } ?? 0
                origin = time - Int64((lead * 1_000_000).rounded())
            }
            let start = origin ?? time
            let seconds = Double(time - start) / 1_000_000
            let index = placed.lastIndex { $0.outputStart <= seconds + timestampSlack } ?? 0
            guard placed.indices.contains(index) else { return false }
            if index != rangeIndex {
                try reference.begin(placed[index].source, continuing: rangeIndex >= 0 && !placed[index].source.needsSeek)
                rangeIndex = index
            }
            let sourceSeconds = placed[index].source.start.seconds + seconds - placed[index].outputStart
            guard let picture = try reference.picture(at: sourceSeconds) else { return false }
            let compare: Comparison
            if let comparison {
                compare = comparison
            } else {
                compare = try Comparison(distorted: frame, reference: picture, referenceFilter: referenceFilter, metric: metric)
                comparison = compare
            }
            picture.pts = time - start
            frame.pts = time - start
            try compare.graph.pushReference(picture)
            try compare.graph.pushDistorted(frame)
            values += try compare.pull()
            return true
        }
        if let comparison {
            try comparison.graph.pushReference(nil)
            try comparison.graph.pushDistorted(nil)
            values += try comparison.pull()
        }
        return values
    }

    /// The value of `metric` for every picture of `encoded`, an encode of `range` of `source`
    /// alone (its first picture at the range's start): a target-quality sample.
    package static func measure(
        encoded: URL, source: MediaInfo, streamIndex: Int, range: ClosedSourceRange,
        referenceFilter: String, metric: QualityMetric, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> [Double] {
        try measure(encoded: encoded, source: source, streamIndex: streamIndex,
                    placed: [PlacedRange(source: range, outputStart: 0)], referenceFilter: referenceFilter,
                    metric: metric, shouldCancel: shouldCancel).map(\.value)
    }

    /// The graph of one measurement, made for its first pair of pictures.
    private final class Comparison {
        let graph: ComparisonGraph
        private let metric: QualityMetric
        private let result: Frame

        init(distorted: Frame, reference: Frame, referenceFilter: String, metric: QualityMetric) throws(MediaFailure) {
            let microseconds = av_make_q(1, 1_000_000)
            graph = try ComparisonGraph(
                distorted: FilterGraph.videoSourceArguments(for: distorted, timeBase: microseconds),
                reference: FilterGraph.videoSourceArguments(for: reference, timeBase: microseconds),
                description: "[d]format=yuv420p[d1];[r]\(referenceFilter)[r1];[d1][r1]\(metric.rawValue)=eof_action=endall:shortest=1")
            self.metric = metric
            result = try Frame()
        }

        /// The values the graph has ready, each with its picture's time (pts in microseconds,
        /// as seconds).
        func pull() throws(MediaFailure) -> [(time: Double, value: Double)] {
            var values: [(time: Double, value: Double)] = []
            while try graph.pull(into: result) == .produced {
                defer { result.unreference() }
                if let entry = av_dict_get(result.pointer.pointee.metadata, metric.frameMetadataKey, nil, 0),
                   let text = entry.pointee.value, let value = Double(String(cString: text)) {
                    values.append((Double(result.pts) / 1_000_000, value))
                }
            }
            return values
        }
    }

    /// The source's pictures read forward, one held on screen and one looked ahead.
    private final class SourcePictures {
        private let input: InputFile
        private let decoder: Decoder
        private let packet: Packet
        private let scratch: Frame
        private var queue: [Frame] = []
        private var ended = false
        private var onScreen: Frame?

        init(source: MediaInfo, streamIndex: Int) throws(MediaFailure) {
            input = try InputFile.reopen(source, keeping: [streamIndex])
            decoder = try Decoder(input: input, streamIndex: streamIndex)
            packet = try Packet()
            scratch = try Frame()
        }

        /// The presentation time of one of the source's pictures, seconds on the file's clock.
        func time(of picture: Frame) -> Double? { decoder.time(of: picture)?.seconds }

        /// Starts reading `range`: seeks to it unless it follows on from where reading stands.
        func begin(_ range: ClosedSourceRange, continuing: Bool) throws(MediaFailure) {
            guard !continuing else { return }
            if range.needsSeek {
                try input.seek(toSeconds: range.start.seconds)
            } else {
                try input.rewind()
            }
            decoder.flushBuffers()
            queue.removeAll()
            onScreen = nil
            ended = false
        }

        /// The picture on screen at `seconds` (the last starting at or before it; the first
        /// one read when none does), or `nil` when the stream has no picture left.
        func picture(at seconds: Double) throws(MediaFailure) -> Frame? {
            while true {
                if queue.isEmpty && !ended { try readMore() }
                guard let next = queue.first else { return onScreen }
                let time = decoder.time(of: next)?.seconds ?? -.infinity
                if time > seconds + QualityMeter.timestampSlack, onScreen != nil { return onScreen }
                onScreen = queue.removeFirst()
            }
        }

        private func readMore() throws(MediaFailure) {
            while queue.isEmpty {
                guard try input.read(into: packet) else {
                    try decoder.decode(nil, into: scratch) { frame throws(MediaFailure) in
                        queue.append(try frame.movedOut())
                        return true
                    }
                    ended = true
                    return
                }
                defer { packet.unreference() }
                guard packet.streamIndex == decoder.streamIndex else { continue }
                try decoder.decode(packet, into: scratch) { frame throws(MediaFailure) in
                    queue.append(try frame.movedOut())
                    return true
                }
            }
        }
    }
}
