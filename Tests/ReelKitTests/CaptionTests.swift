import Foundation
import Testing
@testable import ReelAnalysis
@testable import ReelMedia
@testable import ReelSupport

/// Captions laid over a picture (`CaptionFinder`) and the key frame's choice around them.
@Suite(.timeLimit(.minutes(5))) struct CaptionTests {
    /// A 640x360 picture drawn by the ffmpeg CLI from the lavfi `source`, with `caption` (if
    /// any) written across its lower middle in `color`, read back through `PictureReader`.
    static let directory = Result { try Fixtures.scratchDirectory("captions") }

    static func picture(_ source: String, caption: String?, color: String = "white", font: String = "Serif",
                        size: Int = 24) throws -> RGBPicture {
        let directory = try Self.directory.get()
        let url = directory.appendingPathComponent("\(abs((source + (caption ?? "") + color + font).hashValue)).png")
        var filter = "scale=640:360"
        if let caption {
            filter += ",drawtext=text='\(caption)':font=\(font):fontcolor=\(color):fontsize=\(size):x=(w-tw)/2:y=h*0.55"
        }
        _ = try Fixtures.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-vf", filter,
                                                 "-frames:v", "1", url.path])
        return try PictureReader.image(at: url, maximumSide: 640)
    }

    static let scenes = [
        "mandelbrot=s=640x360:end_scale=0.05",
        "cellauto=s=640x360:rule=110:random_fill_ratio=0.6,format=rgb24,colorchannelmixer=rr=0.4:gg=0.8:bb=0.3",
        "gradients=s=640x360:c0=0x5080c0:c1=0xc0a060:seed=7",
    ]

    @Test(arguments: scenes)
    func aLineOfLightTextIsACaption(scene: String) throws {
        for font in ["Serif", "Sans"] {
            let captioned = try Self.picture(scene, caption: "And three rodent pests", font: font)
            // 19 letters: most of them found, twice what makes a caption.
            #expect(CaptionFinder.longestLine(captioned) >= 2 * CaptionFinder.minimumLetters, "\(font) over \(scene): \(CaptionFinder.longestLine(captioned)) letters")
        }
        let plain = try Self.picture(scene, caption: nil)
        #expect(CaptionFinder.longestLine(plain) <= 1, "\(scene): \(CaptionFinder.longestLine(plain)) letters")
    }

    @Test func lightSpecksThatDoNotShareABaselineAreNoCaption() throws {
        // Hundreds of letter-sized light specks at random places, like sky through leaves.
        let specks = try Self.picture("color=c=0x305020:s=128x72,geq=lum='if(lt(random(1),0.03),250,60)':cb=128:cr=128",
                                      caption: nil)
        let specksInLine = CaptionFinder.longestLine(specks)
        #expect(CaptionFinder.letterBoxes(CaptionFinder.lightMask(specks), width: 640, height: 360).count > 100)
        #expect(specksInLine < CaptionFinder.minimumLetters, "\(specksInLine)")
        // A single short word is not a line of text.
        let word = try Self.picture(Self.scenes[2], caption: "Hi", font: "Sans", size: 30)
        #expect(CaptionFinder.longestLine(word) <= 2)
        #expect(!CaptionFinder.hasCaption(word))
    }

    static func frames(_ count: Int) -> [FrameFeatures] {
        (0..<count).map { sample in
            FrameFeatures(time: MediaTime(value: Int64(sample), timescale: 1), brightness: 0.5, contrast: 0.2,
                          sharpness: 0.05, colorfulness: 0.2, change: 0.01)
        }
    }

    @Test func theKeyFramePrefersAPictureWithoutACaption() {
        let frames = Self.frames(4)
        let scored: [(index: Int, score: Double)] = [(0, 0.5), (1, 0.9), (2, 0.8), (3, 0.6)]
        // The best has a caption; the next, 0.8 against 0.9 x 0.8, has none and wins.
        var looked: [Int64] = []
        let chosen = KeyFrameSelector.best(of: scored, in: frames) { time in
            looked.append(time.value)
            return time.value == 1
        }
        #expect(chosen == frames[2].time)
        #expect(looked == [1, 2])
        // A caption-free best costs one look.
        looked = []
        _ = KeyFrameSelector.best(of: scored, in: frames) { time in
            looked.append(time.value)
            return false
        }
        #expect(looked == [1])
        // Captions everywhere (burned-in subtitles): the best still wins.
        #expect(KeyFrameSelector.best(of: scored, in: frames) { _ in true } == frames[1].time)
        // Far enough behind, a caption-free picture does not win.
        let behind: [(index: Int, score: Double)] = [(1, 0.9), (2, 0.6)]
        #expect(KeyFrameSelector.best(of: behind, in: frames) { $0.value == 1 } == frames[1].time)
    }
}
