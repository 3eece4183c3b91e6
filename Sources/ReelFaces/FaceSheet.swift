import Foundation
import ReelMedia
import ReelSupport

/// Draws a contact sheet of faces: one row per person, square crops around each face.
enum FaceSheet {
    /// Crops `rows` (each a person's faces) from their pictures into one packed RGB image.
    /// `picture` returns the upright picture a face was found in.
    static func render(
        rows: [[Face]], tile: Int, padding: Int = 4,
        picture: (Face) throws(ReelError) -> RGBPicture
    ) throws(ReelError) -> RGBPicture {
        let columns = max(rows.map(\.count).max() ?? 1, 1)
        let width = padding + columns * (tile + padding), height = padding + max(rows.count, 1) * (tile + padding)
        var canvas = [UInt8](repeating: 32, count: width * height * 3)
        for (row, faces) in rows.enumerated() {
            for (column, face) in faces.enumerated() {
                let source = try picture(face)
                draw(crop(face.bounds, of: source, size: tile), size: tile, into: &canvas, width: width,
                     x: padding + column * (tile + padding), y: padding + row * (tile + padding))
            }
        }
        return RGBPicture(width: width, height: height, pixels: canvas, time: nil)
    }

    /// A `size` x `size` bilinear crop of the square around `bounds` (normalized), widened by a
    /// fifth so the whole head shows; outside the picture is black.
    static func crop(_ bounds: CGRect, of picture: RGBPicture, size: Int) -> [UInt8] {
        let width = Double(picture.width), height = Double(picture.height)
        let side = max(bounds.width * width, bounds.height * height) * 1.4
        let centerX = bounds.midX * width, centerY = bounds.midY * height
        let originX = centerX - side / 2, originY = centerY - side / 2
        var result = [UInt8](repeating: 0, count: size * size * 3)
        for y in 0..<size {
            let sourceY = originY + (Double(y) + 0.5) * side / Double(size) - 0.5
            for x in 0..<size {
                let sourceX = originX + (Double(x) + 0.5) * side / Double(size) - 0.5
                guard sourceX >= 0, sourceY >= 0, sourceX < width - 1, sourceY < height - 1 else { continue }
                let left = Int(sourceX), top = Int(sourceY)
                let fx = sourceX - Double(left), fy = sourceY - Double(top)
                for channel in 0..<3 {
                    func at(_ px: Int, _ py: Int) -> Double { Double(picture.pixels[(py * picture.width + px) * 3 + channel]) }
                    let value = at(left, top) * (1 - fx) * (1 - fy) + at(left + 1, top) * fx * (1 - fy)
                        + at(left, top + 1) * (1 - fx) * fy + at(left + 1, top + 1) * fx * fy
                    result[(y * size + x) * 3 + channel] = UInt8(min(max(value.rounded(), 0), 255))
                }
            }
        }
        return result
    }

    private static func draw(_ tile: [UInt8], size: Int, into canvas: inout [UInt8], width: Int, x: Int, y: Int) {
        for row in 0..<size {
            let target = ((y + row) * width + x) * 3
            canvas.replaceSubrange(target..<(target + size * 3), with: tile[(row * size * 3)..<((row + 1) * size * 3)])
        }
    }
}

extension FaceGroupAnalyzer {
    /// Writes a sheet of face crops, one row per person (the most photographed first, at most
    /// `people` rows of `facesPerPerson` crops, each `tile` pixels), to a `.jpg` or `.png`.
    /// Returns the people in row order.
    @discardableResult
    public func writeFaceSheet(to output: URL, people: Int = 20, facesPerPerson: Int = 8,
                               tile: Int = 96) async throws(ReelError) -> [FaceEntityID] {
        let encoder: String
        switch output.pathExtension.lowercased() {
        case "jpg", "jpeg": encoder = "mjpeg"
        case "png": encoder = "png"
        default: throw .invalidOutputPath(output, reason: "use a .jpg, .jpeg or .png name")
        }
        let groups = try allFacesByEntityID.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
            .prefix(max(people, 1))
        let rows = groups.map { Array($0.value.sorted { $0.score > $1.score }.prefix(max(facesPerPerson, 1))) }
        let paths = try store.assetPaths()
        let location = try OutputLocation.resolve(for: workingDirectory, finalURL: output)
        let size = max(tile, 16), detectionSize = options.detectionSize
        do throws(ReelError) {
            try await BlockingWork.run(flag: CancellationFlag()) { () throws(ReelError) in
                var pictures: [String: RGBPicture] = [:]
                // The faces of one video are read in one pass: faces of one GOP cost one decode of it.
                let timed = Dictionary(grouping: rows.joined().filter { $0.time != nil }, by: \.assetID)
                for (asset, faces) in timed {
                    guard let path = paths[asset] else { continue }
                    let url = URL(fileURLWithPath: path)
                    let times = Array(Set(faces.compactMap { $0.time?.seconds })).sorted()
                    let info = try MediaInfo.probe(url, measuringBitRates: false)
                    let read = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                        try PictureReader.frames(of: info, at: times, maximumSide: detectionSize)
                    }
                    for (time, picture) in zip(times, read) { pictures[asset.rawValue + "@" + "\(time)"] = picture }
                }
                let sheet = try FaceSheet.render(rows: rows, tile: size) { face throws(ReelError) in
                    let key = face.assetID.rawValue + "@" + (face.time.map { "\($0.seconds)" } ?? "")
                    if let cached = pictures[key] { return cached }
                    guard let path = paths[face.assetID] else {
                        throw .faceIndexFailed(output, reason: "asset \(face.assetID) is not in the index")
                    }
                    let url = URL(fileURLWithPath: path)
                    let picture: RGBPicture
                    if let time = face.time {
                        let info = try MediaInfo.probe(url, measuringBitRates: false)
                        picture = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                            try PictureReader.frame(of: info, at: time.seconds, maximumSide: detectionSize)
                        }
                    } else {
                        picture = try translatingFailures(source: url, output: url) { () throws(MediaFailure) in
                            try PictureReader.image(at: url, maximumSide: detectionSize)
                        }
                    }
                    pictures[key] = picture
                    return picture
                }
                try translatingFailures(source: output, output: location.temporaryURL) { () throws(MediaFailure) in
                    try StillImageWriter.write(sheet, encoderName: encoder, to: location.temporaryURL.path)
                }
            }
            try location.commit()
        } catch {
            location.abandon()
            throw location.naming(error)
        }
        return groups.map(\.key)
    }
}
