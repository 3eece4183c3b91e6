internal import CFFmpeg
import Foundation
import ReelSupport

/// Divides the timeline into equal slots; analysis measures the first decoded frame of each.
package struct SampleClock: Sendable {
    let start: Double
    let rate: Double

    /// Creates the value from every field.
    package init(
        start: Double,
        rate: Double
    ) {
        self.start = start
        self.rate = rate
    }

    package func slot(of time: MediaTime) -> Int { Int(((time.seconds - start) * rate).rounded(.down)) }
}

/// Which samples also get a larger, upright gray picture for face detection: every
/// `everySlots` slots, and the first sample after each cut.
package struct FacePictureSampling: Sendable, Equatable {
    /// The gray picture's longer side in pixels.
    package var size: Int
    /// One face picture every this many sampling slots.
    package var everySlots: Int
    /// The video's clockwise display rotation, undone so faces stand upright.
    package var rotation: Int

    /// Creates the sampling.
    package init(size: Int, everySlots: Int, rotation: Int) {
        self.size = size
        self.everySlots = everySlots
        self.rotation = rotation
    }
}

/// Receives the sampled pictures of one chunk, in time order, from one thread at a time.
package protocol AnalysisPictureSink: AnyObject, Sendable {
    func consume(_ picture: SmallPicture)
    /// Forgets every picture, before the chunk is decoded again.
    func reset()
}

/// The per-frame change scores of one chunk. The first frame's change is measured against
/// the previous chunk's last frame once both are known.
struct ChunkChanges: Sendable {
    var times: [MediaTime] = []
    var changes: [Double] = []
    var firstGrid: LumaGrid?
    var lastGrid: LumaGrid?
    /// Decoded frames the decoder flagged as damaged (a reference was missing or corrupt).
    var damagedFrames = 0
    /// Pictures handed to the sink: sampling slots that got a decoded frame.
    var sampledPictures = 0
    /// Whether some frames had no timestamp and were timed by counting.
    var hasUntimedFrames = false
    /// The latest end (time plus duration, seconds on the file's clock) of a packet read.
    var packetEnd = 0.0

    /// Whether the chunk's decode saw enough intact frames for analysis: a picture in at least
    /// 80% of the sampling slots, and no frame damaged by a skipped reference.
    func isSufficient(forSeconds seconds: Double, sampleRate: Double) -> Bool {
        guard damagedFrames == 0, !hasUntimedFrames else { return false }
        return Double(sampledPictures) >= (seconds * sampleRate * 0.8).rounded(.down)
    }
}

/// One decoder on its own demuxer that decodes chunks of the video stream for analysis.
final class AnalysisVideoWorker {
    private var input: InputFile
    private let stream: ProbedStream
    private let decoder: Decoder
    private let downscaler: Downscaler
    private let faceSampling: FacePictureSampling?
    private var faceScaler: Downscaler?
    private let videoIndex: Int
    private let frame: Frame
    private let packet: Packet
    /// One frame's duration in the stream's time base, at its nominal frame rate.
    private let ticksPerFrame: Int64
    private var used = false

    /// A worker on its own demuxer for the video stream `stream`.
    init(stream: ProbedStream, threads: Int32, width: Int, height: Int, faces: FacePictureSampling? = nil) throws(MediaFailure) {
        faceSampling = faces
        let videoIndex = stream.index
        input = try InputFile.reopen(stream)
        self.stream = stream
        decoder = try Decoder(input: input, streamIndex: videoIndex, cheap: true, threads: threads)
        downscaler = try Downscaler(width: width, height: height)
        self.videoIndex = videoIndex
        let rate = stream.frameRate.num > 0 ? stream.frameRate : AVRational(num: 30, den: 1)
        let timeBase = decoder.timeBase
        ticksPerFrame = rate.num > 0 && timeBase.num > 0
            ? max(Int64(timeBase.den) * Int64(rate.den) / (Int64(timeBase.num) * Int64(rate.num)), 1) : 1
        frame = try Frame()
        packet = try Packet()
    }

