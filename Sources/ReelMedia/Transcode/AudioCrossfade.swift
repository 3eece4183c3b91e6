internal import CFFmpeg
import ReelSupport

/// The sound side of crossfaded joins, on planar float frames at the output rate: a range's
/// samples from `tailStart` on are kept back (already fading out), and the next range's first
/// samples (fading in) get them added, so the two overlap instead of following each other.
struct AudioCrossfade {
    private(set) var length: Double = 0
    private(set) var tailStart: Double?
    private var rate = 48_000
    private var blendStart: Int64?
    private var collecting: [[Float]] = []
    private var blending: [[Float]] = []

    /// Whether the current range fades in over a previous tail.
    var blendsIn: Bool { blendStart != nil }

    mutating func beginRange(rate: Int, blendStart: Double?, tailStart: Double?, length: Double) {
        self.rate = rate
        self.length = length
        blending = collecting
        collecting = []
        self.blendStart = blendStart.map { Int64(($0 * Double(rate)).rounded()) }
        if self.blendStart == nil { blending = [] }
        self.tailStart = tailStart
    }

    /// Mixes in the previous tail and keeps back this range's tail; returns how many samples at
    /// the start of `frame` still go on to the encoder.
    mutating func process(_ frame: Frame, timeBase: AVRational) throws(MediaFailure) -> Int {
        let count = Int(frame.sampleCount)
        let channels = Int(frame.channelCount)
        guard count > 0, blendStart != nil || tailStart != nil,
              frame.format == AV_SAMPLE_FMT_FLTP.rawValue else { return count }
        let first = av_rescale_q(frame.pts, timeBase, av_make_q(1, Int32(rate)))
        if let blendStart, let tail = blending.first, first < blendStart + Int64(tail.count) {
            // The sink may share its buffers; mixing needs our own copy.
            try check(av_frame_make_writable(frame.pointer), .filter, "av_frame_make_writable")
        }
        guard let planes = frame.pointer.pointee.extended_data else { return count }
        if let blendStart, let tail = blending.first, first < blendStart + Int64(tail.count) {
            for channel in 0..<min(channels, blending.count) {
                guard let plane = planes[channel] else { continue }
                let samples = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
                for index in 0..<count {
                    let position = Int(first - blendStart) + index
                    if position >= 0 && position < blending[channel].count { samples[index] += blending[channel][position] }
                }
            }
        }
        guard let tailStart else { return count }
        let boundary = Int(Int64((tailStart * Double(rate)).rounded()) - first)
        guard boundary < count else { return count }
        let kept = max(boundary, 0)
        if collecting.isEmpty { collecting = Array(repeating: [], count: channels) }
        for channel in 0..<min(channels, collecting.count) {
            guard let plane = planes[channel] else { continue }
            let samples = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            collecting[channel] += UnsafeBufferPointer(start: samples + kept, count: count - kept)
        }
        return kept
    }
}
