import Foundation
import ReelKit

/// `--report FILE` of `reel compress` and `reel highlights`: one self-contained HTML page of a
/// finished compression: before and after, the ranges kept, the output's video bit rate over
/// time (SVG), and six pictures of the output.
enum CompressionReport {
    /// Writes the page for `analytics` of `input` compressed to `output` (under a temporary
    /// name, then renamed).
    static func write(input: String, output: URL, analytics: CompressionAnalytics, to page: URL) async throws {
        let rates = try BitRateTimeline.measure(output)
        let info = try MediaInfo.probe(output)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reel-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var pictures: [(Data, Double)] = []
        for index in 0..<6 where info.duration > 0 {
            let time = info.duration * (Double(index) + 0.5) / 6
            let file = scratch.appendingPathComponent("\(index).jpg")
            let result = try await Thumbnailer().thumbnail(of: output, at: MediaTime(seconds: time, timescale: 1_000_000), width: 240, to: file)
            pictures.append((try Data(contentsOf: file), result.times.first?.seconds ?? time))
        }
        let html = Self.page(input: input, output: output.lastPathComponent, analytics: analytics, rates: rates, pictures: pictures)
        let temporary = page.deletingLastPathComponent().appendingPathComponent(".\(page.lastPathComponent).partial")
        try Data(html.utf8).write(to: temporary)
        if FileManager.default.fileExists(atPath: page.path) { try FileManager.default.removeItem(at: page) }
        try FileManager.default.moveItem(at: temporary, to: page)
    }

    static func page(input: String, output: String, analytics a: CompressionAnalytics, rates: [Double], pictures: [(Data, Double)]) -> String {
        let kept = a.keptRanges.map { "\(Formatting.clock($0.start.seconds))-\(Formatting.clock($0.end.seconds))" }.joined(separator: ", ")
        let rows: [(String, String, String)] = [
            ("file", input, output),
            ("size", Formatting.bytes(a.originalFileSize), Formatting.bytes(a.compressedFileSize)),
            ("duration", Formatting.seconds(a.originalDuration), Formatting.seconds(a.compressedDuration)),
            ("dimensions", "\(a.originalDimensions)", "\(a.compressedVisualDimensions)"),
            ("video", Formatting.bitrate(a.originalVideoBitrate), Formatting.bitrate(a.compressedVideoBitrate) + ", " + a.videoCodec),
            ("audio", a.originalAudioBitrate.map(Formatting.bitrate) ?? "none", a.compressedAudioBitrate.map(Formatting.bitrate) ?? "none"),
            ("frame rate", Formatting.frameRate(a.originalFrameRate) + " fps", Formatting.frameRate(a.compressedFrameRate) + " fps"),
        ]
        var body = "<h1>\(ReportPage.escaped(input)) &rarr; \(ReportPage.escaped(output))</h1>"
        body += "<table class=\"summary\"><tr><th></th><th>source</th><th>output</th></tr>"
            + rows.map { "<tr><th>\($0.0)</th><td>\(ReportPage.escaped($0.1))</td><td>\(ReportPage.escaped($0.2))</td></tr>" }.joined()
            + "</table>"
        body += "<p>\(Formatting.speed(a.compressionRatio)) smaller in \(Formatting.elapsed(a.processingTime))"
            + (kept.isEmpty ? "" : "; kept \(ReportPage.escaped(kept))") + "</p>"
        body += "<h2>Output video bit rate over time</h2>" + chart(rates)
        if !pictures.isEmpty {
            body += "<h2>The output</h2><div class=\"grid\">" + pictures.map { data, time in
                "<figure><img src=\"data:image/jpeg;base64,\(data.base64EncodedString())\" alt=\"output at \(Formatting.seconds(time))\">"
                    + "<figcaption>\(Formatting.seconds(time))</figcaption></figure>"
            }.joined() + "</div>"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(ReportPage.escaped(output)) - reel report</title>
            <style>body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1040px;color:#1d2433}\
            h1{font-size:22px}h2{font-size:17px;margin-top:28px}table.summary th{text-align:left;padding:2px 16px 2px 0;color:#556}\
            table.summary td{padding:2px 16px 2px 0}#bitrate{width:100%;height:auto;border:1px solid #d5dae3;background:#fafbfd}\
            #bitrate text{font-size:10px;fill:#445}.grid{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0}\
            .grid img{width:240px;display:block}figcaption{font-size:12px;color:#445}</style></head><body>\(body)</body></html>
            """
    }

    /// The bit rate per second as bars, with the mean as a dashed line.
    static func chart(_ rates: [Double]) -> String {
        let width = 1000.0, height = 180.0, top = 14.0, bottom = 160.0
        guard !rates.isEmpty, let peak = rates.max(), peak > 0 else { return "<p>no video packets</p>" }
        let step = width / Double(rates.count)
        var parts: [String] = []
        for (index, rate) in rates.enumerated() {
            let barHeight = (bottom - top) * rate / peak
            parts.append(String(format: "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#4f7cc2\"/>",
                                Double(index) * step, bottom - barHeight, max(step - 0.5, 0.5), barHeight))
        }
        let mean = rates.reduce(0, +) / Double(rates.count)
        let meanY = bottom - (bottom - top) * mean / peak
        parts.append(String(format: "<line x1=\"0\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#d62728\" stroke-dasharray=\"5 3\"/>", meanY, width, meanY))
        parts.append("<text x=\"4\" y=\"11\">peak \(Formatting.bitrate(peak)), mean \(Formatting.bitrate(mean)), one bar a second</text>")
        parts.append("<text x=\"4\" y=\"175\">0:00</text><text x=\"996\" y=\"175\" text-anchor=\"end\">"
            + "\(Formatting.clock(Double(rates.count)))</text>")
        return "<svg id=\"bitrate\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">" + parts.joined() + "</svg>"
    }
}
