import Foundation
import ReelFaces
import ReelMedia

/// What the framing pass saw on one sampled picture, in upright coordinates normalized to
/// 0...1 (origin top left).
struct SubjectObservation: Sendable {
    /// Source seconds on the file's clock.
    var time: Double
    /// Faces, largest first; `nil` on samples faces were not looked for on.
    var faces: [CGRect]?
    /// How open each face's mouth is (inner lips' gap over the eye distance), in `faces`' order;
    /// `nil` where the landmarks could not be placed; empty without the landmark model.
    var mouths: [Double?] = []
    /// What moved since the previous sample of the shot (the camera's own movement undone),
    /// one box per moving thing, largest first; empty when nothing did, or too much.
    var moving: [CGRect]
    /// What stands out in colour and brightness from the picture's edges, when that is compact.
    var salient: CGRect?
    /// Whether a cut came right before the picture.
    var followsCut: Bool
    /// Whether the picture changed across more than a quarter of it since the previous sample
    /// with the camera's movement undone (a dissolve, a flash), without a cut, or could not be
    /// compared with it.
    var changedThroughout = false
    /// Whether the camera moved since the previous sample (a pan, a handheld shake).
    var cameraMoved = false
}

/// Finds faces (dlib's HOG detector), moving regions and the salient subject of sampled
/// pictures. One per framing pass, used on one thread.
final class SubjectLocator {
    private let finder: FacePresenceFinder?
    private let landmarker: FaceLandmarker?
    private let rotation: Int
    private var previous: SmallPicture?
    /// Detections scoring lower are ignored: a wrong face pulls the camera off the picture.
    var minimumFaceScore = 0.3

    init(rotation: Int) {
        finder = FacePresenceFinder()
        landmarker = FaceLandmarker.shared()
        self.rotation = rotation
    }

    /// Whether faces can be looked for (dlib made its detector).
    var findsFaces: Bool { finder != nil }

    func observe(_ picture: FramingPicture) -> SubjectObservation {
        let faces = picture.gray.map { gray in
            finder?.faces(inGray: gray.luma, width: gray.width, height: gray.height, minimumScore: minimumFaceScore)
                .map(\.box).sorted { $0.width * $0.height > $1.width * $1.height } ?? []
        }
        var mouths: [Double?] = []
        if let gray = picture.gray, let faces, let landmarker {
            let width = CGFloat(gray.width), height = CGFloat(gray.height)
            mouths = faces.map { face in
                let pixels = CGRect(x: face.minX * width, y: face.minY * height, width: face.width * width, height: face.height * height)
                return landmarker.expression(inGray: gray.luma, width: gray.width, height: gray.height, box: pixels)?.mouthOpenness
            }
        }
        let motion = picture.followsCut ? nil : previous.map { Self.movingRegions(from: $0, to: picture.small) }
        previous = picture.small
        return SubjectObservation(
            time: picture.time.seconds, faces: faces, mouths: mouths,
            moving: (motion?.regions ?? []).map { Self.upright($0, rotation: rotation) },
            salient: Self.salientRegion(picture.small).map { Self.upright($0, rotation: rotation) },
            followsCut: picture.followsCut, changedThroughout: motion?.changedThroughout ?? false,
            cameraMoved: motion?.cameraMoved ?? false)
    }

    /// The boxes of the things that moved, largest first: pixels whose brightness changed
    /// clearly once the camera's own movement is undone, gathered into 4x4 blocks and joined
    /// into 8-connected regions. None when the change covers less than 0.5% or more than 25% of
    /// the picture (a light changing, or the camera moving in a way a shift does not undo); the
    /// latter, and pictures the camera's movement cannot be estimated between, are
    /// `changedThroughout`.
    static func movingRegions(from before: SmallPicture, to after: SmallPicture) -> (regions: [CGRect], changedThroughout: Bool, cameraMoved: Bool) {
        guard before.luma.count == after.luma.count, after.width > 0,
              let camera = GlobalMotion.estimate(from: before, to: after) else { return ([], true, true) }
        let cameraMoved = camera.dx != 0 || camera.dy != 0
        let width = after.width, height = after.height
        let block = 4, columns = (width + block - 1) / block, rows = (height + block - 1) / block
        var counts = [Int](repeating: 0, count: columns * rows)
        var changed = 0
        // Only the overlap of the two pictures, less a margin where the shift brings in new picture.
        let margin = 2
        let top = max(0, camera.dy) + margin, left = max(0, camera.dx) + margin
        for y in top..<max(min(height, height + camera.dy) - margin, top) {
            for x in left..<max(min(width, width + camera.dx) - margin, left)
            where abs(Int(after.luma[y * width + x]) - Int(before.luma[(y - camera.dy) * width + x - camera.dx])) > 24 {
                counts[(y / block) * columns + x / block] += 1
                changed += 1
            }
        }
        let share = Double(changed) / Double(after.luma.count)
        guard share >= 0.005, share <= 0.25 else { return ([], share > 0.25, cameraMoved) }
        let marked = counts.map { $0 >= 3 }
        var seen = [Bool](repeating: false, count: marked.count)
        var regions: [(size: Int, box: CGRect)] = []
        for start in marked.indices where marked[start] && !seen[start] {
            var stack = [start], size = 0
            var (minX, minY, maxX, maxY) = (columns, rows, 0, 0)
            seen[start] = true
            while let cell = stack.popLast() {
                let x = cell % columns, y = cell / columns
                size += counts[cell]
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                for ny in max(y - 1, 0)...min(y + 1, rows - 1) {
                    for nx in max(x - 1, 0)...min(x + 1, columns - 1) where marked[ny * columns + nx] && !seen[ny * columns + nx] {
                        seen[ny * columns + nx] = true
                        stack.append(ny * columns + nx)
                    }
                }
            }
            regions.append((size, CGRect(x: Double(minX) / Double(columns), y: Double(minY) / Double(rows),
                                         width: Double(maxX + 1 - minX) / Double(columns), height: Double(maxY + 1 - minY) / Double(rows))))
        }
        return (regions.sorted { $0.size > $1.size }.map(\.box), false, cameraMoved)
    }

