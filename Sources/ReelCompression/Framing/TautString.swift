/// The shortest path through a corridor: given, at increasing times, the lowest and highest
/// value allowed, the taut string stays flat wherever one value fits a stretch (the camera holds
/// still while the subject stays in the dead zone), runs straight between the corridor's corners
/// otherwise (steady pans, with the lowest top speed any path through the corridor can have),
/// and is flat at both ends. Among paths through the corridor it also has the least total
/// movement.
enum TautString {
    /// The path's value at each time; where the whole corridor admits one value, `preferred`
    /// clamped into it.
    static func path(times: [Double], lower: [Double], upper: [Double], preferred: Double) -> [Double] {
        let count = times.count
        guard count > 0, lower.count == count, upper.count == count else { return [] }
        let start = flatEnd(lower: lower, upper: upper, indices: Array(0..<count))
        guard let startCorner = start.corner else {
            return [Double](repeating: min(max(preferred, start.low), start.high), count: count)
        }
        let end = flatEnd(lower: lower, upper: upper, indices: Array((0..<count).reversed()))
        var values = [Double](repeating: 0, count: count)
        for index in 0...startCorner { values[index] = start.hold }
        let endCorner = end.corner ?? count - 1
        guard endCorner > startCorner else {
            for index in (startCorner + 1)..<count { values[index] = end.hold }
            return values
        }
        for index in endCorner..<count { values[index] = end.hold }
        var low = lower, high = upper
        low[endCorner] = end.hold
        high[endCorner] = end.hold
        pull(times: times, lower: low, upper: high, from: startCorner, value: start.hold, to: endCorner, into: &values)
        return values
    }

    /// The longest flat stretch from the first of `indices`: the values every corridor along it
    /// admits, and, when it ends before the last index, the value held and the index where the
    /// string leaves it (the corridor's corner that binds).
    private static func flatEnd(lower: [Double], upper: [Double], indices: [Int]) -> (low: Double, high: Double, hold: Double, corner: Int?) {
        var low = -Double.infinity, high = Double.infinity
        var lowAt = indices[0], highAt = indices[0]
        for index in indices {
            if max(low, lower[index]) > min(high, upper[index]) {
                // The next corridor lies above the stretch: hold its top; below: its bottom.
                return lower[index] > high ? (low, high, high, highAt) : (low, high, low, lowAt)
            }
            if lower[index] >= low { low = lower[index]; lowAt = index }
            if upper[index] <= high { high = upper[index]; highAt = index }
        }
        return (low, high, low, nil)
    }

    /// Straight lines from (`from`, `value`) to the single value allowed at `to`, bending only
    /// at corners of the corridor: the funnel of slopes narrows until a corridor falls outside
    /// it, and the string bends at the corner that narrowed it on that side.
    private static func pull(times: [Double], lower: [Double], upper: [Double], from: Int, value: Double, to: Int, into values: inout [Double]) {
        var anchor = from, anchorValue = value
        while anchor < to {
            var slopeLow = -Double.infinity, slopeHigh = Double.infinity
            var lowAt = anchor, highAt = anchor
            var bend: (index: Int, slope: Double)?
            for index in (anchor + 1)...to {
                let elapsed = times[index] - times[anchor]
                guard elapsed > 1e-9 else { continue }
                let least = (lower[index] - anchorValue) / elapsed, most = (upper[index] - anchorValue) / elapsed
                if least > slopeHigh { bend = (highAt, slopeHigh); break }
                if most < slopeLow { bend = (lowAt, slopeLow); break }
                if least >= slopeLow { slopeLow = least; lowAt = index }
                if most <= slopeHigh { slopeHigh = most; highAt = index }
            }
            let (corner, slope) = bend ?? (to, slopeLow.isFinite ? slopeLow : 0)
            guard corner > anchor else {
                // Corridors at the anchor's own time only: step to the next index.
                values[anchor + 1] = anchorValue
                anchor += 1
                continue
            }
            for index in (anchor + 1)...corner { values[index] = anchorValue + slope * (times[index] - times[anchor]) }
            anchorValue = values[corner]
            anchor = corner
        }
    }
}
