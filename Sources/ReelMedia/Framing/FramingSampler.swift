internal import CFFmpeg
import ReelSupport

/// One picture the framing pass looked at: the frame upright, as a gray picture for the face
/// finder and as a small colour picture for subject and motion cues.
package struct FramingPicture: Sendable {
    /// Presentation time on the file's clock.
    package var time: MediaTime
    /// Upright gray picture, its longer side about the sampler's `faceSize`, on the samples
    /// faces are looked for on (every `faceInterval`, and the first after a cut).
    package var gray: GrayPicture?
    /// Small picture in the stored orientation (turn its cues by `rotation`).
    package var small: SmallPicture
    /// Whether a cut came right before this picture (it starts a new shot).
    package var followsCut: Bool
}

/// Decodes the kept ranges of a video for the virtual camera: every frame gets a change score
/// (for cuts), and one picture every `interval` seconds, plus the first after each cut, is
/// handed over shrunk. The compressor's own decode settings (frame threads) keep it fast.
package struct FramingSampler {
    /// The source, as probed.
    package let source: MediaInfo
    /// Seconds between sampled pictures inside a shot.
    package let interval: Double
    /// Seconds between the gray pictures for faces.
    package let faceInterval: Double
    /// The longer side of the gray pictures (small videos are enlarged up to twice).
    package let faceSize: Int
    /// Polled between packets.
    package let shouldCancel: @Sendable () -> Bool

    /// Creates a sampler.
    package init(source: MediaInfo, interval: Double, faceInterval: Double, faceSize: Int,
                 shouldCancel: @escaping @Sendable () -> Bool) {
        self.source = source
        self.interval = interval
        self.faceInterval = faceInterval
        self.faceSize = faceSize
        self.shouldCancel = shouldCancel
    }

    /// The cuts found and the pictures sampled in `ranges`, in order; `progress` gets the share
    /// of the ranges' duration read. The content measure's `bursts` that lie inside the ranges
    /// are measured on the way (the others are left for `ContentSampler`).
    package func sample(
        _ ranges: [ClosedSourceRange], bursts: ContentBursts? = nil, progress: (Double) -> Void,
        each: (FramingPicture) -> Void
    ) throws(MediaFailure) -> (cuts: [MediaTime], bursts: ContentBursts?) {
        guard let videoIndex = source.primaryVideoStreamIndex else { throw .noVideoStream }
        let input = try InputFile.reopen(source, keeping: [videoIndex])
        let decoder = try Decoder(input: input, streamIndex: videoIndex)
        decoder.timesUntimedFrames = true
        let rotation = source.primaryVideo?.video?.rotation ?? 0
        let total = max(ranges.map { ($0.end - $0.start).seconds }.reduce(0, +), 1e-3)
        var done = 0.0
        var cuts: [MediaTime] = []
        let seek = RangeSeek(input: input, videoStream: videoIndex,
                             checksFirstPicture: source.layout?.stream(videoIndex)?.isH264 == true)
        var scalers: (small: Downscaler, gray: Downscaler)?
        let frame = try Frame()
        let reading = try Packet()
        let recorder = bursts.map(ContentBurstRecorder.init)
        for (position, range) in ranges.enumerated() {
            var burstsAhead = recorder.map { recorder in
                recorder.bursts.missing.filter { range.start.seconds <= recorder.bursts.times[$0] && recorder.bursts.times[$0] < range.end.seconds }
            } ?? []
            var pending = position > 0 || range.needsSeek ? try seek.packets(forRangeAt: range.start.seconds) : []
            if position == 0 && !range.needsSeek { try input.rewind() }
            decoder.flushBuffers()
            var tracker = CutTracker()
            var previousTime: MediaTime?
            var nextSample = range.start.seconds
            var nextFaces = range.start.seconds
            var finished = false
            func take(_ frame: Frame) throws(MediaFailure) -> Bool {
                guard let time = decoder.time(of: frame) else { return true }
                if time >= range.end { finished = true; return false }
                guard time >= range.start, !frame.isDamaged else { return true }
                if let recorder { try Self.measure(frame, at: time.seconds, into: recorder, ahead: &burstsAhead) }
                let verdict = tracker.verdict(after: LumaGrid(frame: frame.pointer, patch: 8))
                defer { previousTime = time }
                if verdict == .previousWasCut, let previousTime { cuts.append(previousTime) }
                if verdict == .cut { cuts.append(time) }
                // A cut found a picture late still gets this picture looked at, as the new shot's first.
                let cut = verdict != .none
                guard cut || time.seconds >= nextSample - 1e-6 else { return true }
                nextSample = time.seconds + interval
                let made: (small: Downscaler, gray: Downscaler)
                if let scalers { made = scalers } else { made = try Self.scalers(for: frame, faceSize: faceSize) }
                scalers = made
                let small = try made.small.shrink(frame, time: time)
                var gray: GrayPicture?
                if cut || time.seconds >= nextFaces - 1e-6 {
                    nextFaces = time.seconds + faceInterval
                    gray = try made.gray.shrinkLuma(frame).rotated(clockwise: rotation)
                }
                each(FramingPicture(time: time, gray: gray, small: small, followsCut: cut))
                progress(min((done + time.seconds - range.start.seconds) / total, 1))
                return true
            }
            while !finished {
                if shouldCancel() { throw .cancelled }
                let packet: Packet
                if pending.isEmpty {
                    guard try input.read(into: reading) else { break }
                    packet = reading
                } else {
                    packet = pending.removeFirst()
                }
                defer { packet.unreference() }
                guard packet.streamIndex == videoIndex else { continue }
                _ = try decoder.decode(packet, into: frame, take)
            }
            if !finished { _ = try decoder.decode(nil, into: frame, take) }
            // A burst cut off by the range's end is measured where the source reads on.
            recorder?.close(keepingPartial: false)
            done += (range.end - range.start).seconds
        }
        return (cuts, recorder?.bursts)
    }

    /// Hands `frame` to the open burst, and opens the next of `ahead` whose time it has reached
    /// (the picture that completes one burst may be the first of the next).
    private static func measure(
        _ frame: Frame, at seconds: Double, into recorder: ContentBurstRecorder, ahead: inout [Int]
    ) throws(MediaFailure) {
        if recorder.isOpen, try recorder.take(frame) { return }
        while let next = ahead.first, seconds + 0.001 >= recorder.bursts.times[next] {
            ahead.removeFirst()
            recorder.begin(next)
            if try recorder.take(frame) { return }
        }
    }

    private static func scalers(for frame: Frame, faceSize: Int) throws(MediaFailure) -> (small: Downscaler, gray: Downscaler) {
        let width = Int(frame.width), height = Int(frame.height)
        let small = 128.0 / Double(max(width, height, 1))
        return (try Downscaler(width: max(Int(Double(width) * small) / 2 * 2, 2), height: max(Int(Double(height) * small) / 2 * 2, 2)),
                try Downscaler(facePictureOf: frame, longerSide: faceSize))
    }
}
