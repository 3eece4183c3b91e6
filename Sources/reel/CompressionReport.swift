import Foundation
import ReelKit

/// The compression part of a report page (`--report FILE` of `reel compress` and `reel
/// highlights`): before and after, the ranges kept, the output's video bit rate over time (SVG)
/// and six pictures of the output. The rest of the page is the source's analysis (`ReportPage`).
struct CompressionReport {
    var outputName: String
    var analytics: CompressionAnalytics
    /// The output's video bit rate per second.
    var rates: [Double]
    /// Six pictures of the output, with their times.
    var pictures: [(Data, Double)]

    /// Measures `output` (its packets, and six pictures).
    static func measure(output: URL, analytics: CompressionAnalytics) async throws -> CompressionReport {
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
        return CompressionReport(outputName: output.lastPathComponent, analytics: analytics, rates: rates, pictures: pictures)
    }

    /// The section's HTML: the side-by-side table, the ratio, the chart and the pictures.
    func html(input: String) -> String {
        let a = analytics
        let kept = a.keptRanges.map { "\(Formatting.clock($0.start.seconds))-\(Formatting.clock($0.end.seconds))" }.joined(separator: ", ")
        var rows: [(String, String, String)] = [
            ("file", input, outputName),
            ("size", Formatting.bytes(a.originalFileSize), Formatting.bytes(a.compressedFileSize)),
            ("duration", Formatting.seconds(a.originalDuration), Formatting.seconds(a.compressedDuration)),
            ("dimensions", "\(a.originalDimensions)", "\(a.compressedVisualDimensions)"),
            ("video", Formatting.bitrate(a.originalVideoBitrate), Formatting.bitrate(a.compressedVideoBitrate) + ", " + a.videoCodec),
            ("audio", a.originalAudioBitrate.map(Formatting.bitrate) ?? "none", a.compressedAudioBitrate.map(Formatting.bitrate) ?? "none"),
            ("frame rate", Formatting.frameRate(a.originalFrameRate) + " fps", Formatting.frameRate(a.compressedFrameRate) + " fps"),
        ]
        if let loudness = a.loudness {
            func levels(_ sound: MeasuredLoudness) -> String {
                String(format: "%.1f LUFS, peak %.1f dBTP", sound.integrated, sound.truePeak)
            }
            rows.append(("loudness", levels(loudness.source),
                         (loudness.output.map(levels) ?? "not measured") + String(format: " (%+.1f dB%@)", loudness.gain,
                                                                                    loudness.limited ? ", peaks limited" : "")))
        }
        var body = "<h2>Compression</h2><table class=\"summary compression\"><tr><th></th><th>source</th><th>output</th></tr>"
            + rows.map { "<tr><th>\($0.0)</th><td>\(ReportPage.escaped($0.1))</td><td>\(ReportPage.escaped($0.2))</td></tr>" }.joined()
            + "</table>"
        body += "<p>\(Formatting.speed(a.compressionRatio)) smaller in \(Formatting.elapsed(a.processingTime))"
            + (kept.isEmpty ? "" : "; kept \(ReportPage.escaped(kept))") + "</p>"
        body += "<h2>Output video bit rate over time</h2>" + Self.chart(rates)
        if !pictures.isEmpty {
            body += "<h2>The output</h2><div class=\"grid\">" + pictures.map { data, time in
                "<figure><img src=\"data:image/jpeg;base64,\(data.base64EncodedString())\" alt=\"output at \(Formatting.seconds(time))\">"
                    + "<figcaption>output at \(Formatting.seconds(time))</figcaption></figure>"
            }.joined() + "</div>"
        }
        return body
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
