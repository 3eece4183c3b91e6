internal import CFFmpeg
import ReelSupport

/// Where the virtual camera's window is on every source frame: the transcoder crops each
/// decoded frame to it (no copy: the frame's planes are offset) before the filter graph
/// scales it, so the crop and the scale are one pass.
package struct FramingPlan: Sendable, Equatable {
    /// One shot (or the part of one inside a kept range): a camera path, or the whole picture
    /// fitted into the output shape (`fits`), when its subjects cannot share one window.
    package struct Segment: Sendable, Equatable {
        /// Source seconds on the file's clock.
        package var start: Double
        package var end: Double
        /// Show the whole picture, filled around by `FramingPlan.fitFilter`.
        package var fits: Bool
        /// Path points: source seconds and the window's left and top edges in stored pixels.
        package var times: [Double]
        package var lefts: [Double]
        package var tops: [Double]

        /// Creates the value from every field.
        package init(start: Double, end: Double, fits: Bool, times: [Double], lefts: [Double], tops: [Double]) {
            self.start = start
            self.end = end
            self.fits = fits
            self.times = times
            self.lefts = lefts
            self.tops = tops
        }
    }

    /// The window's size in stored pixels (even).
    package var cropWidth: Int
    package var cropHeight: Int
    /// The shots, in time order.
    package var segments: [Segment]
    /// The filter chain for fitted segments: whole stored frames in, the output's size out.
    package var fitFilter: String

    /// Creates the value from every field.
    package init(cropWidth: Int, cropHeight: Int, segments: [Segment], fitFilter: String) {
        self.cropWidth = cropWidth
        self.cropHeight = cropHeight
        self.segments = segments
        self.fitFilter = fitFilter
    }

    /// The window's left and top edges (even stored pixels) at `seconds`, or `nil` where the
    /// whole picture is fitted. Between path points the window moves linearly; outside every
    /// segment it holds the nearest segment's edge.
    package func window(at seconds: Double, frameWidth: Int, frameHeight: Int) -> (left: Int, top: Int)? {
        guard !segments.isEmpty else { return nil }
        let index = segments.lastIndex { $0.start <= seconds + 1e-6 } ?? 0
        let segment = segments[index]
        if segment.fits { return nil }
        let left = Self.interpolate(segment.times, segment.lefts, at: seconds)
        let top = Self.interpolate(segment.times, segment.tops, at: seconds)
        func even(_ value: Double, limit: Int) -> Int { min(max(Int(value.rounded()) / 2 * 2, 0), max(limit, 0) / 2 * 2) }
        return (even(left, limit: frameWidth - cropWidth), even(top, limit: frameHeight - cropHeight))
    }

    /// `values` at `seconds`, linear between the points at `times` (increasing), held before
    /// the first and after the last.
    package static func interpolate(_ times: [Double], _ values: [Double], at seconds: Double) -> Double {
        guard let first = times.first, let last = times.last, times.count == values.count else { return 0 }
        if seconds <= first { return values[0] }
        if seconds >= last { return values[values.count - 1] }
        var low = 0, high = times.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if times[middle] <= seconds { low = middle } else { high = middle }
        }
        let span = times[high] - times[low]
        let share = span > 0 ? (seconds - times[low]) / span : 0
        return values[low] + (values[high] - values[low]) * share
    }
}

extension Frame {
    /// Narrows the frame to a window of its picture without copying (the planes are offset).
    /// `left` and `top` must be even for subsampled chroma.
    func crop(left: Int, top: Int, width: Int, height: Int) throws(MediaFailure) {
        let frameWidth = Int(pointer.pointee.width), frameHeight = Int(pointer.pointee.height)
        guard left >= 0, top >= 0, left + width <= frameWidth, top + height <= frameHeight else { return }
        pointer.pointee.crop_left = size_t(left)
        pointer.pointee.crop_top = size_t(top)
        pointer.pointee.crop_right = size_t(frameWidth - left - width)
        pointer.pointee.crop_bottom = size_t(frameHeight - top - height)
        try check(av_frame_apply_cropping(pointer, Int32(AV_FRAME_CROP_UNALIGNED)), .filter, "av_frame_apply_cropping")
    }
}
