internal import CFFmpeg
import Foundation
import ReelSupport

/// Samples a video's pictures through its shots for face detection: decodes it (every frame
/// other frames depend on; pictures nothing refers to are skipped, which is cheap), watches the
/// change from picture to picture on a coarse `LumaGrid`, and hands on a picture at the start,
/// just after each cut, and whenever `interval` seconds passed since the last one. Only the
/// pictures handed on are converted to RGB.
///
/// A cut is a change of at least `minimumCutChange` that is `cutRatio` times the mean change of
/// the pictures just before (as the analyzer's shot detector, but looking back only). A false
/// cut in fast motion only costs one more sample: samples are at least `minimumGap` apart.
package struct ShotSampler: Sendable {
    /// Most seconds between two samples of one shot.
    package var interval: Double
    /// The longer side of the pictures handed on.
    package var maximumSide: Int
    /// A smaller video's pictures are enlarged towards `maximumSide`, at most this many times
    /// (1: handed on at their own size).
    package var enlargement = 1
    /// Seconds after a cut before its sample, past a blended or still-settling picture.
    package var settle = 0.08
    /// Fewest seconds between two samples.
    package var minimumGap = 0.25
    var minimumCutChange = 0.06
    var cutRatio = 3.0

    /// A sampler every `interval` seconds (and after each cut) of pictures at most
    /// `maximumSide` pixels on their longer side.
    package init(interval: Double, maximumSide: Int) {
        self.interval = max(interval, 0.05)
        self.maximumSide = maximumSide
    }

    /// Hands `body` each sampled picture, upright and scaled, with whether a cut lies between
    /// it and the previous sample (always true for the first), in time order.
    package func samples(
        of source: MediaInfo, shouldCancel: () -> Bool, _ body: (RGBPicture, _ newShot: Bool) throws(MediaFailure) -> Void
    ) throws(MediaFailure) {
        guard let index = source.primaryVideoStreamIndex else { throw .noVideoStream }
        let input = try InputFile.reopen(source, keeping: [index])
        let decoder = try Decoder(input: input, streamIndex: index, cheap: true)
        decoder.setSkipFrames(AVDISCARD_NONREF)
        let converter = PictureConverter(rotation: source.primaryVideo?.video?.rotation ?? 0, maximumSide: maximumSide,
                                         enlargement: enlargement)
        let origin = MediaTime(seconds: source.startTime, timescale: 1_000_000)
        var state = State()
        try decoder.forEachFrame(in: input, shouldCancel: shouldCancel) { frame throws(MediaFailure) in
            guard !frame.isDamaged, let time = decoder.time(of: frame), let grid = LumaGrid(frame: frame.pointer, patch: 8)
            else { return true }
            if state.due(at: time.seconds, grid: grid, sampler: self) {
                try body(try converter.convert(frame, timeBase: decoder.timeBase, time: time - origin), state.takeNewShot())
            }
            return true
        }
    }

    /// What the sampler remembers from picture to picture.
    struct State {
        private var previous: LumaGrid?
        private var recentChanges: [Double] = []
        private var lastSample: Double?
        private var pendingCut: Double?
        private var cutSinceSample = true

        /// Whether the picture at `seconds` is sampled; notes a cut it starts.
        mutating func due(at seconds: Double, grid: LumaGrid, sampler: ShotSampler) -> Bool {
            if let previous {
                let change = grid.difference(to: previous)
                let typical = recentChanges.isEmpty ? 0 : recentChanges.reduce(0, +) / Double(recentChanges.count)
                if change >= sampler.minimumCutChange && change >= sampler.cutRatio * max(typical, 0.005) {
                    pendingCut = seconds + sampler.settle
                    cutSinceSample = true
                }
                recentChanges.append(change)
                if recentChanges.count > 3 { recentChanges.removeFirst() }
            }
            previous = grid
            guard let last = lastSample else {
                lastSample = seconds
                return true
            }
            let sinceLast = seconds - last
            let cutDue = pendingCut.map { seconds >= $0 } ?? false
            guard sinceLast >= sampler.interval || (cutDue && sinceLast >= sampler.minimumGap) else { return false }
            lastSample = seconds
            if cutDue { pendingCut = nil }
            return true
        }

        /// Whether a cut came since the previous sample; resets it.
        mutating func takeNewShot() -> Bool {
            defer { cutSinceSample = false }
            return cutSinceSample
        }
    }
}
