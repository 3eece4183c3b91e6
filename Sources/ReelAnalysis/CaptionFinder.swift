import ReelMedia

/// Finds a line of light text laid over a picture (a trailer's caption, a title, burned-in
/// subtitles), which the small analysis pictures cannot show. Light, nearly gray pixels that
/// stand above their surroundings form components; those shaped like letters (a few pixels to a tenth of the picture tall, not
/// much wider than tall, partly filled) that follow each other along a line, close together,
/// with similar heights and a shared baseline, are a caption when there are at least
/// `minimumLetters` of them. Foliage against a white sky makes light specks too, but they
/// rarely share a baseline five in a row.
enum CaptionFinder {
    /// Letters in one line that make a caption.
    static let minimumLetters = 5

    /// Whether `picture` (upright RGB, best about 640 pixels wide) carries a caption.
    static func hasCaption(_ picture: RGBPicture) -> Bool {
        longestLine(picture) >= minimumLetters
    }

    /// The letter-like components of the longest baseline-aligned line in `picture`.
    static func longestLine(_ picture: RGBPicture) -> Int {
        let letters = letterBoxes(lightMask(picture), width: picture.width, height: picture.height)
        var used = [Bool](repeating: false, count: letters.count)
        var best = 0
        for first in letters.indices where !used[first] {
            var line = [letters[first]]
            used[first] = true
            for next in (first + 1)..<letters.count where !used[next] {
                guard let last = line.last else { break }
                let box = letters[next]
                let size = max(last.height, box.height)
                let gap = box.x - (last.x + last.width)
                if gap > 3 * size { break }
                guard Double(gap) <= 1.6 * Double(size) else { continue }
                let sameBottom = abs(box.bottom - last.bottom) <= Int(0.35 * Double(size))
                let sameTop = abs(box.y - last.y) <= Int(0.35 * Double(size))
                guard sameBottom || sameTop, size * 10 <= 22 * min(last.height, box.height) else { continue }
                line.append(box)
                used[next] = true
            }
            best = max(best, aligned(line))
        }
        return best
    }

    /// A light, nearly gray pixel (all three channels above 170, at most 48 apart) that stands
    /// above its neighbourhood (its luma 20 over the mean of the square `radius` pixels around
    /// it): white letters over a pale sky stay apart from the sky.
    static func lightMask(_ picture: RGBPicture, radius: Int = 12) -> [Bool] {
        let width = picture.width, height = picture.height, count = width * height
        guard count > 0, picture.pixels.count >= count * 3 else { return [] }
        var luma = [Int32](repeating: 0, count: count)
        var gray = [Bool](repeating: false, count: count)
        picture.pixels.withUnsafeBufferPointer { pixels in
            for index in 0..<count {
                let red = pixels[index * 3], green = pixels[index * 3 + 1], blue = pixels[index * 3 + 2]
                luma[index] = (77 * Int32(red) + 150 * Int32(green) + 29 * Int32(blue)) >> 8
                let low = min(red, green, blue), high = max(red, green, blue)
                gray[index] = low > 170 && high - low <= 48
            }
        }
        // Summed-area table, one row and column of zeros ahead.
        let stride = width + 1
        var sums = [Int64](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var row: Int64 = 0
            for x in 0..<width {
                row += Int64(luma[y * width + x])
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row
            }
        }
        var mask = [Bool](repeating: false, count: count)
        for y in 0..<height {
            let top = max(y - radius, 0), bottom = min(y + radius + 1, height)
            for x in 0..<width where gray[y * width + x] {
                let left = max(x - radius, 0), right = min(x + radius + 1, width)
                let total = sums[bottom * stride + right] - sums[top * stride + right] - sums[bottom * stride + left] + sums[top * stride + left]
                let mean = total / Int64((bottom - top) * (right - left))
                mask[y * width + x] = Int64(luma[y * width + x]) - mean >= 20
            }
        }
        return mask
    }

    struct Box: Equatable {
        var x: Int, y: Int, width: Int, height: Int
        var bottom: Int { y + height }
    }

    /// The bounding boxes of the 8-connected components of `mask` shaped like letters, by x.
    static func letterBoxes(_ mask: [Bool], width: Int, height: Int) -> [Box] {
        guard width > 0, height > 0, mask.count >= width * height else { return [] }
        let tallest = max(Int(0.09 * Double(height)), 6)
        var seen = [Bool](repeating: false, count: mask.count)
        var stack: [Int] = []
        var boxes: [Box] = []
        for start in mask.indices where mask[start] && !seen[start] {
            seen[start] = true
            stack.append(start)
            var minX = width, minY = height, maxX = 0, maxY = 0, area = 0
            while let pixel = stack.popLast() {
                let x = pixel % width, y = pixel / width
                area += 1
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < width else { continue }
                        let next = ny * width + nx
                        if mask[next] && !seen[next] {
                            seen[next] = true
                            stack.append(next)
                        }
                    }
                }
            }
            let boxWidth = maxX - minX + 1, boxHeight = maxY - minY + 1
            guard (5...tallest).contains(boxHeight), boxWidth <= 2 * boxHeight else { continue }
            let fill = Double(area) / Double(boxWidth * boxHeight)
            guard (0.12...0.85).contains(fill) else { continue }
            boxes.append(Box(x: minX, y: minY, width: boxWidth, height: boxHeight))
        }
        return boxes.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    }

    /// How many boxes of `line` sit on its median baseline with about its median height, or 0
    /// when those are spaced wider than letters (a median gap above 0.6 of their height):
    /// light specks of foliage line up now and then, but not as tightly as letters in words.
    static func aligned(_ line: [Box]) -> Int {
        guard line.count >= 2 else { return line.count }
        let heights = line.map(\.height).sorted(), bottoms = line.map(\.bottom).sorted()
        let height = Double(heights[heights.count / 2]), bottom = Double(bottoms[bottoms.count / 2])
        let letters = line.filter { abs(Double($0.bottom) - bottom) <= 0.2 * height && abs(Double($0.height) - height) <= 0.45 * height }
        guard letters.count >= 2 else { return letters.count }
        let gaps = zip(letters, letters.dropFirst()).map { $1.x - ($0.x + $0.width) }.sorted()
        return Double(gaps[gaps.count / 2]) <= 0.6 * height ? letters.count : 0
    }
}
