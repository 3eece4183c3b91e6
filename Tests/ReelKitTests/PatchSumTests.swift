import Testing
@testable import ReelMedia

/// The change grid's square sums read a row's 8 (or 4) bytes as one word: the same totals as
/// adding the bytes one by one, for every position and for the brightest squares.
@Suite struct PatchSumTests {
    @Test(arguments: [4, 8]) func wordSumsEqualByteSums(side: Int) {
        let width = 37, height = 29
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // A white corner: the largest sum a square can have.
        for row in 0..<side { for column in 0..<side { bytes[row * width + column] = 255 } }
        bytes.withUnsafeBytes { plane in
            guard let base = plane.baseAddress else { return }
            for top in 0...(height - side) {
                for left in 0...(width - side) {
                    var expected = 0
                    for row in top..<(top + side) { for column in left..<(left + side) { expected += Int(bytes[row * width + column]) } }
                    let summed = PlaneLayout.packedSquareSum(at: base + top * width + left, stride: width, side: side)
                    #expect(summed == expected, "at \(left),\(top)")
                    if summed != expected { return }
                }
            }
        }
        let corner = bytes.withUnsafeBytes { plane in
            plane.baseAddress.map { PlaneLayout.packedSquareSum(at: $0, stride: width, side: side) }
        }
        #expect(corner == 255 * side * side)
    }
}
