internal import CFFmpeg
import Foundation
import ReelSupport

/// The sound of overlapping joins, on planar float frames at the output rate whose timestamps
/// count samples: a plain cut's short overlap (`AudioJoins`) and a picture crossfade's.
///
/// A range's sound from `tailStart` on is kept back (its tail). The next range's sound, from
/// where the tail starts, is held until it covers the tail, then the two are mixed and passed
/// on: the tail fading out, the new sound fading in, so they overlap instead of following each
/// other. Frames away from joins pass through untouched.
///
/// The fades keep the mix's power steady whatever the two sides are: for unrelated sounds (the
/// usual cut) that is an equal-power fade, for the same sound on both sides (a cut between
/// neighbouring moments) a linear one, which leaves it unchanged. The gains follow the measured
/// correlation `r` of the two sides (clamped to 0...1): with `o = x / 2` for `x` from -1 to 1
/// through the overlap, `e = sqrt((1 - 2 (1 - r) o²) / (2 (1 + r)))`, the incoming gain is
/// `e + o` and the outgoing `e - o`, so `in² + out² + 2 r in out = 1` throughout.
struct AudioCrossfade {
    /// A run of planar samples starting at output sample `start`.
    private struct Samples {
        var start: Int64
        var planes: [[Float]]
        var count: Int { planes.first?.count ?? 0 }
    }

    private var rate: Int32 = 48_000
    private var tailStart: Int64?
    /// The current range's tail, being kept back.
    private var collecting: Samples?
    /// The previous range's tail, mixed under the current range's first samples.
    private var tail: Samples?
    /// The current range's first samples, held until they cover `tail`.
    private var head: Samples?

    /// Starts a range whose sound begins at output sample `blendStart` (mixed under the
    /// previous range's tail when there is one and `blendStart` is set) and is kept back from
    /// `tailStart` on (`nil`: nothing is).
    mutating func beginRange(rate: Int32, blendStart: Int64?, tailStart: Int64?) {
        self.rate = rate
        self.tailStart = tailStart
        tail = nil
        head = nil
        if let blendStart, let previous = collecting, previous.count > 0 {
            tail = previous
            head = Samples(start: blendStart, planes: [])
        } else if let previous = collecting, previous.count > 0 {
            // The range does not overlap the previous one after all: the tail plays as it is.
            pendingTail = previous
        }
        collecting = nil
    }

    /// A tail with no range to mix it under, emitted before the next frame.
    private var pendingTail: Samples?

    /// Takes one frame of the current range (timestamps in output samples) and hands `emit`
    /// what goes on, in order.
    mutating func process(_ frame: Frame, emit: (Frame) throws(MediaFailure) -> Void) throws(MediaFailure) {
        guard frame.sampleCount > 0 else { return }
        if let pending = pendingTail {
            pendingTail = nil
            try emit(try makeFrame(pending))
        }
        guard var held = head, let tail else {
            try pass(frame, emit: emit)
            return
        }
        Self.append(samples(of: frame), to: &held)
        guard held.count >= tail.count else {
            head = held
            return
        }
        head = nil
        self.tail = nil
        let (mixed, rest) = Self.mix(tail, under: held)
        try pass(mixed, emit: emit)
        if rest.count > 0 { try pass(rest, emit: emit) }
    }

    /// Ends the current range: held samples are mixed with the tail as far as they go (the
    /// range ran out of sound early), silence standing in for the rest.
    mutating func endRange(emit: (Frame) throws(MediaFailure) -> Void) throws(MediaFailure) {
        guard var held = head, let tail else { return }
        head = nil
        self.tail = nil
        let channels = max(held.planes.count, tail.planes.count)
        if held.planes.count < channels { held.planes += Array(repeating: [], count: channels - held.planes.count) }
        for channel in held.planes.indices where held.planes[channel].count < tail.count {
            held.planes[channel] += [Float](repeating: 0, count: tail.count - held.planes[channel].count)
        }
        let (mixed, rest) = Self.mix(tail, under: held)
        try pass(mixed, emit: emit)
        if rest.count > 0 { try pass(rest, emit: emit) }
    }

    /// A tail kept back for a range that never came: played after all.
    mutating func finish(emit: (Frame) throws(MediaFailure) -> Void) throws(MediaFailure) {
        for leftover in [pendingTail, collecting].compactMap({ $0 }) where leftover.count > 0 {
            try emit(try makeFrame(leftover))
        }
        pendingTail = nil
        collecting = nil
    }

    // MARK: Splitting at the tail

    /// Emits `frame`, keeping back what lies from `tailStart` on.
    private mutating func pass(_ frame: Frame, emit: (Frame) throws(MediaFailure) -> Void) throws(MediaFailure) {
        let count = Int64(frame.sampleCount)
        guard let tailStart, frame.pts + count > tailStart else {
            try emit(frame)
            return
        }
        let kept = Int(max(tailStart - frame.pts, 0))
        var samples = samples(of: frame)
        let back = Samples(start: frame.pts + Int64(kept), planes: samples.planes.map { Array($0[kept...]) })
        Self.append(back, to: &collecting, start: back.start)
        guard kept > 0 else { return }
        samples.planes = samples.planes.map { Array($0[..<kept]) }
        try emit(try makeFrame(samples))
    }