    /// The box of the pixels whose colour differs most from the picture's edges (the scenery),
    /// when they cover between 1% and 35% of it.
    static func salientRegion(_ picture: SmallPicture) -> CGRect? {
        let width = (picture.width + 1) / 2, height = (picture.height + 1) / 2
        guard width > 4, height > 4, picture.chromaU.count >= width * height else { return nil }
        func luma(_ x: Int, _ y: Int) -> Double { Double(picture.luma[min(2 * y, picture.height - 1) * picture.width + min(2 * x, picture.width - 1)]) }
        func values(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            (luma(x, y), Double(picture.chromaU[y * width + x]), Double(picture.chromaV[y * width + x]))
        }
        let ring = max(1, min(width, height) / 8)
        var edge = (0.0, 0.0, 0.0), count = 0.0
        for y in 0..<height {
            for x in 0..<width where x < ring || x >= width - ring || y < ring || y >= height - ring {
                let v = values(x, y)
                edge = (edge.0 + v.0, edge.1 + v.1, edge.2 + v.2)
                count += 1
            }
        }
        edge = (edge.0 / count, edge.1 / count, edge.2 / count)
        var distances = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let v = values(x, y)
                distances[y * width + x] = abs(v.0 - edge.0) / 2 + abs(v.1 - edge.1) + abs(v.2 - edge.2)
            }
        }
        let mean = distances.reduce(0, +) / Double(distances.count)
        let spread = (distances.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(distances.count)).squareRoot()
        let threshold = max(40, mean + 1.5 * spread)
        var points: [(Int, Int)] = []
        for y in ring..<(height - ring) {
            for x in ring..<(width - ring) where distances[y * width + x] > threshold { points.append((x, y)) }
        }
        let share = Double(points.count) / Double(width * height)
        guard share >= 0.01, share <= 0.35 else { return nil }
        return box(of: points, width: width, height: height)
    }

    /// The box holding the middle 80% of `points` along each axis.
    private static func box(of points: [(Int, Int)], width: Int, height: Int) -> CGRect? {
        guard !points.isEmpty else { return nil }
        let xs = points.map(\.0).sorted(), ys = points.map(\.1).sorted()
        let low = points.count / 10, high = max(points.count - 1 - points.count / 10, low)
        let left = Double(xs[low]) / Double(width), right = Double(xs[high] + 1) / Double(width)
        let top = Double(ys[low]) / Double(height), bottom = Double(ys[high] + 1) / Double(height)
        return CGRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// A box of the stored picture, in the upright picture's coordinates.
    static func upright(_ box: CGRect, rotation: Int) -> CGRect {
        switch ((rotation % 360) + 360) % 360 {
        case 90: return CGRect(x: 1 - box.maxY, y: box.minX, width: box.height, height: box.width)
        case 180: return CGRect(x: 1 - box.maxX, y: 1 - box.maxY, width: box.width, height: box.height)
        case 270: return CGRect(x: box.minY, y: 1 - box.maxX, width: box.height, height: box.width)
        default: return box
        }
    }

    /// A box of the upright picture, in the stored picture's coordinates (undoes `upright`).
    static func stored(_ box: CGRect, rotation: Int) -> CGRect {
        upright(box, rotation: 360 - ((rotation % 360) + 360) % 360)
    }
}
