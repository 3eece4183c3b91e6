import Foundation
import ReelKit
import Testing

/// `reel thumbnail`: default naming, overwrite rule, sheets, JSON and errors.
@Suite(.timeLimit(.minutes(5))) struct ThumbnailCommandTests {
    @Test func writesTheKeyFrameAndRefusesToOverwrite() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let run = try Reel.run(["thumbnail", "clip.mp4", "--json"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try run.jsonObject()
        #expect(Set(object.keys) == ["source", "output", "times", "width", "height", "damagedPictures"])
        #expect(object["damagedPictures"] as? Int == 0)
        #expect(object["output"] as? String == "clip-thumbnail.jpg")
        #expect(object["width"] as? Int == 320 && object["height"] as? Int == 180)
        let info = try MediaInfo.probe(scratch.path("clip-thumbnail.jpg"))
        #expect(info.primaryVideo?.codecName == "mjpeg")
        let again = try Reel.run(["thumbnail", "clip.mp4"], in: scratch.url)
        #expect(again.status == 1)
        #expect(again.stderr.contains("clip-thumbnail.jpg: already exists"))
    }

    @Test func sheetAtAndErrors() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try TestClips.copy(.video, to: scratch.url, as: "clip.mp4")
        let sheet = try Reel.run(["thumbnail", "clip.mp4", "--sheet", "4", "--width", "80", "-o", "s.png", "--json"],
                                 in: scratch.url)
        #expect(sheet.status == 0, "\(sheet.stderr)")
        #expect((try sheet.jsonObject()["times"] as? [Double])?.count == 4)
        #expect(try MediaInfo.probe(scratch.path("s.png")).primaryVideo?.codecName == "png")
        let at = try Reel.run(["thumbnail", "clip.mp4", "--at", "0.5", "-o", "a.png"], in: scratch.url)
        #expect(at.status == 0)
        #expect(at.stdout.contains("at 0.500 s"), "\(at.stdout)")
        let late = try Reel.run(["thumbnail", "clip.mp4", "--at", "9", "-o", "b.png"], in: scratch.url)
        #expect(late.status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("b.png").path))
        let both = try Reel.run(["thumbnail", "clip.mp4", "--at", "0.5", "--sheet", "3"], in: scratch.url)
        #expect(both.status == 2)
    }
}