    /// Emits `samples`, keeping back what lies from `tailStart` on.
    private mutating func pass(_ samples: Samples, emit: (Frame) throws(MediaFailure) -> Void) throws(MediaFailure) {
        try pass(try makeFrame(samples), emit: emit)
    }

    // MARK: Mixing

    /// `tail` fading out under `head`'s first `tail.count` samples fading in, and the rest of
    /// `head`.
    private static func mix(_ tail: Samples, under head: Samples) -> (mixed: Samples, rest: Samples) {
        let length = tail.count
        let channels = head.planes.count
        var numerator = 0.0, tailEnergy = 0.0, headEnergy = 0.0
        for channel in 0..<min(channels, tail.planes.count) {
            for index in 0..<length {
                let a = Double(tail.planes[channel][index]), b = Double(head.planes[channel][index])
                numerator += a * b
                tailEnergy += a * a
                headEnergy += b * b
            }
        }
        let energy = (tailEnergy * headEnergy).squareRoot()
        let correlation = energy > 1e-12 ? min(max(numerator / energy, 0), 1) : 0
        var mixed = Samples(start: head.start, planes: [])
        for channel in 0..<channels {
            let incoming = head.planes[channel]
            let outgoing = channel < tail.planes.count ? tail.planes[channel] : []
            var plane = [Float](repeating: 0, count: length)
            for index in 0..<length {
                let gains = fadeGains(position: (Double(index) + 0.5) / Double(length), correlation: correlation)
                let out = index < outgoing.count ? Double(outgoing[index]) : 0
                plane[index] = Float(gains.out * out + gains.in * Double(incoming[index]))
            }
            mixed.planes.append(plane)
        }
        let rest = Samples(start: head.start + Int64(length), planes: head.planes.map { Array($0[length...]) })
        return (mixed, rest)
    }

    /// The incoming and outgoing gains `position` (0...1) through an overlap of two sounds
    /// whose correlation is `correlation` (0...1).
    static func fadeGains(position: Double, correlation: Double) -> (in: Double, out: Double) {
        let odd = (2 * position - 1) / 2
        let even = max((1 - 2 * (1 - correlation) * odd * odd) / (2 * (1 + correlation)), 0).squareRoot()
        return (even + odd, even - odd)
    }

    // MARK: Samples and frames

    /// Appends `samples` to `run`, at its place on the timeline: a gap is filled with silence,
    /// samples before the run's start are dropped.
    private static func append(_ samples: Samples, to run: inout Samples) {
        if run.planes.count < samples.planes.count {
            run.planes += Array(repeating: [Float](repeating: 0, count: run.count), count: samples.planes.count - run.planes.count)
        }
        let offset = Int(samples.start - run.start)
        let end = run.count
        for channel in run.planes.indices {
            let plane = channel < samples.planes.count ? samples.planes[channel] : []
            if offset > end { run.planes[channel] += [Float](repeating: 0, count: offset - end) }
            let skip = max(end - offset, 0)
            if skip < plane.count { run.planes[channel] += plane[skip...] }
        }
    }

    private static func append(_ samples: Samples, to run: inout Samples?, start: Int64) {
        var existing = run ?? Samples(start: start, planes: [])
        append(samples, to: &existing)
        run = existing
    }

    /// `frame`'s samples (planar float).
    private func samples(of frame: Frame) -> Samples {
        let count = Int(frame.sampleCount)
        var planes: [[Float]] = []
        if let data = frame.pointer.pointee.extended_data {
            for channel in 0..<Int(frame.channelCount) {
                guard let plane = data[channel] else { continue }
                let floats = UnsafeRawPointer(plane).assumingMemoryBound(to: Float.self)
                planes.append(Array(UnsafeBufferPointer(start: floats, count: count)))
            }
        }
        return Samples(start: frame.pts, planes: planes)
    }

    /// A planar float frame holding `samples`.
    private func makeFrame(_ samples: Samples) throws(MediaFailure) -> Frame {
        let frame = try Frame()
        let pointer = frame.pointer
        pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        pointer.pointee.sample_rate = rate
        pointer.pointee.nb_samples = Int32(samples.count)
        av_channel_layout_default(&pointer.pointee.ch_layout, Int32(samples.planes.count))
        try check(av_frame_get_buffer(pointer, 0), .filter, "av_frame_get_buffer")
        if let data = pointer.pointee.extended_data {
            for (channel, plane) in samples.planes.enumerated() {
                guard let target = data[channel] else { continue }
                plane.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { UnsafeMutableRawPointer(target).copyMemory(from: base, byteCount: bytes.count) }
                }
            }
        }
        pointer.pointee.pts = samples.start
        return frame
    }
}
