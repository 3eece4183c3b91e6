import ReelSupport

/// Finds samples where something foreign to the shot is cut by the frame's edge: a hand
/// reaching into a still view, a passer-by half out of the picture. Within each shot, the
/// per-block median of the samples' luma signatures is the shot's usual look; the blocks of a
/// sample that differ from it form regions, and the largest region's share in the outermost
/// ring of blocks is the sample's intrusion (0: nothing foreign, or it is inside the picture).
enum EdgeIntrusion {
    /// Luma difference (of 255) from the shot's usual look that makes a block foreign.
    static let blockDifference = 28
    /// Shots with fewer samples have no usual look to compare with.
    static let minimumSamples = 6
    /// The luma blocks at the start of a signature (see `SampledFrameCollector.signature`).
    static let columns = 16, rows = 9

    /// The intrusion (0...1) of every sample, in `frames` order.
    static func measure(frames: [FrameFeatures], signatures: [[UInt8]], boundaries: [MediaTime]) -> [Double] {
        var result = [Double](repeating: 0, count: frames.count)
        var shotStart = 0
        var nextBoundary = 0
        let cuts = boundaries.sorted()
        for index in 0...frames.count {
            let endsShot = index == frames.count
                || (nextBoundary < cuts.count && frames[index].time >= cuts[nextBoundary])
            guard endsShot else { continue }
            if index - shotStart >= minimumSamples {
                measureShot(shotStart..<index, signatures: signatures, into: &result)
            }
            shotStart = index
            while nextBoundary < cuts.count && index < frames.count && frames[index].time >= cuts[nextBoundary] {
                nextBoundary += 1
            }
        }
        return result
    }

    private static func measureShot(_ samples: Range<Int>, signatures: [[UInt8]], into result: inout [Double]) {
        let blocks = columns * rows
        let usable = samples.filter { $0 < signatures.count && signatures[$0].count >= blocks }
        guard usable.count >= minimumSamples else { return }
        var usual = [Int](repeating: 0, count: blocks)
        for block in 0..<blocks {
            let values = usable.map { Int(signatures[$0][block]) }.sorted()
            usual[block] = values[values.count / 2]
        }
        for index in usable {
            let foreign = (0..<blocks).map { abs(Int(signatures[index][$0]) - usual[$0]) > blockDifference }
            result[index] = largestRegionAtEdge(foreign)
        }
    }

    /// The share of the largest 4-connected region of marked blocks (`marked[i] == true`) that
    /// lies in the outermost ring of blocks (0 without any).
    static func largestRegionAtEdge(_ marked: [Bool]) -> Double {
        var seen = [Bool](repeating: false, count: marked.count)
        var best = (size: 0, atEdge: 0)
        for start in marked.indices where marked[start] && !seen[start] {
            var stack = [start], size = 0, atEdge = 0
            seen[start] = true
            while let block = stack.popLast() {
                size += 1
                let x = block % columns, y = block / columns
                if x == 0 || y == 0 || x == columns - 1 || y == rows - 1 { atEdge += 1 }
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < columns && ny < rows {
                    let next = ny * columns + nx
                    if marked[next] && !seen[next] {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
            if size > best.size { best = (size, atEdge) }
        }
        return best.size > 0 ? Double(best.atEdge) / Double(best.size) : 0
    }
}
