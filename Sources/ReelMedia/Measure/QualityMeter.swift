internal import CFFmpeg
import Foundation
import ReelSupport

/// Measures an encode against its source in-process with libavfilter's `ssim` or `psnr`
/// filter: the source's pictures of the encoded range are brought to the encode's picture
/// (`referenceFilter`: scale, rotation, format) and paired with the encode's by time.
package enum QualityMeter {
    /// The per-frame values of `metric` for the video of `encoded`, which holds `range` of
    /// `source` (its first picture at 0). `referenceFilter` brings a source picture to the
    /// encode's size and format (e.g. `scale=1280:720:flags=bicubic,format=yuv420p`).
    package static func measure(
        encoded: URL, source: MediaInfo, streamIndex: Int, range: ClosedSourceRange,
        referenceFilter: String, metric: QualityMetric, shouldCancel: () -> Bool
    ) throws(MediaFailure) -> [Double] {
        let microseconds = av_make_q(1, 1_000_000)
        var comparison: Comparison?
        // The reference first: its pictures wait in the graph until the encode's arrive.
        var references: [(Frame, Int64)] = []
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        let decoder = try Decoder(input: input, streamIndex: streamIndex)
        if range.needsSeek { try input.seek(toSeconds: range.start.seconds) }
        let start = range.start.seconds
        // The picture on screen at the range's start opens the encode (it is shown from there).
        var onScreen: Frame?
        try decoder.forEachFrame(in: input, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            guard let time = decoder.time(of: frame)?.seconds else { return true }
            if range.endsEarly && time >= range.end.seconds - 1e-6 { return false }
            let copy = try Frame()
            guard av_frame_ref(copy.pointer, frame.pointer) >= 0 else { throw .outOfMemory(operation: "av_frame_ref") }
            guard time >= start - 1e-6 else {
                onScreen = copy
                return true
            }
            if references.isEmpty, time > start + 1e-6, let onScreen { references.append((onScreen, 0)) }
            references.append((copy, Int64(((time - start) * 1_000_000).rounded())))
            return true
        }
        let output = try InputFile(url: encoded)
        guard let outputIndex = output.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .noVideoStream }
        let outputDecoder = try Decoder(input: output, streamIndex: outputIndex)
        var values: [Double] = []
        var firstStamp: Int64?
        try outputDecoder.forEachFrame(in: output, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            guard let stamp = frame.presentationTimestamp else { return true }
            let time = av_rescale_q(stamp, outputDecoder.timeBase, microseconds)
            let origin = firstStamp ?? time
            firstStamp = origin
            let compare = try comparison.orMakeComparison(
                distorted: frame, reference: references.first?.0, referenceFilter: referenceFilter, metric: metric)
            if !compare.referencesPushed {
                for (picture, at) in references {
                    picture.pts = at
                    try compare.graph.pushReference(picture)
                }
                try compare.graph.pushReference(nil)
                compare.referencesPushed = true
                references.removeAll()
            }
            frame.pts = time - origin
            try compare.graph.pushDistorted(frame)
            values += try compare.pull(metric)
            return true
        }
        if let comparison {
            try comparison.graph.pushDistorted(nil)
            values += try comparison.pull(metric)
        }
        return values
    }

    /// The graph of one measurement and whether the reference has gone in.
    final class Comparison {
        let graph: ComparisonGraph
        var referencesPushed = false
        private let result: Frame

        init(graph: ComparisonGraph) throws(MediaFailure) {
            self.graph = graph
            result = try Frame()
        }

        /// The values the graph has ready.
        func pull(_ metric: QualityMetric) throws(MediaFailure) -> [Double] {
            try pullTimed(metric).map(\.value)
        }

        /// The values the graph has ready, each with its picture's time (pts in microseconds,
        /// as seconds).
        func pullTimed(_ metric: QualityMetric) throws(MediaFailure) -> [(time: Double, value: Double)] {
            var values: [(time: Double, value: Double)] = []
            let key = metric.frameMetadataKey
            while try graph.pull(into: result) == .produced {
                defer { result.unreference() }
                if let entry = av_dict_get(result.pointer.pointee.metadata, key, nil, 0), let text = entry.pointee.value,
                   let value = Double(String(cString: text)) {
                    values.append((Double(result.pts) / 1_000_000, value))
                }
            }
            return values
        }
    }
}

extension Optional where Wrapped == QualityMeter.Comparison {
    /// The comparison, made for the first pair of pictures when there is none yet.
    mutating func orMakeComparison(
        distorted: Frame, reference: Frame?, referenceFilter: String, metric: QualityMetric
    ) throws(MediaFailure) -> QualityMeter.Comparison {
        if let existing = self { return existing }
        guard let reference else { throw .failed(.filter, "quality", "no source picture in the measured range") }
        let microseconds = av_make_q(1, 1_000_000)
        let graph = try ComparisonGraph(
            distorted: FilterGraph.videoSourceArguments(for: distorted, timeBase: microseconds),
            reference: FilterGraph.videoSourceArguments(for: reference, timeBase: microseconds),
            description: "[d]format=yuv420p[d1];[r]\(referenceFilter)[r1];[d1][r1]\(metric.rawValue)=eof_action=endall:shortest=1")
        let made = try QualityMeter.Comparison(graph: graph)
        self = made
        return made
    }
}
