internal import CFFmpeg
import Foundation
import ReelSupport

/// Motion and detail measured on real pixels of a few frames spread over the source.
public struct ContentProfile: Sendable, Equatable, Codable {
    /// Mean luma change between consecutive frames, 0 (static) to 1.
    public var motion: Double
    /// Mean neighbouring-pixel luma difference, 0 (flat) to 1: texture and sharp edges.
    public var detail: Double
    /// How many frame pairs were measured.
    public var samples: Int
}

/// Decodes short bursts of frames at evenly spaced positions and measures them.
package enum ContentSampler {
    /// Measures `positions` bursts of two consecutive frames between `start` and `end` seconds.
    package static func measure(
        source: MediaInfo, streamIndex: Int, start: Double, end: Double, positions: Int = 6,
        shouldCancel: () -> Bool
    ) throws(MediaFailure) -> ContentProfile {
        let input = try InputFile.reopen(source, keeping: [streamIndex])
        let decoder = try Decoder(input: input, streamIndex: streamIndex, cheap: true)
        var motions: [Double] = []
        var details: [Double] = []
        let span = max(end - start, 0)
        for position in 0..<positions {
            if shouldCancel() { throw .cancelled }
            let time = start + span * (Double(position) + 0.5) / Double(positions)
            try input.seek(toSeconds: time)
            decoder.flushBuffers()
            var previous: LumaGrid?
            var pairFound = false
            try decoder.forEachFrame(in: input, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
                if let pts = decoder.time(of: frame), pts.seconds + 0.001 < time { return true }
                guard let grid = LumaGrid(frame: frame.pointer) else { return true }
                if let previous {
                    motions.append(grid.lumaDifference(to: previous))
                    details.append((grid.detail + previous.detail) / 2)
                    pairFound = true
                    return false
                }
                previous = grid
                return true
            }
            if !pairFound, let previous { details.append(previous.detail) }
        }
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        return ContentProfile(motion: mean(motions), detail: mean(details), samples: motions.count)
    }
}