    /// Decodes `chunk`, leaving out the frames `skipping` allows. Every decoded frame gets a
    /// change score against the previous one (a grid of patch means, no scaling), and the first
    /// frame of each `clock` slot is shrunk for `sink`. `advanced` receives the time reached,
    /// in seconds.
    func read(
        _ chunk: AnalysisChunk, skipping: FrameSkipping, clock: SampleClock, sink: some AnalysisPictureSink,
        shouldStop: () -> Bool, advanced: (Double) -> Void
    ) throws(MediaFailure) -> ChunkChanges {
        let seekTarget: Int64?
        switch chunk.leadIn {
        case .none: seekTarget = chunk.start
        case .keyframe(let earlier): seekTarget = earlier
        case .fileStart: seekTarget = nil
        }
        if let seekTarget {
            try input.seek(stream: videoIndex, toTimestamp: seekTarget)
            decoder.flushBuffers()
        } else if used {
            // Back to the beginning on a fresh demuxer: files without an index may not seek.
            input = try InputFile.reopen(stream)
            decoder.flushBuffers()
        }
        used = true
        // A missing reference is concealed without a flag on the frame and only logged (a false
        // entry point): with one decoding thread (several chunks) the log is the decoder's own.
        decoder.countLoggedErrors()
        decoder.setSkipFrames(skipping.discard)
        let stopsAtNextKeyframe = skipping == .bidirectional
        var result = ChunkChanges()
        var lastSlot: Int?
        // Faces are searched on the first sample of every shot as well as every few slots.
        var cuts = CutTracker()
        var followsCut = false
        var checkedStart = false
        var lastPTS: Int64 = 0
        var lookahead = SkippedFrameLookahead()
        var finished = false
        func take(_ frame: Frame) throws(MediaFailure) -> Bool {
            // Raw elementary streams carry no timestamps: count frames at the nominal rate
            // (right only when no frame is skipped, so the chunk is decoded again in full).
            if frame.presentationTimestamp == nil { result.hasUntimedFrames = true }
            guard let pts = frame.presentationTimestamp ?? result.times.last.map({ _ in lastPTS + ticksPerFrame })
                    ?? (chunk.start == nil ? 0 : nil) else { return true }
            lastPTS = pts
            // Leading frames of an open GOP before the chunk's keyframe belong to the previous chunk.
            if let start = chunk.start, pts < start { return true }
            if let end = chunk.end, pts >= end {
                finished = true
                return false
            }
            let time = decoder.time(ofTimestamp: pts)
            // A damaged picture (a reference missing or corrupt) must not reach the features.
            if frame.isDamaged || decoder.loggedErrors > 0 {
                result.damagedFrames += 1
                return true
            }
            if let grid = LumaGrid(frame: frame.pointer, patch: AnalysisReader.changePatch) {
                result.times.append(time)
                let change = result.lastGrid.map { grid.difference(to: $0) }
                result.changes.append(change ?? 0)
                if let change, cuts.isCut(change: change) { followsCut = true }
                if result.firstGrid == nil { result.firstGrid = grid }
                result.lastGrid = grid
            }
            let slot = clock.slot(of: time)
            guard slot != lastSlot else { return true }
            lastSlot = slot
            var picture = try downscaler.shrink(frame, time: time)
            if let faceSampling, followsCut || slot % max(faceSampling.everySlots, 1) == 0 {
                picture.faceLuma = try facePicture(frame, sampling: faceSampling)
            }
            followsCut = false
            sink.consume(picture)
            result.sampledPictures += 1
            advanced(time.seconds)
            return true
        }
        while !finished, try input.read(into: packet) {
            defer { packet.unreference() }
            if shouldStop() { throw .cancelled }
            guard packet.streamIndex == videoIndex else { continue }
            if let pts = packet.presentationTimestamp {
                result.packetEnd = max(result.packetEnd, decoder.time(ofTimestamp: pts + max(packet.duration, 0)).seconds)
            }
            if let seekTarget, !checkedStart {
                checkedStart = true
                guard packet.isKeyframe, packet.presentationTimestamp == seekTarget else {
                    throw .failed(.demux, "seek", "a seek did not land on the keyframe at \(seekTarget)")
                }
            }
            // The next chunk's keyframe: every frame before it is already sent, except an open
            // GOP's leading pictures, which are B frames and skipped anyway. Decoding it (the
            // most expensive frame of a GOP) would only be thrown away.
            if stopsAtNextKeyframe, let end = chunk.end, packet.isKeyframe,
               let pts = packet.presentationTimestamp, pts >= end {
                break
            }
            if skipping != .none {
                decoder.setSkipFrames(lookahead.discard(
                    forPacketOfSize: packet.size, pts: packet.presentationTimestamp, level: skipping.discard))
            }
            try decoder.decode(packet, into: frame, take)
        }
        if !finished { try decoder.decode(nil, into: frame, take) }
        return result
    }

    /// `frame` as an upright gray picture with square pixels whose longer side is
    /// `sampling.size` (small videos enlarged up to twice).
    private func facePicture(_ frame: Frame, sampling: FacePictureSampling) throws(MediaFailure) -> GrayPicture {
        let scaler: Downscaler
        if let existing = faceScaler {
            scaler = existing
        } else {
            scaler = try Downscaler(facePictureOf: frame, longerSide: sampling.size)
            faceScaler = scaler
        }
        return try scaler.shrinkLuma(frame).rotated(clockwise: sampling.rotation)
    }
}