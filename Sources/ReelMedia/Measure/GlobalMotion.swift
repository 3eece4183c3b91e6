import ReelSupport

/// The camera's movement between two shrunk pictures, estimated from their row and column
/// brightness profiles, and the change that remains once it is undone: a pan over still
/// scenery moves the profiles but leaves little residual, while a subject moving in a steady
/// frame leaves the profiles nearly in place and a large residual.
package struct GlobalMotion: Equatable {
    /// Horizontal shift in pixels of the shrunk picture.
    package var dx: Int
    /// Vertical shift in pixels of the shrunk picture.
    package var dy: Int
    /// Mean absolute luma difference (0...1) after shifting by (dx, dy), over the overlap.
    package var residual: Double

    /// The camera's speed as a share of the picture's width per sample.
    package func cameraShare(width: Int) -> Double {
        Double(abs(dx) + abs(dy)) / Double(max(width, 1))
    }

    /// Estimates the shift of `current` against `previous` (same size), up to a tenth of the
    /// picture each way.
    package static func estimate(from previous: SmallPicture, to current: SmallPicture) -> GlobalMotion? {
        let width = current.width, height = current.height
        guard previous.width == width, previous.height == height, width > 8, height > 8,
              previous.luma.count == current.luma.count else { return nil }
        func profiles(_ luma: [UInt8]) -> (columns: [Double], rows: [Double]) {
            // Whole-number sums (exact, as the floating-point ones were) are cheaper per pixel.
            var columns = [Int](repeating: 0, count: width), rows = [Int](repeating: 0, count: height)
            for y in 0..<height {
                var rowTotal = 0
                let line = y * width
                for x in 0..<width {
                    let value = Int(luma[line + x])
                    columns[x] &+= value
                    rowTotal &+= value
                }
                rows[y] = rowTotal
            }
            return (columns.map { Double($0) / Double(height) }, rows.map { Double($0) / Double(width) })
        }
        let before = profiles(previous.luma), after = profiles(current.luma)
        let dx = bestShift(before.columns, after.columns, limit: max(width / 10, 1))
        let dy = bestShift(before.rows, after.rows, limit: max(height / 10, 1))
        var total = 0, count = 0
        for y in max(0, dy)..<min(height, height + dy) {
            let sourceRow = (y - dy) * width
            for x in max(0, dx)..<min(width, width + dx) {
                total += abs(Int(current.luma[y * width + x]) - Int(previous.luma[sourceRow + x - dx]))
                count += 1
            }
        }
        return GlobalMotion(dx: dx, dy: dy, residual: count > 0 ? Double(total) / Double(count) / 255 : 0)
    }

    /// The shift of `after` against `before` (positive: content moved towards higher indices)
    /// with the least mean absolute difference over the overlap; ties favour no shift.
    private static func bestShift(_ before: [Double], _ after: [Double], limit: Int) -> Int {
        var best = 0, bestCost = Double.infinity
        for shift in -limit...limit {
            var cost = 0.0, count = 0
            for index in max(0, shift)..<min(after.count, before.count + shift) {
                cost += abs(after[index] - before[index - shift])
                count += 1
            }
            guard count > 0 else { continue }
            // A small preference for standing still, so noise does not read as a pan.
            let mean = cost / Double(count) + 0.05 * Double(abs(shift))
            if mean < bestCost {
                bestCost = mean
                best = shift
            }
        }
        return best
    }
}
