import Foundation
import Testing

/// What the web-playback tests share: a clip that is black for a second then white (with a
/// tone), and the result lines a page writes into its `<pre id="out">` under headless Chromium.
enum ChromiumPage {
    /// Writes `blink.mp4` into `scratch`: 320x180 at 30 fps, a black second then a white one,
    /// a 2 s sine at `sampleRate` (ffmpeg's default when nil).
    static func makeBlinkClip(in scratch: Scratch, sampleRate: Int? = nil) async throws {
        let sine = "sine=d=2" + (sampleRate.map { ":sample_rate=\($0)" } ?? "")
        let made = try await Tool.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=320x180:r=30:d=1", "-f", "lavfi",
            "-i", "color=c=white:s=320x180:r=30:d=1", "-f", "lavfi", "-i", sine, "-filter_complex",
            "[0][1]concat=n=2:v=1:a=0,format=yuv420p[v]", "-map", "[v]", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast",
            scratch.path("blink.mp4").path])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// The lines of the string the page's `window.pageResult` promise resolves to, waited for in
    /// real time over Chromium's DevTools pipe. Two tries of two minutes each: a loaded machine is
    /// slow, not wrong, and a second Chromium tells a stuck start from a page that fails.
    static func results(of page: URL, expected: Int) async throws -> (text: String, lines: [String]) {
        var text = "", lines: [String] = []
        for _ in 0..<2 where lines.count < expected {
            let chromium = try ChromiumDevTools(page: page, arguments: ["--allow-file-access-from-files"])
            do {
                text = try chromium.pageResult(timeout: 120)
            } catch {
                text = "\(error)"
            }
            lines = text.split(separator: "\n").map(String.init)
        }
        return (text, lines)
    }
}
