import ReelSupport

/// Where a chunked encode cuts the timeline: near every `length` seconds, at the shot boundary
/// closest to that point within half a length either way, else at a source keyframe there,
/// else at the picture nearest it. A remainder shorter than half a length joins the last chunk.
/// For an encoder that places its keyframes on a fixed grid (every `keyframeGrid` output
/// pictures) the cuts take grid pictures instead, so every chunk's keyframes fall where one
/// encode's would and the joined file spends what one encode spends.
/// Pure: tested on tables of times.
struct ChunkCuts {
    /// Output picture starts (sorted): the only instants a cut may take.
    var pictures: [MediaTime]
    /// Shot starts, in seconds.
    var shots: [Double]
    /// Source keyframe times (sorted).
    var keyframes: [MediaTime]
    /// The end of the kept range.
    var end: MediaTime
    /// The chunk length asked for, in seconds.
    var length: Double
    /// Output pictures from one keyframe to the next when the encoder keeps to that grid
    /// (counted from the first picture); `nil` when it puts keyframes at shot changes.
    var keyframeGrid: Int? = nil

    /// A cut: the picture it starts on and what it is aligned with.
    struct Cut: Equatable {
        var time: MediaTime
        var atShot: Bool
    }

    /// The cuts after the first chunk's start, in order.
    func cuts() -> [Cut] {
        guard let first = pictures.first, length > 0 else { return [] }
        var result: [Cut] = []
        var position = first
        while (end - position).seconds > length * 1.5 {
            let target = position.seconds + length
            let low = position.seconds + length * 0.5
            let high = min(position.seconds + length * 1.5, end.seconds - length * 0.5)
            if let grid = keyframeGrid, grid > 0 {
                guard let picture = gridPicture(every: grid, near: target, within: low...high, after: position) else { break }
                result.append(Cut(time: picture, atShot: shots.contains { abs($0 - picture.seconds) < 0.0005 }))
                position = picture
                continue
            }
            let shot = shots.filter { $0 > low && $0 < high }.min { abs($0 - target) < abs($1 - target) }
            let key = keyframes.map(\.seconds).filter { $0 > low && $0 < high }.min { abs($0 - target) < abs($1 - target) }
            let wanted = shot ?? key ?? target
            guard let picture = nearestPicture(to: wanted, after: position) else { break }
            result.append(Cut(time: picture, atShot: shot != nil))
            position = picture
        }
        return result
    }

    /// The grid picture (every `grid`-th from the first) nearest `target` inside `window`, else
    /// the first one past the window when it still leaves room before the end (a grid longer
    /// than the chunks asked for), after `position`.
    private func gridPicture(every grid: Int, near target: Double, within window: ClosedRange<Double>, after position: MediaTime) -> MediaTime? {
        let points = stride(from: grid, to: pictures.count, by: grid).lazy.map { pictures[$0] }.filter { $0 > position }
        if let inside = points.filter({ window.contains($0.seconds) }).min(by: { abs($0.seconds - target) < abs($1.seconds - target) }) {
            return inside
        }
        return points.first { $0.seconds > window.upperBound && (end - $0).seconds >= length * 0.5 }
    }

    /// The output picture start nearest `seconds` that comes after `position`.
    private func nearestPicture(to seconds: Double, after position: MediaTime) -> MediaTime? {
        var low = 0, high = pictures.count
        while low < high {
            let middle = (low + high) / 2
            if pictures[middle].seconds < seconds { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { $0 >= 0 && $0 < pictures.count }.map { pictures[$0] }.filter { $0 > position }
        return candidates.min { abs($0.seconds - seconds) < abs($1.seconds - seconds) }
    }
}
