import Foundation
import ReelMedia

/// What a shrunk picture shows, beyond its global statistics: whether something stands out of
/// the scenery around it (a subject), and whether the picture is mostly text (titles, credits).
struct PictureContent: Equatable {
    /// How much of the middle of the picture has colors found nowhere along its edges, 0...1:
    /// empty sky, bare ground or a plain wall continue to the frame's edge and score near 0; a
    /// character or object in the middle scores higher. A centre-surround cue, measured on block
    /// colors: cheap, and only a tendency (a close-up that fills the frame scores low too).
    var subject: Double
    /// How much the picture looks like text on a plain background, 0...1.
    var textLikeness: Double

    /// Blocks across and down the picture is measured in.
    static let columns = 16, rows = 9

    /// Measures `picture`: block mean colors; the middle blocks (the central half across, five
    /// ninths down) are compared with every block of the outer ring; the score is the share of
    /// middle blocks far from all of them (at two distances, averaged), saturating at 40%.
    static func measure(_ picture: SmallPicture) -> PictureContent {
        let width = picture.width, height = picture.height
        guard width >= columns, height >= rows else { return PictureContent(subject: 0, textLikeness: 0) }
        let chromaWidth = (width + 1) / 2
        var luma = [Double](repeating: 0, count: columns * rows)
        var blue = luma, red = luma, counts = luma, chromaCounts = luma
        // Each pixel's column of cells, worked out once rather than divided for every row.
        let lumaColumn = (0..<width).map { x in min(x * columns / width, columns - 1) }
        let chromaColumn = (0..<chromaWidth).map { x in min(2 * x * columns / width, columns - 1) }
        for y in 0..<height {
            let row = min(y * rows / height, rows - 1) * columns, line = y * width
            for x in 0..<width {
                let cell = row + lumaColumn[x]
                luma[cell] += Double(picture.luma[line + x])
                counts[cell] += 1
            }
        }
        for y in 0..<((height + 1) / 2) {
            let row = min(2 * y * rows / height, rows - 1) * columns
            for x in 0..<chromaWidth where y * chromaWidth + x < picture.chromaU.count {
                let cell = row + chromaColumn[x]
                blue[cell] += Double(picture.chromaU[y * chromaWidth + x])
                red[cell] += Double(picture.chromaV[y * chromaWidth + x])
                chromaCounts[cell] += 1
            }
        }
        for cell in luma.indices {
            luma[cell] /= max(counts[cell], 1)
            blue[cell] /= max(chromaCounts[cell], 1)
            red[cell] /= max(chromaCounts[cell], 1)
        }
        func distance(_ a: Int, _ b: Int) -> Double {
            (abs(luma[a] - luma[b]) + 1.5 * abs(blue[a] - blue[b]) + 1.5 * abs(red[a] - red[b])) / 255
        }
        var ring: [Int] = []
        for row in 0..<rows {
            for column in 0..<columns where row == 0 || row == rows - 1 || column == 0 || column == columns - 1 {
                ring.append(row * columns + column)
            }
        }
        var far = 0.0, middle = 0.0
        for row in 2...(rows - 3) {
            for column in (columns / 4)..<(columns - columns / 4) {
                let cell = row * columns + column
                let nearest = ring.map { distance(cell, $0) }.min() ?? 0
                far += (nearest > 0.08 ? 0.5 : 0) + (nearest > 0.12 ? 0.5 : 0)
                middle += 1
            }
        }
        return PictureContent(subject: min(far / max(middle, 1) / 0.4, 1), textLikeness: textLikeness(picture))
    }

    /// Text on a plain background: gray, a dominant dark or light background over most of the
    /// picture, and a small share of sharp strokes of the opposite brightness.
    static func textLikeness(_ picture: SmallPicture) -> Double {
        var histogram = [Int](repeating: 0, count: 16)
        for value in picture.luma { histogram[Int(value) >> 4] += 1 }
        let total = Double(max(picture.luma.count, 1))
        guard let mode = histogram.indices.max(by: { histogram[$0] < histogram[$1] }) else { return 0 }
        let backgroundShare = Double(histogram[max(mode - 1, 0)...min(mode + 1, 15)].reduce(0, +)) / total
        let far = histogram.indices.filter { abs($0 - mode) >= 3 }.map { histogram[$0] }.reduce(0, +)
        let strokeShare = Double(far) / total
        var chroma = 0.0
        for index in picture.chromaU.indices {
            chroma += abs(Double(picture.chromaU[index]) - 128) + abs(Double(picture.chromaV[index]) - 128)
        }
        chroma /= Double(max(picture.chromaU.count, 1)) * 2
        let plain = min(max((backgroundShare - 0.6) / 0.25, 0), 1)
        let strokes = strokeShare > 0.02 && strokeShare < 0.35 ? 1.0 : 0
        let gray = min(max((14 - chroma) / 8, 0), 1)
        return plain * strokes * gray
    }

    /// Lines of text (credits, titles, subtitles over a plain band), seen on a larger gray
    /// picture: rows crossed by many sharp light-dark transitions (letters) in bands a few
    /// pixels to an eighth of the picture tall, between rows with almost none (line spacing), and
    /// a good part of the picture quiet. Seven such bands and more score 1; foliage is busy on
    /// every row and a figure makes one or two bands, so neither reads as text.
    static func textLines(_ gray: GrayPicture) -> Double {
        let width = gray.width, height = gray.height
        guard width > 16, height > 16, gray.luma.count >= width * height else { return 0 }
        var transitions = [Int](repeating: 0, count: height)
        gray.luma.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let row = y * width
                var count = 0
                for x in 0..<(width - 1) where abs(Int(pixels[row + x + 1]) - Int(pixels[row + x])) > 40 { count += 1 }
                transitions[y] = count
            }
        }
        let busy = max(6, width / 50)
        let quietRows = transitions.filter { $0 <= 2 }.count
        var lines = 0, y = 0
        while y < height {
            guard transitions[y] >= busy else {
                y += 1
                continue
            }
            let start = y
            while y < height && transitions[y] > 2 { y += 1 }
            if (3...max(height / 8, 3)).contains(y - start) { lines += 1 }
        }
        let quiet = Double(quietRows) / Double(height)
        return min(max(Double(lines - 4) / 3, 0), 1) * min(max((quiet - 0.2) / 0.2, 0), 1)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
