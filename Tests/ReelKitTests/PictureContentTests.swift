import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelMedia
@testable import ReelSupport

/// The per-picture cues: something in frame, text-likeness, camera versus subject motion.
@Suite(.timeLimit(.minutes(5))) struct PictureContentTests {
    static let width = 128, height = 72

    /// A picture filled by `luma(x, y)` with flat chroma (`u`, `v` per chroma pixel).
    static func picture(luma: (Int, Int) -> UInt8, u: (Int, Int) -> UInt8 = { _, _ in 128 },
                        v: (Int, Int) -> UInt8 = { _, _ in 128 }) -> SmallPicture {
        var y = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height { for column in 0..<width { y[row * width + column] = luma(column, row) } }
        var cb = [UInt8](repeating: 0, count: width * height / 4), cr = cb
        for row in 0..<(height / 2) {
            for column in 0..<(width / 2) {
                cb[row * width / 2 + column] = u(column * 2, row * 2)
                cr[row * width / 2 + column] = v(column * 2, row * 2)
            }
        }
        return SmallPicture(time: .zero, width: width, height: height, luma: y, chromaU: cb, chromaV: cr, faceLuma: nil)
    }

    /// Deterministic texture.
    static func noise(_ x: Int, _ y: Int) -> UInt8 { UInt8(truncatingIfNeeded: (x &* 7919 &+ y &* 104_729) ^ (x &* y &* 31)) }

    @Test func emptySkyAndGroundHaveNoSubjectButACharacterHas() {
        // Sky over ground, the horizon across the whole width: every middle color reaches the edge.
        let scenery = Self.picture(luma: { _, y in y < 36 ? 190 : 90 }, u: { _, y in y < 36 ? 160 : 110 })
        #expect(PictureContent.measure(scenery).subject < 0.1)
        // The same with a differently colored figure in the middle.
        let figure = Self.picture(
            luma: { x, y in (48..<80).contains(x) && (20..<56).contains(y) ? 230 : (y < 36 ? 190 : 90) },
            u: { x, y in (48..<80).contains(x) && (20..<56).contains(y) ? 90 : (y < 36 ? 160 : 110) },
            v: { x, y in (48..<80).contains(x) && (20..<56).contains(y) ? 180 : 128 })
        #expect(PictureContent.measure(figure).subject > 0.5)
    }

    @Test func whiteTextOnBlackLooksLikeText() {
        let credits = Self.picture(luma: { x, y in (y % 12 < 3 && x % 5 < 2 && (20..<108).contains(x)) ? 235 : 16 })
        #expect(PictureContent.textLikeness(credits) > 0.5)
        let scene = Self.picture(luma: { x, y in Self.noise(x, y) / 2 + 60 }, u: { x, _ in UInt8(100 + x / 4) })
        #expect(PictureContent.textLikeness(scene) < 0.5)
    }

    @Test func aPanIsCameraMotionAndAMovingFigureIsSubjectMotion() throws {
        let before = Self.picture(luma: { x, y in Self.noise(x, y) })
        let panned = Self.picture(luma: { x, y in Self.noise(x - 5, y + 2) })
        let pan = try #require(GlobalMotion.estimate(from: before, to: panned))
        #expect(pan.dx == 5 && pan.dy == -2)
        #expect(pan.residual < 0.01)
        // Still background, a block of new content in the middle.
        let moved = Self.picture(luma: { x, y in (40..<88).contains(x) && (20..<52).contains(y) ? Self.noise(y, x) : Self.noise(x, y) })
        let figure = try #require(GlobalMotion.estimate(from: before, to: moved))
        #expect(figure.residual > 0.05)
        #expect(figure.cameraShare(width: Self.width) < 0.05)
    }

    @Test func linesOfTextOnTheLargerPictureAreCredits() {
        let width = 480, height = 270
        func gray(_ value: (Int, Int) -> UInt8) -> GrayPicture {
            var luma = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width { luma[y * width + x] = value(x, y) } }
            return GrayPicture(width: width, height: height, luma: luma)
        }
        // Twelve lines of 8 px letters (strokes every 3 px) with 10 px of spacing, on dark blue-gray.
        let credits = gray { x, y in (y % 18 < 8 && y > 20 && y < 240 && x % 6 < 2 && (60..<420).contains(x)) ? 230 : 30 }
        #expect(PictureContent.textLines(credits) > 0.9)
        // Foliage: busy on every row.
        let foliage = gray { x, y in Self.noise(x, y) }
        #expect(PictureContent.textLines(foliage) == 0)
        // A figure with stripes (one tall band) on a plain sky.
        let figure = gray { x, y in (150..<330).contains(x) && (60..<240).contains(y) && x % 4 < 2 ? 200 : 120 }
        #expect(PictureContent.textLines(figure) == 0)
    }
}

